// Time odds and search limits, end to end through the arena binary: each bot
// plays under its own `time:` (and the stored move times show it), its
// depth and nodes ride on every `go` it is sent, the standings, the report
// and the exports say what each bot played under, and a resumed run or a
// merge that would mix games of other settings is refused, naming the bot.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::bin;
using testing::query;
using testing::Rows;
using testing::run_arena;

class Odds : public ::testing::Test {
  protected:
    // A round-robin of two bots `a` and `b` (their commands and their extra
    // keys as given) on Connect-4, stored in NAME.db one game after another
    // (so that game ids follow the schedule: a moves first in game 1).
    std::string config(const std::string& name, const std::string& a, const std::string& b,
                       const std::string& time = "{ move_ms: 200, tolerance_ms: 100 }",
                       int games_per_pair = 2) {
        return dir_.write(name + ".yaml",
                          "name: " + name + "\ngame: { name: connect4 }\ntime: " + time +
                              "\nschedule: { type: round-robin, games_per_pair: " +
                              std::to_string(games_per_pair) +
                              " }\nopenings: { random_plies: 2 }\nconcurrency: 1\ndatabase: " +
                              (dir_.path() / (name + ".db")).string() + "\nbots:\n  - { name: a, " +
                              a + " }\n  - { name: b, " + b + " }\n");
    }
    fs::path db(const std::string& name) const { return dir_.path() / (name + ".db"); }
    // Runs the arena in the test's folder.
    testing::ArenaResult arena(const std::vector<std::string>& args) const {
        testing::ArenaOptions options;
        options.cwd = dir_.path();
        return run_arena(dir_.path(), args, options);
    }

    testing::TempDir dir_{"odds_test"};
};

// The slowest move each bot made, in microseconds.
std::int64_t slowest_move(const fs::path& db, const std::string& bot) {
    const auto rows =
        query(db,
              "SELECT IFNULL(max(m.time_us), 0) FROM moves AS m JOIN games AS g ON "
              "g.id = m.game JOIN bots AS b ON b.id = CASE m.side WHEN 1 THEN "
              "g.first_bot ELSE g.second_bot END WHERE m.by_arena = 0 AND b.name = '" +
                  bot + "'");
    return std::stoll(rows.at(0).at(0));
}

