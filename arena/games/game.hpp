#pragma once
// The game interface shared by every game, the arena and the C++ bots.
//
// A Game is an immutable description of one rule set with its parameters
// (board size, win length, blocked cells, ...). It hands out States. A State
// is one position: whose turn it is, the legal moves, how to apply one, and
// whether the game is over. Nothing here does I/O.
//
// Moves are small integers whose meaning belongs to the game (a column for
// Connect-4, a cell index for Gomoku and Reversi); kPass is the one value
// shared by all games. Text notation (the protocol's) goes through
// parse_move/format_move so the rest of the arena never decodes a move itself.

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arena::games {

using Move = int;
inline constexpr Move kPass = -1;

// Players are numbered 1 and 2; player 1 moves first.
inline constexpr int kNoPlayer = 0;

enum class Outcome : std::uint8_t { kOngoing, kWin1, kWin2, kDraw };

[[nodiscard]] inline int winner_of(Outcome o) {
    return o == Outcome::kWin1 ? 1 : o == Outcome::kWin2 ? 2 : kNoPlayer;
}
[[nodiscard]] inline int opponent_of(int player) {
    return 3 - player;
}

// The last line of every render(): "X to move", "X wins", "O wins" or "draw"
// (X is player 1, O player 2).
[[nodiscard]] inline std::string status_text(Outcome o, int to_move) {
    switch (o) {
        case Outcome::kOngoing:
            return to_move == 1 ? "X to move" : "O to move";
        case Outcome::kWin1:
            return "X wins";
        case Outcome::kWin2:
            return "O wins";
        case Outcome::kDraw:
            return "draw";
    }
    return "?";
}

// Ordered key=value parameters, as they appear in configs and on the
// protocol's `game` line.
using Params = std::vector<std::pair<std::string, std::string>>;

// Bad parameters, an unknown game, or a malformed move given to a function
// that requires a valid one. The message names the parameter and the problem.
class GameError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class State {
  public:
    virtual ~State() = default;

    [[nodiscard]] virtual std::unique_ptr<State> clone() const = 0;

    // 1 or 2; unspecified once the game is over.
    [[nodiscard]] virtual int current_player() const = 0;

    // Empty once the game is over. A game with passes (Reversi) returns
    // exactly {kPass} when the player to move has no other legal move.
    [[nodiscard]] virtual std::vector<Move> legal_moves() const = 0;
    [[nodiscard]] virtual bool is_legal(Move m) const = 0;

    // Precondition: is_legal(m). Throws GameError otherwise.
    virtual void apply(Move m) = 0;

    [[nodiscard]] virtual Outcome outcome() const = 0;
    [[nodiscard]] bool is_over() const { return outcome() != Outcome::kOngoing; }

    // Protocol notation. parse_move checks syntax and bounds only (it does not
    // check legality); nullopt when the text is not a move of this game.
    [[nodiscard]] virtual std::optional<Move> parse_move(std::string_view text) const = 0;
    [[nodiscard]] virtual std::string format_move(Move m) const = 0;

    // A human-readable board, several lines, ending in '\n'.
    [[nodiscard]] virtual std::string render() const = 0;

    // Number of moves applied since the initial position (passes included).
    [[nodiscard]] virtual int ply() const = 0;
};

class Game {
  public:
    virtual ~Game() = default;

    // Registry name: "connect4", "gomoku", "reversi".
    [[nodiscard]] virtual std::string name() const = 0;

    // The complete, concrete parameters of this game, as sent to bots on the
    // `game` line (e.g. rows=6 cols=7 connect=4 [blocked=4:1,...]).
    [[nodiscard]] virtual Params params() const = 0;

    [[nodiscard]] virtual std::unique_ptr<State> new_initial_state() const = 0;
};

}  // namespace arena::games
