#pragma once
// Per-bot counts over finished games: wins, draws, losses, and how the
// losses came about. Used for live summaries; the results database is the
// record of truth for tournaments.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "arena/record/game_record.hpp"

namespace arena::match {

struct BotTally {
    std::string name;
    std::int64_t wins = 0, draws = 0, losses = 0;
    // Losses by the way the game ended, indexed by record::Termination.
    std::array<std::int64_t, std::size(record::kAllTerminations)> lost_by{};

    [[nodiscard]] std::int64_t games() const { return wins + draws + losses; }
    // Points (win 1, draw 1/2) over games, in [0, 1]; 0 with no games.
    [[nodiscard]] double score() const;
    [[nodiscard]] std::int64_t lost(record::Termination t) const {
        return lost_by[static_cast<std::size_t>(t)];
    }
};

class Tally {
  public:
    explicit Tally(const std::vector<std::string>& names);
    void add(const record::GameRecord& game);
    [[nodiscard]] const std::vector<BotTally>& bots() const { return bots_; }
    [[nodiscard]] std::int64_t games() const { return games_; }

  private:
    BotTally& find(const std::string& name);
    std::vector<BotTally> bots_;
    std::int64_t games_ = 0;
};

}  // namespace arena::match
