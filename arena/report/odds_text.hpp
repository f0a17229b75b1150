#pragma once
// Time odds and search limits, as the standings, the HTML report and the
// exports say them: what each bot played under (its games' stored
// controls, record/control_text.hpp), in a line each when the bots'
// settings differ, e.g.
//   time odds: a 50 ms/move, b 500 ms/move
//   search limits: a depth 2, b depth 8

#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::report {

// The lines for bots `names` with their stored controls `controls` (the
// same order; "" or a text that does not read: not known, left out): the
// "time odds: " line when their time controls differ, and the "search
// limits: " line when their limits do. Empty when they all play alike. The
// names are as stored: escape the lines for where they go.
[[nodiscard]] std::vector<std::string> odds_lines(const std::vector<std::string>& names,
                                                  const std::vector<std::string>& controls);

// The same for a stored tournament (ResultsStore::bot_controls).
[[nodiscard]] std::vector<std::string> odds_lines(store::ResultsStore& store,
                                                  const store::TournamentRow& tournament);

}  // namespace arena::report
