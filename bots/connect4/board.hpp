#pragma once
// The board shared by the Connect-4 bots: geometry and a bitboard position
// with make/unmake.
//
// Layout: column-major with one sentinel bit on top of every column, so the
// cell (col, row) is bit col * stride + row with stride = rows + 1 (row 0 at
// the bottom). Moving by 1 is vertical, by stride horizontal, by stride + 1
// and stride - 1 diagonal; the sentinel row never holds a stone, so no line
// wraps from one column into the next. Blocked cells are simply never
// stones, which breaks every line through them.
//
// Gravity with blocked cells: a piece lands on the lowest empty cell of its
// column that is not blocked. Each column keeps that cell (top_), and
// Geometry::above/below step over blocked cells; a full column's top_ is its
// sentinel. next_ is the set of top_ cells including the sentinels of full
// columns: (stones of the side to move) | next_ identifies the position, and
// on a one-word board it is the exact key (Pons' "position + mask" trick,
// generalised to blocked cells).
//
// Scores (Pons' convention, for any board): a win is worth
// first_max + 1 - (stones the winner played), where first_max is the number
// of stones the first player has when every playable cell is filled: on
// 7 x 6, 22 minus the winner's stones. Draw 0, a loss the negation.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "arena/games/connect4.hpp"
#include "bots/connect4/bitboard.hpp"

namespace arena::c4 {

inline constexpr int kMaxSide = games::kConnect4MaxSize;  // 16

// Everything about the board that does not depend on the bit-set type.
struct Geometry {
    int rows = 6;
    int cols = 7;
    int connect = 4;
    int stride = 7;      // rows + 1
    int cells = 42;      // playable (non-blocked) cells
    int first_max = 21;  // stones of the first player on a full board
    std::vector<games::Connect4Cell> blocked;
    std::array<int, kMaxSide> order{};  // columns, centre first
    std::array<int, kMaxSide> sentinel{};
    std::array<int, kMaxSide> bottom{};  // lowest playable cell (sentinel if none)
    // Per bit index (cols * stride of them): the next playable cell above /
    // below, skipping blocked cells; above the top cell is the sentinel,
    // below the bottom cell -1.
    std::vector<int> above, below;
    std::vector<std::uint64_t> zobrist;  // 2 per bit index (player 1, player 2)

    Geometry() : Geometry(games::Connect4Config{}) {}
    explicit Geometry(const games::Connect4Config& config);

    [[nodiscard]] int bits() const { return cols * stride; }
    [[nodiscard]] int cell(int col, int row) const { return col * stride + row; }
    [[nodiscard]] int col_of(int index) const { return index / stride; }
    [[nodiscard]] int row_of(int index) const { return index % stride; }
    [[nodiscard]] bool is_blocked(int col, int row) const {
        return std::find(blocked.begin(), blocked.end(), games::Connect4Cell{col, row}) !=
               blocked.end();
    }
    // The score of a win by the side to move with its next stone, `stones`
    // being the number on the board now.
    [[nodiscard]] int win_score(int stones) const { return first_max - stones / 2; }
    bool operator==(const Geometry& o) const {
        return rows == o.rows && cols == o.cols && connect == o.connect && blocked == o.blocked;
    }
};

inline Geometry::Geometry(const games::Connect4Config& config)
    : rows(config.rows),
      cols(config.cols),
      connect(config.connect),
      stride(config.rows + 1),
      blocked(config.blocked) {
    cells = rows * cols - static_cast<int>(blocked.size());
    first_max = (cells + 1) / 2;
    for (int c = 0; c < cols; ++c)
        order[c] = c;
    std::stable_sort(order.begin(), order.begin() + cols, [&](int a, int b) {
        return std::abs(2 * a - (cols - 1)) < std::abs(2 * b - (cols - 1));
    });
    above.assign(bits(), -1);
    below.assign(bits(), -1);
    for (int c = 0; c < cols; ++c) {
        sentinel[c] = cell(c, rows);
        int last = -1;
        for (int r = 0; r <= rows; ++r) {
            if (r < rows && is_blocked(c, r)) continue;
            const int here = cell(c, r);
            below[here] = last;
            if (last >= 0) above[last] = here;
            last = here;
        }
        int b = 0;
        while (b < rows && is_blocked(c, b))
            ++b;
        bottom[c] = cell(c, b);
    }
    zobrist.resize(2 * static_cast<std::size_t>(bits()));
    std::uint64_t s = 0x2545F4914F6CDD1DULL;
    for (auto& z : zobrist) {
        s += 0x9e3779b97f4a7c15ULL;
        std::uint64_t x = s;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        z = x ^ (x >> 31);
    }
}

// The board masks of one geometry in one bit-set type.
template <class B>
struct Masks {
    B board{};    // playable cells
    B blocked{};  // blocked cells
    std::array<B, kMaxSide> column{};
    std::array<B, kMaxSide + 1> row{};  // row[r]: the playable cells of row r
    bool has_blocked = false;

