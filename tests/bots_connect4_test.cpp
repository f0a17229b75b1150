// The Connect-4 reference bots: bitboards against the game's own rules, the
// exact solver against Pons' benchmark scores, win-in-one and block-in-one
// for every bot, and legal games on every kind of board through the arena.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/connect4.hpp"
#include "bots/connect4/alphabeta.hpp"
#include "bots/connect4/book_7x6.hpp"
#include "bots/connect4/exact.hpp"
#include "bots/connect4/features.hpp"
#include "bots/connect4/mcts.hpp"
#include "bots/connect4/solver.hpp"
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

// ---- bitboards ------------------------------------------------------------

TEST(Wide, ShiftsMatchBitByBit) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 200; ++round) {
        Wide5 a;
        for (auto& w : a.w)
            w = rng();
        const int s = static_cast<int>(rng() % 300);
        const Wide5 left = a << s;
        const Wide5 right = a >> s;
        for (int i = 0; i < kBits<Wide5>; ++i) {
            ASSERT_EQ(test(left, i), i >= s && test(a, i - s)) << "<< " << s << " bit " << i;
            ASSERT_EQ(test(right, i), i + s < kBits<Wide5> && test(a, i + s))
                << ">> " << s << " bit " << i;
        }
    }
}

// Random games on every kind of board: the bitboard agrees with the game on
// the playable columns, on which moves win, and make/unmake restores it.
template <class B>
void check_random_games(const Connect4Config& cfg, int games, std::uint64_t seed) {
    const Connect4Game game(cfg);
    const Geometry g(cfg);
    const Masks<B> m(g);
    Board<B> b(g, m);
    std::mt19937_64 rng(seed);
    for (int n = 0; n < games; ++n) {
        auto state = game.new_initial_state();
        b.clear();
        while (!state->is_over()) {
            const auto legal = state->legal_moves();
            for (int c = 0; c < cfg.cols; ++c)
                ASSERT_EQ(b.can_play(c), state->is_legal(c));
            const games::Move move = legal[rng() % legal.size()];
            const bool wins = b.is_winning_move(move);
            const Board<B> before = b;
            b.play(move);
            const std::uint64_t key = b.key();
            b.undo(move);
            ASSERT_EQ(b.key(), before.key());
            ASSERT_TRUE(b.current() == before.current() && b.occupied() == before.occupied());
            b.play(move);
            ASSERT_EQ(b.key(), key);
            state->apply(move);
            ASSERT_EQ(wins, state->is_over() && state->outcome() != games::Outcome::kDraw);
            ASSERT_EQ(wins, b.last_move_won());
            Board<B> fresh(g, m);
            fresh.set(dynamic_cast<const Connect4State&>(*state));
            ASSERT_EQ(fresh.key(), b.key());
        }
    }
}

TEST(Board, AgreesWithTheRulesOnEveryWidth) {
    check_random_games<std::uint64_t>(config(6, 7, 4), 200, 1);
    check_random_games<std::uint64_t>(config(6, 7, 4, {{3, 0}, {0, 2}, {6, 5}}), 200, 2);
    check_random_games<std::uint64_t>(config(4, 12, 3, {{5, 1}}), 100, 3);
    check_random_games<Wide3>(config(6, 7, 4, {{2, 1}}), 100, 4);
    check_random_games<Wide3>(config(11, 12, 4, {{4, 0}}), 50, 5);
    check_random_games<Wide5>(config(10, 12, 5, {{2, 1}, {6, 0}, {7, 4}, {7, 5}}), 50, 6);
    check_random_games<Wide5>(config(16, 16, 2), 20, 7);
    check_random_games<Wide5>(config(16, 16, 16), 5, 8);
}

// ---- the exact solver -----------------------------------------------------

std::string data(const std::string& name) {
    return source("tests/data/connect4/" + name);
}

class ExactSample : public ::testing::TestWithParam<std::string> {};

// 50 positions of each of Pons' test sets, scored exactly by --solve's code.
TEST_P(ExactSample, ScoresMatchTheReference) {
    std::ifstream in(data(GetParam()));
    ASSERT_TRUE(in) << GetParam();
    std::ostringstream out;
    EXPECT_EQ(solve_lines(in, out, 18, false, true), 0);
    const std::string text = out.str();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 50);
}

