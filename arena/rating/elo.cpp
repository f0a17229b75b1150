#include "arena/rating/elo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "arena/rating/linear_algebra.hpp"

namespace arena::rating {
namespace {

// Internally ratings are in natural-log units: p = sigmoid(r_i + adv - r_j).
constexpr double kEloPerNat = 400.0 / std::numbers::ln10;

// Newton's method. A step is capped at kMaxStep (about 700 Elo) so that a
// far-off start cannot overshoot into flat tails; convergence is a step
// below kTolerance (2e-4 Elo), after which the error is far smaller still
// (quadratic convergence), or a predicted error below kFinalError (2e-7
// Elo).
//
// When the maximum is at infinity or not unique the fit fails and is retried
// with a prior. Ratings alone cannot run off once Ford's condition holds (it
// is checked first, exactly), so failure shows as a singular Hessian (a
// direction with no information), as a fitted advantage beyond
// kAdvantageLimit (about 2600 Elo: a first mover scoring all but 3e-7
// against an equal; Newton walks there about 170 Elo per iteration when the
// maximum is at infinity), or as no convergence in kMaxIterations.
constexpr int kMaxIterations = 100;
constexpr double kMaxStep = 4.0;
constexpr double kTolerance = 1e-6;
constexpr double kFinalError = 1e-9;
constexpr double kAdvantageLimit = 15.0;

// Games between one ordered pair of players, aggregated: the likelihood only
// depends on the number of games and the points of the first mover.
struct Pair {
    int first = 0;
    int second = 0;
    double games = 0.0;
    double points = 0.0;  // of `first`
    bool uses_advantage = true;
};

double sigmoid(double x) {
    if (x >= 0.0) return 1.0 / (1.0 + std::exp(-x));
    const double e = std::exp(x);
    return e / (1.0 + e);
}

double log_sigmoid(double x) {
    return x >= 0.0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
}

void validate(const std::vector<std::string>& names, const std::vector<GameResult>& games) {
    const auto n = static_cast<std::int64_t>(names.size());
    for (std::size_t g = 0; g < games.size(); ++g) {
        const GameResult& game = games[g];
        const auto where = [&] { return "game " + std::to_string(g) + ": "; };
        if (game.first < 0 || game.first >= n || game.second < 0 || game.second >= n) {
            throw std::invalid_argument(where() + "player index out of range");
        }
        if (game.first == game.second) {
            throw std::invalid_argument(where() + "a player cannot play itself");
        }
        if (!(game.score >= 0.0 && game.score <= 1.0)) {
            throw std::invalid_argument(where() + "score must be in [0, 1]");
        }
        if (game.count < 1) throw std::invalid_argument(where() + "count must be at least 1");
    }
}

std::vector<Pair> aggregate(int n, const std::vector<GameResult>& games) {
    std::vector<Pair> pairs;
    const auto cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    if (cells <= std::max<std::size_t>(std::size_t{1} << 20, 4 * games.size())) {
        std::vector<double> count(cells, 0.0), points(cells, 0.0);
        for (const GameResult& g : games) {
            const std::size_t cell = static_cast<std::size_t>(g.first) * n + g.second;
            const auto times = static_cast<double>(g.count);
            count[cell] += times;
            points[cell] += times * g.score;
        }
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                const std::size_t cell = static_cast<std::size_t>(i) * n + j;
                if (count[cell] > 0.0) pairs.push_back({i, j, count[cell], points[cell], true});
            }
        }
        return pairs;
    }
    std::vector<GameResult> sorted = games;
    std::sort(sorted.begin(), sorted.end(), [](const GameResult& a, const GameResult& b) {
        return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    for (const GameResult& g : sorted) {
        if (pairs.empty() || pairs.back().first != g.first || pairs.back().second != g.second) {
            pairs.push_back({g.first, g.second, 0.0, 0.0, true});
        }
        const auto times = static_cast<double>(g.count);
        pairs.back().games += times;
        pairs.back().points += times * g.score;
    }
    return pairs;
}

// Ford's condition: with the advantage fixed, the maximum likelihood ratings
// exist and are unique (up to a common shift) exactly when the graph with an
// edge i -> j whenever i scored something against j is strongly connected.
bool strongly_connected(int n, const std::vector<Pair>& pairs) {
    if (n <= 1) return true;
    std::vector<std::vector<int>> out(n), in(n);
    for (const Pair& p : pairs) {
        if (p.points > 0.0) {
            out[p.first].push_back(p.second);
            in[p.second].push_back(p.first);
        }
        if (p.points < p.games) {
            out[p.second].push_back(p.first);
            in[p.first].push_back(p.second);
        }
    }
    const auto reaches_all = [n](const std::vector<std::vector<int>>& edges) {
        std::vector<char> seen(n, 0);
        std::vector<int> stack{0};
        seen[0] = 1;
        int count = 1;
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            for (int w : edges[v]) {
                if (!seen[w]) {
                    seen[w] = 1;
                    ++count;
                    stack.push_back(w);
                }
            }
        }
        return count == n;
    };
    return reaches_all(out) && reaches_all(in);
}

// The maximisation problem: `players` ratings (the real ones, plus a virtual
// player when the rating prior is on), some of them held at given values
// (one reference at 0, or the anchors), and the advantage, fitted or fixed.
struct Problem {
    int players = 0;
    // Per player: its free variable, or -1 when it is held at held[player].
    std::vector<int> var;
    std::vector<double> held;  // natural units; read for held players only
    int free_players = 0;
    bool fit_advantage = true;
    double fixed_advantage = 0.0;  // natural units
    double advantage_prior = 0.0;  // weight in virtual draws; 0 = none
    std::vector<Pair> pairs;

