#include "bots/connect4/mcts.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bots/common/position_seed.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/connect4/table.hpp"

namespace arena::c4 {
namespace {

// Proofs, from the side of the player who moved into the node.
enum Proof : std::uint8_t { kUnknown, kWin, kLoss, kDraw };

struct Node {
    std::uint32_t first = 0;  // first child; 0 = not expanded (node 0 is unused)
    std::uint32_t visits = 0;
    std::int32_t value = 0;  // sum of results (+1, 0, -1) for the player who moved in
    std::uint8_t move = 0;   // the column played into this node
    std::uint8_t count = 0;  // children
    std::uint8_t proof = kUnknown;
};

[[nodiscard]] int proof_result(std::uint8_t proof) {
    return proof == kWin ? 1 : proof == kLoss ? -1 : 0;
}

// xorshift64*: tiny and fast; seeded per move from the position.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : s_(seed | 1) {}
    std::uint32_t next() {
        s_ ^= s_ >> 12;
        s_ ^= s_ << 25;
        s_ ^= s_ >> 27;
        return static_cast<std::uint32_t>((s_ * 0x2545F4914F6CDD1DULL) >> 32);
    }
    // Uniform in [0, n).
    int below(int n) {
        return static_cast<int>((static_cast<std::uint64_t>(next()) * static_cast<unsigned>(n)) >>
                                32);
    }

  private:
    std::uint64_t s_;
};

// The node pool and the spare pool that compaction copies into, allocated
// (and touched) before the first game.
struct MctsMemory {
    explicit MctsMemory(int log2_nodes)
        : nodes(std::size_t{1} << log2_nodes), spare(std::size_t{1} << log2_nodes) {}
    LargeArray<Node> nodes;
    LargeArray<Node> spare;
};

template <class B>
class MctsSearcher final : public Searcher {
  public:
    MctsSearcher(const Geometry& g, const MctsOptions& o, MctsMemory& memory)
        : g_(g),
          m_(g_),
          b_(g_, m_),
          root_board_(g_, m_),
          o_(o),
          nodes_(memory.nodes),
          spare_(memory.spare) {}

    void new_game() override { root_ = 0; }

    int choose(const games::Connect4State& state, const protocol::Go& go,
               const bots::InfoSink& info) override {
        b_.set(state);
        rng_ = Rng(bots::position_seed(o_.seed, state));
        const bool fixed = o_.simulations > 0;
        const bots::SearchClock clock =
            fixed ? bots::SearchClock::unlimited() : bots::SearchClock(go);
        if (!o_.reuse || !reroot(b_)) {
            size_ = 1;
            root_ = new_nodes(1);
            nodes_[root_].move = 0xFF;
        }
        root_board_ = b_;
        if (nodes_[root_].first == 0) expand(root_, root_board_);
        sims_ = 0;
        max_depth_ = 0;
        const std::uint32_t visits_before = nodes_[root_].visits;
        while (nodes_[root_].proof == kUnknown) {
            if (fixed) {
                if (sims_ >= static_cast<std::uint64_t>(o_.simulations)) break;
            } else if ((sims_ & 15) == 0 && clock.past_hard()) {
                break;
            }
            simulate();
            ++sims_;
        }
        const std::uint32_t best = best_child();
        const Node& n = nodes_[best];
        const int score = n.proof == kWin    ? 10000
                          : n.proof == kLoss ? -10000
                          : n.visits > 0     ? 100 * n.value / static_cast<int>(n.visits)
                                             : 0;
        info("depth " + std::to_string(max_depth_) + " score " + std::to_string(score) + " nodes " +
             std::to_string(sims_) + " visits " + std::to_string(n.visits) + " reused " +
             std::to_string(visits_before) + " tree " + std::to_string(size_) + " pv " +
             std::to_string(n.move + 1));
        return n.move;
    }

    std::uint64_t nodes() const override { return sims_; }

  private:
    std::uint32_t new_nodes(int count) {
        const auto first = static_cast<std::uint32_t>(size_);
        for (int i = 0; i < count; ++i)
            nodes_[size_ + i] = Node{};
        size_ += count;
        return first;
    }

    // Creates every child of `index` (the position on `bd`), proving those
    // whose move ends the game, and the node itself when a move wins.
    void expand(std::uint32_t index, const Board<B>& bd) {
        int cols[kMaxSide];
        int count = 0;
        for (int i = 0; i < g_.cols; ++i)
            if (bd.can_play(g_.order[i])) cols[count++] = g_.order[i];
        if (count == 0 || size_ + count > nodes_.size()) return;
        const std::uint32_t first = new_nodes(count);
        const B winning = bd.my_winning_cells();
        bool wins = false;
        for (int i = 0; i < count; ++i) {
            Node& c = nodes_[first + i];
            c.move = static_cast<std::uint8_t>(cols[i]);
            if (test(winning, bd.top(cols[i]))) {
                c.proof = kWin;
                wins = true;
            } else if (bd.moves() + 1 == g_.cells) {
                c.proof = kDraw;
            }
        }
        Node& n = nodes_[index];
        n.first = first;
        n.count = static_cast<std::uint8_t>(count);
        if (wins) {
            n.proof = kLoss;
        } else if (bd.moves() + 1 == g_.cells) {
            n.proof = kDraw;
        }
    }

