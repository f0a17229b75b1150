// gomoku-minimax: shape evaluation and plain minimax at a fixed depth (seed 001).
// See minimax.hpp.

#include <algorithm>
#include <iostream>
#include <memory>

#include "bots/gomoku/bot_program.hpp"
#include "bots/gomoku/minimax.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena::bots;
    std::ios::sync_with_stdio(false);
    int depth = 0;
    BotProgram program;
    program.info = {.name = "gomoku-minimax", .author = "arena", .version = "1"};
    program.summary =
        "Gomoku: shape evaluation (own minus opponent) and plain minimax over the cells next to "
        "a stone, at a fixed depth.\n--level N searches depth N.";
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&depth), "search depth in plies (default 2)");
    // clang-format on
    const auto options = [&](const CommonFlags& common, bool /*bench*/) {
        gomoku::MinimaxOptions o;
        o.seed = common.seed;
        if (common.level) o.depth = std::clamp(*common.level, 1, 4);
        if (depth > 0) o.depth = depth;
        return o;
    };
    gomoku::set_engine<gomoku::MinimaxEngine>(program, options);
    return bot_main(argc, argv, program);
}
