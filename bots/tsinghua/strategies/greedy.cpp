// greedy: a reference strategy that looks one move ahead: it wins at once when
// it can, blocks the opponent's immediate win, and otherwise plays the column
// whose resulting position has the best open lines of four (ties: the more
// central column). It does not look at what the opponent can answer.

#include "bots/tsinghua/strategies/board.hpp"
#include "bots/tsinghua/strategy.hpp"

namespace {

using tsinghua_strategy::Board;
using tsinghua_strategy::kOpponent;
using tsinghua_strategy::kSelf;

int choose(Board& b) {
    for (int y = 0; y < b.n; ++y)
        if (b.wins_by(y, kSelf)) return y;
    for (int y = 0; y < b.n; ++y)
        if (b.wins_by(y, kOpponent)) return y;
    int best = -1;
    long best_score = 0;
    for (int y = 0; y < b.n; ++y) {
        if (!b.can_play(y)) continue;
        const int old = b.play(y, kSelf);
        const long score = 16L * b.evaluate(kSelf) + b.centrality(y);
        b.undo(y, old);
        if (best < 0 || score > best_score) {
            best = y;
            best_score = score;
        }
    }
    return best;
}

}  // namespace

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    (void)lastX;
    (void)lastY;
    Board b(M, N, top, board, noX, noY);
    const int y = choose(b);
    return new Point(y >= 0 ? top[y] - 1 : -1, y);
}

extern "C" void clearPoint(Point* p) {
    delete p;
}
