#include "arena/session/session.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace arena::session {

namespace {

using protocol::BotLine;
using ReadStatus = Process::ReadStatus;

// How long a dying bot gets to deliver its exit status for a crash report.
constexpr Millis kExitReportWait{100};
// Writes outside a move (game start, end, quit): the pipe is normally empty.
constexpr Millis kCommandWriteLimit{1'000};
constexpr Millis kEndWriteLimit{100};
// Lines drained before a move: bounds the work a bot that floods stdout
// between moves can cause; the rest is judged as part of the move.
constexpr int kMaxDrainLines = 10'000;
constexpr std::size_t kQuoteBytes = 80;

// A bot line for a report: at most kQuoteBytes, control bytes escaped.
std::string quote(std::string_view line) {
    std::string out = "'";
    const std::size_t n = std::min(line.size(), kQuoteBytes);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c < 0x20 || c == 0x7f) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\x%02x", c);
            out += esc;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '\'';
    if (line.size() > n) out += "...";
    return out;
}

constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

std::string millis(Clock::duration d) {
    return std::to_string(std::chrono::duration_cast<Millis>(d).count()) + " ms";
}

// " (keywords are lower-case: 'move')" when a line that is not the protocol's
// starts with one of its keywords in another case; else "".
std::string keyword_hint(std::string_view line) {
    const auto words = protocol::split_words(line);
    if (words.empty()) return {};
    std::string lower(words.front());
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == words.front()) return {};
    for (const std::string_view keyword :
         {"name", "author", "version", "ready", "info", "debug", "move"}) {
        if (lower == keyword) return " (keywords are lower-case: '" + lower + "')";
    }
    return {};
}

// Said of a line found while part of the move request was still unread.
constexpr std::string_view kBeforeGoNote =
    " (written before it had read its `go`: a late line, such as a second `move` to the "
    "`go` before, is never taken as the answer)";
// Said of a line that came right behind a move.
constexpr std::string_view kOneMoveNote =
    " (exactly one `move` per `go`: a second one would be taken for the answer to the next "
    "`go`)";

// Why a line on move is not the protocol's (PROTOCOL.md sections 5 and 6),
// given what a move looks like (`form`): ": the `move` keyword is missing; ...".
std::string invalid_line_hint(std::string_view line, std::string_view form) {
    const auto words = protocol::split_words(line);
    if (words.empty()) return ": an empty line; stdout is for protocol lines only";
    if (words.front() == "move") {
        return ": `move` takes exactly one word; a move is " + std::string(form);
    }
    if (std::string hint = keyword_hint(line); !hint.empty()) return hint;
    if (words.size() == 1) return ": the `move` keyword is missing; a move is " + std::string(form);
    return ": only `info`, `debug` and `move` lines may come on stdout; write debug output to "
           "stderr, or start such lines with `debug`";
}

// Info and debug lines: talk that is allowed at any time.
bool is_chatter(BotLine::Kind kind) {
    return kind == BotLine::Kind::kInfo || kind == BotLine::Kind::kDebug;
}

// Said of a bot that wrote nothing at all on stdout before a deadline.
constexpr std::string_view kSilentHint =
    " (nothing at all came on stdout: a bot must flush stdout after each line, e.g. "
    "print(..., flush=True) in Python)";

}  // namespace

std::string_view to_string(Fault f) {
    switch (f) {
        case Fault::kNone:
            return "none";
        case Fault::kTimeout:
            return "timeout";
        case Fault::kCrash:
            return "crash";
        case Fault::kProtocol:
            return "protocol";
        case Fault::kStartup:
            return "startup";
    }
    return "unknown";
}

std::vector<std::string> bot_environment(const std::filesystem::path& scratch,
                                         const Isolation& isolation) {
    const char* path = std::getenv("PATH");
    std::vector<std::string> env = {
        "PATH=" + std::string(path != nullptr ? path : kDefaultPath),
        "HOME=" + scratch.string(),
        "TMPDIR=" + scratch.string(),
        "LANG=C.UTF-8",
    };
    for (const auto& name : isolation.pass_env) {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) continue;
        const std::string prefix = name + "=";
        std::erase_if(env, [&](const std::string& e) { return e.starts_with(prefix); });
        env.push_back(prefix + value);
    }
    return env;
}

