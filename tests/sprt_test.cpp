// Head-to-head statistics and the GSPRT: pair counting, the Elo, nElo and
// LOS of a head-to-head against closed forms, the constrained maximum
// likelihoods against a brute-force search, properties of the LLR, and
// `arena sprt` end to end: its LLR against an independent Python
// computation (tests/sprt_reference.py) on many varied cases, negative
// bounds, the printed block and its usage errors.

#include "arena/rating/sprt.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/rating/head_to_head.hpp"
#include "arena/rating/pentanomial.hpp"
#include "arena/store/results_store.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "temp_dir.hpp"

namespace arena::rating {
namespace {

using testing::ArenaResult;
using testing::TempDir;

constexpr double kZ = 1.959963984540054;
constexpr double kNeloPerT = 800.0 / std::numbers::ln10;

double uniform(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1p-53;
}

// ---- counting pairs ----

TEST(Pentanomial, CountsCompletePairsByScoreAndSetsIncompleteOnesApart) {
    const std::vector<PairedGame> games = {
        {7, true, 1.0, {}},  {7, false, 1.0, {}},  // WW
        {3, false, 0.5, {}}, {3, true, 1.0, {}},   // WD (order within a pair does not matter)
        {4, true, 1.0, {}},  {4, false, 0.0, {}},  // WL
        {5, true, 0.5, {}},  {5, false, 0.5, {}},  // DD
        {9, true, 0.0, {}},  {9, false, 0.5, {}},  // LD
        {1, true, 0.0, {}},  {1, false, 0.0, {}},  // LL
        {2, true, 1.0, {}},                        // incomplete: one game
        {6, true, 0.5, {}},  {6, true, 0.5, {}},   // incomplete: A first in both
    };
    const HeadToHeadCounts c = count_head_to_head(games);
    EXPECT_EQ(c.pairs.bins, (std::array<std::int64_t, 5>{1, 1, 2, 1, 1}));
    EXPECT_EQ(c.pairs.pairs(), 6);
    EXPECT_DOUBLE_EQ(c.pairs.points(), 6.0);
    EXPECT_EQ(c.incomplete_pairs, 2);
    EXPECT_EQ(c.unpaired_games, 3);
    EXPECT_EQ(c.games.wins, 5);
    EXPECT_EQ(c.games.draws, 6);
    EXPECT_EQ(c.games.losses, 4);
    EXPECT_EQ(c.paired_games.games(), 12);
    EXPECT_EQ(c.paired_games.wins, 4);
    EXPECT_EQ(c.paired_games.draws, 4);
    EXPECT_EQ(c.paired_games.losses, 4);
}

TEST(Pentanomial, APairThatRepeatsAnEarlierOneMoveForMoveIsSetAside) {
    const std::vector<PairedGame> games = {
        {0, true, 1.0, 11},  {0, false, 0.5, 12},  // WD
        {1, true, 1.0, 11},  {1, false, 0.5, 12},  // the same games again: set aside
        {2, false, 0.5, 12}, {2, true, 1.0, 11},   // again, listed the other way round
        {3, true, 1.0, 12},  {3, false, 0.5, 11},  // the same hashes in other roles: new
        {4, true, 0.0, {}},  {4, false, 0.0, 12},  // a game without a hash (a fault): counts
        {5, true, 0.0, {}},  {5, false, 0.0, 12},  // ... every time
        {6, true, 1.0, 11},                        // incomplete: never a repeat
    };
    const HeadToHeadCounts c = count_head_to_head(games);
    EXPECT_EQ(c.repeated_pairs, 2);
    EXPECT_EQ(c.pairs.bins, (std::array<std::int64_t, 5>{2, 0, 0, 2, 0}));
    EXPECT_EQ(c.paired_games.games(), 8);
    EXPECT_EQ(c.games.games(), 9);  // the set-aside games are in no count
    EXPECT_EQ(c.incomplete_pairs, 1);

    const HeadToHeadCounts all = count_head_to_head(games, /*count_repeats=*/true);
    EXPECT_EQ(all.repeated_pairs, 0);
    EXPECT_EQ(all.pairs.pairs(), 6);
    EXPECT_EQ(all.games.games(), 13);
}

TEST(Pentanomial, RejectsAScoreThatIsNotAGameResult) {
    EXPECT_THROW((void)count_head_to_head({{1, true, 0.25, {}}, {1, false, 1.0, {}}}),
                 std::invalid_argument);
}

// ---- Elo, nElo, LOS ----

TEST(HeadToHead, TrinomialMatchesTheClosedForms) {
    const HeadToHead h = head_to_head(Trinomial{60, 20, 20});
    const double s = 0.7, var = 0.6 * 0.3 * 0.3 + 0.2 * 0.2 * 0.2 + 0.2 * 0.7 * 0.7;
    EXPECT_FALSE(h.pentanomial);
    EXPECT_DOUBLE_EQ(h.units, 100.0);
    EXPECT_NEAR(h.score, s, 1e-12);
    EXPECT_NEAR(h.variance, var, 1e-12);
    EXPECT_NEAR(h.elo, 400.0 * std::log10(0.7 / 0.3), 1e-9);
    const double se = std::sqrt(var / 100.0);
    const double lo = -400.0 * std::log10(1.0 / (s - kZ * se) - 1.0);
    const double hi = -400.0 * std::log10(1.0 / (s + kZ * se) - 1.0);
    EXPECT_NEAR(h.elo_lower, lo, 1e-9);
    EXPECT_NEAR(h.elo_upper, hi, 1e-9);
    EXPECT_NEAR(h.elo_error, (hi - lo) / 2.0, 1e-9);
    EXPECT_NEAR(h.nelo, 0.2 / std::sqrt(var) * kNeloPerT, 1e-9);
    EXPECT_NEAR(h.nelo_error, kZ * kNeloPerT / 10.0, 1e-9);
    EXPECT_NEAR(h.los, 0.5 * std::erfc(-(0.2 / se) / std::numbers::sqrt2), 1e-12);
    EXPECT_NEAR(h.draw_ratio, 0.2, 1e-12);
}

TEST(HeadToHead, PentanomialUsesThePerPairVarianceAndFishtestsSigma) {
    // 10 pairs: LL 1, LD 2, DD+WL 3, WD 3, WW 1; pair scores per game
    // 0, 1/4, 1/2, 3/4, 1.
    const Pentanomial p{{1, 2, 3, 3, 1}};
    const HeadToHead h = head_to_head(p);
    const double s = (2 * 0.25 + 3 * 0.5 + 3 * 0.75 + 1.0) / 10.0;
    double var = 0.0;
    const double x[] = {0.0, 0.25, 0.5, 0.75, 1.0};
    for (std::size_t i = 0; i < 5; ++i)
        var += static_cast<double>(p.bins[i]) / 10.0 * (x[i] - s) * (x[i] - s);
    EXPECT_TRUE(h.pentanomial);
    EXPECT_DOUBLE_EQ(h.units, 10.0);
    EXPECT_NEAR(h.score, s, 1e-12);
    EXPECT_NEAR(h.variance, var, 1e-12);
    EXPECT_NEAR(h.elo, -400.0 * std::log10(1.0 / s - 1.0), 1e-9);
    EXPECT_NEAR(h.nelo, (s - 0.5) / std::sqrt(2.0 * var) * kNeloPerT, 1e-9);
    EXPECT_NEAR(h.nelo_error, kZ * kNeloPerT / std::sqrt(20.0), 1e-9);
    EXPECT_NEAR(h.los, 0.5 * std::erfc(-((s - 0.5) / std::sqrt(var / 10.0)) / std::numbers::sqrt2),
                1e-12);
    EXPECT_NEAR(h.draw_ratio, 0.3, 1e-12);
    EXPECT_NEAR(h.pairs_ratio, 4.0 / 3.0, 1e-12);
}

TEST(HeadToHead, ASymmetricMatchIsEvenAndSwappingSidesFlipsTheSigns) {
    const HeadToHead even = head_to_head(Pentanomial{{5, 40, 100, 40, 5}});
    EXPECT_NEAR(even.elo, 0.0, 1e-9);
    EXPECT_NEAR(even.nelo, 0.0, 1e-9);
    EXPECT_NEAR(even.los, 0.5, 1e-12);
    EXPECT_NEAR(even.pairs_ratio, 1.0, 1e-12);
    const HeadToHead a = head_to_head(Pentanomial{{3, 10, 30, 25, 9}});
    const HeadToHead b = head_to_head(Pentanomial{{9, 25, 30, 10, 3}});
    EXPECT_NEAR(a.elo, -b.elo, 1e-9);
    EXPECT_NEAR(a.elo_upper, -b.elo_lower, 1e-9);
    EXPECT_NEAR(a.nelo, -b.nelo, 1e-9);
    EXPECT_NEAR(a.los, 1.0 - b.los, 1e-12);
    EXPECT_GT(a.los, 0.99);
}

TEST(HeadToHead, AllWinsIsInfiniteEloNotNaN) {
    const HeadToHead h = head_to_head(Pentanomial{{0, 0, 0, 0, 7}});
    EXPECT_TRUE(std::isinf(h.elo) && h.elo > 0);
    EXPECT_TRUE(std::isinf(h.nelo) && h.nelo > 0);
    EXPECT_DOUBLE_EQ(h.los, 1.0);
    EXPECT_TRUE(std::isinf(h.pairs_ratio));
    EXPECT_FALSE(std::isnan(h.elo_error));
    EXPECT_THROW((void)head_to_head(Trinomial{0, 0, 0}), std::invalid_argument);
    EXPECT_THROW((void)head_to_head(Trinomial{1, -1, 0}), std::invalid_argument);
}

// ---- the constrained maxima, against a brute-force search ----

double log_likelihood(const std::vector<double>& w, const std::array<double, 3>& p) {
    double l = 0.0;
    for (std::size_t i = 0; i < 3; ++i) {
        if (p[i] <= 0.0) return -std::numeric_limits<double>::infinity();
        l += w[i] * std::log(p[i]);
    }
    return l;
}

// Maximum of f on [lo, hi] by a grid, then golden-section search around the
// best grid point.
template <typename F>
double maximise(F f, double lo, double hi) {
    constexpr int kGrid = 20000;
    double best = lo, best_value = -std::numeric_limits<double>::infinity();
    for (int i = 1; i < kGrid; ++i) {
        const double x = lo + (hi - lo) * i / kGrid;
        const double v = f(x);
        if (v > best_value) best_value = v, best = x;
    }
    double a = std::max(lo, best - (hi - lo) / kGrid), b = std::min(hi, best + (hi - lo) / kGrid);
    const double g = (std::sqrt(5.0) - 1.0) / 2.0;
    for (int i = 0; i < 200; ++i) {
        const double c = b - g * (b - a), d = a + g * (b - a);
        if (f(c) > f(d)) {
            b = d;
        } else {
            a = c;
        }
    }
    return (a + b) / 2.0;
}

// Trinomial distribution (L, D, W) with mean mu and variance var.
std::array<double, 3> from_moments(double mu, double var) {
    const double m2 = var + mu * mu;  // D/4 + W
    const double d = 4.0 * (mu - m2);
    const double w = 2.0 * m2 - mu;
    return {1.0 - d - w, d, w};
}

// The best distribution on the curve (mean - 1/2) = t sd, walked along by
// the mean (the sd follows from it).
std::array<double, 3> brute_force_t(const std::vector<double>& w, double t) {
    const auto at = [&](double mu) {
        const double sd = (mu - 0.5) / t;
        return from_moments(mu, sd * sd);
    };
    const double mu = t > 0
                          ? maximise([&](double m) { return log_likelihood(w, at(m)); }, 0.5, 1.0)
                          : maximise([&](double m) { return log_likelihood(w, at(m)); }, 0.0, 0.5);
    return at(mu);
}

// The best distribution with mean s, walked along by P(win).
std::array<double, 3> brute_force_mean(const std::vector<double>& w, double s) {
    const auto at = [&](double pw) {
        return std::array<double, 3>{1.0 - 2.0 * s + pw, 2.0 * (s - pw), pw};
    };
    return at(maximise([&](double pw) { return log_likelihood(w, at(pw)); },
                       std::max(0.0, 2.0 * s - 1.0), s));
}

TEST(Gsprt, TrinomialMaximaMatchABruteForceSearchInBothModels) {
    const std::vector<double> scores = {0.0, 0.5, 1.0};
    const std::vector<std::vector<double>> observed = {
        {0.2, 0.5, 0.3}, {0.45, 0.1, 0.45}, {0.05, 0.9, 0.05}, {0.6, 0.3, 0.1}};
    for (const auto& w : observed) {
        for (const double t : {-0.3, -0.05, 0.02, 0.1, 0.4}) {
            const auto mine = constrained_t_value(scores, w, t);
            const auto brute = brute_force_t(w, t);
            for (std::size_t i = 0; i < 3; ++i)
                EXPECT_NEAR(mine[i], brute[i], 1e-6) << "t " << t << " bin " << i;
            double mu = 0.0, var = 0.0;
            for (std::size_t i = 0; i < 3; ++i)
                mu += mine[i] * scores[i];
            for (std::size_t i = 0; i < 3; ++i)
                var += mine[i] * (scores[i] - mu) * (scores[i] - mu);
            EXPECT_NEAR((mu - 0.5) / std::sqrt(var), t, 1e-10);
            EXPECT_NEAR(mine[0] + mine[1] + mine[2], 1.0, 1e-12);
        }
        for (const double s : {0.3, 0.49, 0.5, 0.52, 0.8}) {
            const auto mine = constrained_mean(scores, w, s);
            const auto brute = brute_force_mean(w, s);
            for (std::size_t i = 0; i < 3; ++i)
                EXPECT_NEAR(mine[i], brute[i], 1e-6) << "s " << s << " bin " << i;
            EXPECT_NEAR(mine[1] * 0.5 + mine[2], s, 1e-12);
        }
    }
}

TEST(Gsprt, PentanomialTValueMaximumMeetsItsConstraint) {
    const std::vector<double> scores = {0.0, 0.25, 0.5, 0.75, 1.0};
    const std::vector<double> w = {0.02, 0.2, 0.5, 0.25, 0.03};
    for (const double t : {-0.2, 0.0, 0.05, 0.3, 1.2, -1.5}) {
        const auto p = constrained_t_value(scores, w, t);
        double mu = 0.0, var = 0.0, sum = 0.0;
        for (std::size_t i = 0; i < 5; ++i)
            mu += p[i] * scores[i], sum += p[i];
        for (std::size_t i = 0; i < 5; ++i)
            var += p[i] * (scores[i] - mu) * (scores[i] - mu);
        EXPECT_NEAR(sum, 1.0, 1e-12);
        EXPECT_NEAR(mu - 0.5, t * std::sqrt(var), 1e-12) << t;
    }
}

// ---- the test ----

TEST(Gsprt, BoundsAndDecisions) {
    SprtOptions o;
    o.elo0 = 0.0;
    o.elo1 = 5.0;
    const SprtResult even = sprt(Pentanomial{{10, 100, 300, 100, 10}}, o);
    EXPECT_NEAR(even.lower, std::log(0.05 / 0.95), 1e-12);
    EXPECT_NEAR(even.upper, std::log(0.95 / 0.05), 1e-12);
    EXPECT_EQ(even.decision, SprtDecision::continue_testing);
    EXPECT_LT(even.llr, 0.0);
    EXPECT_EQ(sprt(Pentanomial{{400, 4000, 12000, 4000, 400}}, o).decision,
              SprtDecision::accept_h0);
    EXPECT_EQ(sprt(Pentanomial{{50, 800, 3000, 1200, 100}}, o).decision, SprtDecision::accept_h1);
    o.alpha = 0.01;
    o.beta = 0.2;
    const SprtResult lopsided = sprt(Trinomial{10, 10, 10}, o);
    EXPECT_NEAR(lopsided.lower, std::log(0.2 / 0.99), 1e-12);
    EXPECT_NEAR(lopsided.upper, std::log(0.8 / 0.01), 1e-12);
    EXPECT_EQ(decision_name(SprtDecision::accept_h0), "H0");
    EXPECT_EQ(decision_name(SprtDecision::accept_h1), "H1");
    EXPECT_EQ(decision_name(SprtDecision::continue_testing), "continue");
}

TEST(Gsprt, SwappingTheBotsAndNegatingTheHypothesesNegatesTheLlr) {
    const std::vector<double> a = {12, 150, 400, 190, 20}, b = {20, 190, 400, 150, 12};
    const std::vector<double> ta = {300, 500, 280}, tb = {280, 500, 300};
    for (const auto model : {SprtModel::normalized, SprtModel::logistic}) {
        EXPECT_NEAR(gsprt_llr(a, -1.0, 4.0, model), -gsprt_llr(b, -4.0, 1.0, model), 1e-9);
        EXPECT_NEAR(gsprt_llr(ta, 0.0, 6.0, model), -gsprt_llr(tb, -6.0, 0.0, model), 1e-9);
    }
}

TEST(Gsprt, AtZeroEloBothModelsConstrainTheMeanToOneHalf) {
    // A t-value of 0 and an expected score of 1/2 are the same hypothesis.
    const std::vector<double> scores = {0.0, 0.25, 0.5, 0.75, 1.0};
    const std::vector<double> w = {0.05, 0.3, 0.4, 0.15, 0.1};
    const auto t = constrained_t_value(scores, w, 0.0);
    const auto m = constrained_mean(scores, w, 0.5);
    for (std::size_t i = 0; i < 5; ++i)
        EXPECT_NEAR(t[i], m[i], 1e-12);
    // And only the H1 term differs between the models.
    const std::vector<double> c = {30, 200, 500, 240, 30};
    EXPECT_GT(std::abs(gsprt_llr(c, 0.0, 5.0, SprtModel::logistic) -
                       gsprt_llr(c, 0.0, 5.0, SprtModel::normalized)),
              0.01);
}

TEST(Gsprt, RejectsBadOptions) {
    const Pentanomial p{{1, 2, 3, 4, 5}};
    SprtOptions o;
    o.elo0 = 2.0;
    o.elo1 = 2.0;
    EXPECT_THROW((void)sprt(p, o), std::invalid_argument);
    o.elo1 = 3.0;
    o.alpha = 0.0;
    EXPECT_THROW((void)sprt(p, o), std::invalid_argument);
    o.alpha = 0.6;
    o.beta = 0.5;
    EXPECT_THROW((void)sprt(p, o), std::invalid_argument);
    o.alpha = 0.05;
    o.beta = 0.05;
    EXPECT_THROW((void)sprt(Pentanomial{{1, -2, 3, 4, 5}}, o), std::invalid_argument);
    EXPECT_NO_THROW((void)sprt(p, o));
    const std::vector<double> four = {1, 2, 3, 4};
    EXPECT_THROW((void)gsprt_llr(four, 0.0, 1.0, SprtModel::normalized), std::invalid_argument);
}

// ---- arena sprt ----

class SprtCommand : public ::testing::Test {
  protected:
    ArenaResult arena(const std::vector<std::string>& args) {
        std::vector<std::string> all{"sprt"};
        all.insert(all.end(), args.begin(), args.end());
        return testing::run_arena(dir_.path(), all);
    }
    TempDir dir_{"sprt_test"};
};

std::string join(const std::vector<std::int64_t>& counts, char sep) {
    std::string s;
    for (std::size_t i = 0; i < counts.size(); ++i)
        s += (i ? std::string(1, sep) : std::string()) + std::to_string(counts[i]);
    return s;
}

struct Case {
    std::string model;
    double elo0 = 0.0, elo1 = 0.0;
    std::vector<std::int64_t> counts;  // 5: LL..WW; 3: W, D, L as --wdl takes them
};

std::string number_text(double x) {
    std::ostringstream s;
    s.precision(17);
    s << x;
    return s.str();
}

TEST_F(SprtCommand, LlrAgreesWithAnIndependentComputationOnManyCases) {
    std::vector<Case> cases = {
        {"normalized", 0.0, 2.0, {461, 5386, 11863, 5521, 429}},
        {"normalized", -1.75, 0.25, {461, 5386, 11863, 5521, 429}},
        {"logistic", 0.0, 5.0, {0, 3, 10, 4, 0}},
        {"logistic", -3.0, 1.0, {0, 0, 1, 0, 0}},
        {"normalized", 0.0, 10.0, {0, 0, 0, 0, 3}},
        {"normalized", -10.0, -5.0, {4, 0, 0, 0, 0}},
        {"logistic", 0.0, 10.0, {5, 0, 7}},
        {"normalized", 0.0, 5.0, {0, 100, 0}},
        {"logistic", -20.0, -10.0, {1000000, 2500000, 1100000}},
        {"normalized", 0.0, 2.0, {120000, 1300000, 3200000, 1310000, 118000}},
        // Hypotheses far from piled-up data: roots next to a pole.
        {"normalized", 0.7, 2.76, {0, 0, 0, 0, 100000000}},
        {"normalized", -1.8, 0.85, {0, 1000000, 0, 0, 0}},
        {"normalized", 10.07, 52.42, {0, 770315, 99229685, 0, 0}},
        {"normalized", -12.0, -3.0, {0, 0, 100000000}},
        {"logistic", -30.0, 30.0, {0, 0, 0, 0, 5}},
    };
    std::mt19937_64 rng(20261124);
    const std::int64_t sizes[] = {3, 20, 150, 2000, 40000, 1000000};
    for (int i = 0; i < 48; ++i) {
        Case c;
        c.model = i % 2 == 0 ? "normalized" : "logistic";
        const bool penta = (i / 2) % 2 == 0;
        const double span = c.model == "logistic" ? 30.0 : 15.0;
        c.elo0 = std::round((uniform(rng) * 2.0 - 1.0) * span * 100.0) / 100.0;
        c.elo1 = c.elo0 + 0.5 + std::round(uniform(rng) * span * 100.0) / 100.0;
        const std::int64_t n = sizes[i % 6];
        const std::size_t k = penta ? 5 : 3;
        std::vector<double> weight(k);
        double total = 0.0;
        for (auto& w : weight) {
            w = uniform(rng) < 0.15 ? 0.0 : 0.05 + uniform(rng);
            total += w;
        }
        if (total == 0.0) weight[k / 2] = total = 1.0;
        for (const double w : weight)
            c.counts.push_back(std::llround(static_cast<double>(n) * w / total));
        if (join(c.counts, ',').find_first_not_of("0,") == std::string::npos) c.counts[k / 2] = 1;
        cases.push_back(c);
    }
    ASSERT_GE(cases.size(), 50u);

    // The reference reads counts from the worst bin up: W,D,L reversed.
    std::string input;
    for (const Case& c : cases) {
        std::vector<std::int64_t> up = c.counts;
        if (up.size() == 3) std::swap(up[0], up[2]);
        input += c.model + " " + number_text(c.elo0) + " " + number_text(c.elo1) + " " +
                 join(up, ' ') + "\n";
    }
    const std::string in_path = dir_.write("cases.txt", input);
    const std::string out_path = (dir_.path() / "reference.txt").string();
    const std::string command = "python3 '" + testing::source("tests/sprt_reference.py") + "' < '" +
                                in_path + "' > '" + out_path + "'";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
    std::istringstream reference(testing::slurp(out_path));

    int models[2] = {0, 0}, kinds[2] = {0, 0}, negative = 0, zero_bins = 0;
    for (const Case& c : cases) {
        double expected = 0.0;
        ASSERT_TRUE(reference >> expected);
        const bool penta = c.counts.size() == 5;
        const ArenaResult r =
            arena({"--elo0", number_text(c.elo0), "--elo1", number_text(c.elo1), "--model", c.model,
                   penta ? "--penta" : "--wdl", join(c.counts, ','), "--json"});
        const std::string label = c.model + " [" + number_text(c.elo0) + ", " +
                                  number_text(c.elo1) + "] " + join(c.counts, ',');
        ASSERT_EQ(r.status, 0) << label << "\n" << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_NEAR(j.at("llr").get<double>(), expected, 1e-3) << label;
        const double llr = j.at("llr").get<double>();
        const std::string decision = llr >= j.at("upper").get<double>()   ? "H1"
                                     : llr <= j.at("lower").get<double>() ? "H0"
                                                                          : "continue";
        EXPECT_EQ(j.at("decision"), decision) << label;
        for (const char* key : {"elo", "elo_error", "nelo", "nelo_error", "los"})
            EXPECT_TRUE(j.contains(key)) << key;
        ++models[c.model == "logistic"];
        ++kinds[penta];
        negative += c.elo0 < 0.0;
        zero_bins += std::count(c.counts.begin(), c.counts.end(), 0) > 0;
    }
    // The cases cover what they should.
    EXPECT_GE(models[0], 20);
    EXPECT_GE(models[1], 20);
    EXPECT_GE(kinds[0], 20);
    EXPECT_GE(kinds[1], 20);
    EXPECT_GE(negative, 10);
    EXPECT_GE(zero_bins, 5);
}

TEST_F(SprtCommand, NegativeBoundsWorkSeparateAndJoined) {
    const std::vector<std::string> counts = {"--penta", "461,5386,11863,5521,429", "--json"};
    auto separate = counts, joined = counts;
    separate.insert(separate.end(), {"--elo0", "-1.75", "--elo1", "-.25"});
    joined.insert(joined.end(), {"--elo0=-1.75", "--elo1=-0.25"});
    const ArenaResult a = arena(separate), b = arena(joined);
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(a.out, b.out);
    const auto j = nlohmann::json::parse(a.out);
    EXPECT_DOUBLE_EQ(j.at("elo0").get<double>(), -1.75);
    EXPECT_DOUBLE_EQ(j.at("elo1").get<double>(), -0.25);
}

TEST_F(SprtCommand, PrintsTheHeadToHeadBlock) {
    const ArenaResult r = arena({"--elo0", "0", "--elo1", "5", "--penta", "50,800,3000,1200,100"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto lines = testing::lines_of(r.out);
    ASSERT_EQ(lines.size(), 6u) << r.out;
    EXPECT_TRUE(lines[0].starts_with("Elo: ")) << lines[0];
    EXPECT_NE(lines[0].find(" +/- "), std::string::npos);
    EXPECT_NE(lines[0].find(", nElo: "), std::string::npos);
    EXPECT_TRUE(lines[1].starts_with("LOS: ")) << lines[1];
    EXPECT_NE(lines[1].find(" %, DrawRatio: 58.25 %, PairsRatio: 1.53"), std::string::npos)
        << lines[1];
    EXPECT_EQ(lines[2], "Games: 10300, Points: 5400.0 (52.43 %)");
    EXPECT_EQ(lines[3], "Ptnml(0-2): [50, 800, 3000, 1200, 100]");
    EXPECT_TRUE(lines[4].starts_with("LLR: ")) << lines[4];
    EXPECT_NE(lines[4].find(" (-2.94, 2.94) [0.00, 5.00]"), std::string::npos) << lines[4];
    EXPECT_EQ(lines[5], "SPRT: H1 accepted");

    const ArenaResult w =
        arena({"--elo0", "-5", "--elo1", "0", "--model", "logistic", "--wdl", "30,40,30"});
    ASSERT_EQ(w.status, 0) << w.err;
    const auto wl = testing::lines_of(w.out);
    ASSERT_EQ(wl.size(), 5u) << w.out;
    EXPECT_EQ(wl[0], "Elo: 0.00 +/- 53.16, nElo: 0.00 +/- 68.10") << wl[0];
    EXPECT_EQ(wl[1], "LOS: 50.00 %, DrawRatio: 40.00 %");
    EXPECT_EQ(wl[2], "Games: 100, Wins: 30, Losses: 30, Draws: 40, Points: 50.0 (50.00 %)");
    EXPECT_EQ(wl[4], "SPRT: no decision yet (continue)");
}

TEST_F(SprtCommand, BadInputGetsOneClearMessageAndExitCode2) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
        {{"--elo0", "0", "--elo1", "2", "--penta", "1,-2,3,4,5"}, "cannot be negative"},
        {{"--elo0", "0", "--elo1", "2", "--penta", "1,2,3,4"}, "expected 5 comma-separated"},
        {{"--elo0", "0", "--elo1", "2", "--wdl", "1,2,3,4"}, "expected 3 comma-separated"},
        {{"--elo0", "0", "--elo1", "2", "--wdl", "1,x,3"}, "'x' is not a whole number"},
        {{"--elo0", "2", "--elo1", "2", "--wdl", "1,2,3"}, "must be below --elo1"},
        {{"--elo0", "3", "--elo1", "-1", "--wdl", "1,2,3"}, "must be below --elo1"},
        {{"--elo0", "0", "--elo1", "2", "--alpha", "1", "--wdl", "1,2,3"}, "--alpha must be in"},
        {{"--elo0", "0", "--elo1", "2", "--beta", "-0.1", "--wdl", "1,2,3"}, "--beta must be in"},
        {{"--elo0", "0", "--elo1", "2"}, "exactly one of --penta and --wdl"},
        {{"--elo0", "0", "--elo1", "2", "--wdl", "1,2,3", "--penta", "1,2,3,4,5"},
         "exactly one of"},
        {{"--elo1", "2", "--wdl", "1,2,3"}, "missing --elo0"},
        {{"--elo0", "0", "--elo1", "2", "--wdl", "0,0,0"}, "every count is 0"},
        {{"--elo0", "0", "--elo1", "2", "--wdl", "1,2,3", "--model", "bayes"}, "not a model"},
        {{"--elo0", "0", "--elo1", "2", "--wdl", "1,2,3", "--modle", "logistic"},
         "did you mean '--model'"},
    };
    for (const auto& [args, message] : bad) {
        const ArenaResult r = arena(args);
        EXPECT_EQ(r.status, 2) << message << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        const auto lines = r.err_lines();
        ASSERT_FALSE(lines.empty());
        EXPECT_TRUE(lines[0].starts_with("arena sprt: ")) << lines[0];
        EXPECT_NE(lines[0].find(message), std::string::npos) << lines[0];
        EXPECT_LE(lines.size(), 2u) << r.err;
        EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    }
}

// ---- arena standings --vs ----

record::GameRecord stored_game(const std::string& first, const std::string& second,
                               games::Outcome outcome) {
    record::GameRecord r;
    r.game = "connect4";
    r.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
    r.players[0] = first;
    r.players[1] = second;
    for (int i = 0; i < 7; ++i) {
        record::MoveRecord m;
        m.move = std::to_string(1 + i % 7);
        m.player = 1 + i % 2;
        r.moves.push_back(m);
    }
    r.outcome = outcome;
    r.started_at = std::chrono::system_clock::now();
    return r;
}

std::string two_decimals(double x) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << x;
    return s.str();
}

TEST_F(SprtCommand, StandingsVsPrintsTheHeadToHeadOfTwoStoredBots) {
    using games::Outcome;
    const auto db = dir_.path() / "results.db";
    {
        store::ResultsStore store(db);
        std::vector<store::BotEntry> bots;
        for (const char* b : {"a", "b", "c"})
            bots.push_back({b, std::string("./") + b, "arena1", ""});
        const auto t = store.create_tournament({"t", "connect4", "name: t\n", "fp", 1, 14}, bots);
        std::int64_t index = 0;
        const auto play = [&](int pair, int in_pair, const std::string& first,
                              const std::string& second, Outcome outcome) {
            store.record_game(t, {index++, 0, pair, in_pair, ""},
                              stored_game(first, second, outcome));
        };
        play(0, 0, "a", "b", Outcome::kWin1);  // WW
        play(0, 1, "b", "a", Outcome::kWin2);
        play(1, 0, "a", "b", Outcome::kDraw);  // LD
        play(1, 1, "b", "a", Outcome::kWin1);
        play(2, 0, "a", "b", Outcome::kWin1);  // WL
        play(2, 1, "b", "a", Outcome::kWin1);
        play(3, 0, "a", "b", Outcome::kDraw);  // DD
        play(3, 1, "b", "a", Outcome::kDraw);
        play(4, 1, "b", "a", Outcome::kDraw);  // WD, the second game stored first
        play(4, 0, "a", "b", Outcome::kWin1);
        play(5, 0, "a", "b", Outcome::kWin2);  // incomplete: its second game never played
        play(6, 0, "a", "c", Outcome::kWin1);  // another opponent, no complete pair
        play(7, 0, "a", "c", Outcome::kWin2);
    }
    // The database holds 11 games between a and b.
    EXPECT_EQ(testing::query_one(db,
                                 "SELECT COUNT(*) FROM games g JOIN bots f ON "
                                 "f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
                                 "WHERE f.name IN ('a','b') AND s.name IN ('a','b')"),
              "11");

    const auto r = testing::run_arena(dir_.path(), {"standings", db.string(), "--vs", "a", "b"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const HeadToHead h = head_to_head(Pentanomial{{0, 1, 2, 1, 1}});
    const HeadToHead all = head_to_head(Trinomial{4, 4, 3});
    const std::vector<std::string> expected = {
        "a vs b (from a's side): 11 games, 5 colour-swapped pairs",
        "1 incomplete pair (1 game) left out of the pair statistics",
        "Elo: " + two_decimals(h.elo) + " +/- " + two_decimals(h.elo_error) +
            ", nElo: " + two_decimals(h.nelo) + " +/- " + two_decimals(h.nelo_error),
        "LOS: " + two_decimals(100.0 * h.los) + " %, DrawRatio: 40.00 %, PairsRatio: 2.00",
        "Games: 10, Wins: 4, Losses: 2, Draws: 4, Points: 6.0 (60.00 %)",
        "Ptnml(0-2): [0, 1, 2, 1, 1]",
        "All games (trinomial): Elo: " + two_decimals(all.elo) + " +/- " +
            two_decimals(all.elo_error) + ", nElo: " + two_decimals(all.nelo) + " +/- " +
            two_decimals(all.nelo_error),
    };
    EXPECT_EQ(testing::lines_of(r.out), expected) << r.out;

    // From b's side the bins are mirrored.
    const auto mirrored =
        testing::run_arena(dir_.path(), {"standings", db.string(), "--vs", "b", "a"});
    ASSERT_EQ(mirrored.status, 0) << mirrored.err;
    EXPECT_NE(mirrored.out.find("Ptnml(0-2): [1, 1, 2, 1, 0]\n"), std::string::npos)
        << mirrored.out;
    EXPECT_NE(mirrored.out.find("Games: 10, Wins: 2, Losses: 4, Draws: 4"), std::string::npos)
        << mirrored.out;

    // Only unpaired games: the trinomial block.
    const auto ac = testing::run_arena(dir_.path(), {"standings", db.string(), "--vs", "c", "a"});
    ASSERT_EQ(ac.status, 0) << ac.err;
    EXPECT_NE(ac.out.find("Games: 2, Wins: 1, Losses: 1, Draws: 0, Points: 1.0 (50.00 %)"),
              std::string::npos)
        << ac.out;
    EXPECT_NE(ac.out.find("2 incomplete pairs (2 games) left out"), std::string::npos) << ac.out;
    EXPECT_NE(ac.out.find("no complete colour-swapped pair"), std::string::npos) << ac.out;
    EXPECT_EQ(ac.out.find("Ptnml"), std::string::npos) << ac.out;

    // b and c never met.
    const auto none = testing::run_arena(dir_.path(), {"standings", db.string(), "--vs", "b", "c"});
    ASSERT_EQ(none.status, 0) << none.err;
    EXPECT_NE(none.out.find("b and c played no games against each other"), std::string::npos)
        << none.out;

    for (const auto& [args, message] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"--vs", "a"}, "--vs takes two bot names"},
             {{"--vs", "a", "a"}, "two different bots"},
             {{"--vs", "a", "zed"}, "has no bot 'zed'"},
         }) {
        std::vector<std::string> full{"standings", db.string()};
        full.insert(full.end(), args.begin(), args.end());
        const auto bad = testing::run_arena(dir_.path(), full);
        EXPECT_EQ(bad.status, 2) << message << "\n" << bad.err;
        EXPECT_TRUE(bad.out.empty()) << bad.out;
        ASSERT_FALSE(bad.err_lines().empty());
        EXPECT_NE(bad.err_lines()[0].find(message), std::string::npos) << bad.err;
    }
}

}  // namespace
}  // namespace arena::rating
