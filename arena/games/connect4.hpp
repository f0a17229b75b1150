#pragma once
// Connect-4 on a rows x cols board, optionally with blocked cells.
//
// Rules: players take turns dropping a piece into a column. The piece lands on
// the lowest empty cell of that column that is not blocked (a blocked cell is
// skipped, so a piece can rest above one). A column is playable while it has
// an empty, non-blocked cell. The first player to get `connect` pieces in an
// unbroken horizontal, vertical or diagonal line wins (a blocked cell breaks a
// line). The game is drawn when every playable cell is filled.
//
// Parameters (all key=value text, validated in registry.cpp):
//   rows     4..16, default 6
//   cols     4..16, default 7
//   connect  2..max(rows, cols), default 4
//   blocked  comma-separated cells <col>:<row>, 1-based, row 1 at the bottom;
//            default none
//   variant  standard (default) | tsinghua: rows and cols uniformly random in
//            9..12, connect 4, one random blocked cell; the board comes from a
//            seed via realize(), never from make_game().
//
// Board encoding: (col, row) 0-based with row 0 at the bottom.
// Move: the column index, 0-based. Notation: the column number, 1-based ("4").

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::games {

inline constexpr int kConnect4MinSize = 4;
inline constexpr int kConnect4MaxSize = 16;
inline constexpr int kConnect4MinConnect = 2;
inline constexpr int kTsinghuaMinSize = 9;
inline constexpr int kTsinghuaMaxSize = 12;

// (col, row) 0-based, row 0 at the bottom: the board encoding above.
using Connect4Cell = Cell;

struct Connect4Config {
    int rows = 6;
    int cols = 7;
    int connect = 4;
    std::vector<Connect4Cell> blocked;
};

// One board of the tsinghua family, determined by `seed` alone (the same on
// every platform and standard library).
[[nodiscard]] Connect4Config tsinghua_config(std::uint64_t seed);

class Connect4Game final : public Game {
  public:
    // Throws GameError when the config is out of range; sorts `blocked`.
    explicit Connect4Game(Connect4Config config);

    [[nodiscard]] std::string name() const override { return "connect4"; }
    [[nodiscard]] Params params() const override;
    [[nodiscard]] std::unique_ptr<State> new_initial_state() const override;
    [[nodiscard]] BoardDescription board() const override;

    [[nodiscard]] const Connect4Config& config() const { return config_; }

  private:
    Connect4Config config_;
};

class Connect4State final : public State {
  public:
    // Contents of a cell, as returned by at().
    static constexpr int kEmpty = kEmptyCell;
    static constexpr int kBlocked = kBlockedCell;

    [[nodiscard]] std::unique_ptr<State> clone() const override;
    [[nodiscard]] int current_player() const override { return to_move_; }
    [[nodiscard]] std::vector<Move> legal_moves() const override;
    [[nodiscard]] bool is_legal(Move m) const override;
    void apply(Move m) override;
    [[nodiscard]] Outcome outcome() const override { return outcome_; }
    [[nodiscard]] std::optional<Move> parse_move(std::string_view text) const override;
    [[nodiscard]] std::string format_move(Move m) const override;
    [[nodiscard]] std::string render() const override;
    [[nodiscard]] int ply() const override { return ply_; }
    [[nodiscard]] int piece_at(Cell cell) const override { return at(cell.col, cell.row); }
    [[nodiscard]] int piece_count(int player) const override;

    [[nodiscard]] int rows() const { return rows_; }
    [[nodiscard]] int cols() const { return cols_; }
    [[nodiscard]] int connect() const { return connect_; }
    // kEmpty, 1, 2 or kBlocked; (col, row) 0-based, row 0 at the bottom.
    [[nodiscard]] int at(int col, int row) const { return cells_[index(col, row)]; }

  private:
    friend class Connect4Game;
    explicit Connect4State(const Connect4Config& config);

    // A fixed stride keeps the board in a flat array with no allocation.
    [[nodiscard]] static int index(int col, int row) { return row * kConnect4MaxSize + col; }
    [[nodiscard]] bool inside(int col, int row) const {
        return col >= 0 && col < cols_ && row >= 0 && row < rows_;
    }
    void settle_top(int col);
    [[nodiscard]] bool wins_through(int col, int row) const;

    std::array<std::uint8_t, kConnect4MaxSize * kConnect4MaxSize> cells_{};
    // Per column: the row the next piece lands on; rows_ when the column is full.
    std::array<std::uint8_t, kConnect4MaxSize> top_{};
    int rows_ = 0;
    int cols_ = 0;
    int connect_ = 0;
    int open_cells_ = 0;  // empty, non-blocked cells left
    int ply_ = 0;
    int to_move_ = 1;
    Outcome outcome_ = Outcome::kOngoing;
};

}  // namespace arena::games