ProcessSession::ProcessSession(BotHost& host, BotSpec spec, SessionOptions options)
    : spec_(std::move(spec)), options_(options) {
    const Isolation& iso = spec_.isolation;
    std::error_code ec;
    working_dir_ = spec_.working_dir.empty() ? std::filesystem::current_path(ec)
                                             : std::filesystem::absolute(spec_.working_dir, ec);
    if (ec) working_dir_ = spec_.working_dir;
    scratch_dir_ = host.make_scratch(spec_.name.empty() ? "bot" : spec_.name);
    ProcessOptions process_options;
    process_options.argv = spec_.argv;
    process_options.working_dir = working_dir_;
    process_options.scratch_dir = scratch_dir_;
    process_options.max_line_bytes = options_.max_line_bytes;
    process_options.stderr_log_bytes = options_.stderr_log_bytes;
    process_options.limits = iso.limits;
    if (!iso.inherit_env) process_options.environment = bot_environment(scratch_dir_, iso);
    process_options.sandbox.enabled = iso.sandbox;
    process_options.sandbox.hidden = options_.sandbox_hidden;
    process_options.cgroup = iso.cgroup;
    process_options.realtime_deadlines = options_.realtime_deadlines;
    if (options_.transcript) process_options.transcript_bytes = kTranscriptBytes;
    try {
        process_ = std::make_unique<Process>(host, process_options);
    } catch (...) {
        std::filesystem::remove_all(scratch_dir_, ec);
        throw;
    }
}

Session::Session(BotHost& host, BotSpec spec, SessionOptions options)
    : ProcessSession(host, std::move(spec), options) {}

ProcessSession::~ProcessSession() {
    kill();
    std::error_code ec;
    std::filesystem::remove_all(scratch_dir_, ec);
}

void ProcessSession::freeze() {
    if (alive_ && spec_.isolation.freeze_when_idle) process_->freeze();
}

void ProcessSession::freeze_soon() {
    if (!alive_ || !spec_.isolation.freeze_when_idle) return;
    if (spec_.isolation.freeze_grace <= Millis{0}) {
        process_->freeze();
    } else {
        process_->freeze_at(Clock::now() + spec_.isolation.freeze_grace);
    }
}

std::optional<Clock::time_point> ProcessSession::freeze_due() const {
    return alive_ ? process_->freeze_due() : std::nullopt;
}

void ProcessSession::freeze_if_due(Clock::time_point now) {
    if (alive_) process_->freeze_if_due(now);
}

void ProcessSession::run_until(Clock::time_point until) {
    if (!alive_) return;
    process_->thaw();
    process_->freeze_at(until);
}

pid_t ProcessSession::pid() const {
    return process_->pid();
}

const std::string& ProcessSession::stderr_log() const {
    return process_->stderr_log();
}

std::string ProcessSession::take_stderr_log() {
    return process_->take_stderr_log();
}

HandshakeResult Session::handshake() {
    const auto start = Clock::now();
    const auto deadline = start + options_.startup_limit;
    HandshakeResult result;
    auto fail = [&](std::string detail) {
        result.elapsed = Clock::now() - start;
        die();
        result.fault = Fault::kStartup;
        result.detail = std::move(detail);
        return result;
    };
    bool said_anything = false;
    auto timeout = [&] {
        return fail("no `ready` within " + millis(options_.startup_limit) +
                    missed_deadline(start, options_.startup_limit, BotLine::Kind::kReady,
                                    !said_anything, said_anything ? "" : kSilentHint));
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
                return fail("unexpected line during start-up: " + quote(read.line) +
                            keyword_hint(read.line));
        }
    }
}

