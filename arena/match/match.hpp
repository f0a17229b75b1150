#pragma once
// One game between two players: the arena plays the opening and forced
// passes, asks each bot for its moves under the clock, judges every reply
// with the game's rules, and returns a plain record::GameRecord.

#include <array>
#include <functional>
#include <stop_token>
#include <vector>

#include "arena/games/game.hpp"
#include "arena/match/player.hpp"
#include "arena/match/time_control.hpp"
#include "arena/record/game_record.hpp"

namespace arena::match {

// Plays one game; `first` is player 1 (moves first). `opening` must be legal
// from the initial position and must not end the game. When `stop` is
// requested the game is abandoned before the next move (the record says so)
// and both bots' processes are killed. Throws session::SpawnError when a
// bot's command cannot be started. Either player may be a person
// (Player's human constructor, human.hpp): their moves come from their
// input, a refused one is asked for again, and a person who leaves abandons
// the game.
// `on_move`, when given, is told of every ply once it is played (on the
// game's thread; it must be quick), for a view of the game in progress.
using MoveObserver = std::function<void(const record::MoveRecord&)>;
[[nodiscard]] record::GameRecord play_game(const games::Game& game, Player& first, Player& second,
                                           const TimeControl& time,
                                           const std::vector<games::Move>& opening = {},
                                           std::stop_token stop = {},
                                           const MoveObserver& on_move = {});

// The same with each side under its own control: `sides[0]` is `first`'s
// (its clock, and the search limits put on every `go` it is sent), and
// `sides[1]` is `second`'s. The record keeps both (GameRecord::controls).
[[nodiscard]] record::GameRecord play_game(const games::Game& game, Player& first, Player& second,
                                           const std::array<SideControl, 2>& sides,
                                           const std::vector<games::Move>& opening = {},
                                           std::stop_token stop = {},
                                           const MoveObserver& on_move = {});

}  // namespace arena::match
