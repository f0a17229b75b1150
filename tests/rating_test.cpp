// The Elo fit: agreement with Ordo on the reference games, closed-form
// cases, the treatment of degenerate sets (finite, never NaN), errors
// against Ordo's bootstrap, LOS, per-player counts and the CSV reader.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/rating/games_csv.hpp"

namespace arena::rating {
namespace {

const std::string kDataDir = ARENA_SOURCE_DIR "/tests/data/ratings/";

// Expected score of the first mover on the 400*log10 scale.
double expected(double diff) {
    return 1.0 / (1.0 + std::pow(10.0, -diff / 400.0));
}

// Uniform in [0, 1) from the fully specified mt19937_64 output, so that the
// simulated sets are the same with every standard library.
double uniform(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1p-53;
}

bool all_finite(const EloFit& fit) {
    for (double r : fit.ratings)
        if (!std::isfinite(r)) return false;
    for (double e : fit.errors)
        if (!std::isfinite(e)) return false;
    for (double c : fit.covariances)
        if (!std::isfinite(c)) return false;
    return std::isfinite(fit.advantage) && std::isfinite(fit.advantage_error);
}

struct Sample {
    std::vector<std::string> names;
    std::vector<GameResult> games;
};

Sample load_sample() {
    std::ifstream in(kDataDir + "sample-games.csv");
    EXPECT_TRUE(in) << kDataDir;
    Sample s;
    s.games = read_games_csv(in, s.names);
    return s;
}

struct OrdoRow {
    double rating = 0.0;
    double error = 0.0;  // sample-ordo-errors.txt only
    std::string cfs;     // likewise: LOS with the next player, percent or "---"
};

// Player lines of an Ordo report: "   1 Alpha      :   325.867   470.0 ...".
std::map<std::string, OrdoRow> read_ordo(const std::string& file, bool with_errors) {
    std::ifstream in(kDataDir + file);
    EXPECT_TRUE(in) << file;
    std::map<std::string, OrdoRow> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        int rank = 0;
        std::string name, colon;
        OrdoRow row;
        if (!(fields >> rank >> name >> colon >> row.rating) || colon != ":") continue;
        if (with_errors) {
            double points = 0.0, played = 0.0, percent = 0.0;
            fields >> row.error >> points >> played >> percent >> row.cfs;
        }
        rows[name] = row;
    }
    return rows;
}

// A white advantage line: "White advantage = 117.53" (or "... +/- 8.76").
std::pair<double, double> read_ordo_advantage(const std::string& file) {
    std::ifstream in(kDataDir + file);
    std::string line;
    const std::string key = "White advantage = ";
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) != 0) continue;
        std::istringstream rest(line.substr(key.size()));
        double value = 0.0, sd = 0.0;
        std::string plus_minus;
        rest >> value >> plus_minus >> sd;
        return {value, sd};
    }
    ADD_FAILURE() << "no white advantage in " << file;
    return {0.0, 0.0};
}

TEST(RatingOrdo, AgreesWithOrdoWithinHalfAnElo) {
    const Sample s = load_sample();
    ASSERT_EQ(s.names.size(), 6u);
    ASSERT_EQ(s.games.size(), 2000u);
    const EloFit fit = fit_elo(s.names, s.games);
    EXPECT_FALSE(fit.rating_prior);
    EXPECT_FALSE(fit.advantage_prior);
    const auto ordo = read_ordo("sample-ordo.txt", false);
    ASSERT_EQ(ordo.size(), s.names.size());

    // Align both on the mean (ours is 0 by construction, Ordo's up to rounding).
    double ours_mean = 0.0, ordo_mean = 0.0;
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        ours_mean += fit.ratings[i];
        ordo_mean += ordo.at(s.names[i]).rating;
    }
    ours_mean /= static_cast<double>(s.names.size());
    ordo_mean /= static_cast<double>(s.names.size());
    EXPECT_NEAR(ours_mean, 0.0, 1e-9);
    double worst = 0.0;
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        const double diff = (fit.ratings[i] - ours_mean) - (ordo.at(s.names[i]).rating - ordo_mean);
        EXPECT_LT(std::abs(diff), 0.5) << s.names[i];
        worst = std::max(worst, std::abs(diff));
    }
    const auto [ordo_advantage, unused] = read_ordo_advantage("sample-ordo.txt");
    EXPECT_NEAR(fit.advantage, ordo_advantage, 0.5);
    std::cout << "max |ours - Ordo| = " << worst << " Elo; advantage " << fit.advantage << " vs "
              << ordo_advantage << "\n";
}

TEST(RatingOrdo, IgnoringTheAdvantageMissesOrdo) {
    // The first-mover term matters: without it the extremes move by ~30 Elo.
    const Sample s = load_sample();
    FitOptions options;
    options.fixed_advantage = 0.0;
    const EloFit fit = fit_elo(s.names, s.games, options);
    const auto ordo = read_ordo("sample-ordo.txt", false);
    EXPECT_EQ(fit.advantage, 0.0);
    EXPECT_EQ(fit.advantage_error, 0.0);
    EXPECT_GT(std::abs(fit.ratings[*fit.index_of("Foxtrot")] - ordo.at("Foxtrot").rating), 10.0);
}