    // Holds the players with a value, frees the others (players = values.size()).
    void hold(const std::vector<std::optional<double>>& values) {
        players = static_cast<int>(values.size());
        var.assign(values.size(), -1);
        held.assign(values.size(), 0.0);
        free_players = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (values[i]) {
                held[i] = *values[i];
            } else {
                var[i] = free_players++;
            }
        }
    }

    // Free variables: the ratings of the players not held, then the advantage.
    [[nodiscard]] int dimension() const { return free_players + (fit_advantage ? 1 : 0); }
    [[nodiscard]] int variable(int player) const { return var[static_cast<std::size_t>(player)]; }
    [[nodiscard]] int advantage_variable() const { return free_players; }
};

struct State {
    std::vector<double> r;  // natural units; held players at their values
    double advantage = 0.0;
};

double x_of(const Pair& p, const State& s) {
    return s.r[p.first] - s.r[p.second] + (p.uses_advantage ? s.advantage : 0.0);
}

double pair_log_likelihood(const Pair& p, double x) {
    return p.points * log_sigmoid(x) + (p.games - p.points) * log_sigmoid(-x);
}

// The objective (log-likelihood including the priors) at one point, its
// gradient over the free variables, and each pair's curvature
// games * p * (1 - p), from which the information matrix is assembled.
struct Evaluation {
    double value = 0.0;
    std::vector<double> grad;
    std::vector<double> curvature;
    double advantage_curvature = 0.0;  // of the advantage prior
};

