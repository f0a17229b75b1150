// `arena run CONFIG`: plays a tournament into its results database, resuming
// where an earlier run stopped, and prints the standings.

#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/config_args.hpp"
#include "arena/cli/sprt_tests.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/report/text_standings.hpp"
#include "arena/serve/running_server.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/store/lock_messages.hpp"
#include "arena/store/run_lock.hpp"
#include "arena/submissions/submissions.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/progress.hpp"
#include "arena/tournament/run_setup.hpp"
#include "arena/tournament/run_summary.hpp"
#include "arena/tournament/runner.hpp"
#include "arena/tournament/stored_settings.hpp"
#include "arena/tournament/tune_source.hpp"
#include "arena/tune/tune_text.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kRunUsage =
    R"(usage: arena run CONFIG [--db PATH] [--concurrency N] [--shard K/N | --worker K/N] [--stats]
                  [--serve PORT]

Plays the tournament described by CONFIG (YAML, see docs/config.md) and
stores every game in its SQLite database. Running the same command again
after an interruption plays exactly the games that are missing; running it
on a finished tournament prints its standings. With --shard K/N it plays
only shard K of N of the schedule, into results/<name>.shard-K-of-N.db
unless --db is given; `arena merge` joins the shards (docs/cluster.md).
With --worker K/N it is worker K of N: it plays every Nth pair from pair K
into results/<name>.worker-K-of-N.db (beside --db when given) and reads the
other workers' databases there between its pairs, so an SPRT gauntlet stops
on every worker once decided and a ladder's rounds are played together.

)";

struct RunArgs {
    bool tune = false;  // arena tune: a config with `tune:`
    bool json = false;  // tune --json
    std::string config_path;
    tournament::RunOverrides overrides;
    bool stats = false;
    int serve_port = -1;       // --serve: off
    std::string worker_text;   // --worker as typed
    int worker_patience = 60;  // --worker-patience, seconds
};

// Parses the arguments into `a`; the exit status when the command is done
// (--help, a usage error).
std::optional<int> parse_run_args(const std::vector<std::string>& args, RunArgs& a,
                                  std::ostream& out, std::ostream& err) {
    auto& o = a.overrides;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("db", po::value<std::string>(&o.database), "results database (default: the config's)")
        ("concurrency,j", po::value<int>(&o.concurrency), "games at once (default: the config's, else the number of cores)")
        ("stats", po::bool_switch(&a.stats), "print the arena's own CPU time, memory and speed at the end")
        ("transcript", po::bool_switch(&o.transcript), "store every line between the arena and the bots, per game (as the config's transcript: true)")
            ("worker", po::value<std::string>(&a.worker_text), "play as worker K of N (K/N): every Nth pair from pair K, into results/<name>.worker-K-of-N.db beside the tournament's database, reading the other workers' (docs/cluster.md)")
            ("worker-patience", po::value<int>(&a.worker_patience), "with --worker: seconds to wait for another worker's pair before playing on without it (default 60, or 8 of this worker's longest game if longer)");
    if (a.tune) {
        opts.add_options()
            ("json", po::bool_switch(&a.json), "print the progress on stderr and, on stdout, the values reached as JSON")
            ("stop-after", po::value<std::int64_t>(&o.stop_after), "play at most N more iterations (whole batches), then stop: the same command continues");
    } else {
        opts.add_options()
            ("shard", po::value<std::string>(&o.shard_text), "play only shard K of N of the schedule (K/N, from 1/N to N/N), by default into results/<name>.shard-K-of-N.db; arena merge joins them (docs/cluster.md)")
            ("serve", po::value<int>(&a.serve_port), "while it runs, serve the tournament's pages with its games in progress on this port of 127.0.0.1 (0: any free port; docs/serve.md)");
    }
    // clang-format on
    if (const auto done = parse_config_args(
            a.tune ? "tune" : "run", a.tune ? tune::kTuneUsage : kRunUsage, args, opts,
            a.config_path, out, err, [&](const po::variables_map& vm) {
                if (vm.count("concurrency") && o.concurrency < 1)
                    throw std::invalid_argument("--concurrency must be at least 1");
                if (vm.count("worker-patience") && (a.worker_patience < 1 || !vm.count("worker")))
                    throw std::invalid_argument(
                        "--worker-patience takes seconds, 1 or more, and goes with --worker");
                if (vm.count("stop-after") && o.stop_after < 1)
                    throw std::invalid_argument("--stop-after must be at least 1");
                if (vm.count("serve") && (a.serve_port < 0 || a.serve_port > 65535))
                    throw std::invalid_argument("--serve must be a port, 0..65535");
            }))
        return done;
    if (!o.shard_text.empty()) {
        std::string problem;
        o.shard = tournament::parse_shard(o.shard_text, problem);
        if (!o.shard) {
            err << "arena run: " << problem << "\n(arena run --help for usage)\n";
            return kExitUsage;
        }
    }
    if (!a.worker_text.empty()) {
        std::string problem;
        o.worker = tournament::parse_worker(a.worker_text, problem);
        if (!o.worker) {
            err << "arena run: " << problem << "\n(arena run --help for usage)\n";
            return kExitUsage;
        }
    }
    return std::nullopt;
}

