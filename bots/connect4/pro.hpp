#pragma once
// c4-pro: Monte Carlo tree search for large and irregular boards (the
// tsinghua family: 9..12 x 9..12 with a blocked cell), with exact proofs.
//
// Why MCTS and not alpha-beta: on a 12 x 12 board with a blocked cell no proof
// fits in the opening and the middle game, and a depth-limited search with a
// hand-written evaluation sees a handful of plies of a 140-ply game. Playouts
// that respect the tactics of the game (below) estimate the long-term value
// of odd/even threats and zugzwang directly, without an evaluation that has
// to know Allis's rules for every board height and blocked cell.
//
//   * Tree: UCT (Q/n + c * sqrt(ln N / n)) with a progressive bias: each
//     child carries a prior (the cells it makes winnable for its mover, with a
//     bonus when the row's parity favours that mover, and its distance from
//     the centre), worth bias * prior / (n + 1). Children are created on a
//     node's second visit, only for the moves that do not lose at once
//     (Board::non_losing_moves): a move that lets the opponent complete a
//     line, directly or in the cell just above it, is never searched.
//   * Threat search at expansion: a series of moves, each threatening to win
//     at once so that the opponent's only non-losing reply is the block,
//     ending in a move that leaves it none (a double threat, or a block
//     under another threat). Forcing moves are few, so it is cheap and
//     reaches deep (8 threats, a few hundred moves tried at most); a win it
//     finds proves the node, and marks the move that starts it.
//   * Proofs (MCTS-solver): a node whose side to move can win at once is a
//     proven loss for the player who moved into it; one with no non-losing
//     move a proven win; proofs propagate up (a proven-winning child makes the
//     parent lost, all children lost make it won, all proven otherwise a
//     draw). Nodes with few empty cells are solved outright on expansion by
//     the exact solver (exact.hpp) under a node budget; the table it shares
//     keeps every bound across nodes and moves.
//   * Playouts: win at once when possible, block the opponent's only
//     immediate win (two of them: a loss), never play under an opponent's
//     threat (a cell that lets it win in the cell above), avoid playing
//     under one's own threat (which lets the opponent kill it) while another
//     safe move exists, otherwise a uniformly random safe move. Each side's
//     threat cells are kept incrementally (recomputed only for the mover).
//   * Root: a win in one is played at once. With few empty cells the exact
//     solver first gets a share of the time: a proven win or draw is played
//     as proven; a proven loss leaves the choice to the tree (the move the
//     opponent is most likely to get wrong).
//   * The tree is kept between moves (re-rooted at the new position, as
//     c4-mcts does) and the clock is the shared SearchClock, on a budget cut
//     by a further fifth (10..400 ms) for a loaded machine.

#include <cstdint>
#include <memory>

#include "bots/connect4/engine.hpp"

namespace arena::c4 {

struct ProOptions {
    double c = 0.7;                // UCT exploration constant
    double bias = 0.3;             // weight of the progressive bias
    std::int64_t simulations = 0;  // fixed count per move; 0 = until the clock runs out
    std::uint64_t seed = 1;
    int log2_nodes = 22;          // tree capacity (and as much again for compaction)
    int log2_exact = 21;          // exact-solver table entries (16 bytes each)
    int tree_solve_empties = 0;   // solve tree nodes with at most this many empties (0: by board)
    int tree_solve_nodes = 4096;  // exact-solver node budget per tree node
    int threat_depth = 8;         // forcing moves of the threat search at expansion
    int root_solve_empties = 0;   // try the exact solver at the root from here (0: by board)
    bool reuse = true;            // keep the tree between moves
};

// The tree's and the table's memory is allocated here, once.
[[nodiscard]] std::unique_ptr<Connect4Engine> make_pro_engine(const ProOptions& options);

}  // namespace arena::c4
