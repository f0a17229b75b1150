#include "bench/sprt_model.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

#include "arena/rating/head_to_head.hpp"

namespace arena::bench {
namespace {

constexpr double kNeloPerT = 800.0 / std::numbers::ln10;

// The advantage's quadrature: nodes every 0.05 standard deviations over
// +/-6 of them, weighted by the normal density.
constexpr int kNodes = 241;
constexpr double kReach = 6.0;

std::string compact(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return text;
}

}  // namespace

std::string setting_problem(const GameSetting& s) {
    if (!(s.first_score > 0.0 && s.first_score < 1.0)) return "first-score must be in (0, 1)";
    if (!(s.draw_rate >= 0.0 && s.draw_rate < 1.0)) return "draw-rate must be in [0, 1)";
    if (!(s.spread >= 0.0) || !std::isfinite(s.spread))
        return "spread must be a finite number of at least 0";
    const double most = 2.0 * s.first_score * (1.0 - s.first_score);
    if (s.draw_rate > most) {
        return "draw-rate " + compact(s.draw_rate) + " is more than first-score " +
               compact(s.first_score) + " allows (at most 2 f (1 - f) = " + compact(most) + ")";
    }
    return {};
}

PairModel::PairModel(const GameSetting& setting, double strength)
    : strength_(strength),
      advantage_(rating::score_to_elo(setting.first_score)),
      draw_factor_(setting.draw_rate / (4.0 * setting.first_score * (1.0 - setting.first_score))),
      spread_(setting.spread) {
    if (const std::string problem = setting_problem(setting); !problem.empty())
        throw std::invalid_argument(problem);
    if (!std::isfinite(strength)) throw std::invalid_argument("the strength must be finite");
}

GameOdds PairModel::odds(double advantage, bool a_first) const {
    const double e = rating::elo_to_score(a_first ? strength_ + advantage : strength_ - advantage);
    const double draw = draw_factor_ * 4.0 * e * (1.0 - e);
    GameOdds o;
    o.draw = draw;
    o.win = std::max(0.0, e - 0.5 * draw);
    o.loss = std::max(0.0, 1.0 - e - 0.5 * draw);
    return o;
}

std::vector<std::pair<double, double>> PairModel::advantages() const {
    if (spread_ == 0.0) return {{advantage_, 1.0}};
    std::vector<std::pair<double, double>> nodes;
    double total = 0.0;
    for (int i = 0; i < kNodes; ++i) {
        const double z = -kReach + 2.0 * kReach * i / (kNodes - 1);
        const double w = std::exp(-0.5 * z * z);
        nodes.emplace_back(advantage_ + spread_ * z, w);
        total += w;
    }
    for (auto& [a, w] : nodes)
        w /= total;
    return nodes;
}

std::array<double, 5> PairModel::pair_distribution() const {
    std::array<double, 5> p{};
    for (const auto& [a, w] : advantages()) {
        const GameOdds f = odds(a, true), s = odds(a, false);
        p[0] += w * f.loss * s.loss;
        p[1] += w * (f.loss * s.draw + f.draw * s.loss);
        p[2] += w * (f.draw * s.draw + f.win * s.loss + f.loss * s.win);
        p[3] += w * (f.win * s.draw + f.draw * s.win);
        p[4] += w * f.win * s.win;
    }
    return p;
}

std::array<double, 3> PairModel::game_distribution() const {
    std::array<double, 3> g{};
    for (const auto& [a, w] : advantages()) {
        for (const bool first : {true, false}) {
            const GameOdds o = odds(a, first);
            g[0] += 0.5 * w * o.loss;
            g[1] += 0.5 * w * o.draw;
            g[2] += 0.5 * w * o.win;
        }
    }
    return g;
}

Truth truth(const PairModel& model) {
    Truth t;
    t.pairs = model.pair_distribution();
    t.games = model.game_distribution();
    double s = 0.0;
    for (std::size_t i = 0; i < 5; ++i)
        s += t.pairs[i] * static_cast<double>(i) / 4.0;
    double var_pairs = 0.0, var_games = 0.0;
    for (std::size_t i = 0; i < 5; ++i) {
        const double d = static_cast<double>(i) / 4.0 - s;
        var_pairs += t.pairs[i] * d * d;
    }
    for (std::size_t j = 0; j < 3; ++j) {
        const double d = static_cast<double>(j) / 2.0 - s;
        var_games += t.games[j] * d * d;
    }
    t.score = s;
    t.elo = rating::score_to_elo(s);
    t.nelo_pairs = var_pairs > 0.0 ? (s - 0.5) / std::sqrt(2.0 * var_pairs) * kNeloPerT : 0.0;
    t.nelo_games = var_games > 0.0 ? (s - 0.5) / std::sqrt(var_games) * kNeloPerT : 0.0;
    t.draw_rate = t.games[1];
    t.even_pairs = t.pairs[2];
    return t;
}

double strength_for(const GameSetting& setting, double target, rating::SprtModel scale) {
    if (target == 0.0) return 0.0;  // equal bots: the colours cancel out
    const auto measure = [&](double strength) {
        const Truth t = truth(PairModel(setting, strength));
        return scale == rating::SprtModel::logistic ? t.elo : t.nelo_pairs;
    };
    // Both measures rise with the strength; bisect between two bounds that
    // bracket the target.
    double low = -100.0, high = 100.0;
    while (measure(low) > target)
        low *= 2.0;
    while (measure(high) < target) {
        high *= 2.0;
        if (high > 1e5) throw std::invalid_argument("the target Elo cannot be reached");
    }
    for (int i = 0; i < 200 && high - low > 1e-9; ++i) {
        const double mid = 0.5 * (low + high);
        (measure(mid) < target ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

SimulatedTest simulate_test(const PairModel& model, const rating::SprtOptions& options,
                            std::int64_t max_games, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    rating::Pentanomial pairs;
    rating::Trinomial games;
    SimulatedTest out;
    bool penta_done = false, tri_done = false;
    std::int64_t played = 0;
    while (played + 2 <= max_games && !(penta_done && tri_done)) {
        const auto scores = model.draw_pair(rng);
        for (const double score : scores) {
            ++played;
            (score == 1.0 ? games.wins : score == 0.0 ? games.losses : games.draws) += 1;
            if (tri_done) continue;
            const auto r = rating::sprt(games, options);
            if (r.decision != rating::SprtDecision::continue_testing) {
                out.trinomial = {r.decision, played};
                tri_done = true;
            }
        }
        ++pairs.bins[static_cast<std::size_t>(std::lround(2.0 * (scores[0] + scores[1])))];
        if (penta_done) continue;
        const auto r = rating::sprt(pairs, options);
        if (r.decision != rating::SprtDecision::continue_testing) {
            out.pentanomial = {r.decision, played};
            penta_done = true;
        }
    }
    if (!penta_done) out.pentanomial.games = played;
    if (!tri_done) out.trinomial.games = played;
    return out;
}

Replay replay(std::span<const double> scores, const rating::SprtOptions& options) {
    Replay out;
    rating::Pentanomial pairs;
    rating::Trinomial games;
    const auto test = [](ReplayOutcome& o, const rating::SprtResult& r, std::int64_t played) {
        o.llr = r.llr;
        o.decision = r.decision;
        if (r.decision != rating::SprtDecision::continue_testing) o.games = played;
    };
    double first = 0.0;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        const double score = scores[i];
        if (score != 0.0 && score != 0.5 && score != 1.0) {
            throw std::invalid_argument("game " + std::to_string(i + 1) + ": the score " +
                                        std::to_string(score) + " is not 0, 1/2 or 1");
        }
        const auto played = static_cast<std::int64_t>(i) + 1;
        (score == 1.0 ? games.wins : score == 0.0 ? games.losses : games.draws) += 1;
        if (!out.trinomial.games) test(out.trinomial, rating::sprt(games, options), played);
        if (i % 2 == 0) {
            first = score;
            continue;
        }
        ++pairs.bins[static_cast<std::size_t>(std::lround(2.0 * (first + score)))];
        if (!out.pentanomial.games) test(out.pentanomial, rating::sprt(pairs, options), played);
    }
    out.games = static_cast<std::int64_t>(scores.size());
    return out;
}

}  // namespace arena::bench