TEST(RatingOrdo, ErrorsAgreeWithOrdoBootstrap) {
    const Sample s = load_sample();
    const EloFit fit = fit_elo(s.names, s.games);
    const auto ordo = read_ordo("sample-ordo-errors.txt", true);
    ASSERT_EQ(ordo.size(), s.names.size());
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        const double theirs = ordo.at(s.names[i]).error;
        std::cout << s.names[i] << ": error " << fit.errors[i] << " vs bootstrap " << theirs << " ("
                  << 100.0 * (fit.errors[i] / theirs - 1.0) << " %)\n";
        EXPECT_NEAR(fit.errors[i] / theirs, 1.0, 0.2) << s.names[i];
    }
    // Ordo prints the advantage's standard deviation, not a 95 % half-width.
    const auto [advantage, advantage_sd] = read_ordo_advantage("sample-ordo-errors.txt");
    EXPECT_NEAR(fit.advantage, advantage, 0.5);
    EXPECT_NEAR(fit.advantage_error / (kZ95 * advantage_sd), 1.0, 0.2);

    // CFS is Ordo's LOS of each player over the next one down.
    for (std::size_t i = 0; i + 1 < s.names.size(); ++i) {
        const std::string& cfs = ordo.at(s.names[i]).cfs;
        ASSERT_NE(cfs, "---") << s.names[i];
        EXPECT_NEAR(100.0 * fit.los(i, i + 1), std::stod(cfs), 2.0) << s.names[i];
    }

    // The plain inverse information ignores that draws are less random.
    FitOptions plain;
    plain.draw_adjusted_errors = false;
    const EloFit unadjusted = fit_elo(s.names, s.games, plain);
    EXPECT_EQ(unadjusted.dispersion, 1.0);
    EXPECT_LT(fit.dispersion, 0.9);
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        EXPECT_NEAR(fit.errors[i], unadjusted.errors[i] * std::sqrt(fit.dispersion), 1e-9);
        EXPECT_DOUBLE_EQ(fit.ratings[i], unadjusted.ratings[i]);
    }
}

TEST(RatingExact, TwoPlayersAtSeventyFivePercent) {
    // 3 wins and 1 loss each way round: 75 % whatever the colours.
    std::vector<GameResult> games;
    for (int k = 0; k < 4; ++k) {
        games.push_back({0, 1, k < 3 ? 1.0 : 0.0});
        games.push_back({1, 0, k < 3 ? 0.0 : 1.0});
    }
    const double expected_diff = 400.0 * std::log10(3.0);  // 190.85
    FitOptions no_advantage;
    no_advantage.fixed_advantage = 0.0;
    for (const FitOptions& options : {no_advantage, FitOptions{}}) {
        const EloFit fit = fit_elo({"A", "B"}, games, options);
        EXPECT_NEAR(fit.ratings[0] - fit.ratings[1], expected_diff, 1e-6);
        EXPECT_NEAR(fit.ratings[0] + fit.ratings[1], 0.0, 1e-9);
        EXPECT_NEAR(fit.advantage, 0.0, 1e-6);
        EXPECT_FALSE(fit.rating_prior);
        EXPECT_FALSE(fit.advantage_prior);
    }
    // Draws count half: 10 wins, 4 draws and 2 losses is 75 % as well
    // (5 wins, 2 draws, 1 loss with each colour).
    std::vector<GameResult> with_draws;
    for (int side = 0; side < 2; ++side) {
        // A is player 0; a game's score is the first mover's.
        const int first = side, second = 1 - side;
        const auto a_scores = [&](double x) { return side == 0 ? x : 1.0 - x; };
        for (int k = 0; k < 5; ++k)
            with_draws.push_back({first, second, a_scores(1.0)});
        for (int k = 0; k < 2; ++k)
            with_draws.push_back({first, second, 0.5});
        with_draws.push_back({first, second, a_scores(0.0)});
    }
    for (const FitOptions& options : {no_advantage, FitOptions{}}) {
        const EloFit fit = fit_elo({"A", "B"}, with_draws, options);
        EXPECT_NEAR(fit.ratings[0] - fit.ratings[1], expected_diff, 1e-6);
        EXPECT_NEAR(fit.advantage, 0.0, 1e-6);
        EXPECT_LT(fit.dispersion, 1.0);
    }
}

TEST(RatingExact, RecoversTruthFromExpectedScores) {
    // Scores equal to the model's expectation make the truth the exact MLE.
    const std::vector<double> truth = {250.0, 100.0, 0.0, -50.0, -300.0};
    const double advantage = 85.0;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < truth.size(); ++i)
        names.push_back("P" + std::to_string(i));
    std::vector<GameResult> games;
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            if (i == j) continue;
            games.push_back({i, j, expected(truth[i] + advantage - truth[j])});
        }
    }
    const EloFit fit = fit_elo(names, games);
    double mean = 0.0;
    for (double t : truth)
        mean += t / static_cast<double>(truth.size());
    for (std::size_t i = 0; i < truth.size(); ++i) {
        EXPECT_NEAR(fit.ratings[i], truth[i] - mean, 1e-6) << names[i];
    }
    EXPECT_NEAR(fit.advantage, advantage, 1e-6);
}

