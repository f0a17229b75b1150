#pragma once
// The blocks `arena run` prints at the end of a gauntlet with `sprt`, one
// per opponent's test, as `arena merge` prints them for the workers' merged
// database too.

#include <ostream>
#include <string>
#include <vector>

#include "arena/rating/sprt.hpp"
#include "arena/tournament/gauntlet_sprt.hpp"
#include "arena/tournament/growth.hpp"

namespace arena::cli {

// Each test's block (Elo, LLR, the decision) and its uncounted pairs;
// `lineup` names the tests' entrants.
void print_sprt_tests(std::ostream& out, const std::vector<tournament::OpponentTest>& tests,
                      const rating::SprtOptions& options, const tournament::Lineup& lineup);

}  // namespace arena::cli
