// The search limits of `go` (depth=<n>, nodes=<n>; protocol/PROTOCOL.md,
// section 4) in every reference bot that searches, through its real
// protocol loop: depth=1 answers at once, far within move_ms; depth=N stops
// the iterations at N (the depth of the bot's last `info` line); nodes=N
// bounds the nodes it reports (simulations for the Monte Carlo bots); and
// the same position and depth give the same move in several processes run
// at once (a loaded machine).

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "proc_util.hpp"
#include "protocol/codec.hpp"
#include "timing.hpp"

namespace {

using arena::testing::bin;
using arena::testing::lines_of;
using arena::testing::run_shell;

struct Answer {
    int status = -1;
    std::string move;                          // the `move` line's move
    std::optional<std::int64_t> depth, nodes;  // of the last `info` line that has them
    std::chrono::milliseconds took{};          // the whole run: start-up, the move, quit
    std::string out;
};

// Runs `bot` on one `go` in `position` of `game_line`, its output read
// after `quit`.
Answer ask(const std::string& bot, const std::string& game_line, const std::string& moves,
           const std::string& go) {
    const std::string script =
        "arena 1\\n" + game_line + "\\nposition " + moves + "\\n" + go + "\\nquit\\n";
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_shell("printf '" + script + "' | " + bin("bots/" + bot));
    Answer a;
    a.took = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - t0);
    a.status = r.status;
    a.out = r.out;
    for (const auto& line : lines_of(r.out)) {
        if (line.rfind("move ", 0) == 0) a.move = line.substr(5);
        if (line.rfind("info ", 0) != 0) continue;
        if (const auto d = arena::protocol::info_value(line, "depth")) a.depth = d;
        if (const auto n = arena::protocol::info_value(line, "nodes")) a.nodes = n;
    }
    return a;
}

struct Case {
    std::string label;
    std::string bot;
    std::string game_line;
    std::string moves;
    int deep = 0;                   // a depth it reaches within a second (0: depth not honoured)
    std::int64_t nodes = 0;         // a node limit
    std::string counted = "nodes";  // the info key that counts them
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.label;
}

const std::string kConnect4 = "game connect4 player=1 rows=6 cols=7 connect=4";
const std::string kGomoku = "game gomoku player=1 size=15 rule=freestyle";
const std::string kReversi = "game reversi player=1";
// Middle-game positions that no bot proves within the depths below.
const std::string kC4Moves = "4 4 3 5 4 3";
const std::string kGomokuMoves = "h8 i9 g9 i7";
const std::string kReversiMoves = "f5 d6 c3 d3 c4 f4";

std::vector<Case> cases() {
    return {
        {"c4_alphabeta", "c4-alphabeta", kConnect4, kC4Moves, 8, 5000},
        {"c4_solver", "c4-solver", kConnect4, kC4Moves, 8, 5000},
        {"c4_features", "c4-features", kConnect4, kC4Moves, 2, 0},
        {"c4_mcts", "c4-mcts", kConnect4, kC4Moves, 0, 2000},
        {"c4_pro", "c4-pro", kConnect4, kC4Moves, 0, 2000},
        {"gomoku_minimax", "gomoku-minimax", kGomoku, kGomokuMoves, 2, 300},
        {"gomoku_alphabeta", "gomoku-alphabeta", kGomoku, kGomokuMoves, 4, 3000},
        // nodes= bounds their alpha-beta only, not the threat searches their
        // info lines count too.
        {"gomoku_vcf", "gomoku-vcf", kGomoku, kGomokuMoves, 4, 0},
        {"gomoku_pro", "gomoku-pro", kGomoku, kGomokuMoves, 4, 0},
        {"reversi_alphabeta", "reversi-alphabeta", kReversi, kReversiMoves, 7, 5000},
        {"reversi_pro", "reversi-pro", kReversi, kReversiMoves, 7, 5000},
        {"reversi_mcts", "reversi-mcts", kReversi, kReversiMoves, 0, 2000, "simulations"},
    };
}

// Far more than any of these searches takes, far less than the move time:
// a bot that ignored the limit would run for most of kMoveMs.
constexpr int kMoveMs = 20000;
std::chrono::milliseconds quick() {
    return arena::testing::scaled(std::chrono::milliseconds(3000));
}

