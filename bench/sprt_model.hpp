#pragma once
// A model of a head-to-head in colour-swapped pairs, for simulating the
// GSPRT (bench/sprt_sim.cpp, docs/performance.md "SPRT").
//
// Bot A is `strength` Elo stronger than bot B. The first mover gets an
// advantage of `advantage` Elo, so A's edge in a game is
// D = strength + advantage when A moves first and strength - advantage when
// it moves second, and A's expected score in that game is
// e = 1 / (1 + 10^(-D / 400)). Of that expected score, a share of draws
// p_draw = c * 4 e (1 - e) is taken out evenly from wins and losses:
//
//     P(win) = e - p_draw / 2,  P(draw) = p_draw,  P(loss) = 1 - e - p_draw / 2
//
// so the expected score stays e, draws are most frequent between equal
// sides and vanish as a game becomes one-sided. The game is described by
// what is seen between equal bots: the first mover's score `first_score`
// (which gives advantage = 400 log10(first_score / (1 - first_score))) and
// the draw rate `draw_rate` (which gives c = draw_rate / (4 f (1 - f)),
// f = first_score; c may be at most 1/2, where every probability above stays
// non-negative). With openings, a pair's advantage varies: it is drawn per
// pair from a normal distribution of mean `advantage` and standard deviation
// `spread` (Elo), and both games of the pair share it. Given that advantage,
// the two games of a pair are independent.

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "arena/rating/pentanomial.hpp"
#include "arena/rating/sprt.hpp"

namespace arena::bench {

struct GameSetting {
    double first_score = 0.5;  // the first mover's expected score between equal bots
    double draw_rate = 0.0;    // the share of draws between equal bots, at that score
    double spread = 0.0;       // standard deviation of the advantage across openings, Elo
};

// What is wrong with `s`, naming each field as sprt_sim's option without
// its "--" ("first-score must be in (0, 1)", ...); empty when it is valid.
[[nodiscard]] std::string setting_problem(const GameSetting& s);

// A's probabilities in one game: win, draw, loss.
struct GameOdds {
    double win = 0.0, draw = 0.0, loss = 0.0;
};

class PairModel {
  public:
    // Throws std::invalid_argument for a setting with a problem.
    PairModel(const GameSetting& setting, double strength);

    [[nodiscard]] double advantage() const { return advantage_; }      // Elo
    [[nodiscard]] double draw_factor() const { return draw_factor_; }  // c above
    [[nodiscard]] double strength() const { return strength_; }

    // A's odds in a game with a first-mover advantage of `advantage` Elo.
    [[nodiscard]] GameOdds odds(double advantage, bool a_first) const;

    // The exact distribution of a pair's score for A (LL, LD, DD+WL, WD,
    // WW), averaged over the openings' advantages, and of a single game
    // (loss, draw, win; the two colours averaged).
    [[nodiscard]] std::array<double, 5> pair_distribution() const;
    [[nodiscard]] std::array<double, 3> game_distribution() const;

    // Draws one pair: A's scores (0, 1/2 or 1) with A first, then second.
    template <class Rng>
    std::array<double, 2> draw_pair(Rng& rng) const {
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        double a = advantage_;
        if (spread_ > 0.0) a += spread_ * std::normal_distribution<double>(0.0, 1.0)(rng);
        return {draw_game(odds(a, true), unit(rng)), draw_game(odds(a, false), unit(rng))};
    }

  private:
    static double draw_game(const GameOdds& o, double u) {
        return u < o.win ? 1.0 : u < o.win + o.draw ? 0.5 : 0.0;
    }
    // Quadrature nodes and weights over the advantage (one node when no spread).
    [[nodiscard]] std::vector<std::pair<double, double>> advantages() const;

    double strength_, advantage_, draw_factor_, spread_;
};

// What the SPRT measures of a model: A's mean score, its Elo, its normalized
// Elo from pairs and from games, the draw rate, the share of 1-1 pairs.
struct Truth {
    double score = 0.5, elo = 0.0, nelo_pairs = 0.0, nelo_games = 0.0;
    double draw_rate = 0.0, even_pairs = 0.0;
    std::array<double, 5> pairs{};
    std::array<double, 3> games{};
};
[[nodiscard]] Truth truth(const PairModel& model);

// The strength difference at which the model's Elo (logistic: the Elo of
// A's mean score) or its normalized Elo from pairs (normalized: what
// `arena match --sprt` tests by default) equals `target`.
[[nodiscard]] double strength_for(const GameSetting& setting, double target,
                                  rating::SprtModel scale);

// One simulated test, run on the same games with pentanomial counts (tested
// after every pair) and trinomial counts (after every game), each until its
// decision or `max_games`.
struct TestOutcome {
    rating::SprtDecision decision = rating::SprtDecision::continue_testing;
    std::int64_t games = 0;  // games to the decision (max_games when undecided)
};
struct SimulatedTest {
    TestOutcome pentanomial, trinomial;
};
[[nodiscard]] SimulatedTest simulate_test(const PairModel& model,
                                          const rating::SprtOptions& options,
                                          std::int64_t max_games, std::uint64_t seed);

// A recorded sequence of A's game scores, in colour-swapped pairs (games
// 2k and 2k + 1), tested as it was played: where each test decided, and
// its LLR at the end or at its decision.
struct ReplayOutcome {
    rating::SprtDecision decision = rating::SprtDecision::continue_testing;
    std::optional<std::int64_t> games;  // the game at which it decided
    double llr = 0.0;                   // at the decision, or after every game
};
struct Replay {
    std::int64_t games = 0;
    ReplayOutcome pentanomial, trinomial;
};
// Throws std::invalid_argument for a score other than 0, 1/2 or 1.
[[nodiscard]] Replay replay(std::span<const double> scores, const rating::SprtOptions& options);

}  // namespace arena::bench
