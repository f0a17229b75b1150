#pragma once
// A board for the sample and reference strategies, in the course's
// coordinates (strategy.hpp): x the row from the top, y the column. Plain,
// self-contained C++ with no arena code, as a course strategy is written;
// every strategy library compiles its own copy.

#include <initializer_list>

namespace tsinghua_strategy {

inline constexpr int kMaxSize = 16;  // the arena's largest Connect-4 board
inline constexpr int kEmpty = 0;
inline constexpr int kOpponent = 1;
inline constexpr int kSelf = 2;

inline int other(int who) {
    return 3 - who;
}

struct Board {
    int m = 0;
    int n = 0;
    int no_x = -1;
    int no_y = -1;
    int cell[kMaxSize][kMaxSize] = {};
    int top[kMaxSize] = {};

    Board(int rows, int cols, const int* tops, const int* board, int nx, int ny)
        : m(rows), n(cols), no_x(nx), no_y(ny) {
        for (int x = 0; x < m; ++x)
            for (int y = 0; y < n; ++y)
                cell[x][y] = board[x * n + y];
        for (int y = 0; y < n; ++y)
            top[y] = tops[y];
    }

    [[nodiscard]] bool can_play(int y) const { return top[y] > 0; }
    [[nodiscard]] bool blocked(int x, int y) const { return x == no_x && y == no_y; }

    // Drops a piece of `who` into column y; returns the column's old top for undo().
    int play(int y, int who) {
        const int old = top[y];
        const int x = old - 1;
        cell[x][y] = who;
        top[y] = blocked(x - 1, y) ? x - 1 : x;
        return old;
    }
    void undo(int y, int old_top) {
        cell[old_top - 1][y] = kEmpty;
        top[y] = old_top;
    }

    [[nodiscard]] bool full() const {
        for (int y = 0; y < n; ++y)
            if (top[y] > 0) return false;
        return true;
    }

    // Whether the piece of `who` on (x, y) completes four in a line.
    [[nodiscard]] bool wins_at(int x, int y, int who) const {
        static const int kDirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (const auto& d : kDirs) {
            int count = 1;
            for (int i = x + d[0], j = y + d[1];
                 i >= 0 && i < m && j >= 0 && j < n && cell[i][j] == who && !blocked(i, j);
                 i += d[0], j += d[1])
                ++count;
            for (int i = x - d[0], j = y - d[1];
                 i >= 0 && i < m && j >= 0 && j < n && cell[i][j] == who && !blocked(i, j);
                 i -= d[0], j -= d[1])
                ++count;
            if (count >= 4) return true;
        }
        return false;
    }

    // Whether `who` wins at once by playing column y.
    [[nodiscard]] bool wins_by(int y, int who) {
        if (!can_play(y)) return false;
        const int x = top[y] - 1;
        cell[x][y] = who;
        const bool win = wins_at(x, y, who);
        cell[x][y] = kEmpty;
        return win;
    }

    // Lines of four open cells and pieces, scored for `who` minus the same
    // for the opponent: more pieces in a line still open is better.
    [[nodiscard]] int evaluate(int who) const {
        static const int kDirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        static const int kWeight[4] = {0, 1, 8, 64};
        int score = 0;
        for (int x = 0; x < m; ++x) {
            for (int y = 0; y < n; ++y) {
                for (const auto& d : kDirs) {
                    const int ex = x + 3 * d[0];
                    const int ey = y + 3 * d[1];
                    if (ex < 0 || ex >= m || ey < 0 || ey >= n) continue;
                    int mine = 0;
                    int theirs = 0;
                    bool open = true;
                    for (int k = 0; k < 4 && open; ++k) {
                        const int i = x + k * d[0];
                        const int j = y + k * d[1];
                        if (blocked(i, j)) open = false;
                        if (cell[i][j] == who) ++mine;
                        if (cell[i][j] == other(who)) ++theirs;
                    }
                    if (!open || (mine > 0 && theirs > 0)) continue;
                    if (mine > 0 && mine < 4) score += kWeight[mine];
                    if (theirs > 0 && theirs < 4) score -= kWeight[theirs];
                }
            }
        }
        return score;
    }

    // Preference for central columns: 0 at the edges, larger towards the middle.
    [[nodiscard]] int centrality(int y) const {
        const int from_left = y;
        const int from_right = n - 1 - y;
        return from_left < from_right ? from_left : from_right;
    }
};

// The column that wins at once, else the one where the opponent would win at
// once (to block it); -1 when there is neither.
inline int urgent_column(Board& b) {
    for (const int who : {kSelf, kOpponent})
        for (int y = 0; y < b.n; ++y)
            if (b.wins_by(y, who)) return y;
    return -1;
}

// The playable column whose position after our move has the highest
// `score(b, y)` (ties: the lower column); -1 when every column is full.
template <class Score>
int best_column(Board& b, Score score) {
    int best = -1;
    long best_score = 0;
    for (int y = 0; y < b.n; ++y) {
        if (!b.can_play(y)) continue;
        const int old = b.play(y, kSelf);
        const long s = score(b, y);
        b.undo(y, old);
        if (best < 0 || s > best_score) {
            best = y;
            best_score = s;
        }
    }
    return best;
}

}  // namespace tsinghua_strategy
