#pragma once
// Elo ratings from a set of finished games, fitted all at once by maximum
// likelihood. Pure statistics, no I/O (games from a CSV: games_csv.hpp).
//
// Model (Bradley-Terry / logistic Elo, the model Ordo fits): the first mover
// of a game between players i (moving first) and j scores on average
//
//     p = 1 / (1 + 10^(-(r_i + adv - r_j) / 400))
//
// where adv is the first-mover advantage. A game scores s in {1, 1/2, 0}
// for the first mover and contributes p^s (1 - p)^(1 - s) to the likelihood,
// so a draw counts as half a win and half a loss. The ratings and adv (unless
// fixed) maximise the likelihood over all games together; the ratings are
// then shifted so that their mean takes a given value. With anchors, the
// anchored players are instead held at given ratings and the others (and
// adv) maximise the likelihood with them held: one anchor only sets the
// shift, several constrain the fit.
//
// Players without games are left out of the fit: each is placed at the
// mean of the others with a large, independent error. When the maximum is
// infinite or not unique (a player who won or lost every game, groups that
// never played each other, a first mover who always won), a weak prior is
// added, and only then: see docs/ratings.md for the exact rule. Every number
// returned is finite.
//
// Errors come from the inverse of the observed Fisher information (the
// Hessian of the negative log-likelihood at the fit), scaled by a dispersion
// factor for draws (EloFit::dispersion), and are relative to the mean (or to
// the anchors, whose errors are then zero). Cost: O(games) to aggregate, then
// O(n^3) per Newton iteration for n players (a thousand players and a million
// games take well under a second).
//
// The full description, with the exact prior rule: docs/ratings.md.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arena/rating/game_result.hpp"
// read_games_csv, for the callers that still take it from here (arena rate).
#include "arena/rating/games_csv.hpp"

namespace arena::rating {

// z for a two-sided 95 % interval.
inline constexpr double kZ95 = 1.959963984540054;
// Floor of EloFit::dispersion, reached at a 95 % draw rate: even a set of
// nothing but draws does not pin the ratings down exactly.
inline constexpr double kMinDispersion = 0.05;

// A player held at a known rating.
struct Anchor {
    std::string name;
    double elo = 0.0;
};

struct FitOptions {
    // First-mover advantage in Elo: std::nullopt fits it; a value fixes it
    // (0 turns it off).
    std::optional<double> fixed_advantage;
    // Players held at known ratings (at most once each). The anchors with
    // games are held while everything else is fitted, and the errors are
    // relative to them; every anchor's error is 0. An anchor without games
    // is placed at its rating and fixes nothing; when no anchor has games,
    // the players with games are centred on the mean of the anchors'
    // ratings. Without anchors, the mean rating of the players with games
    // is `average`. See docs/ratings.md, "Anchors".
    std::vector<Anchor> anchors;
    double average = 0.0;
    // Weight of the prior used only when the plain maximum likelihood does
    // not exist: that many virtual draws between every player and a virtual
    // opponent (and, for the advantage, between two equal virtual players).
    double prior_draws = 1.0;
    // Scale the covariance by the dispersion (see EloFit::dispersion): a
    // draw is less random than the coin flip the likelihood treats it as.
    // false gives the plain inverse Fisher information.
    bool draw_adjusted_errors = true;
    // false: only the errors, no n x n covariance matrix (EloFit::covariances
    // stays empty, and covariance() and los() need it): for fits over
    // thousands of players, such as a ladder's, where it would take n^2 x 8
    // bytes.
    bool covariances = true;
};

struct EloFit {
    std::vector<std::string> names;
    std::vector<double> ratings;      // Elo, one per name
    std::vector<double> errors;       // half-width of the 95 % interval, Elo
    std::vector<double> covariances;  // n x n, row-major, Elo^2; see covariance()
    double advantage = 0.0;           // first-mover advantage, Elo
    double advantage_error = 0.0;     // 95 % half-width; 0 when fixed
    // Which priors were needed (see the model notes above).
    bool rating_prior = false;
    bool advantage_prior = false;
    // Factor applied to the inverse information: 1 - sum s(1-s) / sum p(1-p)
    // over the games (s the score, p its fitted expectation), i.e. the share
    // of the Bernoulli variance left once draws are accounted for; clamped to
    // [kMinDispersion, 1]; 1 without draws or with draw_adjusted_errors off.
    double dispersion = 1.0;
    int iterations = 0;           // Newton iterations, all attempts together
    double log_likelihood = 0.0;  // of the games (priors excluded), natural log

    // Covariance of ratings i and j in Elo^2 (relative to the mean or anchors).
    [[nodiscard]] double covariance(std::size_t i, std::size_t j) const;
    // Likelihood of superiority: P(r_i > r_j) = Phi((r_i - r_j) / sd(r_i - r_j)).
    // los(i, j) + los(j, i) == 1; los(i, i) == 0.5.
    [[nodiscard]] double los(std::size_t i, std::size_t j) const;
    // Index of a name, or std::nullopt.
    [[nodiscard]] std::optional<std::size_t> index_of(const std::string& name) const;
};

// Fits the model above. Throws std::invalid_argument for a game with a bad
// player index, a player against itself, a score outside [0, 1], a count
// below 1, or an anchor that is unknown, given twice or not finite (the
// message names it).
[[nodiscard]] EloFit fit_elo(const std::vector<std::string>& names,
                             const std::vector<GameResult>& games, const FitOptions& options = {});

// LOS for every pair: result[i][j] = fit.los(i, j).
[[nodiscard]] std::vector<std::vector<double>> los_matrix(const EloFit& fit);

// Wins, draws and losses of one player, from that player's point of view.
struct SideRecord {
    std::int64_t games = 0, wins = 0, draws = 0, losses = 0;
    [[nodiscard]] double points() const {
        return static_cast<double>(wins) + 0.5 * static_cast<double>(draws);
    }
    // points / games, in [0, 1]; 0 with no games.
    [[nodiscard]] double score() const;
};

struct PlayerSummary {
    std::string name;
    SideRecord total, as_first, as_second;
};

// Per-player counts. A game's score is read as a win above 1/2, a draw at
// exactly 1/2 and a loss below. Throws std::invalid_argument like fit_elo().
[[nodiscard]] std::vector<PlayerSummary> summarize_games(const std::vector<std::string>& names,
                                                         const std::vector<GameResult>& games);

}  // namespace arena::rating
