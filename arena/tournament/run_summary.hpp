#pragma once
// What `arena run` says of a run besides the standings (arena/report): the
// --stats line, the bots that keep answering at the edge of their time
// limit, why a run stopped early and how to go on, and the words of a
// gauntlet's tests that ended without a decision.

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "arena/match/time_control.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/gauntlet_sprt.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/runner.hpp"

namespace arena::tournament {

// What the arena process itself (all its threads, not the bots) used.
struct ProcessUsage {
    double user_s = 0, sys_s = 0;  // CPU time
    double peak_rss_kb = 0;
};
[[nodiscard]] ProcessUsage own_usage();

// One line of key=value figures about a run that took `wall`, for
// benchmarks and people: "stats: games=12 moves=340 wall_s=1.234 ...\n".
[[nodiscard]] std::string stats_line(const RunOutcome& outcome,
                                     std::chrono::steady_clock::duration wall,
                                     const ProcessUsage& usage);

// A warning line for each bot whose moves keep finishing within a hair of
// their limit (its own time control, else the config's), from the move
// times of the tournament's stored games.
[[nodiscard]] std::vector<std::string> close_call_warnings(store::ResultsStore& store,
                                                           std::int64_t tournament,
                                                           const Config& config);

// A run that an error stopped (RunOutcome::error; storage may be what
// failed, a full disk): says why and how to go on, and notes the stop in
// the store (tournament `id`'s status) if the store can still take it.
void note_failed_run(store::ResultsStore& store, std::int64_t id, const RunOutcome& outcome,
                     std::ostream& err);

// "12 of 20 games stored in results/t.db; run the same command again to
// play the other 8 (it resumes where this run stopped)", for a run that
// stops early.
[[nodiscard]] std::string stopped_text(const RunOutcome& outcome, const Config& config);

// "bot 'x' ..., so its 6 remaining games were not played: fix it and run the
// same command again", for a bot the run gave up.
[[nodiscard]] std::string given_up_text(const RunOutcome::GivenUp& given_up);

// The line of a gauntlet's test without a decision: "SPRT: no decision
// after 3 of 5 pairs", and why it plays no more pairs when it does not.
[[nodiscard]] std::string undecided_text(const OpponentTest& test, const Lineup& lineup);

// The pairs stored but not counted in the test, a line for each reason:
// "3 pairs were set aside: each repeated an earlier pair move for move
// (docs/ratings.md)\n" and "2 more pairs were finished after the decision:
// stored, not counted in the test\n"; "" when there are none.
[[nodiscard]] std::string uncounted_pairs_text(const OpponentTest& test);

// ", 3 repeated pairs set aside" after a decision; "" when none were.
[[nodiscard]] std::string repeated_pairs_text(const OpponentTest& test);

// Why a test stopped without a decision: "stopped after 12 counted pairs:
// the last 20 pairs each repeated an earlier pair move for move ...".
[[nodiscard]] std::string repeats_stop_text(const OpponentTest& test);

}  // namespace arena::tournament
