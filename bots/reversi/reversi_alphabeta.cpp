// reversi-alphabeta: the seed 002 program (alpha-beta with a cache and the
// corner / stability / frontier / mobility evaluation) on bitboards, with
// iterative deepening under the clock and an exact endgame solver.
//
//   reversi-alphabeta [--depth N] [--endgame N] [--level N] [--bench]
//                     [--corner W] [--steady W] [--mobility W] [--frontier W]

#include <iostream>
#include <memory>

#include "bots/common/bot_main.hpp"
#include "bots/common/weight_flags.hpp"
#include "bots/reversi/alphabeta.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    namespace rv = arena::bots::reversi;
    std::ios::sync_with_stdio(false);
    rv::AlphaBetaOptions options;
    arena::bots::BotProgram program{
        .info = {.name = "reversi-alphabeta", .author = "arena", .version = "1"},
        .summary =
            "Reversi: alpha-beta with iterative deepening, a transposition table, the "
            "seed 002 evaluation and an exact endgame solver.",
        .make_engine = [&options](const arena::bots::CommonFlags& common)
            -> std::unique_ptr<arena::bots::Engine> {
            options.level = common.level;
            return std::make_unique<rv::AlphaBetaEngine>(options);
        },
        .bench =
            [&options](const arena::bots::CommonFlags&) {
                return rv::alphabeta_bench(options.weights);
            },
        .after_loop = {},
    };
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&options.depth)->default_value(0),
         "search at most N plies (0: as deep as the time allows)")
        ("endgame", po::value<int>(&options.endgame_empties)->default_value(14),
         "solve exactly with at most N empty cells (0: never)");
    // clang-format on
    rv::EvalWeights& w = options.weights;
    const arena::bots::WeightFlag weights[] = {
        {"corner", &w.corner, rv::kMinWeight, rv::kMaxWeight, "weight of the corner strategy"},
        {"steady", &w.steady, rv::kMinWeight, rv::kMaxWeight, "weight of the edge-stable discs"},
        {"mobility", &w.mobility, rv::kMinWeight, rv::kMaxWeight, "weight of the mobility"},
        {"frontier", &w.frontier, rv::kMinWeight, rv::kMaxWeight, "weight of the frontier discs"},
    };
    arena::bots::add_weight_flags(program.flags, weights);
    return arena::bots::bot_main(argc, argv, program);
}
