// reversi-pro: bitboard PVS with a phase-weighted evaluation tuned on
// self-play, an exact endgame solver and time management to the budget.
//
//   reversi-pro [--depth N] [--solve N] [--level N] [--bench]

#include <iostream>
#include <memory>

#include "bots/common/bot_main.hpp"
#include "bots/reversi/pro_search.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    std::ios::sync_with_stdio(false);
    arena::bots::reversi::pro::ProOptions options;
    arena::bots::BotProgram program{
        .info = {.name = "reversi-pro", .author = "arena", .version = "1"},
        .summary =
            "Reversi: PVS on bitboards with a phase-weighted evaluation tuned on "
            "self-play, an exact endgame solver and time management.",
        .make_engine = [&options](const arena::bots::CommonFlags& common)
            -> std::unique_ptr<arena::bots::Engine> {
            if (options.depth < 0) throw std::invalid_argument("--depth must be at least 0");
            if (options.solve_empties < -1 || options.solve_empties > 60)
                throw std::invalid_argument("--solve must be -1..60");
            options.level = common.level;
            return std::make_unique<arena::bots::reversi::pro::ProEngine>(options);
        },
        .bench =
            [](const arena::bots::CommonFlags&) { return arena::bots::reversi::pro::pro_bench(); },
        .after_loop = {},
    };
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&options.depth)->default_value(0),
         "midgame search at most N plies (0: as deep as the time allows)")
        ("solve", po::value<int>(&options.solve_empties)->default_value(-1),
         "solve exactly with at most N empty cells (-1: as many as the time allows, 0: never)");
    // clang-format on
    return arena::bots::bot_main(argc, argv, program);
}
