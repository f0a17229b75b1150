// c4-alphabeta: the alpha-beta player of seed 004 (see alphabeta.hpp).
//
//   c4-alphabeta [--depth N] [--soon N] [--level N] [--bench]
//                [--three W] [--two W] [--shorter W] [--both-ends P]

#include <iostream>

#include "bots/common/bot_main.hpp"
#include "bots/common/weight_flags.hpp"
#include "bots/connect4/alphabeta.hpp"

namespace {
constexpr int kBenchDepth = 7;
}

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena;
    c4::AlphaBetaOptions options;
    bots::BotProgram program;
    program.info = {.name = "c4-alphabeta", .author = "arena reference bots", .version = "1"};
    program.summary =
        "Connect-4 by iterative-deepening alpha-beta with an open twos and threes "
        "evaluation (seed 004).";
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&options.depth)->default_value(0), "fixed depth (0: as deep as the time allows)")
        ("soon", po::value<int>(&options.soon)->default_value(2), "an open end counts when at most this many drops away");
    // clang-format on
    c4::RunWeights& w = options.weights;
    const bots::WeightFlag weights[] = {
        {"three", &w.three, 0, c4::kMaxRunWeight,
         "points per good end of a run one short of connect (a three)"},
        {"two", &w.two, 0, c4::kMaxRunWeight, "points per good end of a run two short (a two)"},
        {"shorter", &w.shorter, 0, c4::kMaxRunWeight,
         "points per good end of a shorter run of two or more (connect >= 5)"},
        {"both-ends", &w.both_ends, 0, c4::kMaxBothEnds,
         "percent of a run's points per end added when both ends are good"},
    };
    bots::add_weight_flags(program.flags, weights);
    auto make = [&](const bots::CommonFlags& common, int depth) {
        c4::AlphaBetaOptions o = options;
        if (depth > 0) o.depth = depth;
        if (common.level && o.depth == 0) o.depth = 2 * *common.level;
        o.soon = std::max(1, o.soon);
        return c4::make_alphabeta_engine(o);
    };
    program.make_engine = [&](const bots::CommonFlags& common) -> std::unique_ptr<bots::Engine> {
        return make(common, 0);
    };
    program.bench = [&](const bots::CommonFlags& common) {
        return c4::run_bench(*make(common, options.depth > 0 ? options.depth : kBenchDepth));
    };
    std::ios::sync_with_stdio(false);
    return bots::bot_main(argc, argv, program);
}
