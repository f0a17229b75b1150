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
// opponent's. A decisive evaluation ends the search at that node. A five is
// completed at once, and a single opposing five-point is blocked at once.

#include <cstdint>

#include "bots/gomoku/engine.hpp"

namespace arena::bots::gomoku {

struct AlphaBetaOptions {
    int max_depth = 64;
    int width = 10;
};

class AlphaBetaEngine final : public GomokuEngine {
  public:
    // Heuristic "decisive" scores lie in [kLikelyBound, kMateBound).
    static constexpr int kLikelyWin = 5'000'000;
    static constexpr int kLikelyBound = kLikelyWin - 10'000;

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
