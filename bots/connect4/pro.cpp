#include "bots/connect4/pro.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "bots/common/position_seed.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/connect4/exact.hpp"
#include "bots/connect4/tree.hpp"

namespace arena::c4 {
namespace {

// Bit i of b as 0 or 1, without a branch.
[[nodiscard]] inline unsigned bit_at(std::uint64_t b, int i) {
    return static_cast<unsigned>((b >> i) & 1U);
}
template <int N>
[[nodiscard]] inline unsigned bit_at(const Wide<N>& b, int i) {
    return static_cast<unsigned>((b.w[i >> 6] >> (i & 63)) & 1U);
}

// The index of the k-th set bit (0-based) of b; k < popcount(b).
[[nodiscard]] inline int nth_bit(std::uint64_t b, int k) {
    while (k-- > 0)
        b &= b - 1;
    return std::countr_zero(b);
}
template <int N>
[[nodiscard]] inline int nth_bit(const Wide<N>& b, int k) {
    for (int i = 0; i < N; ++i) {
        const int n = std::popcount(b.w[i]);
        if (k < n) return 64 * i + nth_bit(b.w[i], k);
        k -= n;
    }
    return -1;
}

struct ProMemory {
    explicit ProMemory(const ProOptions& o) : tree(o.log2_nodes), exact(o.log2_exact) {}
    TreeMemory tree;
    ExactTable exact;
};

template <class B>
class ProSearcher final : public Searcher {
  public:
    ProSearcher(const Geometry& g, const ProOptions& o, ProMemory& memory)
        : g_(g),
          m_(g_),
          b_(g_, m_),
          root_board_(g_, m_),
          o_(o),
          tree_(memory.tree),
          exact_(memory.exact) {
        // Position of each cell in its column, counted from 1 over the
        // playable cells (a blocked cell shifts the cells above it).
        for (int c = 0; c < g_.cols; ++c) {
            int k = 1;
            for (int i = g_.bottom[c]; i != g_.sentinel[c]; i = g_.above[i], ++k)
                (k % 2 == 1 ? odd_cells_ : even_cells_) |= bit<B>(i);
        }
        // Solve tree nodes outright from this many empties: about where a
        // few thousand nodes of the exact solver settle a position.
        four_ = g_.connect == 4;
        dirs_ = {1, g_.stride, g_.stride + 1, g_.stride - 1};
        line_cells_.assign(4 * static_cast<std::size_t>(g_.bits()), 0);
        for (int x = 0; x < g_.bits(); ++x) {
            for (int di = 0; di < 4; ++di) {
                unsigned valid = 0;
                for (int k = -3; k <= 3; ++k) {
                    const int i = x + k * dirs_[di];
                    if (i >= 0 && i < g_.bits() && test(m_.board, i)) valid |= 1U << (k + 3);
                }
                line_cells_[4 * static_cast<std::size_t>(x) + di] =
                    static_cast<std::uint8_t>(valid);
            }
        }
        // window_table_[mine][open]: over the seven cells x-3d .. x+3d (bit 3
        // is x), the open cells that complete a window of four whose other
        // three cells are mine.
        for (unsigned mine = 0; mine < 128; ++mine) {
            for (unsigned open = 0; open < 128; ++open) {
                std::uint8_t hits = 0;
                if ((mine & open) == 0) {
                    for (int w = 0; w < 4; ++w) {
                        const unsigned win = 0xFU << w;
                        if (std::popcount(mine & win) == 3 && std::popcount(open & win) == 1)
                            hits |= static_cast<std::uint8_t>(open & win);
                    }
                }
                window_table_[mine][open] = hits;
            }
        }
        tree_solve_ = o_.tree_solve_empties > 0 ? o_.tree_solve_empties : 16;
        root_solve_ = o_.root_solve_empties > 0 ? o_.root_solve_empties
                                                : std::min(g_.cells, std::max(42, g_.cells / 2));
    }

    void new_game() override {
        tree_.clear();
        exact_.clear();
    }

