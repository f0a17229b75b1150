#pragma once
// The order in which a run plays its pending games when it cannot keep a
// process of every bot alive (player_pool.hpp). Pairs, colours, boards,
// openings and results do not depend on it (they come from each game's
// place in the schedule); only how often a bot's process is restarted does.

#include <cstddef>
#include <vector>

#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

// Reorders `games` so that few bot processes are started when at most
// `capacity` of them live at once and `concurrency` games are played at a
// time: the bots (by entrant number) are cut into blocks of at most
// (capacity - 2 x concurrency) / 2, and the games between blocks X and Y
// are played together (X in order, and for each X every Y from X on), each
// group in its schedule order. A block is then started about once per
// block after it, instead of a bot once per game. Unchanged when every bot
// involved fits (capacity 0: no bound). Stable: the same input gives the
// same order.
void order_for_capacity(std::vector<Pairing>& games, std::size_t capacity, int concurrency);

}  // namespace arena::tournament
