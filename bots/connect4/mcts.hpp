#pragma once
// c4-mcts: the Monte Carlo tree search of seed 004 (its final submission).
//
// UCT: from the root, descend by the child maximising
//   Q/n + c * sqrt(2 ln N / n)            (c = 0.8, the seed's choice)
// expand a leaf on its second visit (all its children at once, centre first,
// visited in that order), finish the game with uniformly random moves on
// bitboards, and back the result up (+1 win, 0 draw, -1 loss, from the side
// of the player who moved into each node).
//
// MCTS-solver (the seed's "useless branches": terminal results are not
// re-simulated and are valued as certain): a node whose move wins is a proven
// win; a node with a proven-winning child is a proven loss for the player who
// moved into it, one whose children are all proven losses a proven win, and
// all proven otherwise the best of them. Proven losses are never selected; a
// proven win at the root is played at once.
//
// The tree is kept between moves: the process persists over a game, so on the
// next `go` the new position is looked up among the descendants of the
// previous root (the moves played since, ours and the opponent's) and that
// subtree becomes the root; otherwise (a new game, a position not reached
// from the old root) the tree starts again.

#include <cstdint>
#include <memory>

#include "bots/connect4/engine.hpp"

namespace arena::c4 {

struct MctsOptions {
    double c = 0.8;
    std::int64_t simulations = 0;  // fixed count per move; 0 = until the clock runs out
    std::uint64_t seed = 1;
    int log2_nodes = 22;  // tree capacity
    bool reuse = true;    // keep the tree between moves
};

// The tree's memory is allocated here, once, not when a game starts.
[[nodiscard]] std::unique_ptr<Connect4Engine> make_mcts_engine(const MctsOptions& options);

}  // namespace arena::c4
