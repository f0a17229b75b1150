#pragma once
// Time controls and the clock of one game, as values: they are told how long
// each move took and say how long the next one may take. Measuring is the
// session's job; deciding is here.

#include <array>
#include <chrono>
#include <cstdint>
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

    bool operator==(const TimeControl&) const = default;
};

// Limits on a bot's search, put on every `go` it is sent (depth=, nodes=;
// protocol/PROTOCOL.md); none by default. The time limit still holds.
struct SearchLimits {
    std::optional<std::int64_t> depth;  // plies searched ahead, at least 1
    std::optional<std::int64_t> nodes;  // nodes searched, at least 1

    [[nodiscard]] bool empty() const { return !depth && !nodes; }
    bool operator==(const SearchLimits&) const = default;
};

// What one side of a game plays under: its time control (a bot's own
// `time:`, else the tournament's) and the limits on its search. The two
// sides of a game may differ (time odds).
struct SideControl {
    TimeControl time;
    SearchLimits limits;

    bool operator==(const SideControl&) const = default;
};

// How a game's record keeps a side's control (record/control_text.hpp):
// "move_ms=50 tolerance_ms=10 [game_ms=60000 inc_ms=100] [depth=2] [nodes=1000]".
[[nodiscard]] std::string control_text(const SideControl& side);

class GameClock {
  public:
    // Both players under one time control.
    explicit GameClock(const TimeControl& tc) : GameClock(tc, tc) {}
    // Player 1 under `first`, player 2 under `second`.
    GameClock(const TimeControl& first, const TimeControl& second);

    // What `player` (1 or 2) may spend on its next move, tolerance excluded.
    [[nodiscard]] Millis budget(int player) const;
    // The hard limit of the next move: budget plus tolerance.
    [[nodiscard]] std::chrono::nanoseconds limit(int player) const {
        return budget(player) + tc_[static_cast<std::size_t>(player - 1)].tolerance;
    }
    [[nodiscard]] protocol::Go go(int player) const;

    // Charges a completed move. False when it overran the limit (the caller
    // judges that as a loss on time).
    bool charge(int player, std::chrono::nanoseconds elapsed);

  private:
    std::array<TimeControl, 2> tc_;                        // per player
    std::array<std::chrono::nanoseconds, 2> remaining_{};  // game clock per player
};

}  // namespace arena::match
