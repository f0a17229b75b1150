#pragma once
// What the command lines of the Monte Carlo bots (c4-mcts, c4-pro) share:
// how --seed, --level, --no-reuse, --tree-log2 and the bench's fixed count
// of simulations become options.

#include <algorithm>
#include <cstdint>

#include "bots/common/bot_main.hpp"

namespace arena::c4 {

// Simulations per move of `--bench` when --simulations does not say.
inline constexpr std::int64_t kTreeBenchSimulations = 20000;

// Applies the common flags to `o` (MctsOptions or ProOptions): the seed,
// tree reuse unless `no_reuse`, `sims` simulations per move when positive,
// else for a --level without --simulations 250 at level 1 and four times as
// many a level up; the tree capacity clamped to 2^12..2^28 nodes.
template <class Options>
void apply_tree_flags(Options& o, const bots::CommonFlags& common, std::int64_t sims,
                      bool no_reuse) {
    o.seed = common.seed;
    o.reuse = !no_reuse;
    if (sims > 0) o.simulations = sims;
    if (common.level && o.simulations == 0) {
        o.simulations = 250;
        for (int l = 1; l < *common.level; ++l)
            o.simulations *= 4;
    }
    o.log2_nodes = std::clamp(o.log2_nodes, 12, 28);
}

// The simulations per move of `--bench`: --simulations, else the default.
[[nodiscard]] inline std::int64_t tree_bench_simulations(std::int64_t simulations) {
    return simulations > 0 ? simulations : kTreeBenchSimulations;
}

}  // namespace arena::c4