void ProcessSession::note_game(const protocol::GameStart& game) {
    move_form_ = move_form(spec_.protocol, game.game, game.params);
}

std::string ProcessSession::invalid_line(std::string_view line) const {
    return "invalid line: " + quote(line) + invalid_line_hint(line, move_form_);
}

bool Session::start_game(const protocol::GameStart& game) {
    if (!alive_) return false;
    note_game(game);
    if (process_->write_line(outgoing(Command::kGame, protocol::format(game)),
                             Clock::now() + kCommandWriteLimit)) {
        watch_out_of_turn(Command::kGame);
        return true;
    }
    die();
    return false;
}

MoveReply Session::request_move(const protocol::Position& position, const protocol::Go& go,
                                Clock::duration limit, IdleBot* idle) {
    const IdleWatch watch(*this, idle);
    MoveReply reply;
    if (!alive_) return fail_move(reply, Fault::kCrash, "the bot is not running");
    if (out_of_turn_) {
        return fail_move(reply, Fault::kProtocol,
                         "line while not on move: " + *std::exchange(out_of_turn_, std::nullopt));
    }

    // Lines sent while the bot was not on move. Stray info/debug lines are
    // discarded: they belong to no move (late output of the previous one).
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
        const auto kind = protocol::parse_bot_line(read.line).kind;
        if (kind != BotLine::Kind::kInfo && kind != BotLine::Kind::kDebug) {
            return fail_move(reply, Fault::kProtocol,
                             "line while not on move: " + quote(read.line));
        }
    }

    // Both lines go in one write (one wake-up for the bot, one syscall for us).
    std::string commands = protocol::format(position);
    commands += '\n';
    commands += protocol::format(go);
    if (!write_move_request(outgoing(Command::kMove, std::move(commands)), limit, reply))
        return reply;
    const auto deadline = reply.go_written + limit;

    std::size_t chatter = 0;  // info and debug lines: both count against the cap
    for (;;) {
        auto read = read_line(deadline);
        switch (read.status) {
            case ReadStatus::kTimeout:
                return fail_move(reply, Fault::kTimeout,
                                 "no move within " + millis(limit) +
                                     missed_deadline(reply.go_written, limit, BotLine::Kind::kMove,
                                                     chatter == 0, ""));
            case ReadStatus::kEof:
                return fail_move(reply, Fault::kCrash, describe_eof());
            case ReadStatus::kTooLong:
                return fail_move(
                    reply, Fault::kProtocol,
                    "line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
            case ReadStatus::kLine:
                break;
        }
        // Read after the deadline (the bot kept talking): too late, whatever it is.
        if (read.at > deadline) {
            return fail_move(
                reply, Fault::kTimeout,
                "no move within " + millis(limit) +
                    missed_deadline(reply.go_written, limit, BotLine::Kind::kMove, false, ""));
        }
        BotLine line = protocol::parse_bot_line(read.line);
        // A reply line read while part of `position`/`go` still waits in the
        // bot's input was written before the bot had read its `go`: a line
        // sent while not on move (a second `move` to the previous `go` that
        // came after the drain above), never this move's answer.
        if (line.kind != BotLine::Kind::kInfo && line.kind != BotLine::Kind::kDebug &&
            process_->unread_input() > 0) {
            return fail_move(
                reply, Fault::kProtocol,
                "line while not on move: " + quote(read.line) + std::string(kBeforeGoNote));
        }
        switch (line.kind) {
            case BotLine::Kind::kInfo:
            case BotLine::Kind::kDebug:
                if (chatter++ >= options_.max_info_lines_per_move) {
                    ++reply.info_dropped;
                } else if (line.kind == BotLine::Kind::kInfo) {
                    reply.info.push_back(std::move(line.text));
                }
                break;
            case BotLine::Kind::kMove:
                if (line.text.empty()) return fail_move(reply, Fault::kProtocol, "empty move");
                if (std::string extra = line_after_move(); !extra.empty()) {
                    return fail_move(reply, Fault::kProtocol,
                                     "a second line after its move " + quote(line.text) + ": " +
                                         quote(extra) + std::string(kOneMoveNote));
                }
                if (std::string extra = watch_after_move(read.line); !extra.empty())
                    return fail_move(reply, Fault::kProtocol, std::move(extra));
                return accept_move(reply, std::move(line.text), read.at);
            case BotLine::Kind::kInvalid:
                return fail_move(reply, Fault::kProtocol, invalid_line(read.line));
            default:
                return fail_move(reply, Fault::kProtocol,
                                 "unexpected line on move: " + quote(read.line));
        }
    }
}

