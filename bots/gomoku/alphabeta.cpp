#include "bots/gomoku/alphabeta.hpp"

namespace arena::bots::gomoku {

int AlphaBetaEngine::evaluate(int ply) const {
    const int me = board_.to_move();
    const int op = other(me);
    if (board_.five_count(me) > 0) return kWinScore - ply - 1;
    if (board_.five_count(op) >= 2) return -(kWinScore - ply - 2);
    if (board_.five_count(op) == 0) {
        if (board_.flex4_count(me) > 0) return kLikelyWin - ply;
        if (board_.four_count(me) == 0 && two_open_threes(board_, op)) return -(kLikelyWin - ply);
    }
    return board_.shape_score(me, options_.weights) - board_.shape_score(op, options_.weights);
}

bool AlphaBetaEngine::poll() {
    if (nodes_ >= next_poll_) {
        next_poll_ = nodes_ + 256;
        if (clock_->past_hard()) aborted_ = true;
    }
    if (search_limits_.out_of_nodes(nodes_)) aborted_ = true;
    return aborted_;
}

void AlphaBetaEngine::generate(MoveList& moves, int ply) {
    const int op = other(board_.to_move());
    moves.size = 0;
    if (board_.five_count(op) > 0) {
        board_.fives(op).for_each([&](Sq s) { moves.add(s, 0); });
    } else {
        near_moves(board_, 2, moves);
    }
    for (int i = 0; i < moves.size; ++i) {
        board_.make(moves.sq[i]);
        ++nodes_;
        moves.score[i] = -evaluate(ply + 1);
        board_.unmake();
    }
    moves.sort();
}

int AlphaBetaEngine::search(int depth, int alpha, int beta, int ply) {
    if (poll()) return 0;
    const int static_eval = evaluate(ply);
    if (static_eval >= kLikelyBound || static_eval <= -kLikelyBound) return static_eval;
    if (depth <= 0 || board_.full()) return static_eval;
    MoveList moves;
    generate(moves, ply);
    // The children's static values are already known: depth one is their max.
    if (depth == 1) return moves.score[0];
    moves.truncate(options_.width);
    int best = -kInfinity;
    for (int i = 0; i < moves.size; ++i) {
        board_.make(moves.sq[i]);
        ++nodes_;
        const int value = -search(depth - 1, -beta, -alpha, ply + 1);
        board_.unmake();
        if (aborted_) return 0;
        if (value > best) {
            best = value;
            if (value > alpha) alpha = value;
            if (alpha >= beta) break;
        }
    }
    return best;
}

Sq AlphaBetaEngine::think(const SearchClock& clock, const InfoSink& info) {
    clock_ = &clock;
    nodes_ = 0;
    next_poll_ = 0;
    aborted_ = false;
    const int me = board_.to_move();
    const int op = other(me);
    if (board_.stones() == 0) return board_.centre();
    // A five to complete, or a single five-point of the opponent to block.
    if (board_.five_count(me) > 0) {
        const Sq s = board_.fives(me).first();
        info(info_line(board_, 1, kWinScore - 1, nodes_, s, clock.elapsed().count()));
        return s;
    }
    MoveList root;
    generate(root, 0);
    if (board_.five_count(op) > 0 || root.size == 1) {
        info(info_line(board_, 1, root.score[0], nodes_, root.sq[0], clock.elapsed().count()));
        return root.sq[0];
    }
    root.truncate(2 * options_.width);
    return iterate(root, clock, info);
}

Sq AlphaBetaEngine::iterate(MoveList& root, const SearchClock& clock, const InfoSink& info) {
    Sq best = root.sq[0];
    int best_value = root.score[0];
    int depth_reached = 1;
    for (int depth = 2; depth <= search_limits_.max_depth(options_.max_depth); ++depth) {
        if (!search_limits_.any() && clock.past_soft()) break;
        depth_reached = depth;
        int alpha = -kInfinity;
        Sq iter_best = kNoSq;
        for (int i = 0; i < root.size; ++i) {
            board_.make(root.sq[i]);
            ++nodes_;
            const int value = -search(depth - 1, -kInfinity, -alpha, 1);
            board_.unmake();
            if (aborted_) break;
            root.score[i] = value;
            if (value > alpha) {
                alpha = value;
                iter_best = root.sq[i];
            }
        }
        // A partly searched iteration still counts when its first move (the
        // previous best) was searched: its best is at least as well founded.
        if (iter_best != kNoSq) {
            best = iter_best;
            best_value = alpha;
        }
        if (aborted_) break;
        // Searched moves in this iteration's order, the best first.
        root.sort();
        info(info_line(board_, depth, best_value, nodes_, best, clock.elapsed().count()));
        if (best_value >= kMateBound || best_value <= -kMateBound) break;
    }
    if (aborted_ || search_limits_.depth == 1) {
        info(info_line(board_, depth_reached, best_value, nodes_, best, clock.elapsed().count()));
    }
    return best;
}

}  // namespace arena::bots::gomoku
