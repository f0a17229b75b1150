#include "arena/tournament/run_setup.hpp"

#include <algorithm>
#include <thread>

#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/stored_lineup.hpp"

namespace arena::tournament {
namespace {

// Says which games of the schedule the shard plays.
void say_shard(const OpenedTournament& o, const Config& config, Shard shard, std::ostream& err) {
    err << "arena run: shard " << shard.index << " of " << shard.count << ": ";
    if (o.lineup.schedule.empty()) {
        err << "no games (the schedule has " << o.scheduled_games / 2 << " pairs)";
    } else {
        err << "games " << o.lineup.schedule.front().index + 1 << ".."
            << o.lineup.schedule.back().index + 1 << " of " << o.scheduled_games;
    }
    err << ", stored in " << config.database.string() << "\n";
}

}  // namespace

bool prepare_run(session::BotHost& host, Config& config, const RunOverrides& overrides,
                 std::ostream& err) {
    err << host.describe_limits(std::any_of(config.bots.begin(), config.bots.end(),
                                            [](const auto& bot) { return bot.isolation.cgroup; }))
        << "\n";
    for (const auto& warning : config.warnings)
        err << warning << "\n";
    if (overrides.shard && overrides.worker) {
        err << "arena run: --worker and --shard cannot go together: a run is a shard or a "
               "worker\n";
        return false;
    }
    if (overrides.shard) {
        if (const auto why = shard_refusal(config); !why.empty()) {
            err << "arena run: --shard: " << config.path.string() << ": " << why << "\n";
            return false;
        }
        config.database = shard_database(config.database, *overrides.shard);
    }
    if (!overrides.database.empty()) config.database = overrides.database;
    if (overrides.worker) {
        if (const auto why = worker_refusal(config); !why.empty()) {
            err << (config.tune ? "arena tune" : "arena run")
                << ": --worker: " << config.path.string() << ": " << why << "\n";
            return false;
        }
        config.database = worker_database(config.database, *overrides.worker);
    }
    if (overrides.transcript) config.transcript = true;
    if (config.tune && overrides.stop_after > 0) config.tune->stop_after = overrides.stop_after;
    return true;
}

RunOptions::WorkerRun worker_run(const Config& config, Worker worker) {
    // The worker's database is worker_database(the tournament's).
    const auto& own = config.database;
    const std::string suffix =
        ".worker-" + std::to_string(worker.index) + "-of-" + std::to_string(worker.count);
    auto stem = own.stem().string();
    if (stem.ends_with(suffix)) stem.resize(stem.size() - suffix.size());
    const auto tournament = own.parent_path() / (stem + own.extension().string());
    return {worker, own, peer_databases(tournament, worker)};
}

int run_concurrency(const RunOverrides& overrides, const Config& config) {
    if (overrides.concurrency != 0) return overrides.concurrency;
    if (config.concurrency != 0) return config.concurrency;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::optional<OpenedTournament> open_tournament(store::ResultsStore& store, const Config& config,
                                                const RunOverrides& overrides, std::ostream& err) {
    const auto print = fingerprint(config);
    OpenedTournament o;
    if (auto existing = store.find_tournament(config.name)) {
        o.id = existing->id;
        if (overrides.shard || overrides.worker) {
            if (const auto why = shard_change(store, *existing, config, print); !why.empty()) {
                const auto what = overrides.shard ? "shard" : "worker";
                err << "arena run: --" << what << " "
                    << (overrides.shard ? overrides.shard_text
                                        : std::to_string(overrides.worker->index) + "/" +
                                              std::to_string(overrides.worker->count))
                    << ": tournament '" << config.name << "' stored in " << config.database.string()
                    << ": " << why << "\n(a " << what
                    << " plays a tournament as it was created; start the " << what
                    << "s again under a new name, or in new databases)\n";
                return std::nullopt;
            }
        }
        auto standing = standing_lineup(store, *existing, config, print, err);
        if (!standing) return std::nullopt;
        o.lineup = std::move(*standing);
    } else {
        o.lineup = base_lineup(config);
        o.id = create_tournament(store, config, o.lineup, print);
    }
    o.scheduled_games = o.lineup.schedule.size();
    if (overrides.shard) {
        // The shard's pairs of the whole schedule, which the tournament
        // stored here keeps (its total is the whole tournament's).
        o.lineup.schedule = shard_games(o.lineup.schedule, *overrides.shard);
        say_shard(o, config, *overrides.shard, err);
    }
    if (const auto w = overrides.worker) {
        err << "arena run: worker " << w->index << " of " << w->count << ": the pairs numbered "
            << w->index << ", " << w->index + w->count << ", " << w->index + 2 * w->count
            << "... (one in " << w->count << "), stored in " << config.database.string()
            << ", reading the other workers' databases beside it\n";
    }
    return o;
}

ProgressOptions run_progress(const RunOverrides& overrides, const OpenedTournament& opened,
                             std::ostream& messages, int fd) {
    ProgressOptions shown;
    if (overrides.shard) shown.schedule_games = static_cast<std::int64_t>(opened.scheduled_games);
    shown.messages = &messages;
    fit_to_terminal(shown, fd);
    return shown;
}

}  // namespace arena::tournament
