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
    ScoredGame g;
    g.first_score = store::first_mover_score(game.result).value_or(0.5);
    if (game.termination == record::to_string(record::Termination::kNormal))
        g.moves_hash = game.moves_hash;
    return g;
}

bool RepeatFilter::counts(const ScoredGame& first_moved_first,
                          const ScoredGame& other_moved_first) {
    const bool comparable =
        !count_repeats_ && first_moved_first.moves_hash && other_moved_first.moves_hash;
    if (!comparable ||
        seen_.emplace(*first_moved_first.moves_hash, *other_moved_first.moves_hash).second) {
        in_a_row_ = 0;
        return true;
    }
    ++repeated_;
    ++in_a_row_;
    return false;
}

}  // namespace arena::tournament
