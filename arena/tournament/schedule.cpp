#include "arena/tournament/schedule.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/match/opening.hpp"

namespace arena::tournament {
namespace {

// Seed streams per pair: the board, the random opening, the opening line.
enum Stream : std::uint64_t {
    kBoardStream = 0,
    kOpeningStream = 1,
    kOpeningLineStream = 2,
    kOpeningShuffleStream = 3,
    kOpeningPassStream = 4,
};

// Where pair 0 starts in the file's order (opening_line).
std::size_t first_line_offset(const Config& config) {
    const std::size_t n = config.openings.lines.size();
    if (config.openings.order == OpeningOrder::kSeededStart)
        return match::derive_seed(config.seed, kOpeningLineStream) % n;
    return static_cast<std::size_t>(config.openings.start - 1);
}

// The meetings of a segment, in schedule order: (lower, higher) entrant, or
// (challenger, other) in a gauntlet.
std::vector<std::pair<int, int>> meetings(const Segment& segment) {
    std::vector<std::pair<int, int>> result;
    if (segment.ladder) return result;
    const auto& active = segment.active;
    if (segment.gauntlet && !segment.challengers.empty()) {
        const auto& c = segment.challengers;
        const auto is_challenger = [&](int e) {
            return std::find(c.begin(), c.end(), e) != c.end();
        };
        for (const int a : active) {
            if (!is_challenger(a)) continue;
            for (const int e : active)
                if (!is_challenger(e)) result.emplace_back(a, e);
        }
    } else if (segment.gauntlet) {
        if (segment.challenger < 0) return result;
        for (const int e : active)
            if (e != segment.challenger) result.emplace_back(segment.challenger, e);
    } else {
        for (std::size_t i = 0; i < active.size(); ++i)
            for (std::size_t j = i + 1; j < active.size(); ++j)
                result.emplace_back(active[i], active[j]);
    }
    return result;
}

}  // namespace

Segment first_segment(const Config& config) {
    Segment segment;
    segment.gauntlet = config.schedule == ScheduleType::kGauntlet;
    segment.ladder = config.schedule == ScheduleType::kLadder;
    const int n = static_cast<int>(config.bots.size());
    for (int i = 0; i < n; ++i) {
        segment.active.push_back(i);
        if (segment.gauntlet && config.challengers_from_bots_dir &&
            !config.bots[static_cast<std::size_t>(i)].manifest.empty())
            segment.challengers.push_back(i);
        if (segment.gauntlet && config.bots[static_cast<std::size_t>(i)].name == config.challenger)
            segment.challenger = i;
    }
    // A gauntlet whose challenger is not among the bots (configs are checked
    // before): the first bot, as before segments.
    if (segment.gauntlet && !config.challengers_from_bots_dir && segment.challenger < 0 && n > 0)
        segment.challenger = 0;
    segment.games_per_pair = config.games_per_pair;
    segment.rounds = config.rounds;
    return segment;
}

std::vector<Pairing> make_schedule(const Config& config) {
    return make_schedule(std::vector<Segment>{first_segment(config)});
}

std::vector<Pairing> make_schedule(const std::vector<Segment>& segments) {
    std::vector<Pairing> schedule;
    // Pairs scheduled so far per meeting, by its two entrants (lower first).
    std::map<std::pair<int, int>, int> scheduled;
    const auto key = [](int a, int b) { return std::pair(std::min(a, b), std::max(a, b)); };
    int pair = 0;
    for (std::size_t s = 0; s < segments.size(); ++s) {
        const auto& segment = segments[s];
        const int per_round = std::max(1, segment.games_per_pair / 2);
        const int target = per_round * segment.rounds;
        const auto meets = meetings(segment);
        // A map's elements stay where they are: one lookup per meeting.
        std::vector<int*> counts;
        counts.reserve(meets.size());
        int from = target;
        for (const auto& [a, b] : meets) {
            counts.push_back(&scheduled[key(a, b)]);
            from = std::min(from, *counts.back());
        }
        for (int k = from; k < target; ++k) {
            for (std::size_t m = 0; m < meets.size(); ++m) {
                const auto [a, b] = meets[m];
                int& count = *counts[m];
                if (count != k) continue;
                for (int g = 0; g < 2; ++g) {
                    Pairing p;
                    p.index = static_cast<std::int64_t>(schedule.size());
                    p.round = k / per_round;
                    p.pair = pair;
                    p.game_in_pair = g;
                    p.first = g == 0 ? a : b;
                    p.second = g == 0 ? b : a;
                    p.segment = static_cast<int>(s);
                    p.meeting_pair = k;
                    schedule.push_back(p);
                }
                ++count;
                ++pair;
            }
        }
    }
    return schedule;
}

std::vector<std::size_t> opening_order(const Config& config) {
    const std::size_t n = config.openings.lines.size();
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    if (config.openings.order == OpeningOrder::kRandom) {
        // Fisher-Yates with plain modulo of derived seeds: the same shuffle
        // on every platform and standard library.
        const auto base = match::derive_seed(config.seed, kOpeningShuffleStream);
        for (std::size_t i = n; i > 1; --i) {
            const auto j = match::derive_seed(base, i) % i;
            std::swap(order[i - 1], order[j]);
        }
    }
    return order;
}

std::size_t opening_line(const Config& config, int pair) {
    const std::size_t n = config.openings.lines.size();
    // A start in the file (seeded, or `start`), then its lines in order (or
    // in the seeded shuffle), pair by pair.
    const std::size_t at = (first_line_offset(config) + static_cast<std::size_t>(pair)) % n;
    if (config.openings.order == OpeningOrder::kRandom) return opening_order(config)[at];
    return at;
}

std::size_t opening_pass(const Config& config, int pair) {
    return static_cast<std::size_t>(pair) / config.openings.lines.size();
}

PairSetup pair_setup(const Config& config, const Pairing& pairing) {
    const bool same = config.openings.same_per_opponent && pairing.meeting_pair >= 0;
    return pair_setup(config, same ? pairing.meeting_pair : pairing.pair);
}

PairSetup pair_setup(const Config& config, int pair) {
    const auto pair_seed = match::derive_seed(config.seed, static_cast<std::uint64_t>(pair));
    PairSetup setup;
    setup.board = games::realize(config.game, config.game_params,
                                 match::derive_seed(pair_seed, kBoardStream));
    const auto game = games::make_game(config.game, setup.board);
    const auto& lines = config.openings.lines;
    if (!lines.empty()) {
        const std::size_t line_index = opening_line(config, pair);
        const auto& line = lines[line_index];
        // On a board drawn per pair (variant=tsinghua) a line may not fit:
        // the opening stops before the first move that is not legal there.
        auto state = game->new_initial_state();
        for (const auto& text : line) {
            const auto m = state->parse_move(text);
            if (!m || !state->is_legal(*m)) break;
            state->apply(*m);
            if (state->is_over()) break;
            setup.opening.push_back(*m);
        }
        if (const std::size_t pass = opening_pass(config, pair); pass > 0 && !state->is_over()) {
            const auto line_seed =
                match::derive_seed(match::derive_seed(config.seed, kOpeningPassStream), line_index);
            for (const auto m : match::continuation(*state, kPassPlies, pass - 1, line_seed))
                setup.opening.push_back(m);
        }
    } else if (config.openings.random_plies > 0) {
        setup.opening = match::random_opening(*game, config.openings.random_plies,
                                              match::derive_seed(pair_seed, kOpeningStream));
    }
    return setup;
}

}  // namespace arena::tournament
