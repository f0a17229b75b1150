// `arena grade CONFIG`: the grade table of a course's gauntlet (a folder of
// submissions against reference bots, arena/grade/grade.hpp). It first plays
// what is missing, as `arena run CONFIG` does (its progress on stderr), then
// prints one row per submission on stdout, as text, CSV or JSON.

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/config_args.hpp"
#include "arena/grade/grade.hpp"
#include "arena/grade/tee.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kGradeUsage =
    R"(usage: arena grade CONFIG [--db FILE] [--csv | --json] [--stored] [--concurrency N]

The grade table of a gauntlet config, such as a folder of course submissions
against reference strategies (schedule: { type: gauntlet, challengers: bots_dir },
configs/course-grading-folder.yaml). First plays the games that are missing, as
`arena run CONFIG` does (checking new or changed submissions with check: true;
its progress goes to stderr), then prints one row per submission, in name order:
the points it scored against each reference, its total and the most possible,
its losses by faults (every fault is a loss), its check, and a note when it
lost points without playing (a failed check, games not played).

)";

}  // namespace

int grade_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string config_path, db_override;
    bool csv = false, json = false, stored_only = false;
    int concurrency = 0;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("db", po::value<std::string>(&db_override), "results database (default: the config's)")
        ("csv", po::bool_switch(&csv), "print the table as CSV")
        ("json", po::bool_switch(&json), "print the table as JSON")
        ("stored", po::bool_switch(&stored_only), "play nothing: the table of the games stored so far")
        ("concurrency,j", po::value<int>(&concurrency), "games at once while playing (default: the config's)");
    // clang-format on
    bool concurrency_given = false;
    if (const auto done = parse_config_args(
            "grade", kGradeUsage, args, opts, config_path, out, err,
            [&](const po::variables_map& vm) {
                concurrency_given = vm.count("concurrency") > 0;
                if (csv && json)
                    throw std::invalid_argument("give either --csv or --json, not both");
                if (concurrency_given && concurrency < 1)
                    throw std::invalid_argument("--concurrency must be at least 1");
                if (concurrency_given && stored_only)
                    throw std::invalid_argument(
                        "--concurrency is for playing, and --stored plays nothing");
            }))
        return *done;

    auto loaded = tournament::load_config(config_path, err);
    if (!loaded) return kExitUsage;
    tournament::Config config = std::move(*loaded);
    if (const auto problem = grade::grading_problem(config); !problem.empty()) {
        err << "arena grade: " << problem << "\n";
        return kExitUsage;
    }
    if (!db_override.empty()) config.database = db_override;

    // Play what is missing; its output is progress, so it goes to stderr.
    int played = kExitOk;
    std::map<std::string, std::string> given_up;
    if (!stored_only) {
        std::vector<std::string> run_args{config_path, "--db", config.database.string()};
        if (concurrency_given) {
            run_args.push_back("--concurrency");
            run_args.push_back(std::to_string(concurrency));
        }
        grade::Tee tee(err);
        std::ostream progress(&tee);
        played = run_command(run_args, progress, progress);
        progress.flush();
        given_up = grade::given_up_bots(tee.text());
        // A refused config or an interruption: no table. A bot given up
        // (a library that does not load) still gets its row, its missing
        // games scoring nothing; the exit status says that games are missing.
        if (played != kExitOk && played != kExitFailure) return played;
    }
    std::error_code ec;
    if (!std::filesystem::exists(config.database, ec)) {
        err << "arena grade: " << config.database.string()
            << ": no such file (nothing played yet; run without --stored)\n";
        return kExitFailure;
    }
    try {
        store::ResultsStore store(config.database, config.journal_mode);
        const auto table = grade::make_table(config, store, given_up);
        if (!table.stored && played != kExitOk) return played;
        out << (csv    ? grade::format_csv(table)
                : json ? grade::format_json(table)
                       : grade::format_text(table));
    } catch (const std::exception& e) {
        err << "arena grade: " << e.what() << "\n";
        return kExitFailure;
    }
    return played;
}

}  // namespace arena::cli
