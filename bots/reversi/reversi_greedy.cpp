// reversi-greedy: a corner when possible, else the move flipping most discs.
//
//   reversi-greedy [--seed N] [--bench]

#include <iostream>
#include <memory>

#include "bots/common/bot_main.hpp"
#include "bots/reversi/greedy.hpp"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    arena::bots::BotProgram program{
        .info = {.name = "reversi-greedy", .author = "arena", .version = "1"},
        .summary =
            "Reversi: takes a corner when it can, else flips the most discs "
            "(ties broken by --seed).",
        .make_engine =
            [](const arena::bots::CommonFlags& common) -> std::unique_ptr<arena::bots::Engine> {
            return std::make_unique<arena::bots::reversi::GreedyEngine>(common.seed);
        },
        .bench =
            [](const arena::bots::CommonFlags&) { return arena::bots::reversi::greedy_bench(); },
        .after_loop = {},
    };
    return arena::bots::bot_main(argc, argv, program);
}
