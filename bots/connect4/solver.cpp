#include "bots/connect4/solver.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bots/common/search_clock.hpp"
#include "bots/common/search_limits.hpp"
#include "bots/connect4/book_7x6.hpp"
#include "bots/connect4/exact.hpp"
#include "bots/connect4/table.hpp"

namespace arena::c4 {
namespace {

// Heuristic values lie strictly inside (-kScale, kScale); an exact score r
// (exact.hpp) is r * kScale, so every proven result outranks every guess.
constexpr int kScale = 1000;
constexpr int kHeuristicMax = kScale - 1;
constexpr int kInf = 1 << 28;
// Proofs are attempted from this many empty cells on (7 x 6: from ply 2;
// the tables keep what each attempt proved, so the attempts add up).
constexpr int kProofEmpties = 40;

// The depth-limited search's table: a value with its bound and depth.
class HeuristicTable {
  public:
    enum Bound : std::uint8_t { kNone, kLower, kUpper, kExact };
    struct Entry {
        std::uint64_t key = 0;
        std::int32_t value = 0;
        std::int8_t depth = 0;
        std::uint8_t bound = kNone;
        std::int8_t move = -1;
        std::uint8_t gen = 0;
    };

    explicit HeuristicTable(int log2_entries) {
        shift_ = 64 - log2_entries;
        entries_.assign(std::size_t{1} << log2_entries);
    }
    void clear() {
        if (++gen_ == 0) {
            entries_.fill();
            gen_ = 1;
        }
    }
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&entries_[index(key)]); }
    [[nodiscard]] const Entry* probe(std::uint64_t key) const {
        const Entry& e = entries_[index(key)];
        return e.key == key && e.gen == gen_ && e.bound != kNone ? &e : nullptr;
    }
    void store(std::uint64_t key, int value, int depth, Bound bound, int move) {
        Entry& e = entries_[index(key)];
        e.key = key;
        e.value = value;
        e.depth = static_cast<std::int8_t>(std::min(depth, 127));
        e.bound = bound;
        e.move = static_cast<std::int8_t>(move);
        e.gen = gen_;
    }

  private:
    [[nodiscard]] std::size_t index(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_);
    }
    LargeArray<Entry> entries_;
    int shift_ = 44;
    std::uint8_t gen_ = 1;
};

// Both tables of the solver, allocated once per process.
struct SolverTables {
    explicit SolverTables(const SolverOptions& o)
        : exact(o.log2_exact), heuristic(o.log2_heuristic) {}
    ExactTable exact;
    HeuristicTable heuristic;
};

std::string col_text(int col) {
    return std::to_string(col + 1);
}

template <class B>
class SolverSearcher final : public Searcher {
  public:
    SolverSearcher(const Geometry& g, const SolverOptions& o, SolverTables& tables)
        : g_(g), m_(g_), b_(g_, m_), o_(o), exact_(tables.exact), heur_(tables.heuristic) {
        for (int r = 0; r < g_.rows; r += 2)
            odd_rows_ |= m_.row[r];  // rows 1, 3, 5, ... counted from 1
        even_rows_ = m_.board & ~odd_rows_;
        for (int k = 1; k < g_.connect; ++k)
            window_weight_[k] =
                k < g_.connect - 3 ? 1 : 1 << (2 * (k - std::max(1, g_.connect - 3)));
        standard_ = g_.rows == 6 && g_.cols == 7 && g_.connect == 4 && g_.blocked.empty();
    }

    void new_game() override {}

