#include "arena/rating/sprt.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "arena/rating/head_to_head.hpp"

namespace arena::rating {
namespace {

constexpr double kZeroCount = 1e-3;
constexpr double kNeloPerT = 800.0 / std::numbers::ln10;

// The reweighting p_i = w_i / (1 + x v_i) whose x solves
// sum_i w_i v_i / (1 + x v_i) = 0 with every 1 + x v_i > 0, for weights
// w_i > 0 and values v_i of both signs; std::nullopt when the v_i are not of
// both signs (no such x). The sum falls strictly from +infinity to -infinity
// between the poles -1/max v and -1/min v, so the root is unique; it has
// the sign of the sum at x = 0, and lies between 0 and the pole on that
// side, where the v_k nearest the pole is v_k = min v (x > 0) or max v.
//
// The root may lie extremely close to the pole (when the hypothesis needs a
// score that was almost never seen), where 1 + x v_k would lose all its
// digits. So x is written x = -(1 - y) / v_k with y in (0, 1]: then
// 1 + x v_k = y exactly and 1 + x v_i = 1 - (1 - y) v_i / v_k, and the
// root is found by bisection on ln y.
std::optional<std::vector<double>> reweight_to_root(std::span<const double> w,
                                                    std::span<const double> v) {
    const auto [lowest, highest] = std::minmax_element(v.begin(), v.end());
    if (!(*highest > 0.0 && *lowest < 0.0)) return std::nullopt;
    std::vector<double> q(v.size(), 1.0);  // 1 + x v_i
    const auto sum_at = [&](const std::vector<double>& denominators) {
        double f = 0.0;
        for (std::size_t i = 0; i < v.size(); ++i)
            f += w[i] * v[i] / denominators[i];
        return f;
    };
    const double at_zero = sum_at(q);
    if (at_zero != 0.0) {
        const double vk = at_zero > 0.0 ? *lowest : *highest;
        const auto set = [&](double y) {
            for (std::size_t i = 0; i < v.size(); ++i)
                q[i] = v[i] == vk ? y : 1.0 - (1.0 - y) * (v[i] / vk);
        };
        // The sum keeps the sign of at_zero from ln y = 0 down to the root.
        double keep = 0.0, flip = -745.0;  // ln y; exp(-745) is the least double
        for (int iteration = 0; iteration < 200 && keep - flip > 1e-15 * -flip; ++iteration) {
            const double mid = 0.5 * (keep + flip);
            set(std::exp(mid));
            if ((sum_at(q) > 0.0) == (at_zero > 0.0)) {
                keep = mid;
            } else {
                flip = mid;
            }
        }
        set(std::exp(0.5 * (keep + flip)));
    }
    std::vector<double> p(w.size());
    for (std::size_t i = 0; i < p.size(); ++i)
        p[i] = w[i] / q[i];
    return p;
}

void check_counts(std::span<const std::int64_t> counts) {
    for (const auto c : counts)
        if (c < 0) throw std::invalid_argument("a count is negative");
}

SprtResult run(std::span<const double> counts, const SprtOptions& o) {
    if (const std::string problem = sprt_options_problem(o); !problem.empty())
        throw std::invalid_argument(problem);
    SprtResult r;
    r.lower = std::log(o.beta / (1.0 - o.alpha));
    r.upper = std::log((1.0 - o.beta) / o.alpha);
    r.llr = gsprt_llr(counts, o.elo0, o.elo1, o.model);
    r.decision = r.llr >= r.upper   ? SprtDecision::accept_h1
                 : r.llr <= r.lower ? SprtDecision::accept_h0
                                    : SprtDecision::continue_testing;
    return r;
}

// The maximum likelihood under (mean - 1/2) / sd = t, by the fixed-point
// iteration below from `start`; std::nullopt when it fails.
//
// Constraint g(p) = mu - 1/2 - t sigma = 0 with mu = sum p_i a_i and
// sigma^2 = sum p_i (a_i - mu)^2. On the simplex, dg/dp_i is
// a_i - t (a_i - mu)^2 / (2 sigma) up to a constant, so the Lagrange
// conditions read w_i / p_i = 1 + x v_i with
//     v_i = a_i - 1/2 - t (sigma^2 + (a_i - mu)^2) / (2 sigma),
// the constant chosen so that sum p_i v_i = g(p) = 0 at the solution. v
// depends on p through mu and sigma: each step solves for x with mu and
// sigma of the previous p, until p stops changing. A step fails when no x
// exists (v of one sign: sigma of the previous p is far too small, e.g.
// from a start piled up on one score), and the whole when p does not settle
// or does not meet the constraint.
std::optional<std::vector<double>> t_value_fixed_point(std::span<const double> scores,
                                                       std::span<const double> observed, double t,
                                                       std::vector<double> p) {
    std::vector<double> v(scores.size());
    const auto moments = [&](const std::vector<double>& q) {
        double mu = 0.0, var = 0.0;
        for (std::size_t i = 0; i < q.size(); ++i)
            mu += q[i] * scores[i];
        for (std::size_t i = 0; i < q.size(); ++i)
            var += q[i] * (scores[i] - mu) * (scores[i] - mu);
        return std::pair{mu, var};
    };
    for (int iteration = 0; iteration < 2000; ++iteration) {
        const auto [mu, var] = moments(p);
        const double sigma = std::sqrt(var);
        if (!(sigma > 0.0)) return std::nullopt;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const double d = scores[i] - mu;
            v[i] = scores[i] - 0.5 - t * (var + d * d) / (2.0 * sigma);
        }
        auto reweighted = reweight_to_root(observed, v);
        if (!reweighted) return std::nullopt;
        std::vector<double> next = std::move(*reweighted);
        double change = 0.0;
        for (std::size_t i = 0; i < p.size(); ++i)
            change += observed[i] * std::abs(next[i] - p[i]) / next[i];
        p = std::move(next);
        // The change of sum w_i ln p_i, which the LLR is made of, not of p
        // itself: near a pole of x (a score almost never seen but needed by
        // the hypothesis) rounding keeps the smallest p_i cycling in their
        // seventh digit, which moves the LLR by far less than 1e-13 N.
        if (change < 1e-13) {
            const auto [m, s2] = moments(p);
            if (std::abs(m - 0.5 - t * std::sqrt(s2)) > 1e-9) return std::nullopt;
            return p;
        }
    }
    return std::nullopt;
}

}  // namespace

