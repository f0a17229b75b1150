#pragma once
// `arena check-bot`: a scripted sequence of short games and probes against
// one bot, before it is submitted. The arena itself is the opponent (random
// legal moves), so no second bot is needed. Each check ends as ok, fail,
// warn (it passes, with advice) or skip (it does not apply to the bot's
// protocol, or could not run); a failure says what was sent, what came back
// and what was expected. protocol/PROTOCOL.md ("Before you submit") lists the
// checks for bot authors.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "arena/match/time_control.hpp"
#include "arena/session/session.hpp"

namespace arena::check {

enum class Status : std::uint8_t { kOk, kFail, kWarn, kSkip };

// "ok", "fail", "warn", "skip".
[[nodiscard]] std::string_view to_string(Status status);

struct CheckResult {
    std::string name;  // "plays as player 1"
    Status status = Status::kOk;
    std::string detail;  // one line: what happened, the figures, or why it was skipped
    // For a failure: the last lines sent to the bot and received from it on
    // stdout (control characters escaped), the end of its stderr, and what
    // the check expected.
    std::vector<std::string> sent;
    std::vector<std::string> received;
    std::string stderr_tail;
    std::string expected;
};

// How the bot is spoken to: protocol v1, a Gomocup brain, an NBoard engine,
// or a Tsinghua strategy library played through arena-so-host (whose host
// speaks v1; the library only chooses moves).
enum class BotKind : std::uint8_t { kArena1, kGomocup, kNboard, kTsinghuaSo };

struct CheckOptions {
    std::string game;  // connect4, gomoku or reversi
    BotKind kind = BotKind::kArena1;
    // The bot: its command (for a strategy library, the host's), directory,
    // isolation and protocol.
    session::BotSpec bot;
    session::SessionOptions session;  // start-up limit, line length, ...
    match::TimeControl time{.move = match::Millis{1000}};
    std::uint64_t seed = 1;  // the arena's random moves and openings
    // Called with each check as soon as it is decided (for a report printed
    // step by step); may be empty.
    std::function<void(const CheckResult&)> on_result;
    // Once a stop is requested, check_bot ends after the step in progress
    // (a short game, a probe) by throwing Stopped.
    std::stop_token stop;
};

// check_bot was stopped (CheckOptions::stop) before every check was decided.
class Stopped : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Runs every check in order, the bot's processes started under `host`, and
// returns them all (also when the bot fails to start: the checks that need
// a running bot are then skipped). Throws games::GameError for a game the
// bot's kind cannot play.
[[nodiscard]] std::vector<CheckResult> check_bot(session::BotHost& host,
                                                 const CheckOptions& options);

// True when no check failed (warnings and skips pass).
[[nodiscard]] bool all_passed(const std::vector<CheckResult>& results);

// A check warns when a figure passes this share of its limit (start-up
// time, time use, memory).
inline constexpr double kWarnShare = 0.8;

// One answered move: how long it took, and its limit (the `move_ms` of its
// `go`, tolerance excluded).
struct MoveTime {
    std::chrono::microseconds took{};
    match::Millis limit{};
};

// The time-use check from the bot's answered moves: fail when a move ran out
// of time (`timeouts` > 0), warn when a move took more than 80 % of its
// limit, else ok, with the median and longest think times; skip without
// moves. Pure, for tests.
[[nodiscard]] CheckResult judge_time_use(std::vector<MoveTime> moves, int timeouts);

// The memory check from the peak of the bot's processes (nullopt: not
// known) and the limit in MiB (0: none): fail when a process was ended by
// the memory limit (`limit_hit`, what happened), warn above 80 % of the
// limit, else ok. `measured`, when given, says what the peak is of, after
// "peak X MiB (limit Y MiB)". Pure, for tests.
[[nodiscard]] CheckResult judge_memory(std::optional<std::uint64_t> peak_bytes,
                                       std::uint64_t limit_mb, const std::string& limit_hit,
                                       const std::string& measured = "");

// What the memory check's peak is of: the memory charged to the bot's cgroup
// (`in_cgroup`: what the limit counts, which leaves out program and library
// pages already in memory) or the largest sum of its processes' resident
// sets (the /proc poll); for a strategy library (`so_host`), that of
// arena-so-host with the library loaded, not of the library alone.
[[nodiscard]] std::string memory_measured(bool in_cgroup, bool so_host);

}  // namespace arena::check
