#pragma once
// The search limits a `go` may carry (protocol/PROTOCOL.md, section 4):
// `depth=<n>`, search n plies ahead and no further, and `nodes=<n>`, stop
// after about n nodes (a Monte Carlo bot counts simulations). `move_ms`
// still holds. A bot given either runs each iteration to its limit rather
// than stopping early to save time (no soft limit), so the same position and
// limits give the same move under any load, unless the hard limit cuts the
// search first. Each bot's README section says what the limits mean for it.

#include <algorithm>
#include <cstdint>
#include <limits>

#include "protocol/codec.hpp"

namespace arena::bots {

struct SearchLimits {
    int depth = 0;            // 0: none
    std::uint64_t nodes = 0;  // 0: none

    [[nodiscard]] static SearchLimits of(const protocol::Go& go) {
        SearchLimits l;
        if (go.depth && *go.depth > 0)
            l.depth = static_cast<int>(
                std::min<std::int64_t>(*go.depth, std::numeric_limits<int>::max()));
        if (go.nodes && *go.nodes > 0) l.nodes = static_cast<std::uint64_t>(*go.nodes);
        return l;
    }

    // Whether the `go` set a limit: then no soft limit applies.
    [[nodiscard]] bool any() const { return depth > 0 || nodes > 0; }
    // The deepest iteration: the `go`'s depth when it set one, else `otherwise`.
    [[nodiscard]] int max_depth(int otherwise) const { return depth > 0 ? depth : otherwise; }
    // Whether `searched` nodes have used up the node limit.
    [[nodiscard]] bool out_of_nodes(std::uint64_t searched) const {
        return nodes > 0 && searched >= nodes;
    }
};

}  // namespace arena::bots
