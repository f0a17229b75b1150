// The Gomoku reference bots (bots/gomoku): the board's incremental state
// against a recomputation and against the arena's rules; each bot wins in one,
// blocks in one and respects exact5; gomoku-vcf solves and defends a VCF; each
// bot plays legal games through the arena on every variant.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/gomoku.hpp"
#include "arena/games/registry.hpp"
#include "bots/gomoku/alphabeta.hpp"
#include "bots/gomoku/board.hpp"
#include "bots/gomoku/minimax.hpp"
#include "bots/gomoku/threats.hpp"
#include "bots/gomoku/vcf.hpp"
#include "gomoku_positions.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using bots::gomoku::AlphaBetaEngine;
using bots::gomoku::AlphaBetaOptions;
using bots::gomoku::Board;
using bots::gomoku::GomokuEngine;
using bots::gomoku::MinimaxEngine;
using bots::gomoku::MinimaxOptions;
using bots::gomoku::Rule;
using bots::gomoku::Sq;
using bots::gomoku::ThreatSolver;
using bots::gomoku::VcfEngine;
using bots::gomoku::VcfOptions;
using games::Move;
using games::State;
using gomoku_test::choose;
using gomoku_test::expect_forced_win;
using gomoku_test::position;

// ---- an independent referee -------------------------------------------------

// A position as a grid, judged without the bots' code: does `color` playing
// (col, row) complete a winning line under `exact5`?
struct Grid {
    int size = 15;
    bool exact5 = false;
    std::vector<int> cells;  // row * size + col: 0, 1, 2

    static Grid of(const State& state) {
        const auto& g = dynamic_cast<const games::GomokuState&>(state);
        Grid grid{g.size(), g.rule() == games::GomokuRule::kExact5, {}};
        grid.cells.resize(static_cast<std::size_t>(g.size() * g.size()));
        for (int r = 0; r < g.size(); ++r)
            for (int c = 0; c < g.size(); ++c)
                grid.cells[r * g.size() + c] = g.at(c, r);
        return grid;
    }
    [[nodiscard]] int at(int c, int r) const {
        return c < 0 || r < 0 || c >= size || r >= size ? -1 : cells[r * size + c];
    }
    [[nodiscard]] bool wins(int color, int index) const {
        if (cells[index] != 0) return false;
        const int col = index % size, row = index / size;
        for (const auto& [dc, dr] : {std::pair{1, 0}, {0, 1}, {1, 1}, {1, -1}}) {
            int run = 1;
            for (int k = 1; at(col + k * dc, row + k * dr) == color; ++k)
                ++run;
            for (int k = 1; at(col - k * dc, row - k * dr) == color; ++k)
                ++run;
            if (exact5 ? run == 5 : run >= 5) return true;
        }
        return false;
    }
    // Cells where `color` would win at once.
    [[nodiscard]] std::vector<int> win_cells(int color) const {
        std::vector<int> out;
        for (int i = 0; i < size * size; ++i)
            if (wins(color, i)) out.push_back(i);
        return out;
    }
    // Can `color` make, in one move, two or more cells that win next move?
    [[nodiscard]] bool has_open_four_move(int color) {
        for (int i = 0; i < size * size; ++i) {
            if (cells[i] != 0 || wins(color, i)) continue;
            cells[i] = color;
            const bool two = win_cells(color).size() >= 2;
            cells[i] = 0;
            if (two) return true;
        }
        return false;
    }
};

// ---- helpers ----------------------------------------------------------------

struct Bot {
    std::string name;
    std::function<std::unique_ptr<GomokuEngine>()> make;
};

std::vector<Bot> all_bots() {
    return {
        {"minimax", [] { return std::make_unique<MinimaxEngine>(MinimaxOptions{}); }},
        {"alphabeta",
         [] {
             AlphaBetaOptions o;
             o.max_depth = 4;
             return std::make_unique<AlphaBetaEngine>(o);
         }},
        {"vcf",
         [] {
             VcfOptions o;
             o.max_depth = 4;
             o.root_vcf_nodes = 100'000;
             o.root_vct_nodes = 20'000;
             o.defence_vct_nodes = 1'000;
             return std::make_unique<VcfEngine>(o);
         }},
    };
}

class GomokuBot : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
  protected:
    [[nodiscard]] std::unique_ptr<GomokuEngine> engine() const {
        for (auto& bot : all_bots())
            if (bot.name == std::get<0>(GetParam())) return bot.make();
        return nullptr;
    }
    [[nodiscard]] const std::string& rule() const { return std::get<1>(GetParam()); }
};

