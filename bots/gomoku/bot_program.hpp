#pragma once
// What the mains of the Gomoku bots share: the engine and the --bench of a
// BotProgram, and the settings of --bench and --level of the threat-search
// bots (gomoku-vcf, gomoku-pro).

#include <algorithm>
#include <memory>

#include "bots/common/bot_main.hpp"
#include "bots/gomoku/engine.hpp"

namespace arena::bots::gomoku {

// Sets `program`'s engine and its --bench to an `E` built from
// `options(common, bench)`: the options of a game, or of the benchmark.
template <class E, class OptionsFn>
void set_engine(BotProgram& program, OptionsFn options) {
    program.make_engine = [options](const CommonFlags& common) -> std::unique_ptr<Engine> {
        return std::make_unique<E>(options(common, false));
    };
    program.bench = [options](const CommonFlags& common) {
        E engine(options(common, true));
        return run_bench(engine);
    };
}

// The benchmark searches `bench_depth` plies with smaller root threat
// budgets; --level N limits the depth to N + 1 plies and turns VCT off
// below level 3.
template <class Options>
void apply_bench_and_level(Options& o, const CommonFlags& common, bool bench, int bench_depth) {
    if (bench) {
        o.max_depth = bench_depth;
        o.root_vcf_nodes = 200'000;
        o.root_vct_nodes = 100'000;
    }
    if (common.level) {
        o.max_depth = std::clamp(*common.level + 1, 2, 64);
        if (*common.level < 3) o.vct_depth = 0;
    }
}

}  // namespace arena::bots::gomoku
