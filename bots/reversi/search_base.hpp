#pragma once
// The alpha-beta machinery of reversi-alphabeta and reversi-pro: the
// transposition table, the node budget, move lists, the principal variation
// search over a node's moves and one iteration at the root. Each engine
// supplies its own evaluation, move ordering, table policy and solver.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "bots/common/search_clock.hpp"
#include "bots/common/search_limits.hpp"
#include "bots/reversi/board.hpp"

namespace arena::bots::reversi::search {

inline constexpr std::uint64_t kCheckMask = 1023;  // look at the clock every 1024 nodes
inline constexpr int kMaxMoves = 40;  // no reversi position has more legal moves (the record is 33)
inline constexpr int kInf = 32000;    // beyond every score of either engine

enum Bound : std::uint8_t { kUpper = 1, kLower = 2, kExact = 3 };

// Static priority of a cell, for move ordering only: corners first, then the
// A- and B-squares of the edges, X- and C-squares last.
inline constexpr std::array<int, 64> kPriority{
    20, -3, 11, 8,  8,  11, -3, 20,  //
    -3, -7, -4, 1,  1,  -4, -7, -3,  //
    11, -4, 2,  2,  2,  2,  -4, 11,  //
    8,  1,  2,  -3, -3, 2,  1,  8,   //
    8,  1,  2,  -3, -3, 2,  1,  8,   //
    11, -4, 2,  2,  2,  2,  -4, 11,  //
    -3, -7, -4, 1,  1,  -4, -7, -3,  //
    20, -3, 11, 8,  8,  11, -3, 20,
};

// The final difference when the last empty cell is `sq`.
[[nodiscard]] inline int solve_last(const Position& pos, int sq) {
    const int d = pos.disc_diff();
    if (const Bitboard f = flips(pos.own, pos.opp, sq); f != 0) return d + 2 * popcount(f) + 1;
    if (const Bitboard f = flips(pos.opp, pos.own, sq); f != 0) return d - 2 * popcount(f) - 1;
    return d;
}

// The 4x4 quadrant of each cell.
inline constexpr std::array<Bitboard, 4> kQuadrants{0x000000000f0f0f0fULL, 0x00000000f0f0f0f0ULL,
                                                    0x0f0f0f0f00000000ULL, 0xf0f0f0f000000000ULL};

[[nodiscard]] constexpr Bitboard quadrant_of(int sq) {
    return kQuadrants[static_cast<std::size_t>((sq >= 32 ? 2 : 0) + ((sq & 7) >= 4 ? 1 : 0))];
}

// The quadrants holding an odd number of empty cells.
[[nodiscard]] inline Bitboard odd_quadrants(Bitboard empty) {
    Bitboard odd = 0;
    for (const Bitboard q : kQuadrants)
        if ((popcount(empty & q) & 1) != 0) odd |= q;
    return odd;
}

// Moves of a node with their children, best-looking first on demand.
struct MoveList {
    std::array<int, kMaxMoves> sq{};
    std::array<int, kMaxMoves> key{};
    std::array<Position, kMaxMoves> child{};
    int size = 0;

