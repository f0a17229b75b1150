// The bot templates of bots/examples/ (Python, JavaScript, Java, C++, Go),
// each as a user runs it: an `arena match` against the reference random bot
// under the default limits, judged through the results database, and a
// scripted transcript piped to the bot by hand, as bots/README.md shows.
//
// A template whose runtime is missing fails, naming the Debian package that
// scripts/setup installs: the templates are part of the product, so a
// machine that runs the tests has every runtime.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace {

namespace fs = std::filesystem;
using arena::testing::bin;
using arena::testing::lines_of;
using arena::testing::query;
using arena::testing::query_one;
using arena::testing::run_arena;
using arena::testing::scaled_ms;
using arena::testing::slurp;
using arena::testing::source;
using arena::testing::TempDir;

struct Template {
    std::string label;    // the test's name
    std::string command;  // how a user starts it, with absolute paths
    std::string runtime;  // the program it needs from PATH, or "" for none
    std::string built;    // a file the build makes, or "" for none
    std::string builder;  // what the build needs to make it
    std::string package;  // the Debian package that scripts/setup installs for it
};

void PrintTo(const Template& t, std::ostream* os) {
    *os << t.command;
}

std::string quoted(const std::string& path) {
    return "'" + path + "'";
}

std::vector<Template> templates() {
    return {
        {"python", "python3 " + quoted(source("bots/examples/random_bot.py")), "python3", "", "",
         "python3"},
        {"javascript", "node " + quoted(source("bots/examples/random_bot.js")), "node", "", "",
         "nodejs"},
        {"java", "java -cp " + quoted(bin("bots/examples")) + " RandomBot", "java",
         bin("bots/examples/RandomBot.class"), "a JDK (javac)", "default-jdk-headless"},
        {"cpp", quoted(bin("bots/examples/random_bot_cpp")), "",
         bin("bots/examples/random_bot_cpp"), "a C++ compiler", "g++"},
        {"go", quoted(bin("bots/examples/random_bot_go")), "", bin("bots/examples/random_bot_go"),
         "Go (go)", "golang-go"},
    };
}

// Whether `program` is an executable file in one of PATH's directories.
bool on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    }
    return false;
}

// Why the template cannot run here, or "" when it can.
std::string missing(const Template& t) {
    if (!t.runtime.empty() && !on_path(t.runtime)) {
        return "'" + t.runtime + "' is not installed (not found in PATH): scripts/setup installs " +
               "the Debian package " + t.package;
    }
    if (!t.built.empty() && !fs::exists(t.built)) {
        return t.built + " was not built: CMake found no " + t.builder +
               " when it configured this build: scripts/setup installs the Debian package " +
               t.package + " and configures and builds again";
    }
    return "";
}

class TemplateBot : public ::testing::TestWithParam<Template> {
  protected:
    void SetUp() override {
        if (const std::string why = missing(GetParam()); !why.empty())
            FAIL() << "the " << GetParam().label << " template cannot run: " << why;
    }
};

