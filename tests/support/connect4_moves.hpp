#pragma once
// Connect-4 boards and positions for the bot tests: a board's config, and
// the state after a list of moves.

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/connect4.hpp"

namespace arena::testing {

inline games::Connect4Config config(int rows, int cols, int connect,
                                    std::vector<games::Connect4Cell> blocked = {}) {
    return games::Connect4Config{
        .rows = rows, .cols = cols, .connect = connect, .blocked = blocked};
}

// The state after `moves` (1-based columns, space separated); each must be
// legal.
inline std::unique_ptr<games::State> play(const games::Connect4Game& game,
                                          const std::string& moves) {
    auto state = game.new_initial_state();
    std::istringstream in(moves);
    int col = 0;
    while (in >> col) {
        EXPECT_TRUE(state->is_legal(col - 1)) << moves;
        state->apply(col - 1);
    }
    return state;
}

}  // namespace arena::testing
