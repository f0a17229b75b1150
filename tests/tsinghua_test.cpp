// Tsinghua course strategies (protocol/TSINGHUA.md): the translation of an
// arena position into getPoint's arguments, checked against the course's own
// bookkeeping, and the explanation of a rejected point; a tournament of the
// sample strategy against native bots and a directory of reference
// strategies; one load per game by default, global state across games with
// restart: on-fault; large static arrays and a library without the C++
// runtime; misbehaving strategies judged like native bots; and the config's
// errors.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "arena/games/connect4.hpp"
#include "arena_process.hpp"
#include "bots/tsinghua/strategy_input.hpp"
#include "db_query.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using arena::testing::TempDir;

namespace fs = std::filesystem;
using arena::testing::bin;
using arena::testing::run_arena;
using arena::testing::scaled;
using arena::testing::scaled_ms;
using arena::testing::survivors;
using arena::testing::unique_marker;
using games::Connect4Cell;
using games::Connect4Config;
using games::Connect4Game;
using games::Connect4State;

// ---- translation -------------------------------------------------------------

std::unique_ptr<games::State> play(const Connect4Game& game, const std::vector<int>& cols) {
    auto state = game.new_initial_state();
    for (const int col : cols)
        state->apply(col);
    return state;
}

const Connect4State& c4(const std::unique_ptr<games::State>& state) {
    return dynamic_cast<const Connect4State&>(*state);
}

// 9 rows, 10 columns, the bottom cell of column 5 (arena 5:1) blocked.
TEST(TsinghuaTranslation, KnownPositionWithABlockedCellAtTheBottom) {
    const Connect4Game game(Connect4Config{9, 10, 4, {Connect4Cell{4, 0}}});
    const auto start = tsinghua::strategy_input(c4(game.new_initial_state()), std::nullopt);
    EXPECT_EQ(start.rows, 9);
    EXPECT_EQ(start.cols, 10);
    EXPECT_EQ(start.no_x, 8);  // the bottom row is x = M - 1
    EXPECT_EQ(start.no_y, 4);
    EXPECT_EQ(start.last_x, -1);
    EXPECT_EQ(start.last_y, -1);
    for (int y = 0; y < 10; ++y)
        EXPECT_EQ(start.top[y], y == 4 ? 8 : 9) << y;  // blocked bottom: top = M - 1
    for (const int cell : start.board)
        EXPECT_EQ(cell, 0);

    // Player 1 plays 5 (onto the blocked cell: row 2), player 2 plays 5
    // (row 3), player 1 plays 3 (row 1). Player 2 is to move.
    const auto state = play(game, {4, 4, 2});
    const auto in = tsinghua::strategy_input(c4(state), 2);
    const auto at = [&](int x, int y) { return in.board[static_cast<std::size_t>(x * 10 + y)]; };
    EXPECT_EQ(at(7, 4), 1);  // player 1's piece: the opponent of the mover
    EXPECT_EQ(at(6, 4), 2);  // the mover's own
    EXPECT_EQ(at(8, 2), 1);
    EXPECT_EQ(at(8, 4), 0);  // the blocked cell reads as empty, as in the course
    int stones = 0;
    for (const int cell : in.board)
        stones += cell != 0;
    EXPECT_EQ(stones, 3);
    EXPECT_EQ(in.top[4], 6);  // the next piece in column 5 lands on x = 5
    EXPECT_EQ(in.top[2], 8);
    EXPECT_EQ(in.top[0], 9);
    EXPECT_EQ(in.last_x, 8);
    EXPECT_EQ(in.last_y, 2);

    // Player 1's view of the same board after player 2 answers 1.
    const auto next = play(game, {4, 4, 2, 0});
    const auto in1 = tsinghua::strategy_input(c4(next), 0);
    EXPECT_EQ(in1.board[7 * 10 + 4], 2);
    EXPECT_EQ(in1.board[6 * 10 + 4], 1);
    EXPECT_EQ(in1.board[8 * 10 + 0], 1);
    EXPECT_EQ(in1.last_x, 8);
    EXPECT_EQ(in1.last_y, 0);
}

