// The evaluation weights of one reference bot per game, settable from the
// command line for `arena tune`: reversi-alphabeta (--corner, --steady,
// --mobility, --frontier), gomoku-alphabeta (--four, --open-three, --three,
// --open-two, --two, --one) and c4-alphabeta (--three, --two, --shorter,
// --both-ends). The defaults are the shipped weights, and searches with them
// give the moves, scores and node counts the code gave before the weights
// became settable (recorded from it); other weights reach the evaluation,
// in process and through each bot's command line; bad values are refused.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arena/games/connect4.hpp"
#include "arena/games/registry.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/common/weight_flags.hpp"
#include "bots/connect4/alphabeta.hpp"
#include "bots/gomoku/alphabeta.hpp"
#include "bots/reversi/alphabeta.hpp"
#include "bots/reversi/evaluation.hpp"
#include "proc_util.hpp"
#include "protocol/codec.hpp"

namespace arena {
namespace {

using testing::bin;
using testing::lines_of;
using testing::run_shell;

// The last `info` line's score and the `move` of a search's output lines.
struct Outcome {
    std::string move;
    std::optional<std::int64_t> score;
};

Outcome outcome_of(const std::vector<std::string>& lines) {
    Outcome o;
    for (const std::string& line : lines) {
        if (line.starts_with("move ")) o.move = line.substr(5);
        // The engines' info sinks get the text without the word `info`.
        if (line.starts_with("move ") || line.starts_with("string ")) continue;
        if (const auto s = protocol::info_value(line, "score")) o.score = s;
    }
    return o;
}

// The state after `moves` (the game's notation, space separated).
std::unique_ptr<games::State> play(const games::Game& game, const std::string& moves) {
    auto state = game.new_initial_state();
    std::istringstream in(moves);
    for (std::string word; in >> word;) {
        const auto m = state->parse_move(word);
        if (!m || !state->is_legal(*m)) throw std::runtime_error("bad move " + word);
        state->apply(*m);
    }
    return state;
}

protocol::Go go_depth(int depth) {
    return protocol::Go{
        .move_ms = 600000, .clock_ms = {}, .opp_clock_ms = {}, .depth = depth, .nodes = {}};
}

// ---- the flag values --------------------------------------------------------------

TEST(WeightFlagParsing, RoundsDecimalsAndRefusesTheRest) {
    using bots::parse_weight;
    EXPECT_EQ(parse_weight("corner", "512", 0, 1000), 512);
    EXPECT_EQ(parse_weight("corner", "512.0", 0, 1000), 512);
    EXPECT_EQ(parse_weight("corner", "511.6", 0, 1000), 512);
    EXPECT_EQ(parse_weight("corner", "511.4", 0, 1000), 511);
    EXPECT_EQ(parse_weight("corner", "2.5", 0, 1000), 3);  // halves away from zero
    EXPECT_EQ(parse_weight("corner", "1e2", 0, 1000), 100);
    EXPECT_EQ(parse_weight("corner", "-0.4", 0, 1000), 0);
    EXPECT_EQ(parse_weight("corner", "1000.4", 0, 1000), 1000);
    for (const char* bad : {"", "abc", "8x", " 8", "+8", "-1", "1000.5", "1e9", "inf", "nan"}) {
        try {
            (void)parse_weight("corner", bad, 0, 1000);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()),
                      "--corner must be a number from 0 to 1000 (rounded to an integer), not '" +
                          std::string(bad) + "'");
        }
    }
}

// ---- reversi-alphabeta ------------------------------------------------------------

TEST(ReversiWeights, DefaultsAreTheSeeds) {
    const bots::reversi::EvalWeights w;
    EXPECT_EQ(w.corner, 8);
    EXPECT_EQ(w.steady, 12);
    EXPECT_EQ(w.mobility, 8);
    EXPECT_EQ(w.frontier, 4);
    EXPECT_EQ(bots::reversi::AlphaBetaOptions{}.weights, w);
}