void evaluate(const Problem& problem, const State& s, Evaluation& out) {
    out.value = 0.0;
    out.grad.assign(static_cast<std::size_t>(problem.dimension()), 0.0);
    out.curvature.resize(problem.pairs.size());
    const int av = problem.fit_advantage ? problem.advantage_variable() : -1;
    for (std::size_t k = 0; k < problem.pairs.size(); ++k) {
        const Pair& p = problem.pairs[k];
        const double x = x_of(p, s);
        // One exp and one log1p give sigmoid(x), log sigmoid(x) and log sigmoid(-x).
        const double e = std::exp(-std::abs(x));
        const double l = std::log1p(e);
        const double prob = x >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
        const double log_p = x >= 0.0 ? -l : x - l;
        const double log_q = x >= 0.0 ? -x - l : -l;
        out.value += p.points * log_p + (p.games - p.points) * log_q;
        const double g = p.points - p.games * prob;
        out.curvature[k] = p.games * prob * (1.0 - prob);
        const int vi = problem.variable(p.first);
        const int vj = problem.variable(p.second);
        if (vi >= 0) out.grad[vi] += g;
        if (vj >= 0) out.grad[vj] -= g;
        if (p.uses_advantage && av >= 0) out.grad[av] += g;
    }
    out.advantage_curvature = 0.0;
    if (problem.advantage_prior > 0.0 && av >= 0) {
        const double w = problem.advantage_prior;
        const double prob = sigmoid(s.advantage);
        out.value += 0.5 * w * (log_sigmoid(s.advantage) + log_sigmoid(-s.advantage));
        out.grad[av] += w * (0.5 - prob);
        out.advantage_curvature = w * prob * (1.0 - prob);
    }
}

// Upper triangle of minus the Hessian (the observed information), d x d
// row-major.
void information(const Problem& problem, const Evaluation& ev, std::vector<double>& info) {
    const auto d = static_cast<std::size_t>(problem.dimension());
    info.assign(d * d, 0.0);
    const int av = problem.fit_advantage ? problem.advantage_variable() : -1;
    const auto at = [&](int a, int b) -> double& {
        return a <= b ? info[static_cast<std::size_t>(a) * d + b]
                      : info[static_cast<std::size_t>(b) * d + a];
    };
    for (std::size_t k = 0; k < problem.pairs.size(); ++k) {
        const Pair& p = problem.pairs[k];
        const double h = ev.curvature[k];
        const int vi = problem.variable(p.first);
        const int vj = problem.variable(p.second);
        const int va = p.uses_advantage ? av : -1;
        if (vi >= 0) at(vi, vi) += h;
        if (vj >= 0) at(vj, vj) += h;
        if (vi >= 0 && vj >= 0) at(vi, vj) -= h;
        if (va >= 0) {
            at(va, va) += h;
            if (vi >= 0) at(va, vi) += h;
            if (vj >= 0) at(va, vj) -= h;
        }
    }
    if (av >= 0) at(av, av) += ev.advantage_curvature;
}

struct Solution {
    State state;
    std::vector<double> factor;  // Cholesky factor of the information at the optimum
};

// A starting point from each player's overall score, which saves Newton
// iterations over starting from zero.
State starting_point(const Problem& problem) {
    const auto m = static_cast<std::size_t>(problem.players);
    std::vector<double> points(m, 0.0), games(m, 0.0);
    double first_points = 0.0, first_games = 0.0;
    for (const Pair& p : problem.pairs) {
        points[p.first] += p.points;
        games[p.first] += p.games;
        points[p.second] += p.games - p.points;
        games[p.second] += p.games;
        if (p.uses_advantage) {
            first_points += p.points;
            first_games += p.games;
        }
    }
    const auto logit = [](double num, double den) {
        const double f = den > 0.0 ? std::clamp(num / den, 0.02, 0.98) : 0.5;
        return std::log(f / (1.0 - f));
    };
    State s;
    s.r.resize(m);
    for (std::size_t i = 0; i < m; ++i)
        s.r[i] = logit(points[i], games[i]);
    // Move the free players by the mean offset of the held ones from their
    // values, then put the held ones there.
    double shift = 0.0;
    int held = 0;
    for (std::size_t i = 0; i < m; ++i) {
        if (problem.var[i] >= 0) continue;
        shift += problem.held[i] - s.r[i];
        ++held;
    }
    if (held > 0) shift /= held;
    for (std::size_t i = 0; i < m; ++i)
        s.r[i] = problem.var[i] >= 0 ? s.r[i] + shift : problem.held[i];
    s.advantage =
        problem.fit_advantage ? logit(first_points, first_games) : problem.fixed_advantage;
    return s;
}