    int choose(const games::Connect4State& state, const protocol::Go& given,
               const bots::InfoSink& info) override {
        // A further fifth of the limit (10..400 ms) held back: on a loaded
        // machine a niced bot waits for a core several times between two
        // looks at its clock, and a move lost on time is a game lost.
        protocol::Go go = given;
        if (go.move_ms > 0)
            go.move_ms -= std::min<std::int64_t>(go.move_ms / 2,
                                                 std::clamp<std::int64_t>(go.move_ms / 5, 10, 400));
        b_.set(state);
        rng_ = TreeRng(bots::position_seed(o_.seed, state));
        // `go nodes=` counts simulations and, as --simulations does, skips
        // the root solver, which only a time share would stop.
        const bots::SearchLimits limits = bots::SearchLimits::of(go);
        const bool fixed = o_.simulations > 0 || limits.nodes > 0;
        const bots::SearchClock clock = o_.simulations > 0 && limits.nodes == 0
                                            ? bots::SearchClock::unlimited()
                                            : bots::SearchClock(go);
        sims_ = 0;
        solver_nodes_ = 0;
        max_depth_ = 0;

        for (int i = 0; i < g_.cols; ++i)
            if (const int col = g_.order[i]; b_.can_play(col) && b_.is_winning_move(col)) {
                info("depth 1 score 10000 nodes 1 pv " + std::to_string(col + 1) + " win");
                return col;
            }
        const B safe = b_.non_losing_moves();
        if (!several(safe)) {
            // Forced (one move), or lost at once whatever we play.
            int col = any(safe) ? g_.col_of(lowest_index(safe)) : -1;
            for (int i = 0; col < 0 && i < g_.cols; ++i)
                if (b_.can_play(g_.order[i])) col = g_.order[i];
            info("depth 1 score " + std::string(any(safe) ? "0" : "-10000") + " nodes 1 pv " +
                 std::to_string(col + 1) + " forced");
            return col;
        }

        // The exact solver first, when a proof may fit.
        if (!fixed && b_.empties() <= root_solve_) {
            const bots::SearchClock share(go, b_.empties() <= root_solve_ / 2 ? 0.6 : 0.25);
            ExactSolver<B> solver(b_, exact_, [&] { return share.past_soft(); });
            const ExactResult r = solver.solve(true);
            solver_nodes_ += solver.nodes();
            if (r.complete && r.lo >= 0 && r.move >= 0) {
                info("depth " + std::to_string(b_.empties()) + " score " +
                     std::to_string(r.lo > 0 ? 10000 : 0) + " nodes " +
                     std::to_string(solver_nodes_) + " pv " + std::to_string(r.move + 1) +
                     (r.lo > 0 ? " proven win" : " proven draw"));
                return r.move;
            }
        }

        if (!o_.reuse || !tree_.reroot(root_board_, b_)) tree_.restart();
        root_board_ = b_;
        root_threats_ = threats_of(root_board_);
        if (tree_[tree_.root()].first == 0) expand(tree_.root(), root_board_, root_threats_, false);
        const std::uint32_t visits_before = tree_[tree_.root()].visits;
        while (tree_[tree_.root()].proof == kUnknown && tree_[tree_.root()].first != 0 &&
               !stop_search(sims_, limits, o_.simulations, clock, 8)) {
            simulate();
            ++sims_;
        }
        const std::uint32_t best = best_child();
        if (best == 0) {  // cannot happen with a safe move; be defensive
            const int col = g_.col_of(lowest_index(safe));
            return col;
        }
        const TreeNode& n = tree_[best];
        const int score = tree_.score(best);
        info("depth " + std::to_string(max_depth_) + " score " + std::to_string(score) + " nodes " +
             std::to_string(sims_) + " solver " + std::to_string(solver_nodes_) + " visits " +
             std::to_string(n.visits) + " reused " + std::to_string(visits_before) + " tree " +
             std::to_string(tree_.size()) + " pv " + std::to_string(n.move + 1));
        return n.move;
    }

    std::uint64_t nodes() const override { return sims_ + solver_nodes_; }

  private:
    // The cells completing a line for each player (by player: 0 moves first),
    // masked to the board but not to the empty cells. Kept along a descent
    // and a playout, updated only for the player who just moved.
    struct Threats {
        B of[2];
    };

    [[nodiscard]] Threats threats_of(const Board<B>& bd) const {
        const int me = bd.moves() & 1;
        Threats t;
        t.of[me] = line_completions(g_, bd.current()) & m_.board;
        t.of[me ^ 1] = line_completions(g_, bd.opponent()) & m_.board;
        return t;
    }

    // Plays `col` on bd and updates t.
    void advance(Board<B>& bd, Threats& t, int col) const {
        const int me = bd.moves() & 1;
        const int cell = bd.top(col);
        bd.play(col);
        if (four_) {
            t.of[me] |= completions_through(bd.opponent(), cell);
        } else {
            t.of[me] = line_completions(g_, bd.opponent()) & m_.board;
        }
    }

    // Board::non_losing_moves from kept threats (the side to move cannot
    // win at once).
    [[nodiscard]] B safe_moves(const Board<B>& bd, const Threats& t) const {
        const int me = bd.moves() & 1;
        B poss = bd.possible();
        const B opp = t.of[me ^ 1] & ~bd.occupied();
        const B forced = poss & opp;
        if (any(forced)) {
            if (several(forced)) return B{};
            poss = forced;
        }
        return poss & ~bd.below_cells(opp);
    }

