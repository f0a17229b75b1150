#pragma once
// Reversi (Othello) on 8x8.
//
// Rules: standard start (white on d4 and e5, black on d5 and e4); player 1 is
// black and moves first. A move places a disc so that it brackets one or more
// straight lines of opponent discs, which are flipped. A player with no such
// move must pass: legal_moves() is exactly {kPass} then. The game ends when
// neither player can move (in particular when the board is full); more discs
// wins, equal counts draw.
//
// Parameters: none.
//
// Board encoding: bitboards, bit (row * 8 + col) with row 0 at the TOP and
// col 0 at the left.
// Move: the cell index row * 8 + col, or kPass.
// Notation: column letter a..h then row number 1..8 counted from the top
// (uppercase letters accepted); black's first moves are d3, c4, f5, e6.
// A pass is "pass".

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::games {

inline constexpr int kReversiSize = 8;

class ReversiGame final : public Game {
  public:
    [[nodiscard]] std::string name() const override { return "reversi"; }
    [[nodiscard]] Params params() const override { return {}; }
    [[nodiscard]] std::unique_ptr<State> new_initial_state() const override;
    [[nodiscard]] BoardDescription board() const override;
};

class ReversiState final : public State {
  public:
    // The standard start.
    ReversiState();
    // Any position (for tests and analysis); ply() starts at 0. Throws
    // GameError when the two sets overlap or to_move is not 1 or 2.
    ReversiState(std::uint64_t black, std::uint64_t white, int to_move);

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
    // `cell` counts rows from the bottom, as everywhere in Cell: row 0 is
    // the bitboards' row 7.
    [[nodiscard]] int piece_at(Cell cell) const override;
    [[nodiscard]] int piece_count(int player) const override { return disc_count(player); }

    // The discs of player 1 (black) or 2 (white).
    [[nodiscard]] std::uint64_t discs(int player) const { return discs_[player - 1]; }
    [[nodiscard]] int disc_count(int player) const;
    // Bitboard of the side to move's placements (0 when it must pass or the
    // game is over).
    [[nodiscard]] std::uint64_t move_mask() const { return moves_; }

  private:
    // Recomputes moves_ and outcome_ after the position changed.
    void settle();

    std::array<std::uint64_t, 2> discs_{};  // black, white
    std::uint64_t moves_ = 0;
    int to_move_ = 1;
    int ply_ = 0;
    Outcome outcome_ = Outcome::kOngoing;
};

}  // namespace arena::games
