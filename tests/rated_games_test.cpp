// The games `arena rate` reads (rating/games_csv, rating/csv_records): RFC
// 4180 records, the export's header told from white,black,result lines,
// and the line and problem of bad input, the file read whole; and their fit
// (rating/rate_games).

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "arena/rating/csv_records.hpp"
#include "arena/rating/games_csv.hpp"
#include "arena/rating/rate_games.hpp"
#include "temp_dir.hpp"

namespace arena::rating {
namespace {

// A game as (first, second, score).
using Played = std::tuple<int, int, double>;

std::vector<Played> played(const std::vector<GameResult>& games) {
    std::vector<Played> out;
    for (const auto& g : games)
        out.emplace_back(g.first, g.second, g.score);
    return out;
}

// The message of the std::runtime_error that `read` throws; "" when none.
template <class Read>
std::string problem_of(const Read& read) {
    try {
        read();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

std::string records_problem(const std::string& text) {
    return problem_of([&] { (void)csv_records(text); });
}

std::string games_problem(const std::string& text) {
    std::vector<std::string> names;
    return problem_of([&] { (void)read_rated_games(text, names); });
}

TEST(CsvRecords, SplitsQuotedFieldsWithCommasQuotesAndLineBreaks) {
    const auto records = csv_records("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\n\"two\nlines\",x\n");
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].line, 1);
    EXPECT_EQ(records[0].fields, (std::vector<std::string>{"a", "b,c", "say \"hi\""}));
    EXPECT_EQ(records[1].line, 3);  // the blank line 2 is skipped
    EXPECT_EQ(records[1].fields, (std::vector<std::string>{"two\nlines", "x"}));
}

TEST(CsvRecords, NamesTheLineOfABadField) {
    EXPECT_EQ(records_problem("a,b\n\"open,c\n"), "line 2: a quoted field is not closed");
    EXPECT_EQ(records_problem("a,b\nc,d\"e\n"), "line 2: a double quote inside an unquoted field");
    EXPECT_EQ(records_problem("\"a\"b,c\n"), "line 1: text after the closing quote of a field");
}

TEST(CsvRecords, TheFirstLineIsTrimmedAndUnquoted) {
    const auto first = first_csv_line("\n  \n \"first\" , second,result,\n1,2\n");
    EXPECT_EQ(first.line, 3);
    EXPECT_EQ(first.fields, (std::vector<std::string>{"first", "second", "result", ""}));
    EXPECT_EQ(first_csv_line(" \n\n").line, 0);
}

TEST(RatedGames, ReadsTheExportByItsHeaderAndSkipsAByteOrderMark) {
    std::vector<std::string> names{"c"};
    const auto games = read_rated_games(
        "\xef\xbb\xbfgame,first,second,result,moves\n"
        "1,a,b,1-0,\"4,4\"\n2,b,\"c\",1/2-1/2,\n3,c,a,0-1,\n",
        names);
    EXPECT_EQ(names, (std::vector<std::string>{"c", "a", "b"}));
    EXPECT_EQ(played(games), (std::vector<Played>{{1, 2, 1.0}, {2, 0, 0.5}, {0, 1, 0.0}}));
}

TEST(RatedGames, ReadsWhiteBlackResultLines) {
    std::vector<std::string> names;
    const auto games = read_rated_games("white,black,result\nx,y,0-1\n", names);
    EXPECT_EQ(names, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(played(games), (std::vector<Played>{{0, 1, 0.0}}));
}

TEST(RatedGames, SaysWhichLineIsBadAndWhy) {
    const std::string header = "first,second,result\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"\nid,white,black,score\n",
         "line 2: a header without the columns first, second and result (rate reads arena export "
         "-f csv, or white,black,result lines)"},
        {header + "a,b\n", "line 2: expected 3 comma-separated fields as in the header, got 2"},
        {"first,second,result,first\na,b,1-0,c\n",
         "line 1: the header names the column 'first' twice"},
        {header + "a,a,1-0\n", "line 2: 'a' cannot play itself"},
        {header + "a,,1-0\n", "line 2: empty player name"},
        {header + "a,b,2-0\n", "line 2: unknown result '2-0' (expected 1-0, 0-1 or 1/2-1/2)"},
        {"a,b,draw\n", "line 1: unknown result 'draw' (expected 1-0, 0-1 or 1/2-1/2)"},
    };
    for (const auto& [text, problem] : cases)
        EXPECT_EQ(games_problem(text), problem) << text;
}

TEST(RateGames, FitsTheGamesWithTheAnchorsAndTheAdvantageAsked) {
    const std::string text = "a,b,1-0\nb,c,1/2-1/2\nc,a,0-1\na,c,1-0\n";
    const auto free = rate_games(text, {}, true);
    EXPECT_EQ(free.names, (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(free.games.size(), 4u);
    EXPECT_NE(free.fit.advantage, 0.0);
    const auto held = rate_games(text, {{"c", 100.0}}, false);
    EXPECT_EQ(held.fit.advantage, 0.0);
    EXPECT_EQ(held.fit.advantage_error, 0.0);
    ASSERT_EQ(held.fit.ratings.size(), 3u);
    EXPECT_DOUBLE_EQ(held.fit.ratings[2], 100.0);
    EXPECT_EQ(held.fit.errors[2], 0.0);
}

TEST(RatedGames, TheFileIsReadWholeOrSaysWhyNot) {
    testing::TempDir dir;
    const auto file = dir.path() / "g.csv";
    std::ofstream(file, std::ios::binary) << "a,b,1-0\r\nb,a,0-1\n";
    std::istringstream unused;
    EXPECT_EQ(read_games_text(file.string(), unused), "a,b,1-0\r\nb,a,0-1\n");
    std::istringstream input("white,black,result\n");
    EXPECT_EQ(read_games_text("-", input), "white,black,result\n");
    EXPECT_EQ(problem_of([&] { (void)read_games_text(dir.path().string(), unused); }),
              dir.path().string() + ": cannot read (Is a directory)");
    const std::string missing = (dir.path() / "none.csv").string();
    EXPECT_EQ(problem_of([&] { (void)read_games_text(missing, unused); }),
              missing + ": cannot read (No such file or directory)");
    std::istringstream broken;
    broken.setstate(std::ios::badbit);
    EXPECT_EQ(problem_of([&] { (void)read_games_text("-", broken); }), "<stdin>: cannot read");
}

// What rate_games throws for `text` and `anchors`; "" when nothing.
std::string fit_problem(const std::string& text, const std::vector<Anchor>& anchors = {}) {
    try {
        (void)rate_games(text, anchors, true);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

TEST(RateGames, RefusesNoGamesAnAnchorOnNoPlayerAndBadInput) {
    EXPECT_EQ(fit_problem("\n"), "no games");
    EXPECT_EQ(fit_problem("a,b,1-0\n", {{"z", 0.0}}), "no player 'z' to anchor on");
    EXPECT_EQ(fit_problem("a,b,3-0\n"),
              "line 1: unknown result '3-0' (expected 1-0, 0-1 or 1/2-1/2)");
    EXPECT_EQ(fit_problem("a,b,1-0\n", {{"a", 0.0}}), "");
}

}  // namespace
}  // namespace arena::rating