    int choose(const games::Connect4State& state, const protocol::Go& go,
               const bots::InfoSink& info) override {
        b_.set(state);
        nodes_ = 0;
        info_ = &info;
        for (int i = 0; i < g_.cols; ++i)
            if (const int col = g_.order[i]; b_.can_play(col) && b_.is_winning_move(col)) {
                info("depth 1 score " + std::to_string(g_.win_score(b_.moves()) * kScale) +
                     " nodes 1 pv " + col_text(col));
                return col;
            }
        if (const bots::SearchLimits limits = bots::SearchLimits::of(go); limits.any()) {
            // `go depth=` / `nodes=`: as --depth, the heuristic search alone
            // (no book, no exact phases, which only time shares would stop),
            // from an empty table, so that the move depends on the position
            // and the limits only; move_ms still holds.
            const bots::SearchClock clock(go);
            heur_.clear();
            hard_ = [&] { return clock.past_hard(); };
            node_limit_ = limits.nodes;
            const int move = iterate(limits.max_depth(o_.depth > 0 ? o_.depth : b_.empties()), [] {
                                 return false;
                             }).move;
            hard_ = [] { return false; };
            node_limit_ = 0;
            return move;
        }
        if (o_.depth > 0) {
            hard_ = [] { return false; };
            return iterate(o_.depth, [] { return false; }).move;
        }
        if (o_.book && standard_) {
            if (const int col = book_move(state); col >= 0) {
                info("depth 0 score 1 nodes 0 pv " + col_text(col) + " book");
                return col;
            }
        }
        // Forced: at most one move does not lose at once.
        const B safe = b_.non_losing_moves();
        if (!several(safe)) {
            const int col = any(safe) ? g_.col_of(lowest_index(safe)) : first_move();
            // Still worth a short proof: its bounds stay in the table.
            const bots::SearchClock quick(go, 0.1);
            const ExactResult r = prove([&] { return quick.past_soft(); });
            if (r.complete && r.lo == r.hi) return report_exact(r);
            info("depth 1 score 0 nodes " + std::to_string(nodes_) + " pv " + col_text(col) +
                 " forced");
            return col;
        }

        // Far from the end of a big board no proof fits: heuristic search only.
        if (b_.empties() > kProofEmpties) {
            const bots::SearchClock clock(go, 0.5);
            hard_ = [&] { return clock.past_hard(); };
            return iterate(b_.empties(), [&] { return clock.past_soft(); }).move;
        }
        const bots::SearchClock quick(go, 0.1), id_soft(go, 0.3), id_hard(go, 0.55);
        ExactResult exact = prove([&] { return quick.past_soft(); });
        if (exact.complete && exact.lo == exact.hi) return report_exact(exact);

        hard_ = [&] { return id_hard.past_soft(); };
        const Iteration heur = iterate(b_.empties(), [&] { return id_soft.past_soft(); });
        if (heur.score >= kScale) return heur.move;  // a proven win (the fastest it saw)

        const ExactResult more = prove([&] { return id_hard.past_hard(); });
        exact = merge(exact, more);
        if (exact.complete && exact.lo == exact.hi) return report_exact(exact);
        if (exact.lo >= 1) return report_exact(exact);  // a win, perhaps not the fastest
        if (exact.lo >= 0 && heur.score <= 0) return report_exact(exact);  // a sure draw
        return heur.move;
    }

    std::uint64_t nodes() const override { return nodes_; }

  private:
    struct Iteration {
        int move = -1;
        int score = 0;
        int depth = 0;
    };

    [[nodiscard]] int first_move() const {
        for (int i = 0; i < g_.cols; ++i)
            if (b_.can_play(g_.order[i])) return g_.order[i];
        return -1;
    }

    // ---- exact phases -------------------------------------------------------

    template <class Stop>
    ExactResult prove(Stop stop) {
        ExactSolver<B> weak(b_, exact_, stop);
        ExactResult r = weak.solve(true);
        nodes_ += weak.nodes();
        if (!r.complete) return r;
        ExactSolver<B> strong(b_, exact_, stop);
        const ExactResult s = strong.solve(false);
        nodes_ += strong.nodes();
        return merge(r, s);
    }

    static ExactResult merge(const ExactResult& a, const ExactResult& b) {
        ExactResult r = a.lo >= b.lo ? a : b;
        r.hi = std::min(a.hi, b.hi);
        r.complete = a.complete || b.complete;
        return r;
    }

