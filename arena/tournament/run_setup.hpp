#pragma once
// What `arena run` does before its games: the config as this run plays it
// (with the command line's overrides), and the tournament it plays, stored
// (and perhaps grown, stored_lineup.hpp) or new, with the games of its
// schedule this run may play (all of them, or a shard's), and how it shows
// its progress. What it has to say goes to `err`, each line after "arena
// run: ".

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "arena/session/bot_host.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/progress.hpp"
#include "arena/tournament/runner.hpp"
#include "arena/tournament/shard.hpp"
#include "arena/tournament/workers.hpp"

namespace arena::tournament {

// The command line's changes to the config.
struct RunOverrides {
    std::string database;  // --db; empty: the config's (or its shard's)
    bool transcript = false;
    int concurrency = 0;  // --concurrency; 0: the config's, else the number of cores
    std::optional<Shard> shard;
    std::string shard_text;  // --shard as typed
    // --worker K/N: this run is worker K of N (workers.hpp), stored next to
    // the tournament's database (--db, else the config's).
    std::optional<Worker> worker;
    // `arena tune --stop-after N`: at most N more iterations (whole batches)
    // in this run; 0: to the end.
    std::int64_t stop_after = 0;
};

// Says what a run says first (the limits the bots run under on `host`, the
// config's warnings), then applies `overrides` to `config`. False after
// saying why the config cannot be played in shards, or by workers.
[[nodiscard]] bool prepare_run(session::BotHost& host, Config& config,
                               const RunOverrides& overrides, std::ostream& err);

// A worker's run, once prepare_run has set the config's database to the
// worker's own: that database and the other workers'.
[[nodiscard]] RunOptions::WorkerRun worker_run(const Config& config, Worker worker);

// Games at once: --concurrency, else the config's, else the number of cores.
[[nodiscard]] int run_concurrency(const RunOverrides& overrides, const Config& config);

struct OpenedTournament {
    std::int64_t id = 0;
    Lineup lineup;                    // its schedule: the games this run may play
    std::size_t scheduled_games = 0;  // of the whole schedule (a shard plays a part)
};

// The tournament `config` plays in `store`: the stored one of its name, or
// a new one. With a shard, says which of the schedule's games it plays.
// Nullopt after saying why the config cannot continue the stored tournament.
[[nodiscard]] std::optional<OpenedTournament> open_tournament(store::ResultsStore& store,
                                                              const Config& config,
                                                              const RunOverrides& overrides,
                                                              std::ostream& err);

// How the run of `opened` shows its progress: with a shard, each game's
// place in the whole schedule; where it resumes, said on `messages`; live
// when `fd` is a terminal (fit_to_terminal).
[[nodiscard]] ProgressOptions run_progress(const RunOverrides& overrides,
                                           const OpenedTournament& opened, std::ostream& messages,
                                           int fd);

}  // namespace arena::tournament