// A blocked cell mid-column is skipped (top jumps over it), and a column whose
// top cell is blocked is full once the cell below is taken.
TEST(TsinghuaTranslation, BlockedCellMidColumnAndAtTheTop) {
    const Connect4Game mid(Connect4Config{9, 9, 4, {Connect4Cell{0, 2}}});  // x = 6
    const auto two = play(mid, {0, 0});
    const auto in = tsinghua::strategy_input(c4(two), 0);
    EXPECT_EQ(in.no_x, 6);
    EXPECT_EQ(in.top[0], 6);  // lands on x = 5, above the blocked x = 6
    EXPECT_EQ(tsinghua::move_word(in, 5, 0), "1");
    EXPECT_EQ(tsinghua::move_word(in, 6, 0), "(6,0)");  // the blocked cell itself

    const Connect4Game top(Connect4Config{9, 9, 4, {Connect4Cell{0, 8}}});  // x = 0
    const auto full = play(top, {0, 0, 0, 0, 1, 0, 0, 0, 0});
    const auto in2 = tsinghua::strategy_input(c4(full), 0);
    EXPECT_EQ(in2.top[0], 0);
    EXPECT_EQ(tsinghua::move_word(in2, -1, 0), "(-1,0)");
}

TEST(TsinghuaTranslation, PointsBecomeColumnsOrIllegalWords) {
    const Connect4Game game(Connect4Config{9, 10, 4, {Connect4Cell{4, 0}}});
    const auto in = tsinghua::strategy_input(c4(game.new_initial_state()), std::nullopt);
    EXPECT_EQ(tsinghua::move_word(in, 8, 0), "1");
    EXPECT_EQ(tsinghua::move_word(in, 8, 9), "10");
    EXPECT_EQ(tsinghua::move_word(in, 7, 4), "5");
    EXPECT_EQ(tsinghua::move_word(in, 8, 4), "(8,4)");  // blocked
    EXPECT_EQ(tsinghua::move_word(in, 7, 0), "(7,0)");  // floating above the landing cell
    EXPECT_EQ(tsinghua::move_word(in, 8, 10), "(8,10)");
    EXPECT_EQ(tsinghua::move_word(in, 8, -1), "(8,-1)");
    // Not Connect-4 notation, so the arena judges such a move illegal.
    EXPECT_FALSE(game.new_initial_state()->parse_move("(7,0)"));
}

// The host's explanation of a rejected point: what getPoint was given, in the
// course's terms, and why the point is not the landing cell.
TEST(TsinghuaTranslation, RejectedPointsAreExplainedWithTheBoardGiven) {
    const Connect4Game game(Connect4Config{9, 10, 4, {Connect4Cell{4, 0}}});
    const auto state = play(game, {4, 4, 2});  // as in the known position above
    const auto in = tsinghua::strategy_input(c4(state), 2);
    EXPECT_EQ(tsinghua::describe_arguments(in),
              "M=9 N=10 noX=8 noY=4 lastX=8 lastY=2 top=9,9,8,9,6,9,9,9,9,9");
    EXPECT_EQ(tsinghua::describe_board(in),
              "board=0000000000/0000000000/0000000000/0000000000/0000000000/0000000000/"
              "0000200000/0000100000/0010X00000");
    EXPECT_EQ(tsinghua::point_problem(in, 5, 4), "");
    EXPECT_EQ(tsinghua::point_problem(in, 3, 0),
              "(3,0) is empty; column y=0 lands at x=8 (top[0]=9)");
    EXPECT_EQ(tsinghua::point_problem(in, 7, 4),
              "(7,4) is taken; column y=4 lands at x=5 (top[4]=6)");
    EXPECT_EQ(tsinghua::point_problem(in, 9, 3),
              "x=9 is off the board; column y=3 lands at x=8 (top[3]=9)");
    EXPECT_EQ(tsinghua::point_problem(in, 8, 10), "y=10 is off the board (columns 0..9)");
    const auto blocked = tsinghua::strategy_input(c4(game.new_initial_state()), std::nullopt);
    EXPECT_EQ(tsinghua::point_problem(blocked, 8, 4),
              "(8,4) is the blocked cell; column y=4 lands at x=7 (top[4]=8)");
    const Connect4Game small(Connect4Config{4, 4, 4, {}});
    const auto column_full = tsinghua::strategy_input(c4(play(small, {0, 0, 0, 0})), 0);
    EXPECT_EQ(tsinghua::point_problem(column_full, -1, 0), "column y=0 is full (top[0]=0)");

    // The three lines the host writes for the course's largest board, with
    // every number as long as it gets, fit the 400 bytes of stderr the arena
    // shows with a verdict.
    tsinghua::StrategyInput largest;
    largest.rows = largest.cols = 12;
    largest.top.assign(12, 12);
    largest.board.assign(144, 0);
    largest.no_x = largest.no_y = largest.last_x = largest.last_y = 11;
    const std::string lines = "arena-so-host: getPoint(" + tsinghua::describe_arguments(largest) +
                              ") | " + tsinghua::describe_board(largest) +
                              " | arena-so-host: getPoint returned (-10,11), not a legal point: " +
                              tsinghua::point_problem(largest, -10, 11);
    EXPECT_LE(lines.size(), 400u) << lines;
}

