#include "arena/tournament/repeats.hpp"

#include "arena/record/moves_hash.hpp"

namespace arena::tournament {

ScoredGame scored_game(const record::GameRecord& game) {
    ScoredGame g;
    g.first_score = game.outcome == games::Outcome::kWin1   ? 1.0
                    : game.outcome == games::Outcome::kWin2 ? 0.0
                                                            : 0.5;
    if (game.termination == record::Termination::kNormal) g.moves_hash = record::moves_hash(game);
    return g;
}

ScoredGame scored_game(const store::GameSummary& game) {
    return {store::first_mover_score(game.result).value_or(0.5), store::comparable_hash(game)};
}

}  // namespace arena::tournament