    std::uint32_t select(const Node& n) const {
        const double log_n = std::log(static_cast<double>(std::max<std::uint32_t>(n.visits, 1)));
        std::uint32_t best = 0;
        double best_ucb = -1e300;
        for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
            const Node& c = nodes_[i];
            if (c.proof == kLoss) continue;
            if (c.visits == 0) return i;
            const double q = c.proof == kDraw ? 0.0 : static_cast<double>(c.value) / c.visits;
            const double ucb = q + o_.c * std::sqrt(2.0 * log_n / c.visits);
            if (ucb > best_ucb) {
                best_ucb = ucb;
                best = i;
            }
        }
        return best != 0 ? best : n.first;
    }

    void simulate() {
        Board<B> bd = root_board_;
        path_[0] = root_;
        int depth = 0;
        std::uint32_t node = root_;
        int result = 0;  // for the player who moved into `node`
        bool proven = false;
        for (;;) {
            Node& n = nodes_[node];
            if (n.proof != kUnknown) {
                result = proof_result(n.proof);
                proven = true;
                break;
            }
            if (n.first == 0) {
                if (n.visits == 0 || (expand(node, bd), n.first == 0)) {
                    result = -playout(bd);
                    break;
                }
                if (n.proof != kUnknown) continue;  // the expansion proved it
            }
            node = select(n);
            bd.play(nodes_[node].move);
            path_[++depth] = node;
        }
        max_depth_ = std::max(max_depth_, depth);
        for (int i = depth; i >= 0; --i) {
            Node& n = nodes_[path_[i]];
            ++n.visits;
            n.value += result;
            result = -result;
        }
        if (proven) {
            for (int i = depth - 1; i >= 0; --i)
                if (!update_proof(path_[i])) break;
        }
    }

    // Proves `index` from its children where possible; true when it changed.
    bool update_proof(std::uint32_t index) {
        Node& n = nodes_[index];
        if (n.proof != kUnknown || n.first == 0) return false;
        bool unknown = false;
        bool draw = false;
        for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
            switch (nodes_[i].proof) {
                case kWin:
                    n.proof = kLoss;
                    return true;
                case kUnknown:
                    unknown = true;
                    break;
                case kDraw:
                    draw = true;
                    break;
                default:
                    break;
            }
        }
        if (unknown) return false;
        n.proof = draw ? kDraw : kWin;
        return true;
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

    // The subtree of the previous root that holds `target`, made the root.
    bool reroot(const Board<B>& target) {
        if (root_ == 0) return false;
        const int diff = target.moves() - root_board_.moves();
        if (diff < 0 || diff > 6) return false;
        Board<B> bd = root_board_;
        const std::uint32_t found = descend(root_, bd, diff, target);
        if (found == 0) return false;
        root_ = found;
        if (size_ > nodes_.size() / 2) compact();
        return true;
    }

    std::uint32_t descend(std::uint32_t index, Board<B>& bd, int left, const Board<B>& target) {
        if (left == 0) {
            return bd.current() == target.current() && bd.occupied() == target.occupied() ? index
                                                                                          : 0;
        }
        const Node& n = nodes_[index];
        const B mover = bd.to_move() == target.to_move() ? target.current() : target.opponent();
        for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
            const int col = nodes_[i].move;
            if (!test(mover, bd.top(col))) continue;
            bd.play(col);
            const std::uint32_t found = descend(i, bd, left - 1, target);
            bd.undo(col);
            if (found != 0) return found;
        }
        return 0;
    }

    // Copies the root's subtree to the front of the pool (breadth first).
    void compact() {
        LargeArray<Node>& out = spare_;
        std::size_t size = 2;
        out[1] = nodes_[root_];
        std::vector<std::pair<std::uint32_t, std::uint32_t>> queue{{root_, 1}};
        for (std::size_t q = 0; q < queue.size(); ++q) {
            const auto [from, to] = queue[q];
            const Node& n = nodes_[from];
            if (n.first == 0) continue;
            const auto first = static_cast<std::uint32_t>(size);
            for (int i = 0; i < n.count; ++i) {
                out[size + i] = nodes_[n.first + i];
                queue.emplace_back(n.first + i, first + i);
            }
            out[to].first = first;
            size += n.count;
        }
        swap(nodes_, spare_);
        size_ = size;
        root_ = 1;
    }

    std::uint32_t best_child() const {
        const Node& root = nodes_[root_];
        std::uint32_t best = 0;
        for (int pass = 0; pass < 2 && best == 0; ++pass) {
            for (std::uint32_t i = root.first; i < root.first + root.count; ++i) {
                const Node& c = nodes_[i];
                if (c.proof == kWin) return i;
                if (pass == 0 && c.proof == kLoss) continue;
                if (best == 0 || c.visits > nodes_[best].visits ||
                    (c.visits == nodes_[best].visits &&
                     static_cast<std::int64_t>(c.value) * nodes_[best].visits >
                         static_cast<std::int64_t>(nodes_[best].value) * c.visits)) {
                    best = i;
                }
            }
        }
        return best;
    }

    Geometry g_;
    Masks<B> m_;
    Board<B> b_;
    Board<B> root_board_;
    MctsOptions o_;
    LargeArray<Node>& nodes_;
    LargeArray<Node>& spare_;
    std::size_t size_ = 1;
    std::uint32_t root_ = 0;
    Rng rng_{1};
    std::uint64_t sims_ = 0;
    int max_depth_ = 0;
    std::array<std::uint32_t, kMaxSide * kMaxSide + 2> path_{};
};

}  // namespace

std::unique_ptr<Connect4Engine> make_mcts_engine(const MctsOptions& options) {
    auto memory = std::make_shared<MctsMemory>(options.log2_nodes);
    return std::make_unique<Connect4Engine>([options, memory](const Geometry& g) {
        return make_searcher<MctsSearcher>(g, options, *memory);
    });
}

}  // namespace arena::c4
