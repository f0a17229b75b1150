// One game between real bot processes: every ending is judged right, the
// record replays to the same result, and nothing the arena started survives.

#include "arena/match/match.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/match/opening.hpp"
#include "arena/match/tally.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::match {
namespace {

using namespace std::chrono_literals;
using arena::testing::bin;
using arena::testing::processes_with_arg;
using arena::testing::quick_options;
using arena::testing::random_bot;
using arena::testing::scaled;
using arena::testing::survivors;
using arena::testing::unique_marker;
using record::GameRecord;
using record::stderr_tail;
using record::Termination;

session::BotSpec misbehave(const std::string& marker, std::vector<std::string> flags) {
    std::vector<std::string> argv{bin("bots/misbehave"), "--seed", marker};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return {"bad", argv, {}};
}

TimeControl per_move(std::chrono::milliseconds limit) {
    TimeControl tc;
    tc.move = limit;
    return tc;
}

// Replays the record through the rules: every move legal, same outcome.
void expect_replays(const games::Game& game, const GameRecord& r) {
    auto state = game.new_initial_state();
    for (const auto& m : r.moves) {
        ASSERT_EQ(state->current_player(), m.player);
        const auto move = state->parse_move(m.move);
        ASSERT_TRUE(move.has_value()) << m.move;
        ASSERT_TRUE(state->is_legal(*move)) << m.move;
        state->apply(*move);
    }
    if (r.termination == Termination::kNormal) {
        EXPECT_EQ(state->outcome(), r.outcome);
    }
}

TEST(Match, RandomBotsPlayEveryGameToItsEnd) {
    session::BotHost host;
    struct Case {
        const char* game;
        games::Params params;
    };
    const std::vector<Case> cases = {
        {"connect4", {}},
        {"connect4", games::realize("connect4", {{"variant", "tsinghua"}}, 7)},
        {"gomoku", {{"size", "9"}, {"rule", "exact5"}}},
        {"reversi", {}},
    };
    const auto limit = scaled(500ms);
    for (const auto& c : cases) {
        const auto game = games::make_game(c.game, c.params);
        Player a(host, random_bot("a", "1"), quick_options(2000ms));
        Player b(host, random_bot("b", "2"), quick_options(2000ms));
        for (int i = 0; i < 4; ++i) {
            const auto r = i % 2 ? play_game(*game, b, a, per_move(limit))
                                 : play_game(*game, a, b, per_move(limit));
            SCOPED_TRACE(std::string(c.game) + " game " + std::to_string(i));
            EXPECT_EQ(r.termination, Termination::kNormal) << r.detail;
            EXPECT_NE(r.outcome, games::Outcome::kOngoing);
            EXPECT_EQ(r.players[0], i % 2 ? "b" : "a");
            EXPECT_EQ(r.params, game->params());
            expect_replays(*game, r);
            for (const auto& m : r.moves) {
                if (!m.by_arena) {
                    EXPECT_LT(m.time, limit);
                }
            }
        }
        // The same processes played all four games.
        EXPECT_TRUE(a.has_session());
    }
}

TEST(Match, OpeningIsPlayedByTheArenaAndRecorded) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    const auto opening = random_opening(*game, 4, 99);
    ASSERT_EQ(opening.size(), 4u);
    EXPECT_EQ(opening, random_opening(*game, 4, 99));
    Player a(host, random_bot("a"), quick_options(2000ms));
    Player b(host, random_bot("b"), quick_options(2000ms));
    const auto r = play_game(*game, a, b, per_move(scaled(500ms)), opening);
    EXPECT_EQ(r.opening_plies, 4);
    auto state = game->new_initial_state();
    for (int i = 0; i < 4; ++i) {
        EXPECT_TRUE(r.moves[i].by_arena);
        EXPECT_EQ(r.moves[i].move, state->format_move(opening[i]));
        state->apply(opening[i]);
    }
    EXPECT_FALSE(r.moves[4].by_arena);
    expect_replays(*game, r);
}

