#pragma once
// Keeps a bot that cannot start from being started for every one of its
// games. While a bot has not yet started in this run, or its last start
// failed, only one of its processes starts at a time; after
// kMaxStartupFailures failed starts in a row (or one command that cannot be
// executed at all) the bot is given up, and no process of it starts again.
// Shared by the players of every game of a run; thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace arena::match {

inline constexpr int kMaxStartupFailures = 3;

class StartupGuard {
  public:
    explicit StartupGuard(int max_failures = kMaxStartupFailures) : max_failures_(max_failures) {}

    // Before a new process of `bot` starts: waits while another start of the
    // bot is in progress and the bot has not proved it can start. False when
    // the bot has been given up (nothing may start).
    [[nodiscard]] bool begin(const std::string& bot);
    // After that start: whether the handshake succeeded, and if not, what
    // happened and the tail of its stderr. `fatal`: the command cannot be
    // executed at all, which no retry mends.
    void end(const std::string& bot, bool ok, const std::string& detail = {},
             const std::string& stderr_tail = {}, bool fatal = false);

    struct GivenUp {
        std::string bot;
        int failures = 0;         // failed starts in a row
        std::string detail;       // what the last one said
        std::string stderr_tail;  // the end of its stderr, escaped
        // "bot 'x' failed to start 3 times in a row (exit 1; its stderr: ...)",
        // or "bot 'x' cannot be started (...)" for a command that cannot run.
        [[nodiscard]] std::string describe() const;
    };
    // Where notes for people go (one line each, without the newline), for
    // the run's output; none set: kept for notes().
    void set_notice(std::function<void(const std::string&)> sink);
    // A process of `bot` exited between two games (`how`: "exit 0"), which
    // costs nothing but a fresh start, `startup` long. Said once per bot:
    // "bot 'x' exits after each game (exit 0): a fresh process starts for
    // each of its games, which costs its start-up time (12 ms) each".
    void note_exits_between_games(const std::string& bot, const std::string& how,
                                  std::chrono::milliseconds startup);
    [[nodiscard]] std::vector<std::string> notes() const;

    [[nodiscard]] bool given_up(const std::string& bot) const;
    // Failed starts in a row of `bot` so far (0 once a start succeeds).
    [[nodiscard]] int failures(const std::string& bot) const;
    // The bots given up, in the order they were given up.
    [[nodiscard]] std::vector<GivenUp> given_up_bots() const;
    // Processes started through the guard so far (every begin() that let
    // one start).
    [[nodiscard]] std::int64_t starts() const;

  private:
    struct State {
        bool proven = false;    // a start succeeded, and none failed since
        bool starting = false;  // a start is in progress
        int failures = 0;
        bool given_up = false;
    };

    int max_failures_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::unordered_map<std::string, State> bots_;
    std::vector<GivenUp> given_up_;
    std::function<void(const std::string&)> notice_;
    std::vector<std::string> notes_;
    std::unordered_map<std::string, bool> exit_noted_;
    std::int64_t starts_ = 0;
};

}  // namespace arena::match