TEST(RatingExact, FirstMoverAdvantageRecoveredFromSimulatedGames) {
    const std::vector<double> truth = {200.0, 120.0, 40.0, 0.0, -60.0, -100.0, -200.0};
    const double advantage = 80.0;
    const int n = static_cast<int>(truth.size());
    std::mt19937_64 rng(7);
    std::vector<GameResult> games;
    for (int g = 0; g < 20000; ++g) {
        const int i = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
        const int j = static_cast<int>((i + 1 + rng() % static_cast<std::uint64_t>(n - 1)) %
                                       static_cast<std::uint64_t>(n));
        const double p = expected(truth[i] + advantage - truth[j]);
        const double draw = 0.3 * 4.0 * p * (1.0 - p);
        const double u = uniform(rng);
        games.push_back({i, j, u < p - draw / 2 ? 1.0 : u < p + draw / 2 ? 0.5 : 0.0});
    }
    std::vector<std::string> names(truth.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = "P" + std::to_string(i);
    const EloFit fit = fit_elo(names, games);
    // The truth lies within the 95 % intervals (with a margin for chance).
    EXPECT_NEAR(fit.advantage, advantage, 1.5 * fit.advantage_error);
    EXPECT_LT(fit.advantage_error, 15.0);
    double mean = 0.0;
    for (double t : truth)
        mean += t / static_cast<double>(n);
    for (int i = 0; i < n; ++i)
        EXPECT_NEAR(fit.ratings[i], truth[i] - mean, 1.5 * fit.errors[i]);
}

TEST(RatingDegenerate, PerfectScoreIsFiniteAndOnTop) {
    // A, B, C play each other; D beats all of them every time.
    std::vector<GameResult> games;
    for (int k = 0; k < 6; ++k) {
        games.push_back({0, 1, k % 3 == 0 ? 0.0 : 1.0});
        games.push_back({1, 2, k % 2 == 0 ? 0.5 : 1.0});
        games.push_back({2, 0, k % 3 == 0 ? 1.0 : 0.0});
        games.push_back({3, k % 3, 1.0});
        games.push_back({k % 3, 3, 0.0});
    }
    const EloFit fit = fit_elo({"A", "B", "C", "D"}, games);
    EXPECT_TRUE(fit.rating_prior);
    EXPECT_TRUE(all_finite(fit));
    for (int i = 0; i < 3; ++i)
        EXPECT_GT(fit.ratings[3], fit.ratings[i] + 100.0);
    EXPECT_LT(fit.ratings[3], 2000.0);
    EXPECT_GT(fit.los(3, 0), 0.95);

    // And the mirror image: a player who lost everything is finite and last.
    for (GameResult& g : games)
        g.score = 1.0 - g.score;
    const EloFit mirror = fit_elo({"A", "B", "C", "D"}, games);
    EXPECT_TRUE(all_finite(mirror));
    for (int i = 0; i < 3; ++i)
        EXPECT_LT(mirror.ratings[3], mirror.ratings[i]);
}

TEST(RatingDegenerate, IdlePlayerChangesNothing) {
    // A player without games carries no information: the others keep their
    // plain maximum-likelihood fit, and the idle one sits at the average.
    const Sample s = load_sample();
    const EloFit base = fit_elo(s.names, s.games);
    std::vector<std::string> names = s.names;
    names.push_back("Idle");
    const EloFit fit = fit_elo(names, s.games);
    EXPECT_FALSE(fit.rating_prior);
    EXPECT_TRUE(all_finite(fit));
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        EXPECT_NEAR(fit.ratings[i], base.ratings[i], 1e-9);
        EXPECT_NEAR(fit.errors[i], base.errors[i], 1e-9);
    }
    EXPECT_EQ(fit.ratings.back(), 0.0);
    // One virtual draw against the average: sd = 2 natural units.
    const double idle_sd = 2.0 * 400.0 / std::log(10.0);
    EXPECT_NEAR(fit.errors.back(), kZ95 * idle_sd, 1e-6);
    // Independent of the others: LOS from the two errors alone.
    const double sd_diff = std::hypot(idle_sd, base.errors[0] / kZ95);
    EXPECT_NEAR(fit.los(0, 6), 0.5 * std::erfc(-fit.ratings[0] / (sd_diff * std::sqrt(2.0))), 1e-9);

    // Anchored on the idle player: the rated players are centred on its rating.
    FitOptions options;
    options.anchors = {{"Idle", 1000.0}};
    const EloFit anchored = fit_elo(names, s.games, options);
    EXPECT_EQ(anchored.ratings.back(), 1000.0);
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        EXPECT_NEAR(anchored.ratings[i], base.ratings[i] + 1000.0, 1e-9);
    }
}

TEST(RatingDegenerate, PriorMovesNormalPlayersLittle) {
    // A player who beat everyone forces the prior: every player gets one
    // virtual draw, which moves a player with W points and L lost points by
    // about 87 * (1/W - 1/L) Elo: +1.7 for Foxtrot (46 of 560), -0.8 for Alpha.
    const Sample s = load_sample();
    const EloFit base = fit_elo(s.names, s.games);
    std::vector<std::string> names = s.names;
    names.push_back("Super");
    std::vector<GameResult> games = s.games;
    for (int k = 0; k < 24; ++k) {
        const int other = k % 6;
        games.push_back(k % 2 == 0 ? GameResult{6, other, 1.0} : GameResult{other, 6, 0.0});
    }
    const EloFit fit = fit_elo(names, games);
    EXPECT_TRUE(fit.rating_prior);
    EXPECT_TRUE(all_finite(fit));
    for (std::size_t i = 1; i < s.names.size(); ++i) {
        EXPECT_NEAR(fit.ratings[i] - fit.ratings[0], base.ratings[i] - base.ratings[0], 4.0);
    }
    EXPECT_GT(fit.ratings.back(), fit.ratings[0] + 100.0);
}

TEST(RatingDegenerate, DisconnectedGroupsAndNoGames) {
    // {A, B} and {C, D} never meet.
    std::vector<GameResult> games = {{0, 1, 1.0}, {1, 0, 0.5}, {2, 3, 0.0}, {3, 2, 0.5}};
    const EloFit fit = fit_elo({"A", "B", "C", "D"}, games);
    EXPECT_TRUE(fit.rating_prior);
    EXPECT_TRUE(all_finite(fit));
    EXPECT_GT(fit.ratings[0], fit.ratings[1]);
    EXPECT_GT(fit.ratings[3], fit.ratings[2]);

    const EloFit none = fit_elo({"A", "B", "C"}, {});
    EXPECT_TRUE(all_finite(none));
    EXPECT_TRUE(none.advantage_prior);
    EXPECT_EQ(none.advantage, 0.0);
    for (double r : none.ratings)
        EXPECT_EQ(r, 0.0);
    for (double e : none.errors)
        EXPECT_GT(e, 600.0);
    EXPECT_EQ(none.los(0, 1), 0.5);

    const EloFit empty = fit_elo({}, {});
    EXPECT_TRUE(empty.ratings.empty());

    const EloFit single = fit_elo({"Solo"}, {});
    ASSERT_EQ(single.ratings.size(), 1u);
    EXPECT_EQ(single.ratings[0], 0.0);
    EXPECT_TRUE(all_finite(single));
}

