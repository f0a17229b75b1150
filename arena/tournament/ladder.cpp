#include "arena/tournament/ladder.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace arena::tournament {

std::vector<int> choose_opponents(const rating::EloFit& fit, int entrant,
                                  const std::vector<int>& candidates, int count) {
    const auto at = [&](int e) { return fit.ratings[static_cast<std::size_t>(e)]; };
    const auto error = [&](int e) { return fit.errors[static_cast<std::size_t>(e)]; };
    const double r = at(entrant);
    const auto distance = [&](int e) { return std::abs(at(e) - r); };
    std::vector<int> near = candidates;
    std::erase(near, entrant);
    std::sort(near.begin(), near.end(), [&](int a, int b) {
        const double da = distance(a), db = distance(b);
        return da != db ? da < db : a < b;
    });
    // Those inside the entrant's interval, and at least the 2 x count nearest.
    const double reach = error(entrant);
    const auto inside = static_cast<std::size_t>(
        std::count_if(near.begin(), near.end(), [&](int e) { return distance(e) <= reach; }));
    const auto window = std::min<std::size_t>(
        near.size(), std::max(inside, 2 * static_cast<std::size_t>(std::max(count, 0))));
    near.resize(window);
    std::sort(near.begin(), near.end(), [&](int a, int b) {
        if (error(a) != error(b)) return error(a) > error(b);
        const double da = distance(a), db = distance(b);
        return da != db ? da < db : a < b;
    });
    near.resize(std::min<std::size_t>(near.size(), static_cast<std::size_t>(std::max(count, 0))));
    return near;
}

Ladder::Ladder(const LadderOptions& options, std::vector<bool> playable, LadderStart start)
    : options_(options),
      playable_(std::move(playable)),
      entrant_(start.entrant),
      index_(start.index),
      pair_(start.pair),
      round_(start.round) {
    for (std::size_t e = 0; e < playable_.size(); ++e)
        names_.push_back(std::to_string(e));
}

void Ladder::fit_before(const LadderResults& results, std::int64_t index) {
    std::vector<rating::GameResult> games;
    for (auto it = results.begin(); it != results.end() && it->first < index; ++it)
        games.push_back({it->second.first, it->second.second, it->second.score, 1});
    // Ratings and errors only: no covariance matrix of every pair of
    // entrants, which a league of thousands could not hold.
    rating::FitOptions options;
    options.covariances = false;
    fit_ = rating::fit_elo(names_, games, options);
}

std::optional<LadderRound> Ladder::next_round(const LadderResults& results) {
    const int n = static_cast<int>(playable_.size());
    const int per_pair = std::max(2, options_.games_per_pair);
    bool fitted = false;  // fit_ is of the games before index_
    while (entrant_ < n) {
        const int k = entrant_;
        const auto next_entrant = [&](bool reached) {
            Placement p;
            p.entrant = k;
            p.games = games_;
            p.rounds = entrant_rounds_;
            if (games_ > 0) {
                p.rating = fit_.ratings[static_cast<std::size_t>(k)];
                p.error = fit_.errors[static_cast<std::size_t>(k)];
            }
            p.reached_target = reached;
            placements_.push_back(p);
            ++entrant_;
            games_ = 0;
            entrant_rounds_ = 0;
            met_.clear();
        };
        if (!playable_[static_cast<std::size_t>(k)]) {
            ++entrant_;  // not placed: it plays no more
            continue;
        }
        // Each opponent once: never more games than a round-robin would play.
        std::vector<int> candidates;
        for (int e = 0; e < k; ++e)
            if (playable_[static_cast<std::size_t>(e)] && !met_.contains(e))
                candidates.push_back(e);
        if (candidates.empty() && games_ == 0) {
            next_entrant(false);
            continue;
        }
        if (!fitted) {
            fit_before(results, index_);
            fitted = true;
        }
        if (games_ >= options_.games_per_entrant || candidates.empty()) {
            next_entrant(false);
            placements_.back().met_everyone = candidates.empty();
            continue;
        }
        if (games_ > 0 && fit_.errors[static_cast<std::size_t>(k)] < options_.target_error) {
            next_entrant(true);
            continue;
        }
        // Up to opponents_per_round opponents, no more than the games left allow.
        const auto left = options_.games_per_entrant - games_;
        const int count = static_cast<int>(std::min<std::int64_t>(
            options_.opponents_per_round, std::max<std::int64_t>(1, left / per_pair)));
        const auto opponents = choose_opponents(fit_, k, candidates, count);
        LadderRound round;
        round.entrant = k;
        round.number = round_;
        std::int64_t index = index_;
        int pair = pair_;
        for (const int o : opponents) {
            for (int g = 0; g < per_pair; ++g) {
                Pairing p;
                p.index = index++;
                p.round = round_;
                p.pair = pair + g / 2;
                p.game_in_pair = g % 2;
                p.first = p.game_in_pair == 0 ? k : o;
                p.second = p.game_in_pair == 0 ? o : k;
                round.games.push_back(p);
            }
            pair += per_pair / 2;
        }
        // A stored game in the round's place but between other entrants: the
        // round moves past every stored game.
        bool complete = true, conflict = false;
        for (const auto& p : round.games) {
            const auto it = results.find(p.index);
            if (it == results.end()) {
                complete = false;
            } else if (it->second.first != p.first || it->second.second != p.second) {
                conflict = true;
            }
        }
        if (conflict) {
            index_ = results.rbegin()->first + 1;
            fitted = false;
            continue;
        }
        if (!complete) return round;
        games_ += static_cast<std::int64_t>(round.games.size());
        met_.insert(opponents.begin(), opponents.end());
        ++entrant_rounds_;
        index_ = index;
        pair_ = pair;
        ++round_;
        fitted = false;
    }
    return std::nullopt;
}

LadderOptions ladder_options(const Config& config) {
    LadderOptions options;
    options.games_per_entrant = config.games_per_entrant;
    options.target_error = config.target_error;
    options.games_per_pair = config.games_per_pair;
    options.opponents_per_round = config.opponents_per_round;
    return options;
}

}  // namespace arena::tournament