TEST(TsinghuaTranslation, RefusesWhatTheInterfaceCannotDescribe) {
    EXPECT_THROW(tsinghua::check_game(Connect4Config{6, 7, 5, {}}), games::GameError);
    EXPECT_THROW(tsinghua::check_game(Connect4Config{6, 7, 4, {{0, 0}, {1, 1}}}), games::GameError);
    EXPECT_NO_THROW(tsinghua::check_game(Connect4Config{6, 7, 4, {}}));
    EXPECT_NO_THROW(tsinghua::check_game(games::tsinghua_config(3)));
}

// The course's Compete tool keeps top and the boards itself (Data.h,
// Compete.cpp): top[y] = M, or M - 1 under a blocked bottom cell; a move at
// (x, y) decrements top[y], and once more when the blocked cell is just
// above. Random games on random Tsinghua boards: at every ply the arena's
// translation equals that bookkeeping.
TEST(TsinghuaTranslation, AgreesWithTheCourseBookkeepingOnRandomGames) {
    std::mt19937_64 rng(12345);
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const Connect4Config config = games::tsinghua_config(seed);
        const Connect4Game game(config);
        const int m = config.rows, n = config.cols;
        const int no_x = m - 1 - config.blocked[0].row, no_y = config.blocked[0].col;
        std::vector<int> top(static_cast<std::size_t>(n), m);
        if (no_x == m - 1) top[static_cast<std::size_t>(no_y)] = m - 1;
        std::vector<int> owner(static_cast<std::size_t>(m * n), 0);  // player 1 or 2
        int last_x = -1, last_y = -1;
        auto state = game.new_initial_state();
        while (!state->is_over()) {
            const int mover = state->current_player();
            const auto in = tsinghua::strategy_input(
                c4(state), last_y >= 0 ? std::optional<int>(last_y) : std::nullopt);
            ASSERT_EQ(in.top, top) << "seed " << seed << " ply " << state->ply();
            for (int i = 0; i < m * n; ++i) {
                const int o = owner[static_cast<std::size_t>(i)];
                ASSERT_EQ(in.board[static_cast<std::size_t>(i)], o == 0       ? 0
                                                                 : o == mover ? 2
                                                                              : 1)
                    << "seed " << seed << " cell " << i;
            }
            ASSERT_EQ(in.last_x, last_x);
            ASSERT_EQ(in.last_y, last_y);
            ASSERT_EQ(in.no_x, no_x);
            ASSERT_EQ(in.no_y, no_y);
            const auto moves = state->legal_moves();
            const int y = moves[rng() % moves.size()];
            const int x = top[static_cast<std::size_t>(y)] - 1;
            ASSERT_EQ(tsinghua::move_word(in, x, y), std::to_string(y + 1));
            owner[static_cast<std::size_t>(x * n + y)] = mover;
            --top[static_cast<std::size_t>(y)];
            if (x == no_x + 1 && y == no_y) --top[static_cast<std::size_t>(y)];
            last_x = x;
            last_y = y;
            state->apply(y);
        }
    }
}

// ---- end to end --------------------------------------------------------------

std::string strategy(const std::string& relative) {
    return bin("bots/tsinghua/" + relative);
}

