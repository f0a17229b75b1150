#include "bots/connect4/mcts.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "bots/common/position_seed.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/connect4/tree.hpp"

namespace arena::c4 {
namespace {

template <class B>
class MctsSearcher final : public Searcher {
  public:
    MctsSearcher(const Geometry& g, const MctsOptions& o, TreeMemory& memory)
        : g_(g), m_(g_), b_(g_, m_), root_board_(g_, m_), o_(o), tree_(memory) {}

    void new_game() override { tree_.clear(); }

    int choose(const games::Connect4State& state, const protocol::Go& go,
               const bots::InfoSink& info) override {
        b_.set(state);
        rng_ = TreeRng(bots::position_seed(o_.seed, state));
        const bots::SearchLimits limits = bots::SearchLimits::of(go);
        const bool fixed = o_.simulations > 0 && limits.nodes == 0;
        const bots::SearchClock clock =
            fixed ? bots::SearchClock::unlimited() : bots::SearchClock(go);
        if (!o_.reuse || !tree_.reroot(root_board_, b_)) tree_.restart();
        root_board_ = b_;
        if (tree_[tree_.root()].first == 0) expand(tree_.root(), root_board_);
        sims_ = 0;
        max_depth_ = 0;
        const std::uint32_t visits_before = tree_[tree_.root()].visits;
        while (tree_[tree_.root()].proof == kUnknown &&
               !stop_search(sims_, limits, o_.simulations, clock, 16)) {
            simulate();
            ++sims_;
        }
        const std::uint32_t best = tree_.most_visited();
        const TreeNode& n = tree_[best];
        const int score = tree_.score(best);
        info("depth " + std::to_string(max_depth_) + " score " + std::to_string(score) + " nodes " +
             std::to_string(sims_) + " visits " + std::to_string(n.visits) + " reused " +
             std::to_string(visits_before) + " tree " + std::to_string(tree_.size()) + " pv " +
             std::to_string(n.move + 1));
        return n.move;
    }

    std::uint64_t nodes() const override { return sims_; }

  private:
    // Creates every child of `index` (the position on `bd`), proving those
    // whose move ends the game, and the node itself when a move wins.
    void expand(std::uint32_t index, const Board<B>& bd) {
        int cols[kMaxSide];
        int count = 0;
        for (int i = 0; i < g_.cols; ++i)
            if (bd.can_play(g_.order[i])) cols[count++] = g_.order[i];
        if (count == 0 || tree_.full(count)) return;
        const std::uint32_t first = tree_.add(count);
        const B winning = bd.my_winning_cells();
        bool wins = false;
        for (int i = 0; i < count; ++i) {
            TreeNode& c = tree_[first + i];
            c.move = static_cast<std::uint8_t>(cols[i]);
            if (test(winning, bd.top(cols[i]))) {
                c.proof = kWin;
                wins = true;
            } else if (bd.moves() + 1 == g_.cells) {
                c.proof = kDraw;
            }
        }
        TreeNode& n = tree_[index];
        n.first = first;
        n.count = static_cast<std::uint8_t>(count);
        if (wins) {
            n.proof = kLoss;
        } else if (bd.moves() + 1 == g_.cells) {
            n.proof = kDraw;
        }
    }

    void simulate() {
        Board<B> bd = root_board_;
        const int depth = tree_.simulate(
            path_.data(),
            [&](const TreeNode& n) {
                return tree_.select(n, [&](const TreeNode& c, double q, double log_n) {
                    return q + o_.c * std::sqrt(2.0 * log_n / c.visits);
                });
            },
            [&](std::uint32_t node) { expand(node, bd); }, [&] { return playout(bd); },
            [&](int col) { bd.play(col); });
        max_depth_ = std::max(max_depth_, depth);
    }

    // Random moves to the end: +1 when the side to move on `bd` wins, -1
    // when it loses, 0 for a draw.
    int playout(Board<B>& bd) {
        int cols[kMaxSide];
        int count = 0;
        for (int c = 0; c < g_.cols; ++c)
            if (bd.can_play(c)) cols[count++] = c;
        const int side = bd.to_move();
        while (count > 0) {
            const int i = rng_.below(count);
            const int col = cols[i];
            const int cell = bd.top(col);
            bd.play(col);
            if (bd.line_through(bd.opponent(), cell)) return bd.to_move() == side ? -1 : 1;
            if (!bd.can_play(col)) cols[i] = cols[--count];
        }
        return 0;
    }

    Geometry g_;
    Masks<B> m_;
    Board<B> b_;
    Board<B> root_board_;
    MctsOptions o_;
    Tree tree_;
    TreeRng rng_{1};
    std::uint64_t sims_ = 0;
    int max_depth_ = 0;
    std::array<std::uint32_t, kMaxSide * kMaxSide + 2> path_{};
};

}  // namespace

std::unique_ptr<Connect4Engine> make_mcts_engine(const MctsOptions& options) {
    auto memory = std::make_shared<TreeMemory>(options.log2_nodes);
    return std::make_unique<Connect4Engine>([options, memory](const Geometry& g) {
        return make_searcher<MctsSearcher>(g, options, *memory);
    });
}

}  // namespace arena::c4
