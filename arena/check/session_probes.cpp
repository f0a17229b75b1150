#include "arena/check/session_probes.hpp"

#include <algorithm>
#include <utility>

#include "arena/check/inspect.hpp"

namespace arena::check {
namespace {

using protocol::BotLine;
using session::Clock;
using ReadStatus = session::Process::ReadStatus;

// Writing `quit` to a bot that missed its deadline: the pipe is normally empty.
constexpr session::Millis kCommandWriteLimit{1'000};
// The shortest wait for a reply that missed its deadline, and how often the
// bot is looked at meanwhile.
constexpr session::Millis kMinLateWait{200};
constexpr session::Millis kLatePoll{20};
// Lines kept of what a bot writes at its exit after a missed deadline.
constexpr std::size_t kMaxLateLines = 100;

// "250 ms", as the session says it.
std::string millis(Clock::duration d) {
    return std::to_string(std::chrono::duration_cast<session::Millis>(d).count()) + " ms";
}

}  // namespace

SessionProbes::SessionProbes(const session::BotSpec& spec, const session::SessionOptions& options)
    : sandboxed_(spec.isolation.sandbox), quit_grace_(options.quit_grace) {}

std::string SessionProbes::outgoing(session::Command command, std::string lines) {
    if (command == session::Command::kEnd) {
        if (!probes_.end_words.empty()) lines += " " + probes_.end_words;
        return lines;
    }
    if (command == session::Command::kMove && !probes_.go_words.empty())
        lines += " " + probes_.go_words;
    std::string out;
    for (const auto& line : probes_.unknown_lines)
        out += line + '\n';
    return out + lines;
}

session::Millis SessionProbes::watch_after(session::Command command) {
    if (probes_.settle <= session::Millis{0}) return session::Millis{0};
    if (command == session::Command::kMove) {
        if (moves_watched_ >= probes_.settle_moves) return session::Millis{0};
        ++moves_watched_;
    }
    return probes_.settle;
}

std::string SessionProbes::deadline_missed(const session::MissedDeadline& missed,
                                           session::Process& process) {
    std::string note = missed.silent ? " (no complete line came on stdout)" : "";
    ++deadlines_missed_;
    if (sandboxed_) return note;
    blocked_input_ = inspect::blocked_input(process.pid());
    if (!blocked_input_.empty())
        note += "; it was waiting for input other than its stdin, " + blocked_input_;
    if (!watch_late_) return note;
    return note + watch_late(missed, process);
}

std::string SessionProbes::watch_late(const session::MissedDeadline& missed,
                                      session::Process& process) {
    watch_late_ = false;
    late_watched_ = true;
    std::string note;
    // Until it waits for its next command (blocked reading stdin): does the
    // reply come by itself, only late? Up to four times the limit: this only
    // says how late, no verdict hangs on it.
    const auto wait = std::clamp<Clock::duration>(
        4 * missed.limit, kMinLateWait, std::max<Clock::duration>(kMinLateWait, quit_grace_));
    const auto until = Clock::now() + wait;
    // Reads until `by`; true when the awaited reply came (`note` says when).
    const auto came = [&](Clock::time_point by) {
        for (;;) {
            auto read = process.read_line(by);
            if (read.status != ReadStatus::kLine) return false;
            if (protocol::parse_bot_line(read.line).kind != missed.awaited) continue;
            note +=
                "; it came " + millis(read.at - missed.asked) + " after it was asked for: too late";
            return true;
        }
    };
    for (;;) {
        if (came(Clock::now())) return note;
        if (inspect::waiting_on_stdin(process.pid())) {
            // What it wrote before it began to wait is in the pipe by now.
            if (came(Clock::now())) return note;
            break;
        }
        const auto now = Clock::now();
        if (now >= until) return note;
        if (came(std::min<Clock::time_point>(now + kLatePoll, until))) return note;
    }
    // It waits for the next command, as if it had answered: is the answer
    // stuck in its output buffer? Lines that come only when it exits were.
    buffer_probed_ = true;
    process.thaw();
    if (!process.write_line(protocol::format(protocol::Quit{}), Clock::now() + kCommandWriteLimit))
        return note;
    const auto exit_by = Clock::now() + quit_grace_;
    while (late_lines_.size() < kMaxLateLines) {
        auto read = process.read_line(exit_by);
        if (read.status != ReadStatus::kLine) break;
        late_lines_.push_back(std::move(read.line));
    }
    if (!late_lines_.empty()) {
        note += "; it was waiting for its next command, and " + std::to_string(late_lines_.size()) +
                (late_lines_.size() == 1 ? " line" : " lines") +
                " came only when it exited after `quit` (see stdout flushed)";
    }
    return note;
}

}  // namespace arena::check