    void add(int s, int k, const Position& c) {
        sq[static_cast<std::size_t>(size)] = s;
        key[static_cast<std::size_t>(size)] = k;
        child[static_cast<std::size_t>(size)] = c;
        ++size;
    }
    // Swaps the best remaining move into place i.
    void pick(int i) {
        int best = i;
        for (int j = i + 1; j < size; ++j)
            if (key[static_cast<std::size_t>(j)] > key[static_cast<std::size_t>(best)]) best = j;
        std::swap(sq[static_cast<std::size_t>(i)], sq[static_cast<std::size_t>(best)]);
        std::swap(key[static_cast<std::size_t>(i)], key[static_cast<std::size_t>(best)]);
        std::swap(child[static_cast<std::size_t>(i)], child[static_cast<std::size_t>(best)]);
    }
};

struct RootMove {
    int sq;
    int score;
};

// The moves of `list`, best key first.
[[nodiscard]] inline std::vector<RootMove> root_moves(MoveList& list) {
    std::vector<RootMove> root;
    for (int i = 0; i < list.size; ++i) {
        list.pick(i);
        root.push_back({list.sq[static_cast<std::size_t>(i)], 0});
    }
    return root;
}

// A table entry: 16 bytes. `game` stays 0 for an engine that does not keep
// the table between games.
struct Entry {
    std::uint64_t key = 0;
    std::int16_t score = 0;
    std::int8_t depth = 0;
    std::uint8_t bound = 0;
    std::int8_t move = -1;
    std::uint8_t generation = 0;
    std::uint16_t game = 0;
};

// Whether the stored bound decides a node searched with [alpha, beta].
[[nodiscard]] inline bool decides(const Entry& e, int alpha, int beta) {
    const int s = e.score;
    return e.bound == kExact || (e.bound == kLower && s >= beta) ||
           (e.bound == kUpper && s <= alpha);
}

// Narrows [alpha, beta] by the stored bound.
inline void narrow(const Entry& e, int& alpha, int& beta) {
    if (e.bound == kLower) alpha = std::max(alpha, static_cast<int>(e.score));
    if (e.bound == kUpper) beta = std::min(beta, static_cast<int>(e.score));
}

class SearchBase {
  public:
    [[nodiscard]] std::uint64_t nodes() const { return nodes_; }
    // The `go`'s depth= and nodes= for the searches that follow: a search
    // stops once it has counted the nodes, and iterative deepening ignores
    // the soft limit (the engines turn the depth into their maximum depth).
    void set_limits(const SearchLimits& limits) { limits_ = limits; }

  protected:
    // 2^tt_bits table entries.
    explicit SearchBase(int tt_bits)
        : table_(std::size_t{1} << tt_bits), mask_((std::uint64_t{1} << tt_bits) - 1) {}

    [[nodiscard]] Entry& slot(std::uint64_t key) { return table_[key & mask_]; }
    [[nodiscard]] const Entry& slot(std::uint64_t key) const { return table_[key & mask_]; }
    void clear_table() { std::fill(table_.begin(), table_.end(), Entry{}); }

    // Writes a node's result searched with the window [alpha0, beta].
    void write(Entry& e, std::uint64_t key, int depth, int score, int alpha0, int beta, int move,
               std::uint16_t game) const {
        e.key = key;
        e.score = static_cast<std::int16_t>(score);
        e.depth = static_cast<std::int8_t>(depth);
        e.bound = score <= alpha0 ? kUpper : score >= beta ? kLower : kExact;
        e.move = static_cast<std::int8_t>(move);
        e.generation = generation_;
        e.game = game;
    }

    // Counts a node; true (from then on) once the hard limit has passed.
    bool out_of_time() {
        if ((++nodes_ & kCheckMask) == 0 && clock_->past_hard()) stopped_ = true;
        if (limits_.out_of_nodes(nodes_)) stopped_ = true;
        return stopped_;
    }

