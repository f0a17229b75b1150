#pragma once
// Time controls and the clock of one game, as values: they are told how long
// each move took and say how long the next one may take. Measuring is the
// session's job; deciding is here.

#include <array>
#include <chrono>
#include <optional>
#include <string>

#include "protocol/codec.hpp"

namespace arena::match {

using Millis = std::chrono::milliseconds;

// The default tolerance: what a move may take beyond its limit before it is
// lost on time. It absorbs scheduling delays between the bot's write and the
// arena's read; the per-move cost of the arena itself is microseconds.
inline constexpr Millis kDefaultTolerance{10};

struct TimeControl {
    Millis move{3000};  // per-move limit; 0 = none (then a game clock is required)
    Millis tolerance{kDefaultTolerance};
    Millis game{0};       // per-player game clock; 0 = none
    Millis increment{0};  // added to the game clock after each move

    // Empty when valid, else what is wrong ("move_ms and game_ms are both 0").
    [[nodiscard]] std::string validate() const;
    // The `game` line's time-control keys: move_ms=... [game_ms=... inc_ms=...].
    [[nodiscard]] protocol::KeyValues keys() const;
};

class GameClock {
  public:
    explicit GameClock(const TimeControl& tc);

    // What `player` (1 or 2) may spend on its next move, tolerance excluded.
    [[nodiscard]] Millis budget(int player) const;
    // The hard limit of the next move: budget plus tolerance.
    [[nodiscard]] std::chrono::nanoseconds limit(int player) const {
        return budget(player) + tc_.tolerance;
    }
    [[nodiscard]] protocol::Go go(int player) const;

    // Charges a completed move. False when it overran the limit (the caller
    // judges that as a loss on time).
    bool charge(int player, std::chrono::nanoseconds elapsed);

  private:
    TimeControl tc_;
    std::array<std::chrono::nanoseconds, 2> remaining_{};  // game clock per player
};

}  // namespace arena::match
