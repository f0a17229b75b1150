#include "bots/gomoku/vcf.hpp"

#include <algorithm>

namespace arena::bots::gomoku {
namespace {

constexpr int kTTBits = 18;
constexpr int kMaxPly = 120;
constexpr int kDoubleThreat = 5000;

[[nodiscard]] std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

VcfEngine::VcfEngine(VcfOptions options)
    : ThreatEngine(threat_limits(options, 0.18, 0.3)),
      options_(options),
      tt_(std::size_t{1} << kTTBits) {}

int VcfEngine::evaluate() const {
    const int me = board_.to_move();
    const int op = other(me);
    // What each side could make on the empty cells, plus a quarter of the
    // line shapes the other bots count.
    int value = board_.potential(me) - board_.potential(op) +
                (board_.shape_score(me) - board_.shape_score(op)) / 4;
    if (board_.five_count(op) == 0) {
        // Our move: a four-three of ours nearly wins; two open threes of the
        // opponent against no four of ours nearly lose.
        if (board_.count43(me) > 0) value += kDoubleThreat;
        if (board_.four_count(me) == 0 && two_open_threes(board_, op)) value -= kDoubleThreat;
    }
    return value;
}

bool VcfEngine::threat_moves(MoveList& moves, int depth) {
    const int op = other(board_.to_move());
    if (options_.threat_nodes == 0 || depth < 2 || board_.four_count(op) == 0 ||
        board_.flex4_count(op) > 0) {
        return false;
    }
    // Would the opponent win by fours if we did nothing? Then answer on the
    // cells of its winning line, or with fours of our own.
    if (!opponent_vcf_moves(moves)) return false;
    moves.sort();
    return moves.size > 0;
}

bool VcfEngine::poll() {
    if ((++nodes_ & 63) == 0 && clock_->past_hard()) aborted_ = true;
    if (search_limits_.out_of_nodes(nodes_)) aborted_ = true;
    return aborted_;
}

void VcfEngine::generate(MoveList& moves, Sq tt_move, bool root) {
    const int me = board_.to_move();
    bool forced = open_three_defences(moves);
    if (!forced) near_moves(board_, 2, moves);
    for (int i = 0; i < moves.size; ++i)
        moves.score[i] = order_score(me, moves.sq[i]);
    moves.sort();
    if (!forced && !root) moves.truncate(options_.width);
    put_first(board_, moves, tt_move, forced);
}

int VcfEngine::leaf(int ply) {
    const int me = board_.to_move();
    if (options_.leaf_vcf_nodes > 0 && board_.four_count(me) > 0) {
        solver_.set_limits(options_.leaf_vcf_nodes, deadline(1.0));
        const Sq s = solver_.vcf(options_.vcf_depth);
        if (s != kNoSq) return kWinScore - ply - 50;
    }
    return evaluate();
}

int VcfEngine::search(int depth, int alpha, int beta, int ply) {
    if (poll()) return 0;
    if (const auto decided = decided_score(ply)) return *decided;
    const int op = other(board_.to_move());
    const bool forced = board_.five_count(op) == 1;
    if (ply >= kMaxPly) return evaluate();
    if (!forced && depth <= 0) return leaf(ply);
    alpha = std::max(alpha, -(kWinScore - ply));
    beta = std::min(beta, kWinScore - ply - 1);
    if (alpha >= beta) return alpha;

    const std::uint64_t key = board_.hash() ^ salt_;
    TTEntry& tte = tt_[key & (tt_.size() - 1)];
    Sq tt_move = kNoSq;
    if (int v = 0; tt_probe(tte, key, depth, alpha, beta, ply, tt_move, v)) return v;

    MoveList moves;
    if (forced) {
        moves.add(board_.fives(op).first());
    } else if (!threat_moves(moves, depth)) {
        generate(moves, tt_move, false);
    }
    const int child_depth = forced ? depth : depth - 1;
    const int alpha0 = alpha;
    int best = -kInfinity;
    Sq best_move = kNoSq;
    for (int i = 0; i < moves.size; ++i) {
        board_.make(moves.sq[i]);
        int value;
        if (i == 0) {
            value = -search(child_depth, -beta, -alpha, ply + 1);
        } else {
            value = -search(child_depth, -alpha - 1, -alpha, ply + 1);
            if (value > alpha && value < beta && !aborted_)
                value = -search(child_depth, -beta, -alpha, ply + 1);
        }
        board_.unmake();
        if (aborted_) return 0;
        if (value > best) {
            best = value;
            best_move = moves.sq[i];
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) break;
            }
        }
    }
    tte.key = key;
    tte.score = to_tt(best, ply);
    tte.move = static_cast<std::int16_t>(best_move);
    tte.depth = static_cast<std::int8_t>(std::clamp(depth, -1, 127));
    tte.bound = best >= beta ? kBoundLower : best > alpha0 ? kBoundExact : kBoundUpper;
    return best;
}

bool VcfEngine::defend_vcf(MoveList& root, const InfoSink& info) {
    board_.make_null();
    solver_.set_limits(options_.root_vcf_nodes, deadline(limits_.defend_vcf));
    const Sq threat = solver_.vcf(options_.vcf_depth);
    board_.unmake_null();
    if (threat == kNoSq) return false;
    info("string opponent threatens a vcf starting " + square_name(board_, threat));
    MoveList candidates;
    generate(candidates, threat, true);
    keep_vcf_defences(root, candidates);
    return true;
}

Sq VcfEngine::think_inner(const SearchClock& clock, const InfoSink& info) {
    clock_ = &clock;
    nodes_ = 0;
    aborted_ = false;
    salt_ = mix(++generation_);
    solver_.clear();
    if (const Sq s = decided_move(clock, info, false); s != kNoSq) return s;

    // The opponent's forced win by fours, were it to move: defend.
    MoveList root;
    const bool vcf_threat = defend_vcf(root, info);
    if (!vcf_threat) generate(root, kNoSq, true);
    if (root.size == 1) return report(clock, info, 1, 0, root.sq[0]);

    if (options_.vct_depth > 0) {
        if (const Sq s = vct_move(root, clock, info, !vcf_threat); s != kNoSq) return s;
    }

    int completed = 0;
    return deepen(root, clock, info, options_.max_depth, 3, true, completed);
}

}  // namespace arena::bots::gomoku