// Damped Newton on the concave objective. std::nullopt when the maximum is
// not finite and unique (see kAdvantageLimit); iterations are counted anyway.
std::optional<Solution> maximise(const Problem& problem, int& iterations) {
    const auto d = static_cast<std::size_t>(problem.dimension());
    State s = starting_point(problem);
    Evaluation current, trial;
    evaluate(problem, s, current);
    std::vector<double> info, diag(d);
    double previous = 0.0;  // the last step, if taken in full
    for (int iter = 1; iter <= kMaxIterations; ++iter) {
        ++iterations;
        information(problem, current, info);
        for (std::size_t k = 0; k < d; ++k)
            diag[k] = info[k * d + k];
        if (!cholesky(info, d) || !well_conditioned(info, diag, d)) return std::nullopt;
        const std::vector<double> step = cholesky_solve(info, d, current.grad);
        double largest = 0.0, slope = 0.0;
        for (std::size_t k = 0; k < d; ++k) {
            largest = std::max(largest, std::abs(step[k]));
            slope += step[k] * current.grad[k];
        }
        const auto moved = [&](double t) {
            State next = s;
            for (int i = 0; i < problem.players; ++i) {
                const int v = problem.variable(i);
                if (v >= 0) next.r[i] += t * step[v];
            }
            if (problem.fit_advantage) next.advantage += t * step[problem.advantage_variable()];
            return next;
        };
        // Stop when the step is tiny, or when quadratic convergence (the
        // error squares each step: e_next ~ C e^2, with C measured from the
        // last two steps) predicts that the error after this step is tiny.
        // This saves the final, merely confirming, factorisation.
        const double predicted = previous > 0.0
                                     ? largest / (previous * previous) * largest * largest
                                     : std::numeric_limits<double>::infinity();
        if (largest < kTolerance || (largest < 1e-3 && predicted < kFinalError)) {
            return Solution{moved(1.0), std::move(info)};
        }
        // Backtracking (Armijo) line search; the slack absorbs rounding in
        // the sum when the objective is flat to machine precision.
        const double slack = 1e-13 * (1.0 + std::abs(current.value));
        double t = std::min(1.0, kMaxStep / largest);
        State next = moved(t);
        evaluate(problem, next, trial);
        while (!(trial.value >= current.value + 1e-4 * t * slope - slack)) {
            t *= 0.5;
            if (t < 1e-12) return std::nullopt;
            next = moved(t);
            evaluate(problem, next, trial);
        }
        s = std::move(next);
        std::swap(current, trial);
        previous = t == 1.0 ? largest : 0.0;
        if (problem.fit_advantage && !(std::abs(s.advantage) < kAdvantageLimit)) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

struct Fitted {
    Problem problem;
    Solution solution;
};

// Ford's condition with the anchors held (some entry of `held` set): their
// differences are given, so they count as one player, and the maximum exists
// and is unique exactly when the graph with them merged into one node is
// strongly connected: every group of the other players scored something
// against the rest and let the rest score something.
bool connected_to_anchors(const std::vector<Pair>& pairs,
                          const std::vector<std::optional<double>>& held) {
    std::vector<int> node(held.size(), 0);
    int nodes = 1;  // node 0: all the anchors
    for (std::size_t i = 0; i < held.size(); ++i)
        if (!held[i]) node[i] = nodes++;
    std::vector<Pair> merged;
    for (const Pair& p : pairs) {
        const int a = node[static_cast<std::size_t>(p.first)];
        const int b = node[static_cast<std::size_t>(p.second)];
        if (a != b) merged.push_back({a, b, p.games, p.points, p.uses_advantage});
    }
    return strongly_connected(nodes, merged);
}

// Maximises the likelihood over the players who all have games (one per
// entry of `anchors`: a value holds that player there, in natural units),
// adding the priors only when needed (see docs/ratings.md); sets the prior
// flags and the iteration count in `fit`. Without anchors one player is
// held at 0 instead.
Fitted fit_rated(const std::vector<Pair>& pairs, const std::vector<std::optional<double>>& anchors,
                 const FitOptions& options, EloFit& fit) {
    const auto players = static_cast<int>(anchors.size());
    const bool anchored =
        std::any_of(anchors.begin(), anchors.end(), [](const auto& a) { return a.has_value(); });
    const bool fit_advantage = !options.fixed_advantage.has_value();
    fit.rating_prior =
        anchored ? !connected_to_anchors(pairs, anchors) : !strongly_connected(players, pairs);
    for (;;) {
        Problem problem;
        problem.fit_advantage = fit_advantage;
        problem.fixed_advantage = fit_advantage ? 0.0 : *options.fixed_advantage / kEloPerNat;
        problem.advantage_prior = fit.advantage_prior ? options.prior_draws : 0.0;
        problem.pairs = pairs;
        std::vector<std::optional<double>> held = anchors;
        if (fit.rating_prior) {
            // A virtual player drawing prior_draws games with everyone: held
            // at 0 without anchors, else free like the other players.
            held.emplace_back(anchored ? std::nullopt : std::optional<double>(0.0));
            for (int i = 0; i < players; ++i) {
                problem.pairs.push_back(
                    {i, players, options.prior_draws, 0.5 * options.prior_draws, false});
            }
        } else if (!anchored) {
            // Hold the most active player: the best-conditioned reference.
            std::vector<double> played(players, 0.0);
            for (const Pair& p : pairs) {
                played[p.first] += p.games;
                played[p.second] += p.games;
            }
            held[static_cast<std::size_t>(std::max_element(played.begin(), played.end()) -
                                          played.begin())] = 0.0;
        }
        problem.hold(held);
        if (auto solution = maximise(problem, fit.iterations)) {
            return Fitted{std::move(problem), std::move(*solution)};
        }
        if (fit_advantage && !fit.advantage_prior) {
            fit.advantage_prior = true;
        } else if (!fit.rating_prior) {
            fit.rating_prior = true;
        } else {
            throw std::runtime_error("fit_elo: Newton's method did not converge");
        }
    }
}

double normal_cdf(double z) {
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

// Per player, the rating it is held at when it is an anchor. Throws for an
// anchor that is unknown, given twice or not finite.
std::vector<std::optional<double>> anchor_ratings(const EloFit& fit, const FitOptions& options) {
    std::vector<std::optional<double>> anchor_of(fit.names.size());
    for (const Anchor& anchor : options.anchors) {
        const auto i = fit.index_of(anchor.name);
        if (!i) throw std::invalid_argument("fit_elo: unknown anchor '" + anchor.name + "'");
        if (anchor_of[*i]) {
            throw std::invalid_argument("fit_elo: anchor '" + anchor.name + "' is given twice");
        }
        if (!std::isfinite(anchor.elo)) {
            throw std::invalid_argument("fit_elo: the rating of anchor '" + anchor.name +
                                        "' must be finite");
        }
        anchor_of[*i] = anchor.elo;
    }
    return anchor_of;
}

// The players with games ("rated"), the only ones fitted, numbered from 0 in
// the order of the names.
struct RatedPlayers {
    std::vector<Pair> pairs;       // between rated players, by their numbers
    std::vector<int> local;        // per player: its number, or -1 without games
    std::vector<std::size_t> all;  // per rated player: its index in the names
};

RatedPlayers rated_players(int n, const std::vector<GameResult>& games) {
    RatedPlayers rated;
    std::vector<Pair>& pairs = rated.pairs;
    std::vector<int>& local = rated.local;
    pairs = aggregate(n, games);
    local.assign(static_cast<std::size_t>(n), -1);
    for (const Pair& p : pairs)
        local[p.first] = local[p.second] = 0;
    for (int i = 0; i < n; ++i) {
        if (local[i] == 0) {
            local[i] = static_cast<int>(rated.all.size());
            rated.all.push_back(static_cast<std::size_t>(i));
        }
    }
    for (Pair& p : pairs) {
        p.first = local[p.first];
        p.second = local[p.second];
    }
    return rated;
}

// Ratings (natural units) and covariance of the rated players, relative to
// the anchors, else to the reference player held at 0; the advantage
// (natural units) and its variance.
struct RatedFit {
    std::vector<double> r, cov;
    double advantage = 0.0;
    double advantage_var = 0.0;
};

// The fit of the rated players (at least one), with `held` as in
// fit_rated(). Sets the prior flags, the iteration count, the
// log-likelihood and the dispersion in `fit`.
RatedFit fit_rated_players(const std::vector<Pair>& pairs,
                           const std::vector<std::optional<double>>& held,
                           const std::vector<GameResult>& games, const FitOptions& options,
                           EloFit& fit) {
    const std::size_t m = held.size();
    RatedFit out;
    std::vector<double>& r = out.r;
    std::vector<double>& cov = out.cov;
    r.assign(m, 0.0);
    cov.assign(m * m, 0.0);
    const Fitted f = fit_rated(pairs, held, options, fit);
    const State& s = f.solution.state;
    const auto d = static_cast<std::size_t>(f.problem.dimension());
    const std::vector<double> inverse = cholesky_inverse(f.solution.factor, d);
    for (std::size_t i = 0; i < m; ++i) {
        r[i] = s.r[i];
        const int vi = f.problem.variable(static_cast<int>(i));
        if (vi < 0) continue;
        for (std::size_t j = 0; j < m; ++j) {
            const int vj = f.problem.variable(static_cast<int>(j));
            if (vj >= 0) cov[i * m + j] = inverse[static_cast<std::size_t>(vi) * d + vj];
        }
    }
    out.advantage = s.advantage;
    if (f.problem.fit_advantage) {
        const auto av = static_cast<std::size_t>(f.problem.advantage_variable());
        out.advantage_var = inverse[av * d + av];
    }
    // Quasi-likelihood dispersion: Var(s) = p(1-p) - E[s(1-s)] for a
    // score s in [0, 1] with mean p; s(1-s) is 1/4 for a draw, else 0.
    double bernoulli = 0.0, spread = 0.0;
    for (const Pair& p : pairs) {
        const double x = x_of(p, s);
        const double prob = sigmoid(x);
        bernoulli += p.games * prob * (1.0 - prob);
        fit.log_likelihood += pair_log_likelihood(p, x);
    }
    for (const GameResult& g : games)
        spread += static_cast<double>(g.count) * g.score * (1.0 - g.score);
    if (options.draw_adjusted_errors && bernoulli > 0.0) {
        fit.dispersion = std::clamp(1.0 - spread / bernoulli, kMinDispersion, 1.0);
    }
    return out;
}

// Re-expresses ratings and covariance relative to the mean of the ratings.
void centre_on_mean(std::vector<double>& r, std::vector<double>& cov) {
    const std::size_t m = r.size();
    double mean = 0.0;
    for (double x : r)
        mean += x / static_cast<double>(m);
    for (double& x : r)
        x -= mean;
    std::vector<double> row_mean(m, 0.0);
    double grand = 0.0;
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < m; ++j)
            row_mean[i] += cov[i * m + j];
        row_mean[i] /= static_cast<double>(m);
        grand += row_mean[i] / static_cast<double>(m);
    }
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < m; ++j)
            cov[i * m + j] += grand - row_mean[i] - row_mean[j];
    }
}

