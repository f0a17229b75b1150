// reversi-mcts: UCT with random bitboard playouts and the tree kept between
// moves.
//
//   reversi-mcts [--simulations N] [--c X] [--level N] [--seed N] [--bench]

#include <iostream>
#include <memory>
#include <stdexcept>

#include "bots/common/bot_main.hpp"
#include "bots/reversi/mcts.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    std::ios::sync_with_stdio(false);
    arena::bots::reversi::MctsOptions options;
    arena::bots::BotProgram program{
        .info = {.name = "reversi-mcts", .author = "arena", .version = "1"},
        .summary =
            "Reversi: UCT Monte-Carlo tree search with random playouts, the tree kept "
            "between moves.",
        .make_engine = [&options](const arena::bots::CommonFlags& common)
            -> std::unique_ptr<arena::bots::Engine> {
            if (options.c < 0) throw std::invalid_argument("--c must not be negative");
            options.seed = common.seed;
            // Level N: 25 * 4^(N-1) simulations (1: 25, 2: 100, 3: 400, ...).
            if (common.level && options.simulations == 0)
                options.simulations = std::uint64_t{25} << (2 * std::min(*common.level - 1, 20));
            return std::make_unique<arena::bots::reversi::MctsEngine>(options);
        },
        .bench =
            [](const arena::bots::CommonFlags& common) {
                return arena::bots::reversi::mcts_bench(common.seed);
            },
        .after_loop = {},
    };
    // clang-format off
    program.flags.add_options()
        ("simulations", po::value<std::uint64_t>(&options.simulations)->default_value(0),
         "simulations per move (0: as many as the time allows)")
        ("c", po::value<double>(&options.c)->default_value(options.c, "0.4"),
         "UCT exploration constant");
    // clang-format on
    return arena::bots::bot_main(argc, argv, program);
}
