#pragma once
// c4-features: the chain-feature recommender of seed 000 ("AI玩转重力四子棋").
//
// A position is described by its chains (棋串): maximal runs of one player's
// stones in one of the four directions, each with its length l (棋长, at
// most `connect`) and the liberty depth (气度) d1, d2 of the cell at each
// end: the number of drops into that column that fill it, counting the one
// that lands there (1 = playable now), or 0 when the end is off the board,
// blocked or occupied. A stone that belongs to no run of two or
// more counts once as a chain of length 1 (in its best direction). The seed's
// formula (section 棋串得分公式) values a chain:
//
//   0 when l < connect and d1 = d2 = 0 (a dead chain), otherwise
//   10^(t+2) + 10^(t+1)/d1^3 + 10^(t+1)/d2^3 + 10^(t+1)/(d1*d2)^2 + 10^t/(d1+d2)
//
// (the seed shows three slightly different versions, in its text, its code
// and its verification table; this one reproduces the table)
// with t = l + 4 - connect (t = l for connect 4) and the terms of a zero
// depth left out, so that a completed line is worth about 10^6 and a chain of
// connect - 1 about 10^5. A player's score is the sum over its chains.
//
// The move: for each of our moves and each reply, our score gain minus
// `weight` (the seed's 2) times the opponent's gain; we take the move whose
// worst reply is best (two plies). --plies 1 is the seed's literal one-ply
// recommendation. A move that wins at once is always taken.

#include <memory>

#include "bots/connect4/engine.hpp"

namespace arena::c4 {

struct FeaturesOptions {
    int plies = 2;        // 1 or 2
    double weight = 2.0;  // of the opponent's gain
};

// One chain as the seed describes it (exposed for tests).
[[nodiscard]] double chain_value(int length, int d1, int d2, int connect);

[[nodiscard]] std::unique_ptr<Connect4Engine> make_features_engine(const FeaturesOptions& options);

// The per-player scores of a position (index 0: player 1), for tests.
[[nodiscard]] std::array<double, 2> features_scores(const games::Connect4State& state);

}  // namespace arena::c4
