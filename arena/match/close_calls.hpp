#pragma once
// Close calls: moves whose think time came within a hair of their limit. A
// bot that keeps finishing there wins today and loses on time on a busier
// machine; the commands warn about it at the end of a run or a match. Pure:
// it counts over finished games' move times.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "arena/match/time_control.hpp"
#include "arena/record/game_record.hpp"

namespace arena::match {

struct TimedMove {
    int player = 0;  // 1 or 2
    std::chrono::microseconds time{};
    bool by_arena = false;  // openings and forced passes: not the bot's
};

// A move is a close call when it came within a few milliseconds of its limit
// (the budget the clock gave it, tolerance excluded): less than 5 % of the
// limit and less than 25 ms was left, e.g. 2 ms of 40 ms, 25 ms of 3 s. A bot
// that keeps a margin in proportion to the limit (the reference bots keep
// 10 %, at most 150 ms) is never one.
[[nodiscard]] bool is_close_call(std::chrono::microseconds time, Millis budget);

struct CloseCallCount {
    std::int64_t moves = 0;  // the bot's own moves
    std::int64_t close = 0;  // of which close calls
};

// Counts, per bot name, over games played under one time control, or a bot's
// own (set_time: time odds). The budget of each move is the game clock's
// (GameClock), replayed move by move.
class CloseCallCounter {
  public:
    explicit CloseCallCounter(const TimeControl& time) : time_(time) {}

    // `bot` plays under its own time control.
    void set_time(const std::string& bot, const TimeControl& time) { times_[bot] = time; }

    // One game: `players` moved first and second.
    void add(const std::string& first, const std::string& second,
             const std::vector<TimedMove>& moves);
    void add(const record::GameRecord& game);

    // The bots that keep coming close: at least 2 close calls, and at least
    // one move in 10; in name order.
    [[nodiscard]] std::vector<std::pair<std::string, CloseCallCount>> warnings() const;
    [[nodiscard]] const std::map<std::string, CloseCallCount>& counts() const { return counts_; }

  private:
    [[nodiscard]] const TimeControl& time_of(const std::string& bot) const;

    TimeControl time_;
    std::map<std::string, TimeControl> times_;  // the bots with their own
    std::map<std::string, CloseCallCount> counts_;
};

// "warning: NAME answered within 5 % (at most 25 ms) of its time limit on N
// of M moves; on a
// busy machine it will lose on time (HINT)", NAME escaped.
[[nodiscard]] std::string close_call_warning(const std::string& bot, const CloseCallCount& count,
                                             const std::string& hint);

}  // namespace arena::match
