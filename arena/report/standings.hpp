#pragma once
// The standings of a stored tournament as numbers: the games counted by pair,
// result and ending, the Elo fit, each bot's W/D/L overall and by colour, its
// losses by every kind of fault, and the crosstable. `arena standings` prints
// them as text (text_standings.hpp) and `arena report` as HTML
// (html_report.hpp); both compute them here, once, and format the figures
// with the same functions, so the two always show the same numbers.

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/record/game_record.hpp"
#include "arena/store/results_store.hpp"

namespace arena::report {

// Losses of one bot by each kind of fault, indexed by record::Termination.
using FaultCounts = std::array<std::int64_t, std::size(record::kAllTerminations)>;

// Up to this many bots, `arena standings` ends with a crosstable.
inline constexpr std::size_t kMaxTextCrosstable = 16;

struct Standings {
    std::vector<std::string> names;  // the bots, in the tournament's order
    // The games as fit_elo() takes them: counted by pair and result.
    std::vector<rating::GameResult> results;
    std::vector<FaultCounts> faults;  // per bot: its losses by each fault
    std::int64_t games = 0;           // every stored game, repeats included
    // Games of colour-swapped pairs that repeat an earlier pair of the same
    // bots move for move (rating/repeats.hpp), two per pair: left out of
    // `results`, `played`, the fit and the summary, unless the config says
    // `count_repeats: true` (`count_repeats`).
    std::int64_t repeated_games = 0;
    bool count_repeats = false;
    std::int64_t decided_on_board = 0;  // games counted that ended by the rules
    // played[i][j]: i's wins, draws and losses against j; empty when there
    // are more bots than the crosstable limit given to compute_standings().
    std::vector<std::vector<std::array<std::int64_t, 3>>> played;
    rating::EloFit fit;
    std::vector<rating::PlayerSummary> summary;  // per bot, in the order of `names`
    std::vector<std::size_t> order;              // bot indices, highest rating first
    // Per bot: its games scored 0 % or 100 %, so no finite rating fits them
    // and the figure comes from the fit's weak prior (docs/ratings.md); the
    // tables mark it (kPriorMark). Never set for an anchor.
    std::vector<bool> prior_driven;
};

// The mark of a rating driven by the prior, and its explanation under a table.
inline constexpr const char* kPriorMark = "*";
[[nodiscard]] std::string prior_note(const Standings& t);

// Counts the tournament's games (from the store's result counts: the cost
// does not grow with the number of games) and fits the ratings with the
// anchors held (none: mean 0). With `active_only`, the retired bots (and
// earlier versions) and their games are left out. Throws
// std::invalid_argument for an anchor that is not one of the bots.
[[nodiscard]] Standings compute_standings(store::ResultsStore& store,
                                          const store::TournamentRow& tournament,
                                          const std::vector<rating::Anchor>& anchors,
                                          bool active_only = false,
                                          std::size_t crosstable_limit = kMaxTextCrosstable);

// Bot indices, highest rating first (ties in the tournament's order).
[[nodiscard]] std::vector<std::size_t> standings_order(const rating::EloFit& fit);

// An Elo rounded for display, without "-0" (printf rounds -0.4 to "-0").
[[nodiscard]] double shown_elo(double elo);
// "41.7%": one decimal.
[[nodiscard]] std::string percent_text(double fraction);
// "0", "20 (startup 20)", "3 (timeout 2, crash 1)".
[[nodiscard]] std::string faults_text(const FaultCounts& losses);
// The note on repeated pairs under the standings, two lines without the
// final newline; "" when no pair repeats.
[[nodiscard]] std::string repeats_text(const Standings& t);
// The first-mover advantage ("35 ± 20 Elo"), or why there is none to give.
[[nodiscard]] std::string advantage_text(const rating::EloFit& fit, std::int64_t games,
                                         std::int64_t decided_on_board);

}  // namespace arena::report
