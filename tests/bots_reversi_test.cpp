// The reversi reference bots (bots/reversi): bitboards against the rules of
// arena::games::ReversiState, the endgame solver against a reference minimax
// over the generic State, each bot on hand-checked "win now" and "block"
// positions, whole games in process (with passes), and matches through the
// `arena` binary.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "arena/games/reversi.hpp"
#include "bots/reversi/alphabeta.hpp"
#include "bots/reversi/board.hpp"
#include "bots/reversi/evaluation.hpp"
#include "bots/reversi/greedy.hpp"
#include "bots/reversi/mcts.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::bots::reversi {
namespace {

using arena::testing::slurp;

using games::Move;
using games::ReversiGame;
using games::ReversiState;

using Diagram = std::array<const char*, 8>;

// 'X' black, 'O' white, '.' empty; row 1 first.
ReversiState from_diagram(const Diagram& rows, int to_move) {
    Bitboard black = 0, white = 0;
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 8; ++c) {
            if (rows[r][c] == 'X') black |= bit(r * 8 + c);
            if (rows[r][c] == 'O') white |= bit(r * 8 + c);
        }
    }
    return ReversiState(black, white, to_move);
}

Move cell(const char* name) {
    return (name[1] - '1') * 8 + (name[0] - 'a');
}

// Final disc difference of `s` for the side to move with perfect play:
// minimax (with exact alpha-beta cut-offs) over the generic State, which
// shares no code with the bitboards.
// Precondition: the game is not over.
int reference_value(const ReversiState& s, int alpha, int beta, int& passes) {
    const int me = s.current_player();
    int best = -100;
    for (const Move m : s.legal_moves()) {
        ReversiState child = s;
        child.apply(m);
        if (m == games::kPass) ++passes;
        const int v = child.is_over() ? child.disc_count(me) - child.disc_count(3 - me)
                                      : -reference_value(child, -beta, -alpha, passes);
        best = std::max(best, v);
        alpha = std::max(alpha, v);
        if (alpha >= beta) break;
    }
    return best;
}

int reference_value(const ReversiState& s) {
    int passes = 0;
    return reference_value(s, -100, 100, passes);
}

// Whether the game is over after `m` with the mover ahead.
bool wins_at_once(const ReversiState& s, Move m) {
    ReversiState child = s;
    child.apply(m);
    return child.is_over() && games::winner_of(child.outcome()) == s.current_player();
}

std::vector<Move> winning_moves(const ReversiState& s) {
    std::vector<Move> out;
    for (const Move m : s.legal_moves())
        if (wins_at_once(s, m)) out.push_back(m);
    return out;
}

// The moves after which the opponent has no reply that wins at once.
std::vector<Move> safe_moves(const ReversiState& s) {
    std::vector<Move> out;
    for (const Move m : s.legal_moves()) {
        ReversiState child = s;
        child.apply(m);
        bool lost = false;
        if (!child.is_over())
            for (const Move reply : child.legal_moves())
                lost = lost || (reply != games::kPass && wins_at_once(child, reply));
        if (!lost) out.push_back(m);
    }
    return out;
}

Move choose(Engine& engine, const ReversiState& s, std::int64_t move_ms = 100000) {
    const ReversiGame game;
    engine.new_game(game, s.current_player());
    protocol::Go go;
    go.move_ms = move_ms;
    return engine.choose(s, go, [](std::string_view) {});
}

// Positions where exactly one move wins at once, by wiping out the
// opponent; no other move wins by force within five plies (checked when they
// were chosen). Black (X) to move.
struct Case {
    Diagram rows;
    int to_move;
    const char* move;
};
const std::vector<Case> kWipeOuts{
    {{"........", "........", "..XX.X..", "..OXX...", "..OO....", "....X...", "........",
      "........"},
     1,
     "c6"},
    {{"........", "........", "..XOOO..", "...XXX..", "..X.X...", "....X...", "........",
      "........"},
     1,
     "g3"},
    {{"........", "........", "........", "..X.XX..", "..OOOX..", "...X....", "........",
      "........"},
     1,
     "b5"},
    {{"........", ".......X", "......O.", ".XXOO...", "...XX..X", "X.......", "........",
      ".X......"},
     1,
     "f4"},
};

