// End-to-end: the `arena` executable run as a user runs it.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "proc_util.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using arena::testing::slurp;

using arena::testing::bin;
using arena::testing::processes_with_arg;
using arena::testing::scaled_ms;
using arena::testing::source;
using arena::testing::survivors;
using arena::testing::unique_marker;

struct Run {
    int exit_code = -1;
    std::string out, err;
};

// Runs `arena <args>` through the shell (args are already quoted), with a
// hard limit so a hang fails the test instead of stalling it.
Run arena(const std::string& args) {
    const std::string base = ::testing::TempDir() + "cli_" + unique_marker();
    const std::string cmd =
        "timeout 300 " + bin("bin/arena") + " " + args + " >" + base + ".out 2>" + base + ".err";
    const int status = std::system(cmd.c_str());
    Run r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(base + ".out");
    r.err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    return r;
}

std::string random_bot(const std::string& name, int seed) {
    return "'" + name + "=" + bin("bots/random") + " --seed " + std::to_string(seed) + "'";
}

nlohmann::json json_of(const Run& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

void expect_consistent(const nlohmann::json& j, int games) {
    ASSERT_EQ(j["games"], games);
    ASSERT_EQ(j["bots"].size(), 2u);
    const auto& a = j["bots"][0];
    const auto& b = j["bots"][1];
    for (const auto& bot : {a, b}) {
        EXPECT_EQ(bot["wins"].get<int>() + bot["draws"].get<int>() + bot["losses"].get<int>(),
                  games);
    }
    EXPECT_EQ(a["wins"], b["losses"]);
    EXPECT_EQ(a["draws"], b["draws"]);
}

struct GameCase {
    std::string label, flags;
};

void PrintTo(const GameCase& c, std::ostream* os) {
    *os << c.flags;
}

class RandomMatch : public ::testing::TestWithParam<GameCase> {};

// Twenty games of each game between the random bots: every game ends by the
// rules and the summary adds up. The bots answer at once; the limit (scaled,
// see timing.hpp) only has to hold on a loaded machine.
TEST_P(RandomMatch, TwentyGamesEndByTheRules) {
    const auto r = arena("match " + GetParam().flags + " --games 20 --move-ms " + scaled_ms(500) +
                         " --json " + random_bot("a", 1) + " " + random_bot("b", 2));
    const auto j = json_of(r);
    expect_consistent(j, 20);
    for (const auto& bot : j["bots"]) {
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(bot[reason], 0) << reason << "\n" << r.err;
    }
    // One progress line per game on stderr when --json holds stdout.
    EXPECT_NE(r.err.find("game 20/20"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Games, RandomMatch,
                         ::testing::Values(GameCase{"connect4", "--game connect4"},
                                           GameCase{"tsinghua",
                                                    "--game connect4 --variant tsinghua --seed 5"},
                                           GameCase{"gomoku", "--game gomoku --size 15"},
                                           GameCase{"reversi", "--game reversi"}),
                         [](const auto& param_info) { return param_info.param.label; });

TEST(Cli, TextSummaryNamesEachBotWithItsScore) {
    const auto r =
        arena("match --game connect4 --games 4 --move-ms " + scaled_ms(1000) +
              " --random-plies 2 " + random_bot("alpha", 1) + " " + random_bot("beta", 2));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("game 1/4: alpha vs beta"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("game 2/4: beta vs alpha"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("score"), std::string::npos);
    EXPECT_NE(r.out.find("\nalpha "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nbeta "), std::string::npos) << r.out;
}

TEST(Cli, PythonExampleBotPlaysAFullMatch) {
    const auto r = arena("match --game connect4 --games 6 --move-ms " + scaled_ms(1000) +
                         " --json 'py=python3 " + source("bots/examples/random_bot.py") +
                         " --seed 3' " + random_bot("random", 4));
    const auto j = json_of(r);
    expect_consistent(j, 6);
    for (const auto& bot : j["bots"])
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(bot[reason], 0) << reason << "\n" << r.err;
}

TEST(Cli, PythonExampleBotHandlesBlockedCells) {
    const auto r = arena("match --game connect4 --variant tsinghua --seed 11 --games 4 --move-ms " +
                         scaled_ms(1000) + " --json 'py=python3 " +
                         source("bots/examples/random_bot.py") + "' " + random_bot("random", 4));
    const auto j = json_of(r);
    expect_consistent(j, 4);
    EXPECT_EQ(j["bots"][0]["illegal"], 0) << r.err;
}

struct Mode {
    std::string mode;
    std::string reason;  // the JSON key its losses must be counted under
};

void PrintTo(const Mode& m, std::ostream* os) {
    *os << m.mode;
}

class MisbehavingMatch : public ::testing::TestWithParam<Mode> {};

// Every misbehaviour loses both games with the right reason, and after the
// match no process the arena started is alive.
TEST_P(MisbehavingMatch, LosesWithTheRightReasonAndLeavesNothingBehind) {
    const auto marker = unique_marker();
    const auto r =
        // From the empty board: a suite's opening could leave a game too
        // short for a misbehaviour that comes after the bot's first move.
        arena("match --game connect4 --games 2 --openings none --move-ms " + scaled_ms(200) +
              " --startup-ms " + scaled_ms(1000) + " --json 'bad=" + bin("bots/misbehave") +
              " --seed " + marker + " --mode " + GetParam().mode + "' " + random_bot("good", 1));
    const auto j = json_of(r);
    expect_consistent(j, 2);
    EXPECT_EQ(j["bots"][0]["losses"], 2) << r.err;
    EXPECT_EQ(j["bots"][0][GetParam().reason], 2) << r.err;
    EXPECT_EQ(survivors(marker), std::vector<int>{});
}

INSTANTIATE_TEST_SUITE_P(
    Modes, MisbehavingMatch,
    ::testing::Values(Mode{"crash", "crash"}, Mode{"abort", "crash"}, Mode{"exit", "crash"},
                      Mode{"crash-after-move", "crash"}, Mode{"hang", "timeout"},
                      Mode{"no-newline", "timeout"}, Mode{"flood-info", "timeout"},
                      Mode{"illegal", "illegal"}, Mode{"bad-notation", "illegal"},
                      Mode{"garbage", "protocol"}, Mode{"endless-line", "protocol"},
                      Mode{"close-stdout", "crash"}, Mode{"handshake-exit", "startup"},
                      Mode{"handshake-hang", "startup"}),
    [](const auto& param_info) {
        std::string name = param_info.param.mode;
        for (auto& ch : name)
            if (ch == '-') ch = '_';
        return name;
    });

// Without real-time priority the clock is judged the same way.
TEST(Cli, NoRealtimeStillJudgesTimeouts) {
    const auto r = arena("match --game connect4 --games 2 --move-ms " + scaled_ms(200) +
                         " --no-realtime --json 'slow=" + bin("bots/misbehave") + " --mode hang' " +
                         random_bot("good", 1));
    const auto j = json_of(r);
    expect_consistent(j, 2);
    EXPECT_EQ(j["bots"][0]["timeout"], 2) << r.err;
}

TEST(Cli, ModesThatKeepPlayingLeaveNothingBehind) {
    for (const std::string mode : {"fork-child", "ignore-quit", "flood-stderr"}) {
        const auto marker = unique_marker();
        const auto r = arena("match --game connect4 --games 2 --move-ms " + scaled_ms(500) +
                             " --json 'bad=" + bin("bots/misbehave") + " --seed " + marker +
                             " --mode " + mode + " --flood-mb 8' " + random_bot("good", 1));
        const auto j = json_of(r);
        expect_consistent(j, 2);
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(j["bots"][0][reason], 0) << mode << " " << reason << "\n" << r.err;
        EXPECT_EQ(survivors(marker), std::vector<int>{}) << mode;
    }
}

TEST(Cli, BadArgumentsGiveOneClearMessage) {
    struct Case {
        std::string args, message;
    };
    const std::string two = random_bot("a", 1) + " " + random_bot("b", 2);
    for (const auto& c : std::vector<Case>{
             {two, "--game"},
             {"--game chess " + two, "chess"},
             {"--game connect4 --rows 20 " + two, "rows"},
             {"--game connect4 --size 9 " + two, "size"},
             {"--game connect4 --games 0 " + two, "--games"},
             {"--game connect4 --move-ms 0 " + two, "move_ms"},
             {"--game connect4 " + random_bot("a", 1), "two bots"},
             {"--game connect4 --bogus 1 " + two, "bogus"},
             {"--game connect4 'a=bot \"unclosed' " + random_bot("b", 2), "unbalanced"},
         }) {
        const auto r = arena("match " + c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

TEST(Cli, CommandThatCannotStartIsNamedWithTheOsError) {
    const auto r = arena("match --game connect4 --games 2 'ghost=/nonexistent/ghost-bot --x' " +
                         random_bot("b", 2));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("/nonexistent/ghost-bot"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("ghost"), std::string::npos) << r.err;
}

// `arena rate` on the reference games agrees with Ordo to within 0.5 Elo per
// player once both are aligned on their mean.
TEST(Cli, RateAgreesWithOrdoOnTheReferenceGames) {
    const auto r = arena("rate " + source("tests/data/ratings/sample-games.csv") + " --csv");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, double> ours, ordo;
    std::istringstream csv(r.out);
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line, "name,elo,error");
    while (std::getline(csv, line)) {
        const auto c1 = line.find(','), c2 = line.rfind(',');
        ASSERT_NE(c1, c2) << line;
        ours[line.substr(0, c1)] = std::stod(line.substr(c1 + 1, c2 - c1 - 1));
    }
    // "   1 Alpha      :   325.867   470.0     560  83.93"
    std::istringstream reference(slurp(source("tests/data/ratings/sample-ordo.txt")));
    while (std::getline(reference, line)) {
        std::istringstream words(line);
        std::string rank, name, colon;
        double rating = 0;
        if (words >> rank >> name >> colon >> rating && colon == ":" && rank != "#")
            ordo[name] = rating;
    }
    ASSERT_EQ(ordo.size(), 6u);
    ASSERT_EQ(ours.size(), ordo.size());
    double ours_mean = 0, ordo_mean = 0;
    for (const auto& [name, elo] : ordo) {
        ours_mean += ours.at(name) / 6.0;
        ordo_mean += elo / 6.0;
    }
    for (const auto& [name, elo] : ordo)
        EXPECT_NEAR(ours.at(name) - ours_mean, elo - ordo_mean, 0.5) << name;
}

TEST(Cli, RateNamesTheBadLine) {
    const std::string path = ::testing::TempDir() + "bad_" + unique_marker() + ".csv";
    std::ofstream(path) << "white,black,result\na,b,1-0\na,b,2-0\n";
    const auto r = arena("rate " + path);
    std::remove(path.c_str());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2-0"), std::string::npos) << r.err;
}

TEST(Cli, UnknownCommandAndHelp) {
    auto r = arena("frobnicate");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos);
    r = arena("match --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("--move-ms"), std::string::npos);
}

// Issue 41 item 11: a bot's move line and stderr hold terminal escapes (a
// window title, a colour). No text output lets them through raw: the game
// lines of `arena match`, the stored game list (`arena games`), `show` and
// `log`; each shows them as \xNN.
TEST(Cli, TerminalEscapesOfABotAreNeverPrintedRaw) {
    const std::string db = ::testing::TempDir() + "escape_" + unique_marker() + ".db";
    const auto raw = [](const std::string& text) {
        return text.find('\x1b') != std::string::npos || text.find('\x07') != std::string::npos;
    };
    const auto m =
        arena("match --game connect4 --games 2 --move-ms " + scaled_ms(1000) + " --db " + db + " " +
              random_bot("calm", 1) + " 'loud=" + bin("bots/misbehave") + " --mode escape-move'");
    ASSERT_EQ(m.exit_code, 0) << m.err;
    EXPECT_FALSE(raw(m.out)) << m.out;
    EXPECT_FALSE(raw(m.err)) << m.err;
    // The move text is shown, escaped, with the bot's stderr.
    EXPECT_NE(m.out.find("'\\x1b]0;TITLE\\x07\\x1b[1;31m'"), std::string::npos) << m.out;
    EXPECT_NE(m.out.find("loud's stderr: misbehave: \\x1b]0;TITLE"), std::string::npos) << m.out;
    for (const std::string& command :
         {"games --db " + db, "show " + db + " 1", "log " + db + " 1"}) {
        const auto r = arena(command);
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
        EXPECT_FALSE(raw(r.out)) << command << "\n" << r.out;
        EXPECT_FALSE(raw(r.err)) << command << "\n" << r.err;
        EXPECT_NE(r.out.find("\\x1b]0;TITLE"), std::string::npos) << command << "\n" << r.out;
    }
    std::remove(db.c_str());
}

// Issue 41 item 17: a stored game's line gives the number `arena games`
// lists and `show` and `log` take (its id), and only that one, as "#N";
// the count after it is progress.
TEST(Cli, StoredMatchGameLinesGiveTheIdThatShowTakes) {
    const std::string db = ::testing::TempDir() + "ids_" + unique_marker() + ".db";
    // A first match, so that the second one's ids differ from its places.
    ASSERT_EQ(arena("match --game connect4 --games 2 --db " + db + " " + random_bot("a", 1) + " " +
                    random_bot("b", 2))
                  .exit_code,
              0);
    const auto m = arena("match --game connect4 --games 2 --db " + db + " " +
                         random_bot("alpha", 3) + " " + random_bot("beta", 4));
    ASSERT_EQ(m.exit_code, 0) << m.err;
    EXPECT_NE(m.out.find("game #3 (1/2 stored): alpha vs beta"), std::string::npos) << m.out;
    EXPECT_NE(m.out.find("game #4 (2/2 stored): beta vs alpha"), std::string::npos) << m.out;
    const auto shown = arena("show " + db + " 4");
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    EXPECT_TRUE(shown.out.starts_with("game 4: beta (first) vs alpha")) << shown.out;
    std::remove(db.c_str());
}

// Issue 41 item 20: the memory figure of a strategy library says what it
// measures (the host's cgroup charge, or resident sets), not a bare "peak".
TEST(Cli, CheckBotSaysWhatItsMemoryFigureMeasures) {
    const auto r = arena("check-bot " + bin("bots/tsinghua/submissions/alice/strategy.so"));
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto at = r.out.find("memory: peak ");
    ASSERT_NE(at, std::string::npos) << r.out;
    const auto line = r.out.substr(at, r.out.find('\n', at) - at);
    EXPECT_TRUE(line.find("; measured: the memory charged to the bot's cgroup") !=
                    std::string::npos ||
                line.find("; measured: the sum of the resident sets") != std::string::npos)
        << line;
    EXPECT_NE(line.find("for arena-so-host with the strategy library loaded"), std::string::npos)
        << line;
}

}  // namespace
}  // namespace arena
