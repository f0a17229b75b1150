#pragma once
// Games by name. Parameters arrive as key=value text (from a config, the
// command line or the protocol's `game` line) and are validated here: an
// unknown game, an unknown key or a bad value throws GameError with a message
// that names it.
//
// Some parameter sets describe a family of boards rather than one board
// (connect4 variant=tsinghua: a random size and blocked cell). realize()
// turns such a set into a concrete one from a seed; the tournament draws one
// seed per colour-swapped pair so both games of the pair share the board.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::games {

[[nodiscard]] std::vector<std::string> game_names();

// Throws GameError for an unknown name or bad parameters. Parameters that
// need a seed (variant=tsinghua) are rejected here: call realize() first.
[[nodiscard]] std::unique_ptr<Game> make_game(std::string_view name, const Params& params);

// Concrete parameters for one board of the family `params` describes.
// Returns `params` unchanged when they already describe one board.
[[nodiscard]] Params realize(std::string_view name, const Params& params, std::uint64_t seed);

// Looks up `key` in `params`; nullptr when absent.
[[nodiscard]] const std::string* find_param(const Params& params, std::string_view key);

}  // namespace arena::games