// Endgames where exactly one move ends the game at once with a win (the last
// empty cells become unplayable) and no other move wins. White (O) to move.
const std::vector<Case> kFinalCounts{
    {{"XOOOOOOO", "XXOOOOOO", "XXXOOOOO", "XXXXOOOO", "XXXXOOOO", "XXXXXOOO", "XXXXX.XO",
      "XXXXXX.."},
     2,
     "h8"},
    {{"OOXXXXXX", "OOXXXXXX", "OXOOXXXX", "OXXOXXXX", "OXXXOXXX", "OOOOOOX.", "OXXXXXX.",
      "OOOOOOO."},
     2,
     "h7"},
};

// Every move but one lets the opponent win at once (a wipe-out, or a move
// that ends the game ahead); the one that does not draws or wins.
const std::vector<Case> kBlocks{
    // Black must play g5, or white's g7 (or another move) takes every black disc.
    {{"........", "........", "....O...", ".O...O..", "....O...", "...O.O..", ".O.OXX..",
      "........"},
     1,
     "g5"},
    {{"O.XO.O.X", "OOXXXXXX", "OOXXXXXX", "OOOXXXXX", "OOOXXXOX", "OOOXXXXX", "OOXXXXXX",
      "OOXXXXXX"},
     2,
     "b1"},
    {{"XOOOOOOO", "XXOOOOOO", ".XXOOOOO", ".OXXXXX.", "OOOOOXXO", "OOXXXXXO", "XXOXXXXO",
      "XXXXXXXO"},
     2,
     "h4"},
};

// Blocks where the saving move is the only corner on offer: greedy finds
// them by its corner rule, having no look-ahead.
const std::vector<Case> kCornerBlocks{
    {{"XXXXXXXX", "XXOOOOXX", "XXOOXXOX", ".XOXXOOX", ".OXXOXOX", "OXXOXOXX", "XXXXOXOX",
      ".OOOOOOO"},
     2,
     "a8"},
    {{"OOOOOOO.", "OOXXXXXO", "XXOXOXXO", "XXOOXXXO", "XXOXXXXO", "X.OXXXXO", "X.XOOXOO",
      "XXXXXXXO"},
     2,
     "h1"},
};

// The position facts every test case relies on, checked on the generic State.
void check_win_case(const Case& c) {
    const ReversiState s = from_diagram(c.rows, c.to_move);
    ASSERT_GE(s.legal_moves().size(), 3u) << s.render();
    ASSERT_EQ(winning_moves(s), std::vector<Move>{cell(c.move)}) << s.render();
}

void check_block_case(const Case& c) {
    const ReversiState s = from_diagram(c.rows, c.to_move);
    ASSERT_GE(s.legal_moves().size(), 3u) << s.render();
    ASSERT_EQ(safe_moves(s), std::vector<Move>{cell(c.move)}) << s.render();
}

TEST(ReversiBoard, MovesAndFlipsFollowTheRules) {
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        ReversiState s;
        std::uint64_t x = seed;
        while (!s.is_over()) {
            const Position pos = position_of(s);
            const Bitboard rules = s.move_mask();
            ASSERT_EQ(pos.moves(), rules) << s.render();
            for (Bitboard rest = rules; rest != 0; rest &= rest - 1) {
                ReversiState child = s;
                child.apply(lsb(rest));
                const Position after = pos.play(lsb(rest));
                // The side to move changes: `after` is seen from the opponent.
                ASSERT_EQ(after.own, child.discs(child.current_player()));
                ASSERT_EQ(after.opp, child.discs(s.current_player()));
            }
            const auto moves = s.legal_moves();
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            s.apply(moves[(x >> 33) % moves.size()]);
        }
    }
}