TEST(RatingDegenerate, FirstMoverAlwaysWins) {
    // Each side won every game it started: the advantage MLE is infinite.
    std::vector<GameResult> games;
    for (int k = 0; k < 5; ++k) {
        games.push_back({0, 1, 1.0});
        games.push_back({1, 0, 1.0});
    }
    const EloFit fit = fit_elo({"A", "B"}, games);
    EXPECT_FALSE(fit.rating_prior);
    EXPECT_TRUE(fit.advantage_prior);
    EXPECT_TRUE(all_finite(fit));
    EXPECT_NEAR(fit.ratings[0], fit.ratings[1], 1e-6);
    EXPECT_GT(fit.advantage, 200.0);
    EXPECT_LT(fit.advantage, 2000.0);
}

TEST(RatingDegenerate, AdvantageConfoundedWithRatings) {
    // A always moves first against B: only r_A + adv - r_B is identified.
    const std::vector<GameResult> games = {{0, 1, 1.0}, {0, 1, 0.0}, {0, 1, 1.0}, {0, 1, 0.5}};
    const EloFit fit = fit_elo({"A", "B"}, games);
    EXPECT_TRUE(fit.advantage_prior);
    EXPECT_TRUE(all_finite(fit));
    // A scored 62.5 % as first mover; the prior splits that between the terms.
    const double total = fit.ratings[0] + fit.advantage - fit.ratings[1];
    EXPECT_GT(total, 0.0);
    EXPECT_LT(total, 400.0 * std::log10(0.625 / 0.375) + 1.0);
}

TEST(RatingAnchor, AnchorFixesOnePlayerAndKeepsDifferences) {
    const Sample s = load_sample();
    const EloFit base = fit_elo(s.names, s.games);
    FitOptions options;
    options.anchors = {{"Charlie", 1500.0}};
    const EloFit fit = fit_elo(s.names, s.games, options);
    const std::size_t c = *fit.index_of("Charlie");
    EXPECT_DOUBLE_EQ(fit.ratings[c], 1500.0);
    EXPECT_EQ(fit.errors[c], 0.0);
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        EXPECT_NEAR(fit.ratings[i] - 1500.0, base.ratings[i] - base.ratings[c], 1e-6);
        // Relative to the anchor, an error is that of the difference.
        const double var =
            base.covariance(i, i) + base.covariance(c, c) - 2 * base.covariance(i, c);
        EXPECT_NEAR(fit.errors[i], kZ95 * std::sqrt(std::max(var, 0.0)), 1e-6);
        // LOS does not depend on the reference.
        for (std::size_t j = 0; j < s.names.size(); ++j) {
            EXPECT_NEAR(fit.los(i, j), base.los(i, j), 1e-9);
        }
    }

    FitOptions average;
    average.average = 2000.0;
    const EloFit shifted = fit_elo(s.names, s.games, average);
    double mean = 0.0;
    for (double r : shifted.ratings)
        mean += r / static_cast<double>(s.names.size());
    EXPECT_NEAR(mean, 2000.0, 1e-9);

    FitOptions unknown;
    unknown.anchors = {{"Nobody", 0.0}};
    EXPECT_THROW((void)fit_elo(s.names, s.games, unknown), std::invalid_argument);
}

// Log-likelihood (natural log) of `games` at the given Elo ratings and
// first-mover advantage: the model of elo.hpp, written out directly.
double log_likelihood(const std::vector<GameResult>& games, const std::vector<double>& elo,
                      double advantage) {
    double sum = 0.0;
    for (const GameResult& g : games) {
        const double p = expected(elo[g.first] + advantage - elo[g.second]);
        sum += static_cast<double>(g.count) *
               (g.score * std::log(p) + (1.0 - g.score) * std::log(1.0 - p));
    }
    return sum;
}

// The maximum of a concave function on [lo, hi], by golden-section search.
template <typename F>
double argmax(F f, double lo, double hi) {
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = lo, b = hi;
    double x1 = b - ratio * (b - a), x2 = a + ratio * (b - a);
    double f1 = f(x1), f2 = f(x2);
    while (b - a > 1e-9) {
        if (f1 < f2) {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + ratio * (b - a);
            f2 = f(x2);
        } else {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - ratio * (b - a);
            f1 = f(x1);
        }
    }
    return (a + b) / 2.0;
}

// Three players, both colours, mixed results: A strongest, C weakest, but
// A and B are much closer than the anchors below say.
std::vector<GameResult> three_players() {
    std::vector<GameResult> games;
    const auto add = [&](int first, int second, double score, std::int64_t count) {
        games.push_back({first, second, score, count});
    };
    add(0, 1, 1.0, 7), add(0, 1, 0.5, 4), add(0, 1, 0.0, 5);
    add(1, 0, 1.0, 6), add(1, 0, 0.5, 3), add(1, 0, 0.0, 6);
    add(0, 2, 1.0, 9), add(0, 2, 0.5, 2), add(0, 2, 0.0, 3);
    add(2, 0, 1.0, 4), add(2, 0, 0.5, 2), add(2, 0, 0.0, 8);
    add(1, 2, 1.0, 8), add(1, 2, 0.5, 3), add(1, 2, 0.0, 4);
    add(2, 1, 1.0, 5), add(2, 1, 0.5, 1), add(2, 1, 0.0, 7);
    return games;
}

