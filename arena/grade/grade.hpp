#pragma once
// The grade table of a course (protocol/TSINGHUA.md, "Grading a folder"):
// each submission of a gauntlet against the references, the points it scored
// against each (win, draw and loss points of the config's `scoring`, by
// default 2, 1 and 0), its total out of the most possible, the games it lost
// by a fault (every fault is a loss), the games of its schedule that were not
// played (they score nothing), and its check (`check: true`).
//
// The submissions are the bots of bots_dir for `challengers: bots_dir`, else
// the gauntlet's one `challenger`; the references are the other bots. A
// submission that failed its check has no games and scores 0 against every
// reference; the first failed check of its log is its note. Rows are in
// name order (byte order), as a class list is.

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/scoring.hpp"

namespace arena::grade {

// The kinds of fault a game can be lost by, in the order they are printed.
inline constexpr std::array<const char*, 5> kFaultKinds = {"crash", "timeout", "illegal",
                                                           "protocol", "startup"};

struct Row {
    std::string name;
    std::string author;  // from its manifest; may be empty
    // Per reference (Table::references): the points it scored, and the games
    // stored.
    std::vector<int> points, games;
    int total = 0;
    int max = 0;                                   // if every game were won
    std::array<int, kFaultKinds.size()> faults{};  // its losses by a fault, by kind
    int missing = 0;                               // games of its schedule not stored
    std::string check;  // "ok", "FAIL", "not yet" (not checked so far), "-" (no check: true)
    std::string note;   // why it lost points without playing: a failed check, missing games

    [[nodiscard]] int fault_count() const;
};

struct Table {
    std::string tournament;
    std::vector<std::string> references;
    int games_per_reference = 2;  // games_per_pair x rounds
    tournament::Scoring scoring;
    bool stored = false;  // whether the database holds the tournament
    std::vector<Row> rows;
};

// Why `config` cannot be graded (not a gauntlet); empty when it can.
[[nodiscard]] std::string grading_problem(const tournament::Config& config);

// The table from the config (grading_problem() empty) and its database, which
// need not hold the tournament yet (every game is then missing). `given_up`:
// why a run just now gave up a bot (the bot's name, then arena run's line).
[[nodiscard]] Table make_table(const tournament::Config& config, store::ResultsStore& store,
                               const std::map<std::string, std::string>& given_up = {});

// From what `arena run` wrote on stderr: each bot it gave up (a failed
// start-up 3 times in a row, a library that does not load) and why.
[[nodiscard]] std::map<std::string, std::string> given_up_bots(const std::string& run_stderr);

// Text for a terminal: bot-controlled strings with control characters
// escaped. CSV (RFC 4180, one header line; a text cell that a spreadsheet
// would take for a formula, starting with = + - @, gets a leading ').
// JSON: one object, invalid UTF-8 replaced.
[[nodiscard]] std::string format_text(const Table& table);
[[nodiscard]] std::string format_csv(const Table& table);
// One CSV cell as format_csv writes it: control characters escaped, quoted
// when needed, and a leading ' before what a spreadsheet would take for a
// formula (the league's standings CSV uses it too).
[[nodiscard]] std::string csv_cell(std::string_view text);
[[nodiscard]] std::string format_json(const Table& table);

}  // namespace arena::grade
