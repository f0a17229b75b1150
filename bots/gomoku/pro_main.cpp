// gomoku-pro: principal variation search with pattern-driven moves, killers,
// history, late move reductions and threat-space search. See pro.hpp.

#include <algorithm>
#include <iostream>
#include <limits>
#include <memory>

#include "bots/gomoku/bot_program.hpp"
#include "bots/gomoku/pro.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena::bots;
    std::ios::sync_with_stdio(false);
    int depth = 0;
    int width = 0;
    int min_width = 0;
    int vcf_depth = -1;
    int vct_depth = -1;
    int hash_bits = 0;
    bool no_reductions = false;
    int extend_width = -1;
    std::int64_t leaf_vct_nodes = -1;
    std::int64_t leaf_vcf_nodes = -1;
    std::int64_t threat_nodes = -1;
    bool no_vct_after_vcf = false;
    int q_plies = -1;
    std::int64_t node_vct_nodes = -1;
    int node_vct_depth = 0;
    int solver_bits = 0;
    bool classic_eval = false;
    int null_reduction = -1;
    int late_moves = -1;
    bool log_reductions = false;
    double verify_share = -1;
    int defence = std::numeric_limits<int>::min();  // not given
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
        ("width", po::value<int>(&width), "quiet moves searched near the root (default 16)")
        ("min-width", po::value<int>(&min_width), "quiet moves searched deep in the tree (default 12)")
        ("vcf-depth", po::value<int>(&vcf_depth), "own moves in a VCF (default 24; 0 disables VCF)")
        ("vct-depth", po::value<int>(&vct_depth), "own moves in a VCT (default 8; 0 disables VCT)")
        ("hash-bits", po::value<int>(&hash_bits), "transposition table of 2^N entries of 16 bytes (10..26, default 20)")
        ("no-reductions", po::bool_switch(&no_reductions), "search every move at full depth")
        ("extend-width", po::value<int>(&extend_width), "a defence among at most N moves costs no depth (default 4)")
        ("no-vct-after-vcf", po::bool_switch(&no_vct_after_vcf), "against a VCF threat, do not also check the defences against a VCT")
        ("leaf-vcf-nodes", po::value<std::int64_t>(&leaf_vcf_nodes), "node budget of the VCF at the horizon (default 100; 0 disables it)")
        ("threat-nodes", po::value<std::int64_t>(&threat_nodes), "node budget of the opponent's VCF looked for inside the search (default 200; 0 disables it)")
        ("node-vct-nodes", po::value<std::int64_t>(&node_vct_nodes), "node budget of the side to move's VCT inside the search (default 0: none)")
        ("node-vct-depth", po::value<int>(&node_vct_depth), "... at nodes with at least N plies left (default 3)")
        ("q-plies", po::value<int>(&q_plies), "quiescence plies against open threes at the horizon (default 0: none)")
        ("leaf-vct-nodes", po::value<std::int64_t>(&leaf_vct_nodes), "node budget of a VCT at the horizon (default 0: none)")
        ("solver-bits", po::value<int>(&solver_bits), "threat solver's table of 2^N entries of 16 bytes (8..26, default 20)")
        ("classic-eval", po::bool_switch(&classic_eval), "the hand-set evaluation")
        ("null-reduction", po::value<int>(&null_reduction), "null-move pruning with a reduction of N plies (default 0: none)")
        ("late-moves", po::value<int>(&late_moves), "quiet moves searched at depth 1, two more a ply up to depth 3 (default 0: all)")
        ("log-reductions", po::bool_switch(&log_reductions), "late move reductions growing with depth and move number, not of one or two plies")
        ("defence", po::value<int>(&defence), "as the second player, what the opponent's cells make beyond quiet cells weighs N percent in the fitted evaluation (default 130)")
        ("verify-share", po::value<double>(&verify_share), "against a threat, share of the time kept to check the chosen move against a VCT (0: none)");
    // clang-format on
    const auto options = [&](const CommonFlags& common, bool bench) {
        gomoku::ProOptions o;
        gomoku::apply_bench_and_level(o, common, bench, 8);
        if (depth > 0) o.max_depth = depth;
        // A --width alone below the default deep width narrows both.
        if (min_width > 0) o.min_width = min_width;
        if (width > 0 && min_width == 0) o.min_width = std::min(o.min_width, width);
        if (width > 0) o.width = std::max(width, o.min_width);
        if (vcf_depth >= 0) o.vcf_depth = vcf_depth;
        if (vct_depth >= 0) o.vct_depth = vct_depth;
        if (hash_bits != 0) {
            if (hash_bits < 10 || hash_bits > 26)
                throw std::invalid_argument("--hash-bits must be 10..26");
            o.tt_bits = hash_bits;
        }
        o.reductions = !no_reductions;
        if (extend_width >= 0) o.extend_width = extend_width;
        if (leaf_vcf_nodes >= 0) o.leaf_vcf_nodes = static_cast<std::uint64_t>(leaf_vcf_nodes);
        if (threat_nodes >= 0) o.threat_nodes = static_cast<std::uint64_t>(threat_nodes);
        if (no_vct_after_vcf) o.vct_after_vcf = false;
        if (q_plies >= 0) o.q_plies = q_plies;
        if (node_vct_nodes >= 0) o.node_vct_nodes = static_cast<std::uint64_t>(node_vct_nodes);
        if (node_vct_depth > 0) o.node_vct_depth = node_vct_depth;
        if (leaf_vct_nodes >= 0) o.leaf_vct_nodes = static_cast<std::uint64_t>(leaf_vct_nodes);
        if (solver_bits != 0) {
            if (solver_bits < 8 || solver_bits > 26)
                throw std::invalid_argument("--solver-bits must be 8..26");
            o.solver_bits = solver_bits;
        }
        o.learned = !classic_eval;
        if (null_reduction >= 0) o.null_reduction = null_reduction;
        if (defence != std::numeric_limits<int>::min()) {
            if (defence < 0 || defence > 1000)
                throw std::invalid_argument("--defence must be 0..1000 (percent)");
            o.defence_percent = defence;
        }
        if (late_moves >= 0) o.late_moves = late_moves;
        if (log_reductions) o.log_reductions = true;
        if (verify_share >= 0) {
            if (verify_share > 0.5) throw std::invalid_argument("--verify-share must be 0..0.5");
            o.verify_share = verify_share;
        }
        return o;
    };
    gomoku::set_engine<gomoku::ProEngine>(program, options);
    return bot_main(argc, argv, program);
}
