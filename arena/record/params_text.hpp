#pragma once
// A game's parameters as one line of text, "width=7 height=6": how the store
// keeps them and how people read them. The words are split on spaces, so a
// value cannot hold one (no game's parameter does).

#include <string>
#include <string_view>

#include "arena/games/game.hpp"

namespace arena::record {

// "key=value key=value", in the order given.
[[nodiscard]] std::string params_text(const games::Params& params);

// The inverse of params_text; a word without '=' is skipped.
[[nodiscard]] games::Params parse_params(std::string_view text);

}  // namespace arena::record
