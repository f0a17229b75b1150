// random: a reference strategy that plays a random legal column. The choice is
// a function of the position only (a hash of the board seeds it), so the same
// position always gets the same answer.

#include <cstdint>

#include "bots/tsinghua/strategy.hpp"

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    (void)lastX;
    (void)lastY;
    (void)noX;
    (void)noY;
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;  // FNV-style mix of the board
    for (int i = 0; i < M * N; ++i)
        h = (h ^ static_cast<std::uint64_t>(board[i] + 1)) * 0x100000001b3ULL;
    h ^= h >> 29;
    int legal = 0;
    for (int y = 0; y < N; ++y)
        if (top[y] > 0) ++legal;
    int pick = legal > 0 ? static_cast<int>(h % static_cast<std::uint64_t>(legal)) : 0;
    for (int y = 0; y < N; ++y) {
        if (top[y] > 0 && pick-- == 0) return new Point(top[y] - 1, y);
    }
    return new Point(-1, -1);
}

extern "C" void clearPoint(Point* p) {
    delete p;
}