TEST(RatingAnchor, TwoAnchorsGiveTheThirdPlayerItsMaximumLikelihoodRating) {
    const std::vector<std::string> names = {"A", "B", "C"};
    const auto games = three_players();
    const double advantage = 35.0;
    FitOptions options;
    options.anchors = {{"A", 1500.0}, {"B", 1200.0}};
    options.fixed_advantage = advantage;
    options.draw_adjusted_errors = false;
    const EloFit fit = fit_elo(names, games, options);
    EXPECT_FALSE(fit.rating_prior);
    EXPECT_EQ(fit.ratings[0], 1500.0);
    EXPECT_EQ(fit.ratings[1], 1200.0);
    EXPECT_EQ(fit.errors[0], 0.0);
    EXPECT_EQ(fit.errors[1], 0.0);
    EXPECT_EQ(fit.covariance(0, 2), 0.0);
    EXPECT_EQ(fit.covariance(1, 0), 0.0);

    // C's rating maximises the likelihood with A and B held there.
    const auto with_c = [&](double c) {
        return log_likelihood(games, {1500.0, 1200.0, c}, advantage);
    };
    const double best = argmax(with_c, -2000.0, 4000.0);
    EXPECT_NEAR(fit.ratings[2], best, 1e-4);
    // Its error is that of the 1-D problem: 1.96 / sqrt(-d2 logL / dc2).
    const double h = 0.5;
    const double curvature = -(with_c(best + h) - 2.0 * with_c(best) + with_c(best - h)) / (h * h);
    EXPECT_NEAR(fit.errors[2], kZ95 / std::sqrt(curvature), 1e-3 * fit.errors[2]);
    EXPECT_NEAR(fit.log_likelihood, with_c(best), 1e-9 * std::abs(with_c(best)));

    // Not a shift of the free fit: that keeps A - B near the data's value.
    const EloFit free = fit_elo(names, games, [&] {
        FitOptions o;
        o.fixed_advantage = advantage;
        return o;
    }());
    EXPECT_LT(std::abs(free.ratings[0] - free.ratings[1]), 100.0);
    EXPECT_GT(std::abs(fit.ratings[2] - (free.ratings[2] - free.ratings[0] + 1500.0)), 20.0);
    EXPECT_GT(std::abs(fit.ratings[2] - (free.ratings[2] - free.ratings[1] + 1200.0)), 20.0);
    // Between the two, closer to the anchor it is closer to in the data.
    EXPECT_LT(fit.ratings[2], 1500.0);
}

TEST(RatingAnchor, TwoAnchorsWithAFittedAdvantageAreAMaximum) {
    const std::vector<std::string> names = {"A", "B", "C"};
    const auto games = three_players();
    FitOptions options;
    options.anchors = {{"C", 0.0}, {"A", 400.0}};
    const EloFit fit = fit_elo(names, games, options);
    EXPECT_FALSE(fit.advantage_prior);
    EXPECT_EQ(fit.ratings[2], 0.0);
    EXPECT_EQ(fit.ratings[0], 400.0);
    EXPECT_GT(fit.errors[1], 0.0);
    EXPECT_GT(fit.advantage_error, 0.0);
    // The gradient in B's rating and the advantage vanishes; every nearby
    // point is worse.
    const auto ll = [&](double b, double adv) {
        return log_likelihood(games, {400.0, b, 0.0}, adv);
    };
    const double b = fit.ratings[1], adv = fit.advantage, h = 1e-3;
    EXPECT_NEAR((ll(b + h, adv) - ll(b - h, adv)) / (2 * h), 0.0, 1e-5);
    EXPECT_NEAR((ll(b, adv + h) - ll(b, adv - h)) / (2 * h), 0.0, 1e-5);
    for (const double db : {-1.0, 0.0, 1.0}) {
        for (const double da : {-1.0, 0.0, 1.0}) {
            if (db != 0.0 || da != 0.0) {
                EXPECT_LT(ll(b + db, adv + da), ll(b, adv));
            }
        }
    }
}

TEST(RatingAnchor, OneAnchorIsTheShiftedFreeFitEvenWithThePrior) {
    // A player who beat everyone forces the rating prior.
    const Sample s = load_sample();
    std::vector<std::string> names = s.names;
    names.push_back("Super");
    std::vector<GameResult> games = s.games;
    for (int k = 0; k < 24; ++k) {
        const int other = k % 6;
        games.push_back(k % 2 == 0 ? GameResult{6, other, 1.0} : GameResult{other, 6, 0.0});
    }
    const EloFit free = fit_elo(names, games);
    ASSERT_TRUE(free.rating_prior);
    for (const std::size_t a : {std::size_t{2}, std::size_t{6}}) {
        FitOptions options;
        options.anchors = {{names[a], 1500.0}};
        const EloFit fit = fit_elo(names, games, options);
        EXPECT_TRUE(fit.rating_prior);
        EXPECT_EQ(fit.ratings[a], 1500.0);
        EXPECT_EQ(fit.errors[a], 0.0);
        EXPECT_NEAR(fit.advantage, free.advantage, 1e-6);
        EXPECT_NEAR(fit.advantage_error, free.advantage_error, 1e-6);
        for (std::size_t i = 0; i < names.size(); ++i) {
            EXPECT_NEAR(fit.ratings[i], free.ratings[i] - free.ratings[a] + 1500.0, 1e-6);
            const double var =
                free.covariance(i, i) + free.covariance(a, a) - 2 * free.covariance(i, a);
            EXPECT_NEAR(fit.errors[i], kZ95 * std::sqrt(std::max(var, 0.0)), 1e-6);
        }
    }
}

