// reversi-pro (bots/reversi/pro_*): move generation against the rules of
// arena::games::ReversiState (perft), the stable discs against random
// continuations, the endgame solver against a plain minimax, legal games
// with passes, answers within the budget, and a match through the `arena`
// binary.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arena/games/reversi.hpp"
#include "bots/reversi/board.hpp"
#include "bots/reversi/pro_eval.hpp"
#include "bots/reversi/pro_search.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::bots::reversi::pro {
namespace {

using games::Move;
using games::ReversiGame;
using games::ReversiState;

// Leaves `depth` plies below `s` on the generic State (a pass is a move; a
// finished game is a leaf).
std::uint64_t perft_rules(const ReversiState& s, int depth) {
    if (depth == 0 || s.is_over()) return 1;
    std::uint64_t n = 0;
    for (const Move m : s.legal_moves()) {
        ReversiState child = s;
        child.apply(m);
        n += perft_rules(child, depth - 1);
    }
    return n;
}

// The same count on the bitboards.
std::uint64_t perft_bits(const Position& pos, int depth) {
    if (depth == 0) return 1;
    Bitboard moves = pos.moves();
    if (moves == 0) {
        if (legal_moves(pos.opp, pos.own) == 0) return 1;
        return perft_bits(pos.pass(), depth - 1);
    }
    std::uint64_t n = 0;
    for (; moves != 0; moves &= moves - 1)
        n += perft_bits(pos.play(lsb(moves)), depth - 1);
    return n;
}

// Final disc difference for the side to move with perfect play, by plain
// minimax over the generic State (no pruning, no shared code).
int minimax(const ReversiState& s) {
    const int me = s.current_player();
    int best = -100;
    for (const Move m : s.legal_moves()) {
        ReversiState child = s;
        child.apply(m);
        const int v = child.is_over()
                          ? child.disc_count(me) - child.disc_count(3 - me)
                          : (child.current_player() == me ? minimax(child) : -minimax(child));
        best = std::max(best, v);
    }
    return best;
}

// Late positions of seeded random games with `empties` empty cells (or a few
// more when passes happened), not over.
std::vector<ReversiState> late_positions(int count, int empties) {
    std::vector<ReversiState> out;
    for (std::uint64_t seed = 100; out.size() < static_cast<std::size_t>(count); ++seed) {
        const ReversiState s = random_position(seed, 60 - empties);
        if (!s.is_over() && position_of(s).empties() <= empties + 1) out.push_back(s);
    }
    return out;
}

TEST(ReversiPro, PerftFromTheStartMatchesTheRules) {
    const ReversiState start;
    const std::vector<std::uint64_t> known{1, 4, 12, 56, 244, 1396, 8200, 55092};
    for (int depth = 1; depth < static_cast<int>(known.size()); ++depth) {
        EXPECT_EQ(perft_bits(position_of(start), depth), known[static_cast<std::size_t>(depth)]);
        if (depth <= 6) {
            EXPECT_EQ(perft_rules(start, depth), known[static_cast<std::size_t>(depth)]);
        }
    }
}

TEST(ReversiPro, PerftOnRandomPositionsMatchesTheRules) {
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        const ReversiState s = random_position(seed, 10 + static_cast<int>(seed * 2));
        if (s.is_over()) continue;
        const int depth = s.ply() > 40 ? 4 : 3;
        EXPECT_EQ(perft_bits(position_of(s), depth), perft_rules(s, depth)) << s.render();
        ++checked;
    }
    EXPECT_GE(checked, 20);
}

TEST(ReversiPro, StableDiscsAreNeverFlipped) {
    std::uint64_t x = 7;
    int stable_seen = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        ReversiState s = random_position(seed, 30 + static_cast<int>(seed % 25));
        const Bitboard black = s.discs(1), white = s.discs(2);
        const Bitboard stable_black = stable_discs(black, white);
        const Bitboard stable_white = stable_discs(white, black);
        ASSERT_EQ(stable_black & ~black, 0u);
        ASSERT_EQ(stable_white & ~white, 0u);
        stable_seen += popcount(stable_black | stable_white);
        // Several random continuations: the stable discs keep their colour.
        for (int run = 0; run < 4; ++run) {
            ReversiState t = s;
            while (!t.is_over()) {
                const auto moves = t.legal_moves();
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                t.apply(moves[(x >> 33) % moves.size()]);
                ASSERT_EQ(t.discs(1) & stable_black, stable_black) << s.render();
                ASSERT_EQ(t.discs(2) & stable_white, stable_white) << s.render();
            }
        }
    }
    EXPECT_GT(stable_seen, 50) << "too few stable discs to test";
}