TEST(ReversiBoard, EvaluationIsZeroSum) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        for (int plies = 4; plies < 60; plies += 7) {
            const Position pos = position_of(random_position(seed, plies));
            const Bitboard mine = pos.moves();
            const Bitboard theirs = legal_moves(pos.opp, pos.own);
            EXPECT_EQ(evaluate(pos, mine, theirs), -evaluate(pos.pass(), theirs, mine));
        }
    }
}

TEST(ReversiBoard, EvaluationFollowsTheSeedWeights) {
    // Black to move owns corner a1 and the edge a1-c1 (a run of 3 along row
    // 1 and 1 along column a: 4 stable); white sits on the X-square g7 of
    // the empty corner h8 (-6 for white: +6 for black).
    const ReversiState s = from_diagram({"XXX.....", "........", "........", "...OX...", "...XO...",
                                         "........", "......O.", "........"},
                                        1);
    const Position pos = position_of(s);
    const int corner = 15 + 6;
    const int steady = 4;
    const int mobility = popcount(pos.moves()) - popcount(legal_moves(pos.opp, pos.own));
    // Inner discs next to an empty cell: black e4 and d5, white d4, e5 and g7.
    const int frontier = 3 - 2;
    EXPECT_EQ(evaluate(pos, pos.moves(), legal_moves(pos.opp, pos.own)),
              8 * corner + 12 * steady + 8 * mobility + 4 * frontier);
}

TEST(ReversiSolver, ExactScoreMatchesReferenceMinimax) {
    Searcher searcher(16);
    int passes = 0;
    int checked = 0;
    // Late positions of seeded random games (8 to 10 empty cells), plus the
    // hand-checked endgames.
    std::vector<ReversiState> positions;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const ReversiState s = random_position(seed, 50 + static_cast<int>(seed % 3));
        if (!s.is_over()) positions.push_back(s);
    }
    for (const auto* list : {&kFinalCounts, &kBlocks, &kCornerBlocks})
        for (const Case& c : *list)
            if (position_of(from_diagram(c.rows, c.to_move)).empties() <= 12)
                positions.push_back(from_diagram(c.rows, c.to_move));
    for (const ReversiState& s : positions) {
        const int expected = reference_value(s, -100, 100, passes);
        const auto solved = searcher.solve(position_of(s), SearchClock::unlimited());
        ASSERT_TRUE(solved);
        EXPECT_EQ(solved->score, expected) << s.render();
        // The move it names achieves that score.
        if (solved->move >= 0) {
            ReversiState child = s;
            child.apply(solved->move);
            const int me = s.current_player();
            const int v = child.is_over() ? child.disc_count(me) - child.disc_count(3 - me)
                                          : -reference_value(child);
            EXPECT_EQ(v, expected) << s.render();
        }
        // The midgame search to the end of the game agrees.
        const int scaled = expected > 0   ? kWinScore + expected
                           : expected < 0 ? -kWinScore + expected
                                          : 0;
        EXPECT_EQ(searcher.value(position_of(s), 64), scaled) << s.render();
        ++checked;
    }
    EXPECT_GE(checked, 15);
    EXPECT_GT(passes, 0) << "no pass was tested";
}

TEST(ReversiSolver, GivesUpWhenTimeRunsOut) {
    // 30 empty cells cannot be solved within a millisecond.
    Searcher searcher(16);
    protocol::Go go;
    go.move_ms = 1;
    const SearchClock clock(go);
    EXPECT_FALSE(searcher.solve(position_of(random_position(3, 30)), clock));
}

