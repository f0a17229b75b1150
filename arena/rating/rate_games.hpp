#pragma once
// `arena rate`: the Elo fit of games from any source, read from the text of
// a CSV (games_csv.hpp) and fitted by fit_elo (elo.hpp).

#include <string>
#include <string_view>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/rating/game_result.hpp"

namespace arena::rating {

// The games of a CSV and their fit.
struct RatedGames {
    std::vector<std::string> names;  // the players, in order of appearance
    std::vector<GameResult> games;
    EloFit fit;
};

// Reads the games of `text` (read_rated_games) and fits their ratings with
// `anchors` held, and a first-mover advantage when `fit_advantage` (else
// none). Throws std::runtime_error for bad input, std::invalid_argument for
// no games or an anchor that names no player (the message names it).
[[nodiscard]] RatedGames rate_games(std::string_view text, const std::vector<Anchor>& anchors,
                                    bool fit_advantage);

}  // namespace arena::rating