    struct Best {
        int score;
        int move;
    };
    // Principal variation search over the moves of `list`, best key first:
    // the first with the window [alpha, beta], the others with a null window
    // and again with the full one when they land inside it. `value(child,
    // alpha, beta)` is the child's value from the mover's side. Stops at a
    // cut-off; nullopt when the clock stopped the search.
    template <class Value>
    std::optional<Best> search_moves(MoveList& list, int alpha, int beta, Value&& value) {
        Best best{-kInf, -1};
        for (int i = 0; i < list.size; ++i) {
            list.pick(i);
            const Position& child = list.child[static_cast<std::size_t>(i)];
            int v;
            if (i == 0) {
                v = value(child, alpha, beta);
            } else {
                v = value(child, alpha, alpha + 1);
                if (v > alpha && v < beta && !stopped_) v = value(child, alpha, beta);
            }
            if (stopped_) return std::nullopt;
            if (v > best.score) {
                best = {v, list.sq[static_cast<std::size_t>(i)]};
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        }
        return best;
    }

    // One iteration at the root with the full window, in the order of
    // `moves`; then the best first for the next iteration, the others in
    // their order (a move that finished better than the old best comes
    // first even when the iteration was cut short). `value` as for
    // search_moves. nullopt when not even the first move finished.
    template <class Report, class Value>
    std::optional<Report> search_root_moves(const Position& pos, std::vector<RootMove>& moves,
                                            int depth, Value&& value) {
        int alpha = -kInf;
        const int beta = kInf;
        Report report;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            const Position child = pos.play(moves[i].sq);
            int v;
            if (i == 0) {
                v = value(child, alpha, beta);
            } else {
                v = value(child, alpha, alpha + 1);
                if (v > alpha && !stopped_) v = value(child, alpha, beta);
            }
            if (stopped_) break;
            moves[i].score = i == 0 || v > alpha ? v : -kInf;
            if (v > alpha) {
                alpha = v;
                report.move = moves[i].sq;
                report.score = v;
            }
        }
        if (report.move < 0) return std::nullopt;
        std::stable_sort(moves.begin(), moves.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        report.depth = depth;
        report.nodes = nodes_;
        return report;
    }

    // Iterative deepening from depth 1 to `last_depth` over `root`, until
    // the soft limit of `soft` or the hard limit; `on_report` after each
    // completed iteration. `value(child, depth, alpha, beta)` is the value of
    // a root move searched to `depth` from the mover's side. The last
    // completed iteration; the first root move when none completed.
    template <class Report, class Value>
    Report deepen(const Position& pos, std::vector<RootMove>& root, int last_depth,
                  const SearchClock& soft, const std::function<void(const Report&)>& on_report,
                  Value&& value) {
        Report best;
        best.move = root.front().sq;
        for (int depth = 1; depth <= last_depth; ++depth) {
            if (depth > 1 && !limits_.any() && soft.past_soft()) break;
            const auto r = search_root_moves<Report>(
                pos, root, depth,
                [&](const Position& child, int a, int b) { return value(child, depth, a, b); });
            if (r) {
                best = *r;
                if (!stopped_ && on_report) on_report(best);
            }
            if (stopped_) break;
        }
        return best;
    }

    // The exact final difference of the last few empty cells, without move
    // lists or table: the empty cells in order, with `kParity` those of the
    // quadrants in `parity` (the ones with an odd number of empties) first.
    template <bool kParity>
    int solve_few(const Position& pos, int alpha, int beta, int empties, Bitboard parity) {
        if (out_of_time()) return 0;
        const Bitboard empty = pos.empty();
        if (empties == 1) return solve_last(pos, lsb(empty));
        int best = -kInf;
        const std::array<Bitboard, 2> groups{empty & parity, empty & ~parity};
        for (const Bitboard group : groups) {
            for (Bitboard rest = group; rest != 0; rest &= rest - 1) {
                const int sq = lsb(rest);
                const Bitboard f = flips(pos.own, pos.opp, sq);
                if (f == 0) continue;
                const Position child{pos.opp ^ f, pos.own | f | bit(sq)};
                const Bitboard next = kParity ? parity ^ quadrant_of(sq) : parity;
                const int v = -solve_few<kParity>(child, -beta, -alpha, empties - 1, next);
                if (v > best) {
                    best = v;
                    if (v > alpha) {
                        alpha = v;
                        if (alpha >= beta) return best;
                    }
                }
            }
        }
        if (best != -kInf) return best;
        // No move: pass, or the game is over.
        if (legal_moves(pos.opp, pos.own) == 0) return pos.disc_diff();
        return -solve_few<kParity>(pos.pass(), -beta, -alpha, empties, parity);
    }

    std::vector<Entry> table_;
    std::uint64_t mask_;
    std::uint8_t generation_ = 0;
    std::uint64_t nodes_ = 0;
    const SearchClock* clock_ = nullptr;
    SearchLimits limits_;
    bool stopped_ = false;
};

}  // namespace arena::bots::reversi::search
