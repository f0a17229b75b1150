// `arena report DB [--tournament NAME] -o FILE`: the self-contained HTML
// report of a stored tournament (arena/report/html_report.hpp).

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/anchors.hpp"
#include "arena/report/html_report.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kUsage =
    "usage: arena report DB [--tournament NAME] [--anchor BOT=ELO ...] -o FILE\n\n"
    "Writes one self-contained HTML page for a stored tournament: the standings\n"
    "(as arena standings prints them), the crosstable, charts of the ratings,\n"
    "endings and move times, and every game in a replay viewer. The page needs no\n"
    "network and no other file; open it in a browser. -o - writes it to standard\n"
    "output.\n\n";

// The named tournament, or the only one; nullopt after saying why not.
std::optional<store::TournamentRow> pick(store::ResultsStore& store,
                                         const std::optional<std::string>& name,
                                         const std::string& db, std::ostream& err) {
    if (name) {
        auto t = store.find_tournament(*name);
        if (!t) {
            err << "arena report: no tournament '" << record::escape_controls(*name) << "' in "
                << db << "\n";
        }
        return t;
    }
    auto all = store.tournaments();
    if (all.size() == 1) return all.front();
    if (all.empty()) {
        err << "arena report: no tournament in " << db << "\n";
    } else {
        err << "arena report: " << db << " holds " << all.size()
            << " tournaments; choose one with --tournament:";
        for (const auto& t : all)
            err << " " << record::escape_controls(t.spec.name);
        err << "\n";
    }
    return std::nullopt;
}

// Writes the page to a temporary file beside `target`, then renames it, so
// that a failed run never leaves half a report where a whole one was.
class ReportFile {
  public:
    explicit ReportFile(fs::path target) : target_(std::move(target)) {
        temporary_ = target_;
        temporary_ += ".tmp-" + std::to_string(::getpid());
        out_.open(temporary_, std::ios::binary | std::ios::trunc);
        if (!out_) problem_ = std::strerror(errno);
    }
    ~ReportFile() {
        if (!committed_) {
            std::error_code ec;
            fs::remove(temporary_, ec);
        }
    }
    ReportFile(const ReportFile&) = delete;
    ReportFile& operator=(const ReportFile&) = delete;

    [[nodiscard]] const std::string& problem() const { return problem_; }
    std::ostream& stream() { return out_; }

    // False, with problem() set, when the page could not be written whole.
    bool commit() {
        out_.flush();
        if (!out_) {
            problem_ = std::strerror(errno != 0 ? errno : EIO);
            return false;
        }
        out_.close();
        std::error_code ec;
        fs::rename(temporary_, target_, ec);
        if (ec) {
            problem_ = ec.message();
            return false;
        }
        committed_ = true;
        return true;
    }

  private:
    fs::path target_, temporary_;
    std::ofstream out_;
    std::string problem_;
    bool committed_ = false;
};

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
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        const auto t = pick(store, a.tournament, a.db, err);
        if (!t) return kExitUsage;
        const auto settings = tournament::stored_settings(t->spec.config_text);
        report::ReportOptions options;
        try {
            options.anchors = anchors ? *anchors : settings.checked_anchors();
        } catch (const std::invalid_argument& e) {
            err << "arena report: tournament '" << record::escape_controls(t->spec.name) << "' in "
                << a.db << ": " << e.what() << " (give the anchors with --anchor BOT=ELO)\n";
            return kExitUsage;
        }
        const auto bots = store.bots(t->id);
        for (const auto& anchor : options.anchors) {
            const bool known = std::any_of(bots.begin(), bots.end(),
                                           [&](const auto& b) { return b.name == anchor.name; });
            if (!known) {
                err << "arena report: the anchor '" << record::escape_controls(anchor.name)
                    << "' is not a bot of tournament '" << record::escape_controls(t->spec.name)
                    << "' in " << a.db << "\n";
                return kExitUsage;
            }
        }
        options.points = settings.scoring;

        if (output == "-") {
            report::write_report(store, *t, options, out);
            out.flush();
            return out ? kExitOk : kExitFailure;
        }
        std::error_code ec;
        if (fs::is_directory(output, ec)) {
            err << "arena report: " << output << " is a directory (-o names the HTML file)\n";
            return kExitUsage;
        }
        ReportFile file(output);
        if (!file.problem().empty()) {
            err << "arena report: cannot write " << output << ": " << file.problem() << "\n";
            return kExitFailure;
        }
        report::write_report(store, *t, options, file.stream());
        if (!file.commit()) {
            err << "arena report: cannot write " << output << ": " << file.problem() << "\n";
            return kExitFailure;
        }
        return kExitOk;
    } catch (const std::exception& e) {
        err << "arena report: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace arena::cli
