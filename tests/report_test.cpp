// The HTML report's building blocks without a browser: escaping for markup
// and for the embedded JSON, invalid UTF-8, the replay form of stored games
// (move numbers of every game, passes, moves that do not parse), and a page
// written from a store whose bot names and output are markup. The page in a
// real browser: tests/browser/.

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "arena/report/html.hpp"
#include "arena/report/html_report.hpp"
#include "arena/report/tune_section.hpp"
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

// A tune (arena tune) "tune" of theta+ against theta-, its config with
// `params` (entries of its `tune: params:`) and `pairs`.
std::int64_t create_tune(store::ResultsStore& store, const std::string& params, int pairs) {
    store::TournamentSpec spec{"tune",
                               "connect4",
                               "name: tune\ngame: { name: connect4 }\ntime: { move_ms: 50 }\n"
                               "tune:\n  command: /gone {a} {b}\n  params:\n" +
                                   params + "  pairs: " + std::to_string(pairs) + "\n",
                               "fp",
                               1,
                               2 * pairs};
    return store.create_tournament(
        spec, {{"theta+", "cmd", "arena1", ""}, {"theta-", "cmd", "arena1", ""}});
}

// Stores game `index` of a tune, theta+ first, played at `params`.
void record_tune_game(store::ResultsStore& store, std::int64_t id, std::int64_t index,
                      const std::vector<store::GameParam>& params) {
    record::GameRecord game;
    game.game = "connect4";
    game.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
    game.players[0] = "theta+";
    game.players[1] = "theta-";
    for (int m = 0; m < 7; ++m)
        game.moves.push_back(
            {m % 2 == 0 ? "1" : "2", m % 2 + 1, std::chrono::microseconds(100), false, {}});
    game.outcome = games::Outcome::kWin1;
    const int pair = static_cast<int>(index / 2);
    store.record_game(id, {index, 0, pair, static_cast<int>(index % 2), ""}, game, params);
}

