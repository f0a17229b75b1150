// A config written back as YAML (tournament/config_text) reads back as the
// same settings: what `arena match` stores is a config like any other.

#include "arena/tournament/config_text.hpp"

#include <gtest/gtest.h>

#include <string>

#include "arena/session/command_line.hpp"

namespace arena::tournament {
namespace {

TEST(ConfigText, ReadsBackAsTheSameSettings) {
    const std::string sh = "/bin/sh";
    Config c = parse_config(
        "name: t\ngame: { name: gomoku, size: 13, rule: exact5 }\n"
        "time: { move_ms: 250, tolerance_ms: 20, game_ms: 9000, inc_ms: 50, startup_ms: 4000, "
        "realtime: false }\n"
        "schedule: { type: gauntlet, challenger: a, games_per_pair: 6, rounds: 2, "
        "sprt: { elo0: -1.5, elo1: 4, alpha: 0.1, beta: 0.05, model: logistic } }\n"
        "openings: { random_plies: 3 }\nseed: 77\ntranscript: true\n"
        "bots:\n"
        "  - { name: a, command: " +
            sh +
            " -c 'echo \"x y\"; exit 0' }\n"
            "  - { name: b, command: " +
            sh + ", restart: per-game }\n",
        "t.yaml");
    const Config back = parse_config(config_text(c, "made by a test: # and 'quotes'"), "u.yaml");
    EXPECT_EQ(back.name, c.name);
    EXPECT_EQ(back.game, c.game);
    EXPECT_EQ(back.game_params, c.game_params);
    EXPECT_EQ(back.time.move, c.time.move);
    EXPECT_EQ(back.time.tolerance, c.time.tolerance);
    EXPECT_EQ(back.time.game, c.time.game);
    EXPECT_EQ(back.time.increment, c.time.increment);
    EXPECT_EQ(back.startup_ms, 4000);
    EXPECT_FALSE(back.realtime_deadlines);
    EXPECT_EQ(back.schedule, ScheduleType::kGauntlet);
    EXPECT_EQ(back.challenger, "a");
    EXPECT_EQ(back.games_per_pair, 6);
    EXPECT_EQ(back.rounds, 2);
    ASSERT_TRUE(back.sprt.has_value());
    EXPECT_EQ(back.sprt->elo0, -1.5);
    EXPECT_EQ(back.sprt->elo1, 4.0);
    EXPECT_EQ(back.sprt->alpha, 0.1);
    EXPECT_EQ(back.sprt->model, rating::SprtModel::logistic);
    EXPECT_EQ(back.openings.random_plies, 3);
    EXPECT_EQ(back.seed, 77u);
    EXPECT_TRUE(back.transcript);
    ASSERT_EQ(back.bots.size(), 2u);
    EXPECT_EQ(back.bots[0].argv, c.bots[0].argv);  // the quoted words survive
    EXPECT_EQ(back.bots[1].argv, c.bots[1].argv);
    EXPECT_TRUE(back.bots[1].restart_each_game);
}

TEST(ConfigText, JoinedCommandsSplitIntoTheSameWords) {
    const std::vector<std::vector<std::string>> cases = {
        {"a"}, {"a", "b c"}, {"it's", "\"q\"", "back\\slash", ""}, {"tab\there", "new\nline"}};
    for (const auto& words : cases)
        EXPECT_EQ(session::split_command(session::join_command(words)), words);
}

}  // namespace
}  // namespace arena::tournament
