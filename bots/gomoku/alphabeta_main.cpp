// gomoku-alphabeta: alpha-beta with candidate pre-selection, ordering by static
// evaluation and incremental line evaluation, iterative deepening (seed 003).
// See alphabeta.hpp.

#include <algorithm>
#include <iostream>
#include <memory>

#include "bots/common/weight_flags.hpp"
#include "bots/gomoku/alphabeta.hpp"
#include "bots/gomoku/bot_program.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena::bots;
    std::ios::sync_with_stdio(false);
    int depth = 0;
    int width = 0;
    gomoku::ShapeWeights weights;
    BotProgram program;
    program.info = {.name = "gomoku-alphabeta", .author = "arena", .version = "1"};
    program.summary =
        "Gomoku: alpha-beta under iterative deepening, candidates pre-selected around the stones "
        "and ordered by the static evaluation, incremental line evaluation.\n--level N limits the "
        "depth to N + 1 plies.";
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&depth), "maximum depth in plies (default: as deep as time allows; bench 4)")
        ("width", po::value<int>(&width), "moves searched per node (default 10)");
    // clang-format on
    constexpr int lo = gomoku::kMinShapeWeight, hi = gomoku::kMaxShapeWeight;
    const WeightFlag weight_flags[] = {
        {"four", &weights.four, lo, hi,
         "value of a four (one five-point; only the opponent's counts)"},
        {"open-three", &weights.open_three, lo, hi, "value of an open three"},
        {"three", &weights.three, lo, hi, "value of a closed three"},
        {"open-two", &weights.open_two, lo, hi, "value of an open two"},
        {"two", &weights.two, lo, hi, "value of a closed two"},
        {"one", &weights.one, lo, hi, "value of an open one"},
    };
    add_weight_flags(program.flags, weight_flags);
    const auto options = [&](const CommonFlags& common, bool bench) {
        gomoku::AlphaBetaOptions o;
        o.weights = weights;
        if (bench) o.max_depth = 4;
        if (common.level) o.max_depth = std::clamp(*common.level + 1, 2, 64);
        if (depth > 0) o.max_depth = depth;
        if (width > 0) o.width = width;
        return o;
    };
    gomoku::set_engine<gomoku::AlphaBetaEngine>(program, options);
    return bot_main(argc, argv, program);
}
