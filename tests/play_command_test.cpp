// `arena play` through a pseudo-terminal, as a person plays it: the test
// reads the board and prompts, types moves (the first column the rules
// accept), and checks what was shown and what was stored.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "interactive_terminal.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena::testing {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> play_argv(const std::vector<std::string>& options) {
    std::vector<std::string> argv{bin("bin/arena"), "play"};
    argv.insert(argv.end(), options.begin(), options.end());
    return argv;
}

// Plays the game on `term` to its end, answering each prompt with the
// first column the arena accepts: it types 1, and after each refusal the
// next column. Returns how many moves were refused.
int play_first_legal_columns(InteractiveTerminal& term, const std::string& prompt) {
    std::size_t pos = 0;
    int column = 1;
    int refusals = 0;
    for (int prompts = 0; prompts < 200; ++prompts) {
        const auto at = term.wait_for(prompt, pos, 60s);
        if (!at) break;
        if (term.output().substr(pos, *at - pos).find("refused: ") != std::string::npos) {
            ++column;
            ++refusals;
        } else {
            column = 1;
        }
        EXPECT_LE(column, 7) << term.output();
        term.type(std::to_string(column) + "\n");
        pos = *at;
    }
    return refusals;
}

TEST(PlayCommand, ACompleteConnect4GameAgainstRandomIsShownAndStored) {
    TempDir dir("play");
    const auto db = dir.path() / "me.db";
    for (const std::string color : {"first", "second"}) {
        SCOPED_TRACE(color);
        InteractiveTerminal term(play_argv({"--game", "connect4", "--move-ms", "1000", "--color",
                                            color, "--db", db.string(), bin("bots/random")}));
        ASSERT_TRUE(term.started());
        const char mark = color == "first" ? 'X' : 'O';
        const std::string prompt = std::string("your move (") + mark + "): ";
        play_first_legal_columns(term, prompt);
        const auto code = term.finish(30s);
        ASSERT_TRUE(code.has_value()) << term.output();
        EXPECT_EQ(*code, 0) << term.output();
        const std::string& out = term.output();
        // The start: who plays what, the notation, and the empty board.
        EXPECT_NE(out.find("you (human) play " +
                           std::string(color == "first" ? "X, first," : "O, second,") +
                           " against random at connect4 rows=6 cols=7 connect=4; random has 1000 "
                           "ms a move, you have no limit."),
                  std::string::npos)
            << out;
        EXPECT_NE(out.find("type a column number, 1 (left) to 7"), std::string::npos) << out;
        EXPECT_NE(out.find("   1 2 3 4 5 6 7"), std::string::npos) << out;
        EXPECT_NE(out.find(color == "first" ? "\n2. random: " : "\n1. random: "), std::string::npos)
            << out;
        // The end: the result line and where it was stored.
        const auto result_at = out.find("\nresult ");
        ASSERT_NE(result_at, std::string::npos) << out;
        const std::string result =
            out.substr(result_at + 8, out.find(':', result_at) - result_at - 8);
        EXPECT_NE(out.find("stored as game "), std::string::npos) << out;

        // The stored game: a normal game of the tournament of this pairing,
        // with the person as a player named human.
        const auto rows = query(db,
                                "SELECT g.id, f.name, s.name, g.result, g.termination, g.plies, "
                                "g.params, t.name, f.protocol FROM games g "
                                "JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = "
                                "g.second_bot JOIN tournaments t ON t.id = g.tournament "
                                "ORDER BY g.id DESC LIMIT 1");
        ASSERT_EQ(rows.size(), 1u);
        const auto& g = rows[0];
        EXPECT_EQ(g[1], color == "first" ? "human" : "random");
        EXPECT_EQ(g[2], color == "first" ? "random" : "human");
        EXPECT_EQ(g[3], result);
        EXPECT_EQ(g[4], "normal");
        EXPECT_EQ(g[6], "rows=6 cols=7 connect=4");
        EXPECT_EQ(g[7], "human-vs-random-connect4");
        EXPECT_NE(out.find("stored as game " + g[0] + " of tournament 'human-vs-random-connect4'"),
                  std::string::npos)
            << out;
        // The stored moves replay to the stored result, and every one of the
        // person's moves is on the terminal.
        const auto moves =
            query(db, "SELECT side, move FROM moves WHERE game = " + g[0] + " ORDER BY ply");
        EXPECT_EQ(std::to_string(moves.size()), g[5]);
        const auto game = games::make_game("connect4", {});
        auto state = game->new_initial_state();
        int ply = 0;
        for (const auto& m : moves) {
            ++ply;
            const auto move = state->parse_move(m[1]);
            ASSERT_TRUE(move && state->is_legal(*move)) << m[1];
            state->apply(*move);
            const bool mine = (m[0] == "1") == (color == "first");
            EXPECT_NE(out.find("\n" + std::to_string(ply) + ". " + (mine ? "you" : "random") +
                               ": " + m[1]),
                      std::string::npos)
                << ply;
        }
        ASSERT_TRUE(state->is_over());
        const auto outcome = state->outcome();
        EXPECT_EQ(result, outcome == games::Outcome::kWin1   ? "1-0"
                          : outcome == games::Outcome::kWin2 ? "0-1"
                                                             : "1/2-1/2");
    }
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "2");
    EXPECT_EQ(query_one(db, "SELECT total_games FROM tournaments"), "2");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM tournaments"), "1");
}