std::string page_of(store::ResultsStore& store, const std::string& name) {
    const auto t = store.find_tournament(name);
    EXPECT_TRUE(t);
    if (!t) return {};
    std::ostringstream page;
    report::write_report(store, *t, {}, page);
    return page.str();
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// The HTML between `from` and the next `to` after it.
std::string part_of(const std::string& html, const std::string& from, const std::string& to) {
    const auto at = html.find(from);
    if (at == std::string::npos) return {};
    return html.substr(at, html.find(to, at) - at);
}

// A tune's report draws each parameter's theta by iteration over its range
// from the config, the start marked and the last value labelled, with a
// table of start, final, min and max; a long tune's charts draw at most
// kMaxTunePoints points, the last iteration among them.
TEST(ReportTune, EachParametersPathOverItsRangeWithTheFinalValues) {
    testing::TempDir dir("report_tune");
    store::ResultsStore store(dir.path() / "r.db");
    const int iterations = 400;  // of 500
    const auto id = create_tune(
        store,
        "    - { name: a, start: 50, min: 1, max: 100, c_end: 5, r_end: 0.01, integer: true }\n"
        "    - { name: b, start: 0.5, min: -2.5, max: 2, c_end: 0.1, r_end: 0.01 }\n",
        500);
    // a rises by 0.05 an iteration from 50, b falls by 0.001 from 0.5; one
    // game an iteration (the report needs no more).
    for (int k = 0; k < iterations; ++k) {
        const double a = 50 + 0.05 * k, b = 0.5 - 0.001 * k;
        record_tune_game(store, id, 2 * k,
                         {{"a", k, 1, a, a + 5, a - 5}, {"b", k, 1, b, b + 0.1, b - 0.1}});
    }
    const std::string html = page_of(store, "tune");
    const std::string section = part_of(html, "<section id=\"tuning\">", "</section>");
    ASSERT_FALSE(section.empty()) << html;
    EXPECT_NE(html.find("<a href=\"#tuning\">Tuning</a>"), std::string::npos);
    EXPECT_LT(html.find("id=\"tuning\""), html.find("id=\"standings\""));  // before the standings
    EXPECT_NE(section.find("400 of 500 iterations stored"), std::string::npos) << section;
    EXPECT_NE(section.find("every n-th iteration"), std::string::npos) << section;

    // The table: start, final (theta at iteration 399), rounded, min, max.
    const std::string table = part_of(section, "id=\"tune-table\"", "</table>");
    EXPECT_NE(table.find("<th>parameter</th><th>start</th><th>final</th><th>rounded</th>"
                         "<th>min</th><th>max</th>"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("<tr><td class=\"name\">a</td><td>50</td><td class=\"final\">69.95</td>"
                         "<td>70</td><td>1</td><td>100</td></tr>"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("<tr><td class=\"name\">b</td><td>0.5</td><td class=\"final\">0.101</td>"
                         "<td></td><td>-2.5</td><td>2</td></tr>"),
              std::string::npos)
        << table;

    // A chart per parameter, in the parameters' order, over its range.
    ASSERT_EQ(count_of(section, "<svg class=\"chart chart-tune\""), 2u) << section;
    const std::string chart_a =
        part_of(section, "<title>Value of a by iteration</title>", "</svg>");
    const std::string chart_b =
        part_of(section, "<title>Value of b by iteration</title>", "</svg>");
    ASSERT_FALSE(chart_a.empty());
    ASSERT_FALSE(chart_b.empty());
    EXPECT_LT(section.find("Value of a"), section.find("Value of b"));
    EXPECT_NE(chart_a.find(">100</text>"), std::string::npos) << chart_a;  // the top of the range
    EXPECT_NE(chart_a.find("class=\"tick range-end\""), std::string::npos) << chart_a;  // min 1
    EXPECT_NE(chart_a.find(">start 50</text>"), std::string::npos) << chart_a;
    EXPECT_NE(chart_a.find("class=\"last-label\""), std::string::npos) << chart_a;
    EXPECT_NE(chart_a.find(">69.95</text>"), std::string::npos) << chart_a;
    EXPECT_NE(chart_b.find(">-2.5</text>"), std::string::npos) << chart_b;
    EXPECT_NE(chart_b.find(">start 0.5</text>"), std::string::npos) << chart_b;
    EXPECT_NE(chart_b.find(">0.101</text>"), std::string::npos) << chart_b;
    // At most kMaxTunePoints points a line, from iteration 0 to 399.
    const std::string line = part_of(chart_a, "points=\"", "\">");
    const std::size_t points = count_of(line, ",");
    EXPECT_LE(points, report::kMaxTunePoints);
    EXPECT_GE(points, report::kMaxTunePoints / 2);
    // x from 52 (iteration 0) over 420 px to iteration 499: 399 at 387.0.
    EXPECT_NE(line.find("points=\"52.0,"), std::string::npos) << line;
    EXPECT_NE(line.find(" 387.0,"), std::string::npos) << line;

    // Not a tune: no section.
    EXPECT_EQ(report::tune_section({}, std::nullopt), "");
}

// A parameter name from the database is text: one that is markup, with no
// entry in the config, is escaped in the table and the chart, and drawn over
// the values it took.
TEST(ReportTune, AHostileParameterNameIsEscapedAndItsRangeIsTheValuesSeen) {
    testing::TempDir dir("report_tune_hostile");
    store::ResultsStore store(dir.path() / "r.db");
    const std::string hostile = "<script>alert(1)</script>";
    const auto id = create_tune(
        store, "    - { name: a, start: 5, min: 0, max: 10, c_end: 1, r_end: 0.01 }\n", 3);
    for (int k = 0; k < 3; ++k) {
        const double a = 5 + k, h = 20 + 10 * k;
        record_tune_game(store, id, 2 * k,
                         {{"a", k, 1, a, a + 1, a - 1}, {hostile, k, 1, h, std::nullopt, h}});
    }
    const std::string html = page_of(store, "tune");
    EXPECT_EQ(html.find(hostile), std::string::npos);
    const std::string section = part_of(html, "<section id=\"tuning\">", "</section>");
    const std::string escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
    EXPECT_NE(section.find("<tr><td class=\"name\">" + escaped +
                           "</td><td>—</td><td class=\"final\">40</td><td>—</td><td>—</td></tr>"),
              std::string::npos)
        << section;
    EXPECT_NE(section.find("<title>Value of " + escaped + " by iteration</title>"),
              std::string::npos)
        << section;
    EXPECT_EQ(count_of(section, "<svg class=\"chart chart-tune\""), 2u);
    // Its axis spans 20 to 40 (and a little): no start line of its own.
    const std::string chart = part_of(section, "<title>Value of " + escaped, "</svg>");
    EXPECT_EQ(chart.find("start"), std::string::npos) << chart;
    EXPECT_NE(chart.find(">20</text>"), std::string::npos) << chart;
    EXPECT_NE(chart.find(">40</text>"), std::string::npos) << chart;
    // Three script elements, as in every report.
    EXPECT_EQ(count_of(html, "<script"), 3u);
}

// Values no tune stores still make a page: a range of one floating-point
// step at 10^15 (where a tick step of 0.05 adds nothing), a range past what
// a double spans, and values that are not finite.
TEST(ReportTune, ValuesNoTuneStoresStillMakeAPage) {
    testing::TempDir dir("report_tune_values");
    store::ResultsStore store(dir.path() / "r.db");
    const auto id = create_tune(
        store, "    - { name: huge, start: 0, min: -1e308, max: 1e308, c_end: 1, r_end: 0.01 }\n",
        2);
    const double inf = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 2; ++k) {
        record_tune_game(store, id, 2 * k,
                         {{"narrow", k, 1, 1e15 + 0.125 * k, std::nullopt, std::nullopt},
                          {"huge", k, 1, k == 0 ? -1e308 : 1e308, std::nullopt, std::nullopt},
                          {"infinite", k, 1, k == 0 ? inf : -inf, std::nullopt, std::nullopt}});
    }
    const std::string section =
        part_of(page_of(store, "tune"), "<section id=\"tuning\">", "</section>");
    EXPECT_EQ(count_of(section, "<svg class=\"chart chart-tune\""), 2u) << section;
    EXPECT_NE(section.find("<td class=\"name\">narrow</td>"), std::string::npos) << section;
    EXPECT_EQ(section.find("infinite"), std::string::npos) << section;  // no value to draw
}

}  // namespace
}  // namespace arena