TEST(ReversiPro, FeaturesAreAntisymmetric) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        for (int plies = 4; plies < 60; plies += 9) {
            const Position pos = position_of(random_position(seed, plies));
            const Bitboard mine = pos.moves();
            const Bitboard theirs = legal_moves(pos.opp, pos.own);
            const FeatureVector f = features(pos, mine, theirs);
            const FeatureVector g = features(pos.pass(), theirs, mine);
            for (int k = kBias + 1; k < kFeatureCount; ++k)
                EXPECT_EQ(f[static_cast<std::size_t>(k)], -g[static_cast<std::size_t>(k)]) << k;
        }
    }
}

TEST(ReversiPro, SolverMatchesMinimax) {
    Searcher searcher(tuned_weights(), 16);
    const SearchClock clock = SearchClock::unlimited();
    int passes_or_early_ends = 0;
    // 7 to 9 empties: the parity solver, the stability cut-off and (from
    // the root) move lists; plain minimax stays quick.
    for (const int empties : {7, 8, 9}) {
        for (const ReversiState& s : late_positions(4, empties)) {
            const Position pos = position_of(s);
            const int expected = minimax(s);
            const Report r = searcher.solve_root(pos);
            EXPECT_EQ(r.score, expected) << s.render();
            EXPECT_TRUE(r.exact);
            ASSERT_TRUE(s.is_legal(r.move)) << s.render();
            // The move it names achieves the score.
            ReversiState child = s;
            child.apply(r.move);
            const int me = s.current_player();
            const int after = child.is_over() ? child.disc_count(me) - child.disc_count(3 - me)
                              : child.current_player() == me ? minimax(child)
                                                             : -minimax(child);
            EXPECT_EQ(after, expected) << s.render();
            // Null windows: the sign, and fail-high / fail-low on each side.
            const int wld = *searcher.solve(pos, -1, 1, clock);
            EXPECT_EQ(wld > 0, expected > 0);
            EXPECT_EQ(wld < 0, expected < 0);
            EXPECT_GE(*searcher.solve(pos, expected - 1, expected, clock), expected);
            EXPECT_LE(*searcher.solve(pos, expected, expected + 1, clock), expected);
            // The midgame search to the end of the game agrees.
            const int scaled = expected > 0   ? kWin + 100 * expected
                               : expected < 0 ? -kWin + 100 * expected
                                              : 0;
            EXPECT_EQ(searcher.value(pos, 64), scaled) << s.render();
            if (child.current_player() == me || pos.empties() > empties) ++passes_or_early_ends;
        }
    }
}

TEST(ReversiPro, SolverHandlesPasses) {
    // A side with no move passes inside the solver.
    int with_pass = 0;
    Searcher searcher(tuned_weights(), 16);
    for (std::uint64_t seed = 1; seed <= 400 && with_pass < 3; ++seed) {
        const ReversiState t = random_position(seed, 52);
        if (t.is_over()) continue;
        const Position pos = position_of(t);
        if (pos.empties() > 9) continue;
        // A position where the mover has moves but the opponent would pass
        // after some of them.
        bool passes = false;
        for (Bitboard m = pos.moves(); m != 0; m &= m - 1)
            passes = passes || pos.play(lsb(m)).moves() == 0;
        if (!passes) continue;
        EXPECT_EQ(searcher.solve_root(pos).score, minimax(t)) << t.render();
        ++with_pass;
    }
    EXPECT_GE(with_pass, 1);
}

TEST(ReversiPro, NewGameForgetsEarlierGames) {
    // After new_game(), a search is the same as in a fresh searcher: same
    // score, move and node count.
    const Position a = position_of(random_position(4, 24));
    const Position b = position_of(random_position(5, 26));
    const SearchClock clock = SearchClock::unlimited();
    Searcher used(tuned_weights(), 16);
    (void)used.search(b, clock, 6, 0);
    (void)used.search(a, clock, 7, 0);
    used.new_game();
    const Report r1 = used.search(b, clock, 6, 0);
    Searcher fresh(tuned_weights(), 16);
    const Report r2 = fresh.search(b, clock, 6, 0);
    EXPECT_EQ(r1.score, r2.score);
    EXPECT_EQ(r1.move, r2.move);
    EXPECT_EQ(r1.nodes, r2.nodes);
    // Without it, the table of the earlier search is used.
    const Report r3 = used.search(b, clock, 6, 0);
    EXPECT_LT(r3.nodes, r1.nodes);
}

