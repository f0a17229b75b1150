// gomoku-pro: principal variation search with pattern-driven moves, killers,
// history, late move reductions and threat-space search. See pro.hpp.

#include <algorithm>
#include <iostream>
#include <memory>

#include "bots/common/bot_main.hpp"
#include "bots/gomoku/pro.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena::bots;
    std::ios::sync_with_stdio(false);
    int depth = 0;
    int width = 0;
    int vcf_depth = -1;
    int vct_depth = -1;
    int hash_bits = 0;
    bool no_reductions = false;
    BotProgram program;
    program.info = {.name = "gomoku-pro", .author = "arena", .version = "1"};
    program.summary =
        "Gomoku: principal variation search with a transposition table, killer and history "
        "moves, late move reductions, moves from the threat patterns, and threat-space search "
        "(VCF and VCT) to win and to defend.\n--level N limits the depth to N + 1 plies and "
        "turns VCT off below level 3.";
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&depth), "maximum depth in plies (default: as deep as time allows; bench 8)")
        ("width", po::value<int>(&width), "quiet moves searched near the root (default 14)")
        ("vcf-depth", po::value<int>(&vcf_depth), "own moves in a VCF (default 24; 0 disables VCF)")
        ("vct-depth", po::value<int>(&vct_depth), "own moves in a VCT (default 8; 0 disables VCT)")
        ("hash-bits", po::value<int>(&hash_bits), "transposition table of 2^N entries of 16 bytes (10..26, default 20)")
        ("no-reductions", po::bool_switch(&no_reductions), "search every move at full depth");
    // clang-format on
    const auto options = [&](const CommonFlags& common, bool bench) {
        gomoku::ProOptions o;
        if (bench) {
            o.max_depth = 8;
            o.root_vcf_nodes = 200'000;
            o.root_vct_nodes = 100'000;
        }
        if (common.level) {
            o.max_depth = std::clamp(*common.level + 1, 2, 64);
            if (*common.level < 3) o.vct_depth = 0;
        }
        if (depth > 0) o.max_depth = depth;
        if (width > 0) o.width = std::max(width, o.min_width);
        if (vcf_depth >= 0) o.vcf_depth = vcf_depth;
        if (vct_depth >= 0) o.vct_depth = vct_depth;
        if (hash_bits != 0) {
            if (hash_bits < 10 || hash_bits > 26)
                throw std::invalid_argument("--hash-bits must be 10..26");
            o.tt_bits = hash_bits;
        }
        o.reductions = !no_reductions;
        return o;
    };
    program.make_engine = [&](const CommonFlags& common) -> std::unique_ptr<Engine> {
        return std::make_unique<gomoku::ProEngine>(options(common, false));
    };
    program.bench = [&](const CommonFlags& common) {
        gomoku::ProEngine engine(options(common, true));
        return gomoku::run_bench(engine);
    };
    return bot_main(argc, argv, program);
}
