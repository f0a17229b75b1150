// The `tune:` section of a config (arena tune, docs/tuning.md): what it
// makes of the bots and the schedule, the command at each point, and one
// clear message, with file, line and column, for each mistake.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/config_tune.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/schedule.hpp"
#include "thrown.hpp"

namespace arena::tournament {
namespace {

constexpr const char* kFile = "t.yaml";

Config parse(const std::string& yaml) {
    return parse_config(yaml, kFile);
}

std::string error_of(const std::string& yaml) {
    return testing::message_of<ConfigError>([&] { static_cast<void>(parse(yaml)); });
}

// A tuning config: line 4 is the command, line 6 the first parameter; `extra`
// goes after the parameters, inside `tune:`, then `after` at the top level.
std::string tuning(const std::string& command, const std::string& extra = "",
                   const std::string& after = "") {
    return "name: t\ngame: { name: connect4 }\ntune:\n  command: " + command +
           "\n  params:\n"
           "    - { name: a, start: 10, min: 0, max: 100, c_end: 4, r_end: 0.002 }\n"
           "    - { name: b_2, start: 1, min: -5, max: 5, c_end: 0.5, r_end: 0.01, integer: "
           "true }\n"
           "  pairs: 40\n" +
           extra + after;
}

const std::string kCommand = "/bin/sh -c x --a={a} --b {b_2}";

TEST(TuneConfig, MakesThetaPlusAndMinusAndAGauntletOfOnePairAnIteration) {
    const auto c = parse(tuning(kCommand));
    ASSERT_TRUE(c.tune);
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(c.bots[0].name, "theta+");
    EXPECT_EQ(c.bots[1].name, "theta-");
    // At the start values, the integer one rounded.
    EXPECT_EQ(c.bots[0].argv,
              (std::vector<std::string>{"/bin/sh", "-c", "x", "--a=10", "--b", "1"}));
    EXPECT_EQ(c.bots[0].argv, c.bots[1].argv);
    EXPECT_EQ(c.tune->argv,
              (std::vector<std::string>{"/bin/sh", "-c", "x", "--a={a}", "--b", "{b_2}"}));
    EXPECT_TRUE(c.tune->self);
    EXPECT_EQ(c.tune->spsa.iterations, 40);
    EXPECT_EQ(c.tune->spsa.seed, c.seed);
    EXPECT_FALSE(c.tune->batch);
    ASSERT_EQ(c.tune->params.size(), 2u);
    EXPECT_FALSE(c.tune->params[0].integer);
    EXPECT_TRUE(c.tune->params[1].integer);
    EXPECT_EQ(c.schedule, ScheduleType::kGauntlet);
    const auto schedule = make_schedule(c);
    ASSERT_EQ(schedule.size(), 80u);
    // Iteration k: games 2k (theta+ first) and 2k + 1 (theta- first), pair k.
    for (std::size_t g = 0; g < schedule.size(); ++g) {
        EXPECT_EQ(schedule[g].index, static_cast<std::int64_t>(g));
        EXPECT_EQ(schedule[g].pair, static_cast<int>(g / 2));
        EXPECT_EQ(schedule[g].first, g % 2 == 0 ? 0 : 1);
    }
}

TEST(TuneConfig, AnOpponentPlaysAPairWithEachPointOnOneOpening) {
    const auto c = parse(tuning(kCommand, "  opponent: { name: ref, command: /bin/sh }\n"));
    ASSERT_EQ(c.bots.size(), 3u);
    EXPECT_EQ(c.bots[2].name, "ref");
    EXPECT_FALSE(c.tune->self);
    EXPECT_TRUE(c.openings.same_per_opponent);
    const auto schedule = make_schedule(c);
    ASSERT_EQ(schedule.size(), 160u);
    // Iteration k: games 4k to 4k + 3, the opponent against theta+, then theta-.
    for (std::size_t g = 0; g < schedule.size(); ++g) {
        const auto& p = schedule[g];
        const int tuned = g % 4 < 2 ? 0 : 1;
        EXPECT_EQ(std::minmax(p.first, p.second), std::minmax(2, tuned)) << g;
        EXPECT_EQ(pair_setup(c, p).opening, pair_setup(c, schedule[g - g % 4]).opening) << g;
    }
}

// From one position, deterministic bots would play one game at every
// iteration: without `openings`, a tune takes the game's balanced suite.
TEST(TuneConfig, WithoutOpeningsATuneTakesTheBalancedSuite) {
    const auto c = parse(tuning(kCommand));
    EXPECT_EQ(c.openings.file.filename(), "connect4-7x6-balanced.txt");
    EXPECT_GT(c.openings.lines.size(), 100u);
    const auto empty = parse(tuning(kCommand, "", "openings: { random_plies: 0 }\n"));
    EXPECT_TRUE(empty.openings.lines.empty());
    EXPECT_EQ(empty.openings.random_plies, 0);
}

TEST(TuneConfig, OptionsOverrideTheDefaults) {
    const auto c = parse(tuning(kCommand, "  alpha: 0.5\n  gamma: 0.2\n  A: 7\n  batch: 3\n"));
    EXPECT_DOUBLE_EQ(c.tune->spsa.alpha, 0.5);
    EXPECT_DOUBLE_EQ(c.tune->spsa.gamma, 0.2);
    EXPECT_DOUBLE_EQ(*c.tune->spsa.A, 7.0);
    EXPECT_EQ(c.tune->batch, 3);
}

TEST(TuneConfig, TheCommandAtAPoint) {
    const auto c = parse(tuning(kCommand));
    EXPECT_EQ(tune_argv(*c.tune, {12.25, -2.6}),
              (std::vector<std::string>{"/bin/sh", "-c", "x", "--a=12.25", "--b", "-3"}));
    EXPECT_EQ(param_text(c.tune->params[0], 0.1), "0.1");
    EXPECT_EQ(param_text(c.tune->params[1], -0.4), "0");
    // A brace that opens no parameter stays as written.
    const auto d = parse(tuning("/bin/sh {} {a}x{b_2} {not closed"));
    EXPECT_EQ(tune_argv(*d.tune, {3, 4}),
              (std::vector<std::string>{"/bin/sh", "{}", "3x4", "{not", "closed"}));
}

TEST(TuneConfig, TheFingerprintCoversTheTune) {
    const auto base = fingerprint(parse(tuning(kCommand)));
    EXPECT_NE(base, fingerprint(parse(tuning(kCommand, "  alpha: 0.5\n"))));
    EXPECT_NE(base, fingerprint(parse(tuning("/bin/sh -c x --a={a} --c {b_2}"))));
    auto other_start = tuning(kCommand);
    other_start.replace(other_start.find("start: 10"), 9, "start: 10.000001");
    EXPECT_NE(base, fingerprint(parse(other_start)));
}

TEST(TuneConfig, Mistakes) {
    EXPECT_EQ(error_of(tuning("/bin/sh --a {a} --b {b_2} --c {c}")),
              "t.yaml:4:12: {c} in the command of 'tune' is not one of the params (a, b_2)");
    EXPECT_EQ(error_of(tuning("/bin/sh --a {a}")),
              "t.yaml:7:15: parameter 'b_2' is not in the command or 'args' of 'tune': write "
              "{b_2} where the bot takes its value");
    EXPECT_EQ(error_of(tuning("/bin/{a} {b_2}")),
              "t.yaml:4:12: the program of 'tune' cannot hold a parameter: put {name} in its "
              "arguments");
    EXPECT_EQ(error_of(tuning(kCommand, "  dir: /tmp/{a}\n")),
              "t.yaml:9:8: a parameter's value goes in the command or 'args', not in 'dir'");
    EXPECT_EQ(error_of(tuning(kCommand, "", "bots:\n  - { name: x, command: /bin/sh }\n")),
              "t.yaml:9:1: 'bots' is not for a tuning config: 'tune' makes its bots (theta+ and "
              "theta-, and the opponent) and its schedule (docs/tuning.md)");
    EXPECT_EQ(error_of(tuning(kCommand, "", "schedule: { type: round-robin }\n")),
              "t.yaml:9:1: 'schedule' is not for a tuning config: 'tune' makes its bots (theta+ "
              "and theta-, and the opponent) and its schedule (docs/tuning.md)");
    EXPECT_EQ(error_of(tuning(kCommand, "  opponent: { name: theta-, command: /bin/sh }\n")),
              "t.yaml:9:21: the opponent cannot be called 'theta-': that is the tuned bot's name");
    EXPECT_EQ(error_of(tuning(kCommand, "  opponent: others\n")),
              "t.yaml:9:13: expected 'self' or a bot ({ name, command, ... }) for 'opponent', got "
              "'others'");
    EXPECT_EQ(error_of(tuning(kCommand, "  pairs2: 3\n")).substr(0, 27),
              "t.yaml:9:3: unknown key 'pa");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\ntune:\n  command: /bin/sh {a}\n  "
                       "pairs: 4\n"),
              "t.yaml:4:3: missing required key 'params' in 'tune'");
}