std::string Session::line_after_move() {
    // One read of what is there already: it costs the bot nothing (its move
    // was timed when read) and a non-blocking read of an empty pipe is cheap.
    const auto now = Clock::now();
    for (int i = 0; i < kMaxDrainLines; ++i) {
        auto read = read_line(now);
        // An exit or a too-long line is judged at the next request, as before.
        if (read.status != ReadStatus::kLine) return {};
        const auto kind = protocol::parse_bot_line(read.line).kind;
        if (kind != BotLine::Kind::kInfo && kind != BotLine::Kind::kDebug) return read.line;
    }
    return {};
}

void Session::end_game(const protocol::End& end) {
    if (!alive_) return;
    if (!process_->write_line(outgoing(Command::kEnd, protocol::format(end)),
                              Clock::now() + kEndWriteLimit)) {
        die();
        return;
    }
    watch_out_of_turn(Command::kEnd);
}

std::string Session::outgoing(Command command, std::string lines) {
    return hooks_ != nullptr ? hooks_->outgoing(command, std::move(lines)) : lines;
}

void Session::watch_out_of_turn(Command command) {
    if (hooks_ == nullptr) return;
    const Millis watch = hooks_->watch_after(command);
    if (watch <= Millis{0} || !alive_ || out_of_turn_) return;
    const auto until = Clock::now() + watch;
    process_->thaw();
    for (;;) {
        auto read = process_->read_line(until);
        if (read.status != ReadStatus::kLine) break;  // a crash shows at the next request
        if (is_chatter(protocol::parse_bot_line(read.line).kind)) continue;
        out_of_turn_ = quote(read.line);
        break;
    }
    freeze();
}

std::string Session::watch_after_move(std::string_view move) {
    if (hooks_ == nullptr) return {};
    const Millis watch = hooks_->watch_after(Command::kMove);
    if (watch <= Millis{0}) return {};
    // Anything but info/debug right after the move answers a `go` that was
    // never sent.
    const auto until = Clock::now() + watch;
    for (;;) {
        auto read = read_line(until);
        if (read.status != ReadStatus::kLine) return {};
        if (is_chatter(protocol::parse_bot_line(read.line).kind)) continue;
        return "a second line after its move " + quote(move) +
               ", without a `go`: " + quote(read.line);
    }
}

std::string Session::missed_deadline(Clock::time_point asked, Clock::duration limit,
                                     BotLine::Kind awaited, bool silent, std::string_view note) {
    if (hooks_ == nullptr) return std::string(note);
    return hooks_->deadline_missed(
        MissedDeadline{
            .asked = asked, .limit = limit, .awaited = awaited, .silent = silent, .note = note},
        *process_);
}

void Session::quit() {
    quit_with(protocol::format(protocol::Quit{}));
}

void ProcessSession::quit_with(std::string_view line) {
    if (alive_) {
        process_->thaw();
        QuitOutcome& q = quit_outcome_.emplace();
        q.written = process_->write_line(line, Clock::now() + kEndWriteLimit);
        if (q.written) {
            const auto written = Clock::now();
            if (auto status = process_->wait_exit(written + options_.quit_grace)) {
                exit_ = status;
                q.exited = true;
            }
            q.after = Clock::now() - written;
        } else {
            // It no longer reads: it has gone already, or will not hear `line`.
            q.gone = process_->poll_exit().has_value();
        }
    }
    die();  // also when it exited: leftovers in its process group go too
}

