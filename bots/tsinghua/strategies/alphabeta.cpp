// alphabeta: the strongest reference strategy. Negamax with alpha-beta
// pruning over the open-lines evaluation (board.hpp), iterative deepening,
// and centre-first move ordering with the previous iteration's best move
// tried first. Its effort is a fixed node budget per move rather than a
// clock, so a position always gets the same answer; the budget keeps a move
// well under a second on a 12 x 12 board.

#include <algorithm>

#include "bots/tsinghua/strategies/board.hpp"
#include "bots/tsinghua/strategy.hpp"

namespace {

using tsinghua_strategy::Board;
using tsinghua_strategy::kMaxSize;
using tsinghua_strategy::kSelf;
using tsinghua_strategy::other;

constexpr int kWin = 1'000'000;
constexpr long kNodeBudget = 300'000;
constexpr int kMaxDepth = 20;

struct Search {
    Board& b;
    long nodes = 0;
    bool out_of_nodes = false;
    int order[kMaxSize] = {};

    // Value for `who`, to move, searched `depth` plies deep.
    int negamax(int who, int depth, int alpha, int beta, int ply) {
        if (++nodes > kNodeBudget) {
            out_of_nodes = true;
            return 0;
        }
        for (int i = 0; i < b.n; ++i) {
            const int y = order[i];
            if (b.wins_by(y, who)) return kWin - ply;
        }
        if (b.full()) return 0;
        if (depth == 0) return b.evaluate(who);
        int best = -kWin;
        for (int i = 0; i < b.n; ++i) {
            const int y = order[i];
            if (!b.can_play(y)) continue;
            const int old = b.play(y, who);
            const int value = -negamax(other(who), depth - 1, -beta, -alpha, ply + 1);
            b.undo(y, old);
            if (out_of_nodes) return 0;
            best = std::max(best, value);
            alpha = std::max(alpha, value);
            if (alpha >= beta) break;
        }
        return best;
    }
};

int choose(Board& b) {
    Search s{b};
    for (int i = 0; i < b.n; ++i)
        s.order[i] = i;
    std::stable_sort(s.order, s.order + b.n,
                     [&](int p, int q) { return b.centrality(p) > b.centrality(q); });
    int best = -1;
    for (int y : s.order) {
        if (b.can_play(y)) {
            best = y;
            break;
        }
    }
    for (int y = 0; y < b.n; ++y)
        if (b.wins_by(y, kSelf)) return y;
    for (int depth = 1; depth <= kMaxDepth; ++depth) {
        int depth_best = -1;
        int alpha = -kWin - 1;
        // The previous iteration's choice first: it prunes the most.
        int moves[kMaxSize];
        int count = 0;
        moves[count++] = best;
        for (int i = 0; i < b.n; ++i)
            if (s.order[i] != best && b.can_play(s.order[i])) moves[count++] = s.order[i];
        for (int i = 0; i < count; ++i) {
            const int y = moves[i];
            const int old = b.play(y, kSelf);
            const int value = -s.negamax(other(kSelf), depth - 1, -kWin - 1, -alpha, 1);
            b.undo(y, old);
            if (s.out_of_nodes) break;
            if (value > alpha) {
                alpha = value;
                depth_best = y;
            }
        }
        if (s.out_of_nodes) break;
        if (depth_best >= 0) best = depth_best;
        if (alpha >= kWin - kMaxDepth || alpha <= -kWin + kMaxDepth) break;  // decided
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
