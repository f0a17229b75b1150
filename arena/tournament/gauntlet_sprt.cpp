#include "arena/tournament/gauntlet_sprt.hpp"

#include <algorithm>
#include <cmath>

namespace arena::tournament {

GauntletSprt::GauntletSprt(const Config& config, const std::vector<Pairing>& schedule)
    : options_(config.sprt.value_or(rating::SprtOptions{})) {
    const int bots = static_cast<int>(config.bots.size());
    for (int b = 0; b < bots; ++b)
        if (config.bots[static_cast<std::size_t>(b)].name == config.challenger) challenger_ = b;
    std::vector<int> test_of_bot(static_cast<std::size_t>(bots), -1);
    for (int b = 0; b < bots; ++b) {
        if (b == challenger_) continue;
        test_of_bot[static_cast<std::size_t>(b)] = static_cast<int>(tests_.size());
        OpponentTest t;
        t.opponent = b;
        t.result = rating::sprt(rating::Pentanomial{}, options_);
        tests_.push_back(t);
        tracks_.emplace_back();
    }
    int pairs = 0;
    for (const auto& p : schedule)
        pairs = std::max(pairs, p.pair + 1);
    slots_.resize(static_cast<std::size_t>(pairs));
    test_of_pair_.assign(static_cast<std::size_t>(pairs), -1);
    for (const auto& p : schedule) {
        if (p.game_in_pair != 0) continue;
        const int opponent = p.first == challenger_ ? p.second : p.first;
        const int test = test_of_bot[static_cast<std::size_t>(opponent)];
        if (test < 0) continue;
        test_of_pair_[static_cast<std::size_t>(p.pair)] = test;
        tracks_[static_cast<std::size_t>(test)].pairs.push_back(p.pair);
    }
    // Schedule order is pair order; sorting keeps that true whatever the schedule.
    for (std::size_t t = 0; t < tests_.size(); ++t) {
        auto& track = tracks_[t];
        std::sort(track.pairs.begin(), track.pairs.end());
        tests_[t].scheduled_pairs = static_cast<std::int64_t>(track.pairs.size());
    }
}

void GauntletSprt::add(const Pairing& pairing, double first_score) {
    if (pairing.pair < 0 || static_cast<std::size_t>(pairing.pair) >= slots_.size()) return;
    if (pairing.game_in_pair < 0 || pairing.game_in_pair > 1) return;
    const int test = test_of_pair_[static_cast<std::size_t>(pairing.pair)];
    if (test < 0) return;
    auto& slot = slots_[static_cast<std::size_t>(pairing.pair)];
    const auto g = static_cast<std::size_t>(pairing.game_in_pair);
    if (slot.have[g]) return;
    slot.have[g] = true;
    slot.scores[g] = pairing.first == challenger_ ? first_score : 1.0 - first_score;
    if (!slot.complete()) return;
    auto& track = tracks_[static_cast<std::size_t>(test)];
    ++track.complete;
    advance(static_cast<std::size_t>(test));
    auto& t = tests_[static_cast<std::size_t>(test)];
    t.late_pairs = t.decided() ? track.complete - t.counted_pairs : 0;
}

void GauntletSprt::advance(std::size_t test) {
    auto& track = tracks_[test];
    auto& t = tests_[test];
    while (!t.decided() && track.cursor < track.pairs.size()) {
        const auto& slot = slots_[static_cast<std::size_t>(track.pairs[track.cursor])];
        if (!slot.complete()) break;
        const double points = slot.scores[0] + slot.scores[1];
        const auto bin = static_cast<std::size_t>(std::lround(2.0 * points));
        ++t.pairs.bins[std::min<std::size_t>(bin, 4)];
        for (const double s : slot.scores) {
            if (s > 0.5) {
                ++t.games.wins;
            } else if (s < 0.5) {
                ++t.games.losses;
            } else {
                ++t.games.draws;
            }
        }
        ++track.cursor;
        t.counted_pairs = static_cast<std::int64_t>(track.cursor);
        t.result = rating::sprt(t.pairs, options_);
    }
}

bool GauntletSprt::decided(const Pairing& pairing) const {
    if (pairing.pair < 0 || static_cast<std::size_t>(pairing.pair) >= slots_.size()) return false;
    const int test = test_of_pair_[static_cast<std::size_t>(pairing.pair)];
    return test >= 0 && tests_[static_cast<std::size_t>(test)].decided();
}

bool GauntletSprt::all_decided() const {
    return std::all_of(tests_.begin(), tests_.end(), [](const auto& t) { return t.decided(); });
}

std::int64_t GauntletSprt::needed_games() const {
    std::int64_t games = 0;
    for (std::size_t t = 0; t < tests_.size(); ++t) {
        const auto& test = tests_[t];
        const auto& track = tracks_[t];
        if (!test.decided()) {
            games += 2 * test.scheduled_pairs;
            continue;
        }
        // Decided: the games stored count (counted and late pairs, and
        // single games of pairs cut short), the rest are not needed.
        for (const int p : track.pairs) {
            const auto& slot = slots_[static_cast<std::size_t>(p)];
            games +=
                static_cast<std::int64_t>(slot.have[0]) + static_cast<std::int64_t>(slot.have[1]);
        }
    }
    return games;
}

}  // namespace arena::tournament
