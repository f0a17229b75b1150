#include "arena/match/time_control.hpp"

#include <algorithm>

#include "arena/record/control_text.hpp"

namespace arena::match {

std::string TimeControl::validate() const {
    if (move.count() < 0 || tolerance.count() < 0 || game.count() < 0 || increment.count() < 0)
        return "time values must not be negative";
    if (move.count() == 0 && game.count() == 0)
        return "no time limit: set a per-move limit (move_ms) or a game clock (game_ms)";
    if (game.count() == 0 && increment.count() != 0)
        return "an increment (inc_ms) needs a game clock (game_ms)";
    return {};
}

protocol::KeyValues TimeControl::keys() const {
    protocol::KeyValues kv;
    if (move.count() > 0) kv.emplace_back("move_ms", std::to_string(move.count()));
    if (game.count() > 0) {
        kv.emplace_back("game_ms", std::to_string(game.count()));
        kv.emplace_back("inc_ms", std::to_string(increment.count()));
    }
    return kv;
}

std::string control_text(const SideControl& side) {
    const auto& t = side.time;
    return record::control_text({t.move.count(), t.tolerance.count(), t.game.count(),
                                 t.increment.count(), side.limits.depth, side.limits.nodes});
}

GameClock::GameClock(const TimeControl& first, const TimeControl& second) : tc_{first, second} {
    remaining_ = {first.game, second.game};
}

Millis GameClock::budget(int player) const {
    const auto& tc = tc_[static_cast<std::size_t>(player - 1)];
    if (tc.game.count() == 0) return tc.move;
    const auto left = std::max(Millis{0}, std::chrono::duration_cast<Millis>(
                                              remaining_[static_cast<std::size_t>(player - 1)]));
    return tc.move.count() > 0 ? std::min(tc.move, left) : left;
}

protocol::Go GameClock::go(int player) const {
    protocol::Go go;
    go.move_ms = budget(player).count();
    const auto own = static_cast<std::size_t>(player - 1), other = 1 - own;
    if (tc_[own].game.count() > 0) {
        using std::chrono::duration_cast;
        go.clock_ms = std::max<std::int64_t>(0, duration_cast<Millis>(remaining_[own]).count());
        // Only when the opponent has a clock too (time odds may give it none).
        if (tc_[other].game.count() > 0) {
            go.opp_clock_ms =
                std::max<std::int64_t>(0, duration_cast<Millis>(remaining_[other]).count());
        }
    }
    return go;
}

bool GameClock::charge(int player, std::chrono::nanoseconds elapsed) {
    const bool in_time = elapsed <= limit(player);
    const auto& tc = tc_[static_cast<std::size_t>(player - 1)];
    if (tc.game.count() > 0)
        remaining_[static_cast<std::size_t>(player - 1)] += tc.increment - elapsed;
    return in_time;
}

}  // namespace arena::match
