#pragma once
// A league's games, played for as long as its server runs (docs/league.md):
// the config's standing tournament over `bots_dir`, run to the end of its
// schedule, then again whenever a submission changed (wake()): each new
// bot or new version is read from bots_dir and enters as a late entrant
// (tournament/growth.hpp), checked first when the config says `check: true`.
// A run woken in the middle stops between games, once it has played for 2 s
// (wakes faster than a run starts would stop every run before it stored a
// game): the games in progress are abandoned, not stored, and played again
// by the next run, so every game that finished is stored exactly once, as
// with `arena run` stopped and run again.
//
// One object per league; run() on one thread, wake() and the accessors
// from any.

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "arena/match/game_observer.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/store/run_lock.hpp"
#include "arena/tournament/runner.hpp"

namespace arena::league {

struct LeaguePlayOptions {
    int concurrency = 0;  // 0: the config's, else the number of cores
    // Told of every game, as in `arena run --serve` (the live pages).
    std::vector<match::GameObserver*> observers;
    // Open files the caller needs beside the league's own (a server's).
    std::size_t reserved_fds = 0;
};

// What the league has done so far, for the pages and the tests.
struct LeagueStatus {
    std::int64_t runs = 0;              // runs begun (one after each wake, or after a failure)
    std::int64_t played = 0;            // games played and stored by them
    std::int64_t stored = 0;            // games in the database after the last run
    std::int64_t total = 0;             // of the schedule after the last run
    bool idle = false;                  // the schedule is played; waiting for a change
    std::string last_problem;           // why the last run could not go on, "" when it could
    std::vector<std::string> left_out;  // submissions that failed their checks, last run
    // Why the league plays nothing yet, and waits (idle) for uploads: "waiting
    // for uploads: the league has 1 bot"; "" when it has bots enough to play.
    std::string waiting;
};

class LeaguePlay {
  public:
    // The league of the config at `config_path`, its bots started under
    // `host` (which must outlive this object); lines for the organiser
    // (a run's problems, a submission left out) go to `log`.
    LeaguePlay(session::BotHost& host, std::filesystem::path config_path, LeaguePlayOptions options,
               std::ostream& log);

    // Plays until `stop`: reads the config and bots_dir, checks, runs the
    // schedule; waits for a wake when it is played (or when the config
    // cannot be used: a wake after the fix tries again).
    void run(std::stop_token stop);

    // A submission changed: the run in progress stops between games (once it
    // has played for 2 s) and the league is read again.
    void wake();

    [[nodiscard]] LeagueStatus status() const;

  private:
    // One run: false when it could not begin (the problem is kept).
    bool run_once(std::stop_token stop, std::stop_token woken);
    void note_problem(const std::string& problem);

    session::BotHost& host_;
    const std::filesystem::path config_path_;
    const LeaguePlayOptions options_;
    std::ostream& log_;
    mutable std::mutex mutex_;
    std::condition_variable_any changed_;
    std::stop_source woken_;  // replaced at each run; wake() requests it
    bool pending_wake_ = false;
    LeagueStatus status_;
    // The run lock of the league's database, taken by the first run and
    // kept (run_once); only run()'s thread touches it.
    std::optional<store::RunLock> run_lock_;
    std::filesystem::path run_lock_path_;
};

}  // namespace arena::league