    explicit Masks(const Geometry& g) {
        for (int c = 0; c < g.cols; ++c) {
            for (int r = 0; r < g.rows; ++r) {
                const B b = bit<B>(g.cell(c, r));
                if (g.is_blocked(c, r)) {
                    blocked |= b;
                } else {
                    board |= b;
                    column[c] |= b;
                    row[r] |= b;
                }
            }
        }
        has_blocked = any(blocked);
    }
};

// Cells that complete a line of `connect` for `stones`: every cell x such that
// some window of `connect` cells through x in one direction has all its other
// cells in `stones`. Not masked: the caller keeps the empty playable ones.
template <class B>
[[nodiscard]] inline B line_completions(const Geometry& g, const B& stones) {
    const int n = g.connect;
    if (n == 4) {  // the common case, unrolled (Pons' compute_winning_position)
        B r = (stones << 1) & (stones << 2) & (stones << 3);
        const int shifts[3] = {g.stride, g.stride + 1, g.stride - 1};
        for (const int s : shifts) {
            B t = (stones << s) & (stones << 2 * s);
            r |= t & (stones << 3 * s);
            r |= t & (stones >> s);
            t = (stones >> s) & (stones >> 2 * s);
            r |= t & (stones << s);
            r |= t & (stones >> 3 * s);
        }
        return r;
    }
    // Vertical: a stone can only rest on cells below, so only n - 1 below count.
    B below_run = stones << 1;
    for (int a = 2; a < n; ++a)
        below_run = (below_run & stones) << 1;
    B r = n >= 2 ? below_run : B{};
    const int shifts[3] = {g.stride, g.stride + 1, g.stride - 1};
    for (const int s : shifts) {
        // before[a]: the a cells x - s .. x - a*s are stones; after[b] likewise.
        std::array<B, kMaxSide> before, after;
        before[0] = ~B{};
        after[0] = ~B{};
        for (int a = 1; a < n; ++a) {
            before[a] = (a == 1 ? stones : before[a - 1] & stones) << s;
            after[a] = (a == 1 ? stones : after[a - 1] & stones) >> s;
        }
        for (int a = 0; a < n; ++a)
            r |= before[a] & after[n - 1 - a];
    }
    return r;
}

// Does `stones` hold a line of `connect`?
template <class B>
[[nodiscard]] inline bool has_line(const Geometry& g, const B& stones) {
    const int n = g.connect;
    const int shifts[4] = {1, g.stride, g.stride + 1, g.stride - 1};
    for (const int s : shifts) {
        B run = stones;
        for (int a = 1; a < n && any(run); ++a)
            run = stones & (run >> s);
        if (any(run)) return true;
    }
    return false;
}

template <class B>
class Board {
  public:
    Board(const Geometry& g, const Masks<B>& m) : g_(&g), m_(&m) { clear(); }

    void clear() {
        cur_ = mask_ = next_ = B{};
        hash_ = kHashSeed;
        moves_ = 0;
        for (int c = 0; c < g_->cols; ++c) {
            top_[c] = g_->bottom[c];
            next_ |= bit<B>(top_[c]);
        }
    }

    // Copies a game position (same geometry).
    void set(const games::Connect4State& s) {
        clear();
        const int me = s.current_player();
        for (int c = 0; c < g_->cols; ++c) {
            for (int r = 0; r < g_->rows; ++r) {
                const int v = s.at(c, r);
                if (v != 1 && v != 2) continue;
                const int i = g_->cell(c, r);
                mask_ |= bit<B>(i);
                if (v == me) cur_ |= bit<B>(i);
                hash_ ^= g_->zobrist[2 * i + (v - 1)];
                ++moves_;
            }
            int t = g_->bottom[c];
            while (t != g_->sentinel[c] && test(mask_, t))
                t = g_->above[t];
            next_ ^= bit<B>(top_[c]) ^ bit<B>(t);
            top_[c] = t;
        }
    }

    [[nodiscard]] const Geometry& geometry() const { return *g_; }
    [[nodiscard]] const Masks<B>& masks() const { return *m_; }
    [[nodiscard]] int moves() const { return moves_; }
    [[nodiscard]] int empties() const { return g_->cells - moves_; }
    // 1 or 2: the player to move.
    [[nodiscard]] int to_move() const { return 1 + (moves_ & 1); }
    [[nodiscard]] const B& current() const { return cur_; }
    [[nodiscard]] B opponent() const { return cur_ ^ mask_; }
    [[nodiscard]] const B& occupied() const { return mask_; }
    [[nodiscard]] bool can_play(int col) const { return top_[col] != g_->sentinel[col]; }
    // The cell a piece dropped into `col` lands on (the sentinel when full).
    [[nodiscard]] int top(int col) const { return top_[col]; }
    [[nodiscard]] B possible() const { return next_ & m_->board; }
    [[nodiscard]] bool full() const { return moves_ == g_->cells; }

