#include "arena/tournament/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "arena/record/escape.hpp"

namespace arena::tournament {
namespace {

std::vector<std::string> bot_names(const Config& config) {
    std::vector<std::string> n;
    for (const auto& b : config.bots)
        n.push_back(b.name);
    return n;
}

}  // namespace

void fit_to_terminal(ProgressOptions& options, int fd) {
    options.live = isatty(fd) != 0;
    if (winsize size{}; options.live && ioctl(fd, TIOCGWINSZ, &size) == 0)
        options.width = size.ws_col;
}

Progress::Progress(const Config& config, std::ostream& out, ProgressOptions options)
    : config_(config), out_(out), options_(options), tally_(bot_names(config)) {}

void Progress::run_started(std::int64_t total, std::int64_t stored, const std::string& summary) {
    total_ = total;
    done_ = stored;
    summary_ = summary;
    start_ = std::chrono::steady_clock::now();
    if (options_.messages == nullptr || stored == 0) return;
    const auto left = std::max<std::int64_t>(0, total - stored);
    auto& m = *options_.messages;
    if (left > 0) {
        m << "arena run: resuming tournament '" << record::escape_controls(config_.name)
          << "': " << stored << " of " << total << " games stored, " << left << " left to play\n";
    } else {
        m << "arena run: tournament '" << record::escape_controls(config_.name) << "': all "
          << stored << " games stored, nothing left to play\n";
    }
    m << std::flush;
}

void Progress::game_stored(std::int64_t index, std::int64_t game_id, const record::GameRecord& r) {
    ++done_;
    ++played_;
    if (r.termination != record::Termination::kNormal) ++faults_;
    tally_.add(r);
    if (options_.live) {
        print_live();
        return;
    }
    if (options_.news_only) return;
    // The game's number is its stored id, the one `arena games` lists and
    // `show`, `log` and the web pages take; the count after it is progress,
    // not a number of a game.
    out_ << "game #" << game_id << " (" << done_ << "/" << total_
         << " stored): " << record::escape_controls(r.players[0]) << " vs "
         << record::escape_controls(r.players[1]) << "  " << record::score_text(r.outcome) << "  "
         << record::to_string(r.termination) << "  " << r.moves.size() << " plies";
    if (options_.schedule_games > 0)
        out_ << "  (schedule position " << index + 1 << " of " << options_.schedule_games << ")";
    if (const auto fault = record::fault_description(r); !fault.empty())
        out_ << "  (" << record::escape_controls(fault) << ")";
    out_ << "\n";
}

void Progress::schedule_changed(std::int64_t total, const std::string& summary,
                                const std::vector<std::string>& news) {
    summary_ = summary;
    total_ = total;
    for (const auto& line : news) {
        if (options_.live) out_ << "\r\x1b[K";
        out_ << line << "\n";
        if (options_.live) print_live(true);
    }
}

void Progress::run_ended() {
    if (options_.live && played_ > 0) out_ << "\n" << std::flush;
}

void Progress::print_live(bool now_anyway) {
    const auto now = std::chrono::steady_clock::now();
    if (!now_anyway && played_ > 1 && done_ < total_ &&
        now - last_print_ < std::chrono::milliseconds(100))
        return;
    last_print_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double rate = secs > 0 ? static_cast<double>(played_) / secs : 0.0;
    const auto& bots = tally_.bots();
    const auto leader = std::max_element(bots.begin(), bots.end(),
                                         [](auto& a, auto& b) { return a.score() < b.score(); });
    std::ostringstream line;
    line << "\r" << done_ << "/" << total_ << " games  " << std::fixed << std::setprecision(1)
         << rate << " games/s  ETA ";
    if (rate > 0) {
        const auto eta = static_cast<std::int64_t>(static_cast<double>(total_ - done_) / rate);
        line << eta / 60 << ":" << std::setw(2) << std::setfill('0') << eta % 60
             << std::setfill(' ');
    } else {
        line << "-";
    }
    line << "  faults " << faults_;
    if (leader != bots.end() && leader->games() > 0)
        line << "  leader " << leader->name << " " << std::setprecision(1)
             << 100.0 * leader->score() << "%";
    if (!summary_.empty()) line << "  " << summary_;
    // One column short of the width: a line that fills it wraps on some
    // terminals, and each update would leave a new line behind.
    std::string text = line.str();
    if (options_.width > 1 && text.size() > static_cast<std::size_t>(options_.width))
        text.resize(static_cast<std::size_t>(options_.width));  // "\r" takes no column
    out_ << text << "\x1b[K" << std::flush;
}

}  // namespace arena::tournament
