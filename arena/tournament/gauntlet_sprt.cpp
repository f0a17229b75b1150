#include "arena/tournament/gauntlet_sprt.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace arena::tournament {

namespace {

int challenger_of(const Config& config) {
    for (std::size_t b = 0; b < config.bots.size(); ++b)
        if (config.bots[b].name == config.challenger) return static_cast<int>(b);
    return 0;
}

}  // namespace

GauntletSprt::GauntletSprt(const Config& config, const std::vector<Pairing>& schedule)
    : GauntletSprt(config.sprt, schedule, {challenger_of(config)},
                   std::vector<bool>(config.bots.size(), true), config.count_repeats) {}

GauntletSprt::GauntletSprt(const std::optional<rating::SprtOptions>& options,
                           const std::vector<Pairing>& schedule,
                           const std::vector<int>& challengers, const std::vector<bool>& playable,
                           bool count_repeats)
    : options_(options) {
    const auto is_challenger = [&](int e) {
        return std::find(challengers.begin(), challengers.end(), e) != challengers.end();
    };
    const auto plays = [&](int e) {
        return e >= 0 && static_cast<std::size_t>(e) < playable.size() &&
               playable[static_cast<std::size_t>(e)];
    };
    int pairs = 0;
    for (const auto& p : schedule)
        pairs = std::max(pairs, p.pair + 1);
    slots_.resize(static_cast<std::size_t>(pairs));
    test_of_pair_.assign(static_cast<std::size_t>(pairs), -1);
    std::map<std::pair<int, int>, int> test_of_meeting;  // (challenger, opponent) -> test
    for (const auto& p : schedule) {
        if (p.game_in_pair != 0) continue;
        int challenger = p.first, opponent = p.second;
        // When both are challengers (every bot, for a schedule's repeats),
        // the meeting is counted from the side of the earlier one.
        if (!is_challenger(challenger) || (is_challenger(opponent) && opponent < challenger))
            std::swap(challenger, opponent);
        if (!is_challenger(challenger)) continue;
        auto [at, fresh] =
            test_of_meeting.try_emplace({challenger, opponent}, static_cast<int>(tests_.size()));
        if (fresh) {
            OpponentTest t;
            t.opponent = opponent;
            t.challenger = challenger;
            t.playable = plays(challenger) && plays(opponent);
            if (options_) t.result = rating::sprt(rating::Pentanomial{}, *options_);
            tests_.push_back(t);
            tracks_.emplace_back();
            tracks_.back().repeats = RepeatFilter(count_repeats);
        }
        test_of_pair_[static_cast<std::size_t>(p.pair)] = at->second;
        tracks_[static_cast<std::size_t>(at->second)].pairs.push_back(p.pair);
    }
    // Schedule order is pair order; sorting keeps that true whatever the schedule.
    for (std::size_t t = 0; t < tests_.size(); ++t) {
        auto& track = tracks_[t];
        std::sort(track.pairs.begin(), track.pairs.end());
        tests_[t].scheduled_pairs = static_cast<std::int64_t>(track.pairs.size());
    }
}

void GauntletSprt::add(const Pairing& pairing, const ScoredGame& game) {
    if (pairing.pair < 0 || static_cast<std::size_t>(pairing.pair) >= slots_.size()) return;
    if (pairing.game_in_pair < 0 || pairing.game_in_pair > 1) return;
    const int test = test_of_pair_[static_cast<std::size_t>(pairing.pair)];
    if (test < 0) return;
    auto& slot = slots_[static_cast<std::size_t>(pairing.pair)];
    const auto g = static_cast<std::size_t>(pairing.game_in_pair);
    if (slot.have[g]) return;
    slot.have[g] = true;
    slot.games[g] = game;
    slot.challenger_first[g] = pairing.first == tests_[static_cast<std::size_t>(test)].challenger;
    if (!slot.complete()) return;
    auto& track = tracks_[static_cast<std::size_t>(test)];
    ++track.complete;
    advance(static_cast<std::size_t>(test));
    auto& t = tests_[static_cast<std::size_t>(test)];
    t.late_pairs = t.finished() ? track.complete - t.counted_pairs - t.repeated_pairs : 0;
}

void GauntletSprt::advance(std::size_t test) {
    auto& track = tracks_[test];
    auto& t = tests_[test];
    while (!t.finished() && track.cursor < track.pairs.size()) {
        const auto& slot = slots_[static_cast<std::size_t>(track.pairs[track.cursor])];
        if (!slot.complete()) break;
        ++track.cursor;
        // The challenger's first move is game 0 or game 1 of the pair.
        const std::size_t c = slot.challenger_first[0] ? 0 : 1;
        if (!track.repeats.counts(slot.games[c], slot.games[1 - c])) {
            t.repeated_pairs = track.repeats.repeated();
            t.stopped_repeating = track.repeats.in_a_row() >= kRepeatsInARowToStop;
            continue;
        }
        const double points = slot.score(0) + slot.score(1);
        const auto bin = static_cast<std::size_t>(std::lround(2.0 * points));
        ++t.pairs.bins[std::min<std::size_t>(bin, 4)];
        for (const double s : {slot.score(0), slot.score(1)}) {
            if (s > 0.5) {
                ++t.games.wins;
            } else if (s < 0.5) {
                ++t.games.losses;
            } else {
                ++t.games.draws;
            }
        }
        t.counted_pairs = t.pairs.pairs();
        if (options_) t.result = rating::sprt(t.pairs, *options_);
    }
}

bool GauntletSprt::finished(const Pairing& pairing) const {
    if (pairing.pair < 0 || static_cast<std::size_t>(pairing.pair) >= slots_.size()) return false;
    const int test = test_of_pair_[static_cast<std::size_t>(pairing.pair)];
    return test >= 0 && tests_[static_cast<std::size_t>(test)].finished();
}

bool GauntletSprt::all_finished() const {
    return std::all_of(tests_.begin(), tests_.end(), [](const auto& t) { return t.finished(); });
}

std::int64_t GauntletSprt::needed_games() const {
    std::int64_t games = 0;
    for (std::size_t t = 0; t < tests_.size(); ++t) {
        const auto& test = tests_[t];
        const auto& track = tracks_[t];
        if (!test.finished() && test.playable) {
            games += 2 * test.scheduled_pairs;
            continue;
        }
        // Finished, or no longer playable: the games stored count (counted,
        // repeated and late pairs, and single games of pairs cut short), the rest are
        // not needed.
        for (const int p : track.pairs) {
            const auto& slot = slots_[static_cast<std::size_t>(p)];
            games +=
                static_cast<std::int64_t>(slot.have[0]) + static_cast<std::int64_t>(slot.have[1]);
        }
    }
    return games;
}

}  // namespace arena::tournament