    // Plays r.move, with "exact <score>" or "proven <lo>..<hi>" on its info line.
    int report_exact(const ExactResult& r) {
        const std::string proof =
            r.lo == r.hi ? "exact " + std::to_string(r.lo)
                         : "proven " + std::to_string(r.lo) + ".." + std::to_string(r.hi);
        (*info_)("depth " + std::to_string(b_.empties()) + " score " +
                 std::to_string(r.lo * kScale) + " nodes " + std::to_string(nodes_) + " pv " +
                 col_text(r.move) + " " + proof);
        return r.move;
    }

    // ---- heuristic iterative deepening -------------------------------------

    template <class Soft>
    Iteration iterate(int max_depth, Soft soft) {
        aborted_ = false;
        Iteration best;
        int cols[kMaxSide];
        int n = 0;
        const B safe = b_.non_losing_moves();
        for (int i = 0; i < g_.cols; ++i)
            if (const int col = g_.order[i]; b_.can_play(col) && test(safe, b_.top(col)))
                cols[n++] = col;
        if (n == 0) {
            best.move = first_move();
            best.score = -g_.win_score(b_.moves() + 1) * kScale;
            return best;
        }
        best.move = cols[0];
        for (int depth = 1; depth <= max_depth; ++depth) {
            if (depth > 1 && soft()) break;
            int alpha = -kInf;
            int best_here = -1;
            for (int i = 0; i < n; ++i) {
                b_.play(cols[i]);
                int v = 0;
                if (i == 0) {
                    v = -search(depth - 1, -kInf, kInf);
                } else {
                    v = -search(depth - 1, -alpha - 1, -alpha);
                    if (v > alpha && !aborted_) v = -search(depth - 1, -kInf, -alpha);
                }
                b_.undo(cols[i]);
                if (aborted_) break;
                if (v > alpha) {
                    alpha = v;
                    best_here = i;
                }
            }
            if (aborted_) {
                // A better move found before the stop is still better.
                if (best_here > 0) best.move = cols[best_here];
                break;
            }
            std::rotate(cols, cols + best_here, cols + best_here + 1);
            best = {cols[0], alpha, depth};
            (*info_)("depth " + std::to_string(depth) + " score " + std::to_string(alpha) +
                     " nodes " + std::to_string(nodes_) + " pv " + col_text(cols[0]));
            if (alpha >= kScale || alpha <= -kScale) break;  // proven
        }
        return best;
    }

