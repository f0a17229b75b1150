#pragma once
// The Elo difference of a head-to-head between two bots, A and B, from A's
// side, with its 95 % interval; the normalized Elo; the likelihood of
// superiority; the draw and pairs ratios. From pentanomial counts (pairs of
// colour-swapped games, see pentanomial.hpp) or trinomial ones (games).
//
// A unit is a pair (pentanomial) or a game (trinomial); its score x is the
// points it brought divided by its games, so x is in {0, 1/4, 1/2, 3/4, 1}
// for a pair and {0, 1/2, 1} for a game. With N units, mean score s and
// per-unit variance var of x:
//
//     Elo    = -400 log10(1/s - 1), its interval that of s, s +/- z sqrt(var/N)
//     nElo   = (s - 1/2) / sigma * 800 / ln 10, with sigma the per-game
//              standard deviation: sqrt(2 var) for pairs, sqrt(var) for games
//     LOS    = Phi((s - 1/2) / sqrt(var / N))
//
// Formulas and sources: docs/ratings.md ("Head-to-head").

#include "arena/rating/pentanomial.hpp"

namespace arena::rating {

struct HeadToHead {
    bool pentanomial = true;
    double units = 0.0;     // pairs or games counted
    double score = 0.0;     // mean score s of A, in [0, 1]
    double variance = 0.0;  // per-unit variance of the score
    // Elo difference of A over B; +/-infinity at a score of 1 or 0. The
    // interval is [elo_lower, elo_upper]; elo_error is its half-width.
    double elo = 0.0, elo_lower = 0.0, elo_upper = 0.0, elo_error = 0.0;
    // Normalized Elo and the half-width of its 95 % interval.
    double nelo = 0.0, nelo_error = 0.0;
    double los = 0.5;  // P(A is stronger than B), in [0, 1]
    // Pentanomial: share of the pairs that scored 1 (DD+WL); trinomial: of
    // the games drawn.
    double draw_ratio = 0.0;
    // Pentanomial only: (WW + WD) / (LL + LD) (infinity when the divisor
    // is 0 and the dividend is not; 1 when both are 0).
    double pairs_ratio = 1.0;
};

// Both throw std::invalid_argument for a negative count or none at all.
[[nodiscard]] HeadToHead head_to_head(const Pentanomial& counts);
[[nodiscard]] HeadToHead head_to_head(const Trinomial& counts);

// -400 log10(1/s - 1): -infinity at 0, +infinity at 1.
[[nodiscard]] double score_to_elo(double score);
// 1 / (1 + 10^(-elo/400)).
[[nodiscard]] double elo_to_score(double elo);

}  // namespace arena::rating
