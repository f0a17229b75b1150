#pragma once
// Gomoku (five in a row) on a size x size board.
//
// Rules: players take turns placing a stone on an empty cell. Under
// rule=freestyle a line of five or more stones (horizontal, vertical or
// diagonal) through the new stone wins; under rule=exact5 only a line of
// exactly five wins (an overline of six or more does not). The game is drawn
// when the board is full.
//
// Parameters (validated in registry.cpp):
//   size  5..26, default 15
//   rule  freestyle (default) | exact5
//
// Board encoding: (col, row) 0-based with row 0 at the bottom.
// Move: the cell index row * size + col.
// Notation: the column letter (a = leftmost, no letter skipped; uppercase is
// accepted) then the row number (1 = bottom), e.g. h8 is the centre of 15x15.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::games {

inline constexpr int kGomokuMinSize = 5;
inline constexpr int kGomokuMaxSize = 26;
inline constexpr int kGomokuWinLength = 5;

enum class GomokuRule : std::uint8_t { kFreestyle, kExact5 };

[[nodiscard]] std::string_view to_string(GomokuRule rule);

struct GomokuConfig {
    int size = 15;
    GomokuRule rule = GomokuRule::kFreestyle;
};

class GomokuGame final : public Game {
  public:
    // Throws GameError when the config is out of range.
    explicit GomokuGame(GomokuConfig config);

    [[nodiscard]] std::string name() const override { return "gomoku"; }
    [[nodiscard]] Params params() const override;
    [[nodiscard]] std::unique_ptr<State> new_initial_state() const override;
    [[nodiscard]] BoardDescription board() const override;

    [[nodiscard]] const GomokuConfig& config() const { return config_; }

  private:
    GomokuConfig config_;
};

class GomokuState final : public State {
  public:
    static constexpr int kEmpty = kEmptyCell;  // contents of an empty cell, as returned by at()

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

    [[nodiscard]] int size() const { return size_; }
    [[nodiscard]] GomokuRule rule() const { return rule_; }
    // kEmpty, 1 or 2; (col, row) 0-based, row 0 at the bottom.
    [[nodiscard]] int at(int col, int row) const { return cells_[row * size_ + col]; }

  private:
    friend class GomokuGame;
    explicit GomokuState(const GomokuConfig& config);

    [[nodiscard]] bool inside(int col, int row) const {
        return col >= 0 && col < size_ && row >= 0 && row < size_;
    }
    [[nodiscard]] bool wins_through(int col, int row) const;

    std::array<std::uint8_t, kGomokuMaxSize * kGomokuMaxSize> cells_{};
    int size_ = 0;
    GomokuRule rule_ = GomokuRule::kFreestyle;
    int ply_ = 0;
    int to_move_ = 1;
    Outcome outcome_ = Outcome::kOngoing;
};

}  // namespace arena::games
