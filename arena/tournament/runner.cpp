#include "arena/tournament/runner.hpp"

#include <time.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/match/match.hpp"
#include "arena/match/opening.hpp"
#include "arena/match/startup_guard.hpp"
#include "arena/match/tally.hpp"
#include "arena/record/escape.hpp"
#include "arena/tournament/game_queue.hpp"
#include "arena/tournament/pairing_source.hpp"
#include "arena/tournament/play_order.hpp"
#include "arena/tournament/player_pool.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena/tournament/worker_source.hpp"

namespace arena::tournament {
namespace {

// How long a game whose bot was stopped by a job's signal (SIGTERM,
// SIGINT, ...) waits for the arena's own stop before it is judged: the
// signals of one stop reach the processes of a job a few milliseconds apart.
constexpr auto kJobStopGrace = std::chrono::seconds(2);

// Whether `stop` is requested within `grace`.
bool stop_follows(const std::stop_token& stop, std::chrono::nanoseconds grace) {
    const auto until = std::chrono::steady_clock::now() + grace;
    while (!stop.stop_requested() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return stop.stop_requested();
}

// CPU time used so far by the calling thread.
std::chrono::nanoseconds thread_cpu() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

// One run: the state the workers and the storing thread share. The workers
// take games from the pairing source, play them with bots from the pool and
// queue them; one thread stores them (with one worker, the worker itself,
// each game before the next starts) and tells the source and the observers.
class Run {
  public:
    Run(session::BotHost& host, const Config& config, store::ResultsStore& store,
        std::int64_t tournament_id, const Lineup& lineup, const RunOptions& options,
        std::stop_token stop);
    RunOutcome play();

  private:
    [[nodiscard]] int bot_of(int entrant) const {
        return lineup_.bot_of[static_cast<std::size_t>(entrant)];
    }
    [[nodiscard]] bool given_up(int bot) const {
        return guard_.given_up(config_.bots[static_cast<std::size_t>(bot)].name);
    }
    [[nodiscard]] bool stopping() const {
        return stop_.stop_requested() || abort_.stop_requested();
    }
    void fail(const std::string& what);
    void play_phase();
    void worker(bool stores_itself);
    void tell_given_up(const Pairing& pairing);
    enum class Played { kPlayed, kSkipped, kStop };
    // The bots of each side (nullptr: the entrant's config bot), from the source.
    using Variants = std::array<std::shared_ptr<const BotConfig>, 2>;
    [[nodiscard]] Played play_one(const Pairing& pairing, const Variants& variants, Finished& f);
    void release(const Pairing& pairing, const Variants& variants,
                 std::array<std::unique_ptr<match::Player>, 2> players);
    void store_batch(std::deque<Finished>& batch);
    void store_one(const Finished& f);
    void tell_schedule();
    void conclude(const std::unordered_set<std::int64_t>& done);

    session::BotHost& host_;
    const Config& config_;
    store::ResultsStore& store_;
    std::int64_t tournament_id_;
    const Lineup& lineup_;
    const RunOptions& options_;
    std::stop_token stop_;
    std::stop_source abort_;  // set when the run cannot go on (a bot cannot start, storing failed)
    match::StartupGuard guard_;
    std::mutex notice_mutex_;  // notices come from the workers
    std::unique_ptr<PairingSource> source_;
    std::mutex source_mutex_;
    std::size_t capacity_ = 0;
    std::optional<PlayerPool> pool_;
    GameQueue queue_;
    std::mutex error_mutex_;
    std::string error_;
    // After a failed store (a full disk, a read-only file) nothing more is
    // stored: the failed game's transaction was rolled back, and the games
    // still finishing are dropped like the abandoned ones, to be played when
    // the run resumes.
    bool storage_failed_ = false;
    std::mutex cpu_mutex_;
    RunOutcome outcome_;
};

Run::Run(session::BotHost& host, const Config& config, store::ResultsStore& store,
         std::int64_t tournament_id, const Lineup& lineup, const RunOptions& options,
         std::stop_token stop)
    : host_(host),
      config_(config),
      store_(store),
      tournament_id_(tournament_id),
      lineup_(lineup),
      options_(options),
      stop_(std::move(stop)),
      queue_(guard_, [this](const Finished& f) {
          // The bots a start-up loss blames.
          std::vector<std::string> bots;
          const int offender = f.record.offender();
          if (offender != 2) bots.push_back(config_.bots[bot_of(f.pairing.first)].name);
          if (offender != 1) bots.push_back(config_.bots[bot_of(f.pairing.second)].name);
          return bots;
      }) {}

void Run::fail(const std::string& what) {
    std::lock_guard lock(error_mutex_);
    if (error_.empty()) error_ = what;
    abort_.request_stop();
}

RunOutcome Run::play() {
    const auto recorded = store_.recorded_indices(tournament_id_);
    const std::unordered_set<std::int64_t> done(recorded.begin(), recorded.end());
    source_ = make_pairing_source(config_, lineup_, store_, tournament_id_, done);
    if (const auto& w = options_.worker) {
        source_ =
            make_worker_source(std::move(source_), config_, lineup_, w->worker,
                               PeerDatabases(w->own, w->peers, config_.name), done, w->patience);
    }
    outcome_.total = source_->total();
    if (options_.progress != nullptr)
        options_.progress->run_started(outcome_.total, static_cast<std::int64_t>(done.size()),
                                       source_->summary());
    if (options_.messages != nullptr) {
        guard_.set_notice([this](const std::string& line) {
            const std::lock_guard lock(notice_mutex_);
            *options_.messages << options_.command << ": " << line << "\n" << std::flush;
        });
    }
    // At most `capacity` bot processes at once (the open-file limit's); a
    // league larger than that plays in an order that restarts few.
    capacity_ = process_capacity(options_.concurrency, options_.reserved_fds);
    source_->plan_for_capacity(capacity_, options_.concurrency);
    pool_.emplace(host_, config_, guard_, capacity_);
    // Phase by phase: a phase is begun once the one before is stored whole.
    const auto begin = [this] {
        try {
            return source_->begin_phase();
        } catch (const std::exception& e) {
            std::lock_guard lock(error_mutex_);
            if (error_.empty()) error_ = e.what();
            return false;
        }
    };
    for (bool more = begin(); more;) {
        tell_schedule();
        play_phase();
        if (stopping()) break;
        pool_->retire_all(true);  // the phase's variants are not played again
        more = begin();
        if (!more) tell_schedule();
    }
    conclude(done);
    return std::move(outcome_);
}

// The source's total, summary and news, to the progress.
void Run::tell_schedule() {
    if (options_.progress == nullptr) {
        (void)source_->take_news();
        return;
    }
    options_.progress->schedule_changed(source_->total(), source_->summary(), source_->take_news());
}

// Plays the phase's games: with one worker, on this thread, each game stored
// before the next starts; else with `concurrency` workers while this thread
// stores what they finish.
void Run::play_phase() {
    const int threads = std::max(1, options_.concurrency);
    queue_.start(threads);
    if (threads == 1) {
        worker(true);
        return;
    }
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([this] { worker(false); });
    const auto writer_start = thread_cpu();
    for (auto batch = queue_.take(); !batch.empty(); batch = queue_.take())
        store_batch(batch);
    const auto storing = thread_cpu() - writer_start;
    std::lock_guard lock(cpu_mutex_);  // the workers may still be adding theirs
    outcome_.storage_cpu += storing;
}

void Run::worker(bool stores_itself) {
    const auto start = thread_cpu();
    std::chrono::nanoseconds storing{};
    while (!stopping()) {
        std::optional<Pairing> pairing;
        Variants variants;
        Finished f;
        auto wait = std::chrono::milliseconds::zero();
        try {
            std::lock_guard lock(source_mutex_);
            pairing = source_->next();
            if (pairing) {
                variants = {source_->variant(*pairing, 0), source_->variant(*pairing, 1)};
                f.params = source_->game_params(*pairing);
            } else {
                wait = source_->wait_for();
                if (wait > wait.zero()) tell_schedule();
            }
        } catch (const std::exception& e) {
            fail(e.what());  // a source that reads other databases (a cluster worker's)
            break;
        }
        if (!pairing && wait > wait.zero()) {
            // The phase's games are not all handed out yet: ask again later.
            const auto until = std::chrono::steady_clock::now() + wait;
            while (!stopping() && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            continue;
        }
        if (!pairing) break;
        // The games of a bot given up are not played: fixed, the next run plays them.
        if (given_up(bot_of(pairing->first)) || given_up(bot_of(pairing->second))) {
            tell_given_up(*pairing);
            continue;
        }
        const Played played = play_one(*pairing, variants, f);
        if (played == Played::kSkipped) {
            tell_given_up(*pairing);
            continue;
        }
        if (played == Played::kStop) break;
        queue_.push(std::move(f));
        if (stores_itself) {
            const auto before = thread_cpu();
            auto batch = queue_.take_now();
            store_batch(batch);
            storing += thread_cpu() - before;
        }
    }
    queue_.worker_done(!stopping());
    if (stores_itself) {
        const auto before = thread_cpu();
        auto batch = queue_.take_now();
        store_batch(batch);
        storing += thread_cpu() - before;
    }
    std::lock_guard lock(cpu_mutex_);
    outcome_.game_cpu += thread_cpu() - start - storing;
    outcome_.storage_cpu += storing;
}

// Tells the source which side of `pairing` was given up.
void Run::tell_given_up(const Pairing& pairing) {
    std::lock_guard lock(source_mutex_);
    for (const int entrant : {pairing.first, pairing.second})
        if (given_up(bot_of(entrant))) source_->given_up(entrant);
}

// Plays one game into `f`. kStop when this worker stops: the game was
// abandoned, or the run cannot go on (the error is kept).
Run::Played Run::play_one(const Pairing& pairing, const Variants& variants, Finished& f) {
    const int first_bot = bot_of(pairing.first), second_bot = bot_of(pairing.second);
    const auto& first_config =
        variants[0] ? *variants[0] : config_.bots[static_cast<std::size_t>(first_bot)];
    const auto& second_config =
        variants[1] ? *variants[1] : config_.bots[static_cast<std::size_t>(second_bot)];
    f.pairing = pairing;
    try {
        const auto setup = pair_setup(config_, pairing);
        const auto game = games::make_game(config_.game, setup.board);
        f.opening = match::opening_text(*game, setup.opening);
        auto first = pool_->acquire(first_bot, variants[0]);
        auto second = pool_->acquire(second_bot, variants[1]);
        // Either stop ends the game: the user's, or another worker's abort.
        std::stop_source game_stop;
        std::stop_callback on_stop(stop_, [&] { game_stop.request_stop(); });
        std::stop_callback on_abort(abort_.get_token(), [&] { game_stop.request_stop(); });
        const auto tell = [&](auto&& call) {
            if (options_.progress != nullptr) call(*options_.progress);
            for (auto* o : options_.observers)
                call(*o);
        };
        tell([&](match::GameObserver& o) {
            o.game_started(pairing.index, first->name(), second->name(), *game);
        });
        const bool watched = options_.progress != nullptr || !options_.observers.empty();
        // Each side under its bot's control (time odds, search limits).
        const std::array<match::SideControl, 2> sides{side_control(config_, first_config),
                                                      side_control(config_, second_config)};
        f.record = match::play_game(
            *game, *first, *second, sides, setup.opening, game_stop.get_token(),
            !watched ? match::MoveObserver{} : [&](const record::MoveRecord& m) {
                tell([&](match::GameObserver& o) { o.move_played(pairing.index, m); });
            });
        // A bot stopped by a job's signal, then the arena's own stop: one
        // stop of the whole job (Slurm signals every process of a cancelled
        // task at once), not the bot's fault.
        if (f.record.termination != record::Termination::kNormal &&
            (first->stopped_by_job_signal() || second->stopped_by_job_signal()) &&
            stop_follows(stop_, kJobStopGrace))
            f.record.abandoned = true;
        if (!f.record.abandoned)
            tell([&](match::GameObserver& o) { o.game_ended(pairing.index, f.record); });
        release(pairing, variants, {std::move(first), std::move(second)});
    } catch (const session::SpawnError& e) {
        // The guard has given the bot up: its games are skipped from now on.
        if (given_up(first_bot) || given_up(second_bot)) return Played::kSkipped;
        fail(e.what());
        return Played::kStop;
    } catch (const std::exception& e) {
        fail(e.what());
        return Played::kStop;
    }
    return f.record.abandoned ? Played::kStop : Played::kPlayed;
}

void Run::release(const Pairing& pairing, const Variants& variants,
                  std::array<std::unique_ptr<match::Player>, 2> players) {
    const std::array<int, 2> bots{bot_of(pairing.first), bot_of(pairing.second)};
    const auto restarts = [&](std::size_t side) {
        const auto& v = variants[side];
        return (v ? *v : config_.bots[static_cast<std::size_t>(bots[side])]).restart_each_game;
    };
    const auto give_back = [&](std::size_t side) {
        pool_->release(bots[side], std::move(players[side]), variants[side]);
    };
    if (restarts(0) && restarts(1)) {
        // Both processes quit side by side.
        std::jthread quit_first([&] { give_back(0); });
        give_back(1);
    } else {
        give_back(0);
        give_back(1);
    }
}

void Run::store_batch(std::deque<Finished>& batch) {
    for (const Finished& f : batch) {
        if (storage_failed_) break;
        store_one(f);
    }
    batch.clear();
    if (options_.progress != nullptr) options_.progress->batch_stored();
}

// Stores one game, then tells the source and the observers.
void Run::store_one(const Finished& f) {
    std::int64_t id = 0;
    try {
        id = store_.record_game(
            tournament_id_,
            {f.pairing.index, f.pairing.round, f.pairing.pair, f.pairing.game_in_pair, f.opening},
            f.record, f.params);
    } catch (const std::exception& e) {
        storage_failed_ = true;
        fail(e.what());
        return;
    }
    ++outcome_.played;
    outcome_.moves += std::count_if(f.record.moves.begin(), f.record.moves.end(),
                                    [](const auto& m) { return !m.by_arena; });
    {
        std::lock_guard lock(source_mutex_);
        source_->on_result(f.pairing, scored_game(f.record));
    }
    for (auto* o : options_.observers)
        o->game_stored(f.pairing.index, id, f.record);
    if (options_.progress != nullptr) {
        options_.progress->game_stored(f.pairing.index, id, f.record);
        std::lock_guard lock(source_mutex_);
        tell_schedule();
    }
}

// The outcome, from what the database holds now.
void Run::conclude(const std::unordered_set<std::int64_t>& done) {
    if (options_.progress != nullptr) options_.progress->run_ended();
    pool_->retire_all();
    outcome_.process_starts = guard_.starts();
    outcome_.processes_retired = static_cast<std::int64_t>(pool_->evictions());
    outcome_.process_capacity = capacity_;
    // The indices stored now, read once: for the count and for what each bot
    // given up still misses.
    std::unordered_set<std::int64_t> stored;
    try {
        const auto indices = store_.recorded_indices(tournament_id_);
        stored.insert(indices.begin(), indices.end());
        outcome_.stored = static_cast<std::int64_t>(stored.size());
    } catch (const std::exception& e) {
        // The database failed under the writer, or now: count what we know.
        // This run's games are not known by index, so what a bot misses
        // below is counted from the games stored before it.
        stored = done;
        outcome_.stored = static_cast<std::int64_t>(done.size()) + outcome_.played;
        std::lock_guard lock(error_mutex_);
        if (error_.empty()) error_ = e.what();
    }
    outcome_.error = error_;
    outcome_.total = source_->final_total(stored);
    outcome_.sprt_tests = source_->sprt_tests();
    outcome_.interrupted = outcome_.stored < outcome_.total;
    for (auto& b : guard_.given_up_bots()) {
        RunOutcome::GivenUp g{std::move(b), 0};
        for (const auto& p : source_->scope()) {
            if (stored.contains(p.index) || !source_->needed(p)) continue;
            if (config_.bots[static_cast<std::size_t>(bot_of(p.first))].name == g.bot.bot ||
                config_.bots[static_cast<std::size_t>(bot_of(p.second))].name == g.bot.bot)
                ++g.missing_games;
        }
        outcome_.given_up.push_back(std::move(g));
    }
}

}  // namespace

Runner::Runner(session::BotHost& host, const Config& config, store::ResultsStore& store,
               std::int64_t tournament_id)
    : Runner(host, config, store, tournament_id, base_lineup(config)) {}

Runner::Runner(session::BotHost& host, const Config& config, store::ResultsStore& store,
               std::int64_t tournament_id, Lineup lineup)
    : host_(host),
      config_(config),
      store_(store),
      tournament_id_(tournament_id),
      lineup_(std::move(lineup)) {}

RunOutcome Runner::run(const RunOptions& options, std::stop_token stop) {
    return Run(host_, config_, store_, tournament_id_, lineup_, options, std::move(stop)).play();
}

}  // namespace arena::tournament