    int search(int depth, int alpha, int beta) {
        ++nodes_;
        if ((nodes_ & 511) == 0 && hard_()) aborted_ = true;
        if (node_limit_ > 0 && nodes_ >= node_limit_) aborted_ = true;
        if (aborted_) return 0;
        const int nb = b_.moves();
        if (b_.can_win_next()) return g_.win_score(nb) * kScale;
        const B next = b_.non_losing_moves();
        if (!any(next)) return -g_.win_score(nb + 1) * kScale;
        if (nb >= g_.cells - 2) return 0;
        const int lo = -g_.win_score(nb + 3) * kScale;
        const int hi = g_.win_score(nb + 2) * kScale;
        alpha = std::max(alpha, lo);
        beta = std::min(beta, hi);
        if (alpha >= beta) return alpha;
        if (depth <= 0) return std::clamp(evaluate(), lo, hi);

        const std::uint64_t key = b_.key();
        int tt_move = -1;
        if (const auto* e = heur_.probe(key)) {
            const int v = e->value;
            const bool deep = e->depth >= depth;
            if ((e->bound & HeuristicTable::kLower) && (deep || v >= kScale) && v > alpha) {
                alpha = v;
            }
            if ((e->bound & HeuristicTable::kUpper) && (deep || v <= -kScale) && v < beta) {
                beta = v;
            }
            if (alpha >= beta) return alpha;
            tt_move = e->move;
        }
        int cols[kMaxSide];
        const int n = sorted_moves(next, tt_move, cols);
        const int alpha0 = alpha;
        int best = -kInf;
        int best_move = -1;
        for (int i = 0; i < n; ++i) {
            b_.play(cols[i]);
            int v = 0;
            if (i == 0) {
                v = -search(depth - 1, -beta, -alpha);
            } else {
                v = -search(depth - 1, -alpha - 1, -alpha);
                if (v > alpha && v < beta && !aborted_) v = -search(depth - 1, -beta, -alpha);
            }
            b_.undo(cols[i]);
            if (aborted_) return 0;
            if (v > best) {
                best = v;
                best_move = cols[i];
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        }
        const auto bound = best >= beta    ? HeuristicTable::kLower
                           : best > alpha0 ? HeuristicTable::kExact
                                           : HeuristicTable::kUpper;
        heur_.store(key, best, depth, bound, best_move);
        return best;
    }

    int sorted_moves(const B& next, int tt_move, int* cols) {
        return order_moves(b_, g_, next, tt_move, cols,
                           [this](std::uint64_t key) { heur_.prefetch(key); });
    }

    // For the side to move: open windows by the stones in them, threats, and
    // threats on the rows whose parity favours their owner.
    int evaluate() const {
        const B me = b_.current();
        const B op = b_.opponent();
        int v = windows(me, op) - windows(op, me);
        const B my_threats = b_.winning_cells(me);
        const B op_threats = b_.winning_cells(op);
        const bool first = b_.to_move() == 1;
        const B& my_rows = first ? odd_rows_ : even_rows_;
        const B& op_rows = first ? even_rows_ : odd_rows_;
        v += 24 * (popcount(my_threats) - popcount(op_threats));
        v += 16 * (popcount(my_threats & my_rows) - popcount(op_threats & op_rows));
        return std::clamp(v, -kHeuristicMax, kHeuristicMax);
    }

    // Sum over the windows of `connect` cells free of `op` and of blocked
    // cells of window_weight_[stones of `me` in it].
    int windows(const B& me, const B& op) const {
        const int n = g_.connect;
        const B avail = m_.board & ~op;
        const int shifts[4] = {1, g_.stride, g_.stride + 1, g_.stride - 1};
        int total = 0;
        for (const int s : shifts) {
            B free = avail;
            B planes[5] = {};  // bit-sliced count of my stones in the window
            B mine = me;
            B cells = avail;
            for (int i = 0; i < n; ++i) {
                if (i > 0) {
                    mine = mine >> s;
                    cells = cells >> s;
                    free &= cells;
                }
                B carry = mine;
                for (int j = 0; j < 5 && any(carry); ++j) {
                    const B t = planes[j] & carry;
                    planes[j] ^= carry;
                    carry = t;
                }
            }
            if (!any(free)) continue;
            for (int k = 1; k < n; ++k) {
                B m = free;
                for (int j = 0; j < 5; ++j)
                    m &= ((k >> j) & 1) ? planes[j] : ~planes[j];
                if (any(m)) total += window_weight_[k] * popcount(m);
            }
        }
        return total;
    }

    Geometry g_;
    Masks<B> m_;
    Board<B> b_;
    SolverOptions o_;
    ExactTable& exact_;
    HeuristicTable& heur_;
    B odd_rows_{}, even_rows_{};
    std::array<int, kMaxSide + 1> window_weight_{};
    bool standard_ = false;
    std::uint64_t nodes_ = 0;
    std::uint64_t node_limit_ = 0;  // `go nodes=`; 0: none
    bool aborted_ = false;
    std::function<bool()> hard_ = [] { return false; };
    const bots::InfoSink* info_ = nullptr;
};

// ---- the 7 x 6 opening book --------------------------------------------

using Board64 = Board<std::uint64_t>;

std::uint64_t mirror_key(std::uint64_t key) {
    constexpr int kStride = 7;
    constexpr std::uint64_t kColumn = (std::uint64_t{1} << kStride) - 1;
    std::uint64_t r = 0;
    for (int c = 0; c < 7; ++c)
        r |= ((key >> (c * kStride)) & kColumn) << ((6 - c) * kStride);
    return r;
}

// Walks the first player's strategy tree in a fixed order: every position
// with player 1 to move, at most `plies` stones, not seen before (up to
// mirroring) and not won at once, gets one move; then every reply of the
// opponent is followed. The book is that sequence of moves, so the builder
// and the reader only have to walk the same tree.
class BookWalker {
  public:
    // `choose` returns the move for the position on the board.
    template <class Choose>
    void walk(Board64& b, int plies, Choose&& choose) {
        const std::uint64_t k = b.key();
        const std::uint64_t canon = std::min(k, mirror_key(k));
        if (!seen_.insert(canon).second) return;
        const int move = choose(b);
        if (move < 0) return;
        moves_[canon] = static_cast<std::int8_t>(canon == k ? move : 6 - move);
        b.play(move);
        if (b.moves() + 1 <= plies && !b.full()) {
            for (int reply = 0; reply < 7; ++reply) {
                if (!b.can_play(reply) || b.is_winning_move(reply)) continue;
                b.play(reply);
                if (!b.full() && !b.can_win_next()) walk(b, plies, choose);
                b.undo(reply);
            }
        }
        b.undo(move);
    }

