#pragma once
// The ladder schedule (`schedule: { type: ladder, ... }`, docs/config.md,
// "The ladder schedule"): each entrant in turn (every bot of a new
// tournament, then each late entrant, in the order they entered) is placed
// by playing a few of the entrants before it, chosen for information, rather
// than all of them. It plays in rounds: a round is up to
// opponents_per_round opponents, games_per_pair games each (colour-swapped
// pairs), chosen near the entrant's current rating, widest interval first.
// After each complete round the ratings are fitted again by maximum
// likelihood over every game stored before the next round; the entrant is
// placed once its 95 % half-width is below target_error or it has played
// games_per_entrant games, or has met every entrant before it: it meets
// each opponent once (games_per_pair games), so it never plays more games
// than a round-robin would.
//
// A round is chosen from the results of the games before it only, and the
// next round is chosen only once it is complete, so the games a tournament
// plays are a function of their results alone: not of the order in which
// concurrent games finish, nor of where a run was interrupted. On resume the
// walk is replayed from the stored games (Ladder::next_round), and arrives
// at the same round with the same games.
//
// Pure: no I/O. The runner (runner.cpp) plays the rounds.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

struct LadderOptions {
    int games_per_entrant = 60;  // the most games an entrant plays to be placed
    double target_error = 75.0;  // Elo: placed once its 95 % half-width is below
    int games_per_pair = 2;      // games against each opponent of a round, even
    int opponents_per_round = 4;
};

// A stored game, by entrants: `first` moved first and scored `score`.
struct LadderGame {
    int first = 0;
    int second = 0;
    double score = 0.5;
};

// The games by schedule index.
using LadderResults = std::map<std::int64_t, LadderGame>;

// The opponents of one round (pure): among `candidates` (entrants), those
// within `entrant`'s 95 % interval of its rating in `fit`, or the 2 x count
// nearest when that is more (ties: the lower entrant); of those the `count`
// with the widest interval (ties: the nearer, then the lower entrant), in
// that order. Fewer when there are fewer candidates. An entrant without
// games has a wide interval, so its first round samples the whole field;
// as its interval narrows, its opponents come closer.
[[nodiscard]] std::vector<int> choose_opponents(const rating::EloFit& fit, int entrant,
                                                const std::vector<int>& candidates, int count);

// One round of an entrant's placement.
struct LadderRound {
    int entrant = 0;
    int number = 0;  // across the tournament, from 0 (stored as the games' round)
    // Its games: indices consecutive, pairs numbered across the tournament,
    // `first` and `second` entrants; game 0 of a pair has the entrant first.
    std::vector<Pairing> games;
};

// How an entrant was placed.
struct Placement {
    int entrant = 0;
    std::int64_t games = 0;  // the games it played to be placed
    int rounds = 0;
    double rating = 0.0;          // from the fit after its last round (mean 0)
    double error = 0.0;           // 95 % half-width
    bool reached_target = false;  // its interval below target_error
    bool met_everyone = false;    // stopped for want of opponents it has not met
};

// Where a walk starts: for a league whose first entrants are rated already
// (as in bench/ladder_sim), the first entrant to place and the first free
// index, pair and round number. A tournament starts from the defaults.
struct LadderStart {
    int entrant = 0;
    std::int64_t index = 0;
    int pair = 0;
    int round = 0;
};

// The walk through the entrants' placements. It keeps its place between
// calls: results only ever grow (a game stored stays stored).
class Ladder {
  public:
    // `playable[e]`: whether entrant e still plays (not retired, not an
    // earlier version). Entrants that do not play are not placed and are no
    // opponents, but their stored games count in the fits.
    Ladder(const LadderOptions& options, std::vector<bool> playable, LadderStart start = {});

    // The first round, from where the walk is, that `results` does not hold
    // complete: its games, some perhaps stored already (those of an
    // interrupted run). Nullopt once every entrant is placed. A stored game
    // whose index a round takes but whose entrants differ (the config
    // changed which bots play) moves the round past the last stored index.
    [[nodiscard]] std::optional<LadderRound> next_round(const LadderResults& results);

    // The entrants placed so far, in order.
    [[nodiscard]] const std::vector<Placement>& placements() const { return placements_; }
    // The fit before the round next_round() returned last (or after the
    // last placement).
    [[nodiscard]] const rating::EloFit& fit() const { return fit_; }
    // Rounds passed so far.
    [[nodiscard]] int rounds() const { return round_; }

  private:
    void fit_before(const LadderResults& results, std::int64_t index);

    LadderOptions options_;
    std::vector<bool> playable_;
    std::vector<std::string> names_;  // "0", "1", ...: the fit wants names
    int entrant_;                     // being placed
    std::int64_t index_;              // the next round's first game
    int pair_, round_;
    std::int64_t games_ = 0;  // the entrant's games so far
    int entrant_rounds_ = 0;
    std::set<int> met_;  // the entrant's opponents so far
    rating::EloFit fit_;
    std::vector<Placement> placements_;
};

// The options of a config's ladder schedule.
[[nodiscard]] LadderOptions ladder_options(const Config& config);

}  // namespace arena::tournament
