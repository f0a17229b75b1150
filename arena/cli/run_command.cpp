// `arena run CONFIG`: plays a tournament into its results database, resuming
// where an earlier run stopped, and prints the standings.

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/config_args.hpp"
#include "arena/cli/serve_setup.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/match/close_calls.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/sprt_text.hpp"
#include "arena/report/text_standings.hpp"
#include "arena/session/cgroup.hpp"
#include "arena/store/run_lock.hpp"
#include "arena/submissions/submissions.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/progress.hpp"
#include "arena/tournament/runner.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena/tournament/shard.hpp"
#include "arena/tournament/stored_lineup.hpp"
#include "arena/tournament/stored_settings.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kRunUsage =
    R"(usage: arena run CONFIG [--db PATH] [--concurrency N] [--shard K/N] [--stats] [--serve PORT]

Plays the tournament described by CONFIG (YAML, see docs/config.md) and
stores every game in its SQLite database. Running the same command again
after an interruption plays exactly the games that are missing; running it
on a finished tournament prints its standings. With --shard K/N it plays
only shard K of N of the schedule, into results/<name>.shard-K-of-N.db
unless --db is given; `arena merge` joins the shards (docs/cluster.md).

)";

double seconds(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

// One line of key=value figures about this run, for benchmarks and people:
// what the arena process itself (all its threads, not the bots) used.
void print_stats(const tournament::RunOutcome& outcome, std::chrono::steady_clock::duration wall,
                 std::ostream& out) {
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    const double user = seconds(self.ru_utime), sys = seconds(self.ru_stime);
    const double moves = static_cast<double>(std::max<std::int64_t>(outcome.moves, 1));
    const double wall_s = std::chrono::duration<double>(wall).count();
    char line[512];
    std::snprintf(line, sizeof line,
                  "stats: games=%lld moves=%lld wall_s=%.3f games_per_s=%.1f cpu_user_s=%.3f "
                  "cpu_sys_s=%.3f cpu_us_per_move=%.2f game_cpu_us_per_move=%.2f "
                  "storage_cpu_us_per_move=%.2f wall_us_per_move=%.2f peak_rss_mb=%.1f "
                  "bot_starts=%lld bots_retired=%lld process_capacity=%zu\n",
                  static_cast<long long>(outcome.played), static_cast<long long>(outcome.moves),
                  wall_s, wall_s > 0 ? static_cast<double>(outcome.played) / wall_s : 0.0, user,
                  sys, (user + sys) * 1e6 / moves,
                  std::chrono::duration<double, std::micro>(outcome.game_cpu).count() / moves,
                  std::chrono::duration<double, std::micro>(outcome.storage_cpu).count() / moves,
                  wall_s * 1e6 / moves, static_cast<double>(self.ru_maxrss) / 1024.0,
                  static_cast<long long>(outcome.process_starts),
                  static_cast<long long>(outcome.processes_retired), outcome.process_capacity);
    out << line;
}

// Warns about each bot whose moves keep finishing within a hair of their
// limit, from the move times of the tournament's stored games.
void warn_close_calls(store::ResultsStore& store, std::int64_t id, const match::TimeControl& time,
                      std::ostream& err) {
    match::CloseCallCounter counter(time);
    for (const auto& summary : store.games(id)) {
        const auto game = store.load_game(summary.id);
        if (!game) continue;
        std::vector<match::TimedMove> moves;
        for (const auto& m : game->moves)
            moves.push_back({m.side, std::chrono::microseconds{m.time_us}, m.by_arena});
        counter.add(summary.first, summary.second, moves);
    }
    for (const auto& [bot, count] : counter.warnings())
        err << match::close_call_warning(bot, count, "let it stop earlier, or raise tolerance_ms")
            << "\n";
}

// A database locked by another program (a `sqlite3` shell in a transaction,
// a backup) is waited for as long as the lock is held, with a line every
// 10 s; a stop request (Ctrl-C) ends the wait.
store::LockWaiting wait_for_the_database(std::ostream& err, std::stop_token stop = {}) {
    store::LockWaiting waiting;
    waiting.limit = std::nullopt;
    waiting.stop = std::move(stop);
    waiting.report = [&err](const store::LockWait& wait) {
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait.waited).count();
        if (wait.over) {
            err << "arena run: " << wait.file.string() << " is free again after " << seconds
                << " s; going on\n";
        } else {
            err << "arena run: " << wait.file.string()
                << " is locked by another program; still waiting (" << seconds << " s)\n";
        }
    };
    return waiting;
}

