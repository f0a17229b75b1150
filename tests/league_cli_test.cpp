// docs/league.md's commands, through the executable: `arena league user
// add`, `arena serve --league` (its start line, its refusals, --bind's TLS
// advice, a clean stop), an upload with `arena submit --wait` and the same
// with the documented curl line, each checked and put in play, and `arena
// league grades`.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::bin;
using testing::run_shell;
using testing::slurp;
using testing::source;

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

class LeagueCommands : public ::testing::Test {
  protected:
    void SetUp() override {
        config_ = dir_.write("course.yaml",
                             "name: course\ngame: { name: connect4 }\ntime: { move_ms: 1000 }\n"
                             "openings: { random_plies: 2 }\n"
                             "schedule: { type: round-robin, games_per_pair: 2 }\nconcurrency: 2\n"
                             "bots_dir: " +
                                 (dir_.path() / "subs").string() + "\ndatabase: " + db().string() +
                                 "\nleague: {}\nbots:\n  - { name: house, "
                                 "command: " +
                                 bin("bots/random") + " }\n");
        fs::copy_file(source("bots/examples/random_bot.py"), dir_.path() / "bot.py");
    }
    void TearDown() override {
        if (server_ > 0) ::kill(server_, SIGKILL);
    }
    fs::path db() const { return dir_.path() / "course.db"; }
    std::string arena() const { return quoted(bin("bin/arena")); }

    std::string add_user(const std::string& name) {
        const auto r =
            run_shell(arena() + " league user add " + quoted(config_.string()) + " " + name);
        EXPECT_EQ(r.status, 0) << r.out;
        std::smatch m;
        EXPECT_TRUE(std::regex_search(r.out, m, std::regex("token: (\\S+)"))) << r.out;
        return m.size() > 1 ? m[1].str() : "";
    }

    // Starts `arena serve --league` in the background; its base URL.
    std::string start(const std::string& more = "") {
        const auto r = run_shell("cd " + quoted(dir_.path().string()) + " && { " + arena() +
                                 " serve --league " + quoted(config_.string()) + " --port 0 " +
                                 more + " > serve.out 2> serve.err < /dev/null & } ; echo $!");
        server_ = std::stoi(r.out);
        const auto until = std::chrono::steady_clock::now() + 30s;
        std::smatch m;
        std::string out;
        while (std::chrono::steady_clock::now() < until) {
            out = slurp((dir_.path() / "serve.out").string());
            if (std::regex_search(out, m, std::regex("at (http://[0-9.]+:[0-9]+)/league"))) break;
            std::this_thread::sleep_for(20ms);
        }
        EXPECT_FALSE(m.empty()) << out << slurp((dir_.path() / "serve.err").string());
        return m.size() > 1 ? m[1].str() : "";
    }

    // SIGTERM: whether the server says it stopped (within 30 s). It is not
    // this process's child (the shell started it), so its status is not ours.
    bool stop() {
        ::kill(server_, SIGTERM);
        server_ = 0;
        const auto until = std::chrono::steady_clock::now() + 30s;
        while (std::chrono::steady_clock::now() < until) {
            if (slurp((dir_.path() / "serve.out").string()).find("arena serve: stopped") !=
                std::string::npos)
                return true;
            std::this_thread::sleep_for(20ms);
        }
        return false;
    }

    testing::TempDir dir_{"league_cli_test"};
    fs::path config_;
    pid_t server_ = 0;
};

TEST_F(LeagueCommands, SubmitAndCurlUploadAsDocumentedAndTheirVersionsPlay) {
    const auto alice = add_user("alice");
    const auto bob = add_user("bob");
    const auto base = start();
    ASSERT_FALSE(base.empty());
    EXPECT_NE(slurp((dir_.path() / "serve.out").string()).find("(2 participants)"),
              std::string::npos);
    (void)dir_.write("alice.token", alice + "\n");
    auto r = run_shell("cd " + quoted(dir_.path().string()) + " && " + arena() + " submit " + base +
                       " bot.py --token-file alice.token --wait");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("accepted bot.py as version 1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("passed its check"), std::string::npos) << r.out;
    // docs/league.md's curl line, as written but for the address and token.
    r = run_shell("cd " + quoted(dir_.path().string()) + " && export TOKEN=" + quoted(bob) +
                  " && curl -s --fail-with-body -H \"Authorization: Bearer $TOKEN\" --data-binary "
                  "@bot.py \"" +
                  base + "/api/league/upload?name=bot.py\"");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\"status\":\"checking\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"version\":1"), std::string::npos) << r.out;
    // Refused: the curl line exits non-zero with the server's error.
    r = run_shell("curl -s --fail-with-body --data-binary @/dev/null \"" + base +
                  "/api/league/upload?name=bot.py\"");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.out.find("\"error\""), std::string::npos) << r.out;
    // Both versions play: house, alice and bob, two games a pair.
    const auto until = std::chrono::steady_clock::now() + 90s;
    std::string games = "0";
    while (std::chrono::steady_clock::now() < until) {
        const auto rows = testing::query(db(), "SELECT count(*) FROM games");
        games = rows.empty() ? "0" : rows[0][0];
        if (games == "6") break;
        std::this_thread::sleep_for(100ms);
    }
    EXPECT_EQ(games, "6") << slurp((dir_.path() / "serve.err").string());
    EXPECT_TRUE(stop());
    r = run_shell(arena() + " league grades " + quoted(config_.string()));
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.rfind("rank,name,elo,error,games,wins,draws,losses,score,faults\r\n", 0), 0u)
        << r.out;
    for (const char* name : {",alice,", ",bob,", ",house,"})
        EXPECT_NE(r.out.find(name), std::string::npos) << r.out;
}

TEST_F(LeagueCommands, BindingBeyondLoopbackNeedsALeagueAndAdvisesTls) {
    run_shell(arena() + " league user add " + quoted(config_.string()) + " alice");
    auto r = run_shell(arena() + " serve " + quoted(db().string()) + " --bind 0.0.0.0 --port 0");
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("needs --league"), std::string::npos) << r.out;
    const auto base = start("--bind 0.0.0.0");
    ASSERT_FALSE(base.empty());
    EXPECT_NE(slurp((dir_.path() / "serve.err").string()).find("reverse proxy with TLS"),
              std::string::npos);
    EXPECT_TRUE(stop());
}

TEST_F(LeagueCommands, AConfigWithoutALeagueSectionIsRefused) {
    const auto plain = dir_.write(
        "plain.yaml",
        "name: p\ngame: { name: connect4 }\nbots_dir: " + (dir_.path() / "subs").string() +
            "\nbots:\n  - { name: a, command: " + bin("bots/random") +
            " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    fs::create_directories(dir_.path() / "subs");
    const auto r = run_shell(arena() + " serve --league " + quoted(plain) + " --port 0");
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("has no league: section"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace arena