Move choose(ProEngine& engine, const ReversiState& s, std::int64_t move_ms, bool new_game = true) {
    if (new_game) engine.new_game(ReversiGame(), s.current_player());
    protocol::Go go;
    go.move_ms = move_ms;
    return engine.choose(s, go, [](std::string_view) {});
}

TEST(ReversiPro, PlaysLegalGamesWithPasses) {
    ProEngine a({.depth = 3, .solve_empties = 8, .level = {}});
    ProEngine b({.depth = 2, .solve_empties = 6, .level = {}});
    int passes = 0;
    std::uint64_t x = 3;
    for (int g = 0; g < 8; ++g) {
        a.new_game(ReversiGame(), 1);
        b.new_game(ReversiGame(), 2);
        ReversiState s;
        for (int i = 0; i < 6; ++i) {  // a random opening
            const auto moves = s.legal_moves();
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            s.apply(moves[(x >> 33) % moves.size()]);
        }
        while (!s.is_over()) {
            const auto legal = s.legal_moves();
            if (legal.size() == 1 && legal[0] == games::kPass) {
                ++passes;
                s.apply(games::kPass);
                continue;
            }
            ProEngine& mover = (s.ply() + g) % 2 == 0 ? a : b;
            const Move m = choose(mover, s, 100000, false);
            ASSERT_TRUE(s.is_legal(m) && m != games::kPass) << s.render();
            s.apply(m);
        }
    }
    EXPECT_GT(passes, 0) << "no pass in 8 games";
}

TEST(ReversiPro, TakesTheWipeOut) {
    // Black's c6 takes every white disc at once; no other move does.
    const ReversiState s(0x0000000000000000ULL | (1ULL << 18) | (1ULL << 19) | (1ULL << 21) |
                             (1ULL << 27) | (1ULL << 28) | (1ULL << 44),
                         (1ULL << 26) | (1ULL << 34) | (1ULL << 35), 1);
    ProEngine engine({.depth = 4, .solve_empties = 0, .level = {}});
    const Move m = choose(engine, s, 100000);
    ReversiState child = s;
    child.apply(m);
    EXPECT_EQ(child.disc_count(2), 0) << s.render();
}

TEST(ReversiPro, AnswersWithinTheBudget) {
    // A midgame and an 22-empty endgame at 100 ms: iterative deepening and
    // the solve stop in time (the margin is loose: a loaded machine delays).
    ProEngine engine({});
    for (const int plies : {20, 38}) {
        const ReversiState s = random_position(9, plies);
        const auto t0 = std::chrono::steady_clock::now();
        const Move m = choose(engine, s, 100);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
        EXPECT_TRUE(s.is_legal(m));
        EXPECT_LT(ms, 100 + 400 * arena::testing::time_scale()) << plies;
    }
}

TEST(ReversiPro, SolveDepthFollowsTheBudget) {
    EXPECT_LT(solve_empties_for(50), solve_empties_for(1000));
    EXPECT_GE(solve_empties_for(800), 18);
}

// --- through the arena binary -------------------------------------------

TEST(ReversiProArena, PlaysCleanMatches) {
    const std::string base = ::testing::TempDir() + "reversi_pro_" + testing::unique_marker();
    const std::string cmd = "timeout 300 " + testing::bin("bin/arena") +
                            " match --game reversi --random-plies 2 --json --games 4 --move-ms " +
                            testing::scaled_ms(200) + " '" + testing::bin("bots/reversi-pro") +
                            " --depth 5' '" + testing::bin("bots/reversi-alphabeta") +
                            " --depth 2' >" + base + ".out 2>" + base + ".err";
    const int status = std::system(cmd.c_str());
    const std::string out = testing::slurp(base + ".out");
    const std::string err = testing::slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << err;
    const auto j = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << out;
    ASSERT_EQ(j["games"], 4);
    for (const auto& b : j["bots"])
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(b[reason], 0) << reason << " " << j.dump();
    EXPECT_GE(j["bots"][0]["wins"].get<int>(), 3) << j.dump();
}

TEST(ReversiProArena, AnswersHelpAndRefusesBadFlags) {
    const std::string bot = testing::bin("bots/reversi-pro");
    EXPECT_EQ(std::system((bot + " --help >/dev/null").c_str()), 0);
    const int status = std::system((bot + " --solve 99 </dev/null >/dev/null 2>&1").c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2);
}

}  // namespace
}  // namespace arena::bots::reversi::pro
