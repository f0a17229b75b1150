#pragma once
// Standings of a stored tournament: Elo by maximum likelihood with 95 %
// intervals (on the scale its anchors set, else with mean 0), W/D/L, score
// and win rates overall and by colour, losses by each kind of fault, the
// first-mover advantage, how many games repeat an earlier one move for move,
// a crosstable, and head-to-head blocks. Reads the store, fits with
// arena::rating.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/rating/head_to_head.hpp"
#include "arena/rating/pentanomial.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {

// `digits` decimals, for the head-to-head block: "inf" and "-inf" for the
// infinite, and no sign on a zero ("-0.001" prints as "0.00").
[[nodiscard]] std::string fixed_decimals(double x, int digits);

// One `--anchor` value: "BOT=ELO", or "BOT" alone for BOT=0 (the last '='
// splits, so a name may hold one: "a=b=0"). Throws std::invalid_argument
// naming the option and the value when ELO is not a finite number in
// [-100000, 100000] or BOT is empty.
[[nodiscard]] rating::Anchor parse_anchor(const std::string& text);
// Every `--anchor` value, in order; also throws when a bot comes twice.
[[nodiscard]] std::vector<rating::Anchor> parse_anchors(const std::vector<std::string>& texts);

// The `anchors:` map (bot: rating) of a tournament's stored config text,
// read alone: the rest of the config is not checked (its bots' files may be
// gone). Empty when the text has no such key or is not YAML at all. Throws
// std::invalid_argument when the key is there but is not a map of names to
// finite ratings, or names a bot twice.
[[nodiscard]] std::vector<rating::Anchor> anchors_of_config_text(const std::string& text);

// What the ratings are relative to: "ratings: mean 0", or "ratings
// anchored: a 1500, b 0"; an anchor named in `without_games` is marked
// "(no games)".
[[nodiscard]] std::string scale_text(const std::vector<rating::Anchor>& anchors,
                                     const std::vector<std::string>& without_games = {});

// Fits the ratings of the tournament's games, saves them in the database,
// and prints the standings table (and the crosstable for up to 16 bots).
// `anchors` holds bots at given ratings (rating::FitOptions::anchors); with
// none the ratings have mean 0; the header line says which. With exactly
// two bots, ends with their head-to-head block (report_head_to_head(), the
// higher-rated one first). Throws std::invalid_argument for an anchor that
// is not one of the tournament's bots. Retired bots (and earlier versions)
// are named under the table; with `active_only` (arena standings --active)
// they and their games are left out, and the stored ratings stay as they were.
void report_standings(store::ResultsStore& store, const store::TournamentRow& tournament,
                      std::ostream& out, const std::vector<rating::Anchor>& anchors,
                      bool active_only = false);

// `arena standings --pairs`: the head-to-head block of every pair of bots
// that played each other, one after the other, in the standings' order (the
// pairs of the top bot first, each from the higher-rated bot's side), under
// a title line. `anchors` as for report_standings(), which decides the order.
void report_pairs(store::ResultsStore& store, const store::TournamentRow& tournament,
                  std::ostream& out, const std::vector<rating::Anchor>& anchors,
                  bool active_only = false);

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
