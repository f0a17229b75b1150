#pragma once
// The person of `arena play` at a terminal: the board and prompts on an
// output stream, moves typed on a descriptor (standard input), and every
// ply as it is played, with the bot's `info` lines, escaped.

#include <unistd.h>

#include <optional>
#include <ostream>
#include <stop_token>
#include <string>
#include <string_view>

#include "arena/games/game.hpp"
#include "arena/match/human.hpp"
#include "arena/record/game_record.hpp"

namespace arena::terminal {

// How to type a move of `game` in `state`, for the prompt's help line:
// "type a column number, 1 (left) to 7" for connect4.
[[nodiscard]] std::string notation_help(const std::string& game, const games::State& state);

// Prompts on `out` and reads lines from `input` (a descriptor, so that a
// move limit and a stop request can end the wait). Besides a move, a line
// may be 'help' (or '?'), 'board', or 'quit' (or 'exit'); blank lines are
// skipped. The person leaves by 'quit' or at the end of the input.
class TerminalPerson : public match::HumanInput {
  public:
    // `side` is the person's (1 moves first), `bot` the opponent's name.
    TerminalPerson(std::ostream& out, std::string game, int side, std::string bot,
                   int input = STDIN_FILENO);

    std::optional<std::string> next_move(const games::State& state, std::string_view refused,
                                         std::optional<TimePoint> deadline,
                                         std::stop_token stop) override;
    void moved(const games::State& state, const record::MoveRecord& move) override;

    // True once the person left (not merely ran out of time or was stopped).
    [[nodiscard]] bool left() const { return left_; }

  private:
    // One line of the input; nullopt at its end, at `deadline` or on a stop
    // request (checked every 100 ms).
    std::optional<std::string> read_line(std::optional<TimePoint> deadline,
                                         const std::stop_token& stop);

    std::ostream& out_;
    std::string game_;
    int side_;
    std::string bot_;
    int input_;
    std::string buffer_;
    bool eof_ = false;
    bool left_ = false;
};

}  // namespace arena::terminal
