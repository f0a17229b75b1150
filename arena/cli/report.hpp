#pragma once
// Standings of a stored tournament: Elo by maximum likelihood with 95 %
// intervals, W/D/L, score and win rates overall and by colour, losses by
// each kind of fault, the first-mover advantage, how many games repeat an
// earlier one move for move, and a crosstable. Reads the store, fits with
// arena::rating.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "arena/store/results_store.hpp"

namespace arena::cli {

// Fits the ratings of the tournament's games, saves them in the database,
// and prints the standings table (and the crosstable for up to 16 bots).
// Ratings have mean 0, or put `anchor` at 0. Throws std::invalid_argument
// for an anchor that is not one of the tournament's bots.
void report_standings(store::ResultsStore& store, const store::TournamentRow& tournament,
                      std::ostream& out, const std::optional<std::string>& anchor = {});

}  // namespace arena::cli