// Rows of a query, each column as text.
std::vector<std::vector<std::string>> query(const fs::path& db, const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    sqlite3* handle = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(handle, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
        << sqlite3_errmsg(handle);
    while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
            const auto* text = sqlite3_column_text(stmt, i);
            row.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(handle);
    return rows;
}

// The sample strategy as a gauntlet challenger against two native Connect-4
// bots and a directory of reference strategies, on Tsinghua boards at 100 ms
// a move: every game ends by the rules, every move is stored, the directory
// expands in file name order, and the standings carry the course's points.
// The tolerance is wide (and scaled, see timing.hpp): no timing is tested.
TEST(TsinghuaTournament, SampleStrategyAgainstNativeBotsAndADirectoryOfStrategies) {
    TempDir dir("tsinghua_test");
    fs::create_directories(dir.path() / "refs");
    fs::copy_file(strategy("reference/random.so"), dir.path() / "refs" / "b-random.so");
    fs::copy_file(strategy("reference/greedy.so"), dir.path() / "refs" / "a-greedy.so");
    std::ofstream(dir.path() / "refs" / "notes.txt") << "not a strategy\n";
    const auto db = dir.path() / "t.db";
    const auto config = dir.write("t.yaml", R"(name: tsinghua-test
game: { name: connect4, variant: tsinghua }
time: { move_ms: 100, tolerance_ms: )" + scaled_ms(500) +
                                                R"( }
schedule: { type: gauntlet, challenger: sample, games_per_pair: 2 }
scoring: { win: 2, draw: 1, loss: 0 }
concurrency: 2
seed: 11
database: )" + db.string() + R"(
bots:
  - { name: sample, protocol: tsinghua-so, library: )" +
                                                strategy("sample.so") + R"( }
  - { name: random, command: )" + bin("bots/random") +
                                                R"( --game connect4 }
  - { name: features, command: )" + bin("bots/c4-features") +
                                                R"( }
  - { name: ref, protocol: tsinghua-so, library_dir: )" +
                                                (dir.path() / "refs").string() + R"( }
)");
    const auto r = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_FALSE(arena::testing::looks_like_a_crash(r.err)) << r.err;

    const auto bots = query(db, "SELECT name, protocol FROM bots ORDER BY id");
    ASSERT_EQ(bots.size(), 5u);
    EXPECT_EQ(bots[0], (std::vector<std::string>{"sample", "tsinghua-so"}));
    EXPECT_EQ(bots[3], (std::vector<std::string>{"ref-a-greedy", "tsinghua-so"}));
    EXPECT_EQ(bots[4], (std::vector<std::string>{"ref-b-random", "tsinghua-so"}));

    const auto games = query(db,
                             "SELECT g.termination, g.detail, g.plies, "
                             "(SELECT count(*) FROM moves m WHERE m.game = g.id), "
                             "(SELECT count(*) FROM moves m WHERE m.game = g.id AND m.info LIKE "
                             "'point x=%') FROM games g");
    ASSERT_EQ(games.size(), 8u);
    for (const auto& g : games) {
        EXPECT_EQ(g[0], "normal") << g[1];
        EXPECT_EQ(g[2], g[3]);                  // every move stored
        EXPECT_GT(std::stoi(g[4]), 0) << g[1];  // the host's info line with the point
    }
    // The course's points: 2 a win, 1 a draw, from the stored W/D/L.
    const auto wdl = query(db, "SELECT sum(won), sum(drawn) FROM bot_games WHERE bot = 'sample'");
    ASSERT_EQ(wdl.size(), 1u);
    const int points = 2 * std::stoi(wdl[0][0]) + std::stoi(wdl[0][1]);
    const std::regex row(
        "\\n\\s+\\d+\\s+sample\\s+-?\\d+\\*?\\s+\\d+\\s+8\\s+\\d+\\s+\\d+\\s+\\d+\\s+"
        "[\\d.]+%\\s+" +
        std::to_string(points) + "\\s");
    EXPECT_TRUE(std::regex_search(r.out, row)) << r.out;
    EXPECT_NE(r.out.find("points: 2 a win, 1 a draw, 0 a loss"), std::string::npos) << r.out;

    // The same config again: the expansion matches the stored tournament, so
    // it is accepted as finished and only the standings are printed.
    const auto again = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(again.status, 0) << again.err << again.out;
    EXPECT_NE(again.out.find("tsinghua-test: 8 of 8 games"), std::string::npos) << again.out;
    EXPECT_EQ(query(db, "SELECT count(*) FROM games")[0][0], "8");
}

// With restart: on-fault the library stays loaded from game to game of one
// host process: the counter fixture's call count goes on rising, and what it
// prints on stdout reaches the log, not the protocol.
TEST(TsinghuaTournament, GlobalStateSurvivesAcrossGamesOfOneProcessOnFault) {
    TempDir dir("tsinghua_test");
    const auto db = dir.path() / "g.db";
    const auto config = dir.write("g.yaml", R"(name: tsinghua-state
game: { name: connect4, variant: tsinghua }
time: { move_ms: )" + scaled_ms(1000) + R"( }
schedule: { type: round-robin, games_per_pair: 4 }
concurrency: 1
seed: 3
database: )" + db.string() + R"(
bots:
  - { name: counter, protocol: tsinghua-so, library: )" +
                                                strategy("fixtures/counter.so") +
                                                R"(, restart: on-fault }
  - { name: random, command: )" + bin("bots/random") +
                                                R"( --game connect4 }
)");
    const auto r = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const auto logs = query(db,
                            "SELECT g.game_index, l.stderr FROM games g JOIN bots b ON b.name = "
                            "'counter' JOIN bot_logs l ON l.game = g.id AND l.side = CASE b.id "
                            "WHEN g.first_bot THEN 1 ELSE 2 END WHERE g.termination = 'normal' "
                            "ORDER BY g.game_index");
    ASSERT_EQ(logs.size(), 4u) << r.out;
    const std::regex call("counter: call (\\d+)");
    int previous_last = 0;
    for (const auto& row : logs) {
        const std::string& index = row[0];
        const std::string& log = row[1];
        std::smatch m;
        ASSERT_TRUE(std::regex_search(log, m, call)) << log;
        const int first = std::stoi(m[1]);
        EXPECT_EQ(first, previous_last + 1) << "game " << index << ":\n" << log;
        int last = first;
        for (std::sregex_iterator it(log.begin(), log.end(), call); it != std::sregex_iterator();
             ++it)
            last = std::stoi((*it)[1]);
        previous_last = last;
        EXPECT_NE(log.find("stdout noise from printf"), std::string::npos) << log;
        EXPECT_NE(log.find("stdout noise from std::cout"), std::string::npos) << log;
    }
    EXPECT_GT(previous_last, 8);
}

// ---- one load per game -----------------------------------------------------------

// The one_game fixture keeps its own board in static arrays, valid for one
// game. Under the defaults every game loads it afresh, so ten games against
// the random bot end by the rules, and its arrays always agree with the board
// it is given. With restart: on-fault the second game of the same process
// starts from the first game's arrays: its first point is illegal, and the
// host's explanation (the point, what getPoint was given) is in the bot's log
// and in the line the run prints for the game.
TEST(TsinghuaTournament, StrategyWithOneGameOfStatePlaysCleanlyUnderTheDefaults) {
    TempDir dir("tsinghua_test");
    const auto write_config = [&](const std::string& name, int games, const std::string& restart) {
        return dir.write(name + ".yaml", "name: " + name + R"(
game: { name: connect4, variant: tsinghua }
time: { move_ms: )" + scaled_ms(1000) + R"( }
schedule: { type: round-robin, games_per_pair: )" +
                                             std::to_string(games) +
                                             R"( }
concurrency: 1
seed: 5
database: )" + (dir.path() / (name + ".db")).string() +
                                             R"(
bots:
  - { name: og, protocol: tsinghua-so, library: )" +
                                             strategy("fixtures/one_game.so") + restart + R"( }
  - { name: random, command: )" + bin("bots/random") +
                                             R"( --game connect4 }
)");
    };
    const auto r = run_arena(dir.path(), {"run", write_config("fresh", 10, "")});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    const auto db = dir.path() / "fresh.db";
    EXPECT_EQ(arena::testing::query(db, "SELECT termination, count(*) FROM games GROUP BY 1"),
              (arena::testing::Rows{{"normal", "10"}}))
        << r.out;
    // Its own arrays agreed with getPoint's board in every game.
    EXPECT_EQ(
        arena::testing::query(db, "SELECT count(*) FROM bot_logs WHERE stderr LIKE '%differs%'"),
        (arena::testing::Rows{{"0"}}));

    const auto reused =
        run_arena(dir.path(), {"run", write_config("reused", 2, ", restart: on-fault")});
    ASSERT_EQ(reused.status, 0) << reused.err << reused.out;
    const auto games = arena::testing::query(
        dir.path() / "reused.db",
        "SELECT g.game_index, g.termination, g.detail, l.stderr FROM games g JOIN bots b ON "
        "b.name = 'og' LEFT JOIN bot_logs l ON l.game = g.id AND l.side = CASE b.id WHEN "
        "g.first_bot THEN 1 ELSE 2 END ORDER BY g.game_index");
    ASSERT_EQ(games.size(), 2u) << reused.out;
    EXPECT_EQ(games[0][1], "normal") << games[0][2];
    EXPECT_EQ(games[1][1], "illegal");
    EXPECT_TRUE(games[1][2].starts_with("og: not a move of this game: '(")) << games[1][2];
    const std::string& log = games[1][3];
    EXPECT_TRUE(
        std::regex_search(log, std::regex("arena-so-host: getPoint\\(M=\\d+ N=\\d+ noX=-?\\d+ "
                                          "noY=-?\\d+ lastX=-?\\d+ lastY=-?\\d+ top=[\\d,]+\\)")))
        << log;
    EXPECT_TRUE(std::regex_search(log, std::regex("\\n  board=[012X/]+\\n"))) << log;
    EXPECT_TRUE(std::regex_search(
        log, std::regex("arena-so-host: getPoint returned \\(\\d+,0\\), not a legal point: "
                        "\\(\\d+,0\\) is empty; column y=0 lands at x=\\d+ "
                        "\\(top\\[0\\]=\\d+\\)")))
        << log;
    // The line printed for the game shows the explanation with the verdict.
    EXPECT_NE((reused.out + reused.err).find("not a legal point: "), std::string::npos)
        << reused.out << reused.err;
}

