#pragma once
// A league's grades (docs/league.md, "Grades"), as CSV: for a gauntlet of
// submissions against references, arena grade's table; for any other
// schedule, the standings (rank, name, Elo, its 95 % interval, games, wins,
// draws, losses, score, faults). The organiser's page serves it as
// /league/grades.csv and `arena league grades CONFIG` prints it.

#include <string>

#include "arena/serve/served_database.hpp"
#include "arena/tournament/config.hpp"

namespace arena::league {

// From the league's database as `database` serves it (its standings).
[[nodiscard]] std::string grades_csv(const tournament::Config& config,
                                     serve::ServedDatabase& database);

}  // namespace arena::league
