#include "arena/tournament/runner.hpp"

#include <time.h>

#include <algorithm>
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
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/ladder.hpp"
#include "arena/tournament/play_order.hpp"
#include "arena/tournament/player_pool.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {
namespace {

using SteadyClock = std::chrono::steady_clock;

// The storage writer looks for finished games this often, or sooner when
// kWriterBatch of them wait or the last worker ends; it then stores all that
// wait, each in its own transaction. Woken for every game instead, it paid a
// sleep and a wake-up per game, and each worker a wake-up call: with instant
// bots, about 1.7 us of the arena's CPU per move (10 %). A finished game waits
// at most this long before it is stored (and played again on resume if the
// arena is killed meanwhile).
constexpr auto kWriterPeriod = std::chrono::milliseconds(10);
constexpr std::size_t kWriterBatch = 32;

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

struct Finished {
    Pairing pairing;
    std::string opening;
    record::GameRecord record;
};

// Progress for people: one line per game, or one live line on a terminal.
class Progress {
  public:
    Progress(const Config& config, std::ostream& out, bool live, int width, std::int64_t total,
             std::int64_t already)
        : out_(out),
          live_(live),
          width_(width),
          total_(total),
          done_(already),
          tally_(names(config)) {}

    void game_stored(const Finished& f, std::int64_t game_id) {
        ++done_;
        ++played_;
        const auto& r = f.record;
        if (r.termination != record::Termination::kNormal) ++faults_;
        tally_.add(r);
        if (live_) {
            print_live();
        } else {
            // The game's number is its stored id, the one `arena games`
            // lists and `show`, `log` and the web pages take; the count
            // after it is progress, not a number of a game.
            out_ << "game #" << game_id << " (" << done_ << "/" << total_
                 << " stored): " << record::escape_controls(r.players[0]) << " vs "
                 << record::escape_controls(r.players[1]) << "  " << record::score_text(r.outcome)
                 << "  " << record::to_string(r.termination) << "  " << r.moves.size() << " plies";
            if (schedule_games_ > 0)
                out_ << "  (schedule position " << f.pairing.index + 1 << " of " << schedule_games_
                     << ")";
            if (const auto fault = record::fault_description(r); !fault.empty())
                out_ << "  (" << record::escape_controls(fault) << ")";
            out_ << "\n";
        }
    }

    // A gauntlet's SPRT after a stored game: what the live line shows, the
    // games that still matter, and a line for a test just decided.
    void sprt_update(std::string summary, std::int64_t total, const std::string& decided) {
        sprt_summary_ = std::move(summary);
        total_ = total;
        if (decided.empty()) return;
        if (live_) out_ << "\r\x1b[K";
        out_ << decided << "\n";
        if (live_) print_live(true);
    }

    // Games are numbered among these (RunOptions::schedule_games).
    void set_schedule_games(std::int64_t games) { schedule_games_ = games; }

    // After each batch the writer stores: its lines go out together.
    void flush() { out_ << std::flush; }

    void finish() {
        if (live_ && played_ > 0) out_ << "\n" << std::flush;
    }

  private:
    static std::vector<std::string> names(const Config& config) {
        std::vector<std::string> n;
        for (const auto& b : config.bots)
            n.push_back(b.name);
        return n;
    }

    void print_live(bool now_anyway = false) {
        const auto now = SteadyClock::now();
        if (!now_anyway && played_ > 1 && done_ < total_ &&
            now - last_print_ < std::chrono::milliseconds(100))
            return;
        last_print_ = now;
        const double secs = std::chrono::duration<double>(now - start_).count();
        const double rate = secs > 0 ? static_cast<double>(played_) / secs : 0.0;
        const auto& bots = tally_.bots();
        const auto leader = std::max_element(
            bots.begin(), bots.end(), [](auto& a, auto& b) { return a.score() < b.score(); });
        std::ostringstream line;
        line << "\r" << done_ << "/" << total_ << " games  " << std::fixed << std::setprecision(1)
             << rate << " games/s  ETA ";
        if (rate > 0) {
            const auto eta = static_cast<std::int64_t>(static_cast<double>(total_ - done_) / rate);
            line << eta / 60 << ":" << std::setw(2) << std::setfill('0') << eta % 60
                 << std::setfill(' ');
        } else {
            line << "-";
        }
        line << "  faults " << faults_;
        if (leader != bots.end() && leader->games() > 0)
            line << "  leader " << leader->name << " " << std::setprecision(1)
                 << 100.0 * leader->score() << "%";
        if (!sprt_summary_.empty()) line << "  " << sprt_summary_;
        // One column short of the width: a line that fills it wraps on some
        // terminals, and each update would leave a new line behind.
        std::string text = line.str();
        if (width_ > 1 && text.size() > static_cast<std::size_t>(width_))
            text.resize(static_cast<std::size_t>(width_));  // "\r" takes no column
        out_ << text << "\x1b[K" << std::flush;
    }

