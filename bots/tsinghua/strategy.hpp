#pragma once
// The Tsinghua course's strategy interface (protocol/TSINGHUA.md), as a
// strategy library exports it and arena-so-host calls it.
//
//   Point* getPoint(M, N, top, board, lastX, lastY, noX, noY)
//   void clearPoint(Point* p)
//
// M rows, N columns; x is the row counted from the top (0 = top row), y the
// column from the left. board[x * N + y]: 0 empty (the blocked cell too),
// 1 the opponent's piece, 2 the mover's own. top[y]: the next piece dropped
// into column y lands on row top[y] - 1 (the blocked cell already skipped);
// 0 means the column is full. (lastX, lastY): the opponent's last move,
// (-1, -1) on an empty board. (noX, noY): the blocked cell. The strategy
// returns the cell it plays, allocated by itself, and frees it in
// clearPoint. Plain C types only: this header is shared by the host and by
// strategies built without the arena's libraries.

// Layout-compatible with the course's Point.h: two ints, x then y.
class Point {
  public:
    int x;
    int y;
    Point(int x_, int y_) : x(x_), y(y_) {}
};

extern "C" {
__attribute__((visibility("default"))) Point* getPoint(const int M, const int N, const int* top,
                                                       const int* board, const int lastX,
                                                       const int lastY, const int noX,
                                                       const int noY);
__attribute__((visibility("default"))) void clearPoint(Point* p);
}

// The host resolves these two names with dlsym.
using GetPointFn = Point* (*)(int, int, const int*, const int*, int, int, int, int);
using ClearPointFn = void (*)(Point*);
inline constexpr char kGetPointSymbol[] = "getPoint";
inline constexpr char kClearPointSymbol[] = "clearPoint";
