// Submissions from a folder: `bots_dir` makes one bot per subfolder from its
// bot.yaml (order, working directory, defaults, and the errors that name the
// manifest), and `check: true` makes `arena run` check each new or changed
// submission first: one that fails is reported with its log and left out,
// and enters as a late entrant once fixed, without a stored game changing.

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;
using testing::bin;
using testing::query;
using testing::query_one;

class Submissions : public ::testing::Test {
  protected:
    // A subfolder of the submissions folder with `manifest` as its bot.yaml
    // (none when empty).
    fs::path submit(const std::string& folder, const std::string& manifest) const {
        const fs::path dir = dir_.path() / "submissions" / folder;
        fs::create_directories(dir);
        if (!manifest.empty()) std::ofstream(dir / "bot.yaml", std::ios::trunc) << manifest;
        return dir;
    }
    [[nodiscard]] fs::path submissions() const { return dir_.path() / "submissions"; }

    // A config over the submissions folder; `more` at the end.
    [[nodiscard]] std::string config(const std::string& more = "") const {
        return "name: course\ngame: { name: connect4 }\ntime: { move_ms: " +
               std::to_string(testing::scaled(std::chrono::milliseconds{200}).count()) +
               " }\nschedule: { games_per_pair: 2 }\nseed: 3\nconcurrency: 2\n" +
               "database: " + (dir_.path() / "results" / "course.db").string() +
               "\nbots_dir: " + submissions().string() + "\n" + more;
    }

    static std::string random_manifest(int seed) {
        return "command: " + bin("bots/random") + " --seed " + std::to_string(seed) + "\n";
    }

    testing::TempDir dir_{"submissions_test"};
};

// ---- bots_dir and bot.yaml ---------------------------------------------------

TEST_F(Submissions, OneBotPerSubfolderInFolderNameOrderEachStartingInItsFolder) {
    submit("zeta", random_manifest(1));
    submit("alpha", "command: " + bin("bots/random") + "\nname: first\nauthor: Ada\n");
    submit("mid", "command: " + bin("bots/random") + "\nprotocol: arena1\n");
    submit("notes", "");  // no bot.yaml
    const auto c =
        parse_config(config("bots:\n  - { name: listed, command: " + bin("bots/random") + " }\n"),
                     "course.yaml");
    ASSERT_EQ(c.bots.size(), 4u);
    EXPECT_EQ(c.bots[0].name, "listed");
    EXPECT_TRUE(c.bots[0].manifest.empty());
    EXPECT_EQ(c.bots[1].name, "first");
    EXPECT_EQ(c.bots[1].author, "Ada");
    EXPECT_EQ(c.bots[1].dir, submissions() / "alpha");
    EXPECT_EQ(c.bots[1].manifest, submissions() / "alpha" / "bot.yaml");
    EXPECT_EQ(c.bots[2].name, "mid");  // the folder's name
    EXPECT_EQ(c.bots[3].name, "zeta");
    EXPECT_EQ(c.bots[3].argv, (std::vector<std::string>{bin("bots/random"), "--seed", "1"}));
    EXPECT_EQ(c.bots_dir, submissions());
    EXPECT_FALSE(c.check);
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_EQ(c.warnings[0], (submissions() / "notes").string() +
                                 ": warning: no bot.yaml in this folder of bots_dir; skipped");
}

TEST_F(Submissions, ACommandIsTakenFromTheSubmissionsFolder) {
    const auto dir = submit("local", "command: ./run.sh\n");
    { std::ofstream(dir / "run.sh") << "#!/bin/sh\nexec " << bin("bots/random") << "\n"; }
    fs::permissions(dir / "run.sh", fs::perms::owner_all);
    submit("other", random_manifest(2));
    const auto c = parse_config(config(), "course.yaml");
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(c.bots[0].executable, dir / "run.sh");
    EXPECT_FALSE(bot_sha256(c.bots[0]).empty());
}