TEST(Match, ReversiForcedPassesArePlayedByTheArena) {
    session::BotHost host;
    const auto game = games::make_game("reversi", {});
    Player a(host, random_bot("a", "3"), quick_options(2000ms));
    Player b(host, random_bot("b", "4"), quick_options(2000ms));
    int passes = 0;
    for (int i = 0; i < 30 && passes == 0; ++i) {
        // The bots are deterministic: a different opening makes a different game.
        const auto r = play_game(*game, a, b, per_move(scaled(500ms)), random_opening(*game, 6, i));
        ASSERT_EQ(r.termination, Termination::kNormal) << r.detail;
        expect_replays(*game, r);
        for (const auto& m : r.moves) {
            if (m.move == "pass") {
                EXPECT_TRUE(m.by_arena);
                ++passes;
            }
        }
    }
    EXPECT_GT(passes, 0) << "no random game in 30 had a pass";
}

struct Misbehaviour {
    std::vector<std::string> flags;
    Termination expected;
    std::string detail_contains;
};

void PrintTo(const Misbehaviour& m, std::ostream* os) {
    for (const auto& f : m.flags)
        *os << f << " ";
}

class MisbehaviourTest : public ::testing::TestWithParam<Misbehaviour> {};

// The limits, and the sleep of a bot that answers late, scaled together.
TEST_P(MisbehaviourTest, IsJudgedAndLeavesNoProcess) {
    session::BotHost host;
    const auto& c = GetParam();
    const auto marker = unique_marker();
    const auto game = games::make_game("connect4", {});
    auto flags = c.flags;
    for (std::size_t i = 0; i + 1 < flags.size(); ++i) {
        if (flags[i] == "--sleep-ms")
            flags[i + 1] = std::to_string(scaled(Millis{std::stoi(flags[i + 1])}).count());
    }
    const auto limit = per_move(scaled(200ms));
    {
        auto options = quick_options(2000ms);
        options.max_line_bytes = 4096;
        options.startup_limit = scaled(500ms);
        Player bad(host, misbehave(marker, flags), options);
        Player good(host, random_bot("good"), options);
        for (int first = 0; first < 2; ++first) {
            const auto r = first == 0 ? play_game(*game, bad, good, limit)
                                      : play_game(*game, good, bad, limit);
            const int bad_player = first == 0 ? 1 : 2;
            EXPECT_EQ(r.termination, c.expected) << r.detail;
            EXPECT_EQ(r.offender(), bad_player);
            EXPECT_EQ(r.winner(), 3 - bad_player);
            EXPECT_NE(r.detail.find(c.detail_contains), std::string::npos) << r.detail;
            EXPECT_EQ(r.detail.rfind("bad: ", 0), 0u) << r.detail;
            // The offender's process is gone right after the verdict; the
            // good bot keeps its session.
            EXPECT_FALSE(bad.has_session());
            EXPECT_TRUE(good.has_session());
            expect_replays(*game, r);
        }
    }
    EXPECT_EQ(survivors(marker), std::vector<int>{});
}

