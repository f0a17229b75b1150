#pragma once
// What the test engines speaking the Gomocup protocol share: a board, a
// simple choice of move (win at once if it can, else block the opponent's
// five, else the empty cell next to the stones with the best line score),
// and the parsing of the manager's lines. Like the engines, it uses no
// arena code: they know only what a foreign brain knows.

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace gomocup_brain {

inline void send(const std::string& line) {
    std::cout << line << "\n" << std::flush;
}

inline std::string upper(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// "x,y" (or "x,y,who" when `who` is given), spaces allowed.
inline bool parse_xy(const std::string& text, int& x, int& y, int* who = nullptr) {
    std::string t = text;
    std::replace(t.begin(), t.end(), ',', ' ');
    std::istringstream in(t);
    if (!(in >> x >> y)) return false;
    if (who != nullptr && !(in >> *who)) return false;
    return true;
}

// A manager's line split into its command (upper case) and the rest.
struct Command {
    std::string name;
    std::string rest;
};
inline Command split(const std::string& line) {
    std::istringstream words(line);
    Command command;
    words >> command.name;
    command.name = upper(command.name);
    std::getline(words, command.rest);
    return command;
}

struct Choice {
    int x = -1, y = -1;  // -1: the board is full
    int candidates = 0;  // empty cells next to stones that were scored
    int score = -1;      // the best of their scores
};

class Board {
  public:
    [[nodiscard]] int size() const { return size_; }
    [[nodiscard]] int stones() const { return stones_; }
    void start(int size) {
        size_ = size;
        clear();
    }
    void clear() {
        cells_.assign(static_cast<std::size_t>(size_ * size_), 0);
        stones_ = 0;
    }
    [[nodiscard]] bool on_board(int x, int y) const {
        return x >= 0 && y >= 0 && x < size_ && y < size_;
    }
    // 0 empty, 1 mine, 2 the opponent's.
    [[nodiscard]] int at(int x, int y) const {
        return cells_[static_cast<std::size_t>(y * size_ + x)];
    }
    // Places `who`'s stone on an empty cell of the board; false if it cannot.
    bool place(int x, int y, int who) {
        if (size_ == 0 || !on_board(x, y) || at(x, y) != 0) return false;
        cells_[static_cast<std::size_t>(y * size_ + x)] = who;
        ++stones_;
        return true;
    }

    // The centre on an empty board; else the best-scored empty cell within
    // two of a stone; else any empty cell.
    [[nodiscard]] Choice choose() const {
        Choice c;
        if (stones_ == 0) {
            c.x = c.y = size_ / 2;
            c.score = 0;
            return c;
        }
        for (int y = 0; y < size_; ++y) {
            for (int x = 0; x < size_; ++x) {
                if (at(x, y) != 0 || !near_stone(x, y)) continue;
                ++c.candidates;
                const int mine = run_through(x, y, 1), theirs = run_through(x, y, 2);
                int score = mine * mine * 2 + theirs * theirs;
                if (mine >= 5) score += 100000;
                if (theirs >= 5) score += 50000;
                if (score > c.score) {
                    c.score = score;
                    c.x = x;
                    c.y = y;
                }
            }
        }
        for (int i = 0; i < size_ * size_ && c.x < 0; ++i) {
            if (cells_[static_cast<std::size_t>(i)] == 0) {
                c.x = i % size_;
                c.y = i / size_;
            }
        }
        return c;
    }

  private:
    // The longest line of `who`'s stones through (x, y) if it were placed there.
    [[nodiscard]] int run_through(int x, int y, int who) const {
        static const int kDirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
        int best = 0;
        for (const auto& d : kDirs) {
            int n = 1;
            for (int s = -1; s <= 1; s += 2) {
                int cx = x + s * d[0], cy = y + s * d[1];
                while (on_board(cx, cy) && at(cx, cy) == who) {
                    ++n;
                    cx += s * d[0];
                    cy += s * d[1];
                }
            }
            best = std::max(best, n);
        }
        return best;
    }

    [[nodiscard]] bool near_stone(int x, int y) const {
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx)
                if (on_board(x + dx, y + dy) && at(x + dx, y + dy) != 0) return true;
        return false;
    }

    int size_ = 0;
    std::vector<int> cells_;  // index y * size + x
    int stones_ = 0;
};

// Reads the lines of a BOARD command up to DONE with `read_line` (a
// callable taking std::string&), placing each stone; `on_bad` gets a line
// that is not "x,y,who" on an empty cell.
template <typename ReadLine, typename OnBad>
void read_board(Board& board, ReadLine&& read_line, OnBad&& on_bad) {
    board.clear();
    std::string line;
    while (read_line(line) && upper(line) != "DONE") {
        int x = 0, y = 0, who = 0;
        if (!parse_xy(line, x, y, &who) || (who != 1 && who != 2) || !board.place(x, y, who))
            on_bad(line);
    }
}

}  // namespace gomocup_brain
