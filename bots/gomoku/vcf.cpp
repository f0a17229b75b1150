#include "bots/gomoku/vcf.hpp"

#include <algorithm>

namespace arena::bots::gomoku {
namespace {

constexpr int kTTBits = 18;
constexpr int kMaxPly = 120;
constexpr int kDoubleThreat = 5000;
// Shares of the usable time (1 = the hard limit) by which each root threat
// search must be done, counted from `go`.
constexpr double kOwnVcf = 0.05;
constexpr double kDefendVcf = 0.1;
constexpr double kOwnVct = 0.18;
constexpr double kDefendVct = 0.3;
constexpr std::array<int, kPatterns> kDefend = {0, 1, 2, 3, 8, 10, 30, 40, 600, 10000};

[[nodiscard]] int to_tt(int score, int ply) {
    if (score >= kMateBound) return score + ply;
    if (score <= -kMateBound) return score - ply;
    return score;
}

[[nodiscard]] int from_tt(int score, int ply) {
    if (score >= kMateBound) return score - ply;
    if (score <= -kMateBound) return score + ply;
    return score;
}

[[nodiscard]] std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

VcfEngine::VcfEngine(VcfOptions options)
    : options_(options), solver_(board_), tt_(std::size_t{1} << kTTBits) {}

int VcfEngine::order_score(int me, Sq s) const {
    const int op = other(me);
    int value = attack_value(board_, me, s);
    for (int d = 0; d < Board::kDirs; ++d)
        value += kDefend[board_.pattern(op, d, s)];
    const std::uint8_t f = board_.flags(op, s);
    if (f & kFlag43) value += 1500;
    if (f & kFlag33) value += 800;
    return value;
}

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
    const int me = board_.to_move();
    const int op = other(me);
    if (options_.threat_nodes == 0 || depth < 2 || board_.four_count(op) == 0 ||
        board_.flex4_count(op) > 0) {
        return false;
    }
    // Would the opponent win by fours if we did nothing? Then answer on the
    // cells of its winning line, or with fours of our own.
    SqSet cells;
    board_.make_null();
    solver_.set_limits(options_.threat_nodes, deadline(1.0));
    const bool threat = solver_.vcf_cells(options_.vcf_depth, cells);
    board_.unmake_null();
    if (!threat) return false;
    board_.fours(me).for_each([&](Sq s) { cells.set(s); });
    moves.size = 0;
    cells.for_each([&](Sq s) {
        if (board_.is_empty(s)) moves.add(s, order_score(me, s));
    });
    moves.sort();
    return moves.size > 0;
}

bool VcfEngine::poll() {
    if ((++nodes_ & 63) == 0 && clock_->past_hard()) aborted_ = true;
    return aborted_;
}

void VcfEngine::generate(MoveList& moves, Sq tt_move, bool root) {
    const int me = board_.to_move();
    const int op = other(me);
    moves.size = 0;
    bool forced = false;
    if (board_.flex4_count(op) > 0) {
        // An open three (or a four-four point) of the opponent: only our fours
        // and the cells that stop it can avoid a loss.
        defences(board_, op, moves);
        board_.fours(me).for_each([&](Sq s) {
            if (!moves.contains(s)) moves.add(s);
        });
        forced = moves.size > 0;
    }
    if (!forced) near_moves(board_, 2, moves);
    for (int i = 0; i < moves.size; ++i)
        moves.score[i] = order_score(me, moves.sq[i]);
    moves.sort();
    if (!forced && !root) moves.truncate(options_.width);
    if (tt_move != kNoSq && board_.is_empty(tt_move)) {
        int at = 0;
        while (at < moves.size && moves.sq[at] != tt_move)
            ++at;
        if (at == moves.size) {
            if (forced) return;  // not a defence: cannot be right
            if (moves.size < kMaxMoves) ++moves.size;
            at = moves.size - 1;
        }
        for (int i = at; i > 0; --i) {
            moves.sq[i] = moves.sq[i - 1];
            moves.score[i] = moves.score[i - 1];
        }
        moves.sq[0] = static_cast<std::int16_t>(tt_move);
    }
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
    const int me = board_.to_move();
    const int op = other(me);
    if (board_.five_count(me) > 0) return kWinScore - ply - 1;
    if (board_.five_count(op) >= 2) return -(kWinScore - ply - 2);
    if (board_.full()) return 0;
    const bool forced = board_.five_count(op) == 1;
    // An open four (or double four) to make and no four against us: won.
    if (!forced && board_.flex4_count(me) > 0) return kWinScore - ply - 3;
    if (ply >= kMaxPly) return evaluate();
    if (!forced && depth <= 0) return leaf(ply);
    alpha = std::max(alpha, -(kWinScore - ply));
    beta = std::min(beta, kWinScore - ply - 1);
    if (alpha >= beta) return alpha;

    const std::uint64_t key = board_.hash() ^ salt_;
    TTEntry& tte = tt_[key & (tt_.size() - 1)];
    Sq tt_move = kNoSq;
    if (tte.key == key) {
        tt_move = tte.move;
        if (tte.depth >= depth) {
            const int v = from_tt(tte.score, ply);
            if ((tte.bound & kBoundLower) && v >= beta) return v;
            if ((tte.bound & kBoundUpper) && v <= alpha) return v;
            if (tte.bound == kBoundExact) return v;
        }
    }

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

void VcfEngine::keep_defences(MoveList& root, const MoveList& candidates, int width,
                              SearchClock::Clock::time_point limit, const Refuted& refuted) {
    MoveList confirmed, unknown;
    for (int i = 0; i < candidates.size && i < width; ++i) {
        const Sq s = candidates.sq[i];
        if (SearchClock::Clock::now() >= limit) {
            unknown.add(s, candidates.score[i]);
            continue;
        }
        board_.make(s);
        const bool refutes = refuted();
        board_.unmake();
        if (solver_.aborted())
            unknown.add(s, candidates.score[i]);
        else if (!refutes)
            confirmed.add(s, candidates.score[i]);
    }
    // Proven defences if there are any, else the unproven ones; when every
    // candidate loses, all of them (the opponent may still go wrong).
    root = confirmed.size > 0 ? confirmed : unknown.size > 0 ? unknown : candidates;
}

bool VcfEngine::defend_vcf(MoveList& root, const InfoSink& info) {
    board_.make_null();
    solver_.set_limits(options_.root_vcf_nodes, deadline(kDefendVcf));
    const Sq threat = solver_.vcf(options_.vcf_depth);
    board_.unmake_null();
    if (threat == kNoSq) return false;
    info("string opponent threatens a vcf starting " + square_name(board_, threat));
    MoveList candidates;
    generate(candidates, threat, true);
    keep_defences(root, candidates, options_.defence_width, deadline(kDefendVct), [&] {
        solver_.set_limits(options_.defence_vcf_nodes, deadline(1.0));
        return solver_.vcf(options_.vcf_depth) != kNoSq;
    });
    return true;
}

void VcfEngine::defend_vct(MoveList& root, const InfoSink& info) {
    const auto limit = deadline(kDefendVct);
    board_.make_null();
    solver_.set_limits(options_.root_vct_nodes, limit);
    const Sq threat = solver_.vct(options_.vct_depth, options_.inner_vcf_depth);
    const int threat_depth = solver_.last_depth();
    board_.unmake_null();
    if (threat == kNoSq) return;
    info("string opponent threatens a vct starting " + square_name(board_, threat));
    // The most promising root moves (root is in order), the threat's first
    // cell among them.
    MoveList candidates;
    if (root.contains(threat)) candidates.add(threat, 0);
    for (int i = 0; i < root.size; ++i)
        if (root.sq[i] != threat) candidates.add(root.sq[i], root.score[i]);
    keep_defences(root, candidates, options_.defence_width, limit, [&] {
        solver_.set_limits(options_.defence_vct_nodes, limit);
        return solver_.vct(threat_depth + 1, options_.inner_vcf_depth) != kNoSq;
    });
}

Sq VcfEngine::think(const SearchClock& clock, const InfoSink& info) {
    solver_base_ = solver_.nodes();
    const Sq s = think_inner(clock, info);
    nodes_ += solver_.nodes() - solver_base_;
    return s;
}

Sq VcfEngine::think_inner(const SearchClock& clock, const InfoSink& info) {
    clock_ = &clock;
    nodes_ = 0;
    aborted_ = false;
    salt_ = mix(++generation_);
    solver_.clear();
    const int me = board_.to_move();
    const int op = other(me);
    const auto report = [&](int depth, int score, Sq s) {
        info(info_line(board_, depth, score, nodes_ + solver_.nodes() - solver_base_, s,
                       clock.elapsed().count()));
        return s;
    };
    if (board_.stones() == 0) return report(0, 0, board_.centre());
    if (board_.five_count(me) > 0) return report(1, kWinScore - 1, board_.fives(me).first());
    if (board_.five_count(op) > 0) return report(1, 0, board_.fives(op).first());

    // Our forced win by fours.
    solver_.set_limits(options_.root_vcf_nodes, deadline(kOwnVcf));
    if (const Sq s = solver_.vcf(options_.vcf_depth); s != kNoSq) {
        info("string vcf");
        return report(1, kWinScore - 3, s);
    }

    // The opponent's forced win by fours, were it to move: defend.
    MoveList root;
    const bool vcf_threat = defend_vcf(root, info);
    if (!vcf_threat) generate(root, kNoSq, true);
    if (root.size == 1) return report(1, 0, root.sq[0]);

    if (options_.vct_depth > 0) {
        // Our forced win by fours and threes.
        solver_.set_limits(options_.root_vct_nodes, deadline(kOwnVct));
        if (const Sq s = solver_.vct(options_.vct_depth, options_.inner_vcf_depth); s != kNoSq) {
            info("string vct");
            return report(1, kWinScore - 5, s);
        }
        // The opponent's, were it to move: keep the moves that stop it.
        if (!vcf_threat) {
            defend_vct(root, info);
            if (root.size == 1) return report(1, 0, root.sq[0]);
        }
    }

    Sq best = root.sq[0];
    int best_value = 0;
    int depth_reached = 0;
    for (int depth = 1; depth <= options_.max_depth; ++depth) {
        // A few plies whatever the threat searches took; then only while
        // before the soft limit.
        if (depth > 3 && clock.past_soft()) break;
        depth_reached = depth;
        int alpha = -kInfinity;
        const int beta = kInfinity;
        Sq iter_best = kNoSq;
        for (int i = 0; i < root.size; ++i) {
            board_.make(root.sq[i]);
            int value;
            if (i == 0) {
                value = -search(depth - 1, -beta, -alpha, 1);
            } else {
                value = -search(depth - 1, -alpha - 1, -alpha, 1);
                if (value > alpha && !aborted_) value = -search(depth - 1, -beta, -alpha, 1);
            }
            board_.unmake();
            if (aborted_) break;
            root.score[i] = value > alpha || i == 0 ? value : -kInfinity + i;
            if (value > alpha) {
                alpha = value;
                iter_best = root.sq[i];
            }
        }
        if (iter_best != kNoSq) {
            best = iter_best;
            best_value = alpha;
        }
        if (aborted_) break;
        root.sort();
        report(depth, best_value, best);
        if (best_value >= kMateBound || best_value <= -kMateBound) break;
    }
    if (aborted_) report(depth_reached, best_value, best);
    return best;
}

}  // namespace arena::bots::gomoku