INSTANTIATE_TEST_SUITE_P(
    Endings, MisbehaviourTest,
    ::testing::Values(
        Misbehaviour{{"--mode", "crash"}, Termination::kCrash, "SIGSEGV"},
        Misbehaviour{{"--mode", "abort", "--at-ply", "5"}, Termination::kCrash, "SIGABRT"},
        Misbehaviour{{"--mode", "exit", "--at-ply", "3"}, Termination::kCrash, "exit 3"},
        Misbehaviour{{"--mode", "crash-after-move"}, Termination::kCrash, ""},
        Misbehaviour{{"--mode", "hang"}, Termination::kTimeout, ""},
        Misbehaviour{{"--mode", "sleep", "--sleep-ms", "400"}, Termination::kTimeout, ""},
        Misbehaviour{{"--mode", "no-newline", "--at-ply", "2"}, Termination::kTimeout, ""},
        Misbehaviour{{"--mode", "flood-info"}, Termination::kTimeout, ""},
        Misbehaviour{{"--mode", "illegal", "--at-ply", "4"}, Termination::kIllegal, "move"},
        // Each with the hint `arena check-bot` gives (issue 41 item 18).
        Misbehaviour{{"--mode", "bad-notation"},
                     Termination::kIllegal,
                     "not a move of this game: 'zz99'; a move is `move <column>` (1..7, not full)"},
        Misbehaviour{{"--mode", "garbage"},
                     Termination::kProtocol,
                     "invalid line: 'hello arena': only `info`, `debug` and `move` lines may come "
                     "on stdout; write debug output to stderr, or start such lines with `debug`"},
        Misbehaviour{
            {"--mode", "no-keyword"},
            Termination::kProtocol,
            "': the `move` keyword is missing; a move is `move <column>` (1..7, not full)"},
        // A second `move` that comes while the next `go` waits unread (issue
        // 41 item 8): it used to be taken as the answer to that `go`.
        Misbehaviour{{"--mode", "late-double-move", "--sleep-ms", "100"},
                     Termination::kProtocol,
                     "written before it had read its `go`"},
        Misbehaviour{{"--mode", "endless-line"}, Termination::kProtocol, ""},
        Misbehaviour{{"--mode", "close-stdout"}, Termination::kCrash, ""},
        Misbehaviour{{"--mode", "handshake-exit"}, Termination::kStartup, "exit 3"},
        Misbehaviour{{"--mode", "handshake-hang"}, Termination::kStartup, ""}),
    [](const auto& param_info) {
        std::string name = param_info.param.flags[1];
        for (auto& ch : name)
            if (ch == '-') ch = '_';
        return name;
    });

TEST(Match, ForkedChildHoldingThePipesIsKilledWithTheBot) {
    session::BotHost host;
    const auto marker = unique_marker();
    const auto game = games::make_game("connect4", {});
    {
        Player bad(host, misbehave(marker, {"--mode", "fork-child"}), quick_options(2000ms));
        Player good(host, random_bot("good"), quick_options(2000ms));
        const auto r = play_game(*game, bad, good, per_move(scaled(500ms)));
        EXPECT_EQ(r.termination, Termination::kNormal) << r.detail;
        EXPECT_FALSE(processes_with_arg(marker).empty());
    }
    EXPECT_EQ(survivors(marker), std::vector<int>{});
}

TEST(Match, EachGameRecordsTheBoundedTailOfTheBotsStderr) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    auto options = quick_options(2000ms);
    options.stderr_log_bytes = 4096;
    Player noisy(host, misbehave(unique_marker(), {"--mode", "flood-stderr", "--flood-mb", "2"}),
                 options);
    Player quiet(host, random_bot("quiet"), options);
    for (int i = 0; i < 2; ++i) {
        const auto r = play_game(*game, noisy, quiet, per_move(scaled(2000ms)));
        ASSERT_EQ(r.termination, Termination::kNormal) << r.detail;
        EXPECT_NE(r.stderr_logs[0].find("earlier bytes not kept"), std::string::npos);
        EXPECT_LT(r.stderr_logs[0].size(), 4096u + 100u);
        EXPECT_EQ(r.stderr_logs[1], "");
    }
}

TEST(Match, BotIgnoringQuitIsKilledAfterTheGrace) {
    session::BotHost host;
    const auto marker = unique_marker();
    const auto game = games::make_game("connect4", {});
    {
        Player bad(host, misbehave(marker, {"--mode", "ignore-quit"}), quick_options(2000ms));
        Player good(host, random_bot("good"), quick_options(2000ms));
        const auto r = play_game(*game, bad, good, per_move(scaled(500ms)));
        EXPECT_EQ(r.termination, Termination::kNormal) << r.detail;
        // The bot never exits by itself: retire() kills it after the 300 ms grace.
        const auto before = std::chrono::steady_clock::now();
        bad.retire();
        EXPECT_LT(std::chrono::steady_clock::now() - before, scaled(2s));
    }
    EXPECT_EQ(survivors(marker), std::vector<int>{});
}

