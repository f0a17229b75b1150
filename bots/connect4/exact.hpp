#pragma once
// The exact Connect-4 solver (the design of Pascal Pons' solver, generalised
// to any board): negamax with alpha-beta on bitboards, only non-losing moves,
// score bounds from the number of stones left, a transposition table holding
// both bounds, moves ordered by the table's move and then by the threats they
// create, and the exact score found by a series of null-window searches
// (a binary search on the score that tries the sign first).
//
// Scores are exact game values (board.hpp): positive the side to move wins,
// first_max + 1 minus the winner's stones; 0 a draw. A search can be stopped
// from outside (time); its partial result then still holds every bound it
// proved, with a move that achieves the lower bound.

#include <bit>
#include <cstdint>
#include <functional>
#include <limits>

#include "bots/connect4/board.hpp"
#include "bots/connect4/table.hpp"

namespace arena::c4 {

// Bounds on exact scores, keyed by the position's key, in buckets of two:
// the first slot keeps the entry whose search took the most work (log2 of its
// nodes), the second takes whatever comes; on long searches that overflow
// the table this halves the nodes. Cleared in O(1) by a generation number.
class ExactTable {
  public:
    struct Entry {
        std::uint64_t key = 0;
        std::int16_t lo = 0, hi = 0;
        std::int8_t move = -1;
        std::uint8_t gen = 0;
        std::uint8_t work = 0;
    };

    explicit ExactTable(int log2_entries = 21) { resize(log2_entries); }

    void resize(int log2_entries) {
        shift_ = 64 - (log2_entries - 1);
        entries_.assign(std::size_t{1} << log2_entries);
        gen_ = 1;
    }
    void clear() {
        if (++gen_ == 0) {
            entries_.fill();
            gen_ = 1;
        }
    }
    [[nodiscard]] std::size_t size() const { return entries_.size(); }
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&entries_[index(key)]); }

    [[nodiscard]] const Entry* probe(std::uint64_t key) const {
        const Entry* e = &entries_[index(key)];
        if (e[0].key == key && e[0].gen == gen_) return &e[0];
        if (e[1].key == key && e[1].gen == gen_) return &e[1];
        return nullptr;
    }
    void store(std::uint64_t key, int lo, int hi, int move, int work) {
        Entry* e = &entries_[index(key)];
        Entry* slot = nullptr;
        if (e[0].key == key && e[0].gen == gen_)
            slot = &e[0];
        else if (e[1].key == key && e[1].gen == gen_)
            slot = &e[1];
        if (slot) {
            lo = std::max<int>(lo, slot->lo);
            hi = std::min<int>(hi, slot->hi);
            if (move < 0) move = slot->move;
            work = std::max<int>(work, slot->work);
        } else if (e[0].gen != gen_ || work >= e[0].work) {
            e[1] = e[0];
            slot = &e[0];
        } else {
            slot = &e[1];
        }
        slot->key = key;
        slot->lo = static_cast<std::int16_t>(lo);
        slot->hi = static_cast<std::int16_t>(hi);
        slot->move = static_cast<std::int8_t>(move);
        slot->gen = gen_;
        slot->work = static_cast<std::uint8_t>(work);
    }

  private:
    [[nodiscard]] std::size_t index(std::uint64_t key) const {
        return 2 * static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_);
    }

    LargeArray<Entry> entries_;
    int shift_ = 43;
    std::uint8_t gen_ = 1;
};

inline constexpr int kNoBound = 10000;  // beyond every score

struct ExactResult {
    int lo = -kNoBound;     // proven: score >= lo, achieved by `move`
    int hi = kNoBound;      // proven: score <= hi
    int move = -1;          // a column
    bool complete = false;  // finished (exact, or the sign for a weak solve)
    [[nodiscard]] bool exact() const { return lo == hi; }
};

template <class B>
class ExactSolver {
  public:
    // `stop` is polled every few thousand nodes; true abandons the search.
    ExactSolver(Board<B>& board, ExactTable& table, std::function<bool()> stop = {})
        : b_(board), g_(board.geometry()), tt_(table), stop_(std::move(stop)) {}

    [[nodiscard]] std::uint64_t nodes() const { return nodes_; }

