#include "bots/connect4/alphabeta.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>

#include "bots/common/search_clock.hpp"
#include "bots/common/search_limits.hpp"

namespace arena::c4 {
namespace {

constexpr int kWin = 1'000'000;  // a win at the next move from the root: kWin - 1
constexpr int kWinBound = kWin - 1000;
constexpr int kInf = kWin + 1;
constexpr int kMaxPly = kMaxSide * kMaxSide + 2;
// Evaluations are clamped below the proven scores. With the seed's weights
// they never come near: each side has at most 8 good run ends per cell,
// 8 * 256 * 100 + 4 * 256 * 100 = 307200 points.
constexpr int kEvalLimit = kWinBound - 1;
// Nor can the sums overflow with weights in range.
static_assert(8LL * kMaxSide * kMaxSide * kMaxRunWeight +
                  4LL * kMaxSide * kMaxSide * (kMaxRunWeight * kMaxBothEnds / 100) <
              std::numeric_limits<int>::max() / 2);

template <class B>
class AlphaBetaSearcher final : public Searcher {
  public:
    AlphaBetaSearcher(const Geometry& g, const AlphaBetaOptions& o)
        : g_(g), m_(g_), b_(g_, m_), o_(o) {
        const RunWeights& w = o_.weights;
        for (int k = 2; k < g_.connect; ++k) {
            const int short_by = g_.connect - k;
            weight_[k] = short_by == 1 ? w.three : short_by == 2 ? w.two : w.shorter;
            bonus_[k] = (weight_[k] * w.both_ends + 50) / 100;
        }
    }

    int choose(const games::Connect4State& state, const protocol::Go& go,
               const bots::InfoSink& info) override {
        b_.set(state);
        nodes_ = 0;
        aborted_ = false;
        // A `go` with search limits keeps its time limit and drops the soft
        // one; --depth (benches, levels) has neither.
        limits_ = bots::SearchLimits::of(go);
        clock_.emplace(o_.depth > 0 && !limits_.any() ? bots::SearchClock::unlimited()
                                                      : bots::SearchClock(go, 0.5));

        // Root moves, centre first; a win at once is played at once.
        struct RootMove {
            int col;
            int score;
        };
        std::vector<RootMove> root;
        for (int i = 0; i < g_.cols; ++i) {
            const int col = g_.order[i];
            if (!b_.can_play(col)) continue;
            if (b_.is_winning_move(col)) {
                info("depth 1 score " + std::to_string(kWin - 1) + " nodes 1 pv " +
                     std::to_string(col + 1));
                return col;
            }
            root.push_back({col, 0});
        }
        int best_col = root.front().col;
        prev_pv_len_ = 0;
        const int max_depth = limits_.max_depth(o_.depth > 0 ? o_.depth : b_.empties());
        for (int depth = 1; depth <= max_depth; ++depth) {
            if (depth > 1 && !limits_.any() && clock_->past_soft()) break;
            int alpha = -kInf;
            std::vector<RootMove> scored;
            for (std::size_t i = 0; i < root.size(); ++i) {
                following_pv_ = i == 0;
                b_.play(root[i].col);
                const int v = -negamax(depth - 1, 1, -kInf, -alpha);
                b_.undo(root[i].col);
                if (aborted_) break;
                scored.push_back({root[i].col, v});
                if (v > alpha) {
                    alpha = v;
                    pv_[0][0] = root[i].col;
                    for (int k = 1; k < pv_len_[1]; ++k)
                        pv_[0][k] = pv_[1][k];
                    pv_len_[0] = std::max(1, pv_len_[1]);
                }
            }
            if (aborted_) break;
            // The next iteration searches the best first; ties keep the order.
            std::stable_sort(
                scored.begin(), scored.end(),
                [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
            root = scored;
            best_col = root.front().col;
            prev_pv_len_ = pv_len_[0];
            std::copy_n(pv_[0].begin(), prev_pv_len_, prev_pv_.begin());
            std::string pv;
            for (int k = 0; k < prev_pv_len_; ++k)
                (pv += ' ') += std::to_string(prev_pv_[k] + 1);
            info("depth " + std::to_string(depth) + " score " + std::to_string(alpha) + " nodes " +
                 std::to_string(nodes_) + " time " + std::to_string(clock_->elapsed().count()) +
                 " pv" + pv);
            if (alpha >= kWinBound || alpha <= -kWinBound) break;  // proven
        }
        return best_col;
    }

    std::uint64_t nodes() const override { return nodes_; }

    int static_value(const games::Connect4State& state) {
        b_.set(state);
        return evaluate();
    }

  private:
    int negamax(int depth, int ply, int alpha, int beta) {
        ++nodes_;
        if ((nodes_ & 255) == 0 && clock_->past_hard()) aborted_ = true;
        if (limits_.out_of_nodes(nodes_)) aborted_ = true;
        if (aborted_) return 0;
        pv_len_[ply] = ply;
        if (b_.can_win_next()) return kWin - ply - 1;
        if (b_.full()) return 0;
        if (depth == 0) return evaluate();

        // Order: the previous principal variation's move while on it, then
        // centre first.
        int cols[kMaxSide];
        int n = 0;
        const bool on_pv = following_pv_ && ply < prev_pv_len_;
        const int pv_move = on_pv ? prev_pv_[ply] : -1;
        if (pv_move >= 0 && b_.can_play(pv_move)) cols[n++] = pv_move;
        for (int i = 0; i < g_.cols; ++i) {
            const int col = g_.order[i];
            if (col != pv_move && b_.can_play(col)) cols[n++] = col;
        }
        int best = -kInf;
        for (int i = 0; i < n; ++i) {
            following_pv_ = on_pv && i == 0 && cols[0] == pv_move;
            b_.play(cols[i]);
            const int v = -negamax(depth - 1, ply + 1, -beta, -alpha);
            b_.undo(cols[i]);
            if (aborted_) return 0;
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    pv_[ply][ply] = cols[i];
                    for (int k = ply + 1; k < pv_len_[ply + 1]; ++k)
                        pv_[ply][k] = pv_[ply + 1][k];
                    pv_len_[ply] = std::max(ply + 1, pv_len_[ply + 1]);
                    if (alpha >= beta) break;
                }
            }
        }
        following_pv_ = false;
        return best;
    }