// Every player's rating, error and (when asked for) covariances into
// `fit`, from those of the rated players: r in natural units from
// `origin`, cov in Elo^2.
void place_players(const std::vector<double>& r, const std::vector<double>& cov,
                   const std::vector<int>& local,
                   const std::vector<std::optional<double>>& anchor_of, double origin,
                   const FitOptions& options, EloFit& fit) {
    const std::size_t m = r.size();
    // Idle players (no games) carry no information: each sits at the mean
    // of the rated players, independently of them, with the variance of
    // prior_draws virtual draws against that mean.
    double rated_mean = 0.0, mean_var = 0.0;
    std::vector<double> mean_cov(m, 0.0);  // Cov(mean, r_j)
    for (std::size_t i = 0; i < m; ++i) {
        rated_mean += r[i] * kEloPerNat / static_cast<double>(m);
        for (std::size_t j = 0; j < m; ++j)
            mean_cov[j] += cov[i * m + j] / static_cast<double>(m);
    }
    for (std::size_t j = 0; j < m; ++j)
        mean_var += mean_cov[j] / static_cast<double>(m);
    const double idle_var = 4.0 / options.prior_draws * kEloPerNat * kEloPerNat;

    const std::size_t un = anchor_of.size();
    fit.ratings.assign(un, origin + rated_mean);
    const auto covariance_of = [&](std::size_t i, std::size_t j) {
        if (anchor_of[i] || anchor_of[j]) return 0.0;  // held exactly (below)
        const int li = local[i], lj = local[j];
        if (li >= 0 && lj >= 0)
            return cov[static_cast<std::size_t>(li) * m + static_cast<std::size_t>(lj)];
        if (li >= 0) return mean_cov[static_cast<std::size_t>(li)];
        if (lj >= 0) return mean_cov[static_cast<std::size_t>(lj)];
        return mean_var + (i == j ? idle_var : 0.0);
    };
    for (std::size_t i = 0; i < un; ++i) {
        const int li = local[i];
        if (li >= 0) fit.ratings[i] = origin + r[static_cast<std::size_t>(li)] * kEloPerNat;
    }
    // Anchors sit exactly at their ratings, known: with games, the fit
    // already has no variance for them; without, they are placed there.
    for (std::size_t i = 0; i < un; ++i)
        if (anchor_of[i]) fit.ratings[i] = *anchor_of[i];
    if (options.covariances) {
        fit.covariances.assign(un * un, 0.0);
        for (std::size_t i = 0; i < un; ++i)
            for (std::size_t j = 0; j < un; ++j)
                fit.covariances[i * un + j] = covariance_of(i, j);
    }
    fit.errors.resize(un);
    for (std::size_t i = 0; i < un; ++i)
        fit.errors[i] = kZ95 * std::sqrt(std::max(covariance_of(i, i), 0.0));
}

}  // namespace

