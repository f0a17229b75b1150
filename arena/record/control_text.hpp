#pragma once
// What one side of a game played under, as a game's record keeps it
// (GameRecord::controls, the games table's first_control and
// second_control): its time control and its search limits as one line of
// key=value words, "move_ms=50 tolerance_ms=10 [game_ms=60000 inc_ms=100]
// [depth=2] [nodes=1000]" (game_ms and inc_ms only with a game clock). The
// match writes it (match::control_text); the reports read it back and say
// it for people.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arena::record {

struct Control {
    std::int64_t move_ms = 0;  // 0: no per-move limit (a game clock)
    std::int64_t tolerance_ms = 0;
    std::int64_t game_ms = 0;  // 0: no game clock
    std::int64_t inc_ms = 0;
    std::optional<std::int64_t> depth, nodes;

    bool operator==(const Control&) const = default;
    // The same time control (move_ms, tolerance_ms, game_ms, inc_ms).
    [[nodiscard]] bool same_time(const Control& other) const;
    // The same search limits (depth, nodes).
    [[nodiscard]] bool same_limits(const Control& other) const {
        return depth == other.depth && nodes == other.nodes;
    }
};

[[nodiscard]] std::string control_text(const Control& control);
// The text read back; nullopt when it is not of that form (an unknown key, a
// value that is not a non-negative integer, move_ms or tolerance_ms missing).
[[nodiscard]] std::optional<Control> parse_control(std::string_view text);

// The time control for people: "50 ms/move", "60000 ms/game + 100 ms/move"
// (a game clock with an increment), "60000 ms/game, at most 500 ms/move".
[[nodiscard]] std::string time_description(const Control& control);
// The search limits for people: "depth 2", "depth 2, 10000 nodes", "none".
[[nodiscard]] std::string limits_description(const Control& control);

}  // namespace arena::record
