#pragma once
// The one runner every command uses (`arena run`, `arena match`): it takes
// games from a pairing source (pairing_source.hpp: a fixed schedule, the
// SPRT gauntlet, the ladder), plays them on worker threads, each one game at
// a time with bots taken from a pool of idle bot processes (so no process
// ever plays two games at once), and stores each finished game in the
// results database the moment it ends (game_queue.hpp), telling the
// observers: the progress for people, the live view of `run --serve`.
//
// Games already in the database are skipped, so running again after an
// interruption plays exactly the missing ones.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "arena/match/game_observer.hpp"
#include "arena/match/startup_guard.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/gauntlet_sprt.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/workers.hpp"

namespace arena::tournament {

// Told of the run as a whole, beside its games: the progress for people
// (progress.hpp) and `arena match`'s lines are such observers. Called from
// the thread that stores the games, except run_started and run_ended.
class RunObserver : public match::GameObserver {
  public:
    // The run starts: `total` games count, `stored` of them are stored
    // already; `summary` is the schedule's (PairingSource::summary).
    virtual void run_started(std::int64_t /*total*/, std::int64_t /*stored*/,
                             const std::string& /*summary*/) {}
    // After each stored game and each new phase: the games that count now,
    // the schedule's summary, and its news (a test decided, an entrant placed).
    virtual void schedule_changed(std::int64_t /*total*/, const std::string& /*summary*/,
                                  const std::vector<std::string>& /*news*/) {}
    // The games of a batch were stored and told: a time to flush output.
    virtual void batch_stored() {}
    virtual void run_ended() {}
};

struct RunOptions {
    int concurrency = 1;  // games at once
    // Told of the run and its games (progress.hpp for people); none: nobody.
    RunObserver* progress = nullptr;
    // Also told of every game (arena run --serve's live view).
    std::vector<match::GameObserver*> observers;
    // Where notices about bots go (one that keeps failing to start), each
    // line after "`command`: "; none: nowhere.
    std::ostream* messages = nullptr;
    std::string command = "arena run";
    // A cluster worker's run (workers.hpp): it plays its share of the
    // schedule into the run's store, `own`, and reads the other workers'
    // databases, `peers`, between its pairs. None: the whole schedule.
    struct WorkerRun {
        Worker worker;
        std::filesystem::path own;
        std::vector<std::filesystem::path> peers;
        // How long it waits for another worker's pair before it plays on
        // without it (worker_source.hpp).
        std::chrono::seconds patience{60};
    };
    std::optional<WorkerRun> worker;
    // Open files the caller needs beside the run's own (a web server's
    // connections): not given to bot processes (player_pool.hpp).
    std::size_t reserved_fds = 0;
};

struct RunOutcome {
    // Games in the schedule that are stored or can still be played (a game
    // of a retired bot or an earlier version that is not stored is not
    // needed); with a gauntlet's SPRT, those that matter: every game of an
    // undecided opponent, and the stored ones of a decided one.
    std::int64_t total = 0;
    std::int64_t stored = 0;  // games in the database now
    std::int64_t played = 0;  // games played by this run
    std::int64_t moves = 0;   // moves chosen by bots in those games (not the arena's)
    // Bot processes started by this run, and of those retired while idle to
    // stay within `process_capacity` processes at once (0: no bound).
    std::int64_t process_starts = 0, processes_retired = 0;
    std::size_t process_capacity = 0;
    // CPU time of the threads that played the games (sessions, clocks, rules)
    // and of the thread that stored them, for `arena run --stats`.
    std::chrono::nanoseconds game_cpu{}, storage_cpu{};
    bool interrupted = false;  // stopped before the schedule was complete
    std::string error;         // what stopped the run, when it was not a stop request
    // Bots given up after failing to start kMaxStartupFailures times in a
    // row (or whose command cannot be executed): their remaining games were
    // neither played nor stored, nor were the start-up losses that led to it.
    struct GivenUp {
        match::StartupGuard::GivenUp bot;
        std::int64_t missing_games = 0;  // of its games, not in the database
    };
    std::vector<GivenUp> given_up;
    // A gauntlet with `sprt`: each opponent's test, from the stored games
    // (OpponentTest::opponent and challenger are entrants of the lineup).
    std::vector<OpponentTest> sprt_tests;
};

class Runner {
  public:
    // A tournament as the config makes it (base_lineup()), its bots started
    // under `host` (which must outlive the runner).
    Runner(session::BotHost& host, const Config& config, store::ResultsStore& store,
           std::int64_t tournament_id);
    // A standing tournament: its schedule over entrants (growth.hpp).
    Runner(session::BotHost& host, const Config& config, store::ResultsStore& store,
           std::int64_t tournament_id, Lineup lineup);

    // Plays the missing games, telling the observers. Returns when the
    // schedule is complete, `stop` is requested (games in progress are
    // abandoned and not stored; every bot process is killed), or storing
    // fails. A bot that cannot start is given up (see RunOutcome::given_up)
    // and the other games go on.
    RunOutcome run(const RunOptions& options, std::stop_token stop);

  private:
    session::BotHost& host_;
    const Config& config_;
    store::ResultsStore& store_;
    std::int64_t tournament_id_;
    Lineup lineup_;
};

}  // namespace arena::tournament
