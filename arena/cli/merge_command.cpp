// `arena merge OUT.db IN.db...`: merges results databases of the same
// tournaments (the shards of `arena run --shard K/N`) into one
// (arena/store/merge.hpp, docs/cluster.md).

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/store/merge.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kMergeUsage = R"(usage: arena merge OUT.db IN.db [IN.db ...]

Merges the games of the input databases into OUT.db (created when missing):
the shards of a tournament played with `arena run CONFIG --shard K/N`, or
any databases of the same tournament. Inputs whose tournament fingerprint or
bots (and the SHA-256 of their programs) differ are refused; games already
in OUT.db are kept, so merging again adds only what is new, and may be done
while the shards still run. The same game with different results in two
files is an error naming both. A new OUT.db is written as OUT.db.merging
and gets its name only once whole. `arena standings OUT.db` then gives the
tournament's standings (docs/cluster.md).

)";

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
        for (const auto& t : summary.tournaments)
            out << store::merged_text(t, output);
        return kExitOk;
    } catch (const std::exception& e) {
        err << "arena merge: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace arena::cli
