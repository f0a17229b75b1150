// tune-target (bots/tune_target.cpp), the test fixture of `arena tune`: bad
// flags, moves that depend only on the seed, the distance to the peak and the
// position (the same in a fresh process and in a reused one), and a strength
// that falls with the distance to the peak, measured by `arena match`.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/connect4.hpp"
#include "arena_process.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using testing::bin;
using testing::run_arena;
using testing::run_shell;
using testing::scaled_ms;
using testing::TempDir;

std::string tune_target(const std::string& args) {
    return bin("bots/tune-target") + " " + args;
}

TEST(TuneTarget, BadFlagsExitWithTwoAndSayWhy) {
    struct Case {
        std::string args, message;
    };
    const std::vector<Case> cases = {
        {"", "--x is required"},
        {"--x 70", "--y is required"},
        {"--x 70 --y abc", "--y takes a decimal number, not 'abc'"},
        {"--x 70 --y nan", "--y takes a decimal number, not 'nan'"},
        {"--x 70 --y 30x", "--y takes a decimal number, not '30x'"},
        {"--x 100.5 --y 30", "--x 100.5 is outside [0, 100]"},
        {"--x -1 --y 30", "--x -1 is outside [0, 100]"},
        {"--x 7 --y 3 --range 10", "--peak-x 70 is outside [0, 10]"},
        {"--x 70 --y 30 --peak-y 101", "--peak-y 101 is outside [0, 100]"},
        {"--x 70 --y 30 --range 0", "--range must be positive"},
        {"--x 70 --y 30 --range -5", "--range must be positive"},
        {"--x 70 --y 30 --seed x", "the argument ('x') for option '--seed' is invalid"},
        {"--x 70 --y 30 --bogus 1", "unrecognised option '--bogus'"},
    };
    for (const auto& c : cases) {
        const auto r = run_shell(tune_target(c.args) + " </dev/null");
        EXPECT_EQ(r.status, 2) << c.args << ": " << r.out;
        EXPECT_NE(r.out.find("tune-target: " + c.message), std::string::npos)
            << c.args << ": " << r.out;
        EXPECT_EQ(r.out.find("ready"), std::string::npos) << c.args << ": " << r.out;
    }
    // Good flags, at the edges of the range: no protocol input, a clean exit.
    for (const std::string args : {"--x 0 --y 100", "--x 2 --y 0 --range 2 --peak-x 2 --peak-y 0"})
        EXPECT_EQ(run_shell(tune_target(args) + " </dev/null").status, 0) << args;
}

TEST(TuneTarget, RefusesAnyGameButConnect4) {
    const auto r = run_shell("printf 'arena 1\\ngame gomoku player=1 size=15 move_ms=1000\\n' | " +
                             tune_target("--x 70 --y 30"));
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("plays connect4 only"), std::string::npos) << r.out;
}

// `count` positions of random 7 x 6 games, none over, as `position` lines.
std::vector<std::string> random_positions(int count, std::uint64_t seed) {
    const games::Connect4Game game({});
    std::mt19937_64 rng(seed);
    std::vector<std::string> positions;
    auto state = game.new_initial_state();
    std::string moves;
    while (static_cast<int>(positions.size()) < count) {
        positions.push_back("position" + moves);
        const auto legal = state->legal_moves();
        const games::Move m = legal[rng() % legal.size()];
        state->apply(m);
        moves += " " + state->format_move(m);
        if (state->is_over()) {
            state = game.new_initial_state();
            moves.clear();
        }
    }
    return positions;
}

// The bot's answers to `positions`, in order, all asked of one process.
std::vector<std::string> answers(const TempDir& dir, const std::string& args,
                                 const std::vector<std::string>& positions) {
    const auto script = dir.path() / "script.txt";
    {
        std::ofstream out(script);
        out << "arena 1\n";
        for (const auto& p : positions) {
            // The side to move: player 1 after an even number of moves.
            const auto plies = std::count(p.begin(), p.end(), ' ');
            out << "game connect4 player=" << (plies % 2 == 0 ? 1 : 2)
                << " rows=6 cols=7 connect=4 move_ms=1000\n"
                << p << "\ngo move_ms=1000\nend draw reason=normal\n";
        }
        out << "quit\n";
    }
    const auto r = run_shell(tune_target(args) + " < " + script.string());
    EXPECT_EQ(r.status, 0) << args << ": " << r.out;
    std::vector<std::string> moves;
    for (const auto& line : testing::lines_of(r.out))
        if (line.starts_with("move ")) moves.push_back(line);
    EXPECT_EQ(moves.size(), positions.size()) << args << ": " << r.out;
    return moves;
}

TEST(TuneTarget, TheSamePositionGetsTheSameMoveInAFreshOrAReusedProcess) {
    TempDir dir;
    // About half way to the far corner: s = 0.43, so both the good moves and
    // the mistakes are played.
    const std::string args = "--x 30 --y 70 --seed 5";
    const auto positions = random_positions(40, 11);
    const auto in_order = answers(dir, args, positions);
    ASSERT_EQ(in_order.size(), positions.size());
    // Reversed: each position reaches the process after other games.
    const std::vector<std::string> reversed(positions.rbegin(), positions.rend());
    auto backwards = answers(dir, args, reversed);
    std::reverse(backwards.begin(), backwards.end());
    EXPECT_EQ(backwards, in_order);
    // A fresh process for each of the first ten positions.
    for (std::size_t i = 0; i < 10; ++i)
        EXPECT_EQ(answers(dir, args, {positions[i]}), std::vector<std::string>{in_order[i]})
            << positions[i];
    // Another seed chooses otherwise somewhere.
    EXPECT_NE(answers(dir, "--x 30 --y 70 --seed 6", positions), in_order);
    // The parameters count only through their distance to the peak (70, 30):
    // 50 from (40, 70), (20, 30) and (70, 80) alike.
    const auto at_fifty = answers(dir, "--x 40 --y 70 --seed 5", positions);
    EXPECT_EQ(answers(dir, "--x 20 --y 30 --seed 5", positions), at_fifty);
    EXPECT_EQ(answers(dir, "--x 70 --y 80 --seed 5", positions), at_fifty);
}

// The first bot's points in `arena match` (the "Points: P (..." line).
double points_of_first(const testing::ArenaResult& r) {
    const auto at = r.out.find("Points: ");
    if (at == std::string::npos) return -1;
    return std::stod(r.out.substr(at + 8));
}

// Plays `games` games of a against b through `arena match`; a's points.
double match_points(const std::string& a, const std::string& b, int games) {
    TempDir dir;
    const auto r = run_arena(
        dir.path(), {"match", "--game", "connect4", "--games", std::to_string(games), "--move-ms",
                     scaled_ms(1000), "a=" + tune_target(a), "b=" + tune_target(b)});
    EXPECT_EQ(r.status, 0) << r.err;
    // No bot lost on a fault: every game ended on the board.
    EXPECT_EQ(testing::occurrences(r.out, " normal "), games) << r.out;
    return points_of_first(r);
}

TEST(TuneTarget, CloserToThePeakWinsThroughArenaMatch) {
    // The peak against the far corner: 100 % in 2000 games (bots/README.md),
    // 100 of 100 here.
    EXPECT_GE(match_points("--x 70 --y 30", "--x 0 --y 100", 100), 90);
    // Far from the peak the slope is still there: distance 42 against 71,
    // 82 % in 2000 games (162 of 200 here).
    EXPECT_GE(match_points("--x 40 --y 60", "--x 20 --y 80", 200), 130);
}

}  // namespace
}  // namespace arena