    void play(int col) {
        const int c = top_[col];
        const B b = bit<B>(c);
        if constexpr (!std::is_same_v<B, std::uint64_t>) hash_ ^= g_->zobrist[2 * c + (moves_ & 1)];
        cur_ ^= mask_;
        mask_ |= b;
        const int up = g_->above[c];
        next_ ^= b | bit<B>(up);
        top_[col] = up;
        ++moves_;
    }
    void undo(int col) {
        const int up = top_[col];
        const int c = g_->below[up];
        const B b = bit<B>(c);
        --moves_;
        top_[col] = c;
        next_ ^= b | bit<B>(up);
        mask_ ^= b;
        cur_ ^= mask_;
        if constexpr (!std::is_same_v<B, std::uint64_t>) hash_ ^= g_->zobrist[2 * c + (moves_ & 1)];
    }

    // The key after playing `col`, without playing it.
    [[nodiscard]] std::uint64_t key_after(int col) const {
        const int c = top_[col];
        if constexpr (std::is_same_v<B, std::uint64_t>) {
            return (cur_ ^ mask_) | (next_ ^ bit<B>(c) ^ bit<B>(g_->above[c]));
        } else {
            return hash_ ^ g_->zobrist[2 * c + (moves_ & 1)];
        }
    }

    [[nodiscard]] std::uint64_t key() const {
        if constexpr (std::is_same_v<B, std::uint64_t>) {
            return cur_ | next_;
        } else {
            return hash_;
        }
    }

    // Empty playable cells that would complete a line for `stones`.
    [[nodiscard]] B winning_cells(const B& stones) const {
        return line_completions(*g_, stones) & m_->board & ~mask_;
    }
    [[nodiscard]] B my_winning_cells() const { return winning_cells(cur_); }
    [[nodiscard]] B opponent_winning_cells() const { return winning_cells(opponent()); }
    [[nodiscard]] bool can_win_next() const { return any(my_winning_cells() & possible()); }
    [[nodiscard]] bool is_winning_move(int col) const {
        return test(line_completions(*g_, cur_), top_[col]);
    }

    // Cells whose filling makes a cell of `w` playable (the next playable cell
    // below each cell of w, stepping over blocked cells).
    [[nodiscard]] B below_cells(const B& w) const {
        B x = w >> 1;
        if (m_->has_blocked) {
            B hit = x & m_->blocked;
            while (any(hit)) {
                x = (x & ~m_->blocked) | (hit >> 1);
                hit = x & m_->blocked;
            }
        }
        return x;
    }

    // The next playable cell above each cell of w (stepping over blocked
    // cells); sentinels and cells past the board are dropped.
    [[nodiscard]] B above_cells(const B& w) const {
        B x = w << 1;
        if (m_->has_blocked) {
            B hit = x & m_->blocked;
            while (any(hit)) {
                x = (x & ~m_->blocked) | (hit << 1);
                hit = x & m_->blocked;
            }
        }
        return x & m_->board;
    }

    // Pons: the moves that do not let the opponent win at once; empty when
    // every move loses (the opponent has two immediate wins, or one we cannot
    // block without opening another). Precondition: !can_win_next().
    [[nodiscard]] B non_losing_moves() const {
        B poss = possible();
        const B opp_win = opponent_winning_cells();
        const B forced = poss & opp_win;
        if (any(forced)) {
            if (several(forced)) return B{};
            poss = forced;
        }
        return poss & ~below_cells(opp_win);
    }

