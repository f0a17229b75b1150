#pragma once
// The head-to-head block as text, in the form fastchess prints it
// (docs/ratings.md): one bot against another, from the colour-swapped pairs
// (pentanomial) and from all their games (trinomial). `arena standings --vs`
// and `--pairs` print it from the store; the standings of two bots end
// with it; `arena sprt` and the SPRT's reports (sprt_text.hpp) print it
// from counts.

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/rating/head_to_head.hpp"
#include "arena/rating/pentanomial.hpp"
#include "arena/store/results_store.hpp"

namespace arena::report {

// `digits` decimals, for the head-to-head block: "inf" and "-inf" for the
// infinite, and no sign on a zero ("-0.001" prints as "0.00").
[[nodiscard]] std::string fixed_decimals(double x, int digits);

// What each line of the head-to-head block means, for `--help`.
inline constexpr std::string_view kHeadToHeadLegend = R"(
The head-to-head block (docs/ratings.md), from the first bot's side:
  Elo, nElo    the difference in Elo and in normalized Elo, each with its 95 %
               interval; "inf" when every game was won or lost (it says so)
  LOS          the likelihood that the first bot is the stronger one
  DrawRatio    the share of pairs that scored 1 of 2 (DD+WL: two draws, or one
               win each), so it can exceed the share of drawn games; from
               games alone (no complete pair), the share of drawn games
  PairsRatio   pairs won (WW + WD) over pairs lost (LL + LD)
  Ptnml(0-2)   the colour-swapped pairs by score: [LL, LD, DD+WL, WD, WW]
  Repeats      pairs set aside as move-for-move copies of earlier pairs
)";

// The head-to-head block in the form fastchess prints it (docs/ratings.md):
//   Elo: x +/- y, nElo: x +/- y
//   LOS: p %, DrawRatio: d % [, PairsRatio: r]
//   Games: N, Wins: W, Losses: L, Draws: D, Points: P (s %)   (with `games`;
//       else, from `pairs`, "Games: N, Points: P (s %)")
//   Ptnml(0-2): [LL, LD, DD+WL, WD, WW]                       (with `pairs`)
void print_head_to_head(std::ostream& out, const rating::HeadToHead& h,
                        const std::optional<rating::Trinomial>& games,
                        const std::optional<rating::Pentanomial>& pairs);

// A stored game as a head-to-head counts it, from the side of a bot that
// moved first in it (`a_first`) or second; nullopt for a result other than
// 1-0, 0-1 or 1/2-1/2. Its moves hash goes with it when it ended normally.
[[nodiscard]] std::optional<rating::PairedGame> paired_game(const store::GameSummary& game,
                                                            bool a_first);

// The games between bots `a` and `b` of the tournament, from a's side, with
// their colour-swapped pair (the stored pair index): what
// rating::count_head_to_head() counts. Games with any other result than 1-0,
// 0-1 or 1/2-1/2 are left out.
[[nodiscard]] std::vector<rating::PairedGame> head_to_head_games(
    store::ResultsStore& store, const store::TournamentRow& tournament, const std::string& a,
    const std::string& b);

// `arena standings --vs A B`: the head-to-head block of a against b, from
// the complete colour-swapped pairs (pentanomial), and the Elo of all their
// games (trinomial), a pair that repeats an earlier one counted once unless
// the config says count_repeats; names already checked to be the
// tournament's bots.
void report_head_to_head(store::ResultsStore& store, const store::TournamentRow& tournament,
                         const std::string& a, const std::string& b, std::ostream& out);

// `arena standings --pairs`: the head-to-head block of every pair of bots
// that played each other, one after the other, in the standings' order (the
// pairs of the top bot first, each from the higher-rated bot's side), under
// a title line. `anchors` as for report_standings() (text_standings.hpp),
// which decides the order.
void report_pairs(store::ResultsStore& store, const store::TournamentRow& tournament,
                  std::ostream& out, const std::vector<rating::Anchor>& anchors,
                  bool active_only = false);

}  // namespace arena::report