// Seeded random positions searched to a fixed depth without the solver:
// the move, score and nodes of the code before the weights were settable.
TEST(ReversiWeights, DefaultSearchesAreUnchanged) {
    using namespace bots::reversi;
    struct Case {
        std::uint64_t seed;
        int plies, depth, move, score;
        std::uint64_t nodes;
    };
    constexpr std::array<Case, 4> kBefore{{
        {11, 10, 5, 2, 52, 2096},
        {12, 24, 6, 58, 68, 15650},
        {13, 36, 6, 57, 48, 3981},
        {14, 46, 5, 0, 876, 1634},
    }};
    for (const Case& c : kBefore) {
        const Position pos = position_of(random_position(c.seed, c.plies));
        for (const bool explicit_weights : {false, true}) {
            Searcher searcher = explicit_weights ? Searcher(16, EvalWeights{}) : Searcher(16);
            const SearchReport r = searcher.search(pos, bots::SearchClock::unlimited(), c.depth, 0);
            EXPECT_EQ(r.move, c.move) << c.seed;
            EXPECT_EQ(r.score, c.score) << c.seed;
            EXPECT_EQ(r.nodes, c.nodes) << c.seed;
        }
    }
}

// The four strategies of a position where none is zero, each read with a
// unit weight: the evaluation is their weighted sum, and the searcher
// evaluates with the weights it was given.
TEST(ReversiWeights, EachWeightScalesItsStrategy) {
    using namespace bots::reversi;
    int found = 0;
    for (std::uint64_t seed = 1; seed <= 400 && found < 3; ++seed) {
        const Position pos = position_of(random_position(seed, 44));
        const Bitboard own = pos.moves(), opp = legal_moves(pos.opp, pos.own);
        if (own == 0) continue;
        const int corner = evaluate(pos, own, opp, {1, 0, 0, 0});
        const int steady = evaluate(pos, own, opp, {0, 1, 0, 0});
        const int mobility = evaluate(pos, own, opp, {0, 0, 1, 0});
        const int frontier = evaluate(pos, own, opp, {0, 0, 0, 1});
        if (corner == 0 || steady == 0 || mobility == 0 || frontier == 0) continue;
        ++found;
        EXPECT_EQ(evaluate(pos, own, opp), 8 * corner + 12 * steady + 8 * mobility + 4 * frontier);
        for (const EvalWeights w :
             {EvalWeights{4, 6, 4, 2}, EvalWeights{9, 12, 8, 4}, EvalWeights{8, 13, 8, 4},
              EvalWeights{8, 12, 0, 4}, EvalWeights{8, 12, 8, 64}}) {
            const int expected = w.corner * corner + w.steady * steady + w.mobility * mobility +
                                 w.frontier * frontier;
            EXPECT_EQ(evaluate(pos, own, opp, w), expected) << seed;
            EXPECT_NE(expected, evaluate(pos, own, opp)) << seed;
            EXPECT_EQ(Searcher(16, w).value(pos, 0), expected) << seed;
        }
    }
    EXPECT_EQ(found, 3);
}

// ---- gomoku-alphabeta -------------------------------------------------------------

TEST(GomokuWeights, DefaultsAreTheSeeds) {
    const bots::gomoku::ShapeWeights w;
    EXPECT_EQ(w.open_four, 300000);
    EXPECT_EQ(w.four, 2600);
    EXPECT_EQ(w.open_three, 3000);
    EXPECT_EQ(w.three, 500);
    EXPECT_EQ(w.open_two, 100);
    EXPECT_EQ(w.two, 20);
    EXPECT_EQ(w.one, 2);
    EXPECT_EQ(bots::gomoku::AlphaBetaOptions{}.weights, w);
}

struct GomokuCase {
    int size;
    bots::gomoku::Rule rule;
    const char* moves;
    const char* move;
    int score;
    std::uint64_t nodes;
};