    // How many empty playable cells would complete a line for the side to
    // move after it plays `col` (the move-ordering key of the searches; the
    // played cell itself excluded). One word: by bitboard. Wider boards,
    // where a whole-board pass costs far more, count the windows through the
    // new stone instead (a cell completing lines in two directions counts
    // twice; the cells it already completed before count too).
    [[nodiscard]] int threats_after(int col) const {
        const int cell = top_[col];
        if constexpr (std::is_same_v<B, std::uint64_t>) {
            const B mv = bit<B>(cell);
            return popcount(line_completions(*g_, cur_ | mv) & m_->board & ~(mask_ | mv));
        } else {
            const int n = g_->connect;
            const int c0 = g_->col_of(cell);
            const int r0 = g_->row_of(cell);
            constexpr int kDirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
            int total = 0;
            for (const auto& d : kDirs) {
                // The line through the cell, offsets -(n-1) .. n-1: 1 mine,
                // 0 empty and playable, -1 anything else.
                int kind[2 * kMaxSide];
                for (int k = -(n - 1); k <= n - 1; ++k) {
                    const int c = c0 + k * d[0];
                    const int r = r0 + k * d[1];
                    int v = -1;
                    if (k == 0) {
                        v = 1;
                    } else if (c >= 0 && c < g_->cols && r >= 0 && r < g_->rows) {
                        const int i = g_->cell(c, r);
                        if (test(cur_, i)) {
                            v = 1;
                        } else if (!test(mask_, i) && test(m_->board, i)) {
                            v = 0;
                        }
                    }
                    kind[k + n - 1] = v;
                }
                std::uint32_t found = 0;       // offsets of completing cells, by bit
                for (int w = 0; w < n; ++w) {  // windows w .. w + n - 1 hold offset n - 1
                    int mine = 0, empty = -1;
                    for (int k = w; k < w + n; ++k) {
                        if (kind[k] == 1) {
                            ++mine;
                        } else if (kind[k] == 0 && empty == -1) {
                            empty = k;
                        } else {
                            empty = -2;  // blocked, or two empty cells
                        }
                    }
                    if (mine == n - 1 && empty >= 0) found |= 1U << empty;
                }
                total += std::popcount(found);
            }
            return total;
        }
    }

    // Does `stones` have a line of `connect` through `cell`? (Scans the four
    // directions from the cell; cheaper than a whole-board test when one
    // stone was just added.)
    [[nodiscard]] bool line_through(const B& stones, int cell) const {
        const int n = g_->connect;
        const int limit = g_->bits();
        const int shifts[4] = {1, g_->stride, g_->stride + 1, g_->stride - 1};
        for (const int s : shifts) {
            int count = 1;
            for (int i = cell + s; i < limit && test(stones, i) && count < n; i += s)
                ++count;
            for (int i = cell - s; i >= 0 && test(stones, i) && count < n; i -= s)
                ++count;
            if (count >= n) return true;
        }
        return false;
    }

    // Did the last move (by the side not to move) complete a line?
    [[nodiscard]] bool last_move_won() const { return has_line(*g_, opponent()); }

  private:
    // Non-zero, so that no position's key is 0 (an empty table slot).
    static constexpr std::uint64_t kHashSeed = 0x9d39247e33776d41ULL;

    const Geometry* g_;
    const Masks<B>* m_;
    B cur_{}, mask_{}, next_{};
    std::uint64_t hash_ = 0;
    int moves_ = 0;
    std::array<int, kMaxSide> top_{};
};

// Which bit-set type a geometry needs.
enum class Width : std::uint8_t { k64, k192, k320 };
[[nodiscard]] inline Width width_for(const Geometry& g) {
    if (g.bits() <= 64) return Width::k64;
    if (g.bits() <= 192) return Width::k192;
    return Width::k320;
}

// The Connect-4 rules of a game object, or GameError.
[[nodiscard]] inline const games::Connect4Config& connect4_config(const games::Game& game) {
    const auto* c4 = dynamic_cast<const games::Connect4Game*>(&game);
    if (c4 == nullptr) throw games::GameError("this bot plays connect4 only, not " + game.name());
    return c4->config();
}
[[nodiscard]] inline const games::Connect4State& connect4_state(const games::State& state) {
    const auto* c4 = dynamic_cast<const games::Connect4State*>(&state);
    if (c4 == nullptr) throw games::GameError("this bot plays connect4 only");
    return *c4;
}

// The playable columns whose landing cell is in `next` (e.g. the moves that
// do not lose at once), best first: `tt_move`, then by the number of winning
// cells the move gives, then in the geometry's centre-first order. Each
// child's table entry is prefetched with `prefetch(key)`. Returns the count.
template <class B, class Prefetch>
int order_moves(const Board<B>& b, const Geometry& g, const B& next, int tt_move, int* cols,
                Prefetch&& prefetch) {
    int scores[kMaxSide];
    int n = 0;
    for (int i = 0; i < g.cols; ++i) {
        const int col = g.order[i];
        if (!b.can_play(col) || !test(next, b.top(col))) continue;
        prefetch(b.key_after(col));
        const int s = col == tt_move ? 1000 : b.threats_after(col);
        int j = n++;
        while (j > 0 && scores[j - 1] < s) {
            scores[j] = scores[j - 1];
            cols[j] = cols[j - 1];
            --j;
        }
        scores[j] = s;
        cols[j] = col;
    }
    return n;
}

}  // namespace arena::c4
