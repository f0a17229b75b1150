#pragma once
// Which anchors the ratings of a stored tournament are fitted with in
// `arena standings` and `arena report`: those given on the command line
// (--anchor), else those of the tournament's stored config (`config`, as
// tournament::stored_settings reads it), each of which must name one of its
// bots. A problem is a line for after "arena standings: " (or "arena
// report: "), naming the tournament, the database `db` and the way out.

#include <optional>
#include <string>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/report/html_report.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::report {

struct ChosenAnchors {
    std::vector<rating::Anchor> anchors;
    std::string problem;  // when not empty, `anchors` is not to be used
};

// For `arena standings`: with `active_only` (--active), an anchor that plays
// no more is refused too, since its games are left out.
[[nodiscard]] ChosenAnchors standings_anchors(
    store::ResultsStore& store, const store::TournamentRow& row,
    const std::optional<std::vector<rating::Anchor>>& given,
    const tournament::StoredSettings& config, const std::string& db, bool active_only = false);

// For `arena report`.
[[nodiscard]] ChosenAnchors report_anchors(store::ResultsStore& store,
                                           const store::TournamentRow& row,
                                           const std::optional<std::vector<rating::Anchor>>& given,
                                           const tournament::StoredSettings& config,
                                           const std::string& db);

// `arena report`'s options for `row`: the anchors (report_anchors, of the
// stored config's settings) and the points of the config's scoring.
struct StoredReportOptions {
    ReportOptions options;
    std::string problem;  // as ChosenAnchors::problem
};
[[nodiscard]] StoredReportOptions stored_report_options(
    store::ResultsStore& store, const store::TournamentRow& row,
    const std::optional<std::vector<rating::Anchor>>& given, const std::string& db);

}  // namespace arena::report
