// `arena report DB [--tournament NAME] -o FILE`: the self-contained HTML
// report of a stored tournament (arena/report/html_report.hpp).

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/report/anchors.hpp"
#include "arena/report/html_report.hpp"
#include "arena/report/report_file.hpp"
#include "arena/report/stored_anchors.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {

namespace po = boost::program_options;

namespace {

constexpr std::string_view kUsage =
    "usage: arena report DB [--tournament NAME] [--anchor BOT=ELO ...] -o FILE\n\n"
    "Writes one self-contained HTML page for a stored tournament: the standings\n"
    "(as arena standings prints them), the crosstable, charts of the ratings,\n"
    "endings and move times, and every game in a replay viewer. The page needs no\n"
    "network and no other file; open it in a browser. -o - writes it to standard\n"
    "output.\n\n";

}  // namespace

int report_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    std::string output;
    std::optional<std::vector<rating::Anchor>> anchors;
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help")(
        "tournament,t", po::value<std::string>(),
        "tournament name (needed when the database holds several)")(
        "output,o", po::value<std::string>(&output)->required(),
        "the HTML file to write ('-': standard output)")(
        "anchor",
        po::value<std::vector<std::string>>()->composing()->notifier(
            [&](const std::vector<std::string>& v) { anchors = report::parse_anchors(v); }),
        "BOT=ELO: hold BOT at rating ELO, as in arena standings (repeatable); default: the "
        "anchors of the tournament's config, else mean 0");
    if (auto code = parse_db_args("report", kUsage, args, opts, false, a, out, err)) return *code;
    return with_database(a, "report", err, [&](store::ResultsStore& store) {
        const auto t = pick_tournament(store, a, "report", err, true);
        if (!t) return kExitUsage;
        const auto stored = report::stored_report_options(store, *t, anchors, a.db);
        if (!stored.problem.empty()) {
            err << "arena report: " << stored.problem << "\n";
            return kExitUsage;
        }
        const report::ReportOptions& options = stored.options;

        if (output == "-") {
            report::write_report(store, *t, options, out);
            out.flush();
            return out ? kExitOk : kExitFailure;
        }
        std::error_code ec;
        if (std::filesystem::is_directory(output, ec)) {
            err << "arena report: " << output << " is a directory (-o names the HTML file)\n";
            return kExitUsage;
        }
        const auto problem = report::write_whole_file(
            output, [&](std::ostream& file) { report::write_report(store, *t, options, file); });
        if (!problem.empty()) {
            err << "arena report: cannot write " << output << ": " << problem << "\n";
            return kExitFailure;
        }
        return kExitOk;
    });
}

}  // namespace arena::cli
