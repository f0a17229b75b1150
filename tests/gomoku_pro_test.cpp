// gomoku-pro (bots/gomoku/pro.*): wins in one, blocks fours and open threes,
// solves and defends a VCF, plays legal games on small boards and under
// exact5, answers within its time, leaves the board's pattern tables as a
// recomputation would have them after every search, and plays by the rules
// through the arena.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/gomoku.hpp"
#include "arena/games/registry.hpp"
#include "bots/gomoku/pro.hpp"
#include "bots/gomoku/threats.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using arena::testing::slurp;
using bots::gomoku::Board;
using bots::gomoku::ProEngine;
using bots::gomoku::ProOptions;
using bots::gomoku::Rule;
using bots::gomoku::Sq;
using bots::gomoku::ThreatSolver;
using games::Move;
using games::State;

// Cells where `color` would complete a winning line, judged from the
// arena's state alone: a run of exactly five under exact5, five or more
// under freestyle.
std::vector<int> win_cells(const State& state, int color) {
    const auto& g = dynamic_cast<const games::GomokuState&>(state);
    const int n = g.size();
    const bool exact5 = g.rule() == games::GomokuRule::kExact5;
    const auto at = [&](int c, int r) {
        return c < 0 || r < 0 || c >= n || r >= n ? -1 : g.at(c, r);
    };
    std::vector<int> out;
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            if (g.at(c, r) != games::GomokuState::kEmpty) continue;
            for (const auto& [dc, dr] : {std::pair{1, 0}, {0, 1}, {1, 1}, {1, -1}}) {
                int run = 1;
                for (int k = 1; at(c + k * dc, r + k * dr) == color; ++k)
                    ++run;
                for (int k = 1; at(c - k * dc, r - k * dr) == color; ++k)
                    ++run;
                if (exact5 ? run == 5 : run >= 5) {
                    out.push_back(r * n + c);
                    break;
                }
            }
        }
    }
    return out;
}

std::unique_ptr<State> position(int size, const std::string& rule, const std::string& moves) {
    const auto game = games::make_game("gomoku", {{"size", std::to_string(size)}, {"rule", rule}});
    auto state = game->new_initial_state();
    std::istringstream in(moves);
    std::string word;
    while (in >> word) {
        const auto m = state->parse_move(word);
        if (!m || !state->is_legal(*m)) throw std::runtime_error("bad move " + word);
        state->apply(*m);
        if (state->is_over()) throw std::runtime_error("game over at " + word);
    }
    return state;
}

// A shallow engine: the tests check what it plays, not how deep it sees.
std::unique_ptr<ProEngine> engine(int depth = 4) {
    ProOptions o;
    o.max_depth = depth;
    o.root_vcf_nodes = 200'000;
    o.root_vct_nodes = 20'000;
    o.defence_vct_nodes = 1'000;
    o.tt_bits = 16;
    return std::make_unique<ProEngine>(o);
}

std::string choose(ProEngine& e, const State& state, std::vector<std::string>* infos = nullptr,
                   std::int64_t move_ms = 60'000) {
    protocol::Go go;
    go.move_ms = move_ms;
    const Move m = e.choose(state, go, [&](std::string_view text) {
        if (infos) infos->emplace_back(text);
    });
    EXPECT_TRUE(state.is_legal(m));
    return state.format_move(m);
}

class GomokuPro : public ::testing::TestWithParam<std::string> {
  protected:
    [[nodiscard]] const std::string& rule() const { return GetParam(); }
};

// X completes five (g5) rather than block O's four (g10).
TEST_P(GomokuPro, WinsInOne) {
    const auto state = position(15, rule(), "e5 c10 f5 d10 h5 e10 i5 f10 b10 o15");
    EXPECT_EQ(choose(*engine(), *state), "g5");
}

// O has a four (d4-g4, c4 taken by X): X blocks at h4.
TEST_P(GomokuPro, BlocksAFour) {
    const auto state = position(15, rule(), "c4 d4 j12 e4 l10 f4 n13 g4");
    EXPECT_EQ(choose(*engine(), *state), "h4");
}

// O has an open three (f8 g8 h8): X leaves O no move to an open four.
TEST_P(GomokuPro, StopsAnOpenThree) {
    const auto state = position(15, rule(), "c3 f8 m3 g8 c13 h8");
    const std::string m = choose(*engine(), *state);
    auto after = state->clone();
    after->apply(*after->parse_move(m));
    for (const Move reply : after->legal_moves()) {
        auto next = after->clone();
        next->apply(reply);
        EXPECT_LT(win_cells(*next, 2).size(), 2U)
            << "after " << m << ", " << next->format_move(reply) << " makes an open four";
    }
}

