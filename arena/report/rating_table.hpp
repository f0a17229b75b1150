#pragma once
// The table of `arena rate`: the players of a CSV's games by their fitted
// rating, as text or CSV.

#include <ostream>

#include "arena/rating/rate_games.hpp"

namespace arena::report {

// One row per player, highest rating first (ties in order of appearance),
// names escaped; numbers with one decimal (`out` is left so). As text: the
// player, elo, the 95 % interval, games and score, then the first-mover
// advantage; with `csv`, name,elo,error rows under that header.
void print_rating_table(std::ostream& out, const rating::RatedGames& rated, bool csv);

}  // namespace arena::report