TEST(PlayCommand, RefusedMovesAreAskedAgain) {
    // On a 4x4 board against `instant` (which plays the first legal
    // column), column 1 is full after four stones: the person who always
    // tries column 1 first is then refused and asked again.
    InteractiveTerminal term(play_argv({"--game", "connect4", "--rows", "4", "--cols", "4",
                                        "--move-ms", "1000", bin("bots/instant")}));
    ASSERT_TRUE(term.started());
    auto at = term.wait_for("your move (X): ", 0, 30s);
    ASSERT_TRUE(at) << term.output();
    term.type("zz\n");
    at = term.wait_for(
        "refused: not a move of this game: 'zz' (type a column number, 1 (left) "
        "to 4)\nyour move (X): ",
        *at, 30s);
    ASSERT_TRUE(at) << term.output();
    term.type("9\n");
    at = term.wait_for("refused: not a move of this game: '9'", *at, 30s);
    ASSERT_TRUE(at) << term.output();
    term.type("help\n");
    at = term.wait_for("'board' shows the board, 'quit' leaves the game", *at, 30s);
    ASSERT_TRUE(at) << term.output();
    term.type("1\n");
    EXPECT_GE(play_first_legal_columns(term, "your move (X): "), 1);
    EXPECT_EQ(term.finish(30s), 0) << term.output();
    EXPECT_NE(term.output().find("refused: illegal move '1' (type a column number"),
              std::string::npos)
        << term.output();
    EXPECT_NE(term.output().find("\nresult "), std::string::npos) << term.output();
}

TEST(PlayCommand, TheBotsInfoLinesAreShownEscaped) {
    InteractiveTerminal term(
        play_argv({"--game", "connect4", "--move-ms", "2000", "--color", "second",
                   "python3 " + source("tests/data/hostile/hostile_bot.py")}));
    ASSERT_TRUE(term.started());
    const auto at = term.wait_for("your move (O): ", 0, 30s);
    ASSERT_TRUE(at) << term.output();
    const std::string shown = term.output().substr(0, *at);
    // The escape sequences arrive as visible text, never as bytes the
    // terminal would obey.
    EXPECT_NE(shown.find("   info <script>window.__hostile=1</script>"), std::string::npos)
        << shown;
    EXPECT_NE(shown.find("\\x1b[2J\\x1b]0;pwned\\x07"), std::string::npos) << shown;
    EXPECT_EQ(shown.find('\x1b'), std::string::npos) << shown;
    EXPECT_EQ(shown.find('\x07'), std::string::npos) << shown;
    term.type("quit\n");
    EXPECT_EQ(term.finish(30s), 1);
}

