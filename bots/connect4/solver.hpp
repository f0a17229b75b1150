#pragma once
// c4-solver: perfect play where the result can be proven in the time given,
// a good heuristic move where it cannot.
//
// Each move goes through three phases sharing the budget:
//   1. a short exact attempt (exact.hpp: Pons' solver design), which settles
//      most middle games and every end game on 7 x 6 at once;
//   2. iterative deepening negamax with alpha-beta (PVS) and a depth-aware
//      transposition table over the same non-losing moves and score bounds,
//      with a heuristic at the horizon: open windows weighted by the stones
//      in them, threats (cells that would complete a line) with a bonus for
//      the row parity that favours their owner. Wins and losses it finds are
//      proven (exact scores, scaled);
//   3. the exact solver again, until the hard limit: its table keeps every
//      bound it proves, across phases and moves, so the attempts add up.
// The move: a proven result when there is one (the fastest win, the slowest
// loss, a draw when no win exists), otherwise the best move of the deepest
// completed iteration. On 7 x 6 an opening book (book_7x6.hpp, made by this
// solver: the first player's winning strategy to ply 16) covers the moves
// where no proof fits in the time, so that it never loses when it moves first.

#include <cstdint>
#include <iosfwd>
#include <memory>

#include "bots/connect4/engine.hpp"

namespace arena::c4 {

struct SolverOptions {
    int depth = 0;            // fixed depth of the heuristic search (bench, levels); no proofs
    bool book = true;         // use the 7 x 6 opening book
    int log2_exact = 21;      // exact table entries (16 bytes each)
    int log2_heuristic = 20;  // heuristic table entries (16 bytes each)
};

// The tables are allocated here, once, not when a game starts.
[[nodiscard]] std::unique_ptr<Connect4Engine> make_solver_engine(const SolverOptions& options);

// --solve: reads lines "<moves> [<expected score>]" (7 x 6, columns 1..7) and
// prints "<moves> <score>" for each; with expected scores, a summary of
// mismatches and the mean time on stderr. Returns 0 when every score matched.
int solve_lines(std::istream& in, std::ostream& out, int log2_entries, bool weak, bool reset);

// --make-book: the first player's winning strategy on 7 x 6 up to `plies`
// plies, written as the book_7x6.hpp source.
int make_book(std::ostream& out, int plies, int log2_entries);

// The book's move for a 7 x 6 position (player 1 to move), or -1.
[[nodiscard]] int book_move(const games::Connect4State& state);

}  // namespace arena::c4