INSTANTIATE_TEST_SUITE_P(Sets, ExactSample,
                         ::testing::Values("Test_L3_R1_50", "Test_L2_R1_50", "Test_L2_R2_50"),
                         [](const auto& p) { return p.param.substr(5, 5); });

// The wide bit sets solve the standard board to the same exact scores.
template <class B>
void check_wide_solves(const std::string& file, int lines) {
    const Geometry g;
    const Masks<B> m(g);
    Board<B> b(g, m);
    ExactTable table(16);
    std::ifstream in(data(file));
    std::string seq;
    int expected = 0;
    for (int i = 0; i < lines && in >> seq >> expected; ++i) {
        b.clear();
        for (const char ch : seq)
            b.play(ch - '1');
        table.clear();
        ExactSolver<B> solver(b, table);
        const ExactResult r = solver.solve();
        EXPECT_TRUE(r.complete);
        EXPECT_EQ(r.lo, expected) << seq;
        EXPECT_EQ(r.hi, expected) << seq;
    }
}

TEST(Exact, WideBitSetsGiveTheSameScores) {
    check_wide_solves<Wide3>("Test_L2_R1_50", 20);
    check_wide_solves<Wide5>("Test_L3_R1_50", 20);
}

TEST(Exact, WeakSolveGivesTheSign) {
    std::ifstream in(data("Test_L2_R1_50"));
    std::ostringstream out;
    EXPECT_EQ(solve_lines(in, out, 18, true, true), 0);
}

// A stop request is honoured, and what was proven before it stays true.
TEST(Exact, StoppedSearchKeepsValidBounds) {
    const Geometry g;
    const Masks<std::uint64_t> m(g);
    Board<std::uint64_t> b(g, m);
    for (const char ch : std::string("4444"))  // far from solvable at once
        b.play(ch - '1');
    ExactTable table(16);
    int polls = 0;
    ExactSolver<std::uint64_t> solver(b, table, [&] { return ++polls > 3; });
    const ExactResult r = solver.solve();
    EXPECT_FALSE(r.complete);
    EXPECT_LE(r.lo, r.hi);
    EXPECT_GE(r.move, 0);
}

// ---- the features bot: the seed's chain values -----------------------------

TEST(Features, ChainValuesAreTheSeedsTable) {
    // The seed's verification table (connect 4).
    EXPECT_EQ(static_cast<long>(chain_value(4, 1, 1, 4)), 1305000);
    EXPECT_EQ(static_cast<long>(chain_value(4, 0, 0, 4)), 1000000);
    EXPECT_EQ(static_cast<long>(chain_value(3, 1, 1, 4)), 130500);
    EXPECT_EQ(static_cast<long>(chain_value(3, 1, 2, 4)), 114083);
    EXPECT_EQ(static_cast<long>(chain_value(3, 0, 1, 4)), 111000);
    EXPECT_EQ(static_cast<long>(chain_value(3, 2, 4, 4)), 101729);
    EXPECT_EQ(static_cast<long>(chain_value(3, 0, 0, 4)), 0);
    EXPECT_EQ(static_cast<long>(chain_value(2, 1, 3, 4)), 11173);
    EXPECT_EQ(static_cast<long>(chain_value(1, 0, 1, 4)), 1110);
    // Connect 5 shifts the scale: a chain of four is worth what three is in 4.
    EXPECT_EQ(static_cast<long>(chain_value(4, 1, 1, 5)), 130500);
}

TEST(Features, ScoresFollowTheSeedsExample) {
    // Two stones side by side on the bottom row, both ends playable at once.
    const Connect4Game game(config(6, 7, 4));
    const auto state = play(game, "3 3 4");
    const auto s = features_scores(dynamic_cast<const Connect4State&>(*state));
    // Player 1: the pair (2, 1, 1) = 13050 and nothing else.
    EXPECT_EQ(static_cast<long>(s[0]), 13050);
    // Player 2: one stone on (3, 2), counted once in its best direction:
    // horizontal, (2, 2) two drops away and (4, 2) playable: [1, 2, 1] =
    // 1000 + 100/8 + 100/1 + 100/2^2 + 10/3.
    EXPECT_EQ(static_cast<long>(s[1]), 1140);
}

