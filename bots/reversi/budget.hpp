#pragma once
// The time the reversi bots give SearchClock.
//
// The arena measures a move from writing `go` to reading `move`. On a loaded
// machine a CPU-bound bot also waits for the scheduler at both ends: in a
// 2-core ladder at load 6 (100 ms per move), moves of reversi-mcts that
// stopped searching at 76 ms arrived after 84 ms in the median and 105 ms at
// the 99.9th percentile, and at load 12 one move that stopped at 57 ms
// arrived after 110 ms. SearchClock keeps 10 % of the limit (at least 8 ms);
// this holds back a further 30 ms, at most a quarter of the limit.

#include <algorithm>
#include <cstdint>

#include "protocol/codec.hpp"

namespace arena::bots::reversi {

[[nodiscard]] inline protocol::Go with_reserve(protocol::Go go) {
    go.move_ms -= std::min<std::int64_t>(30, go.move_ms / 4);
    return go;
}

}  // namespace arena::bots::reversi
