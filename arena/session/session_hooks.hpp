#pragma once
// Hooks into a protocol v1 session (Session::set_hooks), for `arena
// check-bot`: what it sends besides the protocol (what a later revision of
// the protocol may send), how long it watches for lines sent out of turn,
// and what it says of a bot that missed a deadline. The handshake and the
// requests stay those of a real game, with their verdicts; a hook only adds
// to them. A tournament's sessions have none.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "arena/session/process.hpp"
#include "protocol/codec.hpp"

namespace arena::session {

// A command of a v1 session that the hooks may add to.
enum class Command : std::uint8_t {
    kGame,  // `game`
    kMove,  // `position` and `go`
    kEnd,   // `end`
};

// A reply that did not come before its deadline, as the session sees it
// before it kills the bot.
struct MissedDeadline {
    Clock::time_point asked;            // when the bot could first see the request
    Clock::duration limit{};            // the request's time limit
    protocol::BotLine::Kind awaited{};  // kReady (start-up) or kMove
    bool silent = false;                // no complete line came meanwhile
    std::string_view note;              // what the session's detail ends with: a hint, or ""
};

class SessionHooks {
  public:
    virtual ~SessionHooks() = default;

    // What is written in place of `lines`, the protocol's lines of
    // `command` (one write; the last line is `game`, `go` or `end`).
    [[nodiscard]] virtual std::string outgoing(Command /*command*/, std::string lines) {
        return lines;
    }

    // How long to watch for lines sent out of turn after `command`: after
    // `game` and `end`, the bot runs that long and the first line it sends
    // that is neither info nor debug fails the next request ("line while not
    // on move"); after a move, such a line fails the move ("a second line
    // after its move ..., without a `go`"). Zero: only the session's own
    // checks, as in a tournament.
    [[nodiscard]] virtual std::chrono::milliseconds watch_after(Command /*command*/) {
        return std::chrono::milliseconds{0};
    }

    // The end of a missed deadline's detail, in place of the session's own
    // (`missed.note`). `process` is the bot's, still running: the hook may
    // look at it, read from it and write to it before it is killed.
    [[nodiscard]] virtual std::string deadline_missed(const MissedDeadline& missed,
                                                      Process& /*process*/) {
        return std::string(missed.note);
    }

  protected:
    SessionHooks() = default;
    SessionHooks(const SessionHooks&) = default;
    SessionHooks& operator=(const SessionHooks&) = default;
};

}  // namespace arena::session
