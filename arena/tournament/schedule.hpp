#pragma once
// Schedules: which bots meet, in which order and colours, from which board
// and opening. Pure functions of the config (and, for a tournament that grew,
// of its segments, as stored): the same input always yields the same list,
// which is what makes a resumed run play exactly the games that are missing.

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
    int first = 0;           // bot index (into Config::bots) moving first; an entrant
    int second = 0;          // index for a schedule made of segments
    int segment = 0;         // the segment that scheduled it (0: the first)
    // The pair's number among the pairs of its two bots (0, 1, ...); -1 when
    // not known (a ladder's).
    int meeting_pair = -1;
};

// Round-robin: every two bots play games_per_pair games; gauntlet: the
// challenger plays every other bot games_per_pair games. Games come in
// colour-swapped pairs (consecutive indices). Each round visits every
// pairing once before the next colour-swapped pair of the same bots, so a
// partial run is spread evenly over all bots.
[[nodiscard]] std::vector<Pairing> make_schedule(const Config& config);

// One stretch of a standing tournament's schedule (docs/config.md, "A
// standing tournament"): the games the tournament was created with, or those
// a later change added (late entrants, more games or rounds, a returning bot,
// a new version). The bots are entrants: every bot that ever entered the
// tournament, numbered in the order it entered, retired ones and earlier
// versions included.
struct Segment {
    std::vector<int> active;  // the entrants that play from this segment on, ascending
    int games_per_pair = 2;
    int rounds = 1;
    bool gauntlet = false;
    bool ladder = false;  // no fixed games: a ladder chooses them as it goes (ladder.hpp)
    int challenger = -1;  // a gauntlet's challenger, an entrant in `active`
    // Or several (challengers: bots_dir): each meets every active entrant
    // that is not one of them. When not empty, `challenger` is unused.
    std::vector<int> challengers;
};

// The schedule of segments, one after the other. Each segment appends, for
// every meeting of its active entrants (every two of them in a round-robin;
// the challenger and each other one in a gauntlet; each of several
// challengers, in order, and each entrant that is not one), the colour-swapped pairs
// that bring the meeting up to rounds x games_per_pair / 2 pairs, counting
// the pairs the earlier segments scheduled for it, played or not: the k-th
// pair of every meeting before the (k+1)-th of any, meetings in order of
// their entrants, the lower entrant first in the pair's first game. The
// round of a meeting's k-th pair (from 0) is k / (games_per_pair / 2). So
// the games of earlier segments keep their indices and pair numbers, and a
// single segment of every bot is make_schedule(config) exactly.
[[nodiscard]] std::vector<Pairing> make_schedule(const std::vector<Segment>& segments);

// The segment make_schedule(config) plays: every bot, in config order.
[[nodiscard]] Segment first_segment(const Config& config);

// Which line of the openings file (0-based, among its openings) pair `pair`
// starts from: its `order` from entry `start`, wrapping around after the
// last (docs/config.md). Precondition: the file has openings.
[[nodiscard]] std::size_t opening_line(const Config& config, int pair);
// How many times the file's lines were all used before pair `pair`: 0 for
// the first pass through them.
[[nodiscard]] std::size_t opening_pass(const Config& config, int pair);
// The plies added to an opening line from its second pass on, so that the
// pairs of later passes differ from those of the first (docs/openings.md).
inline constexpr int kPassPlies = 2;
// The file's lines in the order the pairs take them (0-based indices): the
// file order, or for `order: random` a shuffle drawn from the seed.
[[nodiscard]] std::vector<std::size_t> opening_order(const Config& config);

// The board and opening shared by both games of colour-swapped pair `pair`:
// from an openings file, its line, and from the line's second pass on,
// kPassPlies more plies, a different continuation on each pass.
struct PairSetup {
    games::Params board;               // concrete game parameters
    std::vector<games::Move> opening;  // played by the arena before the bots move
};
// With `openings: { per_opponent: same }`, the pair's meeting_pair stands for
// its pair number in this (when known).
[[nodiscard]] PairSetup pair_setup(const Config& config, int pair);
[[nodiscard]] PairSetup pair_setup(const Config& config, const Pairing& pairing);

}  // namespace arena::tournament
