// The one reader of a tournament's stored config (tournament/stored_settings):
// each setting as written, its default when the key is absent, values that
// do not read, and text that is not a config at all. The text is read
// leniently: bots whose programs are gone are no problem.

#include "arena/tournament/stored_settings.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

namespace arena::tournament {
namespace {

// A config as `arena run` stores it, whose bots' programs do not exist.
const std::string kStored =
    "name: t\n"
    "game: { name: connect4 }\n"
    "time: { move_ms: 250, tolerance_ms: 20 }\n"
    "schedule: { type: gauntlet, challenger: mine, games_per_pair: 6, rounds: 2,\n"
    "            sprt: { elo0: -1.5, elo1: 4, alpha: 0.1, beta: 0.2, model: normalized } }\n"
    "scoring: { win: 3, draw: 1, loss: 0 }\n"
    "anchors: { ref: 1500, old: -12.5 }\n"
    "bots:\n"
    "  - { name: mine, command: /no/such/program }\n"
    "  - { name: ref, command: /no/such/program --too }\n"
    "  - { name: old, command: /gone }\n";

// Every setting at its default: none of them in the text.
void expect_no_settings(const StoredSettings& s) {
    EXPECT_FALSE(s.scoring);
    EXPECT_TRUE(s.anchors.empty());
    EXPECT_EQ(s.anchors_problem, "");
    EXPECT_NO_THROW((void)s.checked_anchors());
    EXPECT_FALSE(s.time.move_ms);
    EXPECT_FALSE(s.time.tolerance_ms);
    EXPECT_FALSE(s.gauntlet_test);
    EXPECT_FALSE(s.tune);
}

void expect_points(const std::optional<Scoring>& scoring, int win, int draw, int loss) {
    ASSERT_TRUE(scoring);
    EXPECT_EQ(scoring->win, win);
    EXPECT_EQ(scoring->draw, draw);
    EXPECT_EQ(scoring->loss, loss);
}

TEST(StoredSettings, ReadsEverySettingOfAStoredConfig) {
    const auto s = stored_settings(kStored);
    expect_points(s.scoring, 3, 1, 0);
    ASSERT_EQ(s.anchors.size(), 2u);
    EXPECT_EQ(s.anchors[0].name, "ref");
    EXPECT_EQ(s.anchors[0].elo, 1500.0);
    EXPECT_EQ(s.anchors[1].name, "old");
    EXPECT_EQ(s.anchors[1].elo, -12.5);
    EXPECT_EQ(s.anchors_problem, "");
    EXPECT_EQ(s.checked_anchors().size(), 2u);
    EXPECT_EQ(s.time.move_ms, 250.0);
    EXPECT_EQ(s.time.tolerance_ms, 20.0);
    ASSERT_TRUE(s.gauntlet_test);
    EXPECT_EQ(s.gauntlet_test->challenger, "mine");
    EXPECT_EQ(s.gauntlet_test->options.elo0, -1.5);
    EXPECT_EQ(s.gauntlet_test->options.elo1, 4.0);
    EXPECT_EQ(s.gauntlet_test->options.alpha, 0.1);
    EXPECT_EQ(s.gauntlet_test->options.beta, 0.2);
    EXPECT_EQ(s.gauntlet_test->options.model, rating::SprtModel::normalized);
    EXPECT_EQ(s.gauntlet_test->most_pairs, 6);  // 6 / 2 pairs a round, 2 rounds
}

TEST(StoredSettings, AbsentKeysKeepTheirDefaults) {
    expect_no_settings(stored_settings("name: t\ngame: { name: connect4 }\n"));

    // Within a section, what is left out takes the documented default.
    const auto partial = stored_settings(
        "scoring: { win: 5 }\ntime: { move_ms: 100 }\nanchors:\n"
        "schedule: { challenger: a, sprt: { elo0: 0, elo1: 5 } }\n");
    expect_points(partial.scoring, 5, 1, 0);
    EXPECT_EQ(partial.time.move_ms, 100.0);
    EXPECT_EQ(partial.time.tolerance_ms, 10.0);
    EXPECT_TRUE(partial.anchors.empty());  // an empty `anchors:` is none
    ASSERT_TRUE(partial.gauntlet_test);
    EXPECT_EQ(partial.gauntlet_test->options.alpha, 0.05);
    EXPECT_EQ(partial.gauntlet_test->options.model, rating::SprtOptions{}.model);
    EXPECT_EQ(partial.gauntlet_test->most_pairs, 1);  // games_per_pair 2, one round

    // A time map without move_ms still has the default tolerance.
    EXPECT_EQ(stored_settings("time: { game_ms: 9000 }\n").time.tolerance_ms, 10.0);
}

TEST(StoredSettings, TextThatIsNotAConfigHasNoSettings) {
    for (const std::string text : {"name: [unclosed", "- a\n- b\n", "just words", "", "{"}) {
        SCOPED_TRACE(text);
        expect_no_settings(stored_settings(text));
    }
}

TEST(StoredSettings, ValuesThatDoNotReadAreLeftOutSectionBySection) {
    // A points value that is not an integer keeps its default; the others count.
    const auto s = stored_settings(
        "scoring: { win: x, draw: [1], loss: 2 }\n"
        "time: { move_ms: fast, tolerance_ms: 5 }\n"
        "schedule: { challenger: a, sprt: { elo0: 0, elo1: 5, model: bogus } }\n");
    expect_points(s.scoring, 2, 1, 2);
    EXPECT_FALSE(s.time.move_ms);  // one value that does not read: no time control
    EXPECT_FALSE(s.time.tolerance_ms);
    EXPECT_FALSE(s.gauntlet_test);  // an unknown model: no test

    EXPECT_FALSE(stored_settings("scoring: 7\n").scoring);
    EXPECT_FALSE(stored_settings("time: 100\n").time.tolerance_ms);
    // Bounds the SPRT refuses, a challenger that is not a name, rounds not a number.
    EXPECT_FALSE(
        stored_settings("schedule: { challenger: a, sprt: { elo0: 5, elo1: 0 } }\n").gauntlet_test);
    EXPECT_FALSE(stored_settings("schedule: { challenger: [a], sprt: { elo0: 0, elo1: 5 } }\n")
                     .gauntlet_test);
    EXPECT_FALSE(
        stored_settings("schedule: { challenger: a, rounds: x, sprt: { elo0: 0, elo1: 5 } }\n")
            .gauntlet_test);
    // No elo1, or no challenger: not a test.
    EXPECT_FALSE(stored_settings("schedule: { challenger: a, sprt: { elo0: 0 } }\n").gauntlet_test);
    EXPECT_FALSE(stored_settings("schedule: { sprt: { elo0: 0, elo1: 5 } }\n").gauntlet_test);
}

// arena tune's config: each parameter's range and start, for the report.
TEST(StoredSettings, ReadsATunesParametersLeavingOutWhatDoesNotRead) {
    const auto s = stored_settings(
        "name: t\n"
        "game: { name: connect4 }\n"
        "tune:\n"
        "  command: /gone --a {a} --b {b}\n"
        "  params:\n"
        "    - { name: a, start: 50, min: 1, max: 100, c_end: 5, r_end: 0.01, integer: true }\n"
        "    - { name: b, start: 0.5, min: -2.5, max: 2, c_end: 0.1, r_end: 0.01 }\n"
        "    - { name: c, start: x, min: [1], integer: maybe }\n"
        "    - { start: 1 }\n"
        "    - 7\n"
        "  pairs: 300\n");
    ASSERT_TRUE(s.tune);
    EXPECT_EQ(s.tune->pairs, 300);
    ASSERT_EQ(s.tune->params.size(), 3u);  // the entries without a name are left out
    const auto& a = s.tune->params[0];
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.start, 50.0);
    EXPECT_EQ(a.min, 1.0);
    EXPECT_EQ(a.max, 100.0);
    EXPECT_TRUE(a.integer);
    const auto& b = s.tune->params[1];
    EXPECT_EQ(b.name, "b");
    EXPECT_EQ(b.start, 0.5);
    EXPECT_EQ(b.min, -2.5);
    EXPECT_EQ(b.max, 2.0);
    EXPECT_FALSE(b.integer);
    const auto& c = s.tune->params[2];
    EXPECT_EQ(c.name, "c");
    EXPECT_FALSE(c.start);
    EXPECT_FALSE(c.min);
    EXPECT_FALSE(c.max);
    EXPECT_FALSE(c.integer);