TEST(PlayCommand, AGameLeftUnfinishedIsNotStored) {
    TempDir dir("play");
    const auto db = dir.path() / "left.db";
    InteractiveTerminal term(
        play_argv({"--game", "gomoku", "--size", "9", "--db", db.string(), bin("bots/random")}));
    ASSERT_TRUE(term.started());
    auto at = term.wait_for("your move (X): ", 0, 30s);
    ASSERT_TRUE(at) << term.output();
    EXPECT_NE(term.output().find("type a cell as column letter and row number, a1 at the bottom "
                                 "left (e.g. c3)"),
              std::string::npos);
    term.type("e5\n");
    at = term.wait_for("your move (X): ", *at, 30s);
    ASSERT_TRUE(at) << term.output();
    term.type("quit\n");
    EXPECT_EQ(term.finish(30s), 1);
    EXPECT_NE(term.output().find("you left the game; it is not a result and was not stored"),
              std::string::npos)
        << term.output();
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "0");
}

TEST(PlayCommand, WithAMoveLimitThePersonLosesOnTime) {
    TempDir dir("play");
    const auto db = dir.path() / "slow.db";
    InteractiveTerminal term(play_argv(
        {"--game", "connect4", "--human-ms", "300", "--db", db.string(), bin("bots/random")}));
    ASSERT_TRUE(term.started());
    EXPECT_EQ(term.finish(30s), 0) << term.output();
    EXPECT_NE(term.output().find("you have 300 ms."), std::string::npos) << term.output();
    EXPECT_NE(term.output().find("result 0-1: random wins (timeout: human: no move within 300 ms)"),
              std::string::npos)
        << term.output();
    EXPECT_EQ(query_one(db, "SELECT result || ' ' || termination FROM games"), "0-1 timeout");
}

TEST(PlayCommand, CtrlCStopsTheGameWithoutStoringIt) {
    TempDir dir("play");
    const auto db = dir.path() / "stopped.db";
    InteractiveTerminal term(
        play_argv({"--game", "reversi", "--db", db.string(), bin("bots/random")}));
    ASSERT_TRUE(term.started());
    ASSERT_TRUE(term.wait_for("your move (X): ", 0, 30s)) << term.output();
    EXPECT_NE(term.output().find("a1 at the top left (e.g. d3)"), std::string::npos);
    term.type("\x03");  // the terminal's interrupt character: SIGINT
    EXPECT_EQ(term.finish(30s), 130) << term.output();
    EXPECT_NE(term.output().find("interrupted; it is not a result and was not stored"),
              std::string::npos)
        << term.output();
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "0");
}

TEST(PlayCommand, BadArgumentsGetOneClearMessage) {
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"--game", "connect4", "--color", "blue", bin("bots/random")},
         "arena play: --color must be first or second, not 'blue'"},
        {{"--game", "connect4"}, "arena play: expected one bot, got 0"},
        {{"--game", "connect4", "--rows", "40", bin("bots/random")},
         "arena play: connect4: rows=40 is out of range (4..16)"},
        {{"--game", "connect4", "--name", "random", bin("bots/random")},
         "arena play: the bot is also called 'random'"},
        {{"--gmae", "connect4", bin("bots/random")},
         "arena play: unknown option '--gmae' (did you mean '--game'?)"},
    };
    TempDir dir("play");
    for (const auto& c : cases) {
        std::vector<std::string> argv{"play"};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        const auto r = run_arena(dir.path(), argv);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(r.err.rfind(c.message, 0), 0u) << r.err;
    }
}

}  // namespace
}  // namespace arena::testing
