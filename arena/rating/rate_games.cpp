#include "arena/rating/rate_games.hpp"

#include <algorithm>
#include <stdexcept>

#include "arena/rating/games_csv.hpp"

namespace arena::rating {

RatedGames rate_games(std::string_view text, const std::vector<Anchor>& anchors,
                      bool fit_advantage) {
    RatedGames rated;
    rated.games = read_rated_games(text, rated.names);
    if (rated.games.empty()) throw std::invalid_argument("no games");
    for (const auto& anchor : anchors) {
        if (std::find(rated.names.begin(), rated.names.end(), anchor.name) == rated.names.end())
            throw std::invalid_argument("no player '" + anchor.name + "' to anchor on");
    }
    FitOptions options;
    options.anchors = anchors;
    if (!fit_advantage) options.fixed_advantage = 0.0;
    rated.fit = fit_elo(rated.names, rated.games, options);
    return rated;
}

}  // namespace arena::rating
