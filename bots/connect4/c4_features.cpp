// c4-features: the chain-feature recommender of seed 000 (see features.hpp).
//
//   c4-features [--plies 1|2] [--weight W] [--level N] [--bench]

#include <iostream>

#include "bots/common/bot_main.hpp"
#include "bots/connect4/features.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena;
    c4::FeaturesOptions options;
    bots::BotProgram program;
    program.info = {.name = "c4-features", .author = "arena reference bots", .version = "1"};
    program.summary =
        "Connect-4 by chain features (length, liberty depth of each end) and a two-ply "
        "gain comparison (seed 000).";
    // clang-format off
    program.flags.add_options()
        ("plies", po::value<int>(&options.plies)->default_value(2), "1: own gains only; 2: also the reply")
        ("weight", po::value<double>(&options.weight)->default_value(2.0, "2"), "weight of the opponent's gain");
    // clang-format on
    auto make = [&](const bots::CommonFlags& common) {
        c4::FeaturesOptions o = options;
        if (common.level) o.plies = std::min(*common.level, 2);
        o.plies = std::clamp(o.plies, 1, 2);
        return c4::make_features_engine(o);
    };
    program.make_engine = [&](const bots::CommonFlags& common) -> std::unique_ptr<bots::Engine> {
        return make(common);
    };
    program.bench = [&](const bots::CommonFlags& common) { return c4::run_bench(*make(common)); };
    std::ios::sync_with_stdio(false);
    return bots::bot_main(argc, argv, program);
}
