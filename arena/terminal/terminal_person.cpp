#include "arena/terminal/terminal_person.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <iomanip>

#include "arena/games/connect4.hpp"
#include "arena/record/escape.hpp"

namespace arena::terminal {
namespace {

using Millis = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

std::string notation_help(const std::string& game, const games::State& state) {
    if (game == "connect4") {
        // The widest board's last column is the number of columns.
        std::string last = "?";
        for (int col = 0; col < games::kConnect4MaxSize; ++col)
            if (state.parse_move(std::to_string(col + 1))) last = std::to_string(col + 1);
        return "type a column number, 1 (left) to " + last;
    }
    if (game == "gomoku")
        return "type a cell as column letter and row number, a1 at the bottom left (e.g. c3)";
    return "type a cell as column letter and row number, a1 at the top left (e.g. d3)";
}

TerminalPerson::TerminalPerson(std::ostream& out, std::string game, int side, std::string bot,
                               int input)
    : out_(out), game_(std::move(game)), side_(side), bot_(std::move(bot)), input_(input) {}

std::optional<std::string> TerminalPerson::next_move(const games::State& state,
                                                     std::string_view refused,
                                                     std::optional<TimePoint> deadline,
                                                     std::stop_token stop) {
    if (refused.empty()) {
        out_ << "\n" << state.render();
    } else {
        out_ << "refused: " << record::escape_controls(refused) << " ("
             << notation_help(game_, state) << ")\n";
    }
    for (;;) {
        out_ << "your move (" << (side_ == 1 ? 'X' : 'O') << "): " << std::flush;
        auto line = read_line(deadline, stop);
        if (!line) {
            if (!stop.stop_requested() && !(deadline && Clock::now() >= *deadline))
                left_ = true;  // end of input
            out_ << "\n";
            return std::nullopt;
        }
        const std::string text = trim(*line);
        if (text.empty()) continue;
        if (text == "quit" || text == "exit") {
            left_ = true;
            return std::nullopt;
        }
        if (text == "help" || text == "?") {
            out_ << notation_help(game_, state)
                 << "; 'board' shows the board, 'quit' leaves the game\n";
            continue;
        }
        if (text == "board") {
            out_ << state.render();
            continue;
        }
        return text;
    }
}

void TerminalPerson::moved(const games::State& state, const record::MoveRecord& move) {
    out_ << state.ply() << ". " << (move.player == side_ ? "you" : record::escape_controls(bot_))
         << ": " << record::escape_controls(move.move);
    if (move.by_arena) {
        out_ << "  (played by the arena)";
    } else if (move.player != side_) {
        out_ << "  " << std::fixed << std::setprecision(1)
             << static_cast<double>(move.time.count()) / 1000.0 << " ms";
    }
    out_ << "\n";
    for (const auto& info : move.info)
        out_ << "   info " << record::escape_controls(info) << "\n";
    out_ << std::flush;
}

std::optional<std::string> TerminalPerson::read_line(std::optional<TimePoint> deadline,
                                                     const std::stop_token& stop) {
    for (;;) {
        if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            return line;
        }
        if (eof_ || stop.stop_requested()) return std::nullopt;
        auto wait = Millis{100};
        if (deadline) {
            const auto left = std::chrono::duration_cast<Millis>(*deadline - Clock::now());
            if (left <= Millis{0}) return std::nullopt;
            wait = std::min(wait, left + Millis{1});
        }
        pollfd fd{input_, POLLIN, 0};
        const int ready = ::poll(&fd, 1, static_cast<int>(wait.count()));
        if (ready < 0 && errno != EINTR) return std::nullopt;
        if (ready <= 0) continue;
        char chunk[512];
        const ssize_t n = ::read(input_, chunk, sizeof chunk);
        if (n > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(n));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            eof_ = true;
            if (!buffer_.empty()) buffer_ += '\n';  // a last line without a newline
        }
    }
}

}  // namespace arena::terminal