    // A win for the side to move by a series of threats: each move threatens
    // to win at once, so the opponent's only non-losing reply is the block
    // (or it has none: a double threat, or a block under another threat),
    // up to `depth` moves. Returns the first move, or -1. Forcing moves are
    // few, so the search is small; its wins are proofs. Precondition: the
    // side to move cannot win at once.
    int threat_win(const Board<B>& bd, const Threats& t, int depth) {
        if (depth <= 0 || threat_budget_ <= 0) return -1;
        const int me = bd.moves() & 1;
        const B safe = safe_moves(bd, t);
        for (int i = 0; i < g_.cols; ++i) {
            const int col = g_.order[i];
            if (!bd.can_play(col) || !test(safe, bd.top(col))) continue;
            if (bd.moves() + 2 >= g_.cells) return -1;
            Board<B> after = bd;
            Threats ta = t;
            advance(after, ta, col);
            --threat_budget_;
            if (!any(ta.of[me] & after.possible())) continue;  // not forcing
            const B replies = safe_moves(after, ta);
            if (!any(replies)) return col;
            if (depth == 1 || several(replies)) continue;
            advance(after, ta, g_.col_of(lowest_index(replies)));
            if (any(ta.of[me] & after.possible())) return col;  // the block did not hold
            if (threat_win(after, ta, depth - 1) >= 0) return col;
        }
        return -1;
    }

    // The prior of playing `col` on `bd` (side to move): the cells it makes
    // winnable for the mover, twice for those whose column parity favours the
    // mover (Allis: odd cells for the first player, even for the second),
    // less the distance from the centre.
    int prior(const Board<B>& bd, int col, const B& before_all) const {
        const int cell = bd.top(col);
        const B mine = bd.current() | bit<B>(cell);
        const B free = m_.board & ~(bd.occupied() | bit<B>(cell));
        const B before = before_all & free;
        const B after =
            (four_ ? before_all | completions_through(mine, cell) : line_completions(g_, mine)) &
            free;
        const B fresh = after & ~before;
        const B& good = bd.to_move() == 1 ? odd_cells_ : even_cells_;
        int p = 8 + 4 * popcount(fresh) + 4 * popcount(fresh & good) + popcount(after);
        p -= std::abs(2 * col - (g_.cols - 1)) / 2;
        return std::clamp(p, 0, 255);
    }

    // Creates the children of `index` (the position on `bd`) for the moves
    // that do not lose at once, or proves the node.
    void expand(std::uint32_t index, Board<B>& bd, const Threats& t, bool solve) {
        TreeNode& n = tree_[index];
        const int me = bd.moves() & 1;
        if (any(t.of[me] & bd.possible())) {
            n.proof = kLoss;
            return;
        }
        const B safe = safe_moves(bd, t);
        if (!any(safe)) {
            n.proof = kWin;
            return;
        }
        if (bd.moves() + 1 == g_.cells) {
            n.proof = kDraw;
            return;
        }
        if (solve && bd.empties() <= tree_solve_) {
            int budget = std::max(1, o_.tree_solve_nodes / 1024);
            ExactSolver<B> solver(bd, exact_, [&] { return --budget < 0; });
            const ExactResult r = solver.solve(true);
            solver_nodes_ += solver.nodes();
            if (r.complete) {
                n.proof = r.lo > 0 ? kLoss : r.hi < 0 ? kWin : kDraw;
                return;
            }
        }
        int cols[kMaxSide];
        int priors[kMaxSide];
        int count = 0;
        const B& before = t.of[me];
        // The first move of a win by threats, if there is one.
        threat_budget_ = 400;
        const int winner = threat_win(bd, t, o_.threat_depth);
        for (int i = 0; i < g_.cols; ++i) {
            const int col = g_.order[i];
            if (!bd.can_play(col) || !test(safe, bd.top(col))) continue;
            const int p = prior(bd, col, before);
            int j = count++;
            while (j > 0 && priors[j - 1] < p) {
                priors[j] = priors[j - 1];
                cols[j] = cols[j - 1];
                --j;
            }
            priors[j] = p;
            cols[j] = col;
        }
        if (tree_.full(count)) return;
        const std::uint32_t first = tree_.add(count);
        for (int i = 0; i < count; ++i) {
            TreeNode& c = tree_[first + i];
            c.move = static_cast<std::uint8_t>(cols[i]);
            c.prior = static_cast<std::uint8_t>(priors[i]);
            if (cols[i] == winner) c.proof = kWin;
        }
        if (winner >= 0) tree_[index].proof = kLoss;
        TreeNode& m = tree_[index];
        m.first = first;
        m.count = static_cast<std::uint8_t>(count);
    }

