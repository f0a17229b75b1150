#include "arena/match/tally.hpp"

#include <algorithm>
#include <stdexcept>

namespace arena::match {

double BotTally::score() const {
    const auto n = games();
    return n == 0 ? 0.0
                  : (static_cast<double>(wins) + 0.5 * static_cast<double>(draws)) /
                        static_cast<double>(n);
}

Tally::Tally(const std::vector<std::string>& names) {
    for (const auto& n : names)
        bots_.push_back(BotTally{.name = n});
}

BotTally& Tally::find(const std::string& name) {
    auto it =
        std::find_if(bots_.begin(), bots_.end(), [&](const BotTally& b) { return b.name == name; });
    if (it == bots_.end()) throw std::logic_error("tally: unknown bot '" + name + "'");
    return *it;
}

void Tally::add(const record::GameRecord& game) {
    ++games_;
    const int winner = game.winner();
    for (int p = 1; p <= 2; ++p) {
        BotTally& b = find(game.players[p - 1]);
        if (winner == games::kNoPlayer) {
            ++b.draws;
        } else if (winner == p) {
            ++b.wins;
        } else {
            ++b.losses;
            ++b.lost_by[static_cast<std::size_t>(game.termination)];
        }
    }
}

}  // namespace arena::match