// The move, score and nodes at depth 4 (the bench's) of the code before the
// weights were settable.
constexpr std::array<GomokuCase, 5> kGomokuBefore{{
    {15, bots::gomoku::Rule::kFreestyle, "h8 i9 g9 i7 i8 g7 h7 h6", "j8", 824, 10213},
    {15, bots::gomoku::Rule::kFreestyle, "h8 h7 i9 g7 j10 k11 g9", "i7", -204, 10699},
    {15, bots::gomoku::Rule::kExact5, "h8 g7 i9 j10 g9 f9", "h10", 532, 26057},
    {20, bots::gomoku::Rule::kFreestyle, "j10 k11 k10 i10 l9 m8 j11 j9 l11 l10", "k8", -2484,
     14507},
    {15, bots::gomoku::Rule::kFreestyle, "h8 i9 i8 g8 j8 k8 j9 h7 j7 j10 k6 l5 i6", "j6", -3390,
     8670},
}};

TEST(GomokuWeights, DefaultSearchesAreUnchanged) {
    using namespace bots::gomoku;
    for (const GomokuCase& c : kGomokuBefore) {
        for (const bool explicit_weights : {false, true}) {
            AlphaBetaOptions options{.max_depth = 4, .width = 10, .weights = {}};
            if (explicit_weights) options.weights = ShapeWeights{};
            AlphaBetaEngine engine(options);
            ASSERT_TRUE(setup_board(engine.board(), c.size, c.rule, c.moves)) << c.moves;
            std::vector<std::string> infos;
            const Sq s = engine.think_untimed([&](std::string_view l) { infos.emplace_back(l); });
            EXPECT_EQ(square_name(engine.board(), s), c.move) << c.moves;
            EXPECT_EQ(outcome_of(infos).score, c.score) << c.moves;
            EXPECT_EQ(engine.nodes(), c.nodes) << c.moves;
        }
    }
}

// The evaluation is the shapes' counts times their values, own minus the
// opponent's, and each value the command line sets changes it in some of
// these positions (all undecided, so that the shapes decide): those above,
// one where the opponent (X, who just moved) has a four blocked at one end
// (its five-point l8 for O to block), and one where it has an open three.
TEST(GomokuWeights, EachWeightScalesItsShape) {
    using namespace bots::gomoku;
    const std::array<int ShapeWeights::*, 6> exposed{
        &ShapeWeights::four,     &ShapeWeights::open_three, &ShapeWeights::three,
        &ShapeWeights::open_two, &ShapeWeights::two,        &ShapeWeights::one};
    std::array<bool, 6> changed{};
    std::vector<std::pair<Rule, std::string>> positions;
    for (const GomokuCase& c : kGomokuBefore)
        if (c.size == 15) positions.emplace_back(c.rule, c.moves);
    positions.emplace_back(Rule::kFreestyle, "h8 g8 i8 a1 j8 a2 k8");
    positions.emplace_back(Rule::kFreestyle, "h8 a1 i8 a3 j8");
    for (const auto& [rule, moves] : positions) {
        AlphaBetaEngine plain({});
        ASSERT_TRUE(setup_board(plain.board(), 15, rule, moves));
        const Board& b = plain.board();
        const int me = b.to_move();
        const int base = plain.evaluate(0);
        ASSERT_LT(std::abs(base), AlphaBetaEngine::kLikelyBound) << moves;
        EXPECT_EQ(base, b.shape_score(me) - b.shape_score(other(me)));
        for (std::size_t i = 0; i < exposed.size(); ++i) {
            ShapeWeights w;
            w.*exposed[i] = w.*exposed[i] / 2 + 7;
            AlphaBetaEngine tuned({.max_depth = 64, .width = 10, .weights = w});
            ASSERT_TRUE(setup_board(tuned.board(), 15, rule, moves));
            const auto& mine = b.shape_counts(me);
            const auto& theirs = b.shape_counts(other(me));
            const int value = w.open_four * (mine[kShapeOpenFour] - theirs[kShapeOpenFour]) +
                              w.four * (mine[kShapeFour] - theirs[kShapeFour]) +
                              w.open_three * (mine[kShapeOpenThree] - theirs[kShapeOpenThree]) +
                              w.three * (mine[kShapeThree] - theirs[kShapeThree]) +
                              w.open_two * (mine[kShapeOpenTwo] - theirs[kShapeOpenTwo]) +
                              w.two * (mine[kShapeTwo] - theirs[kShapeTwo]) +
                              w.one * (mine[kShapeOne] - theirs[kShapeOne]);
            EXPECT_EQ(tuned.evaluate(0), value) << moves << " weight " << i;
            changed[i] = changed[i] || value != base;
        }
    }
    for (std::size_t i = 0; i < changed.size(); ++i)
        EXPECT_TRUE(changed[i]) << "weight " << i << " changed no evaluation";
}