// `arena match` loads a strategy library afresh for every game too.
TEST(TsinghuaMatch, EveryGameLoadsTheStrategyAfresh) {
    TempDir dir("tsinghua_test");
    const auto db = dir.path() / "m.db";
    const auto r =
        run_arena(dir.path(), {"match", "--game", "connect4", "--variant", "tsinghua", "--games",
                               "4", "--move-ms", scaled_ms(1000), "--db", db.string(),
                               strategy("fixtures/one_game.so"), bin("bots/random")});
    EXPECT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(arena::testing::query(db, "SELECT termination, count(*) FROM games GROUP BY 1"),
              (arena::testing::Rows{{"normal", "4"}}))
        << r.out << r.err;
}

// A strategy with a large static array: hundreds of megabytes of .bss
// reserved at load, a few touched. 1200 MB is more address space than the
// default memory_mb of 1024, which limits memory actually used.
TEST(TsinghuaMatch, LargeStaticArraysLoadAndPlayUnderTheDefaultLimits) {
    for (const std::string fixture : {"big_static", "big_static_1200"}) {
        SCOPED_TRACE(fixture);
        TempDir dir("tsinghua_test");
        const auto db = dir.path() / "m.db";
        const auto r = run_arena(
            dir.path(), {"match", "--game", "connect4", "--variant", "tsinghua", "--games", "2",
                         "--move-ms", scaled_ms(1000), "--db", db.string(),
                         strategy("fixtures/" + fixture + ".so"), bin("bots/random")});
        EXPECT_EQ(r.status, 0) << r.err << r.out;
        EXPECT_EQ(arena::testing::query(db, "SELECT termination, count(*) FROM games GROUP BY 1"),
                  (arena::testing::Rows{{"normal", "2"}}))
            << r.out << r.err;
    }
}

