#include "arena/match/time_control.hpp"

#include <algorithm>

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

GameClock::GameClock(const TimeControl& tc) : tc_(tc) {
    remaining_.fill(tc.game);
}

Millis GameClock::budget(int player) const {
    if (tc_.game.count() == 0) return tc_.move;
    const auto left =
        std::max(Millis{0}, std::chrono::duration_cast<Millis>(remaining_[player - 1]));
    return tc_.move.count() > 0 ? std::min(tc_.move, left) : left;
}

protocol::Go GameClock::go(int player) const {
    protocol::Go go;
    go.move_ms = budget(player).count();
    if (tc_.game.count() > 0) {
        using std::chrono::duration_cast;
        go.clock_ms =
            std::max<std::int64_t>(0, duration_cast<Millis>(remaining_[player - 1]).count());
        go.opp_clock_ms =
            std::max<std::int64_t>(0, duration_cast<Millis>(remaining_[2 - player]).count());
    }
    return go;
}

bool GameClock::charge(int player, std::chrono::nanoseconds elapsed) {
    const bool in_time = elapsed <= limit(player);
    if (tc_.game.count() > 0) remaining_[player - 1] += tc_.increment - elapsed;
    return in_time;
}

}  // namespace arena::match
