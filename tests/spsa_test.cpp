// The SPSA arithmetic of `arena tune` (arena/tune/spsa.hpp): its gains, its
// seeded perturbations, clipping and rounding, batches, and that it finds
// the optimum of a noisy objective whose optimum is known.

#include "arena/tune/spsa.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace arena::tune {
namespace {

SpsaParam param(const std::string& name, double start, double c_end = 10.0, double r_end = 0.005) {
    return {name, start, 0.0, 100.0, c_end, r_end, false};
}

TEST(Spsa, GainsEndAtCEndAndREnd) {
    SpsaOptions o;
    o.iterations = 4000;
    const Spsa s({param("x", 50.0, 5.0, 0.002)}, o);
    // The last iteration's perturbation is c_end and its rate a/c^2 is r_end.
    EXPECT_NEAR(s.c_k(0, 3999), 5.0, 1e-9);
    EXPECT_NEAR(s.a_k(0, 3999) / std::pow(s.c_k(0, 3999), 2), 0.002, 1e-12);
    // c_k = c / (k + 1)^0.101; a_k = a / (A + k + 1)^0.602 with A = 400.
    EXPECT_NEAR(s.c_k(0, 0) / s.c_k(0, 3999), std::pow(4000.0, 0.101), 1e-9);
    EXPECT_NEAR(s.a_k(0, 0) / s.a_k(0, 3999), std::pow(4400.0 / 401.0, 0.602), 1e-9);
    // Both shrink from one iteration to the next.
    EXPECT_GT(s.c_k(0, 10), s.c_k(0, 11));
    EXPECT_GT(s.a_k(0, 10), s.a_k(0, 11));

    o.A = 0.0;
    const Spsa zero({param("x", 50.0, 5.0, 0.002)}, o);
    EXPECT_NEAR(zero.a_k(0, 0) / zero.a_k(0, 3999), std::pow(4000.0, 0.602), 1e-6);
}

TEST(Spsa, ProblemsAreNamed) {
    SpsaOptions o;
    o.iterations = 10;
    const auto problem = [&](SpsaParam p) { return spsa_problem({p}, o); };
    EXPECT_EQ(problem(param("x", 50.0)), "");
    auto p = param("x", 50.0);
    p.max = 0.0;
    EXPECT_EQ(problem(p), "param 'x': min 0 is not below max 0");
    EXPECT_EQ(problem(param("x", 150.0)), "param 'x': start 150 lies outside [0, 100]");
    EXPECT_EQ(problem(param("x", 50.0, 0.0)), "param 'x': c_end must be above 0");
    EXPECT_EQ(problem(param("x", 50.0, 1.0, -1.0)), "param 'x': r_end must be above 0");
    EXPECT_EQ(problem(param("x", NAN)), "param 'x': every value must be a finite number");
    EXPECT_EQ(spsa_problem({param("x", 1.0), param("x", 2.0)}, o), "param 'x': named twice");
    EXPECT_EQ(spsa_problem({}, o), "no parameters to tune");
    o.iterations = 0;
    EXPECT_EQ(problem(param("x", 50.0)), "iterations must be at least 1");
    EXPECT_THROW(Spsa({param("x", 50.0)}, o), std::invalid_argument);
}

TEST(Spsa, PerturbationsAreSeededCoinsClippedAndRounded) {
    SpsaOptions o;
    o.iterations = 1000;
    o.seed = 7;
    auto edge = param("edge", 99.0);
    auto whole = param("whole", 50.0);
    whole.integer = true;
    Spsa s({edge, whole}, o);
    std::vector<std::vector<int>> flips;
    int plus = 0;
    for (std::int64_t k = 0; k < 1000; ++k) {
        const auto p = s.point(k);
        ASSERT_EQ(p.flip.size(), 2u);
        flips.push_back(p.flip);
        // theta + c flip and theta - c flip, clipped to [0, 100].
        EXPECT_DOUBLE_EQ(p.plus[0], std::min(100.0, 99.0 + p.c[0] * p.flip[0]));
        EXPECT_DOUBLE_EQ(p.minus[0], std::min(100.0, 99.0 - p.c[0] * p.flip[0]));
        // The integer parameter arrives rounded.
        EXPECT_DOUBLE_EQ(p.plus[1], std::round(50.0 + p.c[1] * p.flip[1]));
        plus += p.flip[0] > 0;
        s.record(k, 0.0);  // an even pair moves nothing
    }
    EXPECT_GT(plus, 400);  // a fair coin
    EXPECT_LT(plus, 600);
    EXPECT_DOUBLE_EQ(s.theta()[0], 99.0);
    EXPECT_TRUE(s.finished());

    // The same seed draws the same coins; another seed others.
    Spsa again({edge, whole}, o);
    o.seed = 8;
    Spsa other({edge, whole}, o);
    int same = 0;
    for (std::int64_t k = 0; k < 100; ++k) {
        EXPECT_EQ(again.point(k).flip, flips[static_cast<std::size_t>(k)]);
        same += other.point(k).flip == flips[static_cast<std::size_t>(k)];
        again.record(k, 0.0);
        other.record(k, 0.0);
    }
    EXPECT_LT(same, 50);  // both coins equal by chance: a quarter of the time
}

TEST(Spsa, ThetaStepsTowardsTheSideThatScored) {
    SpsaOptions o;
    o.iterations = 100;
    Spsa s({param("x", 50.0)}, o);
    const auto p = s.point(0);
    s.record(0, 2.0);  // theta+ won both games
    const double step = s.a_k(0, 0) / s.c_k(0, 0) * 2.0;
    EXPECT_NEAR(s.theta()[0], 50.0 + step * p.flip[0], 1e-9);
    EXPECT_GT((s.theta()[0] - 50.0) * (p.plus[0] - 50.0), 0.0);  // towards theta+
    EXPECT_THROW(s.record(1, 2.5), std::invalid_argument);
    EXPECT_THROW((void)s.point(2), std::out_of_range);  // not under way yet
    EXPECT_THROW(s.record(0, 1.0), std::out_of_range);  // already applied
}

// A batch's iterations start from one theta, and their results are applied
// in iteration order whatever order they came in.
TEST(Spsa, ABatchIsAppliedInOrderOnceComplete) {
    SpsaOptions o;
    o.iterations = 10;
    o.batch = 4;
    o.seed = 3;
    const std::vector<double> results = {2, -2, 0, 2, 2, -2, 2, 2, -2, 2};
    const auto run = [&](const std::vector<std::int64_t>& order) {
        Spsa s({param("x", 50.0), param("y", 20.0)}, o);
        std::vector<std::vector<double>> points;
        std::size_t next = 0;
        while (!s.finished()) {
            const auto start = s.applied();
            const auto end = std::min<std::int64_t>(start + 4, 10);
            for (auto k = start; k < end; ++k) {
                points.push_back(s.point(k).plus);
                EXPECT_EQ(s.applied(), start);
            }
            for (; next < order.size() && order[next] < end; ++next)
                s.record(order[next], results[static_cast<std::size_t>(order[next])]);
        }
        return std::pair(s.theta(), points);
    };
    const auto in_order = run({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    const auto shuffled = run({3, 0, 2, 1, 7, 5, 4, 6, 9, 8});
    EXPECT_EQ(in_order, shuffled);
    // Within a batch the points differ only by their coins: the same theta.
    Spsa s({param("x", 50.0), param("y", 20.0)}, o);
    for (std::int64_t k = 0; k < 4; ++k) {
        const auto p = s.point(k);
        EXPECT_NEAR((p.plus[0] + p.minus[0]) / 2, 50.0, 1e-9);
    }
}

// Pairs of a bot whose strength peaks at x = 70, y = 30 (2000 Elo below the
// peak per full range squared), played with seeded luck: from the corner
// (0, 100) SPSA ends within 15 % of the range of the peak after 3,000 pairs,
// for every seed.
TEST(Spsa, FindsTheOptimumOfANoisyObjective) {
    const auto elo = [](const std::vector<double>& t) {
        return -2000.0 * (std::pow((t[0] - 70.0) / 100.0, 2) + std::pow((t[1] - 30.0) / 100.0, 2));
    };
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        SpsaOptions o;
        o.iterations = 3000;
        o.seed = seed;
        o.batch = 2;
        Spsa s({param("x", 0.0), param("y", 100.0)}, o);
        std::mt19937_64 luck(seed);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        while (!s.finished()) {
            const auto k = s.applied();
            for (auto j = k; j < std::min<std::int64_t>(k + 2, 3000); ++j) {
                const auto p = s.point(j);
                const double win =
                    1.0 / (1.0 + std::pow(10.0, -(elo(p.plus) - elo(p.minus)) / 400));
                double result = 0.0;
                for (int game = 0; game < 2; ++game)
                    result += u(luck) < win ? 1.0 : -1.0;
                s.record(j, result);
            }
        }
        SCOPED_TRACE("seed " + std::to_string(seed));
        EXPECT_NEAR(s.theta()[0], 70.0, 15.0);
        EXPECT_NEAR(s.theta()[1], 30.0, 15.0);
    }
}

}  // namespace
}  // namespace arena::tune
