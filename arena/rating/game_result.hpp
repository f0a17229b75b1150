#pragma once
// One finished game as the rating statistics take it (elo.hpp), and as the
// games CSV reader gives it (games_csv.hpp).

#include <cstdint>

namespace arena::rating {

// One finished game. `first` and `second` index the player names; `first`
// moved first; `score` is what the first mover scored: 1, 0.5 or 0 (any value
// in [0, 1] is accepted, e.g. for a game pair scored as one).
struct GameResult {
    int first = 0;
    int second = 0;
    double score = 0.0;
    // How many identical games this entry stands for (at least 1), so that
    // stored games can be passed counted by pair and result.
    std::int64_t count = 1;
};

}  // namespace arena::rating
