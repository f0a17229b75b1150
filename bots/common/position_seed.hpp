#pragma once
// A seed for one decision that depends only on the bot's seed and the
// position, never on what the process did before. A bot that draws its
// random choices from it plays the same move in the same position whether
// its process is fresh or has played a hundred games, which makes
// tournaments reproducible and exactly resumable.

#include <cstdint>
#include <string>

#include "arena/games/game.hpp"

namespace arena::bots {

[[nodiscard]] inline std::uint64_t position_seed(std::uint64_t seed, const games::State& state) {
    // FNV-1a over the rendered board and the side to move, then mixed with
    // the seed by splitmix64's finaliser.
    std::uint64_t h = 0xcbf29ce484222325ULL;
    const std::string board = state.render() + static_cast<char>('0' + state.current_player());
    for (const unsigned char c : board)
        h = (h ^ c) * 0x100000001b3ULL;
    std::uint64_t z = h ^ (seed + 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace arena::bots