    // UCT with the progressive bias (children are in prior order).
    void simulate() {
        Board<B> bd = root_board_;
        Threats t = root_threats_;
        const int depth = tree_.simulate(
            path_.data(),
            [&](const TreeNode& n) {
                return tree_.select(n, [&](const TreeNode& c, double q, double log_n) {
                    return q + o_.c * std::sqrt(log_n / c.visits) +
                           o_.bias * (c.prior / 16.0) / (c.visits + 1.0);
                });
            },
            [&](std::uint32_t node) { expand(node, bd, t, true); }, [&] { return playout(bd, t); },
            [&](int col) { advance(bd, t, col); });
        max_depth_ = std::max(max_depth_, depth);
    }

    // The cells that complete a line of four for `stones` through `x` (a
    // stone of `stones`): the part of line_completions that a stone at x can
    // add. Stones only ever arrive, so OR-ing this into the completions of
    // the stones before is exact. Connect 4 only.
    B completions_through(const B& stones, int x) const {
        B out{};
        for (int di = 0; di < 4; ++di) {
            const int d = dirs_[di];
            const unsigned valid = line_cells_[4 * x + di];
            unsigned mine = 0;
            for (unsigned v = valid; v != 0; v &= v - 1) {
                const int k = std::countr_zero(v);
                mine |= bit_at(stones, x + (k - 3) * d) << k;
            }
            const unsigned open = valid & ~mine;
            unsigned hits = window_table_[mine][open];
            while (hits != 0) {
                const int k = std::countr_zero(hits);
                hits &= hits - 1;
                out |= bit<B>(x + (k - 3) * d);
            }
        }
        return out;
    }

    // Plays the game out with the tactical policy: +1 when the side to move
    // on `bd` wins, -1 when it loses, 0 for a draw.
    int playout(Board<B>& bd, Threats t) {
        const B board = m_.board;
        B* threats = t.of;
        const int start = bd.moves() & 1;
        int me = start;  // the side to move
        for (;;) {
            if (bd.full()) return 0;
            const B poss = bd.possible();
            const B empty = board & ~bd.occupied();
            if (any(threats[me] & poss)) return me == start ? 1 : -1;
            const B opp_all = threats[me ^ 1] & empty;
            const B opp_now = opp_all & poss;
            B choice;
            if (any(opp_now)) {
                if (several(opp_now)) return me == start ? -1 : 1;
                choice = opp_now;
            } else {
                choice = poss & ~bd.below_cells(opp_all);
                if (!any(choice)) return me == start ? -1 : 1;  // every move loses
                const B keep = choice & ~bd.below_cells(threats[me] & empty);
                if (any(keep)) choice = keep;
            }
            const int cell = nth_bit(choice, rng_.below(popcount(choice)));
            advance(bd, t, g_.col_of(cell));
            me ^= 1;
        }
    }

    // A proven win, else the most visited child not proven lost (ties: the
    // better mean), else the most visited.
    std::uint32_t best_child() const {
        const TreeNode& root = tree_[tree_.root()];
        const std::uint32_t best = tree_.most_visited();
        if (best != 0 && tree_[best].proof == kWin) return best;
        // A proven draw beats an unproven move that is losing on average.
        if (best != 0 && tree_[best].proof != kDraw) {
            const TreeNode& b = tree_[best];
            for (std::uint32_t i = root.first; i < root.first + root.count; ++i)
                if (tree_[i].proof == kDraw && b.visits > 0 && b.value < 0) return i;
        }
        return best;
    }

    Geometry g_;
    Masks<B> m_;
    Board<B> b_;
    Board<B> root_board_;
    ProOptions o_;
    Tree tree_;
    ExactTable& exact_;
    B odd_cells_{}, even_cells_{};
    Threats root_threats_{};
    int threat_budget_ = 0;  // moves the threat search may still try
    bool four_ = true;
    std::array<int, 4> dirs_{};
    // Per cell and direction: which of the seven cells x-3d .. x+3d are
    // playable (bit k + 3 for x + k d).
    std::vector<std::uint8_t> line_cells_;
    std::array<std::array<std::uint8_t, 128>, 128> window_table_{};
    int tree_solve_ = 16;
    int root_solve_ = 42;
    TreeRng rng_{1};
    std::uint64_t sims_ = 0;
    std::uint64_t solver_nodes_ = 0;
    int max_depth_ = 0;
    std::array<std::uint32_t, kMaxSide * kMaxSide + 2> path_{};
};

}  // namespace

std::unique_ptr<Connect4Engine> make_pro_engine(const ProOptions& options) {
    auto memory = std::make_shared<ProMemory>(options);
    return std::make_unique<Connect4Engine>([options, memory](const Geometry& g) {
        return make_searcher<ProSearcher>(g, options, *memory);
    });
}

}  // namespace arena::c4