// At 100 ms per move (10 ms tolerance), a bot that always needs 150 ms
// loses every game on time, and each verdict comes soon after the limit.
// The limit, the sleep and the verdict's slack scale together.
TEST(Match, SlowBotLosesOnTimeRightAfterTheDeadline) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    const auto sleep = std::to_string(scaled(150ms).count());
    Player slow(host, misbehave(unique_marker(), {"--mode", "sleep", "--sleep-ms", sleep}),
                quick_options(2000ms));
    Player fast(host, random_bot("fast"), quick_options(2000ms));
    const auto tc = per_move(scaled(100ms));
    for (int i = 0; i < 6; ++i) {
        const auto r = i % 2 ? play_game(*game, fast, slow, tc) : play_game(*game, slow, fast, tc);
        EXPECT_EQ(r.termination, Termination::kTimeout);
        EXPECT_EQ(r.offender(), i % 2 ? 2 : 1);
        const auto limit = tc.move + tc.tolerance;
        EXPECT_GE(r.fault_after, limit);
        EXPECT_LT(r.fault_after, limit + scaled(30ms))
            << "verdict late by " << (r.fault_after - limit).count() << " us";
    }
}

// At 200 ms per move, 50 ms is comfortably in time: 200 moves, no loss. The
// limit and the sleep scale together; a slower build plays fewer moves. (At
// 100 ms against 60 ms the 50 ms margin was lost to the load of a full
// suite at -j4 on 2 cores, three times in one afternoon.)
TEST(Match, BotWellInsideTheLimitNeverLosesOnTime) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    const auto sleep = std::to_string(scaled(50ms).count());
    Player steady(host, misbehave(unique_marker(), {"--mode", "sleep", "--sleep-ms", sleep}),
                  quick_options(2000ms));
    Player fast(host, random_bot("fast"), quick_options(2000ms));
    const auto tc = per_move(scaled(200ms));
    Tally tally({"bad", "fast"});
    int moves = 0;
    for (int i = 0; moves < 200 / arena::testing::time_scale(); ++i) {
        const auto r =
            i % 2 ? play_game(*game, fast, steady, tc) : play_game(*game, steady, fast, tc);
        ASSERT_EQ(r.termination, Termination::kNormal) << r.detail;
        for (const auto& m : r.moves)
            if (m.player == (i % 2 ? 2 : 1)) ++moves;
        tally.add(r);
    }
    EXPECT_EQ(tally.bots()[0].lost(Termination::kTimeout), 0);
}

TEST(Match, StartupFailureOfBothBotsIsADraw) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    auto options = quick_options(2000ms);
    Player a(host, misbehave(unique_marker(), {"--mode", "handshake-exit"}), options);
    Player b(host, misbehave(unique_marker(), {"--mode", "handshake-exit"}), options);
    const auto r = play_game(*game, a, b, per_move(100ms));
    EXPECT_EQ(r.termination, Termination::kStartup);
    EXPECT_EQ(r.outcome, games::Outcome::kDraw);
    EXPECT_EQ(r.offender(), 0);
    EXPECT_TRUE(r.moves.empty());
}

TEST(Match, MissingCommandThrowsSpawnErrorNamingBotAndCommand) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    Player a(host, {"ghost", {"/nonexistent/bot"}, {}}, quick_options(2000ms));
    Player b(host, random_bot("b"), quick_options(2000ms));
    try {
        (void)play_game(*game, a, b, per_move(100ms));
        FAIL() << "expected SpawnError";
    } catch (const session::SpawnError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("ghost"), std::string::npos) << what;
        EXPECT_NE(what.find("/nonexistent/bot"), std::string::npos) << what;
        EXPECT_NE(what.find("No such file or directory"), std::string::npos) << what;
    }
}