// ---- c4-alphabeta -----------------------------------------------------------------

TEST(Connect4Weights, DefaultsAreTheSeeds) {
    const c4::RunWeights w;
    EXPECT_EQ(w.three, 100);
    EXPECT_EQ(w.two, 10);
    EXPECT_EQ(w.shorter, 1);
    EXPECT_EQ(w.both_ends, 100);
    EXPECT_EQ(c4::AlphaBetaOptions{}.weights, w);
}

// The move, score and nodes at depth 8 of the code before the weights were
// settable (7 x 6, and 10 x 12 connect 5).
TEST(Connect4Weights, DefaultSearchesAreUnchanged) {
    struct Case {
        int rows, cols, connect;
        const char* moves;
        const char* move;
        int score;
        std::uint64_t nodes;
    };
    constexpr std::array<Case, 5> kBefore{{
        {6, 7, 4, "", "4", 0, 19047},
        {6, 7, 4, "4 4 3 5", "4", -10, 44111},
        {6, 7, 4, "4 4 4 4 3 5", "5", 0, 66565},
        {6, 7, 4, "4 3 5 4 6 2 4 4 3", "7", -80, 23730},
        {10, 12, 5, "6 7 6 5 8", "6", -9, 214203},
    }};
    for (const Case& c : kBefore) {
        const games::Connect4Game game(games::Connect4Config{
            .rows = c.rows, .cols = c.cols, .connect = c.connect, .blocked = {}});
        const auto state = play(game, c.moves);
        for (const bool explicit_weights : {false, true}) {
            c4::AlphaBetaOptions options{.depth = 8, .soon = 2, .weights = {}};
            if (explicit_weights) options.weights = c4::RunWeights{};
            const auto engine = c4::make_alphabeta_engine(options);
            engine->new_game(game, state->current_player());
            std::vector<std::string> infos;
            protocol::Go go;
            go.move_ms = 600000;
            const games::Move m =
                engine->choose(*state, go, [&](std::string_view l) { infos.emplace_back(l); });
            EXPECT_EQ(state->format_move(m), c.move) << c.moves;
            EXPECT_EQ(outcome_of(infos).score, c.score) << c.moves;
            EXPECT_EQ(engine->nodes(), c.nodes) << c.moves;
        }
    }
}

