#pragma once
// gomoku-pro's evaluation: a linear function of the position, seen from the
// side to move, with weights fitted on game outcomes (gomoku-pro-tune,
// pro_tune.cpp; the weights are in pro_weights.cpp).
//
// Features:
// - for every empty cell, the combination of the two best patterns the side
//   to move would make there over the four directions (board.hpp: combo()),
//   counted per combination; the same for the opponent, with weights of its
//   own (the side to move plays first, so its open three is an attack and
//   the opponent's a threat to answer);
// - the double threats: a four-three or two open threes to play, the
//   opponent's two open threes or open three against no four of ours, and
//   the opponent's four-three and double-three points;
// - a constant.
// The value is the sum of each feature times its weight. The units are
// those of the hand-set evaluation (classic_evaluate): the tuner scales the
// logit of "the side to move wins" by that evaluation's own fit, so the
// search's margins keep their meaning.

#include <array>
#include <vector>

#include "bots/gomoku/board.hpp"

namespace arena::bots::gomoku {

inline constexpr int kEvalTerms = 7;
// The combination of a cell with nothing near it: a stone played there would
// stand alone, open, in every direction.
inline constexpr int kQuietCombo = combo(kF1, kF1);
inline constexpr int kEvalFeatures = 2 * kCombos + kEvalTerms + 1;

struct EvalWeights {
    std::array<int, kCombos> mine{};    // per empty cell, by the side to move's combination
    std::array<int, kCombos> theirs{};  // ... by the opponent's
    std::array<int, kEvalTerms> terms{};
    int bias = 0;
};

// The fitted weights (pro_weights.cpp).
[[nodiscard]] const EvalWeights& tuned_eval_weights();

// The double-threat features, each 0 or 1, in the order of EvalWeights::terms.
[[nodiscard]] std::array<int, kEvalTerms> eval_terms(const Board& board);
// All the features, in the order mine, theirs, terms, constant: evaluate()
// is their dot product with the weights in that order. With a `defender`
// (a colour), the cell terms of the defender's opponent weigh `percent`: the
// "theirs" block when the defender is to move, the "mine" block when its
// opponent is (gomoku-pro --defence). What is scaled is the block's excess
// over a board whose empty cells are all quiet (kQuietCombo). Each empty
// cell counts once in either block, so the fit leaves a constant per cell
// free between the two (here about 230, "mine" below and "theirs" above);
// scaling the whole block would scale that constant too, a term of about 70
// a stone for one side that says nothing about threats.
[[nodiscard]] std::vector<int> eval_features(const Board& board);
[[nodiscard]] int evaluate(const Board& board, const EvalWeights& weights, int defender = -1,
                           int percent = 100);

// The hand-set evaluation that came before: the potential of every empty
// cell, the line shapes, and the double threats.
[[nodiscard]] int classic_evaluate(const Board& board);

}  // namespace arena::bots::gomoku