TEST(GameClock, PerMoveAndGameClock) {
    TimeControl tc;
    tc.move = 1000ms;
    tc.game = 1500ms;
    tc.increment = 100ms;
    ASSERT_EQ(tc.validate(), "");
    GameClock clock(tc);
    EXPECT_EQ(clock.budget(1), 1000ms);
    EXPECT_TRUE(clock.charge(1, 900ms));
    EXPECT_EQ(clock.budget(1), 700ms);  // 1500 - 900 + 100
    EXPECT_EQ(clock.go(1).clock_ms, 700);
    EXPECT_EQ(clock.go(2).opp_clock_ms, 700);
    EXPECT_FALSE(clock.charge(1, 720ms));  // over 700 + 10 tolerance
    EXPECT_EQ(clock.budget(1), 80ms);
    EXPECT_EQ(clock.budget(2), 1000ms);

    TimeControl none;
    none.move = 0ms;
    EXPECT_NE(none.validate(), "");
}

// Time odds: each player under its own control, its own budget, tolerance
// and clock; the opponent's clock is told only when it has one.
TEST(GameClock, EachPlayerUnderItsOwnControl) {
    TimeControl fast;
    fast.move = 50ms;
    fast.tolerance = 5ms;
    TimeControl clocked;
    clocked.move = 0ms;
    clocked.game = 2000ms;
    clocked.increment = 100ms;
    GameClock clock(fast, clocked);
    EXPECT_EQ(clock.budget(1), 50ms);
    EXPECT_EQ(clock.limit(1), 55ms);
    EXPECT_EQ(clock.budget(2), 2000ms);
    EXPECT_EQ(clock.limit(2), 2010ms);
    EXPECT_FALSE(clock.charge(1, 60ms));  // over 50 + 5
    EXPECT_TRUE(clock.charge(2, 500ms));
    EXPECT_EQ(clock.budget(2), 1600ms);  // 2000 - 500 + 100
    const auto go1 = clock.go(1);
    EXPECT_EQ(go1.move_ms, 50);
    EXPECT_FALSE(go1.clock_ms);
    EXPECT_FALSE(go1.opp_clock_ms);
    const auto go2 = clock.go(2);
    EXPECT_EQ(go2.move_ms, 1600);
    EXPECT_EQ(go2.clock_ms, 1600);
    EXPECT_FALSE(go2.opp_clock_ms);  // player 1 has no game clock
    EXPECT_EQ(control_text({fast, {2, std::nullopt}}), "move_ms=50 tolerance_ms=5 depth=2");
    EXPECT_EQ(control_text({clocked, {std::nullopt, 100}}),
              "move_ms=0 tolerance_ms=10 game_ms=2000 inc_ms=100 nodes=100");
}

// The stderr tail of a game line: the last 5 lines with something on them,
// at most 400 bytes (cut at the front), control bytes escaped.
TEST(StderrTail, LastLinesCutAndEscaped) {
    EXPECT_EQ(stderr_tail(""), "");
    EXPECT_EQ(stderr_tail(" \n\t\n"), "");
    EXPECT_EQ(stderr_tail("a\n\n  b  \r\nc\n"), "a | b | c");
    EXPECT_EQ(stderr_tail("1\n2\n3\n4\n5\n6\n7\n"), "3 | 4 | 5 | 6 | 7");
    EXPECT_EQ(stderr_tail("red \x1b[31m\n"), "red \\x1b[31m");
    const std::string tail = stderr_tail(std::string(1000, 'x') + "\nlast\n");
    EXPECT_EQ(tail, "..." + std::string(393, 'x') + " | last");
}

}  // namespace
}  // namespace arena::match