    [[nodiscard]] const std::unordered_map<std::uint64_t, std::int8_t>& moves() const {
        return moves_;
    }

  private:
    std::unordered_set<std::uint64_t> seen_;
    std::unordered_map<std::uint64_t, std::int8_t> moves_;
};

constexpr char kBookDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm";  // 49

const std::unordered_map<std::uint64_t, std::int8_t>& book() {
    static const auto table = [] {
        const Geometry g;
        const Masks<std::uint64_t> m(g);
        Board64 b(g, m);
        BookWalker walker;
        std::size_t next = 0;
        const std::string_view text = kBook7x6;
        walker.walk(b, kBookPlies7x6, [&](const Board64&) {
            const std::size_t pair = next / 2;
            if (pair >= text.size()) return -1;
            const auto digit = static_cast<int>(std::string_view(kBookDigits).find(text[pair]));
            const int move = next % 2 == 0 ? digit / 7 : digit % 7;
            ++next;
            return move;
        });
        return walker.moves();
    }();
    return table;
}

}  // namespace

int book_move(const games::Connect4State& state) {
    if (state.rows() != 6 || state.cols() != 7 || state.connect() != 4) return -1;
    if (state.current_player() != 1 || state.ply() > kBookPlies7x6) return -1;
    for (int c = 0; c < 7; ++c)
        for (int r = 0; r < 6; ++r)
            if (state.at(c, r) == games::Connect4State::kBlocked) return -1;
    const Geometry g;
    const Masks<std::uint64_t> m(g);
    Board64 b(g, m);
    b.set(state);
    const std::uint64_t k = b.key();
    const std::uint64_t canon = std::min(k, mirror_key(k));
    const auto& table = book();
    const auto it = table.find(canon);
    if (it == table.end()) return -1;
    return canon == k ? it->second : 6 - it->second;
}