// Two c4-alphabeta bots, which plan by move_ms: the one with 50 ms a move
// stays within 50 ms (plus tolerance), the one with 500 ms within 500 ms,
// and it does think longer than 50 ms. Each game keeps what each side played
// under, and the standings, the report and the exports say it.
TEST_F(Odds, EachBotPlaysUnderItsOwnTimeControl) {
    const std::string alphabeta = "command: " + bin("bots/c4-alphabeta");
    const auto path = config("odds", alphabeta + ", time: { move_ms: 50 }",
                             alphabeta + ", time: { move_ms: 500 }");
    const auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    // Both games played to their end (a generous tolerance: a loaded machine
    // is no reason to lose on time here).
    EXPECT_EQ(query(db("odds"),
                    "SELECT count(*), group_concat(detail) FROM games WHERE "
                    "termination = 'normal'"),
              (Rows{{"2", ","}}))
        << query(db("odds"), "SELECT detail FROM games").at(0).at(0);
    const std::int64_t tolerance_us = 100'000;
    const auto fast = slowest_move(db("odds"), "a");
    const auto slow = slowest_move(db("odds"), "b");
    EXPECT_GT(fast, 0);
    EXPECT_LE(fast, 50'000 + tolerance_us);
    EXPECT_LE(slow, 500'000 + tolerance_us);
    EXPECT_GT(slow, 50'000) << "the bot with 500 ms a move never thought longer than 50 ms";
    // Each game, each side: what it played under.
    EXPECT_EQ(query(db("odds"),
                    "SELECT f.name, g.first_control, s.name, g.second_control FROM games AS g "
                    "JOIN bots AS f ON f.id = g.first_bot JOIN bots AS s ON s.id = g.second_bot "
                    "ORDER BY g.game_index"),
              (Rows{{"a", "move_ms=50 tolerance_ms=100", "b", "move_ms=500 tolerance_ms=100"},
                    {"b", "move_ms=500 tolerance_ms=100", "a", "move_ms=50 tolerance_ms=100"}}));

    const auto standings = arena({"standings", db("odds").string()});
    ASSERT_EQ(standings.status, 0) << standings.err;
    EXPECT_NE(standings.out.find("\ntime odds: a 50 ms/move, b 500 ms/move\n"), std::string::npos)
        << standings.out;
    EXPECT_EQ(standings.out.find("search limits:"), std::string::npos) << standings.out;

    const auto show = arena({"show", db("odds").string(), "1"});
    EXPECT_NE(show.out.find("\nplayed under: a move_ms=50 tolerance_ms=100, b move_ms=500 "
                            "tolerance_ms=100\n"),
              std::string::npos)
        << show.out;

    const auto report = dir_.path() / "odds.html";
    ASSERT_EQ(arena({"report", db("odds").string(), "-o", report.string()}).status, 0);
    std::ifstream in(report);
    const std::string html{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NE(html.find("<p class=\"note\" id=\"odds\">time odds: a 50 ms/move, b 500 ms/move</p>"),
              std::string::npos);

    const auto pgn = arena({"export", db("odds").string(), "-f", "pgn"});
    ASSERT_EQ(pgn.status, 0) << pgn.err;
    EXPECT_NE(pgn.out.find("[White \"a\"]\n[Black \"b\"]"), std::string::npos) << pgn.out;
    EXPECT_NE(pgn.out.find("[WhiteControl \"move_ms=50 tolerance_ms=100\"]\n[BlackControl "
                           "\"move_ms=500 tolerance_ms=100\"]"),
              std::string::npos)
        << pgn.out;
    const auto csv = arena({"export", db("odds").string(), "-f", "csv"});
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_NE(csv.out.find(",first_control,second_control\n"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find(",move_ms=500 tolerance_ms=100,move_ms=50 tolerance_ms=100\n"),
              std::string::npos)
        << csv.out;
}

// The `go` lines of each bot in the transcript.
std::vector<std::string> go_lines(const std::string& transcript) {
    std::vector<std::string> lines;
    std::istringstream in(transcript);
    for (std::string line; std::getline(in, line);)
        if (line.find(" -> go ") != std::string::npos) lines.push_back(line);
    return lines;
}

// arena match --depth1/--depth2 (and --nodes): every `go` to BOT1 carries
// its depth, every `go` to BOT2 its own, whichever colour each has; the
// per-side time options give each its own move_ms.
TEST_F(Odds, ArenaMatchPutsEachSidesLimitsOnEveryGo) {
    const auto match_db = (dir_.path() / "match.db").string();
    const std::vector<std::string> args{"match",
                                        "--game",
                                        "connect4",
                                        "--games",
                                        "2",
                                        "--openings",
                                        "none",
                                        "--move-ms",
                                        "1000",
                                        "--move-ms2",
                                        "700",
                                        "--depth1",
                                        "2",
                                        "--depth2",
                                        "8",
                                        "--nodes2",
                                        "5000",
                                        "--db",
                                        match_db,
                                        "--transcript",
                                        "a=" + bin("bots/random"),
                                        "b=" + bin("bots/random")};
    const auto r = arena(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows =
        query(match_db,
              "SELECT b.name, t.lines FROM transcripts AS t JOIN games AS g ON g.id = "
              "t.game JOIN bots AS b ON b.id = CASE t.side WHEN 1 THEN g.first_bot "
              "ELSE g.second_bot END ORDER BY g.id, t.side");
    ASSERT_EQ(rows.size(), 4u);
    int checked = 0;
    for (const auto& row : rows) {
        const bool a = row[0] == "a";
        const auto gos = go_lines(row[1]);
        EXPECT_FALSE(gos.empty()) << row[1];
        for (const auto& go : gos) {
            ++checked;
            EXPECT_TRUE(go.ends_with(a ? " -> go move_ms=1000 depth=2"
                                       : " -> go move_ms=700 depth=8 nodes=5000"))
                << row[0] << ": " << go;
        }
        // Its `game` line tells its own time.
        EXPECT_NE(row[1].find(a ? " move_ms=1000\n" : " move_ms=700\n"), std::string::npos)
            << row[1];
    }
    EXPECT_GT(checked, 4);
    const auto standings = arena({"standings", match_db});
    EXPECT_NE(standings.out.find("\ntime odds: a 1000 ms/move, b 700 ms/move\n"
                                 "search limits: a depth 2, b depth 8, 5000 nodes\n"),
              std::string::npos)
        << standings.out;
    // A bad value is refused before any game, naming the option.
    const auto zero = arena(
        {"match", "--game", "connect4", "--depth1", "0", bin("bots/random"), bin("bots/random")});
    EXPECT_EQ(zero.status, 2);
    EXPECT_NE(zero.err.find("--depth1 must be positive, got 0"), std::string::npos) << zero.err;
    const auto help = arena({"match", "--help"});
    for (const char* option : {"--move-ms1", "--move-ms2", "--tolerance-ms1", "--game-ms2",
                               "--inc-ms1", "--depth1", "--depth2", "--nodes1", "--nodes2"})
        EXPECT_NE(help.out.find(option), std::string::npos) << option;
}

// A stored tournament whose bot's own time or depth has changed in the
// config is not resumed: the message names the bot and what changed.
TEST_F(Odds, ResumeRefusesAChangedTimeOrDepthNamingTheBot) {
    const std::string random = "command: " + bin("bots/random");
    const auto first = config("resume", random + ", time: { move_ms: 50 }, depth: 3", random);
    ASSERT_EQ(arena({"run", first}).status, 0);
    // The same settings again: nothing to refuse.
    EXPECT_EQ(arena({"run", first}).status, 0);
    const auto slower = config("resume", random + ", time: { move_ms: 60 }, depth: 3", random);
    const auto refused = arena({"run", slower});
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("bot 'a': its time control or search limits changed since the "
                               "tournament started (was 'time: move_ms=50 tolerance_ms=100 "
                               "game_ms=0 inc_ms=0 depth=3', now 'time: move_ms=60 "
                               "tolerance_ms=100 game_ms=0 inc_ms=0 depth=3')"),
              std::string::npos)
        << refused.err;
    const auto deeper = config("resume", random + ", time: { move_ms: 50 }, depth: 4", random);
    const auto refused_depth = arena({"run", deeper});
    EXPECT_EQ(refused_depth.status, 2);
    EXPECT_NE(refused_depth.err.find("bot 'a': its time control or search limits changed"),
              std::string::npos)
        << refused_depth.err;
    const auto plain = config("resume", random, random);
    const auto refused_plain = arena({"run", plain});
    EXPECT_EQ(refused_plain.status, 2);
    EXPECT_NE(refused_plain.err.find("now the tournament's time, no search limits)"),
              std::string::npos)
        << refused_plain.err;
    EXPECT_EQ(query(db("resume"), "SELECT count(*) FROM games"), (Rows{{"2"}}));
}

// The shards of one tournament merge; a shard whose bot played under another
// time is refused, the message naming the bot's line in each.
TEST_F(Odds, MergeRefusesDatabasesWhoseBotsTimesDiffer) {
    const std::string random = "command: " + bin("bots/random");
    const std::string time = "{ move_ms: 200, tolerance_ms: 25 }";
    const auto one = config("m", random + ", time: { move_ms: 50 }", random, time, 4);
    for (const char* shard : {"1/2", "2/2"}) {
        const auto r =
            arena({"run", one, "--shard", shard, "--db", shard[0] == '1' ? "one.db" : "two.db"});
        ASSERT_EQ(r.status, 0) << r.err;
    }
    const auto other = config("m", random + ", time: { move_ms: 80 }", random, time, 4);
    ASSERT_EQ(arena({"run", other, "--shard", "2/2", "--db", "other.db"}).status, 0);
    const auto refused = arena({"merge", "out.db", "one.db", "other.db"});
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.err.find("its fingerprint differs: 'bot a: "), std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("time: move_ms=50 "), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("time: move_ms=80 "), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(dir_.path() / "out.db"));
    // The shards of the same settings merge.
    const auto merged = arena({"merge", "out.db", "one.db", "two.db"});
    EXPECT_EQ(merged.status, 0) << merged.err;
    EXPECT_EQ(query(dir_.path() / "out.db", "SELECT count(*) FROM games"), (Rows{{"4"}}));
}

}  // namespace
}  // namespace arena
