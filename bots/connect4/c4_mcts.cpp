// c4-mcts: UCT with MCTS-solver and tree reuse, from seed 004 (see mcts.hpp).
//
//   c4-mcts [--c C] [--simulations N] [--no-reuse] [--seed N] [--level N] [--bench]

#include <iostream>

#include "bots/common/bot_main.hpp"
#include "bots/connect4/mcts.hpp"
#include "bots/connect4/tree_flags.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena;
    c4::MctsOptions options;
    bool no_reuse = false;
    bots::BotProgram program;
    program.info = {.name = "c4-mcts", .author = "arena reference bots", .version = "1"};
    program.summary =
        "Connect-4 by Monte Carlo tree search: UCT, random playouts, proven wins and losses, "
        "the tree kept between moves (seed 004).";
    // clang-format off
    program.flags.add_options()
        ("c", po::value<double>(&options.c)->default_value(0.8, "0.8"), "UCT exploration constant")
        ("simulations", po::value<std::int64_t>(&options.simulations)->default_value(0), "simulations per move (0: until the time is spent)")
        ("tree-log2", po::value<int>(&options.log2_nodes)->default_value(21), "tree capacity: 2^N nodes of 16 bytes (twice: a spare pool for compaction)")
        ("no-reuse", po::bool_switch(&no_reuse), "start a new tree at every move");
    // clang-format on
    auto make = [&](const bots::CommonFlags& common, std::int64_t sims) {
        c4::MctsOptions o = options;
        c4::apply_tree_flags(o, common, sims, no_reuse);
        return c4::make_mcts_engine(o);
    };
    program.make_engine = [&](const bots::CommonFlags& common) -> std::unique_ptr<bots::Engine> {
        return make(common, 0);
    };
    program.bench = [&](const bots::CommonFlags& common) {
        return c4::run_bench(*make(common, c4::tree_bench_simulations(options.simulations)));
    };
    std::ios::sync_with_stdio(false);
    return bots::bot_main(argc, argv, program);
}
