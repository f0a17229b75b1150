// gomoku-vcf: alpha-beta with threat-space search (VCF and VCT) to win and to
// defend. See vcf.hpp.

#include <algorithm>
#include <iostream>
#include <memory>

#include "bots/gomoku/bot_program.hpp"
#include "bots/gomoku/vcf.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena::bots;
    std::ios::sync_with_stdio(false);
    int depth = 0;
    int width = 0;
    int vcf_depth = -1;
    int vct_depth = -1;
    std::int64_t leaf_vcf_nodes = -1;
    std::int64_t threat_nodes = -1;
    BotProgram program;
    program.info = {.name = "gomoku-vcf", .author = "arena", .version = "1"};
    program.summary =
        "Gomoku: principal variation search with a transposition table, plus threat-space "
        "search (VCF: continuous fours; VCT: fours and threes) to win and to defend.\n--level N "
        "limits the depth to N + 1 plies and turns VCT off below level 3.";
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&depth), "maximum depth in plies (default: as deep as time allows; bench 6)")
        ("width", po::value<int>(&width), "moves searched per node besides forced ones (default 16)")
        ("vcf-depth", po::value<int>(&vcf_depth), "own moves in a VCF (default 24; 0 disables VCF)")
        ("vct-depth", po::value<int>(&vct_depth), "own moves in a VCT (default 6; 0 disables VCT)")
        ("leaf-vcf-nodes", po::value<std::int64_t>(&leaf_vcf_nodes), "node budget of the VCF at the search horizon (default 60; 0 disables it)")
        ("threat-nodes", po::value<std::int64_t>(&threat_nodes), "node budget of the opponent's VCF looked for inside the search (default 200; 0 disables it)");
    // clang-format on
    const auto options = [&](const CommonFlags& common, bool bench) {
        gomoku::VcfOptions o;
        gomoku::apply_bench_and_level(o, common, bench, 6);
        if (depth > 0) o.max_depth = depth;
        if (width > 0) o.width = width;
        if (vcf_depth >= 0) o.vcf_depth = vcf_depth;
        if (vct_depth >= 0) o.vct_depth = vct_depth;
        if (leaf_vcf_nodes >= 0) o.leaf_vcf_nodes = static_cast<std::uint64_t>(leaf_vcf_nodes);
        if (threat_nodes >= 0) o.threat_nodes = static_cast<std::uint64_t>(threat_nodes);
        return o;
    };
    gomoku::set_engine<gomoku::VcfEngine>(program, options);
    return bot_main(argc, argv, program);
}
