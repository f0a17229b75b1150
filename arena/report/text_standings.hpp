#pragma once
// The standings of a stored tournament as the text tables of `arena
// standings` and `arena run`: Elo by maximum likelihood with 95 % intervals
// (on the scale its anchors set, else with mean 0), W/D/L, score and win
// rates overall and by colour, losses by each kind of fault, the
// first-mover advantage, how many games repeat an earlier one move for move,
// a crosstable, and with two bots their head-to-head block. The numbers come
// from compute_standings() (standings.hpp), as those of the HTML report do.

#include <optional>
#include <ostream>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/report/html_report.hpp"
#include "arena/store/results_store.hpp"

namespace arena::report {

// Fits the ratings of the tournament's games, saves them in the database,
// and prints the standings table (and the crosstable for up to 16 bots).
// `anchors` holds bots at given ratings (rating::FitOptions::anchors); with
// none the ratings have mean 0; the header line says which. `scoring`, the
// course-style points of the tournament's config (`scoring:`), adds a
// column and a line saying how they count. With exactly two bots, ends with
// their head-to-head block (report_head_to_head(), the higher-rated one
// first). Throws std::invalid_argument for an anchor that is not one of the
// tournament's bots. Retired bots (and earlier versions) are named under
// the table; with `active_only` (arena standings --active) they and their
// games are left out, and the stored ratings stay as they were.
void report_standings(store::ResultsStore& store, const store::TournamentRow& tournament,
                      std::ostream& out, const std::vector<rating::Anchor>& anchors,
                      const std::optional<ReportOptions::Points>& scoring,
                      bool active_only = false);

}  // namespace arena::report