    std::ostream& out_;
    bool live_;
    int width_;  // of the terminal; 0: unknown
    std::int64_t total_, done_, played_ = 0, faults_ = 0;
    std::int64_t schedule_games_ = 0;
    match::Tally tally_;  // this run's games only: enough to name a leader
    std::string sprt_summary_;
    SteadyClock::time_point start_ = SteadyClock::now(), last_print_{};
};

// CPU time used so far by the calling thread.
std::chrono::nanoseconds thread_cpu() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

double first_score(games::Outcome outcome) {
    if (outcome == games::Outcome::kWin1) return 1.0;
    if (outcome == games::Outcome::kWin2) return 0.0;
    return 0.5;
}

// "LLR a 1.23, b H1, c -0.40" for the live line: the tests that can still play.
std::string sprt_summary(const Lineup& lineup, const GauntletSprt& sprt) {
    std::ostringstream s;
    s << "LLR";
    const char* sep = " ";
    for (const auto& t : sprt.tests()) {
        if (!t.playable) continue;
        s << sep << record::escape_controls(lineup.names[static_cast<std::size_t>(t.opponent)])
          << " ";
        if (t.decided()) {
            s << rating::decision_name(t.result.decision);
        } else {
            s << std::fixed << std::setprecision(2) << t.result.llr;
        }
        sep = ", ";
    }
    return s.str();
}

// "sprt: X vs Y: H1 accepted after 37 pairs (LLR 2.96, bounds -2.94 2.94)"
std::string sprt_decision_line(const Lineup& lineup, const OpponentTest& t) {
    std::ostringstream s;
    s << "sprt: " << record::escape_controls(lineup.names[static_cast<std::size_t>(t.challenger)])
      << " vs " << record::escape_controls(lineup.names[static_cast<std::size_t>(t.opponent)])
      << ": " << rating::decision_name(t.result.decision) << " accepted after " << t.counted_pairs
      << " pair" << (t.counted_pairs == 1 ? "" : "s") << " (LLR " << std::fixed
      << std::setprecision(2) << t.result.llr << ", bounds " << t.result.lower << " "
      << t.result.upper << ")";
    return s.str();
}

// "ladder: e placed after 12 games (3 rounds): 153 ± 71 Elo"
std::string placement_line(const Lineup& lineup, const Placement& p) {
    std::ostringstream s;
    s << "ladder: " << record::escape_controls(lineup.names[static_cast<std::size_t>(p.entrant)])
      << " placed after " << p.games << " game" << (p.games == 1 ? "" : "s") << " (" << p.rounds
      << " round" << (p.rounds == 1 ? "" : "s") << "): " << std::fixed << std::setprecision(0)
      << p.rating << " \u00b1 " << p.error << " Elo"
      << (p.reached_target ? ""
          : p.met_everyone ? " (every opponent met)"
                           : " (at games_per_entrant)");
    return s.str();
}

}  // namespace

Runner::Runner(const Config& config, store::ResultsStore& store, std::int64_t tournament_id)
    : Runner(config, store, tournament_id, base_lineup(config)) {}

Runner::Runner(const Config& config, store::ResultsStore& store, std::int64_t tournament_id,
               Lineup lineup)
    : config_(config), store_(store), tournament_id_(tournament_id), lineup_(std::move(lineup)) {}