TEST(ReversiAlphaBeta, WipesOutAtOnce) {
    for (const Case& c : kWipeOuts) {
        check_win_case(c);
        const ReversiState s = from_diagram(c.rows, c.to_move);
        for (int depth = 1; depth <= 4; ++depth) {
            AlphaBetaEngine engine(
                {.depth = depth, .endgame_empties = 0, .level = {}, .weights = {}});
            EXPECT_EQ(choose(engine, s), cell(c.move)) << "depth " << depth << "\n" << s.render();
        }
    }
}

TEST(ReversiAlphaBeta, EndsTheGameAhead) {
    for (const Case& c : kFinalCounts) {
        check_win_case(c);
        const ReversiState s = from_diagram(c.rows, c.to_move);
        // No other move wins at all: any search that sees the end must choose it.
        for (const Move m : s.legal_moves()) {
            if (m == cell(c.move)) continue;
            ReversiState child = s;
            child.apply(m);
            ASSERT_FALSE(child.is_over());
            EXPECT_GE(reference_value(child), 0) << s.render();
        }
        AlphaBetaEngine midgame({.depth = 1, .endgame_empties = 0, .level = {}, .weights = {}});
        EXPECT_EQ(choose(midgame, s), cell(c.move)) << s.render();
        AlphaBetaEngine full({});
        EXPECT_EQ(choose(full, s, 300), cell(c.move)) << s.render();
    }
}

TEST(ReversiAlphaBeta, BlocksTheLossInOne) {
    for (const Case& c : kBlocks) {
        check_block_case(c);
        const ReversiState s = from_diagram(c.rows, c.to_move);
        for (int depth = 2; depth <= 4; ++depth) {
            AlphaBetaEngine engine(
                {.depth = depth, .endgame_empties = 0, .level = {}, .weights = {}});
            EXPECT_EQ(choose(engine, s), cell(c.move)) << "depth " << depth << "\n" << s.render();
        }
        AlphaBetaEngine full({});
        EXPECT_EQ(choose(full, s, 300), cell(c.move)) << s.render();
    }
}

TEST(ReversiAlphaBeta, SolvesTheEndgameWithinTheBudget) {
    // 12 empty cells: the default engine solves it and plays an optimal move.
    const ReversiState s = random_position(7, 48);
    ASSERT_FALSE(s.is_over());
    ASSERT_LE(position_of(s).empties(), 14);
    Searcher searcher(16);
    const int best = searcher.solve(position_of(s), SearchClock::unlimited())->score;
    AlphaBetaEngine engine({});
    const Move m = choose(engine, s, 5000);
    ReversiState child = s;
    child.apply(m);
    const auto after = searcher.solve(position_of(child), SearchClock::unlimited());
    EXPECT_EQ(-after->score, best);
}

TEST(ReversiAlphaBeta, LevelsUseTheSeedDepthRule) {
    EXPECT_EQ(seed_depth(3), 6);
    EXPECT_EQ(seed_depth(7), 5);
    EXPECT_EQ(seed_depth(12), 4);
    for (int level = 1; level <= 5; ++level) {
        AlphaBetaEngine engine({.depth = 0, .endgame_empties = 14, .level = level, .weights = {}});
        const ReversiState s = random_position(11, 20);
        EXPECT_TRUE(s.is_legal(choose(engine, s, 1000)));
    }
}

TEST(ReversiGreedy, TakesTheCornerFirst) {
    // a1 flips one disc; d7 would flip four.
    const ReversiState s = from_diagram({".OX.....", "........", "........", "...O....", "...O....",
                                         "...O....", "...O....", "...X...."},
                                        1);
    ASSERT_TRUE(s.is_legal(cell("a1")));
    ASSERT_TRUE(s.is_legal(cell("d3")));
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        GreedyEngine engine(seed);
        EXPECT_EQ(choose(engine, s), cell("a1"));
    }
}

