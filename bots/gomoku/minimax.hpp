#pragma once
// gomoku-minimax: the program of seed 001 ("五子棋AI算法(二)").
//
// Evaluation: the shapes of both colours on the board (five, open four, four,
// open three, three, twos), own score minus the opponent's, always from the
// side of the player who is thinking. Search: plain minimax (no pruning) to a
// fixed depth over the empty cells next to a stone; a move that makes five
// ends the game at once and scores kFiveScore. The first stone goes in the
// centre; the second next to it (diagonally or beside it, at random) when the
// centre is taken.
//
// Time: the search is not iterative. It first scores every root move at depth
// one (the fallback), then searches the root moves in that order at full
// depth; if the clock runs out, the best root move completed at full depth is
// played (the depth-one best when none completed).

#include <cstdint>

#include "bots/gomoku/engine.hpp"

namespace arena::bots::gomoku {

struct MinimaxOptions {
    int depth = 2;
    std::uint64_t seed = 1;
};

class MinimaxEngine final : public GomokuEngine {
  public:
    static constexpr int kFiveScore = 1'000'000;

    explicit MinimaxEngine(MinimaxOptions options) : options_(options) {}
    [[nodiscard]] Sq think(const SearchClock& clock, const InfoSink& info) override;

  private:
    // Value of the position for root_, `left` plies to go.
    int minimax(int left);
    [[nodiscard]] int evaluate() const;
    [[nodiscard]] Sq opening_move() const;

    MinimaxOptions options_;
    const SearchClock* clock_ = nullptr;
    int root_ = 1;
    bool aborted_ = false;
};

}  // namespace arena::bots::gomoku
