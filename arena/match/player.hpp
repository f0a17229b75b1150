#pragma once
// A bot as the match layer sees it: its spec, and the session it currently
// plays through. A session survives from game to game while the bot behaves;
// after any fault it is gone and the next game starts a fresh process.
//
// A player may also be a person (human.hpp): then it has no process, its
// moves come from a HumanInput, and play_game asks it again after a move
// the rules refuse.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "arena/match/human.hpp"
#include "arena/match/startup_guard.hpp"
#include "arena/record/game_record.hpp"
#include "arena/session/session.hpp"

namespace arena::match {

// How long the first reuse of a bot process waits for it to exit (a bot
// that quits after `end` reads it only then, and may take a while to exit).
inline constexpr std::chrono::milliseconds kExitAfterGameWait{100};

class Player {
  public:
    // A bot, whose processes are started under `host` (which must outlive
    // this player).
    Player(session::BotHost& host, session::BotSpec spec, session::SessionOptions options);
    // A person named `name` whose moves come from `input` (which must
    // outlive this player), with `move_limit` per move plus the game's
    // tolerance; 0: no limit.
    Player(std::string name, HumanInput& input,
           std::chrono::milliseconds move_limit = std::chrono::milliseconds{0});
    ~Player();
    Player(const Player&) = delete;
    Player& operator=(const Player&) = delete;

    [[nodiscard]] const std::string& name() const { return spec_.name; }
    [[nodiscard]] const session::BotSpec& spec() const { return spec_; }
    // The person's input, or nullptr for a bot.
    [[nodiscard]] HumanInput* human() const { return human_; }
    [[nodiscard]] std::chrono::milliseconds human_move_limit() const { return human_limit_; }

    // Starts of new processes go through `guard` (shared by the players of
    // a run; it must outlive this player), which may hold a start back or
    // refuse it for a bot given up. nullptr: no guard.
    void set_startup_guard(StartupGuard* guard) { guard_ = guard; }

    // A live session that has completed its handshake, starting one if
    // needed. A process that exited between games (a bot that quits after
    // `end`) has lost nothing: a fresh one starts, with no fault, and the
    // guard says once that the bot exits after each game. Such a bot then
    // gets a fresh process for every game. The first time a process is
    // reused, it may run (thawed) to read the `end` of its last game, and an
    // exit within kExitAfterGameWait counts as between games too. Otherwise (for a person: nothing
    // to do, and no session). On a handshake fault the result says so and there is no session; a
    // start refused by the guard is a start-up fault too. Throws session::SpawnError when the
    // command cannot be started.
    [[nodiscard]] session::HandshakeResult ensure_ready();

    // The live session; only after ensure_ready() succeeded.
    [[nodiscard]] session::BotSession& session() { return *session_; }
    [[nodiscard]] bool has_session() const { return session_ && session_->alive(); }

    // What the current (or just failed) process wrote to stderr since the
    // last call.
    [[nodiscard]] std::string take_stderr_log();
    // The transcript of the current (or just failed) process since the last
    // call (see session::BotSession::take_transcript).
    [[nodiscard]] std::vector<session::TranscriptLine> take_transcript(std::uint64_t* dropped);
    // Peak memory of the current (or just failed or discarded) process since
    // reset_peak_memory (see session::BotSession::peak_memory).
    [[nodiscard]] std::optional<std::uint64_t> peak_memory();
    void reset_peak_memory();
    // Whether the bot's current or last process ended by a signal that stops a whole job
    // from outside: SIGTERM, SIGINT, SIGHUP or SIGQUIT, which a batch
    // system (Slurm's scancel or time limit), a service manager or a
    // terminal sends to every process of a job at once, the arena's too.
    [[nodiscard]] bool stopped_by_job_signal() const;
    // Tells the bot how its game ended (when it has a live session); the
    // next ensure_ready is then a reuse of this process.
    void end_game(const protocol::End& end);
    // Carries out a deferred freeze of its process once due (for a holder
    // of idle players, which nobody else wakes).
    void freeze_if_due(session::Clock::time_point now);
    // Forgets a session that has died (after a fault it is already killed).
    void drop_if_dead();
    // Kills the process group now (e.g. after an illegal move).
    void discard();
    // Asks the bot to quit, then kills what is left.
    void retire();

  private:
    session::BotHost* host_ = nullptr;  // null for a person
    session::BotSpec spec_;
    session::SessionOptions options_;
    std::unique_ptr<session::BotSession> session_;  // of spec_.protocol
    StartupGuard* guard_ = nullptr;
    HumanInput* human_ = nullptr;  // a person's input; nullptr for a bot
    std::chrono::milliseconds human_limit_{0};
    std::string stderr_kept_;                       // read from a failed start, not yet taken
    std::optional<std::uint64_t> peak_kept_;        // of a discarded process
    std::optional<session::ExitStatus> exit_kept_;  // of the last process, once dropped
    // Since the current process was started: has it been told a game's
    // end (end_game)? The next ensure_ready is then a reuse, which looks for
    // an exit; asking again before any game ended (a caller that starts the
    // bot ahead of the game) is not.
    bool played_ = false;
    // A process of this bot exited between games once: every game starts a
    // fresh one, without asking the old one (which is on its way out).
    bool exits_between_games_ = false;
    bool reuse_checked_ = false;             // the current process's first reuse waited for an exit
    session::Clock::time_point ended_at_{};  // when its last game's end was sent
    std::chrono::milliseconds last_startup_{0};  // of the current process
    std::optional<std::string> pending_note_;    // how the last one exited, to say once
};

}  // namespace arena::match
