// What a person names in a results database (store/lookup) and the lines of
// a wait for a database another program locks (store/lock_messages).

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>

#include "arena/store/lock_messages.hpp"
#include "arena/store/lookup.hpp"
#include "arena/store/results_store.hpp"
#include "stored_tournaments.hpp"
#include "temp_dir.hpp"

namespace arena::store {
namespace {

using namespace std::chrono_literals;

TEST(GameId, OnlyAPositiveWholeNumber) {
    EXPECT_EQ(parse_game_id("1"), 1);
    EXPECT_EQ(parse_game_id("9000000000"), 9'000'000'000);
    for (const std::string bad : {"", "0", "-5", "+5", "1.5", "12x", " 3", "99999999999999999999"})
        EXPECT_FALSE(parse_game_id(bad)) << bad;
    EXPECT_EQ(bad_game_id("x\x01"),
              "GAME must be a game id (a positive whole number), got 'x\\x01'");
}

TEST(Termination, AnUnknownEndingNamesTheClosestAndAll) {
    EXPECT_EQ(unknown_termination("crash"), "");
    EXPECT_EQ(unknown_termination("timeout"), "");
    EXPECT_EQ(unknown_termination("crsh"),
              "unknown ending 'crsh' (did you mean 'crash'?); endings: normal, timeout, crash, "
              "illegal, protocol, startup");
    EXPECT_EQ(unknown_termination("zzzzzz"),
              "unknown ending 'zzzzzz'; endings: normal, timeout, crash, illegal, protocol, "
              "startup");
}

TEST(PickTournament, TheNamedOneOrTheOnlyOne) {
    testing::TempDir dir("arena_lookup");
    const auto db = (dir.path() / "r.db").string();
    ResultsStore store(db);
    EXPECT_EQ(pick_tournament(store, std::nullopt, "r.db").problem, "no tournament in r.db");

    store.create_tournament(testing::tournament_spec("first"), testing::bots_named({"a", "b"}));
    const auto only = pick_tournament(store, std::nullopt, "r.db");
    ASSERT_TRUE(only.row);
    EXPECT_EQ(only.row->spec.name, "first");
    EXPECT_EQ(only.problem, "");
    EXPECT_EQ(pick_tournament(store, std::string("nope"), "r.db").problem,
              "no tournament 'nope' in r.db");

    store.create_tournament(testing::tournament_spec("odd\x01name"), testing::bots_named({"a"}));
    EXPECT_EQ(pick_tournament(store, std::nullopt, "r.db").problem,
              "r.db holds 2 tournaments; choose one with --tournament: first odd\x01name");
    EXPECT_EQ(pick_tournament(store, std::nullopt, "r.db", true).problem,
              "r.db holds 2 tournaments; choose one with --tournament: first odd\\x01name");
    EXPECT_EQ(pick_tournament(store, std::string("n\x02"), "r.db", true).problem,
              "no tournament 'n\\x02' in r.db");
    const auto named = pick_tournament(store, std::string("first"), "r.db");
    ASSERT_TRUE(named.row);

    EXPECT_EQ(missing_bot(store, *named.row, "b", "r.db"), "");
    EXPECT_EQ(missing_bot(store, *named.row, "B", "r.db"),
              "tournament 'first' in r.db has no bot 'B'");
}

TEST(LockMessages, SaysHowLongItWaitedAndWhenItGoesOn) {
    LockWait wait{"results/t.db", 10'400ms, false};
    EXPECT_EQ(lock_wait_line("arena run", wait),
              "arena run: results/t.db is locked by another program; still waiting (10 s)");
    wait.waited = 21'999ms;
    wait.over = true;
    EXPECT_EQ(lock_wait_line("arena run", wait),
              "arena run: results/t.db is free again after 21 s; going on");

    std::ostringstream err;
    const auto waiting = waiting_as_long_as_locked(err, "arena x");
    EXPECT_FALSE(waiting.limit);  // as long as the lock is held
    ASSERT_TRUE(waiting.report);
    waiting.report({"d.db", 20s, false});
    EXPECT_EQ(err.str(), "arena x: d.db is locked by another program; still waiting (20 s)\n");
}

}  // namespace
}  // namespace arena::store