// The message of the ConfigError parse_config throws.
std::string error_of(const std::string& text) {
    try {
        static_cast<void>(parse_config(text, "course.yaml"));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST_F(Submissions, BadManifestsAreNamedWithTheirLine) {
    submit("a", random_manifest(1));
    const auto b = submit("b", "command: " + bin("bots/random") + "\nautor: Bob\n");
    EXPECT_EQ(error_of(config()),
              (b / "bot.yaml").string() + ":2:1: unknown key 'autor' (did you mean 'author'?)");
    submit("b", "name: bee\n");
    EXPECT_EQ(error_of(config()),
              (b / "bot.yaml").string() + ":1:1: missing required key 'command'");
    submit("b", "command: ./nothing\n");
    EXPECT_NE(error_of(config()).find((b / "bot.yaml").string() +
                                      ":1:10: bot 'b': command './nothing' not found"),
              std::string::npos)
        << error_of(config());
    submit("b", "command: " + bin("bots/random") + "\nprotocol: gomocup\n");
    EXPECT_NE(error_of(config()).find((b / "bot.yaml").string() + ":2:11: bot 'b': "),
              std::string::npos)
        << error_of(config());
    submit("b", "- a list\n");
    EXPECT_NE(error_of(config()).find((b / "bot.yaml").string() + ":1:1: expected a map"),
              std::string::npos);
}

TEST_F(Submissions, DuplicateNamesAreRefusedNamingWhereTheFirstIs) {
    const auto a = submit("a", random_manifest(1));
    const auto b = submit("b", "command: " + bin("bots/random") + "\nname: a\n");
    EXPECT_EQ(error_of(config()), (b / "bot.yaml").string() +
                                      ":2:7: duplicate bot name 'a' (first defined in " +
                                      (a / "bot.yaml").string() + ":1)");
    submit("b", random_manifest(2));
    EXPECT_EQ(error_of(config("bots:\n  - { name: b, command: " + bin("bots/random") + " }\n")),
              (b / "bot.yaml").string() +
                  ":1:1: duplicate bot name 'b' (first defined at line 10 of course.yaml)");
}

TEST_F(Submissions, BotsDirNeedsTwoBotsAndCheckNeedsBotsDir) {
    submit("a", random_manifest(1));
    EXPECT_NE(error_of(config()).find("at least 2 bots are needed, got 1 (with those of "
                                      "'bots_dir')"),
              std::string::npos)
        << error_of(config());
    EXPECT_NE(
        error_of("name: x\ngame: { name: connect4 }\ncheck: true\nbots:\n  - { name: a, "
                 "command: " +
                 bin("bots/random") + " }\n  - { name: b, command: " + bin("bots/random") + " }\n")
            .find("course.yaml:3:8: 'check: true' checks the bots of 'bots_dir'"),
        std::string::npos);
    EXPECT_NE(error_of("name: x\ngame: { name: connect4 }\nbots_dir: " +
                       (dir_.path() / "none").string() + "\n")
                  .find("course.yaml:3:11: bots_dir '"),
              std::string::npos);
}

// ---- check: true -------------------------------------------------------------

// Ctrl-C while the submissions are checked: the check in progress stops
// after its current step, the run says that nothing was played and how to go
// on, and the checks already passed are remembered.
TEST_F(Submissions, CtrlCDuringTheChecksSaysSoAndKeepsWhatPassed) {
    submit("s1", random_manifest(1));
    // Thinks most of its time on every move: its checks take seconds.
    const std::string marker = testing::unique_marker();
    submit("s2", "command: " + bin("bots/misbehave") + " --mode sleep --sleep-ms " +
                     std::to_string(testing::scaled(std::chrono::milliseconds{150}).count()) +
                     " --seed " + marker + "\n");
    const std::string path = dir_.write("course.yaml", config("check: true\n"));
    const fs::path db = dir_.path() / "results" / "course.db";
    testing::ArenaProcess run(dir_.path(), {"run", path});
    const auto seen = [&](const std::string& text) {
        std::ifstream in(run.err_path());
        const std::string err{std::istreambuf_iterator<char>(in), {}};
        return err.find(text) != std::string::npos;
    };
    for (int i = 0; i < 600 && !seen("checking bot 's2'"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(seen("checking bot 's2'"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto asked = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(run.pid(), SIGINT), 0);
    const auto r = run.wait();
    EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(10));
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_NE(r.err.find("arena run: bot 's1' passes the checks"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("arena run: interrupted while checking bot 's2': nothing was played; "
                         "run the same command again to check the rest and play\n"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("FAILS"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_.path() / "results" / "course.s2.check.txt"));
    EXPECT_FALSE(fs::exists(db));
    std::stringstream table;
    table << std::ifstream(dir_.path() / "results" / "course.checked").rdbuf();
    EXPECT_NE(table.str().find("s1\t"), std::string::npos) << table.str();
    EXPECT_EQ(table.str().find("s2\t"), std::string::npos) << table.str();
    EXPECT_EQ(testing::survivors(marker), std::vector<int>{});
}

TEST_F(Submissions, AFailingSubmissionIsReportedAndEntersLateOnceFixed) {
    for (int i = 1; i <= 5; ++i)
        submit("s" + std::to_string(i), random_manifest(i));
    // Sends a move outside the board: check-bot fails it.
    submit("s6", "command: " + bin("bots/misbehave") + " --mode illegal\n");
    const std::string path = dir_.write("course.yaml", config("check: true\n"));
    const fs::path db = dir_.path() / "results" / "course.db";
    const fs::path log = dir_.path() / "results" / "course.s6.check.txt";

    auto r = testing::run_arena(dir_.path(), {"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    for (int i = 1; i <= 5; ++i)
        EXPECT_NE(r.err.find("arena run: bot 's" + std::to_string(i) + "' passes the checks"),
                  std::string::npos)
            << r.err;
    // One line, naming the checks that failed and the log file; the log
    // itself (a page or more) is in that file only (issue 41 item 19).
    EXPECT_EQ(r.err.find("FAIL plays as player 1"), std::string::npos) << r.err;
    const auto fails = r.err.find("arena run: bot 's6' FAILS the checks (failed: ");
    ASSERT_NE(fails, std::string::npos) << r.err;
    const auto line = r.err.substr(fails, r.err.find('\n', fails) - fails);
    EXPECT_NE(line.find("plays as player 1"), std::string::npos) << line;
    EXPECT_NE(line.find("does not play in this run"), std::string::npos) << line;
    EXPECT_NE(line.find("(its check log: " + log.string() + ")"), std::string::npos) << line;
    EXPECT_LE(std::count(r.err.begin(), r.err.end(), '\n'), 12) << r.err;
    ASSERT_TRUE(fs::exists(log));
    std::stringstream text;
    text << std::ifstream(log).rdbuf();
    EXPECT_NE(text.str().find("FAIL plays as player 1"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("--mode illegal"), std::string::npos);
    // Five are rated: a round-robin of 5 with 2 games a pair.
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM game_list"), "20");
    EXPECT_EQ(query(db, "SELECT name FROM bots ORDER BY name"),
              (testing::Rows{{"s1"}, {"s2"}, {"s3"}, {"s4"}, {"s5"}}));
    EXPECT_NE(r.out.find("s5"), std::string::npos);
    // s6 is not in the standings, but listed under them with its log.
    const auto left_out = r.out.find("\nleft out, failing the checks");
    ASSERT_NE(left_out, std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("s6"), r.out.find("\n  s6  (log: " + log.string() + ")\n") + 3) << r.out;
    EXPECT_GT(r.out.find("s6"), left_out) << r.out;
    const auto old_games = query(db, "SELECT * FROM games ORDER BY id");
    const auto old_moves = query(db, "SELECT * FROM moves ORDER BY game, ply");

    // Fixed: the next run checks only s6, which enters as a late entrant.
    submit("s6", random_manifest(6));
    r = testing::run_arena(dir_.path(), {"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("checking bot 's1'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("arena run: bot 's6' passes the checks"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("changes: bot 's6' enters. 10 new games in the schedule"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(log));
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM game_list"), "30");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM game_list WHERE first = 's6' OR second = 's6'"),
              "10");
    EXPECT_EQ(query(db, "SELECT * FROM games WHERE id <= 20 ORDER BY id"), old_games);
    EXPECT_EQ(query(db, "SELECT * FROM moves WHERE game <= 20 ORDER BY game, ply"), old_moves);
    EXPECT_NE(r.out.find("s6"), std::string::npos);
    EXPECT_EQ(r.out.find("left out"), std::string::npos) << r.out;

    // Nothing changed: nothing is checked, nothing played.
    r = testing::run_arena(dir_.path(), {"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("checking bot"), std::string::npos) << r.err;
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM game_list"), "30");
    // Where the passed programs are remembered.
    std::stringstream table;
    table << std::ifstream(dir_.path() / "results" / "course.checked").rdbuf();
    EXPECT_NE(table.str().find("s6\t"), std::string::npos) << table.str();

    // A changed command is checked again; a bot that played may still not
    // change its command (the tournament's fingerprint), as with `bots:`.
    submit("s2", random_manifest(22));
    r = testing::run_arena(dir_.path(), {"run", path});
    EXPECT_NE(r.err.find("checking bot 's2'"), std::string::npos) << r.err;
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("no longer matches tournament 'course'"), std::string::npos) << r.err;
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM game_list"), "30");
}

}  // namespace
}  // namespace arena::tournament