// ---- the board ------------------------------------------------------------

// Random play with take-backs on every board size: the incremental state
// equals a recomputation, and a cell wins for a colour exactly when the
// referee says so.
TEST(GomokuBoard, IncrementalStateMatchesRecomputationAndRules) {
    std::mt19937 rng(7);
    for (const int size : {5, 6, 9, 15, 26}) {
        for (const Rule rule : {Rule::kFreestyle, Rule::kExact5}) {
            Board board;
            board.reset(size, rule);
            Grid grid{size, rule == Rule::kExact5, std::vector<int>(size * size, 0)};
            for (int step = 0; step < 3 * size * size; ++step) {
                std::vector<Sq> empty;
                for (int r = 0; r < size; ++r)
                    for (int c = 0; c < size; ++c)
                        if (board.is_empty(board.sq(c, r))) empty.push_back(board.sq(c, r));
                const bool take_back = board.ply() > 0 && (empty.empty() || rng() % 4 == 0);
                if (take_back) {
                    const Sq s = board.last_move();
                    board.unmake();
                    grid.cells[board.to_index(s)] = 0;
                } else {
                    const Sq s = empty[rng() % empty.size()];
                    grid.cells[board.to_index(s)] = board.to_move();
                    board.make(s);
                }
                if (step % 7 != 0) continue;
                ASSERT_TRUE(board.consistent()) << "size " << size << " step " << step;
                for (int i = 0; i < size * size; ++i) {
                    const Sq s = board.from_index(i);
                    for (int color = 1; color <= 2; ++color)
                        ASSERT_EQ(board.wins(color, s), grid.wins(color, i))
                            << "size " << size << " cell " << i << " colour " << color;
                }
            }
        }
    }
}

// The threat flags mean what they say, checked by the referee: a four leaves
// a winning cell, an open four (or double four) two.
// A seeded random 15x15 freestyle position of 6 to 19 stones, each next to
// another, stopped before either side could make five.
void random_open_position(Board& board, std::mt19937& rng) {
    board.reset(15, Rule::kFreestyle);
    board.make(board.centre());
    const int plies = 6 + static_cast<int>(rng() % 14);
    for (int ply = 1; ply < plies; ++ply) {
        bots::gomoku::MoveList near;
        bots::gomoku::near_moves(board, 1, near);
        const Sq s = near.sq[rng() % near.size];
        if (board.wins(board.to_move(), s)) break;  // keep the game open
        board.make(s);
    }
}

// Tracking switched off (shapes, cells or both) while random moves are made
// and taken back: the patterns and threat flags stay right throughout (the
// referee agrees on every win), and once the moves are all taken back and
// the tracking is on again, the whole state equals a recomputation.
TEST(GomokuBoard, TrackingSwitchedOffForMovesTakenBackIsExactAgain) {
    std::mt19937 rng(11);
    for (const Rule rule : {Rule::kFreestyle, Rule::kExact5}) {
        Board board;
        board.reset(15, rule);
        Grid grid{15, rule == Rule::kExact5, std::vector<int>(15 * 15, 0)};
        const auto play = [&](Sq s) {
            grid.cells[board.to_index(s)] = board.to_move();
            board.make(s);
        };
        const auto take_back = [&] {
            grid.cells[board.to_index(board.last_move())] = 0;
            board.unmake();
        };
        const auto random_empty = [&] {
            Sq s = bots::gomoku::kNoSq;
            while (s == bots::gomoku::kNoSq || !board.is_empty(s))
                s = board.from_index(static_cast<int>(rng() % (15 * 15)));
            return s;
        };
        for (int round = 0; round < 60; ++round) {
            if (board.stones() < 150) play(random_empty());
            const int mode = round % 3;
            board.set_tracking({.shapes = mode == 1, .cells = mode == 2});
            const int ply = board.ply();
            for (int step = 0; step < 40; ++step) {
                if (board.ply() > ply && (board.stones() > 200 || rng() % 3 == 0))
                    take_back();
                else
                    play(random_empty());
                for (int i = 0; i < 15 * 15; ++i)
                    for (int color = 1; color <= 2; ++color)
                        ASSERT_EQ(board.wins(color, board.from_index(i)), grid.wins(color, i))
                            << "round " << round << " step " << step << " cell " << i;
            }
            while (board.ply() > ply)
                take_back();
            board.set_tracking({});
            ASSERT_TRUE(board.consistent()) << "round " << round;
        }
    }
}

