#pragma once
// Test helpers for cluster workers (`arena run CONFIG --worker K/N`,
// docs/cluster.md): the configs the worker tests play (an SPRT gauntlet of
// deterministic searches against three opponents, a ladder of 40
// deterministic bots), and what the tests read back: each test's decision as
// a run prints it, the pair it fell at, and how many pairs a worker played
// past it; and the SPRT blocks a run prints (also for gauntlet_sprt_test).

#include <cstdint>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "db_query.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::testing {

// A gauntlet of `deep` (alpha-beta at depth 5) against `shallow` (depth 1),
// `mid` (depth 3) and `twin` (depth 5: the same games with colours swapped)
// from the balanced openings, with an SPRT that decides each in about a
// hundred pairs; `extra` lines are added at the end.
inline std::string sprt_gauntlet_yaml(const std::string& name, const std::filesystem::path& db,
                                      const std::string& extra = "") {
    const std::string ab = bin("bots/c4-alphabeta");
    return "name: " + name +
           "\ngame: { name: connect4 }\n"
           "time: { move_ms: " +
           scaled_ms(2000) +
           " }\n"
           "schedule: { type: gauntlet, challenger: deep, games_per_pair: 400,\n"
           "            sprt: { elo0: 0, elo1: 10, model: logistic } }\n"
           "openings: { file: " +
           source("configs/openings/connect4-7x6-balanced.txt") +
           ", order: sequential }\n"
           "concurrency: 1\n"
           "database: " +
           db.string() +
           "\n"
           "bots:\n"
           "  - { name: deep, command: '" +
           ab + " --depth 5' }\n  - { name: shallow, command: '" + ab +
           " --depth 1' }\n  - { name: mid, command: '" + ab +
           " --depth 3' }\n  - { name: twin, command: '" + ab + " --depth 5' }\n" + extra;
}

// A ladder of 4 x `seeds` deterministic bots (40 by default): alpha-beta at
// depths 1 to 4, `seeds` seeds each.
inline std::string ladder_yaml(const std::string& name, const std::filesystem::path& db,
                               int seeds = 10) {
    const std::string ab = bin("bots/c4-alphabeta");
    std::string text =
        "name: " + name + "\ngame: { name: connect4 }\ntime: { move_ms: " + scaled_ms(2000) +
        " }\nschedule: { type: ladder }\nopenings: { file: " +
        source("configs/openings/connect4-7x6-balanced.txt") +
        ", order: sequential }\nconcurrency: 1\ndatabase: " + db.string() + "\nbots:\n";
    for (int depth = 1; depth <= 4; ++depth)
        for (int seed = 1; seed <= seeds; ++seed)
            text += "  - { name: d" + std::to_string(depth) + "-s" + std::to_string(seed) +
                    ", command: '" + ab + " --depth " + std::to_string(depth) + " --seed " +
                    std::to_string(seed) + "' }\n";
    return text;
}

// A test's decision as a run prints it: "sprt: deep vs shallow: H1
// accepted after 107 pairs (LLR ...)", perhaps with ", 3 repeated pairs set
// aside".
struct Decision {
    std::string line;  // the whole line
    std::string opponent, verdict;
    int counted = 0, repeated = 0;
};

inline std::vector<Decision> decisions(const std::string& output) {
    std::vector<Decision> found;
    const std::regex line(
        R"(sprt: deep vs (\w+): (H[01]) accepted after (\d+) pairs? \([^)]*\)(, (\d+) repeated)?[^\n]*)");
    for (std::sregex_iterator it(output.begin(), output.end(), line), end; it != end; ++it) {
        const auto& m = *it;
        found.push_back({m.str(0), m.str(1), m.str(2), std::stoi(m.str(3)),
                         m[5].matched ? std::stoi(m.str(5)) : 0});
    }
    return found;
}

// The pairs `opponent` played against deep in `db`, in order.
inline std::vector<int> opponent_pairs(const std::filesystem::path& db,
                                       const std::string& opponent) {
    std::vector<int> pairs;
    for (const auto& row :
         query(db,
               "SELECT DISTINCT g.pair_index FROM games AS g JOIN bots AS f ON f.id = "
               "g.first_bot JOIN bots AS s ON s.id = g.second_bot WHERE f.name = '" +
                   opponent + "' OR s.name = '" + opponent + "' ORDER BY 1"))
        pairs.push_back(std::stoi(row.at(0)));
    return pairs;
}

// The pair at which `d` fell: its test counts (or sets aside) the
// opponent's pairs in schedule order, so it is the opponent's
// (counted + repeated)-th pair in the database that holds every game (-1
// when it holds fewer).
inline int decision_pair(const std::filesystem::path& merged, const Decision& d) {
    const auto pairs = opponent_pairs(merged, d.opponent);
    const auto at = static_cast<std::size_t>(d.counted + d.repeated);
    return at >= 1 && at <= pairs.size() ? pairs[at - 1] : -1;
}

// How many of the opponent's pairs `worker_db` holds past pair `decided`.
inline int pairs_past(const std::filesystem::path& worker_db, const std::string& opponent,
                      int decided) {
    int n = 0;
    for (const int p : opponent_pairs(worker_db, opponent))
        n += p > decided ? 1 : 0;
    return n;
}

// The lines of a run's SPRT blocks: from the first "Results of" (with the
// rule above it) to the end, without the note on pairs that finished after
// a decision (how many were under way then depends on timing).
inline std::string sprt_blocks(const std::string& out) {
    const auto at = out.find("--------------------------------------------------\nResults of");
    if (at == std::string::npos) return {};
    return std::regex_replace(out.substr(at), std::regex(".* after the decision: stored.*\n"), "");
}

// The games of `db` as comparable text: index, players, result, moves
// hash, one line each, in schedule order.
inline std::string game_lines(const std::filesystem::path& db) {
    std::string text;
    for (const auto& row :
         query(db,
               "SELECT g.game_index, f.name, s.name, g.result, IFNULL(g.moves_hash, '') FROM "
               "games AS g JOIN bots AS f ON f.id = g.first_bot JOIN bots AS s ON s.id = "
               "g.second_bot ORDER BY g.game_index")) {
        for (const auto& cell : row)
            text += cell + " ";
        text += "\n";
    }
    return text;
}

}  // namespace arena::testing