// Under freestyle X wins with the overline g8 (c8-h8); under exact5 that is
// no win, and O's five-point k9 must be blocked.
TEST_P(GomokuPro, OverlineWinsOnlyUnderFreestyle) {
    const auto state = position(15, rule(), "c8 b8 d8 k5 e8 k6 f8 k7 h8 k8 k4 o15");
    EXPECT_EQ(choose(*engine(), *state), rule() == "freestyle" ? "g8" : "k9");
}

// Self-play on small and odd boards: every move is legal, and when the side
// to move can complete five it does.
TEST_P(GomokuPro, PlaysLegalGamesOnSmallBoards) {
    for (const int size : {5, 7, 9}) {
        auto state = position(size, rule(), "");
        auto e = engine(2);
        while (!state->is_over()) {
            const int me = state->current_player();
            const auto wins = win_cells(*state, me);
            const std::string m = choose(*e, *state);
            const auto move = state->parse_move(m);
            ASSERT_TRUE(move && state->is_legal(*move)) << size << ": " << m;
            if (!wins.empty()) {
                EXPECT_NE(std::find(wins.begin(), wins.end(), *move), wins.end())
                    << size << ": " << m << " misses a five\n"
                    << state->render();
            }
            state->apply(*move);
        }
    }
}

// At a fixed depth the same position gives the same move and node count,
// and a search leaves the board exactly as it found it.
TEST_P(GomokuPro, FixedDepthSearchIsDeterministicAndRestoresTheBoard) {
    const auto state = position(15, rule(), "h8 i9 g9 i7 i8 g7 h7 h6");
    auto a = engine(4);
    auto b = engine(4);
    EXPECT_EQ(choose(*a, *state), choose(*b, *state));
    EXPECT_EQ(a->nodes(), b->nodes());
    EXPECT_GT(a->nodes(), 1000U);

    Board& board = a->board();
    bots::gomoku::load_state(board, *state);
    const std::uint64_t hash = board.hash();
    (void)a->think_untimed([](std::string_view) {});
    EXPECT_EQ(board.hash(), hash);
    EXPECT_EQ(board.ply(), 0);
    EXPECT_TRUE(board.consistent());
}

INSTANTIATE_TEST_SUITE_P(Gomoku, GomokuPro, ::testing::Values("freestyle", "exact5"),
                         [](const auto& p) { return p.param; });

// Seeded random games with take-backs, on the sizes the arena offers and
// both rules, each position searched a little: after every make, unmake and
// search the incremental pattern tables equal a recomputation from scratch.
TEST(GomokuProBoard, MakeUnmakeKeepsThePatternTablesExact) {
    std::mt19937 rng(2024);
    for (const int size : {9, 15, 20}) {
        for (const Rule rule : {Rule::kFreestyle, Rule::kExact5}) {
            ProOptions o;
            o.max_depth = 2;
            o.root_vcf_nodes = 20'000;
            o.root_vct_nodes = 5'000;
            o.defence_vct_nodes = 500;
            o.tt_bits = 12;
            auto e = std::make_unique<ProEngine>(o);
            Board& board = e->board();
            board.reset(size, rule);
            for (int step = 0; step < 100; ++step) {
                bots::gomoku::MoveList moves;
                bots::gomoku::near_moves(board, 2, moves);
                if (moves.size == 0) break;
                if (board.ply() > 0 && rng() % 4 == 0) {
                    board.unmake();
                } else {
                    const Sq s = moves.sq[rng() % moves.size];
                    if (board.wins(board.to_move(), s)) continue;  // keep the game going
                    board.make(s);
                }
                if (step % 10 == 0) {
                    const std::uint64_t hash = board.hash();
                    const int ply = board.ply();
                    (void)e->think_untimed([](std::string_view) {});
                    ASSERT_EQ(board.hash(), hash);
                    ASSERT_EQ(board.ply(), ply);
                }
                ASSERT_TRUE(board.consistent()) << "size " << size << " step " << step;
            }
        }
    }
}

