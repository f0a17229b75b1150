#include "arena/rating/head_to_head.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>

#include "arena/rating/elo.hpp"

namespace arena::rating {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// nElo per unit of t-value: 800 / ln 10.
constexpr double kNeloPerT = 800.0 / std::numbers::ln10;

double normal_cdf(double z) {
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

// The statistics of a distribution on the equally spaced scores
// 0, 1/(k-1), ..., 1 with the given counts; `games_per_unit` is 2 for pairs.
HeadToHead statistics(std::span<const std::int64_t> counts, double games_per_unit) {
    double n = 0.0;
    for (const auto c : counts) {
        if (c < 0) throw std::invalid_argument("a count is negative");
        n += static_cast<double>(c);
    }
    if (n == 0.0) throw std::invalid_argument("no games counted");
    const double step = 1.0 / static_cast<double>(counts.size() - 1);
    double mean = 0.0;
    for (std::size_t i = 0; i < counts.size(); ++i)
        mean += static_cast<double>(counts[i]) / n * step * static_cast<double>(i);
    double var = 0.0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const double d = step * static_cast<double>(i) - mean;
        var += static_cast<double>(counts[i]) / n * d * d;
    }
    HeadToHead h;
    h.units = n;
    h.score = mean;
    h.variance = var;
    const double se = std::sqrt(var / n);  // standard error of the mean score
    h.elo = score_to_elo(mean);
    h.elo_lower = score_to_elo(std::clamp(mean - kZ95 * se, 0.0, 1.0));
    h.elo_upper = score_to_elo(std::clamp(mean + kZ95 * se, 0.0, 1.0));
    h.elo_error = (h.elo_upper - h.elo_lower) / 2.0;
    if (std::isnan(h.elo_error)) h.elo_error = kInfinity;  // inf - inf
    const double sigma = std::sqrt(games_per_unit * var);  // per game
    if (sigma > 0.0) {
        h.nelo = (mean - 0.5) / sigma * kNeloPerT;
        h.los = normal_cdf((mean - 0.5) / se);
    } else {
        h.nelo = mean > 0.5 ? kInfinity : mean < 0.5 ? -kInfinity : 0.0;
        h.los = mean > 0.5 ? 1.0 : mean < 0.5 ? 0.0 : 0.5;
    }
    // (s +/- z se - 1/2) / sigma: the same half-width whatever var is.
    h.nelo_error = kZ95 * kNeloPerT / std::sqrt(games_per_unit * n);
    return h;
}

}  // namespace

double score_to_elo(double score) {
    if (score <= 0.0) return -kInfinity;
    if (score >= 1.0) return kInfinity;
    return -400.0 * std::log10(1.0 / score - 1.0);
}

double elo_to_score(double elo) {
    return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

HeadToHead head_to_head(const Pentanomial& counts) {
    HeadToHead h = statistics(counts.bins, 2.0);
    h.pentanomial = true;
    const auto& b = counts.bins;
    h.draw_ratio = static_cast<double>(b[2]) / h.units;
    const auto good = static_cast<double>(b[3] + b[4]);
    const auto bad = static_cast<double>(b[0] + b[1]);
    h.pairs_ratio = bad > 0.0 ? good / bad : good > 0.0 ? kInfinity : 1.0;
    return h;
}

HeadToHead head_to_head(const Trinomial& counts) {
    const std::int64_t bins[] = {counts.losses, counts.draws, counts.wins};
    HeadToHead h = statistics(bins, 1.0);
    h.pentanomial = false;
    h.draw_ratio = static_cast<double>(counts.draws) / h.units;
    h.pairs_ratio = 1.0;
    return h;
}

}  // namespace arena::rating
