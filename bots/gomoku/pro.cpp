#include "bots/gomoku/pro.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "bots/gomoku/pro_eval.hpp"

namespace arena::bots::gomoku {
namespace {

constexpr int kRootWidth = 24;
constexpr int kKillerBonus = 300;
constexpr int kHistoryCap = 250;
constexpr int kLineFirst = 1 << 24;

// Late move reductions that grow with the depth left and the move's place.
int log_reduction(int depth, int i) {
    return std::max(1, static_cast<int>(0.4 + std::log(depth) * std::log(i + 1) / 2.0));
}

// The root searches of a 2M-node budget would overflow gomoku-vcf's table of
// 2^16 entries many times over: gomoku-pro keeps a larger one.
ThreatLimits pro_limits(const ProOptions& o) {
    ThreatLimits limits = threat_limits(o, 0.16, 0.26);
    limits.table_bits = o.solver_bits;
    return limits;
}

}  // namespace

ProEngine::ProEngine(ProOptions options)
    : ThreatEngine(pro_limits(options)),
      options_(options),
      tt_(std::size_t{1} << std::clamp(options.tt_bits, 10, 26)) {
    for (auto& h : history_)
        h.assign(kMaxSquares, 0);
    soft_fraction_ = 0.6;
    fail_low_order_ = FailLowOrder::kByNodes;
    // The fitted evaluation reads no line shapes, and the threat searches
    // neither shapes nor cells: neither is kept where it is not read.
    board_.set_tracking({.shapes = !options.learned, .cells = true});
    solver_.set_lean(true);
}

void ProEngine::new_game(const games::Game& game, int player) {
    GomokuEngine::new_game(game, player);
    clear();
    defender_ = player == 2 && options_.defence_percent != 100 ? 2 : -1;
}

std::int64_t ProEngine::reserve_ms(std::int64_t move_ms) const {
    return std::min(move_ms / 2, 25 + move_ms / 20 + std::min(move_ms / 4, 2 * lag_ms_));
}

games::Move ProEngine::choose(const games::State& state, const protocol::Go& go,
                              const InfoSink& info) {
    last_poll_ = {};
    max_gap_ = {};
    const games::Move m = GomokuEngine::choose(state, go, info);
    // The lag remembered decays by a quarter a move.
    const auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(max_gap_).count();
    lag_ms_ = std::max<std::int64_t>(gap, lag_ms_ * 3 / 4);
    return m;
}

void ProEngine::clear() {
    std::fill(tt_.begin(), tt_.end(), TTEntry{});
    for (auto& k : killers_)
        k = {static_cast<std::int16_t>(kNoSq), static_cast<std::int16_t>(kNoSq)};
    for (auto& h : history_)
        std::fill(h.begin(), h.end(), 0);
    age_ = 0;
}

bool ProEngine::quiet(int me, Sq s) const {
    constexpr std::uint8_t kSharp = kFlagFour | kFlagThree;
    return !(board_.flags(me, s) & kSharp) && !(board_.flags(other(me), s) & kSharp);
}

int ProEngine::evaluate() const {
    return options_.learned
               ? gomoku::evaluate(board_, tuned_eval_weights(), defender_, options_.defence_percent)
               : classic_evaluate(board_);
}

bool ProEngine::poll() {
    if (search_limits_.out_of_nodes(++nodes_)) aborted_ = true;
    if ((nodes_ & 127) != 0) return aborted_;
    if (clock_->past_hard()) aborted_ = true;
    if (timed_) {
        // The longest wait between two looks at the clock: on a machine
        // where this process waits for a core it is that long, and stopping
        // less than one such wait before the limit would answer late.
        const auto now = SearchClock::Clock::now();
        if (last_poll_ != SearchClock::Clock::time_point{})
            max_gap_ = std::max(max_gap_, now - last_poll_);
        last_poll_ = now;
        if (now + max_gap_ >= hard_) aborted_ = true;
    }
    return aborted_;
}

bool ProEngine::threat_moves(MoveList& moves, int depth) {
    const int op = other(board_.to_move());
    if (options_.threat_nodes == 0 || depth < 2 || board_.four_count(op) == 0) return false;
    // Would the opponent win by fours if we did nothing? Then answer on the
    // cells of its winning line, or with fours of our own.
    return opponent_vcf_moves(moves) && moves.size > 0;
}

bool ProEngine::generate(MoveList& moves, Sq tt_move, int ply, int depth, int* searched) {
    const int me = board_.to_move();
    bool forced = open_three_defences(moves);
    // Against the opponent's VCF, the cells of its winning line and our fours
    // first. They are not always all the defences (a move elsewhere may turn
    // one of the forced blocks into a four of ours), so the other moves follow
    // them, searched only once those all lose.
    MoveList line;
    const bool vcf_threat = !forced && ply > 0 && threat_moves(line, depth);
    if (!forced) near_moves(board_, 2, moves);
    if (vcf_threat) {
        for (int i = 0; i < line.size; ++i)
            if (!moves.contains(line.sq[i])) moves.add(line.sq[i]);
        forced = true;
    }
    const auto& killers = killers_[std::min(ply, kMaxPly)];
    for (int i = 0; i < moves.size; ++i) {
        const Sq s = moves.sq[i];
        int v = order_score(me, s);
        v += std::min(history_[me - 1][s] / 32, kHistoryCap);
        if (s == killers[0] || s == killers[1]) v += kKillerBonus;
        if (vcf_threat && line.contains(s)) v += kLineFirst;
        moves.score[i] = v;
    }
    moves.sort();
    int width = moves.size;
    if (vcf_threat) {
        width = line.size;
    } else if (!forced) {
        width = std::min(
            moves.size,
            ply == 0 ? kRootWidth : std::max(options_.min_width, options_.width - (ply - 1)));
    }
    // The move from the table is searched as well as the best `width`, unless
    // the list is a defence it is not part of.
    const auto end = moves.sq.begin() + width;
    const bool tt_kept = tt_move != kNoSq && std::find(moves.sq.begin(), end, tt_move) != end;
    const bool tt_beyond = !forced && !tt_kept && tt_move != kNoSq && board_.is_empty(tt_move);
    if (searched == nullptr) moves.truncate(width);
    if ((tt_kept || !forced) && put_first(board_, moves, tt_move, forced))
        moves.score[0] = kInfinity;
    if (searched != nullptr) *searched = std::min(moves.size, width + (tt_beyond ? 1 : 0));
    return forced;
}

int ProEngine::leaf(int ply) {
    const int me = board_.to_move();
    if (options_.leaf_vcf_nodes > 0 && board_.four_count(me) > 0) {
        solver_.set_limits(options_.leaf_vcf_nodes, deadline(1.0));
        if (solver_.vcf(options_.vcf_depth) != kNoSq) return kWinScore - ply - 50;
    }
    if (options_.leaf_vct_nodes > 0 && board_.flex4_count(other(me)) == 0 &&
        board_.four_count(other(me)) == 0) {
        // No four of the opponent to interrupt with: look for a short VCT.
        solver_.set_limits(options_.leaf_vct_nodes, deadline(1.0));
        if (solver_.vct(options_.leaf_vct_depth, 6) != kNoSq) return kWinScore - ply - 60;
    }
    return evaluate();
}

void ProEngine::store(std::uint64_t key, int depth, int score, int bound, Sq move, int ply) {
    TTEntry& e = tt_[key & (tt_.size() - 1)];
    const int age = e.bound >> 2;
    if (e.key != key && age == (age_ & 63) && e.depth > depth + 2) return;
    if (e.key == key && move == kNoSq) move = e.move;
    e.key = key;
    e.score = to_tt(score, ply);
    e.move = static_cast<std::int16_t>(move);
    e.depth = static_cast<std::int8_t>(std::clamp(depth, -1, 127));
    e.bound = static_cast<std::uint8_t>(bound | ((age_ & 63) << 2));
}

void ProEngine::reward(int me, Sq s, int depth, int ply) {
    auto& k = killers_[std::min(ply, kMaxPly)];
    if (k[0] != s) {
        k[1] = k[0];
        k[0] = static_cast<std::int16_t>(s);
    }
    int& h = history_[me - 1][s];
    h = std::min(h + depth * depth, 1 << 20);
}

int ProEngine::search(int depth, int alpha, int beta, int ply) {
    if (poll()) return 0;
    if (const auto decided = decided_score(ply)) return *decided;
    const int me = board_.to_move();
    const int op = other(me);
    const bool must_block = board_.five_count(op) == 1;
    if (ply >= kMaxPly) return evaluate();
    // At the horizon, an open three of the opponent is answered before the
    // evaluation (a few plies of quiescence): the evaluation cannot see
    // that it is about to become an open four.
    const bool quiescence = !must_block && depth <= 0;
    if (quiescence && (depth <= -options_.q_plies || board_.flex4_count(op) == 0)) return leaf(ply);
    if (quiescence && options_.leaf_vcf_nodes > 0 && board_.four_count(me) > 0) {
        solver_.set_limits(options_.leaf_vcf_nodes, deadline(1.0));
        if (solver_.vcf(options_.vcf_depth) != kNoSq) return kWinScore - ply - 50;
    }
    alpha = std::max(alpha, -(kWinScore - ply));
    beta = std::min(beta, kWinScore - ply - 1);
    if (alpha >= beta) return alpha;

    const std::uint64_t key = board_.hash();
    Sq tt_move = kNoSq;
    if (int v = 0; tt_probe(tt_[key & (tt_.size() - 1)], key, depth, alpha, beta, ply, tt_move, v))
        return v;

    // Near the root, a short VCT of the side to move: the threats the
    // evaluation at the horizon would see too late.
    if (!must_block && !quiescence && options_.node_vct_nodes > 0 &&
        depth >= options_.node_vct_depth) {
        solver_.set_limits(options_.node_vct_nodes, deadline(1.0));
        if (const Sq s = solver_.vct(options_.node_vct_plies, options_.inner_vcf_depth);
            s != kNoSq) {
            const int v = kWinScore - ply - 20;
            store(key, depth, v, kBoundExact, s, ply);
            return v;
        }
    }

    // Null move: when passing still holds beta, a move will too (an extra
    // stone never hurts in Gomoku). Not against threats, which a reduced
    // search after a pass would see too late.
    const bool pv = beta - alpha > 1;
    if (options_.null_reduction > 0 && !pv && !must_block && !quiescence && depth >= 3 &&
        !after_null_[ply] && beta < kMateBound && beta > -kMateBound &&
        board_.flex4_count(op) == 0 && board_.four_count(op) == 0 && evaluate() >= beta) {
        board_.make_null();
        after_null_[ply + 1] = true;
        const int value = -search(depth - 1 - options_.null_reduction, -beta, -beta + 1, ply + 1);
        after_null_[ply + 1] = false;
        board_.unmake_null();
        if (aborted_) return 0;
        if (value >= beta && value < kMateBound) return beta;
    }

    MoveList moves;
    bool forced = true;
    int searched = 1;
    if (must_block)
        moves.add(board_.fives(op).first());
    else
        forced = generate(moves, tt_move, ply, depth, &searched);
    if (quiescence && !forced) return evaluate();
    // A forced block costs no depth; nor does a single defence.
    const int child_depth = quiescence ? depth - 1
                            : must_block || (forced && searched == 1) ||
                                    (forced && searched <= options_.extend_width && ply < 40)
                                ? depth
                                : depth - 1;
    const int alpha0 = alpha;
    int best = -kInfinity;
    Sq best_move = kNoSq;
    const int late_limit = options_.late_moves > 0 && !pv && depth <= 3
                               ? options_.late_moves + 2 * (depth - 1)
                               : kMaxMoves;
    for (int i = 0; i < searched; ++i) {
        const Sq s = moves.sq[i];
        // Late quiet moves near the horizon are left out, unless every move
        // so far loses.
        if (!forced && i >= late_limit && best > -kMateBound && quiet(me, s)) continue;
        int reduction = 0;
        if (options_.reductions && !forced && depth >= 3 && i >= 3 && quiet(me, s)) {
            reduction = options_.log_reductions ? std::min(depth - 2, log_reduction(depth, i))
                                                : (i >= 8 && depth >= 5 ? 2 : 1);
        }
        board_.make(s);
        int value;
        if (i == 0) {
            value = -search(child_depth, -beta, -alpha, ply + 1);
        } else {
            value = -search(child_depth - reduction, -alpha - 1, -alpha, ply + 1);
            if (reduction > 0 && value > alpha && !aborted_)
                value = -search(child_depth, -alpha - 1, -alpha, ply + 1);
            if (value > alpha && value < beta && !aborted_)
                value = -search(child_depth, -beta, -alpha, ply + 1);
        }
        board_.unmake();
        if (aborted_) return 0;
        if (value > best) {
            best = value;
            best_move = s;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    if (!must_block) reward(me, s, depth, ply);
                    break;
                }
            }
        }
        // Every move searched loses: not proven while some were left out.
        if (i + 1 == searched && best <= -kMateBound) searched = moves.size;
    }
    store(key, depth, best,
          best >= beta    ? kBoundLower
          : best > alpha0 ? kBoundExact
                          : kBoundUpper,
          best_move, ply);
    return best;
}