// Hand-counted positions: after 4 1 3 1 the first player (to move) has a
// horizontal two with both ends playable now, the second a vertical two
// with one good end (the cell above); after 4 1 3 1 2 the first player's
// three has one good end, and it is the second player's turn; on connect 5,
// after 4 1 3, the second player faces a two that is three short.
TEST(Connect4Weights, EachWeightChangesTheEvaluation) {
    const auto value = [](int connect, const std::string& moves, const c4::RunWeights& w) {
        const games::Connect4Game game(
            games::Connect4Config{.rows = 6, .cols = 7, .connect = connect, .blocked = {}});
        return c4::alphabeta_evaluation(game, c4::connect4_state(*play(game, moves)),
                                        {.depth = 0, .soon = 2, .weights = w});
    };
    for (const c4::RunWeights w : {c4::RunWeights{}, c4::RunWeights{50, 5, 1, 100},
                                   c4::RunWeights{100, 7, 1, 100}, c4::RunWeights{100, 10, 1, 55},
                                   c4::RunWeights{37, 10, 3, 0}, c4::RunWeights{100, 10, 9, 250}}) {
        const auto bonus = [&](int points) { return (points * w.both_ends + 50) / 100; };
        EXPECT_EQ(value(4, "4 1 3 1", w), 2 * w.two + bonus(w.two) - w.two);
        EXPECT_EQ(value(4, "4 1 3 1 2", w), w.two - w.three);
        EXPECT_EQ(value(5, "4 1 3", w), -(2 * w.shorter + bonus(w.shorter)));
    }
    EXPECT_EQ(value(4, "4 1 3 1", {}), 20);
    EXPECT_EQ(value(4, "4 1 3 1 2", {}), -90);
    EXPECT_EQ(value(5, "4 1 3", {}), -3);
    // Far beyond any shipped value, the evaluation stays below a proven win.
    EXPECT_EQ(value(4, "4 1 3 1 2", {.three = 0, .two = 10000, .shorter = 1, .both_ends = 1000}),
              10000);
}

// ---- through each bot's command line ----------------------------------------------

struct Answer {
    int status = -1;
    Outcome outcome;
    std::string out;
};

// `bot args` answering one `go` at `depth` in the position after `moves`.
Answer ask(const std::string& bot, const std::string& args, const std::string& game_line,
           const std::string& moves, int depth) {
    const std::string script = "arena 1\\n" + game_line + "\\nposition " + moves +
                               "\\ngo move_ms=600000 depth=" + std::to_string(depth) + "\\nquit\\n";
    const auto r = run_shell("printf '" + script + "' | " + bin("bots/" + bot) + " " + args);
    return {r.status, outcome_of(lines_of(r.out)), r.out};
}

struct Flags {
    std::string label;
    std::string bot;
    std::string args;  // other weights than the defaults
    std::string game_line;
    std::string moves;
    int depth;
    // The move and score of the same search in process: with the default
    // weights (false) or with those of `args` (true).
    std::function<Outcome(const games::Game&, const games::State&, bool)> search;
};

void PrintTo(const Flags& f, std::ostream* os) {
    *os << f.label;
}

Outcome reversi_search(const games::Game&, const games::State& state, bool tuned) {
    using namespace bots::reversi;
    AlphaBetaOptions options;
    if (tuned) options.weights = {.corner = 3, .steady = 20, .mobility = 4, .frontier = 9};
    AlphaBetaEngine engine(options);
    std::vector<std::string> infos;
    const games::Move m =
        engine.choose(state, go_depth(5), [&](std::string_view l) { infos.emplace_back(l); });
    Outcome o = outcome_of(infos);
    o.move = state.format_move(m);
    return o;
}

Outcome gomoku_search(const games::Game& game, const games::State& state, bool tuned) {
    using namespace bots::gomoku;
    AlphaBetaOptions options;
    if (tuned) {
        options.weights.four = 1300;
        options.weights.open_three = 4000;
        options.weights.three = 250;
        options.weights.open_two = 51;
        options.weights.two = 10;
        options.weights.one = 0;
    }
    AlphaBetaEngine engine(options);
    engine.new_game(game, state.current_player());
    std::vector<std::string> infos;
    const games::Move m =
        engine.choose(state, go_depth(4), [&](std::string_view l) { infos.emplace_back(l); });
    Outcome o = outcome_of(infos);
    o.move = state.format_move(m);
    return o;
}

Outcome c4_search(const games::Game& game, const games::State& state, bool tuned) {
    c4::AlphaBetaOptions options;
    if (tuned) options.weights = {.three = 40, .two = 12, .shorter = 1, .both_ends = 150};
    const auto engine = c4::make_alphabeta_engine(options);
    engine->new_game(game, state.current_player());
    std::vector<std::string> infos;
    const games::Move m =
        engine->choose(state, go_depth(7), [&](std::string_view l) { infos.emplace_back(l); });
    Outcome o = outcome_of(infos);
    o.move = state.format_move(m);
    return o;
}