TEST(ReversiGreedy, FlipsTheMostDiscs) {
    // d3 flips four discs (d4..d7); d2 flips one, e4 and f5 two.
    const ReversiState s = from_diagram({"........", ".XO.....", "........", ".XOO....", "...O....",
                                         "...O.O..", "...O.O..", "...X.X.."},
                                        1);
    ASSERT_EQ(s.legal_moves().size(), 4u);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        GreedyEngine engine(seed);
        EXPECT_EQ(choose(engine, s), cell("d3"));
    }
}

TEST(ReversiGreedy, WipesOutAtOnce) {
    // A wipe-out flips every opponent disc, so it flips the most.
    for (const Case& c : kWipeOuts) {
        check_win_case(c);
        GreedyEngine engine(1);
        EXPECT_EQ(choose(engine, from_diagram(c.rows, c.to_move)), cell(c.move));
    }
}

TEST(ReversiGreedy, BlocksByTakingTheCorner) {
    for (const Case& c : kCornerBlocks) {
        check_block_case(c);
        GreedyEngine engine(1);
        EXPECT_EQ(choose(engine, from_diagram(c.rows, c.to_move)), cell(c.move));
    }
}

TEST(ReversiGreedy, TiesFollowTheSeed) {
    // At the start every move flips one disc.
    const ReversiState s;
    std::set<Move> chosen;
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
        GreedyEngine a(seed);
        GreedyEngine b(seed);
        const Move m = choose(a, s);
        EXPECT_EQ(choose(b, s), m);
        chosen.insert(m);
    }
    EXPECT_GE(chosen.size(), 3u);
}

TEST(ReversiMcts, WinsAtOnce) {
    for (const auto* list : {&kWipeOuts, &kFinalCounts}) {
        for (const Case& c : *list) {
            check_win_case(c);
            MctsEngine engine({.simulations = 3000, .c = 1.0, .seed = 1});
            EXPECT_EQ(choose(engine, from_diagram(c.rows, c.to_move)), cell(c.move));
        }
    }
}

TEST(ReversiMcts, BlocksTheLossInOne) {
    for (const auto* list : {&kBlocks, &kCornerBlocks}) {
        for (const Case& c : *list) {
            check_block_case(c);
            MctsEngine engine({.simulations = 3000, .c = 1.0, .seed = 1});
            EXPECT_EQ(choose(engine, from_diagram(c.rows, c.to_move)), cell(c.move));
        }
    }
}

TEST(ReversiMcts, KeepsTheTreeBetweenMoves) {
    MctsEngine engine({.simulations = 2000, .c = 1.0, .seed = 3});
    ReversiState s = random_position(5, 10);
    const ReversiGame game;
    engine.new_game(game, s.current_player());
    protocol::Go go;
    go.move_ms = 100000;
    const auto quiet = [](std::string_view) {};
    s.apply(engine.choose(s, go, quiet));
    EXPECT_FALSE(engine.reused());
    s.apply(s.legal_moves().front());  // the opponent's reply
    ASSERT_FALSE(s.is_over());
    s.apply(engine.choose(s, go, quiet));
    EXPECT_TRUE(engine.reused());
    // The same simulation count from a kept subtree: more visits at the root.
    EXPECT_GT(engine.root_visits(), 2000u);
    // A position that is not in the tree starts a new one.
    const ReversiState other = random_position(6, 30);
    (void)engine.choose(other, go, quiet);
    EXPECT_FALSE(engine.reused());
    // A new game clears the tree.
    engine.new_game(game, 1);
    (void)engine.choose(ReversiState(), go, quiet);
    EXPECT_FALSE(engine.reused());
}

TEST(ReversiMcts, SameSeedSameMove) {
    const ReversiState s = random_position(9, 24);
    MctsEngine a({.simulations = 500, .c = 1.0, .seed = 4});
    MctsEngine b({.simulations = 500, .c = 1.0, .seed = 4});
    EXPECT_EQ(choose(a, s), choose(b, s));
}

