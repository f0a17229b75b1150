// The commands as a library: arena::cli::dispatch runs a whole command line
// in the test's own process, with the output in the streams it is given and
// the exit status returned, as the `arena` executable does.

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/session/bot_host.hpp"
#include "proc_util.hpp"

namespace arena {
namespace {

struct Ran {
    int status = -1;
    std::string out, err;
};

Ran dispatch(const std::vector<std::string>& argv) {
    std::ostringstream out, err;
    Ran r;
    r.status = cli::dispatch(argv, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

TEST(CliInProcess, VersionAndUsage) {
    const auto version = dispatch({"--version"});
    EXPECT_EQ(version.status, cli::kExitOk);
    EXPECT_EQ(version.out, "arena 0.1.0 (protocol 1)\n");
    const auto none = dispatch({});
    EXPECT_EQ(none.status, cli::kExitUsage);
    EXPECT_NE(none.err.find("usage: arena <command>"), std::string::npos) << none.err;
    EXPECT_EQ(none.out, "");
}

TEST(CliInProcess, AMistypedCommandGetsASuggestion) {
    const auto r = dispatch({"standigns"});
    EXPECT_EQ(r.status, cli::kExitUsage);
    EXPECT_NE(r.err.find("unknown command 'standigns'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("standings"), std::string::npos) << r.err;
}

// The SPRT of given counts: a pure command, its figures in `out`.
TEST(CliInProcess, SprtOfCounts) {
    const auto r = dispatch({"sprt", "--elo0", "0", "--elo1", "10", "--wdl", "600,300,100"});
    EXPECT_EQ(r.status, cli::kExitOk) << r.err;
    EXPECT_NE(r.out.find("SPRT: H1 accepted\n"), std::string::npos) << r.out;
}

// A whole match, bots started from this process: its game lines and summary
// come back in `out`.
TEST(CliInProcess, AMatchOfTwoGames) {
    const auto r = dispatch({"match", "--game", "connect4", "--games", "2",
                             "a=" + testing::bin("bots/random") + " --seed 1",
                             "b=" + testing::bin("bots/random") + " --seed 2"});
    EXPECT_EQ(r.status, cli::kExitOk) << r.err;
    int games = 0;
    for (const auto& line : testing::lines_of(r.out))
        if (line.starts_with("game ")) ++games;
    EXPECT_EQ(games, 2) << r.out;
}

// A command that starts bots holds a session::BotHost while it runs them:
// commands one after another each start theirs afresh, and one started while
// another host is alive in the process is refused.
TEST(CliInProcess, OneBotHostAtATime) {
    const std::vector<std::string> match = {"match",
                                            "--game",
                                            "connect4",
                                            "--games",
                                            "2",
                                            "a=" + testing::bin("bots/random"),
                                            "b=" + testing::bin("bots/random") + " --seed 2"};
    for (int round = 0; round < 2; ++round) {
        const auto r = dispatch(match);
        EXPECT_EQ(r.status, cli::kExitOk) << round << "\n" << r.err;
    }
    session::BotHost held;
    EXPECT_THROW((void)dispatch(match), std::logic_error);
}

}  // namespace
}  // namespace arena
