#pragma once
// The generalized sequential probability ratio test (GSPRT) of Michel Van
// den Bergh, as fishtest and fastchess apply it to a head-to-head: H0 "A is
// elo0 stronger than B" against H1 "A is elo1 stronger", from pentanomial
// counts (pairs) or trinomial ones (games).
//
// The counts n_i sit on the scores a_i = i / (k - 1) (k = 5 or 3); a zero
// count is replaced by 1e-3; N is their sum and p^_i = n_i / N. For each
// hypothesis, p is the distribution on the a_i of largest likelihood
// sum p^_i ln p_i under the hypothesis' constraint:
//
//   logistic:   mean(p) = 1 / (1 + 10^(-elo / 400))
//   normalized: (mean(p) - 1/2) / sd(p) = t, t = elo / (800 / ln 10),
//               times sqrt(2) for pairs (elo is then a normalized Elo)
//
// and LLR = N sum p^_i ln(p1_i / p0_i). The test accepts H0 once
// LLR <= ln(beta / (1 - alpha)) and H1 once LLR >= ln((1 - beta) / alpha).
// The derivation of the constrained maxima: docs/ratings.md ("GSPRT").

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arena/rating/pentanomial.hpp"

namespace arena::rating {

enum class SprtModel { normalized, logistic };
enum class SprtDecision { continue_testing, accept_h0, accept_h1 };

struct SprtOptions {
    double elo0 = 0.0, elo1 = 2.0;  // Elo (logistic) or normalized Elo
    double alpha = 0.05, beta = 0.05;
    SprtModel model = SprtModel::normalized;
};

// "normalized" or "logistic"; nullopt for any other name.
[[nodiscard]] std::optional<SprtModel> parse_sprt_model(std::string_view name);

// What is wrong with `options`, one phrase with each option's name written
// after `prefix` ("elo0 (3.00) must be below elo1 (1.00)", with prefix "--":
// "--alpha must be in (0, 1)"); empty when they are valid: finite bounds,
// elo0 < elo1, alpha and beta in (0, 1), alpha + beta < 1.
[[nodiscard]] std::string sprt_options_problem(const SprtOptions& options,
                                               std::string_view prefix = "");

struct SprtResult {
    double llr = 0.0;
    double lower = 0.0, upper = 0.0;  // ln(beta / (1 - alpha)), ln((1 - beta) / alpha)
    SprtDecision decision = SprtDecision::continue_testing;
};

// Throws std::invalid_argument for options with a problem (see
// sprt_options_problem) or a negative count.
[[nodiscard]] SprtResult sprt(const Pentanomial& counts, const SprtOptions& options);
[[nodiscard]] SprtResult sprt(const Trinomial& counts, const SprtOptions& options);

// The LLR for counts on equally spaced scores 0 .. 1 (3 counts: games, L D W;
// 5 counts: pairs, LL .. WW); checks nothing but the number of counts.
[[nodiscard]] double gsprt_llr(std::span<const double> counts, double elo0, double elo1,
                               SprtModel model);

// The maximum-likelihood distribution on `scores` closest to `observed`
// (probabilities, all positive, summing to 1) under a constraint: the mean
// equals `mean` (constrained_mean) or (mean - 1/2) / sd equals `t`
// (constrained_t_value). Exposed for tests.
[[nodiscard]] std::vector<double> constrained_mean(std::span<const double> scores,
                                                   std::span<const double> observed, double mean);
[[nodiscard]] std::vector<double> constrained_t_value(std::span<const double> scores,
                                                      std::span<const double> observed, double t);

[[nodiscard]] std::string_view decision_name(SprtDecision d);  // "H0", "H1", "continue"

}  // namespace arena::rating
