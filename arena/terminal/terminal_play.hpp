#pragma once
// `arena play`: one game of a person at the terminal against a bot, which
// plays as in any match (its own session, the arena's clock and judging).
// What is played (PlaySetup), whether the bot can play it, the game itself
// (TerminalMatch), and the lines said before and after it.

#include <chrono>
#include <cstdint>
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

// Seats the person: `color` (--color) is first (the person moves first) or
// second. Throws std::invalid_argument for another colour, and for an empty
// setup.person or one that is the bot's name (the results would not tell
// them apart).
void seat_person(PlaySetup& setup, const std::string& color);

// The bot's clock (`move` a move, `tolerance` before it is lost on time) and
// the person's limit a move (`human`; 0: none). Throws std::invalid_argument
// for a clock that match::TimeControl refuses.
void set_clocks(PlaySetup& setup, std::chrono::milliseconds move,
                std::chrono::milliseconds tolerance, std::chrono::milliseconds human);

// Realizes the board of setup.params (a family, variant=tsinghua, is drawn
// from `seed`), and checks it and that the bot plays it
// (tournament::check_bot_game). Throws what the game's registry throws, or
// std::invalid_argument.
void settle_board(PlaySetup& setup, std::uint64_t seed);

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
