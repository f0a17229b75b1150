#pragma once
// The games of a stored tournament as the report's replay viewer reads them:
// the page's embedded data (every game as one compact row, and the boards
// they are played on) and, in game_data.cpp, replay_game_json() of
// html_report.hpp (one game in full). docs/report.md describes both.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arena/report/html_report.hpp"
#include "arena/store/results_store.hpp"

namespace arena::report {

// What the page shows of every game, gathered in one pass over the games.
struct Gathered {
    nlohmann::json data;                       // the embedded data (see docs/report.md)
    std::vector<std::vector<double>> move_ms;  // per bot: its own moves' times
    std::map<std::string, std::int64_t> endings;
    bool text_cut = false;  // info and logs left out past the budget
};

// Reads every game of `tournament` once; `names` are the bots, in the
// order the rows number them.
[[nodiscard]] Gathered gather(store::ResultsStore& store, const store::TournamentRow& tournament,
                              const std::vector<std::string>& names, const ReportOptions& options);

}  // namespace arena::report
