#include "bots/tsinghua/strategy_input.hpp"

#include <string>

namespace arena::tsinghua {
namespace {

constexpr int kCourseConnect = 4;
constexpr int kCourseEmpty = 0;
constexpr int kCourseOpponent = 1;
constexpr int kCourseSelf = 2;

}  // namespace

void check_game(const games::Connect4Config& config) {
    if (config.connect != kCourseConnect) {
        throw games::GameError("the Tsinghua strategy interface plays connect 4, not connect " +
                               std::to_string(config.connect));
    }
    if (config.blocked.size() > 1) {
        throw games::GameError("the Tsinghua strategy interface has one blocked cell, not " +
                               std::to_string(config.blocked.size()));
    }
}

StrategyInput strategy_input(const games::Connect4State& state, std::optional<int> last_col) {
    StrategyInput in;
    in.rows = state.rows();
    in.cols = state.cols();
    const int rows = in.rows;
    const int cols = in.cols;
    const int self = state.current_player();
    in.board.assign(static_cast<std::size_t>(rows * cols), kCourseEmpty);
    in.top.assign(static_cast<std::size_t>(cols), 0);
    int blocked = 0;
    for (int col = 0; col < cols; ++col) {
        // The landing row is the lowest empty cell that is not blocked; 0
        // (full) when there is none.
        int landing = -1;
        for (int row = 0; row < rows; ++row) {
            const int x = rows - 1 - row;
            const int content = state.at(col, row);
            auto& cell = in.board[static_cast<std::size_t>(x * cols + col)];
            if (content == games::Connect4State::kBlocked) {
                in.no_x = x;
                in.no_y = col;
                ++blocked;
            } else if (content == games::Connect4State::kEmpty) {
                if (landing < 0) landing = x;
            } else {
                cell = content == self ? kCourseSelf : kCourseOpponent;
            }
        }
        in.top[static_cast<std::size_t>(col)] = landing + 1;
    }
    if (blocked > 1) {
        throw games::GameError("the Tsinghua strategy interface has one blocked cell, not " +
                               std::to_string(blocked));
    }
    if (last_col && *last_col >= 0 && *last_col < cols) {
        // The last piece of a column is its highest one.
        for (int x = 0; x < rows; ++x) {
            if (in.board[static_cast<std::size_t>(x * cols + *last_col)] != kCourseEmpty) {
                in.last_x = x;
                in.last_y = *last_col;
                break;
            }
        }
    }
    return in;
}

std::string move_word(const StrategyInput& input, int x, int y) {
    if (y >= 0 && y < input.cols) {
        const int top = input.top[static_cast<std::size_t>(y)];
        if (top > 0 && x == top - 1) return std::to_string(y + 1);
    }
    return "(" + std::to_string(x) + "," + std::to_string(y) + ")";
}

}  // namespace arena::tsinghua
