#pragma once
// c4-alphabeta: the alpha-beta player of seed 004 ("Connect-Four", the
// Tsinghua assignment with a blocked cell on random board sizes).
//
// Negamax with alpha-beta over bitboards, deepened iteratively until the
// time is spent (the seed adapted a fixed depth to the clock instead; the
// idea is the same: fill the budget, never lose breadth). Move ordering: the
// root moves in the order of the previous iteration's scores (the seed's
// shallow trial search), the previous principal variation first along its
// path, otherwise centre first. A win found at the next move is worth
// kWin - ply, so faster wins are preferred and slower losses.
//
// Evaluation (the seed's F, computed for both sides, ours minus theirs):
// every run of k stones, 2 <= k < connect (twos and threes on the usual
// board), earns points for each end cell that is empty, not blocked and
// playable soon: at most `soon` stones have to be dropped into its column
// before it can be filled (the seed's fix for "凹" grooves, whose far-up
// ends were counted as open). A run with both ends good earns a bonus.
//
// The points (`RunWeights`, the seed's by default; c4-alphabeta's --three,
// --two, --shorter and --both-ends set them, for `arena tune`): a run one
// stone short of `connect` (a three on the usual board) earns `three` per
// good end, a run two short `two`, any shorter run `shorter`; a run with
// both ends good earns `both_ends` percent of its points per end once more.
// The evaluation is kept below the scores of proven wins whatever the
// weights (with the seed's it stays far below).

#include <memory>

#include "bots/connect4/engine.hpp"

namespace arena::c4 {

struct RunWeights {
    int three = 100;      // per good end of a run one stone short of connect
    int two = 10;         // ... two stones short
    int shorter = 1;      // ... three or more short (connect >= 5)
    int both_ends = 100;  // percent of a run's points per end, once more when both are good
    friend bool operator==(const RunWeights&, const RunWeights&) = default;
};

// The ranges of the weights the command line sets (0 leaves a term out).
inline constexpr int kMaxRunWeight = 10000;
inline constexpr int kMaxBothEnds = 1000;

struct AlphaBetaOptions {
    int depth = 0;  // fixed depth; 0 = iterative deepening under the clock
    int soon = 2;   // an end counts when at most this many drops away
    RunWeights weights;
};

[[nodiscard]] std::unique_ptr<Connect4Engine> make_alphabeta_engine(
    const AlphaBetaOptions& options);

// The static evaluation of `state` (a position of `game`, not over) for the
// side to move, for tests.
[[nodiscard]] int alphabeta_evaluation(const games::Game& game, const games::Connect4State& state,
                                       const AlphaBetaOptions& options);

}  // namespace arena::c4