double EloFit::covariance(std::size_t i, std::size_t j) const {
    return covariances.at(i * names.size() + j);
}

double EloFit::los(std::size_t i, std::size_t j) const {
    if (i == j) return 0.5;
    const double diff = ratings.at(i) - ratings.at(j);
    const double var = covariance(i, i) + covariance(j, j) - 2.0 * covariance(i, j);
    if (!(var > 0.0)) return diff > 0.0 ? 1.0 : diff < 0.0 ? 0.0 : 0.5;
    return normal_cdf(diff / std::sqrt(var));
}

std::optional<std::size_t> EloFit::index_of(const std::string& name) const {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::nullopt;
    return static_cast<std::size_t>(it - names.begin());
}

EloFit fit_elo(const std::vector<std::string>& names, const std::vector<GameResult>& games,
               const FitOptions& options) {
    validate(names, games);
    if (!(options.prior_draws > 0.0) || !std::isfinite(options.prior_draws)) {
        throw std::invalid_argument("fit_elo: prior_draws must be positive");
    }
    if (options.fixed_advantage && !std::isfinite(*options.fixed_advantage)) {
        throw std::invalid_argument("fit_elo: the fixed advantage must be finite");
    }
    const auto n = static_cast<int>(names.size());
    EloFit fit;
    fit.names = names;
    // anchor_of[i]: the rating player i is held at, if it is an anchor.
    const std::vector<std::optional<double>> anchor_of = anchor_ratings(fit, options);
    // Only players with games are fitted ("rated"); see the idle players in
    // place_players().
    const RatedPlayers rated = rated_players(n, games);
    const std::size_t m = rated.all.size();

    // The anchors with games are held at their ratings, in natural units
    // from `origin`, the first one's rating; the others cannot fix anything.
    std::vector<std::optional<double>> held(m);
    std::optional<double> origin;
    for (std::size_t i = 0; i < m; ++i) {
        const auto& elo = anchor_of[rated.all[i]];
        if (!elo) continue;
        if (!origin) origin = *elo;
        held[i] = (*elo - *origin) / kEloPerNat;
    }
    const bool rated_anchor = origin.has_value();
    if (!rated_anchor) {
        // No anchor with games: the rated players' mean is `average`, or
        // the mean rating of the anchors when there are any.
        double sum = 0.0;
        for (const Anchor& anchor : options.anchors)
            sum += anchor.elo;
        origin = options.anchors.empty() ? options.average
                                         : sum / static_cast<double>(options.anchors.size());
    }

    const bool fit_advantage = !options.fixed_advantage.has_value();
    RatedFit rated_fit;  // no ratings when no one has games
    if (m > 0) {
        rated_fit = fit_rated_players(rated.pairs, held, games, options, fit);
    } else {
        rated_fit.advantage = fit_advantage ? 0.0 : *options.fixed_advantage / kEloPerNat;
        if (fit_advantage) {
            // No games at all: the advantage is its prior alone.
            fit.advantage_prior = true;
            rated_fit.advantage_var = 4.0 / options.prior_draws;
        }
    }

    // Without an anchor with games, re-express relative to the mean of the
    // rated players (set to `origin`); with anchors, r and cov are already
    // relative to them.
    if (!rated_anchor && m > 0) centre_on_mean(rated_fit.r, rated_fit.cov);
    const double scale = fit.dispersion * kEloPerNat * kEloPerNat;
    for (double& c : rated_fit.cov)
        c *= scale;
    place_players(rated_fit.r, rated_fit.cov, rated.local, anchor_of, *origin, options, fit);

    fit.advantage = rated_fit.advantage * kEloPerNat;
    if (fit_advantage) {
        const double var = (m > 0 ? fit.dispersion : 1.0) * std::max(rated_fit.advantage_var, 0.0);
        fit.advantage_error = kZ95 * std::sqrt(var) * kEloPerNat;
    }
    return fit;
}