TEST(TuneConfig, ParameterMistakes) {
    const auto with_param = [](const std::string& param) {
        return "name: t\ngame: { name: connect4 }\ntune:\n  command: /bin/sh {a}\n  params:\n"
               "    - " +
               param + "\n  pairs: 10\n";
    };
    EXPECT_EQ(error_of(with_param("{ name: a, start: 1, min: 5, max: 5, c_end: 1, r_end: 1 }")),
              "t.yaml:6:41: parameter 'a': max must be above min");
    EXPECT_EQ(error_of(with_param("{ name: a, start: 9, min: 0, max: 5, c_end: 1, r_end: 1 }")),
              "t.yaml:6:25: parameter 'a': start must lie between min and max");
    EXPECT_EQ(error_of(with_param("{ name: a, start: 1, min: 0, max: 5, c_end: 0, r_end: 1 }")),
              "t.yaml:6:51: parameter 'a': c_end must be positive (the perturbation at the last "
              "iteration)");
    EXPECT_EQ(error_of(with_param("{ name: a, start: 1, min: 0, max: 5, c_end: 1 }")),
              "t.yaml:6:7: missing required key 'r_end' in parameter #1");
    EXPECT_EQ(error_of(with_param("{ name: 2a, start: 1, min: 0, max: 5, c_end: 1, r_end: 1 }")),
              "t.yaml:6:15: parameter name '2a' is not valid: it is written {2a} in the command "
              "(use letters, digits and _, not first a digit)");
    EXPECT_EQ(error_of(with_param("{ name: a, start: x, min: 0, max: 5, c_end: 1, r_end: 1 }")),
              "t.yaml:6:25: expected a number for 'start', got 'x'");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\ntune:\n  command: /bin/sh {a}\n"
                       "  params:\n"
                       "    - { name: a, start: 1, min: 0, max: 5, c_end: 1, r_end: 1 }\n"
                       "    - { name: a, start: 1, min: 0, max: 5, c_end: 1, r_end: 1 }\n"
                       "  pairs: 10\n"),
              "t.yaml:7:15: duplicate parameter 'a' (first defined at line 6)");
}

}  // namespace
}  // namespace arena::tournament
