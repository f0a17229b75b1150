#pragma once
// The games a test counts, from what the runner plays (record::GameRecord)
// and what the store holds (store::GameSummary). The rule, that a pair
// repeating an earlier one move for move is counted once, is
// rating/repeats.hpp's.

#include "arena/rating/repeats.hpp"
#include "arena/record/game_record.hpp"
#include "arena/store/results_store.hpp"

namespace arena::tournament {

using rating::kRepeatsInARowToStop;
using rating::RepeatFilter;
using rating::ScoredGame;

[[nodiscard]] ScoredGame scored_game(const record::GameRecord& game);
[[nodiscard]] ScoredGame scored_game(const store::GameSummary& game);

}  // namespace arena::tournament
