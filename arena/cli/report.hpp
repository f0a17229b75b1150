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
#include <vector>

#include "arena/rating/head_to_head.hpp"
#include "arena/rating/pentanomial.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {

// `digits` decimals, for the head-to-head block: "inf" and "-inf" for the
// infinite, and no sign on a zero ("-0.001" prints as "0.00").
[[nodiscard]] std::string fixed_decimals(double x, int digits);

// Fits the ratings of the tournament's games, saves them in the database,
// and prints the standings table (and the crosstable for up to 16 bots).
// Ratings have mean 0, or put `anchor` at 0. Throws std::invalid_argument
// for an anchor that is not one of the tournament's bots.
void report_standings(store::ResultsStore& store, const store::TournamentRow& tournament,
                      std::ostream& out, const std::optional<std::string>& anchor = {});

// The games between bots `a` and `b` of the tournament, from a's side, with
// their colour-swapped pair (the stored pair index): what
// rating::count_head_to_head() counts. Games with any other result than 1-0,
// 0-1 or 1/2-1/2 are left out.
[[nodiscard]] std::vector<rating::PairedGame> head_to_head_games(
    store::ResultsStore& store, const store::TournamentRow& tournament, const std::string& a,
    const std::string& b);

// The head-to-head block in the form fastchess prints it (docs/ratings.md):
//   Elo: x +/- y, nElo: x +/- y
//   LOS: p %, DrawRatio: d % [, PairsRatio: r]
//   Games: N, Wins: W, Losses: L, Draws: D, Points: P (s %)   (with `games`;
//       else, from `pairs`, "Games: N, Points: P (s %)")
//   Ptnml(0-2): [LL, LD, DD+WL, WD, WW]                       (with `pairs`)
void print_head_to_head(std::ostream& out, const rating::HeadToHead& h,
                        const std::optional<rating::Trinomial>& games,
                        const std::optional<rating::Pentanomial>& pairs);

// `arena standings --vs A B`: the head-to-head block of a against b, from
// the complete colour-swapped pairs (pentanomial), and the Elo of all their
// games (trinomial); names already checked to be the tournament's bots.
void report_head_to_head(store::ResultsStore& store, const store::TournamentRow& tournament,
                         const std::string& a, const std::string& b, std::ostream& out);

}  // namespace arena::cli
