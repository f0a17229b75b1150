#include "arena/match/close_calls.hpp"

#include <algorithm>

#include "arena/record/escape.hpp"

namespace arena::match {

namespace {
constexpr std::chrono::microseconds kNear{25'000};
}  // namespace

bool is_close_call(std::chrono::microseconds time, Millis budget) {
    const std::chrono::microseconds limit = budget;
    if (limit.count() <= 0) return false;
    // What is left of the limit: under 5 % of it, and under 25 ms.
    const std::chrono::microseconds near = std::min<std::chrono::microseconds>(limit / 20, kNear);
    return limit - time < near;
}

void CloseCallCounter::add(const std::string& first, const std::string& second,
                           const std::vector<TimedMove>& moves) {
    GameClock clock(time_of(first), time_of(second));
    for (const auto& m : moves) {
        if (m.by_arena || (m.player != 1 && m.player != 2)) continue;
        const Millis budget = clock.budget(m.player);
        auto& count = counts_[m.player == 1 ? first : second];
        ++count.moves;
        if (is_close_call(m.time, budget)) ++count.close;
        (void)clock.charge(m.player, m.time);
    }
    // A bot with no move of its own still appears, with nothing counted.
    counts_.try_emplace(first);
    counts_.try_emplace(second);
}

const TimeControl& CloseCallCounter::time_of(const std::string& bot) const {
    const auto found = times_.find(bot);
    return found == times_.end() ? time_ : found->second;
}

void CloseCallCounter::add(const record::GameRecord& game) {
    std::vector<TimedMove> moves;
    moves.reserve(game.moves.size());
    for (const auto& m : game.moves)
        moves.push_back({m.player, m.time, m.by_arena});
    add(game.players[0], game.players[1], moves);
}

std::vector<std::pair<std::string, CloseCallCount>> CloseCallCounter::warnings() const {
    std::vector<std::pair<std::string, CloseCallCount>> out;
    for (const auto& [bot, count] : counts_)
        if (count.close >= 2 && count.close * 10 >= count.moves) out.emplace_back(bot, count);
    return out;
}

std::string close_call_warning(const std::string& bot, const CloseCallCount& count,
                               const std::string& hint) {
    return "warning: " + record::escape_controls(bot) +
           " answered within 5 % (at most 25 ms) of its time limit on " +
           std::to_string(count.close) + " of " + std::to_string(count.moves) +
           " moves; on a busy machine it will lose on time (" + hint + ")";
}

}  // namespace arena::match
