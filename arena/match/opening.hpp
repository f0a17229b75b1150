#pragma once
// Openings: the first plies of a game, played by the arena before the bots
// take over, so that deterministic bots do not replay one game forever.
// Both games of a colour-swapped pair share one opening.

#include <cstdint>
#include <string>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::match {

// A well-mixed 64-bit value from a base seed and an index (splitmix64), so
// each pair, board and opening gets its own reproducible stream.
[[nodiscard]] std::uint64_t derive_seed(std::uint64_t base, std::uint64_t index);

// `plies` uniformly random legal moves from the initial position, drawn from
// `seed`, that leave the game unfinished. Fewer plies when the game cannot
// be kept open that long.
[[nodiscard]] std::vector<games::Move> random_opening(const games::Game& game, int plies,
                                                      std::uint64_t seed);

// Continuation `index` of a position: `plies` legal moves from `state` that
// leave the game going, taken from the moves of each ply in an order
// shuffled by `seed`. The index is read digit by digit, one digit per ply in
// the base of that ply's number of moves, so indices below the product of
// those numbers give different continuations. Fewer plies when an index's
// moves end the game and its next 100 indices do too.
[[nodiscard]] std::vector<games::Move> continuation(const games::State& state, int plies,
                                                    std::uint64_t index, std::uint64_t seed);

// The opening's moves in protocol notation, space-separated, as stored.
[[nodiscard]] std::string opening_text(const games::Game& game,
                                       const std::vector<games::Move>& opening);

}  // namespace arena::match