    // A tune whose params or pairs do not read is still a tune.
    const auto bare = stored_settings("tune: { params: 3, pairs: many }\n");
    ASSERT_TRUE(bare.tune);
    EXPECT_TRUE(bare.tune->params.empty());
    EXPECT_FALSE(bare.tune->pairs);
    EXPECT_FALSE(stored_settings("tune: 5\n").tune);
}

TEST(StoredSettings, AnchorsThatCannotBeUsedSayWhy) {
    const auto problem = [](const std::string& text) {
        const auto s = stored_settings(text);
        EXPECT_TRUE(s.anchors.empty());
        return s.anchors_problem;
    };
    EXPECT_EQ(problem("anchors: [a, b]\n"), "the config's 'anchors': not a map of bot: rating");
    EXPECT_EQ(problem("anchors: { a: abc }\n"),
              "the config's 'anchors': the rating of 'a' is not a number from -100000 to 100000");
    EXPECT_EQ(problem("anchors: { a: .inf }\n"),
              "the config's 'anchors': the rating of 'a' is not a number from -100000 to 100000");
    EXPECT_EQ(problem("anchors: { a: 100001 }\n"),
              "the config's 'anchors': the rating of 'a' is not a number from -100000 to 100000");
    EXPECT_EQ(problem("anchors: { a: 1, b: 2, a: 3 }\n"),
              "the config's 'anchors': bot 'a' is anchored twice");
    EXPECT_EQ(problem("anchors: { \"\": 1 }\n"),
              "the config's 'anchors': an entry without a bot name");
    // A bad rating is found before a repeat further up.
    EXPECT_EQ(problem("anchors: { a: 1, a: 2, b: x }\n"),
              "the config's 'anchors': the rating of 'b' is not a number from -100000 to 100000");
    // The other settings are read all the same.
    const auto s = stored_settings("anchors: [a]\nscoring: { win: 4 }\n");
    EXPECT_EQ(s.scoring->win, 4);
    EXPECT_THROW((void)s.checked_anchors(), std::invalid_argument);
    try {
        (void)s.checked_anchors();
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "the config's 'anchors': not a map of bot: rating");
    }
}

