#pragma once
// Told of games as they are played: the run's progress lines, `arena match`'s
// lines, and the live view of `arena run --serve` are each one of these.
//
// Called from the games' threads (started, moves, ended) and from the one
// thread that stores finished games (stored): each call must be quick and
// thread-safe. Every method does nothing by default.
//
// A game's number, for people, is its stored id (game_stored()'s `game_id`:
// what `arena games` lists and `show`, `log` and the web pages take). A game
// in progress has none yet: `index` is its 0-based place in the schedule,
// which is shown, if at all, as "schedule position index + 1", never as a
// bare game number (it would clash with the stored ids).

#include <cstdint>
#include <string>

#include "arena/games/game.hpp"
#include "arena/record/game_record.hpp"

namespace arena::match {

class GameObserver {
  public:
    virtual ~GameObserver() = default;
    // Game `index` of the schedule starts between `first` and `second`.
    virtual void game_started(std::int64_t /*index*/, const std::string& /*first*/,
                              const std::string& /*second*/, const games::Game& /*game*/) {}
    virtual void move_played(std::int64_t /*index*/, const record::MoveRecord& /*move*/) {}
    // It ended (abandoned: not a result) and is about to be stored, or not.
    virtual void game_ended(std::int64_t /*index*/, const record::GameRecord& /*record*/) {}
    // It was stored as game `game_id`; 0 when the run keeps no database
    // (`arena match` without --db). Games are stored one at a time, in the
    // order they are given here.
    virtual void game_stored(std::int64_t /*index*/, std::int64_t /*game_id*/,
                             const record::GameRecord& /*record*/) {}
};

}  // namespace arena::match
