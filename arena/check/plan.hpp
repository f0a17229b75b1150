#pragma once
// Which games `arena check-bot` plays, for a game and a kind of bot: the
// sides, every board the game allows, an opening position, and the probe
// games of protocol v1. Pure: no process is involved.

#include <cstdint>
#include <string>
#include <vector>

#include "arena/check/check.hpp"
#include "arena/games/game.hpp"

namespace arena::check {

// What a game probes besides playing.
enum class Probe : std::uint8_t {
    kNone,
    // Commands the bot cannot know before `game` and before each `position`,
    // and keys it cannot know on `go` and `end` (protocol v1 only).
    kUnknown,
    // After `game`, each move and `end`: a short wait for lines sent out of
    // turn (protocol v1 only).
    kOutOfTurn,
};

struct GamePlan {
    std::string check;     // the check's name
    std::string board;     // the board for people: "connect4 9x7, connect 4"
    games::Params params;  // concrete game parameters
    // The bot's side (1 moves first); 0: the side to move after the opening.
    int bot_player = 1;
    std::vector<std::string> opening;  // moves the arena plays first (arena notation)
    Probe probe = Probe::kNone;
};

// A check of the plan that does not apply to this kind of bot.
struct SkippedCheck {
    std::string check;
    std::string reason;
};

struct Plan {
    std::vector<GamePlan> games;
    std::vector<SkippedCheck> skipped;  // reported after the games
};

// The games for `game` ("connect4", "gomoku", "reversi") and `kind`. Throws
// games::GameError when the kind cannot play the game (gomocup: gomoku only;
// nboard: reversi only; tsinghua-so: connect4 only).
[[nodiscard]] Plan make_plan(const std::string& game, BotKind kind, std::uint64_t seed);

// "connect4 9x7, connect 4, blocked 4:1" / "gomoku 15x15 exact5" / "reversi".
[[nodiscard]] std::string describe_board(const std::string& game, const games::Params& params);

}  // namespace arena::check
