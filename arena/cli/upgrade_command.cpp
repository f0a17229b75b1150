// `arena upgrade DB...`: brings results databases written by an older arena
// to this arena's schema, in place. The commands that only read never write
// to a file (an older one is read through an upgraded copy in memory), so
// this, and `arena run` into the file, are the only upgrades.

#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kUsage =
    "usage: arena upgrade DB...\n\n"
    "Upgrades each results database written by an older arena to this arena's\n"
    "schema, in place, keeping every stored game. A database of this schema is\n"
    "left as it is. Reading commands (standings, games, report, ...) read an older\n"
    "file without upgrading it; arena serve and arena merge need it upgraded.\n\n";

}  // namespace

int upgrade_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> files;
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help");
    if (auto code =
            parse_file_args("upgrade", kUsage, args, opts, 1, "missing DB", files, out, err))
        return *code;
    int status = kExitOk;
    for (const auto& file : files) {
        try {
            out << store::upgrade_database(file) << "\n";
        } catch (const std::exception& e) {
            err << "arena upgrade: " << e.what() << "\n";
            status = kExitFailure;
        }
    }
    return status;
}

}  // namespace arena::cli
