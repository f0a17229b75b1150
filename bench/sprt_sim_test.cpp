// The SPRT simulation's model (bench/sprt_model.hpp) and the sprt_sim
// program: the model gives the first mover's score and the draw rate it was
// set to, the strength it solves for measures the target Elo, one-sided
// head-to-heads decide for the stronger bot with both kinds of counts, a
// replay decides where it should, and sprt_sim prints its JSON and names
// what is wrong with bad options.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/sprt_model.hpp"
#include "proc_util.hpp"

namespace {

using namespace arena;

arena::testing::ShellResult run_sim(const std::string& args) {
    return arena::testing::run_shell(std::string(ARENA_BINARY_DIR) + "/bench/sprt_sim " + args);
}

TEST(SprtModel, EqualBotsShowTheSettingsFirstMoverScoreAndDrawRate) {
    const bench::GameSetting setting{0.6, 0.1, 0.0};
    const bench::PairModel model(setting, 0.0);
    const auto first = model.odds(model.advantage(), true);
    EXPECT_NEAR(first.win + 0.5 * first.draw, 0.6, 1e-12);
    EXPECT_NEAR(first.draw, 0.1, 1e-12);
    EXPECT_NEAR(first.win + first.draw + first.loss, 1.0, 1e-12);
    const auto t = bench::truth(model);
    EXPECT_NEAR(t.score, 0.5, 1e-12);
    EXPECT_NEAR(t.elo, 0.0, 1e-9);
    double sum = 0.0;
    for (const double p : t.pairs)
        sum += p;
    EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(SprtModel, TheSolvedStrengthMeasuresTheTarget) {
    for (const double spread : {0.0, 150.0}) {
        const bench::GameSetting setting{0.7, 0.05, spread};
        const double logistic = bench::strength_for(setting, 10.0, rating::SprtModel::logistic);
        EXPECT_NEAR(bench::truth(bench::PairModel(setting, logistic)).elo, 10.0, 1e-6);
        const double normalized = bench::strength_for(setting, 10.0, rating::SprtModel::normalized);
        const auto t = bench::truth(bench::PairModel(setting, normalized));
        EXPECT_NEAR(t.nelo_pairs, 10.0, 1e-6);
        // A first-mover advantage makes a pair's two games pull opposite
        // ways, so pairs see a larger normalized Elo than single games.
        EXPECT_GT(t.nelo_pairs, t.nelo_games);
    }
}

TEST(SprtModel, RefusesMoreDrawsThanTheScoreAllows) {
    EXPECT_NE(bench::setting_problem({0.9, 0.5, 0.0}), "");
    EXPECT_NE(bench::setting_problem({1.0, 0.0, 0.0}), "");
    EXPECT_EQ(bench::setting_problem({0.9, 0.17, 0.0}), "");
    EXPECT_THROW(bench::PairModel({0.9, 0.5, 0.0}, 0.0), std::invalid_argument);
}

TEST(SprtModel, AOneSidedHeadToHeadDecidesForTheStrongerBot) {
    const bench::GameSetting setting{0.55, 0.05, 0.0};
    rating::SprtOptions options;
    options.elo0 = 0.0;
    options.elo1 = 10.0;
    for (const double strength : {600.0, -600.0}) {
        const bench::PairModel model(setting, strength);
        const auto expected =
            strength > 0 ? rating::SprtDecision::accept_h1 : rating::SprtDecision::accept_h0;
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            const auto t = bench::simulate_test(model, options, 100000, seed);
            EXPECT_EQ(t.pentanomial.decision, expected);
            EXPECT_EQ(t.trinomial.decision, expected);
            EXPECT_LT(t.pentanomial.games, 1000);
            EXPECT_EQ(t.pentanomial.games % 2, 0);
        }
    }
}

TEST(SprtModel, EqualBotsWithinACapStopUndecidedAtTheCap) {
    const bench::PairModel model({0.55, 0.05, 0.0}, 0.0);
    rating::SprtOptions options;
    options.elo0 = -1.0;
    options.elo1 = 1.0;
    const auto t = bench::simulate_test(model, options, 20, 3);
    EXPECT_EQ(t.pentanomial.decision, rating::SprtDecision::continue_testing);
    EXPECT_EQ(t.pentanomial.games, 20);
    EXPECT_EQ(t.trinomial.games, 20);
}

TEST(SprtReplay, DecidesWhereTheCountsDoAndChecksTheScores) {
    rating::SprtOptions options;
    options.elo0 = 0.0;
    options.elo1 = 10.0;
    options.model = rating::SprtModel::logistic;
    // A wins every game: both tests accept H1, the pentanomial one after a
    // whole pair.
    const std::vector<double> wins(400, 1.0);
    const auto r = bench::replay(wins, options);
    EXPECT_EQ(r.games, 400);
    ASSERT_TRUE(r.pentanomial.games);
    ASSERT_TRUE(r.trinomial.games);
    EXPECT_EQ(r.pentanomial.decision, rating::SprtDecision::accept_h1);
    EXPECT_EQ(r.trinomial.decision, rating::SprtDecision::accept_h1);
    EXPECT_EQ(*r.pentanomial.games % 2, 0);
    EXPECT_GE(r.pentanomial.llr, std::log(19.0));  // the upper bound, ln((1 - beta) / alpha)
    // Each pair split 1-1: the trinomial test sees a 50 % score and
    // continues on these few games.
    std::vector<double> split;
    for (int i = 0; i < 20; ++i)
        split.push_back(i % 2 == 0 ? 1.0 : 0.0);
    const auto s = bench::replay(split, options);
    EXPECT_FALSE(s.trinomial.games);
    EXPECT_EQ(s.trinomial.decision, rating::SprtDecision::continue_testing);
    const std::vector<double> bad{1.0, 0.25};
    EXPECT_THROW((void)bench::replay(bad, options), std::invalid_argument);
}

TEST(SprtSim, PrintsOneJsonObjectWithBothKindsOfCounts) {
    const auto r = run_sim(
        "--first-score 0.6 --draw-rate 0.05 --true-elo 400 --true-in logistic "
        "--tests 6 --seed 7 --name strong");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["name"], "strong");
    EXPECT_EQ(j["tests"], 6);
    EXPECT_NEAR(j["truth"]["elo"].get<double>(), 400.0, 1e-6);
    for (const char* kind : {"pentanomial", "trinomial"}) {
        EXPECT_EQ(j[kind]["h1"], 6) << kind;
        EXPECT_EQ(j[kind]["h0"], 0) << kind;
        EXPECT_EQ(j[kind]["undecided"], 0) << kind;
        EXPECT_GT(j[kind]["games_median"].get<double>(), 0.0) << kind;
    }
    EXPECT_EQ(j["test"]["model"], "normalized");
}

TEST(SprtSim, NamesWhatIsWrong) {
    auto r = run_sim("--first-score 0.9 --draw-rate 0.5 --true-elo 10");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("--draw-rate 0.5"), std::string::npos) << r.out;
    r = run_sim("--first-score 0.6 --draw-rate 0.1");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("missing --true-elo"), std::string::npos) << r.out;
    r = run_sim("--replay /nonexistent/scores.txt");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("cannot open '/nonexistent/scores.txt'"), std::string::npos) << r.out;
}

}  // namespace
