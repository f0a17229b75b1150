#pragma once
// Schedules: which bots meet, in which order and colours, from which board
// and opening. Pure functions of the config: the same config always yields
// the same list, which is what makes a resumed run play exactly the games
// that are missing.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arena/games/game.hpp"
#include "arena/tournament/config.hpp"

namespace arena::tournament {

struct Pairing {
    std::int64_t index = 0;  // position in the schedule, from 0
    int round = 0;           // 0-based repetition of the whole schedule
    int pair = 0;            // colour-swapped pair number, across the whole schedule
    int game_in_pair = 0;    // 0: `first` is the pair's first bot; 1: colours swapped
    int first = 0;           // bot index (into Config::bots) moving first
    int second = 0;
};

// Round-robin: every two bots play games_per_pair games; gauntlet: the
// challenger plays every other bot games_per_pair games. Games come in
// colour-swapped pairs (consecutive indices). Each round visits every
// pairing once before the next colour-swapped pair of the same bots, so a
// partial run is spread evenly over all bots.
[[nodiscard]] std::vector<Pairing> make_schedule(const Config& config);

// Which line of the openings file (0-based, among its openings) pair `pair`
// starts from: its `order` from entry `start`, wrapping around after the
// last (docs/config.md). Precondition: the file has openings.
[[nodiscard]] std::size_t opening_line(const Config& config, int pair);
// The file's lines in the order the pairs take them (0-based indices): the
// file order, or for `order: random` a shuffle drawn from the seed.
[[nodiscard]] std::vector<std::size_t> opening_order(const Config& config);

// The board and opening shared by both games of colour-swapped pair `pair`.
struct PairSetup {
    games::Params board;               // concrete game parameters
    std::vector<games::Move> opening;  // played by the arena before the bots move
};
[[nodiscard]] PairSetup pair_setup(const Config& config, int pair);

}  // namespace arena::tournament