Sq ProEngine::proven_win(const SearchClock& clock, const InfoSink& info) {
    const std::uint64_t key = board_.hash();
    const TTEntry& e = tt_[key & (tt_.size() - 1)];
    if (e.key != key || !(e.bound & kBoundLower) || e.move == kNoSq || !board_.is_empty(e.move))
        return kNoSq;
    const int score = from_tt(e.score, 0);
    if (score < kMateBound) return kNoSq;
    info("string proven win");
    return report(clock, info, e.depth, score, e.move);
}

Sq ProEngine::verified(const MoveList& root, Sq best, const InfoSink& info) {
    hard_ = deadline(1.0);
    MoveList order;
    order.add(best);
    for (int i = 0; i < root.size; ++i)
        if (root.sq[i] != best) order.add(root.sq[i]);
    for (int i = 0; i < order.size; ++i) {
        const Sq s = order.sq[i];
        board_.make(s);
        solver_.set_limits(options_.verify_nodes, hard_ - max_gap_);
        const bool refuted = solver_.vct(limits_.vct_depth, limits_.inner_vcf_depth) != kNoSq;
        board_.unmake();
        if (!refuted) return s;
        // A proven loss: the next move, checked if there is time left, else
        // unchecked.
        if (i + 1 == order.size) break;
        const bool late = SearchClock::Clock::now() + max_gap_ >= hard_;
        info("string " + square_name(board_, s) + " loses to a vct, playing " +
             square_name(board_, order.sq[i + 1]) + (late ? " unchecked" : ""));
        if (late) return order.sq[i + 1];
    }
    return best;
}