std::vector<Flags> flag_cases() {
    return {
        {"reversi_alphabeta", "reversi-alphabeta",
         "--corner 3 --steady 19.6 --mobility 4.4 --frontier 9", "game reversi player=1",
         "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7", 5, reversi_search},
        {"gomoku_alphabeta", "gomoku-alphabeta",
         "--four 1300 --open-three 4000.0 --three 250 --open-two 50.5 --two 10 --one 0",
         "game gomoku player=1 size=15 rule=freestyle", "h8 i9 g9 i7 i8 g7 h7 h6", 4,
         gomoku_search},
        {"c4_alphabeta", "c4-alphabeta", "--three 40 --two 12 --shorter 1 --both-ends 150",
         "game connect4 player=1 rows=6 cols=7 connect=4", "4 4 3 5 4 3", 7, c4_search},
    };
}

class WeightFlagsCommandLine : public ::testing::TestWithParam<Flags> {};

// The bot with other weights answers the move and score of the same search
// in process with those weights, which differ from the default's.
TEST_P(WeightFlagsCommandLine, ReachTheSearch) {
    const Flags& f = GetParam();
    // The game line's board is each game's default one.
    const auto game = games::make_game(f.game_line.substr(5, f.game_line.find(' ', 5) - 5), {});
    const auto state = play(*game, f.moves);
    const Outcome shipped = f.search(*game, *state, false);
    const Outcome tuned = f.search(*game, *state, true);
    ASSERT_TRUE(shipped.score && tuned.score);
    EXPECT_NE(*shipped.score, *tuned.score);

    const Answer with_flags = ask(f.bot, f.args, f.game_line, f.moves, f.depth);
    ASSERT_EQ(with_flags.status, 0) << with_flags.out;
    EXPECT_EQ(with_flags.outcome.move, tuned.move) << with_flags.out;
    EXPECT_EQ(with_flags.outcome.score, tuned.score) << with_flags.out;
    const Answer without = ask(f.bot, "", f.game_line, f.moves, f.depth);
    ASSERT_EQ(without.status, 0) << without.out;
    EXPECT_EQ(without.outcome.move, shipped.move) << without.out;
    EXPECT_EQ(without.outcome.score, shipped.score) << without.out;
}

// A bad value: one message naming the flag and the value, a usage line, and
// exit 2, before the protocol starts.
TEST_P(WeightFlagsCommandLine, RefuseBadValues) {
    const Flags& f = GetParam();
    std::istringstream in(f.args);
    std::string flag;
    in >> flag;
    for (const std::string bad : {"abc", "-1", "1e9", "nan", "12x"}) {
        const auto r = run_shell(bin("bots/" + f.bot) + " " + flag + " " + bad + " </dev/null");
        EXPECT_EQ(r.status, 2) << flag << " " << bad << ": " << r.out;
        const auto lines = lines_of(r.out);
        ASSERT_EQ(lines.size(), 2U) << r.out;
        EXPECT_EQ(lines[0].rfind(f.bot + ": " + flag + " must be a number from 0 to ", 0), 0U)
            << r.out;
        EXPECT_NE(lines[0].find("not '" + bad + "'"), std::string::npos) << r.out;
        EXPECT_EQ(lines[1], "usage: " + f.bot + " [options] (--help lists them)");
    }
    const auto help = run_shell(bin("bots/" + f.bot) + " --help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find(flag + " W"), std::string::npos) << help.out;
}

INSTANTIATE_TEST_SUITE_P(Bots, WeightFlagsCommandLine, ::testing::ValuesIn(flag_cases()),
                         [](const auto& p) { return p.param.label; });

}  // namespace
}  // namespace arena