// The solver's lean mode only saves work: on seeded random positions it
// returns the same moves after the same number of nodes, VCF and VCT alike,
// and leaves the board as it found it.
TEST(GomokuThreats, LeanModeChangesNothingButTheWork) {
    std::mt19937 rng(5);
    int wins = 0;
    for (int game = 0; game < 30; ++game) {
        Board board;
        random_open_position(board, rng);
        ThreatSolver plain(board, 18), lean(board, 18);
        lean.set_lean(true);
        for (const bool vct : {false, true}) {
            plain.set_limits(50'000);
            lean.set_limits(50'000);
            const auto before = std::pair{plain.nodes(), lean.nodes()};
            const Sq a = vct ? plain.vct(4, 8) : plain.vcf(16);
            const Sq b = vct ? lean.vct(4, 8) : lean.vcf(16);
            EXPECT_EQ(a, b) << (vct ? "vct" : "vcf") << " in game " << game;
            EXPECT_EQ(plain.nodes() - before.first, lean.nodes() - before.second) << game;
            wins += b != bots::gomoku::kNoSq ? 1 : 0;
        }
        bots::gomoku::SqSet cells_plain, cells_lean;
        EXPECT_EQ(plain.vcf_cells(16, cells_plain), lean.vcf_cells(16, cells_lean));
        EXPECT_TRUE(board.tracking().shapes && board.tracking().cells);
        ASSERT_TRUE(board.consistent()) << game;
    }
    EXPECT_GE(wins, 5);  // not only positions without a threat
}

TEST(GomokuBoard, ThreatFlagsAgreeWithTheRules) {
    std::mt19937 rng(11);
    int fours = 0, flex = 0;
    for (const Rule rule : {Rule::kFreestyle, Rule::kExact5}) {
        for (int game = 0; game < 30; ++game) {
            Board board;
            board.reset(15, rule);
            Grid grid{15, rule == Rule::kExact5, std::vector<int>(225, 0)};
            for (int ply = 0; ply < 60; ++ply) {
                bots::gomoku::MoveList moves;
                bots::gomoku::near_moves(board, 1, moves);
                const Sq s = moves.sq[rng() % moves.size];
                if (board.wins(board.to_move(), s)) break;
                const int me = board.to_move();
                for (int i = 0; i < 225; ++i) {
                    const Sq q = board.from_index(i);
                    if (!board.is_empty(q) || board.wins(me, q)) continue;
                    const auto f = board.flags(me, q);
                    if (!(f & (bots::gomoku::kFlagFour | bots::gomoku::kFlagFlex4))) continue;
                    grid.cells[i] = me;
                    const auto wins = grid.win_cells(me).size();
                    grid.cells[i] = 0;
                    if (f & bots::gomoku::kFlagFlex4) {
                        ++flex;
                        EXPECT_GE(wins, 2U);
                    } else {
                        ++fours;
                        EXPECT_GE(wins, 1U);
                    }
                }
                grid.cells[board.to_index(s)] = me;
                board.make(s);
            }
        }
    }
    EXPECT_GT(fours, 100);
    EXPECT_GT(flex, 10);
}

// ---- each bot, each rule ------------------------------------------------------

// X to move completes five (g5) rather than block O's four (g10).
TEST_P(GomokuBot, WinsInOne) {
    const auto state = position(15, rule(), "e5 c10 f5 d10 h5 e10 i5 f10 b10 o15");
    EXPECT_EQ(choose(*engine(), *state, nullptr), "g5");
}

// O has a four (d4-g4, c4 taken by X): X blocks at h4.
TEST_P(GomokuBot, BlocksAFour) {
    const auto state = position(15, rule(), "c4 d4 j12 e4 l10 f4 n13 g4");
    EXPECT_EQ(choose(*engine(), *state, nullptr), "h4");
}

// O has an open three (f8 g8 h8) that would become an open four: X stops it.
TEST_P(GomokuBot, StopsAnOpenThree) {
    const auto state = position(15, rule(), "c3 f8 m3 g8 c13 h8");
    const std::string m = choose(*engine(), *state, nullptr);
    auto after = state->clone();
    after->apply(*after->parse_move(m));
    Grid grid = Grid::of(*after);
    EXPECT_FALSE(grid.has_open_four_move(2)) << "played " << m;
}

// X could fill g8 to get six in a row (c8-h8): a win under freestyle only.
// Under exact5 it wins nothing, and O's real five-point k9 must be blocked.
TEST_P(GomokuBot, OverlineWinsOnlyUnderFreestyle) {
    const auto state = position(15, rule(), "c8 b8 d8 k5 e8 k6 f8 k7 h8 k8 k4 o15");
    Grid grid = Grid::of(*state);
    const int g8 = 7 * 15 + 6;
    ASSERT_EQ(grid.wins(1, g8), rule() == "freestyle");
    EXPECT_EQ(choose(*engine(), *state, nullptr), rule() == "freestyle" ? "g8" : "k9");
}

// The first stone goes to the centre, on any board size; a move comes back
// on the smallest and the largest boards.
TEST_P(GomokuBot, PlaysEveryBoardSize) {
    for (const int size : {5, 6, 9, 19, 26}) {
        const auto empty = position(size, rule(), "");
        const std::string centre =
            std::string(1, static_cast<char>('a' + size / 2)) + std::to_string(size / 2 + 1);
        EXPECT_EQ(choose(*engine(), *empty, nullptr), centre) << size;
        const auto later = position(size, rule(), size == 5 ? "a1 c3 e5" : "a1 c3 e5 b2");
        (void)choose(*engine(), *later, nullptr);
    }
}

// At a fixed depth the same position gives the same move and node count.
TEST_P(GomokuBot, FixedDepthSearchIsDeterministic) {
    const auto state = position(15, rule(), "h8 i9 g9 i7 i8 g7 h7 h6");
    auto a = engine();
    auto b = engine();
    EXPECT_EQ(choose(*a, *state, nullptr), choose(*b, *state, nullptr));
    EXPECT_EQ(a->nodes(), b->nodes());
    EXPECT_GT(a->nodes(), 0U);
}

INSTANTIATE_TEST_SUITE_P(Gomoku, GomokuBot,
                         ::testing::Combine(::testing::Values("minimax", "alphabeta", "vcf"),
                                            ::testing::Values("freestyle", "exact5")),
                         [](const auto& p) {
                             return std::get<0>(p.param) + "_" + std::get<1>(p.param);
                         });

// ---- threat-space search ------------------------------------------------------

std::unique_ptr<GomokuEngine> vcf_engine() {
    VcfOptions o;
    o.max_depth = 3;
    o.vct_depth = 0;  // only fours: the puzzle is a VCF
    return std::make_unique<VcfEngine>(o);
}

// A six-move VCF for O (freestyle) and for X (exact5): gomoku-vcf finds the
// first move at the root and wins by fours against every block.
TEST(GomokuVcf, SolvesVcfPuzzles) {
    const std::string freestyle = "h8 i8 g9 h10 i11 j11 g11 h9 f8 j9 j8 k9 h7 k11 l10 h12 k12";
    const std::string exact5 = "h8 h7 i7 h9 g9 i9 j10 f10 f8 e11 j8 d12";
    for (const auto& [rule, moves] : {std::pair{"freestyle", freestyle}, {"exact5", exact5}}) {
        SCOPED_TRACE(rule);
        auto state = position(15, rule, moves);
        // Not a one- or two-move win: no five-point, no open-four move.
        Grid grid = Grid::of(*state);
        ASSERT_TRUE(grid.win_cells(state->current_player()).empty());
        ASSERT_FALSE(grid.has_open_four_move(state->current_player()));
        auto engine = vcf_engine();
        std::vector<std::string> infos;
        (void)choose(*engine, *state, &infos);
        EXPECT_NE(std::find(infos.begin(), infos.end(), "string vcf"), infos.end());
        expect_forced_win(*engine, std::move(state), 12);
    }
}

// O (not to move) has the freestyle puzzle's VCF; X has none. gomoku-vcf
// sees it and plays a move after which O has no VCF any more.
TEST(GomokuVcf, DefendsAgainstTheOpponentsVcf) {
    const auto state =
        position(15, "freestyle", "h8 i8 g9 h10 i11 j11 g11 h9 f8 j9 j8 k9 h7 k11 l10 h12 k12 a1");
    Board board;
    bots::gomoku::load_state(board, *state);
    {
        ThreatSolver solver(board);
        solver.set_limits(2'000'000);
        ASSERT_EQ(solver.vcf(20), bots::gomoku::kNoSq);  // X has none
        board.make_null();
        solver.set_limits(2'000'000);
        ASSERT_NE(solver.vcf(20), bots::gomoku::kNoSq);  // O has one
        board.unmake_null();
    }
    auto engine = vcf_engine();
    std::vector<std::string> infos;
    const std::string m = choose(*engine, *state, &infos);
    gomoku_test::expect_vcf_defended(*state, m, infos);
}

// The solver's table only saves work: with 2^8 entries (every search
// overwriting itself) and with 2^18, seeded random positions get the same
// answers, VCF and VCT alike, wherever neither search was cut short.
TEST(GomokuThreats, TableSizeChangesNoAnswer) {
    std::mt19937 rng(7);
    int compared = 0, wins = 0;
    for (int game = 0; game < 30; ++game) {
        Board board;
        random_open_position(board, rng);
        ThreatSolver small(board, 8), large(board, 18);
        for (const bool vct : {false, true}) {
            small.set_limits(100'000);
            large.set_limits(100'000);
            const Sq a = vct ? small.vct(4, 8) : small.vcf(16);
            const Sq b = vct ? large.vct(4, 8) : large.vcf(16);
            if (small.aborted() || large.aborted()) continue;
            ++compared;
            EXPECT_EQ(a != bots::gomoku::kNoSq, b != bots::gomoku::kNoSq)
                << (vct ? "vct" : "vcf") << " in game " << game;
            wins += b != bots::gomoku::kNoSq ? 1 : 0;
        }
        ASSERT_TRUE(board.consistent());
    }
    EXPECT_GE(compared, 30);
    EXPECT_GE(wins, 5);  // not only positions without a threat
}

// X has an open three (g8 h8 i8) and a stone at l8. Freestyle: both f8 and
// j8 make an open four. Exact5: j8 only makes a four (k8 would give six in a
// row), so the threat search must take f8. Either way the move it returns
// leaves two winning cells by the referee's rules.
TEST(GomokuVcf, OpenFourMoveIsNotAnOverlineUnderExact5) {
    for (const std::string rule : {"freestyle", "exact5"}) {
        const auto state = position(15, rule, "g8 a1 h8 a3 i8 o15 l8 o13");
        Board board;
        bots::gomoku::load_state(board, *state);
        ThreatSolver solver(board);
        solver.set_limits(100'000);
        const Sq first = solver.vct(3, 10);
        ASSERT_NE(first, bots::gomoku::kNoSq) << rule;
        auto after = state->clone();
        after->apply(board.to_index(first));
        EXPECT_GE(Grid::of(*after).win_cells(1).size(), 2U)
            << rule << " " << bots::gomoku::square_name(board, first);
        if (rule == "exact5") {
            EXPECT_EQ(bots::gomoku::square_name(board, first), "f8");
        }
    }
}

// ---- legal games through the arena ------------------------------------------

struct Variant {
    std::string label, flags;
};

class GomokuLegalGames : public ::testing::TestWithParam<Variant> {};

// Each bot plays two games against another bot and two against random: every
// game ends by the rules (no illegal move, crash, protocol fault or timeout).
// The tolerance is wide, and scales with the build (timing.hpp): this checks
// the rules, not the timing, and on a loaded machine a bot, niced below the
// arena, may wait long for the CPU between two looks at its clock.
TEST_P(GomokuLegalGames, EveryBotPlaysByTheRules) {
    const auto bot = [](const std::string& name) {
        return "'" + name + "=" + testing::bin("bots/gomoku-" + name) + "'";
    };
    const std::string random = "'random=" + testing::bin("bots/random") + " --game gomoku'";
    const std::vector<std::string> pairings = {bot("vcf") + " " + bot("alphabeta"),
                                               bot("minimax") + " " + bot("vcf"),
                                               bot("alphabeta") + " " + random};
    for (const auto& pair : pairings) {
        const auto j =
            gomoku_test::arena_match(GetParam().flags + " --games 2 --move-ms 100 --tolerance-ms " +
                                     testing::scaled_ms(500) + " --random-plies 2 " + pair);
        gomoku_test::expect_games_by_the_rules(j, 2, pair);
    }
}

INSTANTIATE_TEST_SUITE_P(Gomoku, GomokuLegalGames,
                         ::testing::Values(Variant{"freestyle15", "--size 15 --rule freestyle"},
                                           Variant{"exact5_15", "--size 15 --rule exact5"},
                                           Variant{"freestyle9", "--size 9 --rule freestyle"}),
                         [](const auto& p) { return p.param.label; });

}  // namespace
}  // namespace arena
