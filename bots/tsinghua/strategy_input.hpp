#pragma once
// The translation between the arena's Connect-4 and the Tsinghua strategy
// interface (strategy.hpp, protocol/TSINGHUA.md), used by arena-so-host.
//
// Arena: (col, row) 0-based, row 0 at the bottom; a move is a column, written
// col + 1. Course: (x, y) with x the row from the top, y the column:
//   x = rows - 1 - row,  y = col.
// The blocked cell `blocked=c:r` (1-based, row 1 at the bottom) is
// (noX, noY) = (rows - r, c - 1).

#include <optional>
#include <string>
#include <vector>

#include "arena/games/connect4.hpp"

namespace arena::tsinghua {

// Everything getPoint is called with, for the player to move.
struct StrategyInput {
    int rows = 0;            // M
    int cols = 0;            // N
    std::vector<int> top;    // N entries
    std::vector<int> board;  // M * N entries, board[x * N + y]
    int last_x = -1;         // the last move, (-1, -1) when there is none
    int last_y = -1;
    int no_x = -1;  // the blocked cell, (-1, -1) when the board has none
    int no_y = -1;
};

// Throws games::GameError when the course interface cannot describe `config`:
// it knows connect 4 and at most one blocked cell.
void check_game(const games::Connect4Config& config);

// The input for the player to move in `state` (not over). `last_col` is the
// column (0-based) of the last move of the game, if any.
[[nodiscard]] StrategyInput strategy_input(const games::Connect4State& state,
                                           std::optional<int> last_col);

// The word the host answers for the point (x, y) a strategy returned: the
// column number y + 1 when (x, y) is where a piece dropped into column y
// lands; otherwise "(x,y)", which is not Connect-4 notation, so the arena
// judges the move illegal and its text shows the point.
[[nodiscard]] std::string move_word(const StrategyInput& input, int x, int y);

// Empty when (x, y) is the landing cell of column y; else why it is not a
// legal point, in the course's terms, e.g. "(4,3) is empty; column y=3 lands
// at x=6 (top[3]=7)": a piece dropped into column y=3 lands on row x=6.
[[nodiscard]] std::string point_problem(const StrategyInput& input, int x, int y);

// What getPoint was given, for a message, in two parts of bounded length.
// The numbers: "M=9 N=10 noX=8 noY=4 lastX=8 lastY=2 top=9,9,8,9,6,9,9,9,9,9".
[[nodiscard]] std::string describe_arguments(const StrategyInput& input);
// The board: "board=0000000000/.../0010X00000", the rows from x=0 (the top)
// to x=M-1 separated by '/', each cell the value in board[] (0 empty, 1 the
// opponent's, 2 the mover's), the blocked cell written X. M * (N + 1) + 5
// bytes: 161 for the course's largest board, 12 x 12.
[[nodiscard]] std::string describe_board(const StrategyInput& input);

}  // namespace arena::tsinghua
