#pragma once
// reversi-pro's evaluation: a few board features, each the mover's count
// minus the opponent's, weighted by a linear model fitted separately for
// every number of empty cells (so the weights follow the phase of the game).
//
// The weights (pro_weights.cpp) were fitted by least squares on self-play:
// see reversi-pro-tune (reversi_pro_tune.cpp) and bots/README.md.

#include <array>

#include "bots/reversi/board.hpp"

namespace arena::bots::reversi::pro {

// The features, all from the side to move's view.
enum Feature : int {
    kBias = 0,     // 1: the value of having the move at this number of empties
    kMobility,     // legal moves
    kPotential,    // empty cells next to the other side's discs
    kFrontier,     // the other side's discs next to an empty cell (own ones count -1)
    kCornerDiscs,  // corners held
    kXSquares,     // discs diagonally next to an empty corner
    kCSquares,     // discs next to an empty corner on its edges
    kStable,       // discs that can never be flipped (a sure subset)
    kEdges,        // edge discs that are not corners
    kDiscs,        // discs
    kCornerMoves,  // legal moves onto a corner
    kFeatureCount
};

using FeatureVector = std::array<int, kFeatureCount>;
// weights[empties][feature], in hundredths of a disc of final disc difference.
using Weights = std::array<std::array<float, kFeatureCount>, 61>;

// The discs of `own` that no sequence of moves can flip: a sure subset,
// grown from the corners and from full lines.
[[nodiscard]] Bitboard stable_discs(Bitboard own, Bitboard opp);

[[nodiscard]] FeatureVector features(const Position& pos, Bitboard own_moves, Bitboard opp_moves);

// The weights shipped with the bot.
[[nodiscard]] const Weights& tuned_weights();
// Round-numbered starting weights (before any tuning), the same in every phase.
[[nodiscard]] Weights hand_weights();

// Score of a position that is not over, in hundredths of a disc, clamped to
// +-kEvalLimit. `own_moves`/`opp_moves`: the legal moves of both sides.
inline constexpr int kEvalLimit = 6000;
[[nodiscard]] int evaluate(const Weights& w, const Position& pos, Bitboard own_moves,
                           Bitboard opp_moves);

}  // namespace arena::bots::reversi::pro