// The standings table, with the course-style points of the stored config's
// `scoring:` when it has them.
void print_standings(store::ResultsStore& store, const store::TournamentRow& row,
                     const tournament::Config& config, std::ostream& out) {
    const auto points = tournament::stored_settings(row.spec.config_text).scoring;
    report::report_standings(store, row, out, config.anchors, points);
}

// Each opponent's test of a gauntlet with `sprt`, after the standings.
void print_gauntlet_sprt(const tournament::Config& config, const tournament::Lineup& lineup,
                         const tournament::RunOutcome& outcome, std::ostream& out) {
    if (!config.sprt) return;
    for (const auto& t : outcome.sprt_tests) {
        const auto& challenger = lineup.names[static_cast<std::size_t>(t.challenger)];
        const auto& opponent = lineup.names[static_cast<std::size_t>(t.opponent)];
        report::print_sprt_block(out, challenger, opponent, *config.sprt, t.result, t.pairs,
                                 t.games);
        std::string undecided = "SPRT: no decision after " + std::to_string(t.counted_pairs) +
                                " of " + std::to_string(t.scheduled_pairs) + " pairs";
        if (!t.playable) {
            undecided +=
                " (" +
                (lineup.bot_of[static_cast<std::size_t>(t.opponent)] < 0 ? opponent : challenger) +
                " plays no more)";
        } else if (t.counted_pairs == t.scheduled_pairs) {
            undecided += " (the most games_per_pair allows)";
        }
        report::print_sprt_decision(out, t.result.decision, undecided);
        if (t.late_pairs > 0) {
            out << t.late_pairs << " more pair" << (t.late_pairs == 1 ? " was" : "s were")
                << " finished after the decision: stored, not counted in the test\n";
        }
    }
}

// "12 of 20 games stored in results/t.db; run the same command again to
// play the other 8", for a run that stops early.
std::string stopped_text(const tournament::RunOutcome& outcome, const tournament::Config& config) {
    const auto left = std::max<std::int64_t>(0, outcome.total - outcome.stored);
    return std::to_string(outcome.stored) + " of " + std::to_string(outcome.total) +
           " games stored in " + config.database.string() +
           "; run the same command again to play the other " + std::to_string(left) +
           " (it resumes where this run stopped)";
}

struct RunArgs {
    std::string config_path, db_override;
    int concurrency = 0;
    bool stats = false;
    bool transcript = false;
    int serve_port = -1;  // --serve: off
    std::string shard_text;
    std::optional<tournament::Shard> shard;
};

// Parses the arguments into `a`; the exit status when the command is done
// (--help, a usage error).
std::optional<int> parse_run_args(const std::vector<std::string>& args, RunArgs& a,
                                  std::ostream& out, std::ostream& err) {
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("db", po::value<std::string>(&a.db_override), "results database (default: the config's)")
        ("concurrency,j", po::value<int>(&a.concurrency), "games at once (default: the config's, else the number of cores)")
        ("shard", po::value<std::string>(&a.shard_text), "play only shard K of N of the schedule (K/N, from 1/N to N/N), by default into results/<name>.shard-K-of-N.db; arena merge joins them (docs/cluster.md)")
        ("stats", po::bool_switch(&a.stats), "print the arena's own CPU time, memory and speed at the end")
        ("transcript", po::bool_switch(&a.transcript), "store every line between the arena and the bots, per game (as the config's transcript: true)")
        ("serve", po::value<int>(&a.serve_port), "while it runs, serve the tournament's pages with its games in progress on this port of 127.0.0.1 (0: any free port; docs/serve.md)");
    // clang-format on
    if (const auto done = parse_config_args(
            "run", kRunUsage, args, opts, a.config_path, out, err,
            [&](const po::variables_map& vm) {
                if (vm.count("concurrency") && a.concurrency < 1)
                    throw std::invalid_argument("--concurrency must be at least 1");
                if (vm.count("serve") && (a.serve_port < 0 || a.serve_port > 65535))
                    throw std::invalid_argument("--serve must be a port, 0..65535");
            }))
        return done;
    if (!a.shard_text.empty()) {
        std::string problem;
        a.shard = tournament::parse_shard(a.shard_text, problem);
        if (!a.shard) {
            err << "arena run: " << problem << "\n(arena run --help for usage)\n";
            return kExitUsage;
        }
    }
    return std::nullopt;
}