    // The seed's F for the side to move minus F for the opponent.
    int evaluate() const {
        B good = b_.possible();
        for (int k = 1; k < o_.soon; ++k)
            good |= b_.above_cells(good) & ~b_.occupied();
        const int v = side_value(b_.current(), good) - side_value(b_.opponent(), good);
        return std::clamp(v, -kEvalLimit, kEvalLimit);
    }

    int side_value(const B& p, const B& good) const {
        const int n = g_.connect;
        const int shifts[4] = {1, g_.stride, g_.stride + 1, g_.stride - 1};
        int total = 0;
        for (const int s : shifts) {
            const B start = p & ~(p << s);  // the first stone of each run
            const B left_good = good << s;  // the cell before x is good
            B run = start;                  // runs of at least k stones
            B ahead = p;                    // p at x + k*s
            B right_good = good;            // good at x + k*s
            for (int k = 1; k < n && any(run); ++k) {
                ahead = ahead >> s;
                right_good = right_good >> s;
                const B exact = run & ~ahead;  // exactly k stones
                if (k >= 2 && any(exact)) {
                    const B l = exact & left_good;
                    const B r = exact & right_good;
                    total += weight_[k] * (popcount(l) + popcount(r)) + bonus_[k] * popcount(l & r);
                }
                run = run & ahead;
            }
        }
        return total;
    }

    Geometry g_;
    Masks<B> m_;
    Board<B> b_;
    AlphaBetaOptions o_;
    std::array<int, kMaxSide + 1> weight_{};  // points per good end of a run of k
    std::array<int, kMaxSide + 1> bonus_{};   // and once more when both ends are good
    std::optional<bots::SearchClock> clock_;
    bots::SearchLimits limits_;
    std::uint64_t nodes_ = 0;
    bool aborted_ = false;
    bool following_pv_ = false;
    std::array<std::array<int, kMaxPly>, kMaxPly> pv_{};
    std::array<int, kMaxPly + 1> pv_len_{};
    std::array<int, kMaxPly> prev_pv_{};
    int prev_pv_len_ = 0;
};

}  // namespace

std::unique_ptr<Connect4Engine> make_alphabeta_engine(const AlphaBetaOptions& options) {
    return std::make_unique<Connect4Engine>(
        [options](const Geometry& g) { return make_searcher<AlphaBetaSearcher>(g, options); });
}

int alphabeta_evaluation(const games::Game& game, const games::Connect4State& state,
                         const AlphaBetaOptions& options) {
    const Geometry g(connect4_config(game));
    switch (width_for(g)) {
        case Width::k64:
            return std::make_unique<AlphaBetaSearcher<std::uint64_t>>(g, options)
                ->static_value(state);
        case Width::k192:
            return std::make_unique<AlphaBetaSearcher<Wide3>>(g, options)->static_value(state);
        case Width::k320:
            break;
    }
    return std::make_unique<AlphaBetaSearcher<Wide5>>(g, options)->static_value(state);
}

}  // namespace arena::c4
