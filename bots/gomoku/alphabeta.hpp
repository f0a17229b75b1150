#pragma once
// gomoku-alphabeta: the program of seed 003 ("Simple-AI-for-Gomoku").
//
// Negamax with alpha-beta pruning under iterative deepening. At every node
// the candidate moves (empty cells within two steps of a stone) are each
// played and scored by the static evaluation, sorted, and only the best
// `width` are searched; at depth one those scores are the children's values,
// so nothing is evaluated twice. The evaluation is incremental (only the four
// lines through the changed cell are re-read) and, for the side to move,
// first looks for decisive shape combinations: a five to complete wins, two
// opposing five-points lose, an open three against no four wins, two open
// threes of the opponent against no four lose; then own shapes minus the
// opponent's, valued by `AlphaBetaOptions::weights` (the seed's table by
// default). A decisive evaluation ends the search at that node. A five is
// completed at once, and a single opposing five-point is blocked at once.
//
// The shapes that reach that difference: neither side has an open four (a
// line with two five-points: our own five-point is a win, two of the
// opponent's a loss), and only the opponent can have a four. So the open
// four's value never counts, and every other value is at most
// kMaxShapeWeight, which keeps the difference below kLikelyBound.

#include <cstdint>

#include "bots/gomoku/engine.hpp"

namespace arena::bots::gomoku {

struct AlphaBetaOptions {
    int max_depth = 64;
    int width = 10;
    ShapeWeights weights;  // of the evaluation (--four, --open-three, ...)
};

// The range of the shape values the command line sets (0 leaves a shape out).
inline constexpr int kMinShapeWeight = 0;
inline constexpr int kMaxShapeWeight = 20000;

class AlphaBetaEngine final : public GomokuEngine {
  public:
    // Heuristic "decisive" scores lie in [kLikelyBound, kMateBound).
    static constexpr int kLikelyWin = 5'000'000;
    static constexpr int kLikelyBound = kLikelyWin - 10'000;
    // Each colour has 4 * kMaxLines lines, each worth at most kMaxShapeWeight.
    static_assert(Board::kDirs * kMaxLines * kMaxShapeWeight < kLikelyBound);

    explicit AlphaBetaEngine(AlphaBetaOptions options) : options_(options) {}
    [[nodiscard]] Sq think(const SearchClock& clock, const InfoSink& info) override;

    // Static evaluation for the side to move, `ply` plies from the root.
    [[nodiscard]] int evaluate(int ply) const;

  private:
    Sq iterate(MoveList& root, const SearchClock& clock, const InfoSink& info);
    int search(int depth, int alpha, int beta, int ply);
    // Candidates scored by the static evaluation after each (from the mover's
    // side), best first; a forced block when the opponent has a five-point.
    void generate(MoveList& moves, int ply);
    [[nodiscard]] bool poll();

    AlphaBetaOptions options_;
    const SearchClock* clock_ = nullptr;
    std::uint64_t next_poll_ = 0;
    bool aborted_ = false;
};

}  // namespace arena::bots::gomoku
