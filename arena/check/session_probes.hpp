#pragma once
// What `arena check-bot` adds to a protocol v1 session (the hooks of
// session/session_hooks.hpp): it sends what a tournament would send only in
// a later revision of the protocol (unknown commands and keys), watches for
// lines sent out of turn, and, when a reply misses its deadline, sees what
// the bot was waiting for and finds out whether the reply was stuck in its
// output buffer. The session itself plays as in a real game. One per
// process.

#include <string>
#include <vector>

#include "arena/session/session.hpp"

namespace arena::check {

class SessionProbes final : public session::SessionHooks {
  public:
    // For a bot of `spec` in a session with `options`.
    SessionProbes(const session::BotSpec& spec, const session::SessionOptions& options);

    // What the next commands send besides the protocol, and how they watch.
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

    [[nodiscard]] std::string outgoing(session::Command command, std::string lines) override;
    [[nodiscard]] session::Millis watch_after(session::Command command) override;
    // " (no complete line came on stdout)" when nothing came, then what
    // the bot was waiting for and the late watch (see set_watch_late_replies).
    [[nodiscard]] std::string deadline_missed(const session::MissedDeadline& missed,
                                              session::Process& process) override;

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
    // Whether the late watch has run (it runs once per process at most).
    [[nodiscard]] bool late_watched() const { return late_watched_; }
    // The lines that came after a missed deadline, at the bot's exit.
    [[nodiscard]] const std::vector<std::string>& late_lines() const { return late_lines_; }
    // At a missed deadline: the input other than its stdin the bot was
    // waiting for (inspect::blocked_input); else empty.
    [[nodiscard]] const std::string& blocked_input() const { return blocked_input_; }

  private:
    // The late watch of a reply of kind `awaited` asked for at `asked`
    // (is it stuck in the bot's output buffer, or does it come late by
    // itself?): a note for the fault's detail, or "".
    std::string watch_late(const session::MissedDeadline& missed, session::Process& process);

    bool sandboxed_;  // under bubblewrap the pid is bwrap's, and its /proc is not ours
    session::Millis quit_grace_;
    Probes probes_;
    int moves_watched_ = 0;  // moves watched with probes_.settle
    bool watch_late_ = false;
    bool late_watched_ = false;
    bool buffer_probed_ = false;
    int deadlines_missed_ = 0;
    std::vector<std::string> late_lines_;
    std::string blocked_input_;
};

}  // namespace arena::check
