#include "bots/gomoku/minimax.hpp"

namespace arena::bots::gomoku {

int MinimaxEngine::evaluate() const {
    return board_.shape_score(root_) - board_.shape_score(other(root_));
}

Sq MinimaxEngine::opening_move() const {
    const Sq centre = board_.centre();
    if (board_.stones() == 0) return centre;
    if (board_.stones() == 1) {
        if (board_.is_empty(centre)) return centre;
        // Beside or diagonally next to the centre, chosen from the seed and
        // the position only (so a game replays identically).
        std::uint64_t h = options_.seed * 0x9e3779b97f4a7c15ULL + board_.hash();
        h ^= h >> 31;
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 29;
        const int c = board_.size() / 2;
        return (h & 1U) ? board_.sq(c - 1, c) : board_.sq(c - 1, c - 1);
    }
    return kNoSq;
}

int MinimaxEngine::minimax(int left) {
    if ((++nodes_ & 255) == 0 && clock_->past_hard()) aborted_ = true;
    if (search_limits_.out_of_nodes(nodes_)) aborted_ = true;
    if (aborted_) return 0;
    const int me = board_.to_move();
    // A five ends the game: the side to move completes it.
    if (board_.five_count(me) > 0) return me == root_ ? kFiveScore : -kFiveScore;
    if (left == 0 || board_.full()) return evaluate();
    MoveList moves;
    near_moves(board_, 1, moves);
    const bool maximize = me == root_;
    int best = maximize ? -kInfinity : kInfinity;
    for (int i = 0; i < moves.size; ++i) {
        board_.make(moves.sq[i]);
        const int value = minimax(left - 1);
        board_.unmake();
        if (aborted_) return 0;
        best = maximize ? std::max(best, value) : std::min(best, value);
    }
    return best;
}

Sq MinimaxEngine::think(const SearchClock& clock, const InfoSink& info) {
    clock_ = &clock;
    nodes_ = 0;
    aborted_ = false;
    root_ = board_.to_move();
    if (const Sq s = opening_move(); s != kNoSq) {
        info(info_line(board_, 0, 0, 0, s, clock.elapsed().count()));
        return s;
    }
    MoveList moves;
    near_moves(board_, 1, moves);
    // Depth one: a five wins at once; otherwise the evaluation after the move.
    for (int i = 0; i < moves.size; ++i) {
        const Sq s = moves.sq[i];
        if (board_.wins(root_, s)) {
            info(info_line(board_, 1, kFiveScore, nodes_, s, clock.elapsed().count()));
            return s;
        }
        board_.make(s);
        ++nodes_;
        moves.score[i] = evaluate();
        board_.unmake();
    }
    moves.sort();
    Sq best = moves.sq[0];
    int best_value = moves.score[0];
    int depth_done = 1;
    const int depth = search_limits_.max_depth(options_.depth);
    if (depth > 1) {
        Sq deep_best = kNoSq;
        int deep_value = -kInfinity;
        for (int i = 0; i < moves.size; ++i) {
            board_.make(moves.sq[i]);
            const int value = minimax(depth - 1);
            board_.unmake();
            if (aborted_) break;
            if (value > deep_value) {
                deep_value = value;
                deep_best = moves.sq[i];
            }
        }
        if (deep_best != kNoSq) {
            best = deep_best;
            best_value = deep_value;
            depth_done = depth;
        }
    }
    info(info_line(board_, depth_done, best_value, nodes_, best, clock.elapsed().count()));
    return best;
}

}  // namespace arena::bots::gomoku
