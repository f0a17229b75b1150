#pragma once
// Plays a tournament's schedule: a pool of worker threads, each playing one
// game at a time with bots taken from a pool of idle bot processes (so no
// process ever plays two games at once), and one writer thread that stores
// each finished game in the results database the moment it ends.
//
// Games already in the database are skipped, so running again after an
// interruption plays exactly the missing ones.

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <stop_token>
#include <string>
#include <vector>

#include "arena/match/startup_guard.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/gauntlet_sprt.hpp"
#include "arena/tournament/growth.hpp"

namespace arena::tournament {

// Told of the games as they are played (arena run --serve shows them).
// Called from the games' threads and the storage writer: each call must be
// quick and thread-safe.
//
// A game's number, for people, is its stored id (game_stored()'s `game_id`:
// what `arena games` lists and `show`, `log` and the web pages take). A game
// in progress has none yet: `index` is its 0-based place in the schedule,
// which is shown, if at all, as "schedule position index + 1", never as a
// bare game number (it would clash with the stored ids).
class GameObserver {
  public:
    virtual ~GameObserver() = default;
    // Game `index` of the schedule starts between bots `first` and `second`.
    virtual void game_started(std::int64_t index, const std::string& first,
                              const std::string& second, const games::Game& game) = 0;
    virtual void move_played(std::int64_t index, const record::MoveRecord& move) = 0;
    // It ended (abandoned: not a result) and is about to be stored, or not.
    virtual void game_ended(std::int64_t index, const record::GameRecord& record) = 0;
    virtual void game_stored(std::int64_t index, std::int64_t game_id) = 0;
};

struct RunOptions {
    int concurrency = 1;  // games at once
    bool live = false;    // one updating progress line (on a terminal) instead of a line per game
    int width = 0;        // the terminal's columns, to which the live line is cut; 0: unknown
    GameObserver* observer = nullptr;  // none: nobody watches the games
    // The games of the whole schedule when the run plays a part of it (a
    // shard): each game's line also gives its "schedule position i of N"
    // among them; 0: not a part.
    std::int64_t schedule_games = 0;
    // Where the run says that it resumes a tournament with games stored, and
    // how many are left (arena run: stderr); none: it says nothing.
    std::ostream* messages = nullptr;
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
    // A tournament as the config makes it (base_lineup()).
    Runner(const Config& config, store::ResultsStore& store, std::int64_t tournament_id);
    // A standing tournament: its schedule over entrants (growth.hpp).
    Runner(const Config& config, store::ResultsStore& store, std::int64_t tournament_id,
           Lineup lineup);

    // Plays the missing games, printing progress to `out`. Returns when the
    // schedule is complete, `stop` is requested (games in progress are
    // abandoned and not stored; every bot process is killed), or storing
    // fails. A bot that cannot start is given up (see RunOutcome::given_up)
    // and the other games go on.
    RunOutcome run(const RunOptions& options, std::ostream& out, std::stop_token stop);

  private:
    const Config& config_;
    store::ResultsStore& store_;
    std::int64_t tournament_id_;
    Lineup lineup_;
};

}  // namespace arena::tournament
