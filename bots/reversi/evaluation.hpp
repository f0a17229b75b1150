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

#include "bots/reversi/board.hpp"

namespace arena::bots::reversi {

// Bounds |evaluate()| comfortably (the real maximum is about 2500).
inline constexpr int kEvalBound = 8000;

// `own_moves` and `opp_moves` are legal_moves() of each side, which the
// search has at hand.
[[nodiscard]] int evaluate(const Position& pos, Bitboard own_moves, Bitboard opp_moves);

}  // namespace arena::bots::reversi
