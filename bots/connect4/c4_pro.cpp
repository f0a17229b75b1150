// c4-pro: MCTS with tactical playouts and exact proofs, for large and
// irregular boards (see pro.hpp).
//
//   c4-pro [--c C] [--bias W] [--simulations N] [--no-reuse] [--seed N] [--level N] [--bench]

#include <iostream>

#include "bots/common/bot_main.hpp"
#include "bots/connect4/pro.hpp"
#include "bots/connect4/tree_flags.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena;
    c4::ProOptions options;
    bool no_reuse = false;
    bots::BotProgram program;
    program.info = {.name = "c4-pro", .author = "arena reference bots", .version = "1"};
    program.summary =
        "Connect-4 for large and irregular boards: UCT with progressive bias, tactical playouts "
        "(win, block, never under a threat), MCTS-solver proofs and the exact solver near the "
        "end.";
    // clang-format off
    program.flags.add_options()
        ("c", po::value<double>(&options.c)->default_value(0.7, "0.7"), "UCT exploration constant")
        ("bias", po::value<double>(&options.bias)->default_value(0.3, "0.3"), "weight of the progressive bias (0: none)")
        ("simulations", po::value<std::int64_t>(&options.simulations)->default_value(0), "simulations per move (0: until the time is spent)")
        ("tree-log2", po::value<int>(&options.log2_nodes)->default_value(22), "tree capacity: 2^N nodes of 16 bytes (twice: a spare pool for compaction)")
        ("hash-log2", po::value<int>(&options.log2_exact)->default_value(21), "exact-solver table: 2^N entries of 16 bytes")
        ("tree-solve", po::value<int>(&options.tree_solve_empties)->default_value(0), "solve tree nodes with at most N empty cells (0: 16)")
        ("root-solve", po::value<int>(&options.root_solve_empties)->default_value(0), "try the exact solver at the root from N empty cells (0: by board)")
        ("no-reuse", po::bool_switch(&no_reuse), "start a new tree at every move");
    // clang-format on
    auto make = [&](const bots::CommonFlags& common, std::int64_t sims) {
        c4::ProOptions o = options;
        c4::apply_tree_flags(o, common, sims, no_reuse);
        if (o.c < 0 || o.bias < 0)
            throw std::invalid_argument("--c and --bias must not be negative");
        o.log2_exact = std::clamp(o.log2_exact, 10, 28);
        return c4::make_pro_engine(o);
    };
    program.make_engine = [&](const bots::CommonFlags& common) -> std::unique_ptr<bots::Engine> {
        return make(common, 0);
    };
    program.bench = [&](const bots::CommonFlags& common) {
        std::unique_ptr<c4::Connect4Engine> engine;
        try {
            engine = make(common, c4::tree_bench_simulations(options.simulations));
        } catch (const std::exception& e) {
            std::cerr << "c4-pro: " << e.what() << "\n";
            return 2;
        }
        return c4::run_bench(*engine);
    };
    std::ios::sync_with_stdio(false);
    return bots::bot_main(argc, argv, program);
}