// Plays the run with its bots under `host`, its progress on `out` (and with
// --serve, its pages); `stopped`: whether a signal stopped it.
tournament::RunOutcome play(session::BotHost& host, store::ResultsStore& store,
                            const tournament::Config& config, const tournament::OpenedTournament& o,
                            const RunArgs& a, bool& stopped, std::ostream& out, std::ostream& err) {
    StopOnSignal signals;
    // With --serve: the pages, and the games in progress move by move.
    serve::LiveGames live;
    serve::LiveTournament watch(live, config.name);
    std::optional<serve::RunningServer> server;
    if (a.serve_port >= 0) {
        server.emplace(host,
                       serve::run_serve_setup(config.database, live,
                                              static_cast<unsigned short>(a.serve_port)),
                       err);
        out << "arena run: " << server->describe() << std::endl;
    }
    store.set_lock_waiting(store::waiting_as_long_as_locked(err, "arena run", signals.token()));
    store.set_status(o.id, "running");
    auto shown =
        tournament::run_progress(a.overrides, o, err, a.json ? STDERR_FILENO : STDOUT_FILENO);
    shown.news_only = a.tune && !shown.live;  // a tune's tables, not a line a game
    tournament::Progress progress(config, a.json ? err : out, shown);
    tournament::RunOptions options;
    options.concurrency = tournament::run_concurrency(a.overrides, config);
    options.progress = &progress;
    options.messages = &err;
    if (const auto w = a.overrides.worker) {
        options.worker = tournament::worker_run(config, *w);
        options.worker->patience = std::chrono::seconds(a.worker_patience);
        // Each other worker's database stays open: the file, its WAL and its index.
        options.reserved_fds += 3 * options.worker->peers.size();
    }
    if (server) {
        options.observers.push_back(&watch);
        options.reserved_fds += server->open_files();
    }
    auto outcome =
        tournament::Runner(host, config, store, o.id, o.lineup).run(options, signals.token());
    stopped = signals.stopped();
    return outcome;
}

// The standings table, with the course-style points of the stored config's
// `scoring:` when it has them; then each opponent's test of a gauntlet with
// `sprt`, unless `tests` is false. A tune's table instead, and with --json,
// the values reached on `out` and the table on `err`.
void print_standings(store::ResultsStore& store, const tournament::Config& config,
                     const tournament::OpenedTournament& o, const tournament::RunOutcome& outcome,
                     const RunArgs& a, bool tests, std::ostream& out, std::ostream& err) {
    if (config.tune) {
        tournament::print_tune_end(store, config, o.lineup, o.id, a.json ? err : out,
                                   a.json ? &out : nullptr);
        return;
    }
    const auto row = store.find_tournament(config.name);
    if (!row) return;
    const auto points = tournament::stored_settings(row->spec.config_text).scoring;
    report::report_standings(store, *row, out, config.anchors, points);
    if (tests && config.sprt) print_sprt_tests(out, outcome.sprt_tests, *config.sprt, o.lineup);
}

