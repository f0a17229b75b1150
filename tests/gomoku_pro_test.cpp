// gomoku-pro (bots/gomoku/pro.*): wins in one, blocks fours and open threes,
// solves and defends a VCF, plays legal games on small boards and under
// exact5, answers within its time, leaves the board's pattern tables as a
// recomputation would have them after every search, proves no loss over
// only the moves its width keeps, claims no win that a move off an opponent's
// VCF line refutes, and plays by the rules through the arena. Its fitted
// evaluation is the dot product of its features and weights, and judges
// double threats as they are; gomoku-pro-tune fits it on an arena export.
// It plays a win that its table proved, checks the move it chose against
// the opponent's VCT, and ranks the root moves that failed low by the nodes
// their search took.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bots/gomoku/pro.hpp"
#include "bots/gomoku/pro_eval.hpp"
#include "gomoku_positions.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using bots::gomoku::Board;
using bots::gomoku::ProEngine;
using bots::gomoku::ProOptions;
using bots::gomoku::Rule;
using bots::gomoku::Sq;
using games::Move;
using games::State;
using gomoku_test::choose;
using gomoku_test::expect_forced_win;
using gomoku_test::position;
using gomoku_test::win_cells;

// A shallow engine: the tests check what it plays, not how deep it sees.
ProOptions shallow(int depth) {
    ProOptions o;
    o.max_depth = depth;
    o.root_vcf_nodes = 200'000;
    o.root_vct_nodes = 20'000;
    o.defence_vct_nodes = 1'000;
    o.tt_bits = 16;
    return o;
}
std::unique_ptr<ProEngine> engine(int depth = 4) {
    return std::make_unique<ProEngine>(shallow(depth));
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

// The score of the last of `infos` that has one.
int last_score(const std::vector<std::string>& infos) {
    for (auto it = infos.rbegin(); it != infos.rend(); ++it)
        if (const auto at = it->find("score "); at != std::string::npos)
            return std::stoi(it->substr(at + 6));
    return 0;
}

// The score of the last info line of `e` searching its board as it stands.
int searched_score(ProEngine& e) {
    std::vector<std::string> infos;
    (void)e.think_untimed([&](std::string_view line) { infos.emplace_back(line); });
    return last_score(infos);
}

// The root moves of an iteration, ranked for the next: the ones that raised
// alpha by their value, above every one that failed low. gomoku-pro ranks
// those by the nodes their search took, most first, so that an iteration cut
// short after its first move fails low tries the hardest to refute next;
// gomoku-vcf keeps the order its ladder runs were measured with, the last
// searched first.
TEST(GomokuProSearch, RanksTheRootMovesThatFailLowByTheNodesTheyTook) {
    using bots::gomoku::FailLowOrder;
    using bots::gomoku::kWinScore;
    using bots::gomoku::root_rank;
    struct Searched {
        Sq move;
        bool raised;
        int value;
        std::uint64_t nodes;
    };
    // In search order: the previous best (a loss, searched first), then moves
    // that failed low with their nodes, one that raised alpha, and one whose
    // search took more nodes than a rank can hold.
    const std::vector<Searched> iteration = {
        {10, true, -(kWinScore - 7), 50},
        {11, false, 0, 900},
        {12, false, 0, 40'000},
        {13, true, -120, 70'000},
        {14, false, 0, 10},
        {15, false, 0, 2'000},
        {16, false, 0, std::uint64_t{1} << 40},
    };
    const auto ranked = [&](FailLowOrder order) {
        bots::gomoku::MoveList root;
        for (std::size_t i = 0; i < iteration.size(); ++i) {
            const auto& m = iteration[i];
            root.add(m.move, root_rank(order, m.raised, m.value, static_cast<int>(i), m.nodes));
        }
        root.sort();
        return std::vector<Sq>(root.sq.begin(), root.sq.begin() + root.size);
    };
    EXPECT_EQ(ranked(FailLowOrder::kByNodes), (std::vector<Sq>{13, 10, 16, 12, 15, 11, 14}));
    EXPECT_EQ(ranked(FailLowOrder::kLastFirst), (std::vector<Sq>{13, 10, 16, 15, 14, 12, 11}));
    // gomoku-pro's: below the lowest value a search returns, whatever the
    // nodes and the place.
    EXPECT_LT(root_rank(FailLowOrder::kByNodes, false, 0, 200, ~std::uint64_t{0}), -kWinScore);
}

// A proven loss needs every move searched: once all the moves that the width
// keeps lose, the others are searched too. So an engine that keeps one move a
// node proves no loss that an engine keeping them all does not also prove
// (without reductions and inner threat searches, both search the same lines
// at the same depths, the narrow one a subset of them). The first position
// is one where the narrow engine, searching only the moves kept, "proved" a
// loss that was none; the others are seeded random positions.
TEST(GomokuProSearch, ProvesNoLossThatAWiderSearchDoesNot) {
    const auto make = [](int width) {
        ProOptions o;
        o.max_depth = 4;
        o.width = width;
        o.min_width = width;
        o.reductions = false;
        o.threat_nodes = 0;
        o.leaf_vcf_nodes = 0;
        o.root_vcf_nodes = 20'000;
        o.root_vct_nodes = 5'000;
        o.defence_vct_nodes = 500;
        o.tt_bits = 16;
        return std::make_unique<ProEngine>(o);
    };
    std::vector<std::string> positions = {"h8 h9 g10 i10 j11 g7 g8 i7 j7 h7 i12 h12 k11 f10 k12"};
    std::mt19937 rng(7);
    Board board;
    while (positions.size() < 40) {
        board.reset(15, Rule::kFreestyle);
        std::string moves;
        for (int i = 8 + static_cast<int>(rng() % 10); i > 0; --i) {
            bots::gomoku::MoveList near;
            bots::gomoku::near_moves(board, 1, near);
            const Sq s = near.sq[rng() % near.size];
            if (board.wins(board.to_move(), s)) continue;
            board.make(s);
            moves += bots::gomoku::square_name(board, s) + " ";
        }
        positions.push_back(moves);
    }
    int losses = 0;
    for (const std::string& moves : positions) {
        auto narrow = make(1);
        auto wide = make(64);
        ASSERT_TRUE(setup_board(narrow->board(), 15, Rule::kFreestyle, moves)) << moves;
        ASSERT_TRUE(setup_board(wide->board(), 15, Rule::kFreestyle, moves)) << moves;
        if (searched_score(*narrow) > -bots::gomoku::kMateBound) continue;
        ++losses;
        EXPECT_LE(searched_score(*wide), -bots::gomoku::kMateBound) << moves;
    }
    EXPECT_GE(losses, 2);
}

// Does the side to move after `moves` (15x15 freestyle) have a VCT of 8 own
// moves that a search of `nodes` finds?
bool has_vct(const std::string& moves, std::uint64_t nodes) {
    Board board;
    EXPECT_TRUE(setup_board(board, 15, Rule::kFreestyle, moves)) << moves;
    bots::gomoku::ThreatSolver solver(board, 20);
    solver.set_limits(nodes);
    return solver.vct(8, 10) != bots::gomoku::kNoSq;
}

// O to move has a VCF threat of X to answer and a line of fours of its own
// after e10; but after e10, X's open three h12 breaks O's fours (the blocks
// they force make fours for X) and wins by a VCT. Inside the search the
// cells of an opponent's VCF line are only the first defences tried: a
// search that tried no others scored e10 a forced win (and lost the game).
TEST(GomokuProSearch, ClaimsNoWinThatAMoveOffTheLineRefutes) {
    const std::string moves = "j10 g10 i6 h11 j13 f9 i12 e8 d7 j11 i11 i10 h9 f13 g12";
    EXPECT_TRUE(has_vct(moves + " e10", 5'000'000)) << "X wins after e10";

    auto e = engine(7);
    ASSERT_TRUE(setup_board(e->board(), 15, Rule::kFreestyle, moves));
    EXPECT_LT(searched_score(*e), bots::gomoku::kMateBound);
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
    gomoku_test::expect_vcf_defended(*state, m, infos);
}

// From a game of gomoku-pro (O) against gomoku-vcf: at the first position
// the search (the game's flags, depth 7, a root VCT cut short as the clock
// cut it in the game) proves a win with g6; X
// answers h7, and the next move is the table's proven win, played before the
// root threat searches (which, within their budgets, saw only X's VCT in the
// game and kept only defences). A fresh engine has no such entry.
TEST(GomokuProSearch, PlaysTheWinItsTableProved) {
    const std::string moves =
        "j10 i10 f6 j9 g5 k8 h11 i9 e7 h4 d8 c9 k9 i8 i11 l7 m6 i7 i6 l8 h12 g13 h8 m8 j8 n8 o8";
    ProOptions o;
    o.max_depth = 7;
    o.width = 16;
    o.min_width = 12;
    o.null_reduction = 2;
    o.late_moves = 4;
    o.log_reductions = true;
    o.root_vct_nodes = 20'000;  // in the game, the clock cut the root VCT short
    ProEngine e(o);
    std::vector<std::string> infos;
    ASSERT_EQ(choose(e, *position(15, "freestyle", moves), &infos), "g6");
    ASSERT_GE(last_score(infos), bots::gomoku::kMateBound);

    const auto next = position(15, "freestyle", moves + " g6 h7");
    infos.clear();
    (void)choose(e, *next, &infos);
    EXPECT_NE(std::find(infos.begin(), infos.end(), "string proven win"), infos.end());
    EXPECT_GE(last_score(infos), bots::gomoku::kMateBound);

    infos.clear();
    ProEngine fresh(o);
    (void)choose(fresh, *next, &infos);
    EXPECT_EQ(std::find(infos.begin(), infos.end(), "string proven win"), infos.end());
}

// From a game of gomoku-pro (O) against gomoku-vcf: X threatens a VCT, and
// f10, the search's choice among the defences its small budgets kept, loses
// to one (j10). With time kept to check the chosen move, O plays a move
// after which X has none that a search of the check's budget finds.
TEST(GomokuProThreats, ChecksTheChosenMoveAgainstAVct) {
    const std::string moves = "f7 i9 j7 g7 h9 i8 h8 h10 i7 g9 g8 i10 i11 g11 j8 f12 e13";
    ASSERT_TRUE(has_vct(moves + " f10", 2'000'000)) << "X wins after f10";

    const auto state = position(15, "freestyle", moves);
    EXPECT_EQ(choose(*engine(7), *state), "f10");

    ProOptions o = shallow(7);
    o.verify_share = 0.2;
    ProEngine checked(o);
    std::vector<std::string> infos;
    const std::string m = choose(checked, *state, &infos);
    EXPECT_NE(m, "f10");
    EXPECT_TRUE(std::any_of(infos.begin(), infos.end(), [](const std::string& line) {
        return line.starts_with("string f10 loses to a vct, playing ");
    }));
    EXPECT_FALSE(has_vct(moves + " " + m, o.verify_nodes)) << "X has a VCT after " << m;
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

// Seeded random positions: evaluate() is the dot product of eval_features()
// with the weights in their order, for random weights and the fitted ones,
// with the opponent's cells scaled for a defender (--defence); every empty
// cell has one combination per colour.
TEST(GomokuProEval, IsTheDotProductOfItsFeaturesAndWeights) {
    std::mt19937 rng(77);
    std::uniform_int_distribution<int> weight(-1000, 1000);
    bots::gomoku::EvalWeights random;
    for (int& w : random.mine)
        w = weight(rng);
    for (int& w : random.theirs)
        w = weight(rng);
    for (int& w : random.terms)
        w = weight(rng);
    random.bias = weight(rng);
    const auto flat = [](const bots::gomoku::EvalWeights& w) {
        std::vector<int> v(w.mine.begin(), w.mine.end());
        v.insert(v.end(), w.theirs.begin(), w.theirs.end());
        v.insert(v.end(), w.terms.begin(), w.terms.end());
        v.push_back(w.bias);
        return v;
    };
    auto board = std::make_unique<Board>();
    int checked = 0;
    for (int game = 0; game < 20; ++game) {
        board->reset(15, game % 2 ? Rule::kExact5 : Rule::kFreestyle);
        for (int ply = 0; ply < 60; ++ply) {
            bots::gomoku::MoveList moves;
            bots::gomoku::near_moves(*board, 2, moves);
            const Sq s = moves.sq[rng() % moves.size];
            if (board->wins(board->to_move(), s)) break;
            board->make(s);
            const std::vector<int> x = bots::gomoku::eval_features(*board);
            ASSERT_EQ(x.size(), static_cast<std::size_t>(bots::gomoku::kEvalFeatures));
            for (const auto& w : {random, bots::gomoku::tuned_eval_weights()}) {
                const std::vector<int> v = flat(w);
                long long dot = 0;
                for (std::size_t i = 0; i < x.size(); ++i)
                    dot += static_cast<long long>(x[i]) * v[i];
                ASSERT_EQ(bots::gomoku::evaluate(*board, w), dot) << "game " << game;
                // For the defender, the opponent's cell terms weigh 130 %
                // (the "theirs" block when it is to move, the "mine" block
                // when the opponent is), measured from a board of quiet
                // cells.
                const auto block = [&](std::size_t from) {
                    long long sum = 0;
                    for (std::size_t i = from; i < from + bots::gomoku::kCombos; ++i)
                        sum += static_cast<long long>(x[i]) * v[i];
                    return sum;
                };
                const long long mine = block(0), theirs = block(bots::gomoku::kCombos);
                const long long rest = dot - mine - theirs;
                const long long empty = 15 * 15 - board->stones();
                const long long quiet_mine = v[bots::gomoku::kQuietCombo] * empty;
                const long long quiet_theirs =
                    v[bots::gomoku::kCombos + bots::gomoku::kQuietCombo] * empty;
                const int me = board->to_move();
                ASSERT_EQ(bots::gomoku::evaluate(*board, w, me, 130),
                          rest + mine + theirs + (theirs - quiet_theirs) * 30 / 100);
                ASSERT_EQ(bots::gomoku::evaluate(*board, w, bots::gomoku::other(me), 130),
                          rest + mine + theirs + (mine - quiet_mine) * 30 / 100);
                ASSERT_EQ(bots::gomoku::evaluate(*board, w, me, 100), dot);
                // Every empty cell counts once in either block, so moving a
                // constant from one block's weights to the other's changes
                // nothing, for the defender too.
                bots::gomoku::EvalWeights shifted = w;
                for (int k = 0; k < bots::gomoku::kCombos; ++k) {
                    shifted.mine[k] += 230;
                    shifted.theirs[k] -= 230;
                }
                for (const int defender : {me, bots::gomoku::other(me)}) {
                    ASSERT_EQ(bots::gomoku::evaluate(*board, shifted, defender, 130),
                              bots::gomoku::evaluate(*board, w, defender, 130));
                }
            }
            for (const int color : {1, 2}) {
                int cells = 0;
                for (const int n : board->combo_counts(color))
                    cells += n;
                ASSERT_EQ(cells, 15 * 15 - board->stones());
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 500);
}

// --defence weighs the opponent's cells only when gomoku-pro plays second:
// as the first player its evaluation is the fitted one, unchanged.
TEST(GomokuProEval, DefenceScalesOnlyTheSecondPlayersEvaluation) {
    ProOptions o;
    o.defence_percent = 130;
    ProEngine e(o);
    const auto game = games::make_game("gomoku", {{"size", "15"}, {"rule", "freestyle"}});
    const auto& w = bots::gomoku::tuned_eval_weights();
    for (const std::string moves : {"h8 i9 g9", "h8 i9 g9 i7"}) {
        for (const int player : {1, 2}) {
            e.new_game(*game, player);
            ASSERT_TRUE(bots::gomoku::setup_board(e.board(), 15, Rule::kFreestyle, moves));
            const int expected = player == 2 ? bots::gomoku::evaluate(e.board(), w, 2, 130)
                                             : bots::gomoku::evaluate(e.board(), w);
            EXPECT_EQ(e.evaluate(), expected) << moves << ", player " << player;
        }
        EXPECT_NE(bots::gomoku::evaluate(e.board(), w, 2, 130),
                  bots::gomoku::evaluate(e.board(), w))
            << moves;
    }
}

// The fitted evaluation knows what decides games: a four-three to play is
// nearly won, and the opponent's two open threes against no four of ours
// nearly lost.
TEST(GomokuProEval, FittedWeightsJudgeDoubleThreats) {
    const auto score = [](const std::string& moves) {
        auto board = std::make_unique<Board>();
        bots::gomoku::load_state(*board, *position(15, "freestyle", moves));
        return bots::gomoku::evaluate(*board, bots::gomoku::tuned_eval_weights());
    };
    // X to move: f7 g7 h7 (closed by O's e7) and i8 i9; i7 makes a four and
    // an open three. O's other stones are far apart.
    EXPECT_GT(score("f7 e7 g7 a1 h7 a3 i8 a5 i9 o15"), 2000);
    // X to move, with stones too far apart to make anything, against O's
    // open threes f6 g6 h6 and k9 k10 k11.
    EXPECT_LT(score("a1 f6 h1 g6 o1 h6 a8 k9 a15 k10 o15 k11"), -2000);
}

// gomoku-pro-tune on a match the arena played and exported: it fits, holds
// out games, and writes pro_weights.cpp; a file of another game is refused,
// named with its line.
TEST(GomokuProTune, FitsOnAnArenaExportAndWritesTheWeights) {
    const testing::TempDir dir("gomoku_pro_tune");
    const std::string db = (dir.path() / "games.db").string();
    const std::string pgn = (dir.path() / "games.pgn").string();
    const std::string cpp = (dir.path() / "pro_weights.cpp").string();
    const auto match = testing::run_shell(
        testing::bin("bin/arena") + " match --game gomoku --size 9 --games 8 --move-ms 100 " +
        "--tolerance-ms " + testing::scaled_ms(500) + " --random-plies 2 --db " + db + " " +
        testing::bin("bots/gomoku-alphabeta") + " " + testing::bin("bots/random"));
    ASSERT_EQ(match.status, 0) << match.out;
    const auto exported =
        testing::run_shell(testing::bin("bin/arena") + " export " + db + " --format pgn -o " + pgn);
    ASSERT_EQ(exported.status, 0) << exported.out;
    const auto fit = testing::run_shell(testing::bin("bots/gomoku-pro-tune") + " " + pgn +
                                        " --l2 10 --holdout 4 --cpp " + cpp);
    ASSERT_EQ(fit.status, 0) << fit.out;
    EXPECT_NE(fit.out.find("8 games (0 skipped)"), std::string::npos) << fit.out;
    EXPECT_NE(fit.out.find("held out"), std::string::npos) << fit.out;
    const std::string written = testing::slurp(cpp);
    EXPECT_NE(written.find("const EvalWeights& tuned_eval_weights()"), std::string::npos);
    EXPECT_NE(written.find("of 8 games"), std::string::npos) << written;

    // Fitted on a blend with the scores of a depth-2 search: the scores are
    // kept in a file and read back by the next run, which fits the same.
    const std::string scores = (dir.path() / "scores.txt").string();
    const std::string blend = testing::bin("bots/gomoku-pro-tune") + " " + pgn +
                              " --l2 10 --search-depth 2 --lambda 0.5 --threads 2 --scores " +
                              scores;
    const auto searched = testing::run_shell(blend);
    ASSERT_EQ(searched.status, 0) << searched.out;
    EXPECT_NE(searched.out.find("searched each to depth 2"), std::string::npos) << searched.out;
    EXPECT_NE(searched.out.find("depth 2 "), std::string::npos) << searched.out;
    const auto reread = testing::run_shell(blend);
    ASSERT_EQ(reread.status, 0) << reread.out;
    EXPECT_NE(reread.out.find("read the depth-2 scores from " + scores), std::string::npos)
        << reread.out;
    const auto fitted_line = [](const std::string& out) {
        const auto at = out.find("fitted");
        return out.substr(at, out.find('\n', at) - at);
    };
    EXPECT_EQ(fitted_line(reread.out), fitted_line(searched.out));
    EXPECT_NE(fitted_line(searched.out), fitted_line(fit.out));
    const auto other_depth = testing::run_shell(testing::bin("bots/gomoku-pro-tune") + " " + pgn +
                                                " --search-depth 3 --scores " + scores);
    EXPECT_EQ(other_depth.status, 2) << other_depth.out;
    EXPECT_NE(other_depth.out.find(scores + ": not the scores of these games at depth 3"),
              std::string::npos)
        << other_depth.out;

    const std::string other =
        dir.write("connect4.pgn",
                  "[Event \"x\"]\n[Game \"connect4 rows=6 cols=7\"]\n"
                  "[Result \"1-0\"]\n[Termination \"normal\"]\n\n1. d d 2. d 1-0\n");
    const auto refused = testing::run_shell(testing::bin("bots/gomoku-pro-tune") + " " + other);
    EXPECT_EQ(refused.status, 2) << refused.out;
    EXPECT_NE(refused.out.find(other + ":1: not a gomoku game"), std::string::npos) << refused.out;
}

// Two games through the arena against gomoku-vcf on a small exact5 board:
// no illegal move, crash, protocol fault or timeout.
TEST(GomokuProArena, PlaysByTheRulesThroughTheArena) {
    const std::string pair = "'pro=" + testing::bin("bots/gomoku-pro") +
                             "' 'vcf=" + testing::bin("bots/gomoku-vcf") + "'";
    const auto j = gomoku_test::arena_match("--size 9 --rule exact5 --games 2 --move-ms 100" +
                                            std::string(" --tolerance-ms ") +
                                            testing::scaled_ms(500) + " --random-plies 2 " + pair);
    gomoku_test::expect_games_by_the_rules(j, 2, pair);
}

}  // namespace
}  // namespace arena
