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
    if (point_problem(input, x, y).empty()) return std::to_string(y + 1);
    return "(" + std::to_string(x) + "," + std::to_string(y) + ")";
}

std::string point_problem(const StrategyInput& input, int x, int y) {
    const auto text = [](int v) { return std::to_string(v); };
    if (y < 0 || y >= input.cols) {
        return "y=" + text(y) + " is off the board (columns 0.." + text(input.cols - 1) + ")";
    }
    const int top = input.top[static_cast<std::size_t>(y)];
    const std::string top_y = "top[" + text(y) + "]=" + text(top);
    if (top <= 0) return "column y=" + text(y) + " is full (" + top_y + ")";
    if (x == top - 1) return {};
    std::string cell;
    if (x < 0 || x >= input.rows) {
        cell = "x=" + text(x) + " is off the board";
    } else {
        const int v = input.board[static_cast<std::size_t>(x * input.cols + y)];
        cell = "(" + text(x) + "," + text(y) + ") is " +
               (x == input.no_x && y == input.no_y ? "the blocked cell"
                : v != kCourseEmpty                ? "taken"
                                                   : "empty");
    }
    return cell + "; column y=" + text(y) + " lands at x=" + text(top - 1) + " (" + top_y + ")";
}

std::string describe_arguments(const StrategyInput& input) {
    std::string out = "M=" + std::to_string(input.rows) + " N=" + std::to_string(input.cols) +
                      " noX=" + std::to_string(input.no_x) + " noY=" + std::to_string(input.no_y) +
                      " lastX=" + std::to_string(input.last_x) +
                      " lastY=" + std::to_string(input.last_y) + " top=";
    for (int y = 0; y < input.cols; ++y) {
        if (y > 0) out += ',';
        out += std::to_string(input.top[static_cast<std::size_t>(y)]);
    }
    return out;
}

std::string describe_board(const StrategyInput& input) {
    std::string out = "board=";
    for (int x = 0; x < input.rows; ++x) {
        if (x > 0) out += '/';
        for (int y = 0; y < input.cols; ++y) {
            const int v = input.board[static_cast<std::size_t>(x * input.cols + y)];
            if (x == input.no_x && y == input.no_y && v == kCourseEmpty) {
                out += 'X';
            } else {
                out += static_cast<char>('0' + (v >= 0 && v <= 9 ? v : 9));
            }
        }
    }
    return out;
}

}  // namespace arena::tsinghua