// A library built with `gcc -shared` from C++ that uses new and std::vector
// does not link libstdc++; the host provides it.
TEST(TsinghuaMatch, StrategyBuiltWithoutTheCxxRuntimePlays) {
    const std::string library = strategy("fixtures/no_libstdcxx.so");
    ASSERT_TRUE(fs::exists(library)) << library << " is built only where gcc is found";
    std::string bytes;
    {
        std::ifstream in(library, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    // The fixture's premise: it needs operator new but names no libstdc++.
    EXPECT_NE(bytes.find("_Znwm"), std::string::npos);
    EXPECT_EQ(bytes.find("libstdc++"), std::string::npos);
    TempDir dir("tsinghua_test");
    const auto db = dir.path() / "m.db";
    const auto r = run_arena(dir.path(), {"match", "--game", "connect4", "--variant", "tsinghua",
                                          "--games", "2", "--move-ms", scaled_ms(1000), "--db",
                                          db.string(), library, bin("bots/random")});
    EXPECT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_EQ(arena::testing::query(db, "SELECT termination, count(*) FROM games GROUP BY 1"),
              (arena::testing::Rows{{"normal", "2"}}))
        << r.out << r.err;
}

// ---- misbehaving strategies ----------------------------------------------------

struct Misbehaviour {
    std::string label;
    std::string fixture;  // in build/bots/tsinghua/fixtures/
    int move_ms = 0;      // before scaling (timing.hpp)
    std::string ending;
    std::string detail;  // a part of the detail
};

void PrintTo(const Misbehaviour& c, std::ostream* os) {
    *os << c.label;
}

class TsinghuaMisbehaving : public ::testing::TestWithParam<Misbehaviour> {};

// Two games through `arena match` against the native random bot: the bad
// strategy loses both as a native bot would, and no process is left (found
// by the library's path, unique to the test).
TEST_P(TsinghuaMisbehaving, JudgedLikeANativeBotLeavingNothingBehind) {
    const auto& c = GetParam();
    TempDir dir("tsinghua_test");
    const fs::path library = dir.path() / ("m" + unique_marker()) / (c.fixture + ".so");
    fs::create_directories(library.parent_path());
    fs::copy_file(strategy("fixtures/" + c.fixture + ".so"), library);
    const auto started = std::chrono::steady_clock::now();
    const auto r =
        run_arena(dir.path(), {"match", "--game", "connect4", "--variant", "tsinghua", "--games",
                               "2", "--startup-ms", "3000", "--move-ms", scaled_ms(c.move_ms),
                               "bad=" + library.string(), "good=" + bin("bots/random")});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_LT(std::chrono::steady_clock::now() - started, scaled(std::chrono::seconds(15)));
    const auto lines = arena::testing::game_lines(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out;
    for (const auto& line : lines) {
        EXPECT_NE(line.find("  " + c.ending + "  "), std::string::npos) << line;
        const bool first = line.find(": bad vs") != std::string::npos;
        EXPECT_NE(line.find(first ? "  0-1  " : "  1-0  "), std::string::npos) << line;
        EXPECT_NE(line.find(c.detail), std::string::npos) << line;
    }
    EXPECT_EQ(survivors(library.string()), std::vector<int>{}) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, TsinghuaMisbehaving,
    ::testing::Values(Misbehaviour{"crash", "crash", 1000, "crash", "(bad: exited"},
                      Misbehaviour{"hang", "hang", 300, "timeout", "no move within"},
                      Misbehaviour{"illegal_point", "illegal", 1000, "illegal",
                                   "not a move of this game: '("},
                      Misbehaviour{"missing_symbol", "no_clear_point", 1000, "startup", "exit 3"}),
    [](const auto& param_info) { return param_info.param.label; });

// `arena match --protocol1 tsinghua-so` plays any path as a strategy library;
// a path ending in .so needs no flag. Both through arena-so-host.
TEST(TsinghuaMatch, ProtocolFlagOrSoSuffixPlaysAStrategyLibrary) {
    TempDir dir("tsinghua_test");
    const auto renamed = dir.path() / "sample.strategy";
    fs::copy_file(strategy("sample.so"), renamed);
    const auto r =
        run_arena(dir.path(), {"match", "--game", "connect4", "--variant", "tsinghua", "--games",
                               "2", "--move-ms", scaled_ms(1000), "--protocol1", "tsinghua-so",
                               "mine=" + renamed.string(), strategy("reference/greedy.so")});
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("game 1/2: mine vs greedy"), std::string::npos) << r.out;
    const auto first = r.out.find("  normal  ");
    ASSERT_NE(first, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  normal  ", first + 1), std::string::npos) << r.out;  // both games
    const auto bad = run_arena(dir.path(), {"match", "--game", "gomoku", "--protocol1",
                                            "tsinghua-so", renamed.string(), bin("bots/random")});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("plays only connect4, not gomoku"), std::string::npos) << bad.err;
}

// ---- config errors ---------------------------------------------------------------

struct ConfigCase {
    std::string label;
    std::string game;   // the game map
    std::string bot;    // the first bot's map
    std::string error;  // in the message, after "file:line:col: "
};

void PrintTo(const ConfigCase& c, std::ostream* os) {
    *os << c.label;
}

class TsinghuaConfigErrors : public ::testing::TestWithParam<ConfigCase> {};

TEST_P(TsinghuaConfigErrors, NameTheFileLineAndColumn) {
    const auto& c = GetParam();
    TempDir dir("tsinghua_test");
    std::string bot = c.bot;
    for (const auto& [from, to] :
         std::map<std::string, std::string>{{"@SAMPLE@", strategy("sample.so")},
                                            {"@FIXTURES@", strategy("fixtures")},
                                            {"@EMPTY@", dir.path().string()}}) {
        for (std::size_t at; (at = bot.find(from)) != std::string::npos;)
            bot.replace(at, from.size(), to);
    }
    const auto config =
        dir.write("c.yaml", "name: errors\ngame: " + c.game + "\nbots:\n  - " + bot +
                                "\n  - { name: crash, command: " + bin("bots/random") + " }\n");
    const auto r = run_arena(dir.path(), {"run", config});
    EXPECT_EQ(r.status, 2) << r.out;  // a config error
    EXPECT_TRUE(std::regex_search(
        r.err, std::regex(std::regex_replace(config, std::regex("[.]"), "\\.") + ":\\d+:\\d+: ")))
        << r.err;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "results")) << "nothing is written";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TsinghuaConfigErrors,
    ::testing::Values(
        ConfigCase{"missing_library", "{ name: connect4 }",
                   "{ name: s, protocol: tsinghua-so, library: @EMPTY@/none.so }",
                   "bot 's': library '"},
        ConfigCase{"unknown_protocol_names_tsinghua_so", "{ name: connect4 }",
                   "{ name: s, protocol: tsinghua, command: /bin/true }",
                   "unknown protocol 'tsinghua' (expected 'arena1', 'gomocup' or 'nboard', or "
                   "'tsinghua-so' with a 'library')"},
        ConfigCase{"library_without_protocol", "{ name: connect4 }",
                   "{ name: s, library: @SAMPLE@ }",
                   "bot 's': 'library' needs 'protocol: tsinghua-so'"},
        ConfigCase{"protocol_without_library", "{ name: connect4 }",
                   "{ name: s, protocol: tsinghua-so }",
                   "missing required key 'library' in bot 's'"},
        ConfigCase{"command_with_library", "{ name: connect4 }",
                   "{ name: s, protocol: tsinghua-so, library: @SAMPLE@, command: x }",
                   "'command' is not for protocol: tsinghua-so"},
        ConfigCase{"not_connect4", "{ name: gomoku }",
                   "{ name: s, protocol: tsinghua-so, library: @SAMPLE@ }",
                   "bot 's': protocol 'tsinghua-so' plays only connect4, not gomoku"},
        ConfigCase{"connect5", "{ name: connect4, connect: 5 }",
                   "{ name: s, protocol: tsinghua-so, library: @SAMPLE@ }",
                   "plays four in a row, not connect=5"},
        ConfigCase{"empty_library_dir", "{ name: connect4 }",
                   "{ protocol: tsinghua-so, library_dir: @EMPTY@ }", "holds no .so files"},
        ConfigCase{"library_dir_not_a_directory", "{ name: connect4 }",
                   "{ protocol: tsinghua-so, library_dir: @SAMPLE@ }", "is not a directory"},
        ConfigCase{"library_dir_duplicate_name", "{ name: connect4 }",
                   "{ protocol: tsinghua-so, library_dir: @FIXTURES@ }",
                   "duplicate bot name 'crash' (first defined at line 4)"}),
    [](const auto& param_info) { return param_info.param.label; });

}  // namespace
}  // namespace arena