// The config as this run plays it: loaded, with the command line's
// overrides; nullopt after saying why not.
std::optional<tournament::Config> run_config(RunArgs& a, std::ostream& err) {
    auto config = load_config_or_say_why(a.config_path, err);
    if (!config) return std::nullopt;
    err << session::cgroup::describe_limits(
               std::any_of(config->bots.begin(), config->bots.end(),
                           [](const auto& bot) { return bot.isolation.cgroup; }))
        << "\n";
    for (const auto& warning : config->warnings)
        err << warning << "\n";
    if (a.shard) {
        if (const auto why = tournament::shard_refusal(*config); !why.empty()) {
            err << "arena run: --shard: " << config->path.string() << ": " << why << "\n";
            return std::nullopt;
        }
        config->database = tournament::shard_database(config->database, *a.shard);
    }
    if (!a.db_override.empty()) config->database = a.db_override;
    if (a.transcript) config->transcript = true;
    if (a.concurrency == 0) a.concurrency = config->concurrency;
    if (a.concurrency == 0)
        a.concurrency = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return config;
}

// The tournament a run plays: stored (and perhaps grown) or new, and the
// games of its schedule this run may play.
struct Opened {
    std::int64_t id = 0;
    tournament::Lineup lineup;
    std::size_t scheduled_games = 0;  // of the whole schedule (a shard plays a part)
};

// Nullopt after saying why the config cannot continue the stored tournament.
std::optional<Opened> open_tournament(store::ResultsStore& store, const tournament::Config& config,
                                      const RunArgs& a, std::ostream& err) {
    const auto print = tournament::fingerprint(config);
    Opened o;
    if (auto existing = store.find_tournament(config.name)) {
        o.id = existing->id;
        if (a.shard) {
            if (const auto why = tournament::shard_change(store, *existing, config, print);
                !why.empty()) {
                err << "arena run: --shard " << a.shard_text << ": tournament '" << config.name
                    << "' stored in " << config.database.string() << ": " << why
                    << "\n(a shard plays a tournament as it was created; start the shards "
                       "again under a new name, or in new databases)\n";
                return std::nullopt;
            }
        }
        auto standing = tournament::standing_lineup(store, *existing, config, print, err);
        if (!standing) return std::nullopt;
        o.lineup = std::move(*standing);
    } else {
        o.lineup = tournament::base_lineup(config);
        o.id = tournament::create_tournament(store, config, o.lineup, print);
    }
    o.scheduled_games = o.lineup.schedule.size();
    if (a.shard) {
        // The shard's pairs of the whole schedule, which the tournament
        // stored here keeps (its total is the whole tournament's).
        o.lineup.schedule = tournament::shard_games(o.lineup.schedule, *a.shard);
        err << "arena run: shard " << a.shard->index << " of " << a.shard->count << ": ";
        if (o.lineup.schedule.empty()) {
            err << "no games (the schedule has " << o.scheduled_games / 2 << " pairs)";
        } else {
            err << "games " << o.lineup.schedule.front().index + 1 << ".."
                << o.lineup.schedule.back().index + 1 << " of " << o.scheduled_games;
        }
        err << ", stored in " << config.database.string() << "\n";
    }
    return o;
}

// Plays the run with its progress on `out` (and with --serve, its pages);
// `stopped`: whether a signal stopped it.
tournament::RunOutcome play(store::ResultsStore& store, const tournament::Config& config,
                            const Opened& o, const RunArgs& a, bool& stopped, std::ostream& out,
                            std::ostream& err) {
    StopOnSignal signals;
    // With --serve: the pages, and the games in progress move by move.
    serve::LiveGames live;
    serve::LiveTournament watch(live, config.name);
    std::optional<RunningServer> server;
    if (a.serve_port >= 0) {
        ServeSetup setup;
        setup.databases = {config.database};
        setup.play = false;
        setup.live = &live;
        setup.server.port = static_cast<unsigned short>(a.serve_port);
        server.emplace(setup, err);
        out << "arena run: " << server->describe() << std::endl;
    }
    store.set_lock_waiting(wait_for_the_database(err, signals.token()));
    store.set_status(o.id, "running");
    tournament::ProgressOptions shown;
    if (a.shard) shown.schedule_games = static_cast<std::int64_t>(o.scheduled_games);
    shown.messages = &err;
    shown.live = isatty(STDOUT_FILENO) != 0;
    if (winsize size{}; shown.live && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0)
        shown.width = size.ws_col;
    tournament::Progress progress(config, out, shown);
    tournament::RunOptions options;
    options.concurrency = a.concurrency;
    options.progress = &progress;
    options.messages = &err;
    if (server) {
        options.observers.push_back(&watch);
        // The server's connections, and the few it may hold past its limit.
        options.reserved_fds = serve::ServerOptions{}.max_connections * 5 / 4 + 16;
    }
    auto outcome = tournament::Runner(config, store, o.id, o.lineup).run(options, signals.token());
    stopped = signals.stopped();
    return outcome;
}

