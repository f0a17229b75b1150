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
//
// A Game also describes its board (BoardDescription) and a State says what
// each cell holds, so that a viewer or an exporter can draw and write any
// game's positions without knowing the concrete game.

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
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

// A cell of a board: col 0 at the left and row 0 at the bottom, in every
// game, whatever order the game's own move numbers use.
struct Cell {
    int col = 0;
    int row = 0;
    friend bool operator==(const Cell&, const Cell&) = default;
};

// What a cell holds, as State::piece_at() says: kEmptyCell, 1 or 2 (a piece
// of that player) or kBlockedCell (no piece can go there).
inline constexpr int kEmptyCell = 0;
inline constexpr int kBlockedCell = 3;

// One entry of what the replay viewer reads about a board beyond the game's
// name (the board entries of docs/report.md): a key and a number, a text or
// a list of cells, in the game's own terms.
struct ViewerField {
    std::string key;
    std::variant<int, std::string, std::vector<Cell>> value;
    friend bool operator==(const ViewerField&, const ViewerField&) = default;
};

// A game's board, as code that draws or writes positions sees it.
struct BoardDescription {
    int width = 0;   // columns
    int height = 0;  // rows
    // With gravity a move is a column (0-based) and the piece drops to the
    // lowest free cell of it (Connect-4); without, a move is the cell
    // row * width + col (Gomoku, Reversi).
    bool gravity = false;
    // The game's move numbers and notation count rows from the top (Reversi:
    // d3 is on the third row from the top) rather than from the bottom.
    bool rows_from_top = false;
    std::vector<Cell> blocked;  // cells no piece can take
    // The viewer's fields in the order the game lists them.
    std::vector<ViewerField> viewer;

    // The moves are the numbers 0 .. move_count() - 1, and kPass.
    [[nodiscard]] int move_count() const { return gravity ? width : width * height; }
    // The cell a move names, for a game without gravity.
    [[nodiscard]] Cell cell_of(Move m) const {
        const int row = m / width;
        return {m % width, rows_from_top ? height - 1 - row : row};
    }
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

    // kEmptyCell, 1, 2 or kBlockedCell; `cell` is inside the game's board
    // (Game::board()).
    [[nodiscard]] virtual int piece_at(Cell cell) const = 0;
    // The pieces of `player` (1 or 2) on the board.
    [[nodiscard]] virtual int piece_count(int player) const = 0;

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

    // The board every State of this game is played on.
    [[nodiscard]] virtual BoardDescription board() const = 0;
};

}  // namespace arena::games