int make_book(std::ostream& out, int plies, int log2_entries) {
    const Geometry g;
    const Masks<std::uint64_t> m(g);
    Board64 b(g, m);
    ExactTable table(log2_entries);
    BookWalker walker;
    std::vector<int> moves;
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t nodes = 0;
    bool lost = false;
    walker.walk(b, plies, [&](Board64& at) {
        ExactSolver<std::uint64_t> solver(at, table);
        const ExactResult r = solver.solve(true);
        nodes += solver.nodes();
        if (r.lo < 1) lost = true;
        moves.push_back(r.move);
        if (moves.size() % 100 == 0) {
            std::cerr
                << moves.size() << " positions, "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                << " s, " << nodes << " nodes\n";
        }
        return r.move;
    });
    if (lost) {
        std::cerr << "make-book: a position of the strategy is not a win\n";
        return 1;
    }
    if (moves.size() % 2 == 1) moves.push_back(0);
    std::string text;
    for (std::size_t i = 0; i < moves.size(); i += 2)
        text += kBookDigits[moves[i] * 7 + moves[i + 1]];
    out << "#pragma once\n"
        << "// The first player's winning strategy on Connect-4 7 x 6 for its moves up to ply "
        << plies << ",\n"
        << "// made by `c4-solver --make-book " << plies << "` (" << walker.moves().size()
        << " positions): the\n"
        << "// moves of the strategy tree in the order solver.cpp's BookWalker visits it, two\n"
        << "// moves (0..6 each) per character of kBookDigits.\n\n"
        << "namespace arena::c4 {\n\n"
        << "inline constexpr int kBookPlies7x6 = " << plies << ";\n"
        << "inline constexpr char kBook7x6[] =";
    for (std::size_t i = 0; i < text.size(); i += 90)
        out << "\n    \"" << text.substr(i, 90) << "\"";
    if (text.empty()) out << " \"\"";
    out << ";\n\n}  // namespace arena::c4\n";
    std::cerr << walker.moves().size() << " positions, " << nodes << " nodes, "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s\n";
    return 0;
}

int solve_lines(std::istream& in, std::ostream& out, int log2_entries, bool weak, bool reset) {
    const Geometry g;
    const Masks<std::uint64_t> m(g);
    Board64 b(g, m);
    ExactTable table(log2_entries);
    std::string line;
    int count = 0, checked = 0, wrong = 0;
    double total_ms = 0;
    std::uint64_t nodes = 0;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string seq;
        if (!(words >> seq)) continue;
        b.clear();
        bool ok = true;
        for (const char ch : seq) {
            const int col = ch - '1';
            if (col < 0 || col >= 7 || !b.can_play(col) || b.is_winning_move(col)) {
                ok = false;
                break;
            }
            b.play(col);
        }
        if (!ok || b.full()) {
            std::cerr << "c4-solver: not a 7x6 position in play: " << line << "\n";
            return 2;
        }
        if (reset) table.clear();
        const auto t0 = std::chrono::steady_clock::now();
        ExactSolver<std::uint64_t> solver(b, table);
        const ExactResult r = solver.solve(weak);
        const auto t1 = std::chrono::steady_clock::now();
        total_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
        nodes += solver.nodes();
        ++count;
        const int score = weak ? (r.lo > 0 ? 1 : r.hi < 0 ? -1 : 0) : r.lo;
        out << seq << " " << score << "\n";
        if (int expected = 0; words >> expected) {
            ++checked;
            if (weak) expected = expected > 0 ? 1 : expected < 0 ? -1 : 0;
            if (expected != score) {
                ++wrong;
                std::cerr << "MISMATCH " << seq << ": expected " << expected << ", got " << score
                          << "\n";
            }
        }
    }
    std::cerr << count << " positions, " << checked << " checked, " << wrong << " wrong, mean "
              << (count > 0 ? total_ms / count : 0.0) << " ms, mean nodes "
              << (count > 0 ? nodes / static_cast<std::uint64_t>(count) : 0) << "\n";
    return wrong == 0 ? 0 : 1;
}

std::unique_ptr<Connect4Engine> make_solver_engine(const SolverOptions& options) {
    if (options.book) (void)book();  // read it now, before the first move's clock
    auto tables = std::make_shared<SolverTables>(options);
    return std::make_unique<Connect4Engine>([options, tables](const Geometry& g) {
        // Keys of another board mean other positions.
        tables->exact.clear();
        tables->heuristic.clear();
        return make_searcher<SolverSearcher>(g, options, *tables);
    });
}

}  // namespace arena::c4
