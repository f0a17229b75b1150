#include "arena/tournament/schedule.hpp"

#include <cstddef>
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
};

std::vector<std::pair<int, int>> meetings(const Config& config) {
    std::vector<std::pair<int, int>> result;
    const int n = static_cast<int>(config.bots.size());
    if (config.schedule == ScheduleType::kGauntlet) {
        int challenger = 0;
        for (int i = 0; i < n; ++i)
            if (config.bots[i].name == config.challenger) challenger = i;
        for (int i = 0; i < n; ++i)
            if (i != challenger) result.emplace_back(challenger, i);
    } else {
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                result.emplace_back(i, j);
    }
    return result;
}

}  // namespace

std::vector<Pairing> make_schedule(const Config& config) {
    const auto meets = meetings(config);
    std::vector<Pairing> schedule;
    schedule.reserve(meets.size() * config.games_per_pair * config.rounds);
    int pair = 0;
    for (int round = 0; round < config.rounds; ++round) {
        for (int rep = 0; rep < config.games_per_pair / 2; ++rep) {
            for (const auto& [a, b] : meets) {
                for (int g = 0; g < 2; ++g) {
                    Pairing p;
                    p.index = static_cast<std::int64_t>(schedule.size());
                    p.round = round;
                    p.pair = pair;
                    p.game_in_pair = g;
                    p.first = g == 0 ? a : b;
                    p.second = g == 0 ? b : a;
                    schedule.push_back(p);
                }
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
    const auto p = static_cast<std::size_t>(pair);
    switch (config.openings.order) {
        case OpeningOrder::kSeededStart:
            // A seeded start in the file, then its lines in order, pair by pair.
            return (match::derive_seed(config.seed, kOpeningLineStream) % n + p) % n;
        case OpeningOrder::kSequential:
            return (static_cast<std::size_t>(config.openings.start - 1) + p) % n;
        case OpeningOrder::kRandom:
            return opening_order(
                config)[(static_cast<std::size_t>(config.openings.start - 1) + p) % n];
    }
    return 0;
}

PairSetup pair_setup(const Config& config, int pair) {
    const auto pair_seed = match::derive_seed(config.seed, static_cast<std::uint64_t>(pair));
    PairSetup setup;
    setup.board = games::realize(config.game, config.game_params,
                                 match::derive_seed(pair_seed, kBoardStream));
    const auto game = games::make_game(config.game, setup.board);
    const auto& lines = config.openings.lines;
    if (!lines.empty()) {
        const auto& line = lines[opening_line(config, pair)];
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
    } else if (config.openings.random_plies > 0) {
        setup.opening = match::random_opening(*game, config.openings.random_plies,
                                              match::derive_seed(pair_seed, kOpeningStream));
    }
    return setup;
}

}  // namespace arena::tournament
