// The text of stored games for a terminal (report/game_text: arena games,
// show and log), the anchors of a stored tournament's standings and report
// (report/stored_anchors), what `arena standings` prints of it
// (report/text_standings), a page written whole or not at all
// (report/report_file), the table of `arena rate` (report/rating_table) and
// the SPRT's text in `arena match` (report/sprt_text).

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "arena/rating/sprt.hpp"
#include "arena/record/control_text.hpp"
#include "arena/report/game_text.hpp"
#include "arena/report/head_to_head_text.hpp"
#include "arena/report/odds_text.hpp"
#include "arena/report/rating_table.hpp"
#include "arena/report/report_file.hpp"
#include "arena/report/sprt_text.hpp"
#include "arena/report/stored_anchors.hpp"
#include "arena/report/text_standings.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/stored_settings.hpp"
#include "proc_util.hpp"
#include "stored_tournaments.hpp"
#include "temp_dir.hpp"

namespace arena::report {
namespace {

namespace fs = std::filesystem;

store::StoredGame game_of_three_moves() {
    store::StoredGame g;
    g.summary.id = 7;
    g.summary.slot.index = 2;
    g.summary.first = "a";
    g.summary.second = "b\x01";
    g.summary.result = "0-1";
    g.summary.termination = "timeout";
    g.summary.detail = "a: no move within 100 ms";
    g.summary.plies = 3;
    g.summary.duration_us = 1'234'567;
    g.game = "connect4";
    g.params = "rows=6 cols=7 connect=4";
    g.moves = {{1, 1, "4", 0, true, {}},
               {2, 2, "4", 1500, false, {"depth 3", "pv\x02"}},
               {3, 1, "5", 99'950, false, {}}};
    g.stderr_logs[0] = "thinking\nout of time\n";
    g.stderr_logs[1] = "";
    g.peak_memory[0] = 3 * 1024 * 1024;
    return g;
}

TEST(GameText, TheListHasAHeaderAndALineAGame) {
    std::ostringstream out;
    auto g = game_of_three_moves();
    print_game_list(out, {g.summary});
    EXPECT_EQ(out.str(),
              "     id  index  first           second          result   ending     plies   "
              "seconds  detail\n"
              "      7      3  a               b\\x01           0-1      timeout        3      "
              "1.23  a: no move within 100 ms\n");
}

TEST(GameText, AReplayShowsEachMoveThenTheEndingAndTheFaultsStderr) {
    std::ostringstream out;
    print_game_replay(out, game_of_three_moves(), "r.db");
    const std::string text = out.str();
    EXPECT_EQ(text.rfind("game 7: a (first) vs b\x01, connect4 rows=6 cols=7 connect=4\n", 0), 0u);
    EXPECT_NE(text.find("\n1. a: 4  (played by the arena)\n"), std::string::npos);
    EXPECT_NE(text.find("\n2. b\x01: 4  1.5 ms\n   info depth 3\n   info pv\\x02\n"),
              std::string::npos);
    EXPECT_NE(text.find("\n3. a: 5  100.0 ms\n"), std::string::npos);
    EXPECT_NE(text.find("\nresult 0-1 (timeout: a: no move within 100 ms)\n"
                        "peak memory (as the memory limit counts it): a 3.0 MiB, b\x01 not known\n"
                        "a's stderr: thinking | out of time\n"
                        "(all of it: arena log r.db 7)\n"),
              std::string::npos);
    EXPECT_EQ(text.substr(text.size() - 30), "(all of it: arena log r.db 7)\n");
}

TEST(GameText, AMoveThatDoesNotReplayEndsTheBoards) {
    auto g = game_of_three_moves();
    g.moves[1].move = "9";
    g.summary.termination = "normal";
    g.summary.detail.clear();
    g.peak_memory[0].reset();
    std::ostringstream out;
    print_game_replay(out, g, "r.db");
    const std::string text = out.str();
    EXPECT_NE(text.find("(stored move 2 '9' does not replay)\n\nresult 0-1 (normal)\n"),
              std::string::npos);
    EXPECT_EQ(text.find("peak memory"), std::string::npos);
    EXPECT_EQ(text.find("stderr"), std::string::npos);  // no fault, no stderr
}

TEST(GameText, TheLogOfOneBotOrBothAndTheTranscripts) {
    auto g = game_of_three_moves();
    std::ostringstream both;
    print_game_log(both, g, std::nullopt, false);
    EXPECT_EQ(both.str(),
              "game 7: a (first) vs b\\x01, connect4 rows=6 cols=7 connect=4, result 0-1 "
              "(timeout)\n\n"
              "--- a (first) ---\nthinking\nout of time\n\n"
              "--- b\\x01 (second) ---\n(nothing on stderr)\n");
    g.transcripts[1] = "12 -> go\n15 <- move 4\n";
    std::ostringstream one;
    print_game_log(one, g, std::string("b\x01"), true);
    EXPECT_EQ(one.str(),
              "game 7: a (first) vs b\\x01, connect4 rows=6 cols=7 connect=4, result 0-1 "
              "(timeout)\n\n"
              "--- b\\x01 (second): transcript ---\n12 -> go\n15 <- move 4\n");
    std::ostringstream none;
    print_game_log(none, g, std::string("a"), true);
    EXPECT_NE(none.str().find("--- a (first): transcript ---\n(no transcript kept: run with "
                              "transcript: true or --transcript)\n"),
              std::string::npos);

    EXPECT_EQ(missing_player(g, "a"), "");
    EXPECT_EQ(missing_player(g, "c\x03"),
              "game 7 has no bot 'c\\x03'; its bots: a (first), b\\x01 (second)");
}

// A database with tournament `t` of bots a, b and c, c retired.
class StoredAnchors : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto spec = testing::tournament_spec("t");
        const auto id = store_.create_tournament(spec, testing::bots_named({"a", "b", "c"}));
        // A later segment without c retires it.
        store::TournamentChange change;
        change.segments.push_back({});
        change.segments.back().active = {0, 1};
        change.config_text = spec.config_text;
        change.fingerprint = spec.fingerprint;
        change.total_games = spec.total_games;
        store_.change_tournament(id, change);
        row_ = *store_.find_tournament("t");
    }

    testing::TempDir dir_{"arena_report_text"};
    store::ResultsStore store_{dir_.path() / "r.db"};
    store::TournamentRow row_;
};

TEST_F(StoredAnchors, GivenAnchorsWinOverTheConfigs) {
    const auto config = tournament::stored_settings("anchors: { a: 100 }\n");
    auto chosen = standings_anchors(store_, row_, std::nullopt, config, "r.db");
    EXPECT_EQ(chosen.problem, "");
    ASSERT_EQ(chosen.anchors.size(), 1u);
    EXPECT_EQ(chosen.anchors[0].name, "a");
    chosen = standings_anchors(store_, row_, std::vector<rating::Anchor>{{"b", 5}}, config, "r.db");
    ASSERT_EQ(chosen.anchors.size(), 1u);
    EXPECT_EQ(chosen.anchors[0].name, "b");
    // The config's problem does not matter when anchors are given.
    const auto broken = tournament::stored_settings("anchors: [a]\n");
    EXPECT_EQ(
        report_anchors(store_, row_, std::vector<rating::Anchor>{{"b", 5}}, broken, "r.db").problem,
        "");
}

TEST_F(StoredAnchors, EachCommandSaysWhyTheAnchorsCannotBeUsed) {
    const auto broken = tournament::stored_settings("anchors: [a]\n");
    EXPECT_EQ(standings_anchors(store_, row_, std::nullopt, broken, "r.db").problem,
              "tournament 't' in r.db: the config's 'anchors': not a map of bot: rating (give "
              "the anchors with --anchor BOT=ELO instead)");
    EXPECT_EQ(report_anchors(store_, row_, std::nullopt, broken, "r.db").problem,
              "tournament 't' in r.db: the config's 'anchors': not a map of bot: rating (give "
              "the anchors with --anchor BOT=ELO)");
    const auto stranger = tournament::stored_settings("anchors: { z: 1 }\n");
    EXPECT_EQ(standings_anchors(store_, row_, std::nullopt, stranger, "r.db").problem,
              "tournament 't' in r.db: its config anchors 'z', which is not one of its bots (give "
              "the anchors with --anchor BOT=ELO instead)");
    EXPECT_EQ(report_anchors(store_, row_, std::nullopt, stranger, "r.db").problem,
              "the anchor 'z' is not a bot of tournament 't' in r.db");
    const std::vector<rating::Anchor> given = {{"a", 0}, {"y", 1}};
    EXPECT_EQ(standings_anchors(store_, row_, given, stranger, "r.db").problem,
              "--anchor y: tournament 't' in r.db has no bot 'y'");
    EXPECT_EQ(report_anchors(store_, row_, given, stranger, "r.db").problem,
              "the anchor 'y' is not a bot of tournament 't' in r.db");
}

TEST_F(StoredAnchors, ActiveStandingsRefuseAnAnchorThatPlaysNoMore) {
    const auto none = tournament::stored_settings("");
    const std::vector<rating::Anchor> on_retired = {{"c", 0}};
    EXPECT_EQ(standings_anchors(store_, row_, on_retired, none, "r.db").problem, "");
    EXPECT_EQ(standings_anchors(store_, row_, on_retired, none, "r.db", true).problem,
              "--active leaves out 'c', which plays no more, but the ratings are anchored on it "
              "(give other anchors with --anchor BOT=ELO)");
    EXPECT_EQ(
        standings_anchors(store_, row_, std::vector<rating::Anchor>{{"a", 0}}, none, "r.db", true)
            .problem,
        "");
}

TEST_F(StoredAnchors, TheReportsOptionsAreTheAnchorsAndTheConfigsPoints) {
    auto stored =
        stored_report_options(store_, row_, std::vector<rating::Anchor>{{"b", 5}}, "r.db");
    EXPECT_EQ(stored.problem, "");
    ASSERT_EQ(stored.options.anchors.size(), 1u);
    EXPECT_EQ(stored.options.anchors[0].name, "b");
    EXPECT_FALSE(stored.options.points.has_value());  // the config has no scoring
    EXPECT_EQ(
        stored_report_options(store_, row_, std::vector<rating::Anchor>{{"y", 1}}, "r.db").problem,
        "the anchor 'y' is not a bot of tournament 't' in r.db");
}

TEST_F(StoredAnchors, TheStandingsRequestPrintsWhatItAsksOrSaysWhyNot) {
    StandingsRequest r;
    r.vs = {"a", "z"};
    std::ostringstream out;
    EXPECT_EQ(print_standings_request(store_, row_, r, "r.db", out),
              "tournament 't' in r.db has no bot 'z'");
    r.anchors = std::vector<rating::Anchor>{{"y", 1}};
    EXPECT_EQ(print_standings_request(store_, row_, r, "r.db", out),
              "--anchor y: tournament 't' in r.db has no bot 'y'");
    r.vs.clear();
    r.anchors = std::vector<rating::Anchor>{{"c", 0}};
    r.active = true;
    EXPECT_EQ(print_standings_request(store_, row_, r, "r.db", out),
              "--active leaves out 'c', which plays no more, but the ratings are anchored on it "
              "(give other anchors with --anchor BOT=ELO)");
    EXPECT_EQ(out.str(), "");

    // Otherwise what the report's own functions print.
    const auto printed = [&](const StandingsRequest& request) {
        std::ostringstream text;
        EXPECT_EQ(print_standings_request(store_, row_, request, "r.db", text), "");
        return text.str();
    };
    const auto expected = [](const auto& print) {
        std::ostringstream text;
        print(text);
        return text.str();
    };
    r = {};
    EXPECT_EQ(printed(r), expected([&](std::ostream& o) {
                  report_standings(store_, row_, o, {}, std::nullopt);
              }));
    r.pairs = true;
    EXPECT_EQ(printed(r), expected([&](std::ostream& o) { report_pairs(store_, row_, o, {}); }));
    r = {};
    r.vs = {"b", "a"};
    EXPECT_EQ(printed(r),
              expected([&](std::ostream& o) { report_head_to_head(store_, row_, "b", "a", o); }));
}

TEST(RatingTable, RowsByRatingAsTextOrCsv) {
    const auto rated =
        rating::rate_games("a,b,1-0\nb,c,1/2-1/2\nc,a,0-1\na,c,1-0\nb\x1b,a,0-1\n", {}, true);
    std::ostringstream text;
    print_rating_table(text, rated, false);
    EXPECT_EQ(text.str(),
              "player      elo   ±95%   games   score\n"
              "a         298.6  294.6       4  100.0%\n"
              "b\\x1b     -81.1  395.2       1    0.0%\n"
              "b         -96.7  291.7       2   25.0%\n"
              "c        -120.8  307.1       3   16.7%\n"
              "first-mover advantage: -12.9 ± 386.3 Elo (5 games)\n");
    const auto held = rating::rate_games("a,b,1-0\nb,c,1/2-1/2\nc,a,0-1\na,c,1-0\nb\x1b,a,0-1\n",
                                         {{"c", 100.0}}, false);
    std::ostringstream csv;
    print_rating_table(csv, held, true);
    EXPECT_EQ(csv.str(),
              "name,elo,error\na,515.3,450.5\nb\\x1b,131.7,571.0\nb,117.9,394.3\nc,100.0,0.0\n");
}

TEST(SprtText, TheLlrAfterAGameLineAndALiveTestAsJson) {
    rating::SprtOptions options;
    options.elo0 = 0;
    options.elo1 = 10;
    const rating::Pentanomial pairs{{1, 2, 3, 4, 5}};
    const rating::Trinomial games{12, 6, 12};
    const auto result = rating::sprt(pairs, options);
    EXPECT_EQ(sprt_llr_suffix(result), "  LLR 0.28 (-2.94, 2.94)");
    auto expected = sprt_json(options, result, rating::head_to_head(pairs), games, pairs);
    expected["pairs_counted"] = 15;
    expected["repeated_pairs"] = 3;
    EXPECT_EQ(sprt_test_json(options, result, pairs, games, 15, 3), expected);
    // Before the first complete pair: the hypotheses and the bounds, no figures.
    rating::SprtResult start;
    start.lower = -2.94;
    start.upper = 2.94;
    EXPECT_EQ(sprt_test_json(options, start, {}, {1, 0, 0}, 0, 0).dump(),
              R"({"alpha":0.05,"beta":0.05,"decision":"continue","elo0":0.0,"elo1":10.0,)"
              R"("games":0,"llr":0.0,"lower":-2.94,"model":"normalized","pairs":0,)"
              R"("pairs_counted":0,"repeated_pairs":0,"upper":2.94})");
}

TEST(SprtText, TheCalculatorsTextOrJson) {
    rating::SprtOptions options;
    options.elo0 = 0;
    options.elo1 = 10;
    const std::optional<rating::Pentanomial> pairs = rating::Pentanomial{{1, 2, 3, 4, 5}};
    std::ostringstream text;
    print_sprt_calculation(text, options, pairs, std::nullopt, false);
    EXPECT_EQ(text.str(),
              "Elo: 120.41 +/- 131.27, nElo: 131.32 +/- 124.33\n"
              "LOS: 98.08 %, DrawRatio: 20.00 %, PairsRatio: 3.00\n"
              "Games: 30, Points: 20.0 (66.67 %)\n"
              "Ptnml(0-2): [1, 2, 3, 4, 5]\n"
              "LLR: 0.28 (-2.94, 2.94) [0.00, 10.00]\n"
              "SPRT: no decision yet (continue)\n");
    const std::optional<rating::Trinomial> games = rating::Trinomial{100, 50, 40};
    std::ostringstream json;
    print_sprt_calculation(json, options, std::nullopt, games, true);
    const auto result = rating::sprt(*games, options);
    EXPECT_EQ(json.str(),
              sprt_json(options, result, rating::head_to_head(*games), games, std::nullopt).dump() +
                  "\n");
    // A test the statistics refuse prints nothing.
    options.elo1 = -10;
    std::ostringstream refused;
    EXPECT_THROW(print_sprt_calculation(refused, options, pairs, std::nullopt, false),
                 std::invalid_argument);
    EXPECT_EQ(refused.str(), "");
}

TEST(ReportFile, ThePageIsWrittenWholeOrNotAtAll) {
    testing::TempDir dir("arena_report_file");
    const auto target = dir.path() / "r.html";
    EXPECT_EQ(write_whole_file(target, [](std::ostream& out) { out << "<html>old</html>"; }), "");
    EXPECT_EQ(testing::slurp(target), "<html>old</html>");
    // A write that throws leaves the old page, and no temporary file.
    EXPECT_THROW((void)write_whole_file(target,
                                        [](std::ostream& out) {
                                            out << "<html>half";
                                            throw std::runtime_error("the store failed");
                                        }),
                 std::runtime_error);
    EXPECT_EQ(testing::slurp(target), "<html>old</html>");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
    EXPECT_EQ(write_whole_file(dir.path() / "no" / "r.html", [](std::ostream&) {}),
              "No such file or directory");
}

// A side's stored control reads back as written, and is said for people.
TEST(ControlText, ReadsBackAndIsSaidForPeople) {
    const record::Control c{50, 10, 0, 0, 2, std::nullopt};
    EXPECT_EQ(record::control_text(c), "move_ms=50 tolerance_ms=10 depth=2");
    EXPECT_EQ(record::parse_control("move_ms=50 tolerance_ms=10 depth=2"), c);
    const record::Control clock{0, 10, 60000, 100, std::nullopt, 1000};
    EXPECT_EQ(record::control_text(clock),
              "move_ms=0 tolerance_ms=10 game_ms=60000 inc_ms=100 nodes=1000");
    EXPECT_EQ(record::parse_control(record::control_text(clock)), clock);
    EXPECT_EQ(record::time_description(c), "50 ms/move");
    EXPECT_EQ(record::time_description(clock), "60000 ms/game + 100 ms/move");
    EXPECT_EQ(record::limits_description(c), "depth 2");
    EXPECT_EQ(record::limits_description(clock), "1000 nodes");
    EXPECT_EQ(record::limits_description({}), "none");
    for (const char* bad :
         {"", "move_ms=50", "move_ms=50 tolerance_ms=x", "move_ms=-1 tolerance_ms=1",
          "move_ms=5 tolerance_ms=1 colour=red", "move_ms tolerance_ms=1"})
        EXPECT_FALSE(record::parse_control(bad)) << bad;
}

// The lines under the standings: only what differs, the bots in order,
// bots without a known control left out.
TEST(OddsLines, SayWhatDiffersBetweenTheBots) {
    const std::vector<std::string> names{"a", "b", "c"};
    EXPECT_EQ(report::odds_lines(names, {"move_ms=50 tolerance_ms=10", "move_ms=50 tolerance_ms=10",
                                         "move_ms=50 tolerance_ms=10"}),
              std::vector<std::string>{});
    EXPECT_EQ(report::odds_lines(names,
                                 {"move_ms=50 tolerance_ms=10", "", "move_ms=500 tolerance_ms=10"}),
              (std::vector<std::string>{"time odds: a 50 ms/move, c 500 ms/move"}));
    EXPECT_EQ(report::odds_lines(
                  names, {"move_ms=50 tolerance_ms=10 depth=2",
                          "move_ms=50 tolerance_ms=10 depth=8", "move_ms=50 tolerance_ms=10"}),
              (std::vector<std::string>{"search limits: a depth 2, b depth 8, c none"}));
    EXPECT_EQ(report::odds_lines({"a"}, {"move_ms=50 tolerance_ms=10"}),
              std::vector<std::string>{});
}

// Time odds as stored: each bot's own time over the tournament's keys, for
// the report's move-time histograms.
TEST(StoredSettingsTime, ABotsOwnTimeOverTheTournaments) {
    const auto s = tournament::stored_settings(
        "time: { move_ms: 500, tolerance_ms: 30 }\n"
        "bots:\n"
        "  - { name: quick, command: x, time: { move_ms: 50 } }\n"
        "  - { name: slow, command: y }\n"
        "  - { name: odd, command: z, time: { tolerance_ms: 5 } }\n");
    EXPECT_EQ(s.time.move_ms, 500.0);
    EXPECT_EQ(s.bot_times.size(), 2u);
    EXPECT_EQ(s.time_of("quick").move_ms, 50.0);
    EXPECT_EQ(s.time_of("quick").tolerance_ms, 30.0);  // the tournament's
    EXPECT_EQ(s.time_of("slow").move_ms, 500.0);
    EXPECT_EQ(s.time_of("odd").move_ms, 500.0);
    EXPECT_EQ(s.time_of("odd").tolerance_ms, 5.0);
    EXPECT_EQ(s.time_of("nobody").move_ms, 500.0);
    // Bots that do not read are left out, not guessed at.
    EXPECT_TRUE(tournament::stored_settings("bots: 3\n").bot_times.empty());
}

}  // namespace
}  // namespace arena::report
