// `arena match --sprt`: colour-swapped pairs until the GSPRT decides, the
// head-to-head block, the decision, the stored pairs, and bad --sprt values.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using testing::bin;
using testing::occurrences;
using testing::query;
using testing::query_one;
using testing::run_arena;
using testing::scaled_ms;
using testing::TempDir;

// The number N of the last "Games: N," line of the output; -1 without one.
long last_games_count(const std::string& out) {
    static const std::regex games_line(R"(Games: (\d+), Wins: \d+, Losses: \d+, Draws: \d+)");
    long n = -1;
    for (std::sregex_iterator it(out.begin(), out.end(), games_line), end; it != end; ++it)
        n = std::stol((*it)[1].str());
    return n;
}

TEST(SprtMatch, StrongerBotIsAcceptedAsStrongerWithinAFewDozenPairs) {
    TempDir dir;
    const auto db = dir.path() / "results.db";
    const auto r =
        run_arena(dir.path(), {"match", "--game", "connect4", "--move-ms", scaled_ms(1000),
                               "--sprt", "elo0=0,elo1=10", "--db", db.string(),
                               bin("bots/c4-alphabeta") + " --depth 4", bin("bots/random")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    EXPECT_NE(r.out.find("SPRT: H1 accepted\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("H0 accepted"), std::string::npos) << r.out;
    // The block, in the form fastchess prints it.
    EXPECT_NE(r.out.find("Elo: inf +/- inf, nElo: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" (every game won: no finite Elo until a draw or a loss)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("LOS: 100.00 %, DrawRatio: "), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(Ptnml\(0-2\): \[0, 0, \d+, \d+, \d+\])")))
        << r.out;
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\nLLR: 2\.9\d \(-2\.94, 2\.94\) \[0\.00, 10\.00\]\nSPRT: H1)")))
        << r.out;
    // Every game's line shows the LLR.
    const int game_lines = occurrences(r.out, "\ngame ") + (r.out.starts_with("game ") ? 1 : 0);
    EXPECT_EQ(occurrences(r.out, "/20000 stored): "), game_lines) << r.out;
    EXPECT_EQ(occurrences(r.out, "/20000 stored): "), occurrences(r.out, "  LLR ")) << r.out;

    const long games = last_games_count(r.out);
    ASSERT_GT(games, 0) << r.out;
    EXPECT_EQ(games % 2, 0) << r.out;
    EXPECT_LT(games, 400) << "far below the default of 20000 games";
    EXPECT_EQ(game_lines, games) << r.out;
    // The block every 16 pairs, and once at the end.
    EXPECT_EQ(occurrences(r.out, "Results of c4-alphabeta vs random"), (games / 2 - 1) / 16 + 1)
        << r.out;

    // Stored as colour-swapped pairs: the same opening (4 random plies by
    // default), each bot moving first once.
    EXPECT_EQ(query_one(db, "SELECT COUNT(*) FROM games"), std::to_string(games));
    EXPECT_EQ(query_one(db,
                        "SELECT COUNT(*) FROM games g0 JOIN games g1 "
                        "ON g0.tournament = g1.tournament AND g0.pair_index = g1.pair_index "
                        "WHERE g0.game_in_pair = 0 AND g1.game_in_pair = 1 "
                        "AND g0.first_bot = g1.second_bot AND g0.second_bot = g1.first_bot "
                        "AND g0.opening = g1.opening"),
              std::to_string(games / 2));
    EXPECT_EQ(query_one(db, "SELECT COUNT(DISTINCT pair_index) FROM games"),
              std::to_string(games / 2));
    // Each pair from its own opening of the balanced 7x6 suite (4 to 8 plies).
    EXPECT_EQ(query(db, "SELECT MIN(opening_plies) >= 4, MAX(opening_plies) <= 8 FROM games"),
              (testing::Rows{{"1", "1"}}));
    EXPECT_EQ(query_one(db, "SELECT COUNT(DISTINCT opening) FROM games"),
              std::to_string(games / 2));
    const std::string suite =
        testing::slurp(testing::source("configs/openings/connect4-7x6-balanced.txt"));
    for (const auto& row : query(db, "SELECT opening FROM games WHERE game_in_pair = 0"))
        EXPECT_NE(suite.find("\n" + row[0] + "\n"), std::string::npos) << row[0];
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
}

// Where no suite is shipped for the board, --sprt starts each pair from 4
// random plies; --openings none starts from the empty board.
TEST(SprtMatch, OpeningsWithoutASuiteAndWithNone) {
    TempDir dir;
    const auto db = dir.path() / "results.db";
    const auto odd_board = run_arena(
        dir.path(), {"match", "--game", "connect4", "--cols", "8", "--games", "4", "--move-ms",
                     scaled_ms(500), "--sprt", "elo0=0,elo1=10", "--db", db.string(), "--name",
                     "odd", bin("bots/random"), bin("bots/random") + " --seed 2"});
    ASSERT_EQ(odd_board.status, 0) << odd_board.err;
    EXPECT_EQ(query(db,
                    "SELECT DISTINCT g.opening_plies FROM games g JOIN tournaments t ON "
                    "g.tournament = t.id WHERE t.name = 'odd'"),
              testing::Rows{{"4"}});
    const auto none =
        run_arena(dir.path(), {"match", "--game", "connect4", "--games", "4", "--move-ms",
                               scaled_ms(500), "--openings", "none", "--db", db.string(), "--name",
                               "none", bin("bots/random"), bin("bots/random") + " --seed 2"});
    ASSERT_EQ(none.status, 0) << none.err;
    EXPECT_EQ(query(db,
                    "SELECT DISTINCT g.opening_plies FROM games g JOIN tournaments t ON "
                    "g.tournament = t.id WHERE t.name = 'none'"),
              testing::Rows{{"0"}});
    const auto both =
        run_arena(dir.path(), {"match", "--game", "connect4", "--openings", db.string(),
                               "--random-plies", "2", bin("bots/random"), bin("bots/random")});
    EXPECT_EQ(both.status, 2);
    EXPECT_NE(both.err.find("give either --openings FILE or --random-plies"), std::string::npos)
        << both.err;
    const auto missing =
        run_arena(dir.path(), {"match", "--game", "connect4", "--openings", "no-such.txt",
                               bin("bots/random"), bin("bots/random")});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("--openings: openings file 'no-such.txt' not found"),
              std::string::npos)
        << missing.err;
}

TEST(SprtMatch, SameBotWithAnotherSeedIsNotAcceptedAsStronger) {
    TempDir dir;
    const auto r = run_arena(
        dir.path(), {"match", "--game", "connect4", "--move-ms", scaled_ms(200), "--games", "60",
                     "--sprt", "elo0=0,elo1=10", "one=" + bin("bots/random") + " --seed 1",
                     "two=" + bin("bots/random") + " --seed 2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("H1 accepted"), std::string::npos) << r.out;
    const bool h0 = r.out.find("SPRT: H0 accepted\n") != std::string::npos;
    const bool to_max =
        r.out.find("SPRT: no decision after 60 games (the most --games allows)\n") !=
        std::string::npos;
    EXPECT_TRUE(h0 || to_max) << r.out;
    const long games = last_games_count(r.out);
    EXPECT_EQ(games % 2, 0) << r.out;
    EXPECT_TRUE(h0 ? games <= 60 : games == 60) << r.out;
    EXPECT_NE(r.out.find("Results of one vs two (from one's side)"), std::string::npos) << r.out;
}

TEST(SprtMatch, JsonHoldsTheTestAndTheCountsOfCompletePairs) {
    TempDir dir;
    // A negative elo0 is common, and a value of its own.
    const auto r = run_arena(
        dir.path(),
        {"match", "--game", "connect4", "--move-ms", scaled_ms(200), "--games", "6", "--json",
         "--sprt", "elo0=-1.75,elo1=0.25,model=logistic,alpha=0.1",
         "one=" + bin("bots/random") + " --seed 3", "two=" + bin("bots/random") + " --seed 4"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("sprt")) << r.out;
    const auto& s = j["sprt"];
    EXPECT_EQ(s["elo0"], -1.75);
    EXPECT_EQ(s["elo1"], 0.25);
    EXPECT_EQ(s["alpha"], 0.1);
    EXPECT_EQ(s["model"], "logistic");
    EXPECT_EQ(j["max_games"], 6);
    EXPECT_NE(s["decision"], "H1");
    const auto pairs = s["pairs"].get<long>();
    long in_bins = 0;
    for (const auto& n : s["ptnml"])
        in_bins += n.get<long>();
    EXPECT_EQ(in_bins, pairs);
    EXPECT_EQ(s["games"].get<long>(), 2 * pairs);
    EXPECT_EQ(s["wins"].get<long>() + s["draws"].get<long>() + s["losses"].get<long>(), 2 * pairs);
    EXPECT_EQ(j["games"].get<long>(), 2 * pairs);
    EXPECT_TRUE(s["llr"].is_number());
    EXPECT_NEAR(s["upper"].get<double>(), std::log(0.95 / 0.1), 1e-9);
    // The game lines went to stderr, with the LLR.
    EXPECT_EQ(occurrences(r.err, "  LLR "), 2 * pairs) << r.err;
}

// From the empty board two deterministic bots play the same pair again and
// again: it counts once, the copies are set aside and said so, and the
// match stops after 20 copies in a row instead of playing to --games.
TEST(SprtMatch, RepeatedPairsAreSetAsideAndAMatchOfCopiesStops) {
    TempDir dir;
    const std::vector<std::string> args = {"match",
                                           "--game",
                                           "connect4",
                                           "--move-ms",
                                           scaled_ms(200),
                                           "--openings",
                                           "none",
                                           "--games",
                                           "200",
                                           "--sprt",
                                           "elo0=0,elo1=10",
                                           "one=" + bin("bots/random") + " --seed 1",
                                           "two=" + bin("bots/random") + " --seed 2"};
    const auto r = run_arena(dir.path(), args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Repeats: 20 more pairs set aside, each a move-for-move copy of an "
                         "earlier pair\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Ptnml(0-2): "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SPRT: no decision after 42 games: stopped after 1 counted pair: the "
                         "last 20 pairs each repeated an earlier pair move for move"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(last_games_count(r.out), 2) << r.out;  // the counted pair's games

    auto json_args = args;
    json_args.insert(json_args.begin() + 1, "--json");
    const auto j = run_arena(dir.path(), json_args);
    ASSERT_EQ(j.status, 0) << j.err;
    const auto s = nlohmann::json::parse(j.out)["sprt"];
    EXPECT_EQ(s["pairs_counted"], 1);
    EXPECT_EQ(s["repeated_pairs"], 20);
    EXPECT_EQ(s["pairs"], 1);

    // --count-repeats: every pair counts, and the match plays on to a decision
    // or to --games.
    auto counting = args;
    counting.insert(counting.begin() + 1, "--count-repeats");
    const auto c = run_arena(dir.path(), counting);
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(c.out.find("Repeats:"), std::string::npos) << c.out;
    EXPECT_EQ(c.out.find("stopped after"), std::string::npos) << c.out;
    EXPECT_GT(last_games_count(c.out), 42) << c.out;
}

// Every match ends with a verdict: the head-to-head block of its pairs (Elo,
// LOS, Ptnml, the repeats set aside), also without --sprt, and in --json as
// "head_to_head".
TEST(SprtMatch, AMatchWithoutSprtEndsWithTheHeadToHeadVerdict) {
    TempDir dir;
    const std::vector<std::string> args = {"match",
                                           "--game",
                                           "connect4",
                                           "--games",
                                           "8",
                                           "--move-ms",
                                           scaled_ms(200),
                                           "one=" + bin("bots/random") + " --seed 5",
                                           "two=" + bin("bots/random") + " --seed 6"};
    const auto r = run_arena(dir.path(), args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\nResults of one vs two (from one's side), 4 colour-swapped pairs:\n"
                         "Elo: "),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(
        std::regex_search(r.out, std::regex(R"(\nPtnml\(0-2\): \[\d+, \d+, \d+, \d+, \d+\]\n$)")))
        << r.out;
    EXPECT_EQ(r.out.find("SPRT"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("LLR"), std::string::npos) << r.out;

    auto json_args = args;
    json_args.insert(json_args.begin() + 1, "--json");
    const auto j = run_arena(dir.path(), json_args);
    ASSERT_EQ(j.status, 0) << j.err;
    const auto h = nlohmann::json::parse(j.out)["head_to_head"];
    for (const char* field : {"elo", "elo_error", "nelo", "nelo_error", "los"})
        EXPECT_TRUE(h[field].is_number() || h[field].is_null()) << field << " " << j.out;
    EXPECT_TRUE(h["los"].is_number()) << j.out;
    ASSERT_EQ(h["pentanomial"].size(), 5u) << j.out;
    long pairs = 0;
    for (const auto& n : h["pentanomial"])
        pairs += n.get<long>();
    EXPECT_EQ(pairs, 4);
    EXPECT_EQ(h["pairs_counted"], 4);
    EXPECT_EQ(h["repeated_pairs"], 0);
    EXPECT_FALSE(nlohmann::json::parse(j.out).contains("sprt"));
}

TEST(SprtMatch, BadSprtValuesGiveOneClearMessage) {
    TempDir dir;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"elo0=1", "--sprt: elo1 is missing"},
        {"elo1=5", "--sprt: elo0 is missing"},
        {"elo0=x,elo1=2", "--sprt: elo0='x' is not a finite number"},
        {"elo0=0,elo1=5,beta=", "--sprt: beta='' is not a finite number"},
        {"elo0=3,elo1=1", "--sprt: elo0 (3.00) must be below elo1 (1.00)"},
        {"elo0=0,elo1=5,speed=2", "--sprt: unknown key 'speed'"},
        {"elo0=0,elo1=5,model=bayes", "--sprt: model='bayes' is not a model"},
        {"elo0=0,elo1=5,alpha=1.5", "--sprt: alpha must be in (0, 1)"},
        {"elo0=0,elo0=1,elo1=5", "--sprt: elo0 is given twice"},
        {"elo0,elo1=5", "--sprt: 'elo0' is not KEY=VALUE"},
        {"elo0=0,,elo1=5", "--sprt: an empty part"},
    };
    for (const auto& [value, message] : cases) {
        const auto r = run_arena(dir.path(), {"match", "--game", "connect4", "--sprt", value,
                                              bin("bots/random"), bin("bots/random")});
        EXPECT_EQ(r.status, 2) << value;
        const auto lines = r.err_lines();
        ASSERT_EQ(lines.size(), 2U) << value << ": " << r.err;
        EXPECT_TRUE(lines[0].starts_with("arena match: " + message)) << value << ": " << lines[0];
        EXPECT_EQ(lines[1], "(arena match --help for usage)");
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    const auto odd =
        run_arena(dir.path(), {"match", "--game", "connect4", "--games", "7", "--sprt",
                               "elo0=0,elo1=5", bin("bots/random"), bin("bots/random")});
    EXPECT_EQ(odd.status, 2);
    EXPECT_NE(odd.err.find("--games must be an even number"), std::string::npos) << odd.err;
}

// Deterministic bots from the empty board play the same pair again and
// again: after 20 copies in a row the match stops, and says why.
TEST(SprtMatch, AMatchOfCopiesStopsAfterTwentyRepeatedPairs) {
    TempDir dir;
    const std::vector<std::string> args = {"match",
                                           "--game",
                                           "connect4",
                                           "--games",
                                           "400",
                                           "--openings",
                                           "none",
                                           "--move-ms",
                                           scaled_ms(200),
                                           "--db",
                                           (dir.path() / "m.db").string(),
                                           "one=" + bin("bots/random") + " --seed 5",
                                           "two=" + bin("bots/random") + " --seed 6"};
    const auto r = run_arena(dir.path(), args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\nMatch stopped after 1 counted pair: the last 20 pairs each repeated "
                         "an earlier pair move for move"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("(42 of 400 games played)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Repeats: 20 more pairs set aside"), std::string::npos) << r.out;
    // 21 pairs stored, and the match is finished, not interrupted.
    EXPECT_EQ(query_one(dir.path() / "m.db", "SELECT count(*) FROM games"), "42");
    EXPECT_EQ(query_one(dir.path() / "m.db", "SELECT status FROM tournaments"), "finished");

    auto json_args = args;
    json_args.insert(json_args.begin() + 1, "--json");
    json_args[json_args.size() - 3] = (dir.path() / "j.db").string();
    const auto j = run_arena(dir.path(), json_args);
    ASSERT_EQ(j.status, 0) << j.err;
    const auto h = nlohmann::json::parse(j.out)["head_to_head"];
    EXPECT_EQ(h["pairs_counted"], 1) << j.out;
    EXPECT_EQ(h["repeated_pairs"], 20) << j.out;
    EXPECT_EQ(h["stopped_repeating"], true) << j.out;
}

TEST(SprtMatch, HelpDescribesSprt) {
    TempDir dir;
    const auto r = run_arena(dir.path(), {"match", "--help"});
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("--sprt elo0=E0,elo1=E1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("default with\n--sprt: 20000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("balanced suite"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--openings none"), std::string::npos) << r.out;
}

// The figures of the verdict are defined where they first appear.
TEST(SprtMatch, HelpDefinesTheHeadToHeadFigures) {
    TempDir dir;
    for (const std::string command : {"match", "sprt"}) {
        const auto r = run_arena(dir.path(), {command, "--help"});
        ASSERT_EQ(r.status, 0) << command;
        for (const std::string line :
             {"  DrawRatio    the share of pairs that scored 1 of 2 (DD+WL: two draws, or one\n",
              "  PairsRatio   pairs won (WW + WD) over pairs lost (LL + LD)\n",
              "  Ptnml(0-2)   the colour-swapped pairs by score: [LL, LD, DD+WL, WD, WW]\n",
              "  Repeats      pairs set aside as move-for-move copies of earlier pairs\n"}) {
            EXPECT_NE(r.out.find(line), std::string::npos) << command << ": " << line;
        }
    }
}

}  // namespace
}  // namespace arena