RunOutcome Runner::run(const RunOptions& options, std::ostream& out, std::stop_token stop) {
    // The schedule is over entrants; a game is played by their config bots.
    const auto& schedule = lineup_.schedule;
    const auto bot_of = [&](int entrant) {
        return lineup_.bot_of[static_cast<std::size_t>(entrant)];
    };
    const auto recorded = store_.recorded_indices(tournament_id_);
    const std::unordered_set<std::int64_t> done(recorded.begin(), recorded.end());
    // A gauntlet's tests continue from the stored games; decided opponents
    // play no more.
    std::optional<GauntletSprt> sprt;
    std::mutex sprt_mutex;
    if (config_.sprt) {
        std::vector<int> challengers;
        std::vector<bool> playable;
        for (std::size_t e = 0; e < lineup_.names.size(); ++e) {
            if (base_name(lineup_.names[e]) == config_.challenger)
                challengers.push_back(static_cast<int>(e));
            playable.push_back(lineup_.bot_of[e] >= 0);
        }
        sprt.emplace(*config_.sprt, schedule, challengers, playable);
        for (const auto& g : store_.games(tournament_id_)) {
            if (g.slot.index >= 0 && g.slot.index < static_cast<std::int64_t>(schedule.size()))
                sprt->add(schedule[static_cast<std::size_t>(g.slot.index)],
                          store::first_mover_score(g.result).value_or(0.5));
        }
    }
    // A ladder plays one round at a time, each chosen from the stored
    // results (ladder.hpp): the walk starts over from them.
    std::optional<Ladder> ladder;
    LadderResults ladder_results;
    if (config_.schedule == ScheduleType::kLadder) {
        std::vector<bool> playable;
        std::map<std::string, int> entrant_of;
        for (std::size_t e = 0; e < lineup_.names.size(); ++e) {
            playable.push_back(lineup_.bot_of[e] >= 0);
            entrant_of.emplace(lineup_.names[e], static_cast<int>(e));
        }
        ladder.emplace(ladder_options(config_), std::move(playable));
        for (const auto& g : store_.games(tournament_id_)) {
            const auto a = entrant_of.find(g.first), b = entrant_of.find(g.second);
            if (a == entrant_of.end() || b == entrant_of.end()) continue;
            ladder_results[g.slot.index] = {a->second, b->second,
                                            store::first_mover_score(g.result).value_or(0.5)};
        }
    }
    const auto decided = [&](const Pairing& p) {
        if (!sprt) return false;
        std::lock_guard lock(sprt_mutex);
        return sprt->decided(p);
    };
    // The games of retired bots and earlier versions that are not stored
    // are neither played nor needed.
    std::vector<Pairing> pending;
    std::int64_t needed = 0;
    for (const auto& p : schedule) {
        if (done.contains(p.index)) {
            ++needed;
        } else if (lineup_.playable(p)) {
            ++needed;
            if (!decided(p)) pending.push_back(p);
        }
    }

    // The ladder's next round: its games not stored yet are the pending ones.
    std::optional<LadderRound> round;
    std::size_t placements_shown = 0;
    const auto ladder_total = [&] {
        return static_cast<std::int64_t>(ladder_results.size() + pending.size());
    };
    const auto next_round = [&] {
        round = ladder->next_round(ladder_results);
        pending.clear();
        if (round) {
            for (const auto& p : round->games)
                if (!ladder_results.contains(p.index)) pending.push_back(p);
        }
    };
    // "ladder: placing e, round 3" for the live line.
    const auto ladder_summary = [&] {
        if (!round) return std::string("ladder: every entrant placed");
        return "ladder: placing " +
               record::escape_controls(lineup_.names[static_cast<std::size_t>(round->entrant)]) +
               ", round " + std::to_string(round->number + 1);
    };
    // A ladder's games are not known in advance: the tournament's total is
    // the games stored and those of the round under way, kept up to date
    // for the standings and reports (the config and fingerprint as stored).
    const auto record_ladder_total = [&] {
        store::TournamentChange change;
        change.config_text = config_.text;
        change.fingerprint = fingerprint(config_);
        change.total_games = ladder_total();
        store_.change_tournament(tournament_id_, change);
    };
    if (ladder) {
        next_round();
        placements_shown = ladder->placements().size();  // placed by earlier runs
        record_ladder_total();
    }

    RunOutcome outcome;
    outcome.total = sprt ? sprt->needed_games() : ladder ? ladder_total() : needed;
    Progress progress(config_, out, options.live, options.width, outcome.total,
                      static_cast<std::int64_t>(done.size()));
    progress.set_schedule_games(options.schedule_games);
    if (options.messages != nullptr && !done.empty()) {
        const auto stored_now = static_cast<std::int64_t>(done.size());
        const auto left = std::max<std::int64_t>(0, outcome.total - stored_now);
        auto& m = *options.messages;
        if (left > 0) {
            m << "arena run: resuming tournament '" << record::escape_controls(config_.name)
              << "': " << stored_now << " of " << outcome.total << " games stored, " << left
              << " left to play\n";
        } else {
            m << "arena run: tournament '" << record::escape_controls(config_.name) << "': all "
              << stored_now << " games stored, nothing left to play\n";
        }
        m << std::flush;
    }
    if (sprt) progress.sprt_update(sprt_summary(lineup_, *sprt), outcome.total, "");
    if (ladder) progress.sprt_update(ladder_summary(), outcome.total, "");

    match::StartupGuard guard;
    std::mutex notice_mutex;  // notes come from the workers
    if (options.messages != nullptr) {
        guard.set_notice([&options, &notice_mutex](const std::string& line) {
            const std::lock_guard lock(notice_mutex);
            *options.messages << "arena run: " << line << "\n" << std::flush;
        });
    }
    // At most `capacity` bot processes at once (the open-file limit's); a
    // league larger than that plays in an order that restarts few.
    const std::size_t capacity = process_capacity(options.concurrency, options.reserved_fds);
    if (!sprt && !ladder) order_for_capacity(pending, capacity, options.concurrency);
    PlayerPool pool(config_, guard, capacity);
    // Of a config bot.
    const auto given_up = [&](int bot) { return guard.given_up(config_.bots[bot].name); };
    std::atomic<std::size_t> next{0};
    std::stop_source abort;  // set by a worker that cannot go on (a bot cannot start)
    std::mutex error_mutex;
    std::string error;

    std::mutex queue_mutex;
    std::condition_variable queue_cv;
    std::deque<Finished> queue;
    int workers_left = 0;
    std::chrono::nanoseconds game_cpu{};  // of the workers that have ended, under queue_mutex

    // A game lost at start-up waits here until it is known whether its bot
    // starts at all: stored once the bot has started since, dropped (no
    // invented results) if the bot is given up. Under queue_mutex.
    std::vector<Finished> held;
    const auto startup_offenders = [&](const Finished& f) {
        std::vector<int> bots;
        const int offender = f.record.offender();
        if (offender != 2) bots.push_back(bot_of(f.pairing.first));
        if (offender != 1) bots.push_back(bot_of(f.pairing.second));
        return bots;
    };
    // Moves the held games whose fate is known to the queue, or drops them;
    // at the end (`last`), every one whose bots were not given up is stored.
    const auto settle_held = [&](bool last) {
        std::erase_if(held, [&](Finished& f) {
            const auto bots = startup_offenders(f);
            if (std::any_of(bots.begin(), bots.end(), given_up)) return true;
            const bool started_since = std::all_of(bots.begin(), bots.end(), [&](int b) {
                return guard.failures(config_.bots[b].name) == 0;
            });
            if (!last && !started_since) return false;
            queue.push_back(std::move(f));
            return true;
        });
    };

    auto worker = [&] {
        while (!stop.stop_requested() && !abort.stop_requested()) {
            const auto i = next.fetch_add(1);
            if (i >= pending.size()) break;
            const Pairing& pairing = pending[i];
            const int first_bot = bot_of(pairing.first), second_bot = bot_of(pairing.second);
            // The games of a bot given up are not played: fixed, the next run plays them.
            if (given_up(first_bot) || given_up(second_bot)) continue;
            // Nor those of an opponent whose test has been decided.
            if (decided(pairing)) continue;
            Finished f;
            f.pairing = pairing;
            try {
                const auto setup = pair_setup(config_, pairing.pair);
                const auto game = games::make_game(config_.game, setup.board);
                f.opening = match::opening_text(*game, setup.opening);
                auto first = pool.acquire(first_bot);
                auto second = pool.acquire(second_bot);
                // Either stop ends the game: the user's, or another worker's abort.
                std::stop_source game_stop;
                std::stop_callback on_stop(stop, [&] { game_stop.request_stop(); });
                std::stop_callback on_abort(abort.get_token(), [&] { game_stop.request_stop(); });
                GameObserver* watch = options.observer;
                if (watch != nullptr)
                    watch->game_started(pairing.index, first->name(), second->name(), *game);
                f.record = match::play_game(
                    *game, *first, *second, config_.time, setup.opening, game_stop.get_token(),
                    watch == nullptr ? match::MoveObserver{} : [&](const record::MoveRecord& m) {
                        watch->move_played(pairing.index, m);
                    });
                // A bot stopped by a job's signal, then the arena's own
                // stop: one stop of the whole job (Slurm signals every
                // process of a cancelled task at once), not the bot's fault.
                if (f.record.termination != record::Termination::kNormal &&
                    (first->stopped_by_job_signal() || second->stopped_by_job_signal()) &&
                    stop_follows(stop, kJobStopGrace))
                    f.record.abandoned = true;
                if (watch != nullptr && !f.record.abandoned)
                    watch->game_ended(pairing.index, f.record);
                if (config_.bots[first_bot].restart_each_game &&
                    config_.bots[second_bot].restart_each_game) {
                    // Both processes quit side by side.
                    std::jthread quit_first([&] { pool.release(first_bot, std::move(first)); });
                    pool.release(second_bot, std::move(second));
                } else {
                    pool.release(first_bot, std::move(first));
                    pool.release(second_bot, std::move(second));
                }
            } catch (const session::SpawnError& e) {
                // The guard has given the bot up: its games are skipped from now on.
                if (given_up(first_bot) || given_up(second_bot)) continue;
                std::lock_guard lock(error_mutex);
                if (error.empty()) error = e.what();
                abort.request_stop();
                break;
            } catch (const std::exception& e) {
                std::lock_guard lock(error_mutex);
                if (error.empty()) error = e.what();
                abort.request_stop();
                break;
            }
            if (f.record.abandoned) break;
            bool wake_writer = false;
            {
                std::lock_guard lock(queue_mutex);
                if (f.record.termination == record::Termination::kStartup) {
                    held.push_back(std::move(f));
                } else {
                    queue.push_back(std::move(f));
                }
                settle_held(false);
                wake_writer = queue.size() >= kWriterBatch;
            }
            if (wake_writer) queue_cv.notify_one();
        }
        const auto cpu = thread_cpu();
        std::lock_guard lock(queue_mutex);
        --workers_left;
        // Stopped by the user or an error: the held games are played again on resume.
        if (workers_left == 0 && !stop.stop_requested() && !abort.stop_requested())
            settle_held(true);
        game_cpu += cpu;
        queue_cv.notify_one();
    };

    // After a failed store (a full disk, a read-only file) the writer stores
    // nothing more: the failed game's transaction was rolled back, and the
    // games still finishing are dropped like the abandoned ones, to be played
    // when the run resumes.
    bool storage_failed = false;
    // Plays `pending`: once, or a ladder's round at a time.
    const auto play = [&] {
        next = 0;
        const int threads =
            std::max(1, std::min<int>(options.concurrency, static_cast<int>(pending.size())));
        workers_left = threads;
        std::vector<std::jthread> workers;
        for (int t = 0; t < threads; ++t)
            workers.emplace_back(worker);

        // This thread is the one storage writer.
        const auto store_one = [&](const Finished& f) {
            try {
                const auto id =
                    store_.record_game(tournament_id_,
                                       {f.pairing.index, f.pairing.round, f.pairing.pair,
                                        f.pairing.game_in_pair, f.opening},
                                       f.record);
                if (options.observer != nullptr) options.observer->game_stored(f.pairing.index, id);
                ++outcome.played;
                outcome.moves += std::count_if(f.record.moves.begin(), f.record.moves.end(),
                                               [](const auto& m) { return !m.by_arena; });
                progress.game_stored(f, id);
                if (ladder) {
                    ladder_results[f.pairing.index] = {f.pairing.first, f.pairing.second,
                                                       first_score(f.record.outcome)};
                }
                if (sprt) {
                    std::lock_guard lock(sprt_mutex);
                    const bool before = sprt->decided(f.pairing);
                    sprt->add(f.pairing, first_score(f.record.outcome));
                    std::string line;
                    if (!before && sprt->decided(f.pairing)) {
                        for (const auto& t : sprt->tests()) {
                            const bool ours =
                                (t.opponent == f.pairing.first &&
                                 t.challenger == f.pairing.second) ||
                                (t.opponent == f.pairing.second && t.challenger == f.pairing.first);
                            if (ours) line = sprt_decision_line(lineup_, t);
                        }
                    }
                    progress.sprt_update(sprt_summary(lineup_, *sprt), sprt->needed_games(), line);
                }
            } catch (const std::exception& e) {
                storage_failed = true;
                std::lock_guard elock(error_mutex);
                if (error.empty()) error = e.what();
                abort.request_stop();
            }
        };
        const auto writer_start = thread_cpu();
        std::unique_lock lock(queue_mutex);
        std::deque<Finished> batch;
        while (true) {
            queue_cv.wait_for(lock, kWriterPeriod,
                              [&] { return queue.size() >= kWriterBatch || workers_left == 0; });
            if (queue.empty()) {
                if (workers_left == 0) break;
                continue;
            }
            batch.swap(queue);
            lock.unlock();
            for (const Finished& f : batch) {
                if (storage_failed) break;
                store_one(f);
            }
            batch.clear();
            progress.flush();
            lock.lock();
        }
        outcome.storage_cpu += thread_cpu() - writer_start;
        outcome.game_cpu = game_cpu;
    };
    while (true) {
        play();
        if (!ladder || stop.stop_requested() || abort.stop_requested() || storage_failed) break;
        const int number = round ? round->number : -1;
        next_round();
        const auto& placed = ladder->placements();
        for (; placements_shown < placed.size(); ++placements_shown) {
            if (placed[placements_shown].games > 0)
                progress.sprt_update(ladder_summary(), ladder_total(),
                                     placement_line(lineup_, placed[placements_shown]));
        }
        progress.sprt_update(ladder_summary(), ladder_total(), "");
        try {
            record_ladder_total();
        } catch (const std::exception& e) {
            std::lock_guard elock(error_mutex);
            if (error.empty()) error = e.what();
            break;
        }
        // Every entrant placed, or the round could not be completed (a bot
        // was given up): the next run goes on from here.
        if (!round || round->number == number) break;
    }
    progress.finish();
    pool.retire_all();
    outcome.process_starts = guard.starts();
    outcome.processes_retired = static_cast<std::int64_t>(pool.evictions());
    outcome.process_capacity = capacity;

    // The indices stored now, read once: for the count and for what each bot
    // given up still misses.
    std::unordered_set<std::int64_t> stored;
    try {
        const auto indices = store_.recorded_indices(tournament_id_);
        stored.insert(indices.begin(), indices.end());
        outcome.stored = static_cast<std::int64_t>(stored.size());
    } catch (const std::exception& e) {
        // The database failed under the writer, or now: count what we know.
        // This run's games are not known by index, so what a bot misses
        // below is counted from the games stored before it.
        stored = done;
        outcome.stored = static_cast<std::int64_t>(done.size()) + outcome.played;
        if (error.empty()) error = e.what();
    }
    outcome.error = error;
    if (sprt) {
        outcome.total = sprt->needed_games();
        outcome.sprt_tests = sprt->tests();
    }
    if (ladder) {
        // The games stored and those of the round that is not complete.
        outcome.total = outcome.stored;
        if (round) {
            for (const auto& p : round->games)
                if (!stored.contains(p.index)) ++outcome.total;
        }
    }
    outcome.interrupted = outcome.stored < outcome.total;
    for (auto& b : guard.given_up_bots()) {
        RunOutcome::GivenUp g{std::move(b), 0};
        // A ladder's: of the round it stopped in.
        for (const auto& p : (ladder && round) ? round->games : schedule) {
            if (stored.contains(p.index) || !lineup_.playable(p) || (sprt && sprt->decided(p)))
                continue;
            if (config_.bots[bot_of(p.first)].name == g.bot.bot ||
                config_.bots[bot_of(p.second)].name == g.bot.bot)
                ++g.missing_games;
        }
        outcome.given_up.push_back(std::move(g));
    }
    return outcome;
}

}  // namespace arena::tournament