// Plays the engine against a defender that blocks every four (and completes
// five when it can): the engine must win by fours within `limit` moves.
void expect_forced_win(ProEngine& e, std::unique_ptr<State> state, int limit) {
    const int attacker = state->current_player();
    for (int move = 0; move < limit; ++move) {
        const std::string m = choose(e, *state);
        state->apply(*state->parse_move(m));
        if (state->is_over()) {
            EXPECT_EQ(games::winner_of(state->outcome()), attacker) << state->render();
            return;
        }
        ASSERT_TRUE(win_cells(*state, 3 - attacker).empty())
            << "the defender can win after " << m << "\n"
            << state->render();
        const auto threats = win_cells(*state, attacker);
        ASSERT_FALSE(threats.empty()) << m << " is not a four\n" << state->render();
        state->apply(threats.front());
    }
    FAIL() << "no five within " << limit << " moves\n" << state->render();
}

// Known six-move VCFs, for O under freestyle and for X under exact5.
TEST(GomokuProThreats, FindsAndPlaysAKnownVcf) {
    const std::string freestyle = "h8 i8 g9 h10 i11 j11 g11 h9 f8 j9 j8 k9 h7 k11 l10 h12 k12";
    const std::string exact5 = "h8 h7 i7 h9 g9 i9 j10 f10 f8 e11 j8 d12";
    for (const auto& [rule, moves] : {std::pair{"freestyle", freestyle}, {"exact5", exact5}}) {
        SCOPED_TRACE(rule);
        auto state = position(15, rule, moves);
        ASSERT_TRUE(win_cells(*state, state->current_player()).empty());
        auto e = engine(3);
        std::vector<std::string> infos;
        (void)choose(*e, *state, &infos);
        EXPECT_NE(std::find(infos.begin(), infos.end(), "string vcf"), infos.end());
        expect_forced_win(*e, std::move(state), 12);
    }
}

// O (not to move) has the freestyle VCF above: X's move leaves it none.
TEST(GomokuProThreats, DefendsAgainstTheOpponentsVcf) {
    const auto state =
        position(15, "freestyle", "h8 i8 g9 h10 i11 j11 g11 h9 f8 j9 j8 k9 h7 k11 l10 h12 k12 a1");
    auto e = engine(3);
    std::vector<std::string> infos;
    const std::string m = choose(*e, *state, &infos);
    bool saw = false;
    for (const auto& i : infos)
        saw |= i.starts_with("string opponent threatens a vcf");
    EXPECT_TRUE(saw);
    auto after = state->clone();
    after->apply(*after->parse_move(m));
    Board board;
    bots::gomoku::load_state(board, *after);
    ThreatSolver solver(board);
    solver.set_limits(5'000'000);
    EXPECT_EQ(solver.vcf(30), bots::gomoku::kNoSq) << "after " << m;
    EXPECT_FALSE(solver.aborted());
}

// With a time limit and no depth limit the engine answers in time: within
// the limit, with a wide allowance for a loaded machine (this checks that it
// stops, not how precisely).
TEST(GomokuProTime, AnswersWithinTheBudget) {
    ProOptions o;
    o.tt_bits = 16;
    ProEngine e(o);
    const auto state = position(15, "freestyle", "h8 i9 g9");
    for (const int ms : {100, 300}) {
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::string> infos;
        (void)choose(e, *state, &infos, ms);
        const auto took = std::chrono::steady_clock::now() - start;
        EXPECT_LT(took, arena::testing::scaled(std::chrono::milliseconds(ms * 3)));
        // It did search: a quiet position, no forced move, several depths.
        EXPECT_GE(took, std::chrono::milliseconds(ms / 10));
        EXPECT_GE(infos.size(), 2U);
    }
}

// Two games through the arena against gomoku-vcf on a small exact5 board:
// no illegal move, crash, protocol fault or timeout.
TEST(GomokuProArena, PlaysByTheRulesThroughTheArena) {
    const std::string base = ::testing::TempDir() + "gomoku_pro_" + testing::unique_marker();
    const std::string cmd = "timeout 300 " + testing::bin("bin/arena") +
                            " match --game gomoku --size 9 --rule exact5 --games 2 --move-ms 100" +
                            " --tolerance-ms " + testing::scaled_ms(500) +
                            " --random-plies 2 --json 'pro=" + testing::bin("bots/gomoku-pro") +
                            "' 'vcf=" + testing::bin("bots/gomoku-vcf") + "' >" + base + ".out 2>" +
                            base + ".err";
    const int status = std::system(cmd.c_str());
    const std::string out = slurp(base + ".out"), err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << err;
    const auto j = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    ASSERT_EQ(j["games"], 2);
    for (const auto& b : j["bots"])
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(b[reason], 0) << reason << " " << b["name"];
}

}  // namespace
}  // namespace arena