bool ProEngine::defend_vcf(MoveList& root, const InfoSink& info) {
    board_.make_null();
    solver_.set_limits(options_.root_vcf_nodes, deadline(limits_.defend_vcf));
    SqSet line;
    const bool threat = solver_.vcf_cells(options_.vcf_depth, line);
    board_.unmake_null();
    if (!threat) return false;
    info("string opponent threatens a vcf");
    // The cells of its winning line and our fours first, then the rest.
    const int me = board_.to_move();
    MoveList candidates;
    generate(candidates, kNoSq, 0, 0);
    const auto add = [&](Sq s) {
        if (board_.is_empty(s) && !candidates.contains(s)) candidates.add(s, order_score(me, s));
    };
    line.for_each(add);
    board_.fours(me).for_each(add);
    for (int i = 0; i < candidates.size; ++i) {
        const Sq s = candidates.sq[i];
        if (line.test(s) || (board_.flags(me, s) & kFlagFour)) candidates.score[i] += 100000;
    }
    candidates.sort();
    keep_vcf_defences(root, candidates);
    return true;
}

Sq ProEngine::think_inner(const SearchClock& clock, const InfoSink& info) {
    clock_ = &clock;
    hard_ = deadline(1.0);
    nodes_ = 0;
    aborted_ = false;
    depth_reached_ = 0;
    age_ = static_cast<std::uint8_t>((age_ + 1) & 63);
    for (auto& h : history_)
        for (int& v : h)
            v /= 4;
    for (auto& k : killers_)
        k = {static_cast<std::int16_t>(kNoSq), static_cast<std::int16_t>(kNoSq)};
    solver_.clear();
    if (const Sq s = decided_move(clock, info, true); s != kNoSq) return s;

    // A win the last search proved through this position (the opponent
    // played into it): its move, before the root threat searches, which
    // within their budgets may miss it and keep only defences.
    if (const Sq s = proven_win(clock, info); s != kNoSq) return s;

    // The opponent's forced win by fours, were it to move: defend.
    MoveList root;
    const bool vcf_threat = defend_vcf(root, info);
    if (!vcf_threat) generate(root, kNoSq, 0, 0);
    if (root.size == 1) return report(clock, info, 1, 0, root.sq[0]);

    // Our VCT; the opponent's, were it to move (its VCF included).
    vct_threat_ = false;
    if (options_.vct_depth > 0) {
        const bool defend = !vcf_threat || options_.vct_after_vcf;
        if (const Sq s = vct_move(root, clock, info, defend); s != kNoSq) return s;
    }

    // Against a threat, the defences were checked with small budgets: keep
    // time to check the chosen one with a large one.
    const bool verify = timed_ && options_.verify_share > 0 && options_.vct_depth > 0 &&
                        (vcf_threat || vct_threat_);
    if (verify) hard_ = deadline(1.0 - options_.verify_share);
    int value = 0;
    const Sq best = deepen(root, clock, info, options_.max_depth, 2, false, depth_reached_, &value);
    if (!verify || value >= kMateBound || value <= -kMateBound) return best;
    return verified(root, best, info);
}

}  // namespace arena::bots::gomoku
