// c4-pro, the Connect-4 engine for large and irregular boards: tactics (win,
// block, never under a threat), exact play where the solver proves the
// position (checked against Pons' scores), legal play on tsinghua boards with
// a blocked cell, and answers within the time budget.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/connect4.hpp"
#include "bots/connect4/exact.hpp"
#include "bots/connect4/pro.hpp"
#include "connect4_moves.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::c4 {
namespace {

using arena::testing::config;
using arena::testing::play;
using arena::testing::slurp;
using games::Connect4Config;
using games::Connect4Game;
using games::Connect4State;
using testing::bin;
using testing::source;

std::unique_ptr<Connect4Engine> small_engine(std::int64_t simulations = 0) {
    return make_pro_engine(
        {.simulations = simulations, .seed = 5, .log2_nodes = 18, .log2_exact = 16, .reuse = true});
}

const protocol::Go kGo300{
    .move_ms = 300, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
const protocol::Go kFixed{
    .move_ms = 0, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};

// The 1-based column the engine plays in `moves` on `board`.
int answer(Connect4Engine& engine, const Connect4Config& board, const std::string& moves,
           const protocol::Go& go = kGo300, std::string* last = nullptr) {
    const Connect4Game game(board);
    const auto state = play(game, moves);
    engine.new_game(game, state->current_player());
    std::string line;
    const int move = engine.choose(*state, go, [&](std::string_view l) { line = l; });
    EXPECT_TRUE(state->is_legal(move)) << moves;
    if (last != nullptr) *last = line;
    return move + 1;
}

const Connect4Config kStandard = config(6, 7, 4);
const Connect4Config kTsinghua = config(11, 12, 4, {{5, 0}});

// A position on a board and the 1-based column the engine must play.
struct Expected {
    const Connect4Config& board;
    const char* moves;
    int col;
};

void expect_answers(std::initializer_list<Expected> cases) {
    auto engine = small_engine();
    for (const Expected& c : cases)
        EXPECT_EQ(answer(*engine, c.board, c.moves), c.col) << c.board.rows << ": " << c.moves;
}

TEST(C4Pro, WinsInOne) {
    expect_answers({{kStandard, "1 1 2 2 3 3", 4},
                    {kStandard, "1 2 1 2 1 2", 1},
                    {kTsinghua, "10 10 11 11 12 12", 9},
                    // The second player's column comes before the first
                    // player's threat.
                    {kTsinghua, "1 3 1 3 1 3 5", 3}});
}

TEST(C4Pro, BlocksInOne) {
    expect_answers({{kStandard, "1 1 2 2 3", 4},
                    {kStandard, "1 2 1 2 1", 1},
                    {kTsinghua, "10 10 11 11 12", 9},
                    {kTsinghua, "3 4 3 4 3", 3}});
}

// Player 1 holds columns 2..4 of row 2 (row 1: 2, 1, 2), columns 1 and 5
// are empty:
// a stone in column 1 or 5 lets it win just above, so player 2 never
// plays there, with a full search or with a few simulations.
TEST(C4Pro, NeverPlaysUnderAThreat) {
    for (const std::int64_t sims : {std::int64_t{0}, std::int64_t{50}}) {
        auto engine = small_engine(sims);
        for (const auto& board : {kStandard, kTsinghua}) {
            const int move = answer(*engine, board, "3 2 2 4 4 7 3", sims > 0 ? kFixed : kGo300);
            EXPECT_NE(move, 1) << board.rows;
            EXPECT_NE(move, 5) << board.rows;
        }
    }
}

// A win by threats, six plies deep (column 1 forces the block in column 2,
// column 2 forces the block in column 1, column 3 makes two threats): the
// threat search on expanding the root finds it with a single simulation.
TEST(C4Pro, FindsAWinByThreats) {
    auto engine = small_engine(1);
    std::string last;
    const Connect4Config board = config(9, 10, 4, {{5, 6}});
    EXPECT_EQ(answer(*engine, board, "4 9 3 5 3 5 4 4", kFixed, &last), 1);
    EXPECT_NE(last.find("score 10000"), std::string::npos) << last;
    // The defence: the second player, a move earlier, sees which moves lose.
    auto defender = small_engine(2000);
    EXPECT_NE(answer(*defender, board, "4 9 3 5 3 5 4", kFixed), 4);
}

// Where the position is proven in time, the move keeps its exact value:
// checked by the exact solver on the position after it (Pons' end-game set).
TEST(C4Pro, ProvenMovesKeepTheExactScore) {
    std::ifstream in(source("tests/data/connect4/Test_L3_R1_50"));
    ASSERT_TRUE(in);
    const Geometry g;
    const Masks<std::uint64_t> m(g);
    ExactTable table(18);
    auto engine = small_engine();
    std::string seq;
    int expected = 0;
    int checked = 0;
    for (int i = 0; i < 12 && in >> seq >> expected; ++i) {
        std::string moves;
        for (const char ch : seq)
            moves += std::string(1, ch) + " ";
        const int col = answer(*engine, kStandard, moves) - 1;
        Board<std::uint64_t> b(g, m);
        for (const char ch : seq)
            b.play(ch - '1');
        if (expected > 0 && b.is_winning_move(col)) {
            ++checked;
            continue;
        }
        b.play(col);
        table.clear();
        ExactSolver<std::uint64_t> solver(b, table);
        const ExactResult after = solver.solve(true);
        ASSERT_TRUE(after.complete);
        // The opponent's value after the move: a win for us (> 0) stays a
        // win, a draw stays at least a draw.
        if (expected > 0) {
            EXPECT_LT(after.hi, 0) << seq;
        } else if (expected == 0) {
            EXPECT_LE(after.hi, 0) << seq;
        }
        ++checked;
    }
    EXPECT_EQ(checked, 12);
}

// The tree alone (no root proof with fixed simulations) proves a short end
// game through the MCTS-solver and reports the win.
TEST(C4Pro, TreeProvesAWinNearTheEnd) {
    auto engine = small_engine(4000);
    // The second line of Pons' end-game set: the side to move wins.
    std::ifstream in(source("tests/data/connect4/Test_L3_R1_50"));
    std::string seq;
    int expected = 0;
    while (in >> seq >> expected && expected <= 0) {
    }
    ASSERT_GT(expected, 0);
    std::string moves;
    for (const char ch : seq)
        moves += std::string(1, ch) + " ";
    std::string last;
    const int col = answer(*engine, kStandard, moves, kFixed, &last) - 1;
    const Geometry g;
    const Masks<std::uint64_t> m(g);
    Board<std::uint64_t> b(g, m);
    for (const char ch : seq)
        b.play(ch - '1');
    if (!b.is_winning_move(col)) {
        b.play(col);
        ExactTable table(16);
        ExactSolver<std::uint64_t> solver(b, table);
        EXPECT_LT(solver.solve(true).hi, 0) << seq << ": " << last;
    }
}

// Fixed simulations and the same seed: the same move and the same counts.
TEST(C4Pro, IsDeterministicWithFixedSimulations) {
    std::vector<std::string> lines;
    for (int run = 0; run < 2; ++run) {
        auto engine = small_engine(1500);
        std::string last;
        (void)answer(*engine, kTsinghua, "6 7 6", kFixed, &last);
        lines.push_back(last);
    }
    EXPECT_EQ(lines[0], lines[1]);
}

// Whole games on seeded tsinghua boards against random safe moves: every
// move is legal, and the engine does not lose.
TEST(C4Pro, PlaysLegalGamesOnTsinghuaBoards) {
    std::mt19937_64 rng(3);
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const Connect4Config board = games::tsinghua_config(seed);
        ASSERT_EQ(board.blocked.size(), 1u);
        const Connect4Game game(board);
        auto engine = small_engine(150);
        const int pro = static_cast<int>(seed % 2) + 1;
        auto state = game.new_initial_state();
        engine->new_game(game, pro);
        while (!state->is_over()) {
            int move = 0;
            if (state->current_player() == pro) {
                move = engine->choose(dynamic_cast<const Connect4State&>(*state), kFixed,
                                      [](std::string_view) {});
            } else {
                const auto legal = state->legal_moves();
                move = legal[rng() % legal.size()];
            }
            ASSERT_TRUE(state->is_legal(move)) << seed << " ply " << state->ply();
            state->apply(move);
        }
        EXPECT_EQ(state->outcome(), pro == 1 ? games::Outcome::kWin1 : games::Outcome::kWin2)
            << seed;
    }
}

// A 100 ms budget is kept with room to spare (generous: the machine may be
// loaded), on the largest tsinghua board near its start, where nothing is
// proven and the search runs to the clock.
TEST(C4Pro, AnswersWithinTheBudget) {
    auto engine = small_engine();
    const protocol::Go go{
        .move_ms = 100, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
    const auto start = std::chrono::steady_clock::now();
    (void)answer(*engine, config(12, 12, 4, {{6, 3}}), "7 6", go);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    EXPECT_LT(ms, testing::scaled(std::chrono::milliseconds(1000)));
}

// Through the arena, on tsinghua boards: no time-outs, crashes or illegal
// moves against c4-mcts at a short limit.
TEST(C4Pro, PlaysThroughTheArena) {
    const std::string base = ::testing::TempDir() + "c4pro_" + testing::unique_marker();
    const std::string cmd = "timeout 300 " + bin("bin/arena") +
                            " match --game connect4 --variant tsinghua --games 2 --move-ms 40 "
                            "--tolerance-ms " +
                            testing::scaled_ms(500) + " --random-plies 2 --json " +
                            bin("bots/c4-pro") + " " + bin("bots/c4-mcts") + " >" + base +
                            ".out 2>" + base + ".err";
    const int status = std::system(cmd.c_str());
    const std::string out = slurp(base + ".out");
    const std::string err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << err;
    const auto j = nlohmann::json::parse(out);
    ASSERT_EQ(j["games"], 2);
    for (const auto& bot : j["bots"])
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(bot[reason], 0) << bot["name"] << " " << reason << "\n" << err;
}

}  // namespace
}  // namespace arena::c4