TEST(RatingAnchor, SeveralAnchorsWithThePriorAndWithoutGames) {
    // A, B, C play each other; D beats them all every time (the prior is
    // needed); E never played.
    std::vector<GameResult> games;
    for (int k = 0; k < 6; ++k) {
        games.push_back({0, 1, k % 3 == 0 ? 0.0 : 1.0});
        games.push_back({1, 2, k % 2 == 0 ? 0.5 : 1.0});
        games.push_back({2, 0, k % 3 == 0 ? 1.0 : 0.0});
        games.push_back({3, k % 3, 1.0});
        games.push_back({k % 3, 3, 0.0});
    }
    const std::vector<std::string> names = {"A", "B", "C", "D", "E"};
    FitOptions options;
    options.anchors = {{"A", 1000.0}, {"C", 900.0}, {"E", 2000.0}};
    const EloFit fit = fit_elo(names, games, options);
    EXPECT_TRUE(fit.rating_prior);
    EXPECT_TRUE(all_finite(fit));
    EXPECT_EQ(fit.ratings[0], 1000.0);
    EXPECT_EQ(fit.ratings[2], 900.0);
    EXPECT_EQ(fit.ratings[4], 2000.0);  // without games: placed, fixes nothing
    for (const std::size_t a : {0u, 2u, 4u}) {
        EXPECT_EQ(fit.errors[a], 0.0) << names[a];
        for (std::size_t j = 0; j < names.size(); ++j)
            EXPECT_EQ(fit.covariance(a, j), 0.0);
    }
    EXPECT_GT(fit.ratings[3], 1100.0);
    EXPECT_LT(fit.ratings[3], 3000.0);
    EXPECT_GT(fit.errors[1], 0.0);
    EXPECT_GT(fit.errors[3], fit.errors[1]);

    // The anchor without games changes nothing for the others.
    FitOptions two;
    two.anchors = {{"A", 1000.0}, {"C", 900.0}};
    const EloFit without_e = fit_elo(names, games, two);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_NEAR(fit.ratings[i], without_e.ratings[i], 1e-9);
        EXPECT_NEAR(fit.errors[i], without_e.errors[i], 1e-9);
    }
}

TEST(RatingAnchor, AnchorsPutSeparateGroupsOnOneScale) {
    // {A, B} and {C, D} never met: without anchors the prior joins them;
    // with one anchor in each group, each group is fixed by its own anchor
    // and no prior is needed.
    std::vector<GameResult> games;
    for (int k = 0; k < 4; ++k) {
        games.push_back({0, 1, k < 3 ? 1.0 : 0.0});
        games.push_back({1, 0, k < 3 ? 0.0 : 1.0});
        games.push_back({2, 3, k < 1 ? 1.0 : 0.0});
        games.push_back({3, 2, k < 1 ? 0.0 : 1.0});
    }
    const std::vector<std::string> names = {"A", "B", "C", "D"};
    FitOptions options;
    options.anchors = {{"A", 1500.0}, {"C", 0.0}};
    const EloFit fit = fit_elo(names, games, options);
    EXPECT_FALSE(fit.rating_prior);
    const double gap = 400.0 * std::log10(3.0);  // 75 %
    EXPECT_NEAR(fit.ratings[1], 1500.0 - gap, 1e-6);
    EXPECT_NEAR(fit.ratings[3], 0.0 + gap, 1e-6);
    EXPECT_NEAR(fit.advantage, 0.0, 1e-6);
    // Still linked to nothing but its own anchor: D's error is that of the
    // two-player fit, and B and D are independent.
    std::vector<GameResult> c_and_d;
    for (const GameResult& g : games) {
        if (g.first >= 2) c_and_d.push_back({g.first - 2, g.second - 2, g.score, g.count});
    }
    FitOptions c_at_0;
    c_at_0.anchors = {{"C", 0.0}};
    const EloFit pair = fit_elo({"C", "D"}, c_and_d, c_at_0);
    EXPECT_NEAR(fit.ratings[3], pair.ratings[1], 1e-6);
    EXPECT_NEAR(fit.errors[3], pair.errors[1], 1e-6 * pair.errors[1]);
    EXPECT_NEAR(fit.covariance(1, 3), 0.0, 1e-6);
}

TEST(RatingAnchor, EveryPlayerAnchored) {
    // Nothing to fit but the advantage: A moved first in the wins.
    const std::vector<GameResult> games = {
        {0, 1, 1.0, 6}, {0, 1, 0.0, 2}, {1, 0, 1.0, 5}, {1, 0, 0.0, 3}};
    FitOptions options;
    options.anchors = {{"A", 100.0}, {"B", 0.0}};
    const EloFit fit = fit_elo({"A", "B"}, games, options);
    EXPECT_EQ(fit.ratings[0], 100.0);
    EXPECT_EQ(fit.ratings[1], 0.0);
    EXPECT_EQ(fit.errors[0], 0.0);
    EXPECT_EQ(fit.errors[1], 0.0);
    const double adv = argmax(
        [&](double a) {
            return log_likelihood(games, {100.0, 0.0}, a);
        },
        -1000.0, 1000.0);
    EXPECT_NEAR(fit.advantage, adv, 1e-4);
    EXPECT_GT(fit.advantage_error, 0.0);
}