std::vector<double> constrained_mean(std::span<const double> scores,
                                     std::span<const double> observed, double mean) {
    // Maximise sum w_i ln p_i with sum p_i = 1 and sum p_i (a_i - mean) = 0:
    // the Lagrange conditions give w_i / p_i = 1 + x (a_i - mean), and the
    // second constraint is then sum w_i (a_i - mean) / (1 + x (a_i - mean))
    // = 0 (which also makes the p_i sum to 1).
    std::vector<double> v(scores.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = scores[i] - mean;
    auto p = reweight_to_root(observed, v);
    if (!p) throw std::invalid_argument("the expected score must be strictly between 0 and 1");
    return std::move(*p);
}

std::vector<double> constrained_t_value(std::span<const double> scores,
                                        std::span<const double> observed, double t) {
    // From the uniform distribution straight to t; when that fails, along
    // a path of t-values from 0 (where the constraint is on the mean alone),
    // each solution the start of the next, the step halved on failure.
    const std::vector<double> uniform(observed.size(), 1.0 / static_cast<double>(observed.size()));
    if (auto p = t_value_fixed_point(scores, observed, t, uniform)) return *p;
    std::vector<double> p = constrained_mean(scores, observed, 0.5);
    double reached = 0.0, step = t / 16.0;
    while (reached != t) {
        const double next = std::abs(t - reached) <= std::abs(step) ? t : reached + step;
        if (auto q = t_value_fixed_point(scores, observed, next, p)) {
            p = std::move(*q);
            reached = next;
            step *= 2.0;
        } else {
            step /= 2.0;
            if (std::abs(step) < 1e-9 * std::abs(t)) {
                throw std::invalid_argument(
                    "the maximum likelihood under a hypothesis was not found (t-value " +
                    std::to_string(t) + ")");
            }
        }
    }
    return p;
}

double gsprt_llr(std::span<const double> counts, double elo0, double elo1, SprtModel model) {
    if (counts.size() != 3 && counts.size() != 5) {
        throw std::invalid_argument("expected 3 or 5 counts, got " + std::to_string(counts.size()));
    }
    std::vector<double> n(counts.begin(), counts.end()), scores(counts.size());
    double total = 0.0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        n[i] = std::max(n[i], kZeroCount);
        total += n[i];
        scores[i] = static_cast<double>(i) / static_cast<double>(n.size() - 1);
    }
    std::vector<double> observed(n.size());
    for (std::size_t i = 0; i < n.size(); ++i)
        observed[i] = n[i] / total;
    const auto fit = [&](double elo) {
        if (model == SprtModel::logistic) {
            return constrained_mean(scores, observed, elo_to_score(elo));
        }
        const double pair_factor = n.size() == 5 ? std::numbers::sqrt2 : 1.0;
        return constrained_t_value(scores, observed, elo / kNeloPerT * pair_factor);
    };
    const std::vector<double> p0 = fit(elo0), p1 = fit(elo1);
    double llr = 0.0;
    for (std::size_t i = 0; i < n.size(); ++i)
        llr += observed[i] * (std::log(p1[i]) - std::log(p0[i]));
    return total * llr;
}

SprtResult sprt(const Pentanomial& counts, const SprtOptions& options) {
    check_counts(counts.bins);
    std::vector<double> c;
    for (const auto b : counts.bins)
        c.push_back(static_cast<double>(b));
    return run(c, options);
}

SprtResult sprt(const Trinomial& counts, const SprtOptions& options) {
    const std::int64_t bins[] = {counts.losses, counts.draws, counts.wins};
    check_counts(bins);
    std::vector<double> c;
    for (const auto b : bins)
        c.push_back(static_cast<double>(b));
    return run(c, options);
}

std::optional<SprtModel> parse_sprt_model(std::string_view name) {
    if (name == "normalized") return SprtModel::normalized;
    if (name == "logistic") return SprtModel::logistic;
    return std::nullopt;
}

std::string sprt_options_problem(const SprtOptions& o, std::string_view prefix) {
    const std::string p(prefix);
    if (!std::isfinite(o.elo0) || !std::isfinite(o.elo1))
        return p + "elo0 and " + p + "elo1 must be finite numbers";
    if (!(o.elo0 < o.elo1)) {
        char text[128];
        std::snprintf(text, sizeof text, "elo0 (%.2f) must be below %selo1 (%.2f)", o.elo0,
                      p.c_str(), o.elo1);
        return p + text;
    }
    if (!(o.alpha > 0.0 && o.alpha < 1.0)) return p + "alpha must be in (0, 1)";
    if (!(o.beta > 0.0 && o.beta < 1.0)) return p + "beta must be in (0, 1)";
    if (!(o.alpha + o.beta < 1.0)) return p + "alpha + " + p + "beta must be below 1";
    return {};
}

std::string_view decision_name(SprtDecision d) {
    switch (d) {
        case SprtDecision::accept_h0:
            return "H0";
        case SprtDecision::accept_h1:
            return "H1";
        case SprtDecision::continue_testing:
            break;
    }
    return "continue";
}

}  // namespace arena::rating