// Plays whole games in process between two engines, as the arena would:
// forced passes are applied for the engines. Returns the passes seen.
int play_games(Engine& first, Engine& second, int games) {
    int passes = 0;
    const ReversiGame game;
    protocol::Go go;
    go.move_ms = 100000;
    for (int g = 0; g < games; ++g) {
        ReversiState s = random_position(100 + static_cast<std::uint64_t>(g), 4);
        Engine* black = g % 2 == 0 ? &first : &second;
        Engine* white = g % 2 == 0 ? &second : &first;
        black->new_game(game, 1);
        white->new_game(game, 2);
        while (!s.is_over()) {
            if (s.legal_moves() == std::vector<Move>{games::kPass}) {
                s.apply(games::kPass);
                ++passes;
                continue;
            }
            Engine* mover = s.current_player() == 1 ? black : white;
            const Move m = mover->choose(s, go, [](std::string_view) {});
            EXPECT_TRUE(s.is_legal(m) && m != games::kPass) << s.render();
            if (!s.is_legal(m)) return passes;
            s.apply(m);
        }
    }
    return passes;
}

TEST(ReversiGames, EveryBotPlaysLegalGamesWithPasses) {
    GreedyEngine greedy(1);
    AlphaBetaEngine alphabeta({.depth = 3, .endgame_empties = 10, .level = {}, .weights = {}});
    MctsEngine mcts({.simulations = 150, .c = 1.0, .seed = 1});
    int passes = 0;
    passes += play_games(greedy, alphabeta, 6);
    passes += play_games(alphabeta, mcts, 6);
    passes += play_games(mcts, greedy, 6);
    EXPECT_GT(passes, 0);
}

// --- through the arena binary -------------------------------------------

// `move_ms` is scaled with the build (timing.hpp): the bots search to a fixed
// depth or number of simulations, so the limit only has to be out of reach.
nlohmann::json arena_match(const std::string& bot, int games, int move_ms) {
    const std::string base = ::testing::TempDir() + "reversi_" + testing::unique_marker();
    const std::string cmd = "timeout 300 " + testing::bin("bin/arena") +
                            " match --game reversi --random-plies 2 --json --games " +
                            std::to_string(games) + " --move-ms " + testing::scaled_ms(move_ms) +
                            " '" + bot + "' '" + testing::bin("bots/random") +
                            " --game reversi' >" + base + ".out 2>" + base + ".err";
    const int status = std::system(cmd.c_str());
    const std::string out = slurp(base + ".out");
    const std::string err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << err;
    return nlohmann::json::parse(out, nullptr, false);
}

void expect_clean_wins(const nlohmann::json& j, int games, int min_wins) {
    ASSERT_FALSE(j.is_discarded());
    ASSERT_EQ(j["games"], games);
    for (const auto& b : j["bots"])
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(b[reason], 0) << reason << " " << j.dump();
    EXPECT_GE(j["bots"][0]["wins"].get<int>(), min_wins) << j.dump();
}

TEST(ReversiArena, GreedyPlaysMatches) {
    expect_clean_wins(arena_match(testing::bin("bots/reversi-greedy") + " --seed 2", 4, 1000), 4,
                      0);
}

TEST(ReversiArena, AlphaBetaPlaysMatches) {
    expect_clean_wins(arena_match(testing::bin("bots/reversi-alphabeta") + " --depth 3", 4, 1000),
                      4, 3);
}

TEST(ReversiArena, MctsPlaysMatches) {
    expect_clean_wins(
        arena_match(testing::bin("bots/reversi-mcts") + " --simulations 300", 4, 1000), 4, 3);
}

TEST(ReversiArena, BotsAnswerHelpAndBench) {
    for (const char* name : {"reversi-greedy", "reversi-alphabeta", "reversi-mcts"}) {
        const std::string cmd = testing::bin(std::string("bots/") + name) + " --help >/dev/null";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << name;
    }
}

}  // namespace
}  // namespace arena::bots::reversi