void ProcessSession::kill() {
    die();
}

std::string ProcessSession::limit_note(const ExitStatus& status) {
    const std::string hit = process_->limit_hit(status);
    return hit.empty() ? hit : " (" + hit + ")";
}

std::string ProcessSession::describe_eof(std::string_view when) {
    if (auto status = process_->wait_exit(Clock::now() + kExitReportWait)) {
        exit_ = status;
        return "exited" + std::string(when) + ": " + status->describe() + limit_note(*status);
    }
    return "closed its stdout" + std::string(when);
}

std::string ProcessSession::describe_write_failure(std::string_view when) {
    if (auto status = process_->wait_exit(Clock::now() + kExitReportWait)) {
        exit_ = status;
        return "exited" + std::string(when) + ": " + status->describe() + limit_note(*status);
    }
    return "stopped reading its input" + std::string(when);
}

std::string ProcessSession::quote(std::string_view line) {
    return session::quote(line);
}

std::string ProcessSession::millis(Clock::duration d) {
    return session::millis(d);
}

std::string_view ProcessSession::trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

ProcessSession::ReplyLine ProcessSession::read_reply_line(Clock::time_point deadline,
                                                          std::string_view when) {
    ReplyLine out;
    auto read = read_line(deadline);
    out.at = read.at;
    switch (read.status) {
        case ReadStatus::kTimeout:
            out.fault = Fault::kTimeout;
            break;
        case ReadStatus::kEof:
            out.fault = Fault::kCrash;
            out.detail = describe_eof(when);
            break;
        case ReadStatus::kTooLong:
            out.fault = Fault::kProtocol;
            out.detail = "line longer than " + std::to_string(options_.max_line_bytes) + " bytes" +
                         std::string(when);
            break;
        case ReadStatus::kLine:
            // Complete only after the deadline (the bot kept talking): too late.
            if (read.at > deadline) {
                out.fault = Fault::kTimeout;
            } else {
                out.text = std::move(read.line);
            }
            break;
    }
    return out;
}

bool ProcessSession::write_move_request(std::string_view commands, Clock::duration limit,
                                        MoveReply& reply) {
    // Writing is bounded by the move limit too: a bot that does not read its
    // input for that long has run out of time.
    const auto write_deadline = Clock::now() + limit;
    const auto reachable = process_->write_line_and_thaw(commands, write_deadline);
    if (!reachable) {
        if (Clock::now() >= write_deadline) {
            mark_failed(reply, Fault::kTimeout, "did not read its input within " + millis(limit));
        } else {
            mark_failed(reply, Fault::kCrash, describe_write_failure());
        }
        return false;
    }
    reply.go_written = *reachable;
    return true;
}

void ProcessSession::mark_failed(MoveReply& reply, Fault fault, std::string detail) {
    reply.answered = Clock::now();  // the verdict; killing and reaping come after
    die();
    reply.fault = fault;
    reply.detail = std::move(detail);
    if (reply.go_written == Clock::time_point{}) reply.go_written = reply.answered;
}

MoveReply ProcessSession::fail_move(MoveReply& reply, Fault fault, std::string detail) {
    mark_failed(reply, fault, std::move(detail));
    return std::move(reply);
}

void ProcessSession::record_info(MoveReply& reply, std::size_t& chatter, std::string text,
                                 bool keep) {
    if (chatter++ >= options_.max_info_lines_per_move) {
        ++reply.info_dropped;
    } else if (keep) {
        reply.info.push_back(std::move(text));
    }
}

MoveReply ProcessSession::accept_move(MoveReply& reply, std::string move, Clock::time_point at) {
    reply.move = std::move(move);
    reply.answered = at;
    freeze_soon();
    return std::move(reply);
}

void ProcessSession::die() {
    const ExitStatus status = process_->kill();
    if (!exit_) exit_ = status;
    alive_ = false;
}

}  // namespace arena::session
