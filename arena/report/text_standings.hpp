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
#include <string>
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

// What `arena standings` shows of a stored tournament.
struct StandingsRequest {
    // --anchor: bots held at given ratings; nullopt: the anchors of the
    // tournament's stored config (standings_anchors, stored_anchors.hpp).
    std::optional<std::vector<rating::Anchor>> anchors;
    std::vector<std::string> vs;  // --vs A B: only the head-to-head of A against B
    bool pairs = false;           // --pairs: the head-to-head of every pair that met
    bool active = false;          // --active: without the bots that play no more
};

// Prints what `request` asks of `tournament`, stored in the database `db`:
// the standings table (report_standings, with the points of the stored
// config's scoring), every pair's head-to-head (report_pairs) or that of
// the two bots of `vs` (report_head_to_head). Returns, having printed
// nothing, a problem with the anchors or a bot of `vs` that the tournament
// does not have, a line for after "arena standings: "; "" when printed.
[[nodiscard]] std::string print_standings_request(store::ResultsStore& store,
                                                  const store::TournamentRow& tournament,
                                                  const StandingsRequest& request,
                                                  const std::string& db, std::ostream& out);

}  // namespace arena::report
