#include "arena/check/probe_session.hpp"

#include <algorithm>
#include <utility>

#include "arena/check/inspect.hpp"

namespace arena::check {
namespace {

using protocol::BotLine;
using session::Clock;
using session::Fault;
using ReadStatus = session::Process::ReadStatus;

// Writes outside a move (game start, end, quit): the pipe is normally empty.
constexpr session::Millis kCommandWriteLimit{1'000};
// Lines drained before a move (see session.cpp).
constexpr int kMaxDrainLines = 10'000;
// The shortest wait for a reply that missed its deadline, and how often the
// bot is looked at meanwhile.
constexpr session::Millis kMinLateWait{200};
constexpr session::Millis kLatePoll{20};
// Lines kept of what a bot writes at its exit after a missed deadline.
constexpr std::size_t kMaxLateLines = 100;

bool chatter(BotLine::Kind kind) {
    return kind == BotLine::Kind::kInfo || kind == BotLine::Kind::kDebug;
}

std::string join_lines(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines) {
        if (!text.empty()) text += '\n';
        text += line;
    }
    return text;
}

}  // namespace

ProbeSession::ProbeSession(session::BotSpec spec, session::SessionOptions options)
    : ProcessSession(std::move(spec), options) {}

std::string ProbeSession::on_deadline_missed(Clock::time_point asked, Clock::duration limit,
                                             BotLine::Kind awaited) {
    ++deadlines_missed_;
    // Under bubblewrap the pid is bwrap's, and its view of /proc is not ours.
    if (!alive_ || spec_.isolation.sandbox) return {};
    std::string note;
    blocked_input_ = inspect::blocked_input(process_->pid());
    if (!blocked_input_.empty())
        note = "; it was waiting for input other than its stdin, " + blocked_input_;
    if (!watch_late_) return note;
    watch_late_ = false;
    late_watched_ = true;
    // Until it waits for its next command (blocked reading stdin): does the
    // reply come by itself, only late? Up to four times the limit: this only
    // says how late, no verdict hangs on it.
    const auto wait = std::clamp<Clock::duration>(
        4 * limit, kMinLateWait, std::max<Clock::duration>(kMinLateWait, options_.quit_grace));
    const auto until = Clock::now() + wait;
    // Reads until `by`; true when the awaited reply came (`note` says when).
    const auto came = [&](Clock::time_point by) {
        for (;;) {
            auto read = process_->read_line(by);
            if (read.status != ReadStatus::kLine) return false;
            if (protocol::parse_bot_line(read.line).kind != awaited) continue;
            note += "; it came " + millis(read.at - asked) + " after it was asked for: too late";
            return true;
        }
    };
    for (;;) {
        if (came(Clock::now())) return note;
        if (inspect::waiting_on_stdin(process_->pid())) {
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
    process_->thaw();
    if (!process_->write_line(protocol::format(protocol::Quit{}),
                              Clock::now() + kCommandWriteLimit)) {
        return note;
    }
    const auto exit_by = Clock::now() + options_.quit_grace;
    while (late_lines_.size() < kMaxLateLines) {
        auto read = process_->read_line(exit_by);
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

std::string ProbeSession::out_of_turn_fault(std::string detail) {
    if (out_of_turn_.empty()) out_of_turn_ = detail;
    return detail;
}

void ProbeSession::watch_out_of_turn(Clock::time_point deadline) {
    if (!alive_ || pending_) return;
    process_->thaw();
    for (;;) {
        auto read = process_->read_line(deadline);
        if (read.status != ReadStatus::kLine) break;  // a crash shows at the next request
        if (chatter(protocol::parse_bot_line(read.line).kind)) continue;
        pending_ = quote(read.line);
        break;
    }
    freeze();
}

session::HandshakeResult ProbeSession::handshake() {
    const auto start = Clock::now();
    const auto deadline = start + options_.startup_limit;
    session::HandshakeResult result;
    auto fail = [&](std::string detail) {
        result.elapsed = Clock::now() - start;
        die();
        result.fault = Fault::kStartup;
        result.detail = std::move(detail);
        return result;
    };
    bool said_anything = false;
    auto timeout = [&] {
        std::string detail = "no `ready` within " + millis(options_.startup_limit);
        if (!said_anything) detail += " (no complete line came on stdout)";
        detail += on_deadline_missed(start, options_.startup_limit, BotLine::Kind::kReady);
        return fail(std::move(detail));
    };
    if (!alive_) return fail("the bot is not running");
    if (!process_->write_line(protocol::format(protocol::Hello{}), deadline)) {
        if (Clock::now() >= deadline) return timeout();
        return fail(describe_write_failure(" during start-up"));
    }
    for (;;) {
        auto read = process_->read_line(deadline);
        switch (read.status) {
            case ReadStatus::kTimeout:
                return timeout();
            case ReadStatus::kEof:
                return fail(describe_eof(" during start-up"));
            case ReadStatus::kTooLong:
                return fail("line longer than " + std::to_string(options_.max_line_bytes) +
                            " bytes during start-up");
            case ReadStatus::kLine:
                break;
        }
        said_anything = true;
        if (read.at > deadline) return timeout();
        BotLine line = protocol::parse_bot_line(read.line);
        switch (line.kind) {
            case BotLine::Kind::kName:
                identity_.name = std::move(line.text);
                break;
            case BotLine::Kind::kAuthor:
                identity_.author = std::move(line.text);
                break;
            case BotLine::Kind::kVersion:
                identity_.version = std::move(line.text);
                break;
            case BotLine::Kind::kInfo:
            case BotLine::Kind::kDebug:
                break;
            case BotLine::Kind::kReady:
                result.elapsed = read.at - start;
                freeze();
                return result;
            default:
                return fail("unexpected line during start-up: " + quote(read.line));
        }
    }
}

bool ProbeSession::start_game(const protocol::GameStart& game) {
    if (!alive_) return false;
    note_game(game);
    std::vector<std::string> lines = probes_.unknown_lines;
    lines.push_back(protocol::format(game));
    if (!process_->write_line(join_lines(lines), Clock::now() + kCommandWriteLimit)) {
        die();
        return false;
    }
    if (probes_.settle > session::Millis{0}) watch_out_of_turn(Clock::now() + probes_.settle);
    return true;
}

session::MoveReply ProbeSession::request_move(const protocol::Position& position,
                                              const protocol::Go& go, Clock::duration limit,
                                              session::IdleBot* idle) {
    const IdleWatch watch(*this, idle);
    session::MoveReply reply;
    if (!alive_) return fail_move(reply, Fault::kCrash, "the bot is not running");
    if (pending_) {
        const std::string line = *std::exchange(pending_, std::nullopt);
        return fail_move(reply, Fault::kProtocol,
                         out_of_turn_fault("line while not on move: " + line));
    }
    // Lines sent while the bot was not on move: info/debug are dropped,
    // anything else is a fault (as in the arena's own session).
    const auto drain_deadline = Clock::now();
    for (int i = 0; i < kMaxDrainLines; ++i) {
        auto read = read_line(drain_deadline);
        if (read.status == ReadStatus::kTimeout) break;
        if (read.status == ReadStatus::kEof) return fail_move(reply, Fault::kCrash, describe_eof());
        if (read.status == ReadStatus::kTooLong) {
            return fail_move(
                reply, Fault::kProtocol,
                "line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
        }
        if (!chatter(protocol::parse_bot_line(read.line).kind)) {
            return fail_move(reply, Fault::kProtocol,
                             out_of_turn_fault("line while not on move: " + quote(read.line)));
        }
    }

    std::vector<std::string> lines = probes_.unknown_lines;
    lines.push_back(protocol::format(position));
    std::string go_line = protocol::format(go);
    if (!probes_.go_words.empty()) go_line += " " + probes_.go_words;
    lines.push_back(std::move(go_line));
    if (!write_move_request(join_lines(lines), limit, reply)) return reply;
    const auto deadline = reply.go_written + limit;

    std::size_t chatter_lines = 0;
    for (;;) {
        auto read = read_line(deadline);
        switch (read.status) {
            case ReadStatus::kTimeout: {
                std::string detail = "no move within " + millis(limit);
                if (chatter_lines == 0) detail += " (no complete line came on stdout)";
                detail += on_deadline_missed(reply.go_written, limit, BotLine::Kind::kMove);
                return fail_move(reply, Fault::kTimeout, std::move(detail));
            }
            case ReadStatus::kEof:
                return fail_move(reply, Fault::kCrash, describe_eof());
            case ReadStatus::kTooLong:
                return fail_move(
                    reply, Fault::kProtocol,
                    "line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
            case ReadStatus::kLine:
                break;
        }
        if (read.at > deadline) {
            std::string detail = "no move within " + millis(limit) +
                                 on_deadline_missed(reply.go_written, limit, BotLine::Kind::kMove);
            return fail_move(reply, Fault::kTimeout, std::move(detail));
        }
        BotLine line = protocol::parse_bot_line(read.line);
        switch (line.kind) {
            case BotLine::Kind::kInfo:
            case BotLine::Kind::kDebug:
                record_info(reply, chatter_lines, std::move(line.text),
                            line.kind == BotLine::Kind::kInfo);
                break;
            case BotLine::Kind::kMove: {
                if (line.text.empty()) return fail_move(reply, Fault::kProtocol, "empty move");
                if (probes_.settle > session::Millis{0} && moves_watched_ < probes_.settle_moves) {
                    ++moves_watched_;
                    // Anything but info/debug right after the move answers a `go`
                    // that was never sent.
                    const auto until = Clock::now() + probes_.settle;
                    for (;;) {
                        auto extra = read_line(until);
                        if (extra.status != ReadStatus::kLine) break;
                        if (chatter(protocol::parse_bot_line(extra.line).kind)) continue;
                        return fail_move(
                            reply, Fault::kProtocol,
                            out_of_turn_fault("a second line after its move " + quote(read.line) +
                                              ", without a `go`: " + quote(extra.line)));
                    }
                }
                return accept_move(reply, std::move(line.text), read.at);
            }
            case BotLine::Kind::kInvalid:
                return fail_move(reply, Fault::kProtocol, invalid_line(read.line));
            default:
                return fail_move(reply, Fault::kProtocol,
                                 "unexpected line on move: " + quote(read.line));
        }
    }
}

void ProbeSession::end_game(const protocol::End& end) {
    if (!alive_) return;
    std::string line = protocol::format(end);
    if (!probes_.end_words.empty()) line += " " + probes_.end_words;
    if (!process_->write_line(line, Clock::now() + kCommandWriteLimit)) {
        die();
        return;
    }
    if (probes_.settle > session::Millis{0}) watch_out_of_turn(Clock::now() + probes_.settle);
}

void ProbeSession::quit() {
    if (!alive_) return;
    if (pending_ && out_of_turn_.empty()) out_of_turn_ = "line while not on move: " + *pending_;
    process_->thaw();
    if (process_->write_line(protocol::format(protocol::Quit{}),
                             Clock::now() + kCommandWriteLimit)) {
        const auto written = Clock::now();
        QuitExit q;
        if (auto status = process_->wait_exit(written + options_.quit_grace)) {
            exit_ = status;
            q.exited = true;
            q.status = status->describe();
        }
        q.after = Clock::now() - written;
        die();
        if (!q.exited && exit_) q.status = exit_->describe();
        quit_exit_ = q;
        return;
    }
    // It no longer reads: it has gone already, or will not hear `quit`.
    QuitExit q;
    q.gone = process_->poll_exit().has_value();
    q.status = q.gone ? "it had exited already" : "it stopped reading its input";
    die();
    quit_exit_ = q;
}

}  // namespace arena::check
