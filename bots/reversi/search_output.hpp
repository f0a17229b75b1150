#pragma once
// The lines the reversi bots print about their searches: the `info` line of
// a completed iteration and the totals of --bench.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>

#include "bots/reversi/board.hpp"

namespace arena::bots::reversi {

// The rate of `nodes` since `t0`, per second.
[[nodiscard]] inline std::uint64_t nodes_per_second(std::uint64_t nodes,
                                                    std::chrono::steady_clock::time_point t0) {
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    return nodes * 1000000 / static_cast<std::uint64_t>(std::max<long>(us, 1));
}

// "depth <d> score <s>[ <kind>] nodes <n> nps <n> pv <move>"; `kind` names
// an endgame result ("exact", "wld") or is empty.
[[nodiscard]] inline std::string info_line(int depth, int score, std::string_view kind,
                                           std::uint64_t nodes,
                                           std::chrono::steady_clock::time_point t0, int move) {
    // Built by appending: GCC 12 at -O3 misreads a bound (-Wrestrict) in
    // `"depth " + std::to_string(depth)` once inlined here.
    std::string line = "depth ";
    line += std::to_string(depth);
    line += " score ";
    line += std::to_string(score);
    if (!kind.empty()) {
        line += ' ';
        line += kind;
    }
    line += " nodes ";
    line += std::to_string(nodes);
    line += " nps ";
    line += std::to_string(nodes_per_second(nodes, t0));
    line += " pv ";
    line += square_name(move);
    return line;
}

// A --bench position: `plies` moves of the seeded random game `seed`,
// searched to `depth` (0: solved exactly).
struct BenchCase {
    std::uint64_t seed;
    int plies;
    int depth;
};

// Prints "nodes <n>" and "nps <n>", the rate since `t0`.
inline void print_bench_totals(std::uint64_t nodes, std::chrono::steady_clock::time_point t0) {
    std::cout << "nodes " << nodes << "\nnps " << nodes_per_second(nodes, t0) << "\n";
}

}  // namespace arena::bots::reversi