TEST(RatingAnchor, BadAnchorsAreNamed) {
    const Sample s = load_sample();
    const auto message = [&](const std::vector<Anchor>& anchors) {
        FitOptions options;
        options.anchors = anchors;
        try {
            (void)fit_elo(s.names, s.games, options);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no exception");
    };
    EXPECT_EQ(message({{"Alpha", 0.0}, {"Nobody", 1.0}}), "fit_elo: unknown anchor 'Nobody'");
    EXPECT_EQ(message({{"Alpha", 0.0}, {"Bravo", 1.0}, {"Alpha", 0.0}}),
              "fit_elo: anchor 'Alpha' is given twice");
    EXPECT_EQ(message({{"Bravo", std::numeric_limits<double>::infinity()}}),
              "fit_elo: the rating of anchor 'Bravo' must be finite");
}

TEST(RatingLos, SymmetricAndConsistent) {
    const Sample s = load_sample();
    const EloFit fit = fit_elo(s.names, s.games);
    const auto m = los_matrix(fit);
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        EXPECT_EQ(fit.los(i, i), 0.5);
        for (std::size_t j = 0; j < s.names.size(); ++j) {
            EXPECT_NEAR(fit.los(i, j) + fit.los(j, i), 1.0, 1e-12);
            EXPECT_NEAR(m[i][j], fit.los(i, j), 1e-12);
            EXPECT_NEAR(fit.covariance(i, j), fit.covariance(j, i), 1e-9);
            if (fit.ratings[i] > fit.ratings[j]) {
                EXPECT_GT(fit.los(i, j), 0.5);
            }
        }
    }
    // Centred covariances: each row sums to zero.
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        double row = 0.0;
        for (std::size_t j = 0; j < s.names.size(); ++j)
            row += fit.covariance(i, j);
        EXPECT_NEAR(row, 0.0, 1e-6);
    }
}

TEST(RatingInput, RejectsBadGames) {
    const std::vector<std::string> names = {"A", "B"};
    EXPECT_THROW((void)fit_elo(names, {{0, 2, 1.0}}), std::invalid_argument);
    EXPECT_THROW((void)fit_elo(names, {{-1, 0, 1.0}}), std::invalid_argument);
    EXPECT_THROW((void)fit_elo(names, {{1, 1, 1.0}}), std::invalid_argument);
    EXPECT_THROW((void)fit_elo(names, {{0, 1, 1.5}}), std::invalid_argument);
    EXPECT_THROW((void)fit_elo(names, {{0, 1, std::nan("")}}), std::invalid_argument);
    EXPECT_THROW((void)summarize_games(names, {{0, 5, 1.0}}), std::invalid_argument);
    FitOptions bad_prior;
    bad_prior.prior_draws = 0.0;
    EXPECT_THROW((void)fit_elo(names, {}, bad_prior), std::invalid_argument);
}

// The sample's games counted by (first, second, score) fit and summarize
// exactly as the games one by one.
TEST(RatingInput, CountedGamesEqualTheGamesOneByOne) {
    const Sample s = load_sample();
    std::map<std::tuple<int, int, double>, std::int64_t> counts;
    for (const GameResult& g : s.games)
        ++counts[{g.first, g.second, g.score}];
    std::vector<GameResult> counted;
    for (const auto& [key, n] : counts)
        counted.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), n});
    ASSERT_LT(counted.size(), s.games.size() / 10);
    const EloFit one = fit_elo(s.names, s.games);
    const EloFit many = fit_elo(s.names, counted);
    for (std::size_t i = 0; i < s.names.size(); ++i) {
        EXPECT_NEAR(one.ratings[i], many.ratings[i], 1e-6);
        EXPECT_NEAR(one.errors[i], many.errors[i], 1e-6);
    }
    EXPECT_NEAR(one.advantage, many.advantage, 1e-6);
    EXPECT_NEAR(one.dispersion, many.dispersion, 1e-9);
    EXPECT_NEAR(one.log_likelihood, many.log_likelihood, 1e-6);
    const auto a = summarize_games(s.names, s.games);
    const auto b = summarize_games(s.names, counted);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].total.wins, b[i].total.wins);
        EXPECT_EQ(a[i].total.draws, b[i].total.draws);
        EXPECT_EQ(a[i].as_first.losses, b[i].as_first.losses);
        EXPECT_EQ(a[i].as_second.games, b[i].as_second.games);
    }
    EXPECT_THROW((void)fit_elo(s.names, {{0, 1, 1.0, 0}}), std::invalid_argument);
}

