#include "arena/league/league_play.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <ostream>
#include <thread>
#include <utility>

#include "arena/store/lock_messages.hpp"
#include "arena/store/results_store.hpp"
#include "arena/store/run_lock.hpp"
#include "arena/submissions/submissions.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/run_setup.hpp"

namespace arena::league {

namespace {
constexpr const char* kWho = "arena serve --league";

std::string bots_text(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " bot" : " bots");
}

// How long a run plays before a wake may stop it. Under a crowd of uploads a
// check passes every fifth of a second, faster than a run of a large league
// starts (reading bots_dir, hashing each bot's program, walking the stored
// games): stopped at each, the league stored a dozen games in twenty seconds
// (docs/performance.md, part 12). The versions installed meanwhile enter
// together at the next run.
constexpr auto kLeastRun = std::chrono::seconds(2);

// Stops `target` once request() was called and `least` has passed since the
// object was made; nothing once it is gone (its thread is joined).
class DeferredStop {
  public:
    DeferredStop(std::stop_source target, std::chrono::steady_clock::duration least)
        : target_(std::move(target)),
          due_(std::chrono::steady_clock::now() + least),
          timer_([this](std::stop_token done) { wait(done); }) {}
    DeferredStop(const DeferredStop&) = delete;
    DeferredStop& operator=(const DeferredStop&) = delete;

    void request() {
        {
            std::lock_guard lock(mutex_);
            requested_ = true;
        }
        changed_.notify_all();
    }

  private:
    void wait(std::stop_token done) {
        std::unique_lock lock(mutex_);
        if (!changed_.wait(lock, done, [&] { return requested_; })) return;
        if (changed_.wait_until(lock, done, due_, [] { return false; }) || done.stop_requested())
            return;
        target_.request_stop();
    }

    std::stop_source target_;
    const std::chrono::steady_clock::time_point due_;
    std::mutex mutex_;
    std::condition_variable_any changed_;
    bool requested_ = false;
    std::jthread timer_;  // last: joined before the rest goes
};
}  // namespace

LeaguePlay::LeaguePlay(session::BotHost& host, std::filesystem::path config_path,
                       LeaguePlayOptions options, std::ostream& log)
    : host_(host), config_path_(std::move(config_path)), options_(std::move(options)), log_(log) {}

void LeaguePlay::run(std::stop_token stop) {
    while (!stop.stop_requested()) {
        std::stop_source woken;
        {
            std::lock_guard lock(mutex_);
            woken_ = woken;
            pending_wake_ = false;
            ++status_.runs;
            status_.idle = false;
        }
        const bool ran = run_once(stop, woken.get_token());
        std::unique_lock lock(mutex_);
        status_.idle = ran && !pending_wake_;
        // Until a submission changes (or at once, when one did meanwhile).
        changed_.wait(lock, stop, [&] { return pending_wake_; });
    }
}

void LeaguePlay::wake() {
    std::lock_guard lock(mutex_);
    pending_wake_ = true;
    woken_.request_stop();
    changed_.notify_all();
}

LeagueStatus LeaguePlay::status() const {
    std::lock_guard lock(mutex_);
    return status_;
}

void LeaguePlay::note_problem(const std::string& problem) {
    log_ << kWho << ": " << problem << "\n" << std::flush;
    std::lock_guard lock(mutex_);
    status_.last_problem = problem;
    status_.waiting.clear();
}

bool LeaguePlay::run_once(std::stop_token stop, std::stop_token woken) {
    // Fewer than two bots (or that pass their checks): nothing to play,
    // which is not a problem (a new league has no uploads yet).
    const auto waiting = [&](const std::string& why,
                             const std::vector<submissions::LeftOut>& left_out) {
        log_ << kWho << ": " << why << "\n" << std::flush;
        std::lock_guard lock(mutex_);
        status_.waiting = why;
        status_.last_problem.clear();
        status_.left_out.clear();
        for (const auto& l : left_out)
            status_.left_out.push_back(l.bot);
        return true;
    };
    try {
        auto config = tournament::load_config(config_path_, log_);
        if (!config) {
            note_problem(config_path_.string() +
                         " cannot be used (above); fix it and upload again");
            return false;
        }
        if (config->bots_dir.empty()) {
            note_problem(config_path_.string() +
                         " has no bots_dir: a league plays its submissions");
            return false;
        }
        if (config->bots.size() < 2)
            return waiting("waiting for uploads: the league has " + bots_text(config->bots.size()),
                           {});
        std::vector<submissions::LeftOut> left_out;
        bool interrupted = false;
        if (!submissions::check_submissions(host_, *config, left_out, log_, interrupted, stop)) {
            // Those that fail are left out of config->bots: too few may pass.
            if (!interrupted && config->bots.size() < 2) {
                return waiting("waiting for uploads: " + bots_text(config->bots.size()) +
                                   " of the league pass the checks",
                               left_out);
            }
            if (!interrupted) note_problem("the submissions could not be checked (above)");
            return false;
        }
        store::ResultsStore store(config->database, config->journal_mode,
                                  store::waiting_as_long_as_locked(log_, kWho, stop));
        // One lock for as long as the league plays, not one a run: closing
        // its descriptor of the database would drop the POSIX locks of this
        // process's other connections to the file (fcntl(2)), and another
        // program's connection closing then would delete the WAL from under
        // them (the pages', the desk's).
        if (!run_lock_ || run_lock_path_ != config->database) {
            run_lock_.reset();
            run_lock_.emplace(config->database, config->name);
            run_lock_path_ = config->database;
        }
        tournament::RunOverrides overrides;
        overrides.concurrency = options_.concurrency;
        const auto opened = tournament::open_tournament(store, *config, overrides, log_);
        if (!opened) {
            note_problem("the league's database cannot continue with this config (above)");
            return false;
        }
        store.set_status(opened->id, "running");
        tournament::RunOptions options;
        options.concurrency = tournament::run_concurrency(overrides, *config);
        options.observers = options_.observers;
        options.reserved_fds = options_.reserved_fds;
        options.messages = &log_;
        options.command = kWho;
        // The server's stop or a wake: between games; a wake not before the
        // run has played kLeastRun.
        std::stop_source either;
        const std::stop_callback on_stop(stop, [&] { either.request_stop(); });
        DeferredStop deferred(either, kLeastRun);
        const std::stop_callback on_wake(woken, [&] { deferred.request(); });
        const auto outcome = tournament::Runner(host_, *config, store, opened->id, opened->lineup)
                                 .run(options, either.get_token());
        store.set_status(opened->id, outcome.interrupted ? "interrupted" : "finished");
        std::lock_guard guard(mutex_);
        status_.played += outcome.played;
        status_.stored = outcome.stored;
        status_.total = outcome.total;
        status_.last_problem = outcome.error;
        status_.waiting.clear();
        status_.left_out.clear();
        for (const auto& l : left_out)
            status_.left_out.push_back(l.bot);
        return outcome.error.empty();
    } catch (const std::exception& e) {
        note_problem(e.what());
        return false;
    }
}

}  // namespace arena::league
