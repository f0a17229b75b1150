// What `arena run` does before its games and says after them, apart from
// the standings: the config with the command line's overrides and the
// progress's options (tournament/run_setup), and the lines of
// tournament/run_summary.

#include "arena/tournament/run_summary.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <string>

#include "arena/tournament/config.hpp"
#include "arena/tournament/run_setup.hpp"

namespace arena::tournament {
namespace {

using namespace std::chrono_literals;

Config config(const std::string& schedule) {
    return parse_config("name: t\ngame: { name: connect4 }\nschedule: " + schedule +
                            "\nbots:\n  - { name: a, command: /bin/true }\n"
                            "  - { name: b, command: /bin/true }\n",
                        "t.yaml");
}

TEST(RunSetup, TheCommandLineOverridesTheConfig) {
    auto c = config("{ type: round-robin }");
    EXPECT_EQ(c.database, "results/t.db");
    RunOverrides o;
    o.shard = Shard{2, 4};
    o.transcript = true;
    std::ostringstream err;
    session::BotHost host;
    ASSERT_TRUE(prepare_run(host, c, o, err));
    EXPECT_EQ(c.database, "results/t.shard-2-of-4.db");
    EXPECT_TRUE(c.transcript);
    EXPECT_EQ(err.str().rfind("limits: ", 0), 0u);  // the limits the bots run under, first
    o.database = "elsewhere.db";
    ASSERT_TRUE(prepare_run(host, c, o, err));
    EXPECT_EQ(c.database, "elsewhere.db");  // --db wins over the shard's

    o.concurrency = 3;
    EXPECT_EQ(run_concurrency(o, c), 3);
    o.concurrency = 0;
    c.concurrency = 5;
    EXPECT_EQ(run_concurrency(o, c), 5);
    c.concurrency = 0;
    EXPECT_GE(run_concurrency(o, c), 1);  // the number of cores
}

TEST(RunSetup, TheProgressOfAShardCountsTheWholeSchedule) {
    RunOverrides o;
    OpenedTournament opened;
    opened.scheduled_games = 40;
    std::ostringstream messages;
    const int not_a_terminal = ::open("/dev/null", O_WRONLY);
    ASSERT_GE(not_a_terminal, 0);
    auto shown = run_progress(o, opened, messages, not_a_terminal);
    EXPECT_EQ(shown.schedule_games, 0);
    EXPECT_EQ(shown.messages, &messages);
    EXPECT_FALSE(shown.live);
    o.shard = Shard{2, 4};
    shown = run_progress(o, opened, messages, not_a_terminal);
    EXPECT_EQ(shown.schedule_games, 40);
    ::close(not_a_terminal);
}

TEST(RunSetup, AScheduleThatCannotBeShardedIsRefused) {
    auto c = config("{ type: gauntlet, challenger: a, sprt: { elo0: 0, elo1: 5 } }");
    RunOverrides o;
    o.shard = Shard{1, 2};
    std::ostringstream err;
    session::BotHost host;
    EXPECT_FALSE(prepare_run(host, c, o, err));
    EXPECT_NE(err.str().find("\narena run: --shard: t.yaml: "), std::string::npos) << err.str();
    EXPECT_EQ(c.database, "results/t.db");
}

TEST(RunSummary, TheStatsLineHasEveryFigure) {
    RunOutcome outcome;
    outcome.played = 10;
    outcome.moves = 400;
    outcome.process_starts = 4;
    outcome.process_capacity = 64;
    outcome.game_cpu = 2ms;
    outcome.storage_cpu = 400us;
    const auto line = stats_line(outcome, 2s, ProcessUsage{0.5, 0.1, 20480});
    EXPECT_EQ(line,
              "stats: games=10 moves=400 wall_s=2.000 games_per_s=5.0 cpu_user_s=0.500 "
              "cpu_sys_s=0.100 cpu_us_per_move=1500.00 game_cpu_us_per_move=5.00 "
              "storage_cpu_us_per_move=1.00 wall_us_per_move=5000.00 peak_rss_mb=20.0 "
              "bot_starts=4 bots_retired=0 process_capacity=64\n");
    EXPECT_GT(own_usage().peak_rss_kb, 0);
}

TEST(RunSummary, HowToGoOnAfterAStop) {
    auto c = config("{ type: round-robin }");
    RunOutcome outcome;
    outcome.total = 20;
    outcome.stored = 12;
    EXPECT_EQ(stopped_text(outcome, c),
              "12 of 20 games stored in results/t.db; run the same command again to play the "
              "other 8 (it resumes where this run stopped)");
    RunOutcome::GivenUp given_up;
    given_up.bot.bot = "a";
    given_up.bot.detail = "cannot be started";
    given_up.missing_games = 6;
    const std::string text = given_up_text(given_up);
    EXPECT_EQ(text.rfind(given_up.bot.describe() + ", so its 6 remaining games were not played", 0),
              0u);
    EXPECT_TRUE(text.ends_with(": fix it and run the same command again")) << text;
}

TEST(RunSummary, AnUndecidedTestSaysWhyItStopped) {
    Lineup lineup;
    lineup.names = {"mine", "ref", "old"};
    lineup.bot_of = {0, 1, -1};
    OpponentTest t;
    t.challenger = 0;
    t.opponent = 1;
    t.scheduled_pairs = 5;
    t.counted_pairs = 3;
    EXPECT_EQ(undecided_text(t, lineup), "SPRT: no decision after 3 of 5 pairs");
    t.counted_pairs = 5;
    EXPECT_EQ(undecided_text(t, lineup),
              "SPRT: no decision after 5 of 5 pairs (the most games_per_pair allows)");
    t.opponent = 2;
    t.playable = false;
    EXPECT_EQ(undecided_text(t, lineup),
              "SPRT: no decision after 5 of 5 pairs (old plays no more)");
    t.opponent = 1;
    EXPECT_EQ(undecided_text(t, lineup),
              "SPRT: no decision after 5 of 5 pairs (mine plays no more)");

    EXPECT_EQ(uncounted_pairs_text(t), "");
    t.late_pairs = 1;
    EXPECT_EQ(uncounted_pairs_text(t),
              "1 more pair was finished after the decision: stored, not counted in the test\n");
    t.late_pairs = 2;
    EXPECT_EQ(uncounted_pairs_text(t),
              "2 more pairs were finished after the decision: stored, not counted in the test\n");
}

}  // namespace
}  // namespace arena::tournament