// Four games against `random` on boards with a blocked cell, at the default
// resource limits (no --memory-mb or other limit flags): the template plays
// every game to its end by the rules. The move and start-up limits are
// generous: a template answers at once, and only a loaded machine is slow.
TEST_P(TemplateBot, PlaysAMatchUnderTheDefaultLimits) {
    const TempDir dir("arena_templates");
    const fs::path db = dir.path() / "match.db";
    const auto r = run_arena(
        dir.path(), {"match", "--game", "connect4", "--variant", "tsinghua", "--seed", "7",
                     "--games", "4", "--move-ms", scaled_ms(2000), "--startup-ms", scaled_ms(20000),
                     "--db", db.string(), "template=" + GetParam().command + " --seed 3",
                     "random=" + bin("bots/random") + " --game connect4 --seed 4"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_FALSE(arena::testing::looks_like_a_crash(r.err)) << r.err;
    ASSERT_TRUE(fs::exists(db)) << r.out << r.err;

    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "4") << r.out << r.err;
    // Every game the template played ended by the rules: none by a failed
    // start-up, a crash, a protocol error, an illegal move or a timeout.
    for (const auto& row :
         query(db,
               "SELECT g.game_index + 1, g.termination, g.detail, "
               "coalesce((SELECT group_concat(l.stderr, '') FROM bot_logs l WHERE l.game = g.id "
               "AND l.side = CASE WHEN f.name = 'template' THEN 1 ELSE 2 END), '') "
               "FROM games g JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
               "WHERE 'template' IN (f.name, s.name) AND g.termination <> 'normal' "
               "ORDER BY g.game_index")) {
        ADD_FAILURE() << GetParam().label << " template, game " << row[0] << ": ended by " << row[1]
                      << " (" << row[2] << ")\nits stderr:\n"
                      << row[3];
    }
    EXPECT_EQ(query_one(db,
                        "SELECT count(*) FROM games g JOIN bots b ON b.id IN (g.first_bot, "
                        "g.second_bot) WHERE b.name = 'template' AND g.termination = 'normal'"),
              "4");
}

// What a bot says to a scripted input, piped to it by hand; the bot must
// exit by itself within a minute.
struct Transcript {
    int status = -1;
    std::vector<std::string> lines;  // its stdout
    std::string err;
};

Transcript transcript(const Template& t, const std::string& input) {
    const TempDir dir("arena_template_transcript");
    const std::string in = dir.write("in.txt", input);
    const std::string out = (dir.path() / "out.txt").string();
    const std::string err = (dir.path() / "err.txt").string();
    const std::string command = "timeout 60 " + t.command + " --seed 5 <" + quoted(in) + " >" +
                                quoted(out) + " 2>" + quoted(err);
    const int status = std::system(command.c_str());
    Transcript result;
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.lines = lines_of(slurp(out));
    result.err = slurp(err);
    return result;
}

// Column 1 is blocked from top to bottom, 2 is full, 3 is full above its
// blocked bottom cell, 6 has a blocked top cell: 4, 5 and 6 are playable.
constexpr const char* kBlockedGame =
    "game connect4 player=2 rows=5 cols=6 connect=4 blocked=1:1,1:2,1:3,1:4,1:5,3:1,6:5 "
    "move_ms=1000\n";
constexpr const char* kBlockedPosition = "position 2 2 2 2 2 3 3 3 3 4\n";

// The handshake, then twenty `go`s on a board with blocked cells (with a
// command the bot does not know among them), then a second game in the same
// process with one playable column, then `quit`: every answer is a legal
// column, each `go` gets exactly one move, and the bot exits with status 0.
TEST_P(TemplateBot, AnswersTheHandshakeAndPlaysLegalColumnsOnABlockedBoard) {
    std::string input = "arena 1\n";
    input += kBlockedGame;
    for (int i = 0; i < 20; ++i) {
        input += kBlockedPosition;
        if (i == 10) input += "ponder on\nhint move=3\n";  // not in protocol v1: ignored
        input += "go move_ms=1000\n";
    }
    input += "end win reason=normal\n";
    input += "game connect4 player=1 rows=4 cols=4 connect=4 move_ms=1000\n";
    input += "position 1 1 1 1 2 2 2 2 3 3 3 3\ngo move_ms=1000\nquit\n";
    const Transcript t = transcript(GetParam(), input);
    ASSERT_EQ(t.status, 0) << t.err;

    // The handshake: optional name/author/version, then `ready`.
    std::size_t i = 0;
    while (i < t.lines.size() && t.lines[i] != "ready") {
        const std::string keyword = t.lines[i].substr(0, t.lines[i].find(' '));
        EXPECT_TRUE(keyword == "name" || keyword == "author" || keyword == "version")
            << "during the handshake: '" << t.lines[i] << "'";
        ++i;
    }
    ASSERT_LT(i, t.lines.size()) << "no 'ready' line\n" << t.err;

    // After it: `info` lines and 21 moves, 20 of them in 4..6, the last one 4.
    std::vector<std::string> moves;
    for (++i; i < t.lines.size(); ++i) {
        if (t.lines[i].starts_with("info ")) continue;
        ASSERT_TRUE(t.lines[i].starts_with("move ")) << "not a reply: '" << t.lines[i] << "'";
        moves.push_back(t.lines[i].substr(5));
    }
    ASSERT_EQ(moves.size(), 21u) << t.err;
    const std::set<std::string> legal = {"4", "5", "6"};
    for (std::size_t m = 0; m < 20; ++m)
        EXPECT_TRUE(legal.contains(moves[m])) << "move " << moves[m] << " at go " << m + 1;
    EXPECT_EQ(moves[20], "4");
}

// End of input without `quit` (the arena has gone): the bot exits with status
// 0 by itself, after answering what it was asked.
TEST_P(TemplateBot, ExitsAtEndOfInput) {
    const Transcript t = transcript(GetParam(), std::string("arena 1\n") + kBlockedGame +
                                                    kBlockedPosition + "go move_ms=1000\n");
    EXPECT_EQ(t.status, 0) << t.err;
    ASSERT_FALSE(t.lines.empty()) << t.err;
    EXPECT_TRUE(t.lines.back() == "move 4" || t.lines.back() == "move 5" ||
                t.lines.back() == "move 6")
        << t.lines.back();
}

INSTANTIATE_TEST_SUITE_P(Templates, TemplateBot, ::testing::ValuesIn(templates()),
                         [](const auto& param_info) { return param_info.param.label; });

}  // namespace
