#pragma once
// How far a stored tournament is, as a run of its config would see it. A
// gauntlet with `sprt` is done once every opponent's test is decided, long
// before its schedule is played, and a ladder once every entrant is placed:
// their stored schedule totals say neither. `arena merge` asks this of the
// workers' merged databases (docs/cluster.md, "Workers"), so that it says
// the same as a single run of the same config would have said.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arena/rating/sprt.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/gauntlet_sprt.hpp"
#include "arena/tournament/growth.hpp"

namespace arena::tournament {

struct Completion {
    std::int64_t stored = 0;  // games in the database
    // The games that count: stored, or still to be played (a decided
    // opponent's unplayed games do not count, nor do a ladder's rounds
    // after the last entrant is placed).
    std::int64_t total = 0;
    std::vector<OpponentTest> sprt_tests;  // a gauntlet's SPRT: each opponent's test
    Lineup lineup;                         // whose entrants the tests name
    [[nodiscard]] bool complete() const { return stored >= total; }
};

// The tournament `tournament_id` of `store`, as the config it was created
// from (base_lineup(config)) plays it. A ladder records its total in the
// store, as a run does. Throws StoreError.
[[nodiscard]] Completion completion(store::ResultsStore& store, std::int64_t tournament_id,
                                    const Config& config);

// The same from the tournament's stored config, for `arena merge`, with its
// status set from it ("finished" or "interrupted"): a gauntlet with `sprt`
// (its SPRT options in `sprt`) or a ladder. Nullopt for any other schedule,
// whose stored total says how far it is, and, after setting `problem`, when
// the stored config does not load here (its bots are not at the paths it
// names); `where` names the tournament in that problem.
struct StoredCompletion {
    Completion completion;
    std::optional<rating::SprtOptions> sprt;
};
[[nodiscard]] std::optional<StoredCompletion> stored_completion(store::ResultsStore& store,
                                                                const store::TournamentRow& row,
                                                                const std::string& where,
                                                                std::string& problem);

}  // namespace arena::tournament