TEST(RatingSummary, CountsPerSide) {
    const std::vector<GameResult> games = {
        {0, 1, 1.0},  // A first, wins
        {1, 0, 0.5},  // B first, draw
        {0, 2, 0.0},  // A first, loses to C
        {2, 1, 1.0},  // C first, beats B
    };
    const auto summary = summarize_games({"A", "B", "C"}, games);
    ASSERT_EQ(summary.size(), 3u);
    const PlayerSummary& a = summary[0];
    EXPECT_EQ(a.name, "A");
    EXPECT_EQ(a.total.games, 3);
    EXPECT_EQ(a.total.wins, 1);
    EXPECT_EQ(a.total.draws, 1);
    EXPECT_EQ(a.total.losses, 1);
    EXPECT_DOUBLE_EQ(a.total.points(), 1.5);
    EXPECT_DOUBLE_EQ(a.total.score(), 0.5);
    EXPECT_EQ(a.as_first.games, 2);
    EXPECT_EQ(a.as_first.wins, 1);
    EXPECT_EQ(a.as_first.losses, 1);
    EXPECT_EQ(a.as_second.games, 1);
    EXPECT_EQ(a.as_second.draws, 1);
    const PlayerSummary& b = summary[1];
    EXPECT_EQ(b.total.games, 3);
    EXPECT_EQ(b.total.losses, 2);
    EXPECT_EQ(b.total.draws, 1);
    EXPECT_EQ(b.as_first.games, 1);
    EXPECT_EQ(b.as_second.games, 2);
    EXPECT_EQ(b.as_second.losses, 2);
    EXPECT_DOUBLE_EQ(b.total.score(), 0.5 / 3.0);
    const PlayerSummary& c = summary[2];
    EXPECT_EQ(c.total.wins, 2);
    EXPECT_EQ(c.as_first.wins, 1);
    EXPECT_EQ(c.as_second.wins, 1);
    EXPECT_DOUBLE_EQ(SideRecord{}.score(), 0.0);

    // The sample: totals agree with Ordo's POINTS and PLAYED columns.
    const Sample s = load_sample();
    const auto sample = summarize_games(s.names, s.games);
    ASSERT_EQ(sample[0].name, "Alpha");
    EXPECT_DOUBLE_EQ(sample[0].total.points(), 470.0);
    EXPECT_EQ(sample[0].total.games, 560);
    for (const PlayerSummary& p : sample) {
        EXPECT_EQ(p.total.games, p.as_first.games + p.as_second.games);
        EXPECT_EQ(p.total.games, p.total.wins + p.total.draws + p.total.losses);
    }
    EXPECT_EQ(sample[2].name, "Charlie");
    EXPECT_EQ(sample[2].total.games, 1200);
    EXPECT_DOUBLE_EQ(sample[2].total.points(), 663.0);
}

TEST(RatingCsv, ReadsGames) {
    std::istringstream in(
        "white,black,result\n"
        "Alpha,Bravo,1-0\n"
        "\n"
        "  Bravo , Alpha , 1/2-1/2 \r\n"
        "Charlie,Alpha,0-1\n");
    std::vector<std::string> names = {"Zulu"};
    const auto games = read_games_csv(in, names);
    ASSERT_EQ(names, (std::vector<std::string>{"Zulu", "Alpha", "Bravo", "Charlie"}));
    ASSERT_EQ(games.size(), 3u);
    EXPECT_EQ(games[0].first, 1);
    EXPECT_EQ(games[0].second, 2);
    EXPECT_EQ(games[0].score, 1.0);
    EXPECT_EQ(games[1].first, 2);
    EXPECT_EQ(games[1].score, 0.5);
    EXPECT_EQ(games[2].first, 3);
    EXPECT_EQ(games[2].second, 1);
    EXPECT_EQ(games[2].score, 0.0);

    std::istringstream headerless("A,B,0-1\n");
    std::vector<std::string> fresh;
    EXPECT_EQ(read_games_csv(headerless, fresh).size(), 1u);
}

std::string csv_error(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> names;
    try {
        (void)read_games_csv(in, names);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "no error";
}

TEST(RatingCsv, ErrorsNameTheLine) {
    EXPECT_EQ(csv_error("white,black,result\nA,B,1-0\nA,B\n"),
              "line 3: expected 3 comma-separated fields (white,black,result), got 2");
    EXPECT_EQ(csv_error("A,B,1-0\n\nA,B,2-0\n"),
              "line 3: unknown result '2-0' (expected 1-0, 0-1 or 1/2-1/2)");
    EXPECT_EQ(csv_error("A,A,1-0\n"), "line 1: 'A' cannot play itself");
    EXPECT_EQ(csv_error("A,B,1-0\n,B,1-0\n"), "line 2: empty player name");
    EXPECT_EQ(csv_error("A,B,1-0,extra\n"),
              "line 1: expected 3 comma-separated fields (white,black,result), got 4");
    // The header is only allowed first.
    EXPECT_EQ(csv_error("A,B,1-0\nwhite,black,result\n"),
              "line 2: unknown result 'result' (expected 1-0, 0-1 or 1/2-1/2)");
}

TEST(RatingScale, ManyPlayersFitQuickly) {
    constexpr int kPlayers = 200;
    constexpr int kGames = 100000;
    std::mt19937_64 rng(2024);
    std::vector<double> truth(kPlayers);
    std::vector<std::string> names(kPlayers);
    for (int i = 0; i < kPlayers; ++i) {
        truth[i] = 600.0 * (uniform(rng) - 0.5);
        names[i] = "bot" + std::to_string(i);
    }
    std::vector<GameResult> games;
    games.reserve(kGames);
    while (games.size() < static_cast<std::size_t>(kGames)) {
        const int i = static_cast<int>(rng() % kPlayers);
        const int j = static_cast<int>(rng() % kPlayers);
        if (i == j) continue;
        const double p = expected(truth[i] + 40.0 - truth[j]);
        const double u = uniform(rng);
        games.push_back({i, j, u < p ? 1.0 : 0.0});
    }
    const auto start = std::chrono::steady_clock::now();
    const EloFit fit = fit_elo(names, games);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::cout << kPlayers << " players, " << kGames << " games: " << took.count() << " s, "
              << fit.iterations << " Newton iterations\n";
    EXPECT_FALSE(fit.rating_prior);
    EXPECT_FALSE(fit.advantage_prior);
    EXPECT_TRUE(all_finite(fit));
    EXPECT_EQ(fit.dispersion, 1.0);  // no draws
    EXPECT_NEAR(fit.advantage, 40.0, 1.5 * fit.advantage_error);
    double mean = 0.0, sq = 0.0;
    for (double t : truth)
        mean += t / kPlayers;
    for (int i = 0; i < kPlayers; ++i)
        sq += std::pow(fit.ratings[i] - (truth[i] - mean), 2);
    // Typical error about 25 Elo (1000 games per player).
    EXPECT_LT(std::sqrt(sq / kPlayers), 40.0);
}

}  // namespace
}  // namespace arena::rating
