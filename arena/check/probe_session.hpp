#pragma once
// A protocol v1 session for `arena check-bot`: it plays like the arena's own
// session (the same deadlines and verdicts), and can also send what a
// tournament would send only in a later revision of the protocol (unknown
// commands and keys), watch for lines sent out of turn, see what a bot that
// ran out of time was waiting for, and find out whether a reply that missed
// its deadline was stuck in the bot's output buffer.

#include <optional>
#include <string>
#include <vector>

#include "arena/session/session.hpp"

namespace arena::check {

class ProbeSession final : public session::ProcessSession {
  public:
    // Starts the process; throws session::SpawnError when the command cannot
    // be started.
    ProbeSession(session::BotSpec spec, session::SessionOptions options);

    // What the next calls send besides the protocol, and how they watch.
    struct Probes {
        // Lines the bot cannot know, sent before `game` and before each `position`.
        std::vector<std::string> unknown_lines;
        std::string go_words;   // appended to each `go` (unknown keys)
        std::string end_words;  // appended to `end`
        // After `game`, the first `settle_moves` moves and `end`: how long to
        // watch for lines sent out of turn (0: only the check before each
        // request, as in a tournament).
        session::Millis settle{0};
        int settle_moves = 0;
    };
    void set_probes(Probes probes) {
        probes_ = std::move(probes);
        moves_watched_ = 0;
    }

    // `arena 1`, then name/author/version lines until `ready`.
    [[nodiscard]] session::HandshakeResult handshake() override;
    // `game ...` (after the unknown lines of the probes).
    [[nodiscard]] bool start_game(const protocol::GameStart& game) override;
    // `position` and `go`, then the reply, judged as the arena's session
    // judges it. A line sent out of turn is a protocol fault whose detail
    // says "while not on move" or "after its move".
    [[nodiscard]] session::MoveReply request_move(const protocol::Position& position,
                                                  const protocol::Go& go,
                                                  session::Clock::duration limit,
                                                  session::IdleBot* idle = nullptr) override;
    void end_game(const protocol::End& end) override;
    // `quit`, then waits up to the grace period for the exit (quit_exit).
    void quit() override;

    // When a reply misses its deadline, before the kill: if the bot waits
    // for its next command (blocked reading stdin) as if it had answered,
    // send `quit` and collect what it writes until it exits (up to the grace
    // period): lines that come only then were stuck in its output buffer.
    // Otherwise wait a while (four times the limit, within 200 ms and the
    // grace period) for the reply to come late.
    // Off by default; the checker turns it on until it has run once.
    void set_watch_late_replies(bool on) { watch_late_ = on; }
    // How many replies missed their deadline.
    [[nodiscard]] int deadlines_missed() const { return deadlines_missed_; }
    // Whether the late watch found the bot waiting for its next command and
    // looked into its output buffer (sent `quit`).
    [[nodiscard]] bool buffer_probed() const { return buffer_probed_; }
    // Whether the late watch has run (it runs once per session at most).
    [[nodiscard]] bool late_watched() const { return late_watched_; }
    // The lines that came after a missed deadline, at the bot's exit.
    [[nodiscard]] const std::vector<std::string>& late_lines() const { return late_lines_; }
    // At a missed deadline: the input other than its stdin the bot was
    // waiting for (inspect::blocked_input); else empty.
    [[nodiscard]] const std::string& blocked_input() const { return blocked_input_; }
    // The first line the bot sent out of turn, as its fault detail said; empty: none.
    [[nodiscard]] const std::string& out_of_turn() const { return out_of_turn_; }

    struct QuitExit {
        bool exited = false;               // within the grace period
        bool gone = false;                 // it had exited before `quit` could be written
        session::Clock::duration after{};  // `quit` written -> exit (or the grace period)
        std::string status;                // "exit 0", "signal 9 (SIGKILL)"
    };
    // After quit(): how the process ended; nullopt when quit() did not run
    // on a live process.
    [[nodiscard]] const std::optional<QuitExit>& quit_exit() const { return quit_exit_; }

  private:
    // A missed deadline of a request made at `asked`, for a line of kind
    // `awaited`: what the bot was waiting for, then the late watch (is the
    // reply stuck in its output buffer, or does it come late by itself?).
    // Returns a note for the fault's detail ("" when there is nothing to say).
    std::string on_deadline_missed(session::Clock::time_point asked, session::Clock::duration limit,
                                   protocol::BotLine::Kind awaited);
    // Reads until `deadline` while the bot is not on move: keeps the first
    // line that is not info/debug (pending_) for the next request to judge.
    void watch_out_of_turn(session::Clock::time_point deadline);
    // A line sent out of turn: the fault's detail, kept as out_of_turn_.
    std::string out_of_turn_fault(std::string detail);

    Probes probes_;
    int moves_watched_ = 0;  // moves watched with probes_.settle
    bool watch_late_ = false;
    bool late_watched_ = false;
    bool buffer_probed_ = false;
    int deadlines_missed_ = 0;
    std::vector<std::string> late_lines_;
    std::string blocked_input_;
    std::string out_of_turn_;
    std::optional<std::string> pending_;  // a line seen out of turn, judged at the next request
    std::optional<QuitExit> quit_exit_;
};

}  // namespace arena::check