// ---- every bot: win in one, block in one ------------------------------------

struct Puzzle {
    std::string label;
    Connect4Config board;
    std::string moves;
    int answer;  // 1-based column
};

std::vector<Puzzle> win_puzzles() {
    return {
        // Vertical three on the left edge; the centre is tempting.
        {"vertical", config(6, 7, 4), "1 2 1 2 1 3", 1},
        // Row 2 over a blocked cell: the piece skips (6,1) and lands on (6,2).
        {"over_blocked", config(9, 9, 4, {{5, 0}}), "4 3 3 5 5 9 4 9", 6},
        // Connect 5 on 10 x 12 with blocked cells: the fifth stone on top.
        {"connect5", config(10, 12, 5, {{4, 0}, {7, 2}, {10, 1}}), "1 2 1 2 1 3 1 3", 1},
    };
}

std::vector<Puzzle> block_puzzles() {
    return {
        // Player 2 stacks three in column 7; player 1 must cover it.
        {"vertical", config(6, 7, 4), "4 7 4 7 3 7", 7},
        // Player 1's row 2 threat lands over the blocked (6,1).
        {"over_blocked", config(9, 9, 4, {{5, 0}}), "4 3 3 5 5 9 4", 6},
        {"connect5", config(10, 12, 5, {{4, 0}, {7, 2}, {10, 1}}), "1 2 1 2 1 3 1", 1},
    };
}

struct BotCase {
    std::string name;
    std::function<std::unique_ptr<Connect4Engine>()> make;
};

std::vector<BotCase> bots_under_test() {
    return {
        {"features", [] { return make_features_engine({}); }},
        {"alphabeta", [] { return make_alphabeta_engine({.depth = 4, .soon = 2, .weights = {}}); }},
        {"mcts",
         [] {
             return make_mcts_engine(
                 {.c = 0.8, .simulations = 3000, .seed = 1, .log2_nodes = 16, .reuse = true});
         }},
        {"solver",
         [] {
             return make_solver_engine(
                 {.depth = 4, .book = false, .log2_exact = 12, .log2_heuristic = 12});
         }},
        // Under the clock: the proving phases (and, on 7 x 6, the book) run.
        {"solver_timed",
         [] {
             return make_solver_engine(
                 {.depth = 0, .book = true, .log2_exact = 14, .log2_heuristic = 12});
         }},
    };
}

int answer(Connect4Engine& engine, const Puzzle& p) {
    const Connect4Game game(p.board);
    const auto state = play(game, p.moves);
    engine.new_game(game, state->current_player());
    std::vector<std::string> info;
    const int move = engine.choose(
        *state,
        protocol::Go{.move_ms = 300, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}},
        [&](std::string_view line) { info.emplace_back(line); });
    EXPECT_TRUE(state->is_legal(move));
    return move + 1;
}

class EveryBot : public ::testing::TestWithParam<BotCase> {};

TEST_P(EveryBot, WinsInOne) {
    auto engine = GetParam().make();
    for (const auto& p : win_puzzles())
        EXPECT_EQ(answer(*engine, p), p.answer) << p.label;
}

TEST_P(EveryBot, BlocksInOne) {
    auto engine = GetParam().make();
    for (const auto& p : block_puzzles())
        EXPECT_EQ(answer(*engine, p), p.answer) << p.label;
}

INSTANTIATE_TEST_SUITE_P(Bots, EveryBot, ::testing::ValuesIn(bots_under_test()),
                         [](const auto& p) { return p.param.name; });

// ---- bot specifics ----------------------------------------------------------

