#pragma once
// The static evaluation of reversi-alphabeta, ported from the seed program
// (OrangeX5, seeds/002): a weighted sum of four strategies, from the side to
// move's point of view.
//
//   corner   empty corner: its C-squares (next to it on an edge) -3 each, its
//            X-square (diagonal) -6, the A-squares two cells away on the
//            edges +4 and the two cells a knight's move away +2 (for the
//            mover; the opponent's discs count the other way). Occupied
//            corner: +-15.
//   steady   edge stable discs: from an occupied corner, the run of discs of
//            the corner's colour along each of its two edges (the corner
//            itself counts in both runs, as in the seed).
//   frontier discs of the inner 6x6 next to an empty cell: -1 each for the
//            mover, +1 for the opponent (the seed's comment describes this;
//            its code tests for an occupied neighbour instead, a slip).
//   mobility legal moves of the mover minus those of the opponent (the seed
//            counts the mover's only; the difference keeps negamax symmetric).
//
//   score = 8 * corner + 12 * steady + 8 * mobility + 4 * frontier
//
// The four weights are the seed's by default; reversi-alphabeta's --corner,
// --steady, --mobility and --frontier set them (for `arena tune`).

#include "bots/reversi/board.hpp"

namespace arena::bots::reversi {

struct EvalWeights {
    int corner = 8;
    int steady = 12;
    int mobility = 8;
    int frontier = 4;
    friend bool operator==(const EvalWeights&, const EvalWeights&) = default;
};

// The range of each weight (a weight of 0 leaves its strategy out).
inline constexpr int kMinWeight = 0;
inline constexpr int kMaxWeight = 64;
// |corner| <= 4 * 24, |steady| <= 4 * 16, |mobility| <= 60, |frontier| <= 36.
inline constexpr int kTermBound = 96 + 64 + 60 + 36;
// Bounds |evaluate()| for any weights in range (with the seed's, the real
// maximum is about 2000); the search keeps every evaluation below its
// game-over scores (alphabeta.hpp).
inline constexpr int kEvalBound = kTermBound * kMaxWeight;

// `own_moves` and `opp_moves` are legal_moves() of each side, which the
// search has at hand.
[[nodiscard]] int evaluate(const Position& pos, Bitboard own_moves, Bitboard opp_moves,
                           const EvalWeights& weights = {});

}  // namespace arena::bots::reversi
