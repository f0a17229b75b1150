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

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kMergeUsage = R"(usage: arena merge OUT.db IN.db [IN.db ...]

Merges the games of the input databases into OUT.db (created when missing):
the shards of a tournament played with `arena run CONFIG --shard K/N`, the
workers of `arena run CONFIG --worker K/N`, or any databases of the same
tournament. Inputs whose tournament fingerprint or bots (and the SHA-256 of
their programs) differ are refused; games already in OUT.db are kept, so
merging again adds only what is new, and may be done while the shards
still run. The same game with different results in two files is an error
naming both. A new OUT.db is written as OUT.db.merging and gets its name
only once whole. A gauntlet with sprt is complete once its tests are
decided, a ladder once its entrants are placed: the merge tells from the
stored config (whose bots must be found at their paths) and prints each
test. `arena standings OUT.db` then gives the tournament's standings
(docs/cluster.md).

)";

// What the merge gives of tournament `t`: a gauntlet with `sprt` and a
// ladder (the workers' of `arena run --worker`) with their totals from the
// stored config (tournament/completion.hpp), and a gauntlet's tests as
// `arena run` prints them.
void say_merged(const std::filesystem::path& output, store::MergedTournament t, std::ostream& out,
                std::ostream& err) {
    std::optional<tournament::StoredCompletion> done;
    try {
        store::ResultsStore store(output);
        if (const auto row = store.find_tournament(t.name)) {
            std::string problem;
            done = tournament::stored_completion(
                store, *row, output.string() + ": tournament '" + t.name + "'", problem);
            if (!problem.empty()) err << "arena merge: " << problem << "\n";
        }
    } catch (const std::exception& e) {
        err << "arena merge: " << output.string() << ": " << e.what() << "\n";
    }
    if (done) {
        t.games = done->completion.stored;
        t.total = done->completion.total;
    }
    out << store::merged_text(t, output);
    if (done && done->sprt)
        print_sprt_tests(out, done->completion.sprt_tests, *done->sprt, done->completion.lineup);
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
