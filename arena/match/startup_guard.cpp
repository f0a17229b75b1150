#include "arena/match/startup_guard.hpp"

#include "arena/record/escape.hpp"

namespace arena::match {

bool StartupGuard::begin(const std::string& bot) {
    std::unique_lock lock(mutex_);
    State& s = bots_[bot];
    // A bot that has not proved it can start is started once at a time, so
    // that a broken one costs kMaxStartupFailures starts, not one per game.
    changed_.wait(lock, [&] { return s.given_up || s.proven || !s.starting; });
    if (s.given_up) return false;
    if (!s.proven) s.starting = true;
    ++starts_;
    return true;
}

std::int64_t StartupGuard::starts() const {
    const std::lock_guard lock(mutex_);
    return starts_;
}

void StartupGuard::end(const std::string& bot, bool ok, const std::string& detail,
                       const std::string& stderr_tail, bool fatal) {
    {
        const std::lock_guard lock(mutex_);
        State& s = bots_[bot];
        s.starting = false;
        if (ok) {
            s.proven = true;
            s.failures = 0;
        } else {
            s.proven = false;
            ++s.failures;
            if (!s.given_up && (fatal || s.failures >= max_failures_)) {
                s.given_up = true;
                given_up_.push_back({bot, s.failures, detail, stderr_tail});
            }
        }
    }
    changed_.notify_all();
}

bool StartupGuard::given_up(const std::string& bot) const {
    const std::lock_guard lock(mutex_);
    const auto it = bots_.find(bot);
    return it != bots_.end() && it->second.given_up;
}

int StartupGuard::failures(const std::string& bot) const {
    const std::lock_guard lock(mutex_);
    const auto it = bots_.find(bot);
    return it == bots_.end() ? 0 : it->second.failures;
}

std::string StartupGuard::GivenUp::describe() const {
    // Fewer failures than the limit: the command could not be executed.
    std::string text = "bot '" + bot + "' " +
                       (failures >= kMaxStartupFailures
                            ? "failed to start " + std::to_string(failures) + " times in a row"
                            : std::string("cannot be started"));
    text += " (" + detail;
    if (!stderr_tail.empty()) text += "; its stderr: " + stderr_tail;
    return text + ")";
}

std::vector<StartupGuard::GivenUp> StartupGuard::given_up_bots() const {
    const std::lock_guard lock(mutex_);
    return given_up_;
}

void StartupGuard::set_notice(std::function<void(const std::string&)> sink) {
    const std::lock_guard lock(mutex_);
    notice_ = std::move(sink);
}

void StartupGuard::note_exits_between_games(const std::string& bot, const std::string& how,
                                            std::chrono::milliseconds startup) {
    std::function<void(const std::string&)> sink;
    std::string line;
    {
        const std::lock_guard lock(mutex_);
        if (exit_noted_[bot]) return;
        exit_noted_[bot] = true;
        line = "bot '" + record::escape_controls(bot) + "' exits after each game (" + how +
               "): a fresh process starts for each of its games, which costs its start-up "
               "time (" +
               std::to_string(startup.count()) + " ms) each, not a fault";
        notes_.push_back(line);
        sink = notice_;
    }
    if (sink) sink(line);
}

std::vector<std::string> StartupGuard::notes() const {
    const std::lock_guard lock(mutex_);
    return notes_;
}

}  // namespace arena::match