    // The exact score of the position and a move that achieves it; weak:
    // only its sign (win, draw or loss). The null-window tests start with the
    // sign (weak) or follow Pons' binary search (strong). Stopped early, the
    // result still holds the proven bounds, and `move` achieves `lo`.
    // Precondition: the game is not over.
    ExactResult solve(bool weak = false) {
        ExactResult r;
        const int nb = b_.moves();
        for (int i = 0; i < g_.cols; ++i)
            if (const int col = g_.order[i]; b_.can_play(col) && b_.is_winning_move(col)) {
                r.lo = r.hi = g_.win_score(nb);
                r.move = col;
                r.complete = true;
                return r;
            }
        // Any move scores at least -win_score(nb + 1): the opponent cannot
        // win before its next stone.
        int lo = -g_.win_score(nb + 1);
        int hi = g_.win_score(nb + 2);
        int move = -1;
        while (lo < hi) {
            int med = 0;
            if (weak) {
                if (lo > 0 || hi < 0 || (lo == 0 && hi == 0)) break;  // the sign is known
                med = hi > 0 ? 0 : -1;
            } else {
                med = lo + (hi - lo) / 2;
                if (med <= 0 && lo / 2 < med) {
                    med = lo / 2;
                } else if (med >= 0 && hi / 2 > med) {
                    med = hi / 2;
                }
            }
            int m = -1;
            const int v = root(med, med + 1, m);
            if (stopped_) break;
            if (v <= med) {
                hi = v;
            } else {
                lo = v;
                move = m;
            }
        }
        r.complete = !stopped_;
        r.lo = lo;
        r.hi = hi;
        r.move = move >= 0 ? move : first_move();
        return r;
    }

    // One search of the root with the window (alpha, beta): returns a
    // fail-soft value and, when it exceeds alpha, the move that achieved it.
    int root(int alpha, int beta, int& best_move) {
        const B next = b_.non_losing_moves();
        best_move = -1;
        if (!any(next)) {
            best_move = first_move();
            return -g_.win_score(b_.moves() + 1);
        }
        int cols[kMaxSide];
        const int n = sorted_moves(next, -1, cols);
        int best = -kNoBound;
        for (int i = 0; i < n; ++i) {
            b_.play(cols[i]);
            const int v = -negamax(-beta, -std::max(alpha, best));
            b_.undo(cols[i]);
            if (stopped_) return 0;
            if (v > best) {
                best = v;
                if (v > alpha) best_move = cols[i];
                if (v >= beta) return v;
            }
        }
        return best;
    }

  private:
    [[nodiscard]] int first_move() const {
        for (int i = 0; i < g_.cols; ++i)
            if (b_.can_play(g_.order[i])) return g_.order[i];
        return -1;
    }

    // The playable columns of `next`, best first: the table's move, then by
    // the number of winning cells the move gives, then centre first.
    int sorted_moves(const B& next, int tt_move, int* cols) {
        return order_moves(b_, g_, next, tt_move, cols,
                           [this](std::uint64_t key) { tt_.prefetch(key); });
    }

    // Precondition: the side to move cannot win at once.
    int negamax(int alpha, int beta) {
        ++nodes_;
        if ((nodes_ & 1023) == 0 && stop_ && stop_()) stopped_ = true;
        if (stopped_) return 0;
        const B next = b_.non_losing_moves();
        const int nb = b_.moves();
        if (!any(next)) return -g_.win_score(nb + 1);
        if (nb >= g_.cells - 2) return 0;
        const int min = -g_.win_score(nb + 3);
        if (alpha < min) {
            alpha = min;
            if (alpha >= beta) return alpha;
        }
        const int max = g_.win_score(nb + 2);
        if (beta > max) {
            beta = max;
            if (alpha >= beta) return beta;
        }
        const std::uint64_t key = b_.key();
        int tt_move = -1;
        if (const auto* e = tt_.probe(key)) {
            if (e->lo > alpha) {
                alpha = e->lo;
                if (alpha >= beta) return alpha;
            }
            if (e->hi < beta) {
                beta = e->hi;
                if (alpha >= beta) return beta;
            }
            tt_move = e->move;
        }
        int cols[kMaxSide];
        const int n = sorted_moves(next, tt_move, cols);
        const int alpha0 = alpha;
        int best_move = -1;
        const std::uint64_t nodes0 = nodes_;
        const auto work = [&] { return static_cast<int>(std::bit_width(nodes_ - nodes0)); };
        for (int i = 0; i < n; ++i) {
            b_.play(cols[i]);
            const int v = -negamax(-beta, -alpha);
            b_.undo(cols[i]);
            if (stopped_) return 0;
            if (v >= beta) {
                tt_.store(key, v, kNoBound, cols[i], work());
                return v;
            }
            if (v > alpha) {
                alpha = v;
                best_move = cols[i];
            }
        }
        // alpha is an upper bound; exact when a move raised it.
        tt_.store(key, alpha > alpha0 ? alpha : -kNoBound, alpha, best_move, work());
        return alpha;
    }

    Board<B>& b_;
    const Geometry& g_;
    ExactTable& tt_;
    std::function<bool()> stop_;
    std::uint64_t nodes_ = 0;
    bool stopped_ = false;
};

}  // namespace arena::c4
