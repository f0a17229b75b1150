#pragma once
// `arena play`: one game of a person at the terminal against a bot, which
// plays as in any match (its own session, the arena's clock and judging).
// What is played (PlaySetup), whether the bot can play it, the game itself
// (TerminalMatch), and the lines said before and after it.

#include <chrono>
#include <ostream>
#include <stop_token>
#include <string>

#include "arena/games/game.hpp"
#include "arena/match/player.hpp"
#include "arena/match/time_control.hpp"
#include "arena/record/game_record.hpp"
#include "arena/session/session.hpp"
#include "arena/terminal/terminal_person.hpp"

namespace arena::terminal {

struct PlaySetup {
    std::string game;                          // connect4, gomoku or reversi
    games::Params params;                      // the board, realized
    match::TimeControl time;                   // the bot's
    std::chrono::milliseconds human_limit{0};  // the person's per move; 0: no limit
    session::SessionOptions session;
    session::BotSpec bot;
    int human_side = 1;  // 1: the person moves first
    std::string person = "human";
};

// The lines before the game: who plays what against whom, the clocks, and
// how to type a move.
[[nodiscard]] std::string intro_text(const PlaySetup& setup, const games::Game& game);

// The lines after a finished game (`record`): the final board, the result
// from the person's side, and the end of the bot's stderr when the bot lost
// by a fault.
[[nodiscard]] std::string result_text(const PlaySetup& setup, const games::Game& game,
                                      const record::GameRecord& record);

// The game of `setup`: the person (reading standard input, writing to
// `out`) and the bot, which starts with the game under `host` (which must
// outlive this).
class TerminalMatch {
  public:
    TerminalMatch(session::BotHost& host, const PlaySetup& setup, const games::Game& game,
                  std::ostream& out);

    // Plays the game to its end; abandoned when the person left or `stop`
    // was requested. Throws session::SpawnError when the bot cannot start.
    [[nodiscard]] record::GameRecord play(std::stop_token stop);
    // Asks the bot to quit, then kills what is left.
    void retire() { bot_.retire(); }

  private:
    const PlaySetup& setup_;
    const games::Game& game_;
    TerminalPerson person_;
    match::Player human_, bot_;
};

}  // namespace arena::terminal
