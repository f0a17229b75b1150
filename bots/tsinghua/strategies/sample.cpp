// sample: a Tsinghua course strategy written the way the course asks for one
// (strategy.hpp), with a one-move heuristic:
//   1. win at once when it can;
//   2. else take the cell where the opponent would win at once;
//   3. else avoid moves after which the opponent wins at once (on the cell
//      just above) or can make two winning cells at once;
//   4. among the rest, a move that makes two winning cells of its own, else
//      the best by open lines of four, then by centrality.
// It keeps global state across games, as course strategies do: how many games
// and moves it has played in this process, written to stderr at the start of
// each game (the arena keeps a bot's stderr per game).

#include <cstdio>

#include "bots/tsinghua/strategies/board.hpp"
#include "bots/tsinghua/strategy.hpp"

namespace {

using tsinghua_strategy::Board;
using tsinghua_strategy::kOpponent;
using tsinghua_strategy::kSelf;

// Global state: lives as long as the library stays loaded.
int g_games = 0;
int g_moves = 0;

bool is_new_game(const Board& b) {
    int own = 0;
    for (int x = 0; x < b.m; ++x)
        for (int y = 0; y < b.n; ++y)
            if (b.cell[x][y] == kSelf) ++own;
    return own == 0;
}

// Columns where `who` would win at once.
int threats(Board& b, int who) {
    int count = 0;
    for (int y = 0; y < b.n; ++y)
        if (b.wins_by(y, who)) ++count;
    return count;
}

// After our move: whether the opponent wins at once, or has a reply that
// leaves two winning cells (one block cannot stop both) while we have none.
bool dangerous(Board& b) {
    if (threats(b, kOpponent) > 0) return true;
    for (int z = 0; z < b.n; ++z) {
        if (!b.can_play(z)) continue;
        const int old = b.play(z, kOpponent);
        const bool fork = threats(b, kOpponent) >= 2 && threats(b, kSelf) == 0;
        b.undo(z, old);
        if (fork) return true;
    }
    return false;
}

int choose(Board& b) {
    if (const int y = tsinghua_strategy::urgent_column(b); y >= 0) return y;
    return tsinghua_strategy::best_column(b, [](Board& after, int y) {
        long score = 16L * after.evaluate(kSelf) + after.centrality(y);
        if (threats(after, kSelf) >= 2) score += 1L << 20;  // a fork of our own
        if (dangerous(after)) score -= 1L << 24;
        return score;
    });
}

}  // namespace

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    (void)lastX;
    (void)lastY;
    Board b(M, N, top, board, noX, noY);
    if (is_new_game(b)) {
        ++g_games;
        std::fprintf(stderr, "sample: game %d of this process, %d moves played before it\n",
                     g_games, g_moves);
    }
    ++g_moves;
    const int y = choose(b);
    return new Point(y >= 0 ? top[y] - 1 : -1, y);
}

extern "C" void clearPoint(Point* p) {
    delete p;
}
