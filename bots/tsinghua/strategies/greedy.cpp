// greedy: a reference strategy that looks one move ahead: it wins at once when
// it can, blocks the opponent's immediate win, and otherwise plays the column
// whose resulting position has the best open lines of four (ties: the more
// central column). It does not look at what the opponent can answer.

#include "bots/tsinghua/strategies/board.hpp"
#include "bots/tsinghua/strategy.hpp"

namespace {

using tsinghua_strategy::Board;
using tsinghua_strategy::kSelf;

int choose(Board& b) {
    if (const int y = tsinghua_strategy::urgent_column(b); y >= 0) return y;
    return tsinghua_strategy::best_column(b, [](const Board& after, int y) {
        return 16L * after.evaluate(kSelf) + after.centrality(y);
    });
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