// The end of a run: its status, the standings and what is left; the exit status.
int conclude(store::ResultsStore& store, const tournament::Config& config, const Opened& o,
             const tournament::RunOutcome& outcome,
             const std::vector<submissions::LeftOut>& left_out, bool stopped, std::ostream& out,
             std::ostream& err) {
    if (!outcome.interrupted) {
        store.set_status(o.id, "finished");
        print_standings(store, *store.find_tournament(config.name), config, out);
        print_gauntlet_sprt(config, o.lineup, outcome, out);
        submissions::print_left_out(left_out, out);
        if (outcome.stored > 0) warn_close_calls(store, o.id, config.time, err);
        return kExitOk;
    }
    if (!outcome.error.empty()) {
        // Storage may be what failed (a full disk): report the cause and
        // stop, touching the database no more than to note the stop.
        err << "arena run: " << record::escape_controls(outcome.error) << "\n";
        try {
            store.set_status(o.id, "interrupted");
        } catch (const std::exception&) {
            // The same failure again; the status is only informative.
        }
        err << "arena run: stopped with " << outcome.stored << " of " << outcome.total
            << " games stored; run the same command again to play the rest\n";
        return kExitFailure;
    }
    store.set_status(o.id, "interrupted");
    if (!outcome.given_up.empty() && !stopped) {
        if (const auto row = store.find_tournament(config.name); row && outcome.stored > 0)
            print_standings(store, *row, config, out);
        submissions::print_left_out(left_out, out);
        for (const auto& g : outcome.given_up) {
            err << "arena run: " << record::escape_controls(g.bot.describe()) << ", so its "
                << g.missing_games
                << " remaining games were not played: fix it and run the same command again\n";
        }
        return kExitFailure;
    }
    err << "arena run: interrupted: " << stopped_text(outcome, config) << "\n";
    if (const auto row = store.find_tournament(config.name); row && outcome.stored > 0) {
        print_standings(store, *row, config, out);
        print_gauntlet_sprt(config, o.lineup, outcome, out);
    }
    submissions::print_left_out(left_out, out);
    return 130;
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    RunArgs a;
    if (const auto done = parse_run_args(args, a, out, err)) return *done;
    auto config = run_config(a, err);
    if (!config) return kExitUsage;
    std::vector<submissions::LeftOut> left_out;
    try {
        bool interrupted = false;
        // Ctrl-C during the checks stops them after the step in progress.
        std::optional<StopOnSignal> signals;
        if (config->check) signals.emplace();
        if (!submissions::check_submissions(*config, left_out, err, interrupted,
                                            signals ? signals->token() : std::stop_token{}))
            return interrupted ? 130 : kExitFailure;
    } catch (const std::exception& e) {
        err << "arena run: " << e.what() << "\n";
        return kExitFailure;
    }
    try {
        store::ResultsStore store(config->database, wait_for_the_database(err));
        // Held until the run returns; the kernel drops it if the arena dies.
        std::optional<store::RunLock> lock;
        try {
            lock.emplace(config->database, config->name);
        } catch (const store::LockedError& e) {
            err << "arena run: " << e.what() << "\n";
            return kExitFailure;
        }
        const auto opened = open_tournament(store, *config, a, err);
        if (!opened) return kExitUsage;
        const auto started = std::chrono::steady_clock::now();
        bool stopped = false;
        const auto outcome = play(store, *config, *opened, a, stopped, out, err);
        if (a.stats) print_stats(outcome, std::chrono::steady_clock::now() - started, out);
        return conclude(store, *config, *opened, outcome, left_out, stopped, out, err);
    } catch (const std::exception& e) {
        err << "arena run: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace arena::cli
