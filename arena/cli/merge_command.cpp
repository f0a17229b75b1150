// `arena merge OUT.db IN.db...`: merges results databases of the same
// tournaments (the shards of `arena run --shard K/N`, the workers of
// `arena run --worker K/N`) into one
// (arena/store/merge.hpp, docs/cluster.md).

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/cli/sprt_tests.hpp"
#include "arena/store/merge.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/completion.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kMergeUsage = R"(usage: arena merge OUT.db IN.db [IN.db ...]

Merges the games of the input databases into OUT.db (created when missing):
the shards of a tournament played with `arena run CONFIG --shard K/N`, the
workers of `arena run CONFIG --worker K/N`, or any databases of the same
tournament. A gauntlet with sprt is complete once its tests are decided, a
ladder once its entrants are placed: the merge tells from the stored config
(whose bots must be found at their paths) and prints each test. Inputs whose tournament fingerprint or
bots (and the SHA-256 of their programs) differ are refused; games already
in OUT.db are kept, so merging again adds only what is new, and may be done
while the shards still run. The same game with different results in two
files is an error naming both. A new OUT.db is written as OUT.db.merging
and gets its name only once whole. `arena standings OUT.db` then gives the
tournament's standings (docs/cluster.md).

)";

// What the merge gives of tournament `t`. A gauntlet with `sprt` and a
// ladder (the workers' of `arena run --worker`) are complete once their
// tests are decided or their entrants placed, which the stored config
// tells: their totals and status are set from it, and a gauntlet's tests
// are printed as `arena run` prints them. When the config does not load
// here (its bots are not at the paths it names), the schedule's total stands.
void say_merged(const std::filesystem::path& output, store::MergedTournament t, std::ostream& out,
                std::ostream& err) {
    std::optional<tournament::Completion> done;
    std::optional<tournament::Config> config;
    try {
        store::ResultsStore store(output);
        const auto row = store.find_tournament(t.name);
        const auto settings =
            row ? tournament::stored_settings(row->spec.config_text) : tournament::StoredSettings{};
        if (settings.gauntlet_test || settings.ladder) {
            const auto where = output.string() + ": tournament '" + t.name + "'";
            try {
                config = tournament::parse_config(row->spec.config_text, where);
            } catch (const std::exception& e) {
                err << "arena merge: " << where
                    << ": whether its tests are decided (or its entrants placed) is not known "
                       "here: its stored config does not load: "
                    << e.what() << "\n";
            }
            if (config) {
                done = tournament::completion(store, row->id, *config);
                t.games = done->stored;
                t.total = done->total;
                store.set_status(row->id, done->complete() ? "finished" : "interrupted");
            }
        }
    } catch (const std::exception& e) {
        err << "arena merge: " << output.string() << ": " << e.what() << "\n";
    }
    out << store::merged_text(t, output);
    if (done && config->sprt) print_sprt_tests(out, done->sprt_tests, *config->sprt, done->lineup);
}

}  // namespace

int merge_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> files;
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help");
    if (auto code = parse_file_args("merge", kMergeUsage, args, opts, 1, "missing OUT.db and IN.db",
                                    files, out, err))
        return *code;
    if (files.size() < 2) {
        err << "arena merge: missing IN.db: nothing to merge\n(arena merge --help for usage)\n";
        return kExitUsage;
    }

    const std::filesystem::path output = files.front();
    const std::vector<std::filesystem::path> inputs(files.begin() + 1, files.end());
    store::MergeOptions options;
    options.merged = [&](const store::MergedInput& m) {
        out << store::merged_text(m, output) << std::flush;
    };
    try {
        const auto summary = store::merge_databases(output, inputs, options);
        for (auto t : summary.tournaments)
            say_merged(output, t, out, err);
        return kExitOk;
    } catch (const std::exception& e) {
        err << "arena merge: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace arena::cli