// The tree of the previous move is found again two plies later.
TEST(Mcts, KeepsTheTreeBetweenMoves) {
    auto engine = make_mcts_engine(
        {.c = 0.8, .simulations = 4000, .seed = 3, .log2_nodes = 18, .reuse = true});
    const Connect4Game game(config(6, 7, 4));
    auto state = game.new_initial_state();
    engine->new_game(game, 1);
    const protocol::Go go{
        .move_ms = 0, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
    std::string last;
    const auto sink = [&](std::string_view line) { last = line; };
    const int first = engine->choose(*state, go, sink);
    EXPECT_NE(last.find("reused 0 "), std::string::npos) << last;
    state->apply(first);
    state->apply(first);  // the opponent answers in the same column
    (void)engine->choose(*state, go, sink);
    EXPECT_EQ(last.find("reused 0 "), std::string::npos) << last;
    // A new game starts a new tree.
    engine->new_game(game, 1);
    (void)engine->choose(*game.new_initial_state(), go, sink);
    EXPECT_NE(last.find("reused 0 "), std::string::npos) << last;
}

// Fixed simulations and the same seed: the same move and the same count.
TEST(Mcts, IsDeterministicWithFixedSimulations) {
    const Connect4Game game(config(9, 10, 4, {{4, 2}}));
    const auto state = play(game, "5 6 5");
    std::vector<std::string> lines;
    for (int run = 0; run < 2; ++run) {
        auto engine = make_mcts_engine(
            {.c = 0.8, .simulations = 2000, .seed = 9, .log2_nodes = 16, .reuse = true});
        engine->new_game(game, state->current_player());
        (void)engine->choose(
            *state,
            protocol::Go{
                .move_ms = 0, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}},
            [&](std::string_view line) { lines.emplace_back(line); });
    }
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], lines[1]);
}

// The solver proves an end game and reports its exact score.
TEST(Solver, PlaysTheProvenMoveWithItsScore) {
    auto engine =
        make_solver_engine({.depth = 0, .book = false, .log2_exact = 16, .log2_heuristic = 12});
    const Connect4Game game(config(6, 7, 4));
    // The first line of Test_L3_R1: the side to move loses (score -1).
    std::string moves;
    for (const char ch : std::string("2252576253462244111563365343671351441"))
        moves += std::string(1, ch) + " ";
    const auto state = play(game, moves);
    engine->new_game(game, state->current_player());
    std::string last;
    (void)engine->choose(
        *state,
        protocol::Go{.move_ms = 2000, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}},
        [&](std::string_view line) { last = line; });
    EXPECT_NE(last.find("exact -1"), std::string::npos) << last;
}

TEST(Solver, BookOpensInTheCentre) {
    if (kBookPlies7x6 == 0) GTEST_SKIP() << "no book compiled in";
    const Connect4Game game(config(6, 7, 4));
    const auto state = game.new_initial_state();
    EXPECT_EQ(book_move(dynamic_cast<const Connect4State&>(*state)), 3);
    // Player 2 gets no book moves.
    const auto after = play(game, "4");
    EXPECT_EQ(book_move(dynamic_cast<const Connect4State&>(*after)), -1);
}

// Following the book against random safe replies: every book move is legal, the
// book only runs out for player 1 at a win in one or past its plies, and
// where it ends player 2 is lost (a weak proof, fast that late).
TEST(Solver, BookIsAWinningStrategy) {
    if (kBookPlies7x6 == 0) GTEST_SKIP() << "no book compiled in";
    const Connect4Game game(config(6, 7, 4));
    const Geometry g;
    const Masks<std::uint64_t> m(g);
    ExactTable table(18);
    std::mt19937_64 rng(11);
    for (int n = 0; n < 12; ++n) {
        auto state = game.new_initial_state();
        Board<std::uint64_t> b(g, m);
        while (!state->is_over()) {
            const auto& c4 = dynamic_cast<const Connect4State&>(*state);
            if (state->current_player() == 1) {
                const int move = book_move(c4);
                if (move < 0) {
                    b.set(c4);
                    EXPECT_TRUE(state->ply() > kBookPlies7x6 || b.can_win_next());
                    break;
                }
                ASSERT_TRUE(state->is_legal(move));
                state->apply(move);
            } else {
                b.set(c4);
                if (state->ply() >= kBookPlies7x6) {  // earlier, proofs take minutes
                    ExactSolver<std::uint64_t> solver(b, table);
                    EXPECT_LE(solver.solve(true).hi, -1) << state->ply();
                }
                // Random, but never a move that loses at once (so games last).
                std::vector<int> safe;
                for (int c = 0; c < 7; ++c)
                    if (b.can_play(c) &&
                        (b.is_winning_move(c) || test(b.non_losing_moves(), b.top(c))))
                        safe.push_back(c);
                if (safe.empty()) safe = state->legal_moves();
                state->apply(safe[rng() % safe.size()]);
            }
            if (state->ply() > kBookPlies7x6 + 1) break;
        }
        EXPECT_NE(state->outcome(), games::Outcome::kWin2);
    }
}

