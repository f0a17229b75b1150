// The HTML report's building blocks without a browser: escaping for markup
// and for the embedded JSON, invalid UTF-8, the replay form of stored games
// (move numbers of every game, passes, moves that do not parse), and a page
// written from a store whose bot names and output are markup. The page in a
// real browser: tests/browser/.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "arena/report/html.hpp"
#include "arena/report/html_report.hpp"
#include "arena/store/results_store.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

using nlohmann::json;

TEST(ReportHtml, EscapesMarkupQuotesAndControls) {
    EXPECT_EQ(report::html_escape("<a href=\"x\">'&'</a>"),
              "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    EXPECT_EQ(report::html_escape("a\x01"
                                  "b\nc\td"),
              "a\\x01b\nc\td");
    EXPECT_EQ(report::html_escape("é ✓"), "é ✓");
}

TEST(ReportHtml, ReplacesInvalidUtf8) {
    EXPECT_EQ(report::valid_utf8("ok \xC3\xA9"), "ok \xC3\xA9");
    EXPECT_EQ(report::valid_utf8("a\xFF"
                                 "b"),
              "a\xEF\xBF\xBD"
              "b");                                                         // not a lead byte
    EXPECT_EQ(report::valid_utf8("\xC3"), "\xEF\xBF\xBD");                  // cut short
    EXPECT_EQ(report::valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
    EXPECT_EQ(report::valid_utf8("\xED\xA0\x80"),
              "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");                      // surrogate
    EXPECT_EQ(report::valid_utf8("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");  // U+1F600
}

TEST(ReportHtml, ScriptJsonCannotCloseTheScriptElement) {
    const json value = {{"name", "</script><script>alert(1)</script>"},
                        {"log",
                         "a\xE2\x80\xA8"
                         "b\xE2\x80\xA9"
                         "c & <!-- d"},
                        {"bad", "\xFF"}};
    const std::string text = report::script_json(value);
    EXPECT_EQ(text.find('<'), std::string::npos) << text;
    EXPECT_EQ(text.find('>'), std::string::npos) << text;
    EXPECT_EQ(text.find('&'), std::string::npos) << text;
    EXPECT_EQ(text.find("\xE2\x80\xA8"), std::string::npos) << text;
    EXPECT_EQ(text.find("\xE2\x80\xA9"), std::string::npos) << text;
    const json back = json::parse(text);
    EXPECT_EQ(back["name"], value["name"]);
    EXPECT_EQ(back["log"], value["log"]);
    EXPECT_EQ(back["bad"], "\xEF\xBF\xBD");
}

store::StoredGame stored(const std::string& game, const std::string& params,
                         const std::vector<std::string>& moves) {
    store::StoredGame g;
    g.game = game;
    g.params = params;
    g.summary.first = "a";
    g.summary.second = "b";
    g.summary.result = "1-0";
    g.summary.termination = "normal";
    int ply = 0;
    for (const auto& m : moves) {
        ++ply;
        g.moves.push_back({ply, ply % 2 == 1 ? 1 : 2, m, 1500, m == "pass", {}});
    }
    return g;
}

TEST(ReportReplay, MovesAsNumbersOfEveryGame) {
    auto c4 = report::replay_game_json(
        stored("connect4", "rows=9 cols=11 connect=4 blocked=2:1", {"1", "11", "x9"}));
    EXPECT_EQ(c4["board"]["game"], "connect4");
    EXPECT_EQ(c4["board"]["cols"], 11);
    EXPECT_EQ(c4["board"]["blocked"], json::parse("[[1, 0]]"));
    EXPECT_EQ(c4["moves"][0]["m"], 0);
    EXPECT_EQ(c4["moves"][1]["m"], 10);
    EXPECT_TRUE(c4["moves"][2]["m"].is_null());  // not a move of the game
    EXPECT_EQ(c4["moves"][2]["text"], "x9");
    EXPECT_EQ(c4["moves"][0]["us"], 1500);

    auto gomoku = report::replay_game_json(stored("gomoku", "size=19 rule=exact5", {"a1", "s19"}));
    EXPECT_EQ(gomoku["board"]["size"], 19);
    EXPECT_EQ(gomoku["moves"][0]["m"], 0);
    EXPECT_EQ(gomoku["moves"][1]["m"], 19 * 19 - 1);

    auto reversi = report::replay_game_json(stored("reversi", "", {"d3", "pass"}));
    EXPECT_EQ(reversi["moves"][0]["m"], 2 * 8 + 3);  // row 0 at the top
    EXPECT_EQ(reversi["moves"][1]["m"], -1);
    EXPECT_TRUE(reversi["moves"][1]["us"].is_null());  // played by the arena
}

TEST(ReportPage, BotTextIsEscapedEverywhere) {
    testing::TempDir dir("report_page");
    const auto db = dir.path() / "r.db";
    const std::string hostile = "<script>alert(1)</script>";
    store::ResultsStore store(db);
    store::TournamentSpec spec{
        "t", "connect4", "game: { name: connect4 }\ntime: { move_ms: 50 }\n", "fp", 1, 2};
    const auto id =
        store.create_tournament(spec, {{hostile, "cmd", "arena1", ""}, {"b", "cmd", "arena1", ""}});
    record::GameRecord game;
    game.game = "connect4";
    game.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
    game.players[0] = hostile;
    game.players[1] = "b";
    for (int k = 0; k < 7; ++k) {
        game.moves.push_back(
            {k % 2 == 0 ? "1" : "2", k % 2 + 1, std::chrono::microseconds(100), false, {hostile}});
    }
    game.outcome = games::Outcome::kWin1;
    game.stderr_logs[1] = "</script>" + hostile;
    store.record_game(id, {0, 0, 0, 0, ""}, game);
    const auto t = store.find_tournament("t");
    ASSERT_TRUE(t);
    std::ostringstream page;
    report::write_report(store, *t, {}, page);
    const std::string html = page.str();
    EXPECT_EQ(html.find(hostile), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    // Three script elements: the data and the two scripts; no other opens.
    std::size_t scripts = 0;
    for (auto at = html.find("<script"); at != std::string::npos; at = html.find("<script", at + 1))
        ++scripts;
    EXPECT_EQ(scripts, 3u);
    EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
}

// Issue 41 item 20: in a gauntlet's SPRT table, a test that counted every
// pair its games_per_pair allows stopped there without a decision; one that
// can still play says it continues.
// A gauntlet "g" of c against o and p with an SPRT, 2 pairs each.
std::int64_t create_sprt_gauntlet(store::ResultsStore& store) {
    store::TournamentSpec spec{"g",
                               "connect4",
                               "game: { name: connect4 }\ntime: { move_ms: 50 }\n"
                               "schedule: { type: gauntlet, challenger: c, games_per_pair: 4, "
                               "sprt: { elo0: 0, elo1: 10 } }\n",
                               "fp",
                               1,
                               8};
    return store.create_tournament(
        spec, {{"c", "cmd", "arena1", ""}, {"o", "cmd", "arena1", ""}, {"p", "cmd", "arena1", ""}});
}

// Stores pair `number` of c against `opponent`: two games of `plies` moves,
// c first in the first, ending `first` and `second` (games `2 number` and
// `2 number + 1` of the schedule).
void record_pair(store::ResultsStore& store, std::int64_t id, const std::string& opponent,
                 int number, int plies, games::Outcome first, games::Outcome second) {
    for (int k = 0; k < 2; ++k) {
        record::GameRecord game;
        game.game = "connect4";
        game.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
        game.players[0] = k == 0 ? "c" : opponent;
        game.players[1] = k == 0 ? opponent : "c";
        for (int m = 0; m < plies; ++m)
            game.moves.push_back(
                {m % 2 == 0 ? "1" : "2", m % 2 + 1, std::chrono::microseconds(100), false, {}});
        game.outcome = k == 0 ? first : second;
        store.record_game(id, {2 * number + k, 0, number, k, ""}, game);
    }
}

TEST(ReportPage, SprtTableSaysATestStoppedAtItsLimitWithoutADecision) {
    testing::TempDir dir("report_sprt");
    store::ResultsStore store(dir.path() / "r.db");
    const auto id = create_sprt_gauntlet(store);
    // Each pair: both games won by the first mover, one win each.
    const auto win1 = games::Outcome::kWin1;
    record_pair(store, id, "o", 0, 7, win1, win1);
    record_pair(store, id, "o", 1, 9, win1, win1);  // o: both of its 2 pairs played, no decision
    record_pair(store, id, "p", 2, 7, win1, win1);  // p: 1 of 2
    const auto t = store.find_tournament("g");
    ASSERT_TRUE(t);
    std::ostringstream page;
    report::write_report(store, *t, {}, page);
    const std::string html = page.str();
    const auto table = html.find("id=\"sprt-table\"");
    ASSERT_NE(table, std::string::npos) << html;
    const std::string rows = html.substr(table, html.find("</table>", table) - table);
    const auto row = [&](const std::string& name) {
        const auto at = rows.find("<td class=\"name\">" + name + "</td>");
        return at == std::string::npos ? std::string()
                                       : rows.substr(at, rows.find("</tr>", at) - at);
    };
    EXPECT_NE(row("o").find("<td>none: stopped at the limit of 2 pairs</td>"), std::string::npos)
        << rows;
    EXPECT_NE(row("p").find("<td>none yet (continues)</td>"), std::string::npos) << rows;
    EXPECT_EQ(rows.find(">continue<"), std::string::npos) << rows;
}

// Issue 43: the page sets repeated pairs aside and says so, marks ratings
// that only the prior keeps finite, and leaves pairs that never met blank.
TEST(ReportPage, RepeatsAreSetAsideRatingsFromThePriorMarkedAndUnmetPairsBlank) {
    testing::TempDir dir("report_repeats");
    store::ResultsStore store(dir.path() / "r.db");
    const auto id = create_sprt_gauntlet(store);
    // c wins every game.
    const auto win1 = games::Outcome::kWin1, win2 = games::Outcome::kWin2;
    record_pair(store, id, "o", 0, 7, win1, win2);
    record_pair(store, id, "o", 1, 7, win1, win2);  // the same two games again: set aside
    record_pair(store, id, "p", 2, 9, win1, win2);
    const auto t = store.find_tournament("g");
    ASSERT_TRUE(t);
    std::ostringstream page;
    report::write_report(store, *t, {}, page);
    const std::string html = page.str();
    EXPECT_NE(html.find("<p class=\"warning\" id=\"repeats\">repeats: 1 pair (2 of 6 games) "
                        "repeat earlier pairs move for move and are set aside: the ratings count "
                        "each pair once"),
              std::string::npos)
        << html;
    // c won, o and p lost, every game they played.
    std::size_t marks = 0;
    for (auto at = html.find("<span class=\"prior\">*</span>"); at != std::string::npos;
         at = html.find("<span class=\"prior\">*</span>", at + 1))
        ++marks;
    EXPECT_EQ(marks, 3u) << html;
    EXPECT_NE(html.find("id=\"prior-note\">* won or lost every game"), std::string::npos) << html;
    // o and p never met: two blank cells; c's games against o count once.
    std::size_t blanks = 0;
    for (auto at = html.find("<td class=\"unmet\"></td>"); at != std::string::npos;
         at = html.find("<td class=\"unmet\"></td>", at + 1))
        ++blanks;
    EXPECT_EQ(blanks, 2u) << html;
    EXPECT_EQ(html.find("0-0-0"), std::string::npos) << html;
    EXPECT_NE(html.find("<span class=\"wdl\">2-0-0</span>"), std::string::npos) << html;
    // The SPRT table: o's test counted 1 pair and set 1 aside.
    const auto table = html.find("id=\"sprt-table\"");
    ASSERT_NE(table, std::string::npos) << html;
    const std::string rows = html.substr(table, html.find("</table>", table) - table);
    EXPECT_NE(rows.find("<td class=\"name\">o</td><td>1</td><td>1</td>"), std::string::npos)
        << rows;
}

}  // namespace
}  // namespace arena