std::vector<std::vector<double>> los_matrix(const EloFit& fit) {
    const std::size_t n = fit.names.size();
    std::vector<std::vector<double>> m(n, std::vector<double>(n, 0.5));
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            m[i][j] = fit.los(i, j);
            m[j][i] = 1.0 - m[i][j];
        }
    }
    return m;
}

double SideRecord::score() const {
    return games == 0 ? 0.0 : points() / static_cast<double>(games);
}

std::vector<PlayerSummary> summarize_games(const std::vector<std::string>& names,
                                           const std::vector<GameResult>& games) {
    validate(names, games);
    std::vector<PlayerSummary> out(names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        out[i].name = names[i];
    const auto count = [](SideRecord& side, double score, std::int64_t times) {
        side.games += times;
        if (score > 0.5) {
            side.wins += times;
        } else if (score < 0.5) {
            side.losses += times;
        } else {
            side.draws += times;
        }
    };
    for (const GameResult& g : games) {
        PlayerSummary& first = out[g.first];
        PlayerSummary& second = out[g.second];
        count(first.total, g.score, g.count);
        count(first.as_first, g.score, g.count);
        count(second.total, 1.0 - g.score, g.count);
        count(second.as_second, 1.0 - g.score, g.count);
    }
    return out;
}

}  // namespace arena::rating