std::string go(const std::string& limit) {
    return "go move_ms=" + std::to_string(kMoveMs) + " " + limit;
}

class SearchLimits : public ::testing::TestWithParam<Case> {};

TEST_P(SearchLimits, DepthOneAnswersAtOnce) {
    const Case& c = GetParam();
    if (c.deep == 0) GTEST_SKIP() << c.bot << " does not honour depth";
    const Answer a = ask(c.bot, c.game_line, c.moves, go("depth=1"));
    ASSERT_EQ(a.status, 0) << a.out;
    EXPECT_FALSE(a.move.empty()) << a.out;
    EXPECT_LT(a.took, quick()) << a.out;
    ASSERT_TRUE(a.depth) << a.out;
    EXPECT_EQ(*a.depth, 1) << a.out;
}

TEST_P(SearchLimits, DepthStopsTheIterations) {
    const Case& c = GetParam();
    if (c.deep == 0) GTEST_SKIP() << c.bot << " does not honour depth";
    const Answer a = ask(c.bot, c.game_line, c.moves, go("depth=" + std::to_string(c.deep)));
    ASSERT_EQ(a.status, 0) << a.out;
    EXPECT_LT(a.took, quick()) << a.out;
    ASSERT_TRUE(a.depth) << a.out;
    EXPECT_EQ(*a.depth, c.deep) << a.out;
}

TEST_P(SearchLimits, NodesBoundTheSearch) {
    const Case& c = GetParam();
    if (c.nodes == 0) GTEST_SKIP() << c.bot << " does not honour nodes";
    const Answer a = ask(c.bot, c.game_line, c.moves, go("nodes=" + std::to_string(c.nodes)));
    ASSERT_EQ(a.status, 0) << a.out;
    EXPECT_LT(a.took, quick()) << a.out;
    std::optional<std::int64_t> counted = a.nodes;
    if (c.counted != "nodes") {
        counted.reset();
        for (const auto& line : lines_of(a.out))
            if (const auto v = arena::protocol::info_value(line, c.counted)) counted = v;
    }
    ASSERT_TRUE(counted) << a.out;
    // About n: a bot may finish the node (its move list) it is in.
    EXPECT_LE(*counted, c.nodes + c.nodes / 10) << a.out;
    EXPECT_GE(*counted, c.nodes / 4) << a.out;  // it searched, and did not stop at once
}

// Four processes at once on the same position and depth: one move.
TEST_P(SearchLimits, DepthGivesTheSameMoveUnderLoad) {
    const Case& c = GetParam();
    const std::string limit =
        c.deep > 0 ? "depth=" + std::to_string(c.deep) : "nodes=" + std::to_string(c.nodes);
    if (c.deep == 0 && c.nodes == 0) GTEST_SKIP();
    const std::string script =
        "arena 1\\n" + c.game_line + "\\nposition " + c.moves + "\\n" + go(limit) + "\\nquit\\n";
    const std::string one = "printf '" + script + "' | " + bin("bots/" + c.bot) + " | grep '^move'";
    const auto r = run_shell("(" + one + ") & (" + one + ") & (" + one + ") & (" + one + "); wait");
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    for (const auto& line : lines)
        EXPECT_EQ(line, lines.front()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Bots, SearchLimits, ::testing::ValuesIn(cases()),
                         [](const auto& p) { return p.param.label; });

// Without limits nothing changes: c4-alphabeta --depth 8 (the fixed depth
// its bench uses) plays the move of `go depth=8`.
TEST(SearchLimitsC4, GoDepthPlaysAsTheDepthFlag) {
    const Answer by_go = ask("c4-alphabeta", kConnect4, kC4Moves, go("depth=8"));
    const std::string script =
        "arena 1\\n" + kConnect4 + "\\nposition " + kC4Moves + "\\n" + go("") + "\\nquit\\n";
    const auto r = run_shell("printf '" + script + "' | " + bin("bots/c4-alphabeta") +
                             " --depth 8 | grep '^move'");
    EXPECT_EQ("move " + by_go.move + "\n", r.out);
}

}  // namespace