// ---- search limits ----------------------------------------------------------------

// `go depth=`: c4-alphabeta searching 8 plies plays other moves than at 2
// and beats it: a duel from ten random openings of 4 plies, each played
// with both colours. Depth-limited, every game is the same on any machine.
TEST(AlphaBetaLimits, DepthEightBeatsDepthTwo) {
    const Connect4Game game(config(6, 7, 4));
    auto deep = make_alphabeta_engine({});
    auto shallow = make_alphabeta_engine({});
    const auto go = [](int depth) {
        return protocol::Go{
            .move_ms = 5000, .clock_ms = {}, .opp_clock_ms = {}, .depth = depth, .nodes = {}};
    };
    const bots::InfoSink quiet = [](std::string_view) {};
    std::mt19937_64 rng(7);
    double deep_score = 0;
    int games = 0, different = 0, compared = 0;
    for (int opening = 0; opening < 10; ++opening) {
        auto start = game.new_initial_state();
        for (int i = 0; i < 4; ++i) {
            const auto legal = start->legal_moves();
            start->apply(legal[rng() % legal.size()]);
        }
        for (int deep_player = 1; deep_player <= 2; ++deep_player) {
            auto state = start->clone();
            deep->new_game(game, deep_player);
            shallow->new_game(game, 3 - deep_player);
            while (!state->is_over()) {
                const bool deep_to_move = state->current_player() == deep_player;
                const games::Move move = deep_to_move ? deep->choose(*state, go(8), quiet)
                                                      : shallow->choose(*state, go(2), quiet);
                if (deep_to_move && compared < 40) {
                    ++compared;
                    if (shallow->choose(*state, go(2), quiet) != move) ++different;
                }
                ASSERT_TRUE(state->is_legal(move));
                state->apply(move);
            }
            const int winner = games::winner_of(state->outcome());
            deep_score += winner == deep_player ? 1.0 : winner == games::kNoPlayer ? 0.5 : 0.0;
            ++games;
        }
    }
    std::cout << "[ score    ] depth 8 against depth 2: " << deep_score << " of " << games
              << "; other moves at " << different << " of " << compared << " positions\n";
    EXPECT_GT(different, 0);
    EXPECT_GE(deep_score / games, 0.75) << deep_score << " of " << games;
}

// ---- legal games through the arena --------------------------------------------

struct Run {
    int exit_code = -1;
    std::string out, err;
};

Run arena(const std::string& args) {
    const std::string base = ::testing::TempDir() + "c4_" + testing::unique_marker();
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

struct Variant {
    std::string label, flags;
};

class LegalGames : public ::testing::TestWithParam<Variant> {};

// Two games per pair of bots, each bot under its own clock. The tolerance is
// wide: this checks the rules, not the timing (see the ladder for that). It
// scales with the build (timing.hpp): on a loaded machine a bot, niced below
// the arena, may wait long for the CPU between two looks at its clock.
TEST_P(LegalGames, EveryBotPlaysByTheRules) {
    const std::vector<std::pair<std::string, std::string>> pairs = {{"c4-features", "c4-mcts"},
                                                                    {"c4-alphabeta", "c4-solver"}};
    for (const auto& [a, b] : pairs) {
        const auto r =
            arena("match " + GetParam().flags + " --games 2 --move-ms 40 --tolerance-ms " +
                  testing::scaled_ms(500) + " --random-plies 2 --json " + bin("bots/" + a) + " " +
                  bin("bots/" + b));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        ASSERT_EQ(j["games"], 2);
        for (const auto& bot : j["bots"]) {
            for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
                EXPECT_EQ(bot[reason], 0) << bot["name"] << " " << reason << "\n" << r.err;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Boards, LegalGames,
    ::testing::Values(Variant{"standard", "--game connect4"},
                      Variant{"tsinghua", "--game connect4 --variant tsinghua --seed 4"},
                      Variant{"connect5_blocked",
                              "--game connect4 --rows 10 --cols 12 --connect 5 "
                              "--blocked 3:2,7:1,8:5,8:6,12:1"}),
    [](const auto& p) { return p.param.label; });

}  // namespace
}  // namespace arena::c4