// The end of a run: its status, the standings and what is left; the exit status.
int conclude(store::ResultsStore& store, const tournament::Config& config,
             const tournament::OpenedTournament& o, const tournament::RunOutcome& outcome,
             const std::vector<submissions::LeftOut>& left_out, const RunArgs& a, bool stopped,
             std::ostream& out, std::ostream& err) {
    const std::string command = a.tune ? "arena tune: " : "arena run: ";
    if (!outcome.interrupted) {
        store.set_status(o.id, "finished");
        print_standings(store, config, o, outcome, a, true, out, err);
        submissions::print_left_out(left_out, out);
        if (outcome.stored > 0 && !a.tune)
            for (const auto& line : tournament::close_call_warnings(store, o.id, config))
                err << line << "\n";
        return kExitOk;
    }
    if (!outcome.error.empty()) {
        tournament::note_failed_run(store, o.id, outcome, err);
        return kExitFailure;
    }
    store.set_status(o.id, "interrupted");
    const bool given_up = !outcome.given_up.empty() && !stopped;
    if (a.overrides.stop_after > 0 && !given_up && !stopped) {
        print_standings(store, config, o, outcome, a, false, out, err);
        err << command << "stopped as --stop-after " << a.overrides.stop_after
            << " asked; the same command continues\n";
        return kExitOk;
    }
    if (!given_up)
        err << command << "interrupted: " << tournament::stopped_text(outcome, config) << "\n";
    if (outcome.stored > 0) print_standings(store, config, o, outcome, a, !given_up, out, err);
    submissions::print_left_out(left_out, out);
    if (!given_up) return 130;
    for (const auto& g : outcome.given_up)
        err << command << tournament::given_up_text(g) << "\n";
    return kExitFailure;
}

// `arena run CONFIG`, or with `tune`, `arena tune CONFIG`.
int run_or_tune(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                bool tune) {
    RunArgs a;
    a.tune = tune;
    if (const auto done = parse_run_args(args, a, out, err)) return *done;
    auto config = tournament::load_config(a.config_path, err);
    if (config && config->tune.has_value() != tune) {
        err << (tune ? "arena tune: " + a.config_path + " has no 'tune:' section (docs/tuning.md)\n"
                     : "arena run: " + a.config_path + " is a tuning config: arena tune runs it\n");
        return kExitUsage;
    }
    session::BotHost host;  // the bots' processes: the checks' and the run's
    if (!config || !tournament::prepare_run(host, *config, a.overrides, err)) return kExitUsage;
    if (const auto why = tournament::too_few_bots(*config); !why.empty()) {
        err << "arena run: " << why << "\n";  // a league nobody has uploaded to yet
        return kExitFailure;
    }
    std::vector<submissions::LeftOut> left_out;
    try {
        bool interrupted = false;
        // Ctrl-C during the checks stops them after the step in progress.
        std::optional<StopOnSignal> signals;
        if (config->check) signals.emplace();
        if (!submissions::check_submissions(host, *config, left_out, err, interrupted,
                                            signals ? signals->token() : std::stop_token{}))
            return interrupted ? 130 : kExitFailure;
    } catch (const std::exception& e) {
        err << "arena run: " << e.what() << "\n";
        return kExitFailure;
    }
    try {
        store::ResultsStore store(config->database, config->journal_mode,
                                  store::waiting_as_long_as_locked(err, "arena run"));
        // Held until the run returns; the kernel drops it if the arena dies.
        std::optional<store::RunLock> lock;
        try {
            lock.emplace(config->database, config->name);
        } catch (const store::LockedError& e) {
            err << "arena run: " << e.what() << "\n";
            return kExitFailure;
        }
        const auto opened = tournament::open_tournament(store, *config, a.overrides, err);
        if (!opened) return kExitUsage;
        const auto started = std::chrono::steady_clock::now();
        bool stopped = false;
        const auto outcome = play(host, store, *config, *opened, a, stopped, out, err);
        if (a.stats)
            out << tournament::stats_line(outcome, std::chrono::steady_clock::now() - started,
                                          tournament::own_usage());
        return conclude(store, *config, *opened, outcome, left_out, a, stopped, out, err);
    } catch (const std::exception& e) {
        err << "arena run: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    return run_or_tune(args, out, err, false);
}

int tune_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    return run_or_tune(args, out, err, true);
}

}  // namespace arena::cli