TEST(AnchorRules, RatingsAndRepeats) {
    EXPECT_EQ(parse_anchor_elo("1500"), 1500.0);
    EXPECT_EQ(parse_anchor_elo("-12.5"), -12.5);
    EXPECT_EQ(parse_anchor_elo("1e3"), 1000.0);
    EXPECT_EQ(parse_anchor_elo("100000"), 100000.0);
    EXPECT_FALSE(parse_anchor_elo("100000.5"));
    EXPECT_FALSE(parse_anchor_elo("+5"));
    EXPECT_FALSE(parse_anchor_elo(""));
    EXPECT_FALSE(parse_anchor_elo("12 "));
    EXPECT_FALSE(parse_anchor_elo("nan"));
    EXPECT_FALSE(parse_anchor_elo("inf"));

    EXPECT_EQ(repeated_anchor({}), nullptr);
    EXPECT_EQ(repeated_anchor({{"a", 0}, {"b", 1}}), nullptr);
    const std::vector<rating::Anchor> twice = {{"a", 0}, {"b", 1}, {"c", 2}, {"b", 3}, {"a", 4}};
    ASSERT_NE(repeated_anchor(twice), nullptr);
    EXPECT_EQ(repeated_anchor(twice), &twice[3]);  // the first one that repeats an earlier one
}

}  // namespace
}  // namespace arena::tournament
