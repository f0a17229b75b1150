#pragma once
// The search tree of the Monte Carlo bots (c4-mcts, c4-pro): a pool of
// nodes whose children are contiguous, with MCTS-solver proofs, the backup
// of a simulation's result, re-rooting at a later position of the same game
// (the subtree that holds it, compacted to the front of a spare pool when
// the pool is half full) and the choice of the move at the root.
//
// The bots differ in how they descend, expand and play out; those parts stay
// in mcts.cpp and pro.cpp.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "bots/common/search_clock.hpp"
#include "bots/common/search_limits.hpp"
#include "bots/connect4/board.hpp"
#include "bots/connect4/table.hpp"

namespace arena::c4 {

// Proofs, from the side of the player who moved into the node.
enum Proof : std::uint8_t { kUnknown, kWin, kLoss, kDraw };

struct TreeNode {
    std::uint32_t first = 0;  // first child; 0 = not expanded (node 0 is unused)
    std::uint32_t visits = 0;
    std::int32_t value = 0;  // sum of results (+1, 0, -1) for the player who moved in
    std::uint8_t move = 0;   // the column played into this node
    std::uint8_t count = 0;  // children
    std::uint8_t proof = kUnknown;
    std::uint8_t prior = 0;  // progressive-bias knowledge, 0..255 (c4-pro)
};
static_assert(sizeof(TreeNode) == 16);

// +1, -1 or 0 for a proven win, loss or draw.
[[nodiscard]] inline int proof_result(std::uint8_t proof) {
    return proof == kWin ? 1 : proof == kLoss ? -1 : 0;
}

// xorshift64*: tiny and fast; seeded per move from the position.
class TreeRng {
  public:
    explicit TreeRng(std::uint64_t seed) : s_(seed | 1) {}
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

// Whether a search that has run `sims` simulations stops: at `simulations`
// when that count is fixed (> 0), else when `clock` is past its hard limit,
// looked at every `every` simulations (a power of two).
[[nodiscard]] inline bool stop_search(std::uint64_t sims, std::int64_t simulations,
                                      const bots::SearchClock& clock, std::uint64_t every) {
    if (simulations > 0) return sims >= static_cast<std::uint64_t>(simulations);
    return (sims & (every - 1)) == 0 && clock.past_hard();
}

// The same under a `go` that may carry search limits: `nodes=` is a count of
// simulations that replaces `simulations`, still cut at the hard limit of
// `clock` (which must then be a timed one); `depth=` means nothing to a tree
// search and is ignored.
[[nodiscard]] inline bool stop_search(std::uint64_t sims, const bots::SearchLimits& limits,
                                      std::int64_t simulations, const bots::SearchClock& clock,
                                      std::uint64_t every) {
    if (limits.nodes > 0)
        return sims >= limits.nodes || ((sims & (every - 1)) == 0 && clock.past_hard());
    return stop_search(sims, simulations, clock, every);
}

// The node pool and the spare pool that compaction copies into, allocated
// (and touched) before the first game.
struct TreeMemory {
    explicit TreeMemory(int log2_nodes)
        : nodes(std::size_t{1} << log2_nodes), spare(std::size_t{1} << log2_nodes) {}
    LargeArray<TreeNode> nodes;
    LargeArray<TreeNode> spare;
};

class Tree {
  public:
    explicit Tree(TreeMemory& memory) : nodes_(memory.nodes), spare_(memory.spare) {}

    [[nodiscard]] TreeNode& operator[](std::uint32_t i) { return nodes_[i]; }
    [[nodiscard]] const TreeNode& operator[](std::uint32_t i) const { return nodes_[i]; }
    [[nodiscard]] std::uint32_t root() const { return root_; }
    [[nodiscard]] std::size_t size() const { return size_; }
    // No room for `count` more nodes.
    [[nodiscard]] bool full(int count) const { return size_ + count > nodes_.size(); }

    // Forgets the tree (a new game).
    void clear() { root_ = 0; }

    // A new tree of one node, the root.
    void restart() {
        size_ = 1;
        root_ = add(1);
        nodes_[root_].move = 0xFF;
    }

    // `count` new nodes at the end of the pool; the index of the first.
    std::uint32_t add(int count) {
        const auto first = static_cast<std::uint32_t>(size_);
        for (int i = 0; i < count; ++i)
            nodes_[size_ + i] = TreeNode{};
        size_ += count;
        return first;
    }

    // The child of `n` to descend into: the first unvisited one (children
    // are in the order of preference), else the one of highest
    // `ucb(child, q, ln N)` (q: the child's mean, 0 when proven drawn); never
    // a proven loss unless all are.
    template <class Ucb>
    [[nodiscard]] std::uint32_t select(const TreeNode& n, Ucb&& ucb) const {
        const double log_n = std::log(static_cast<double>(std::max<std::uint32_t>(n.visits, 1)));
        std::uint32_t best = 0;
        double best_ucb = -1e300;
        for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
            const TreeNode& c = nodes_[i];
            if (c.proof == kLoss) continue;
            if (c.visits == 0) return i;
            const double q = c.proof == kDraw ? 0.0 : static_cast<double>(c.value) / c.visits;
            const double u = ucb(c, q, log_n);
            if (u > best_ucb) {
                best_ucb = u;
                best = i;
            }
        }
        return best != 0 ? best : n.first;
    }

    // One simulation from the root: descend by `select(node)` (a child's
    // index), playing each move with `play(col)`, to a proven node (its
    // result is certain) or a leaf; a leaf is played out by `playout()` (the
    // result for the side to move there) on its first visit and expanded by
    // `expand(index)` on its second (which may prove it, or leave it a leaf
    // when the pool is full). The result is backed up along `path`, which
    // gets the nodes from the root down; returns the depth reached.
    template <class Select, class Expand, class Playout, class Play>
    int simulate(std::uint32_t* path, Select&& select, Expand&& expand, Playout&& playout,
                 Play&& play) {
        path[0] = root_;
        int depth = 0;
        std::uint32_t node = root_;
        int result = 0;  // for the player who moved into `node`
        bool proven = false;
        for (;;) {
            TreeNode& n = nodes_[node];
            if (n.proof != kUnknown) {
                result = proof_result(n.proof);
                proven = true;
                break;
            }
            if (n.first == 0) {
                if (n.visits == 0) {
                    result = -playout();
                    break;
                }
                expand(node);
                if (n.proof != kUnknown) continue;  // the expansion proved it
                if (n.first == 0) {                 // the pool is full
                    result = -playout();
                    break;
                }
            }
            node = select(n);
            play(nodes_[node].move);
            path[++depth] = node;
        }
        back_up(path, depth, result, proven);
        return depth;
    }

    // Backs up `result` (for the player who moved into path[depth]) along
    // path[0..depth], alternating sides, and, when the leaf was proven,
    // the proof as far up as it changes the nodes.
    void back_up(const std::uint32_t* path, int depth, int result, bool proven) {
        for (int i = depth; i >= 0; --i) {
            TreeNode& n = nodes_[path[i]];
            ++n.visits;
            n.value += result;
            result = -result;
        }
        if (proven) {
            for (int i = depth - 1; i >= 0; --i)
                if (!update_proof(path[i])) break;
        }
    }

    // The subtree of the root (the position on `root_board`) that holds
    // `target`, made the root; false (the tree unchanged) when there is none
    // within six moves.
    template <class B>
    bool reroot(const Board<B>& root_board, const Board<B>& target) {
        if (root_ == 0) return false;
        const int diff = target.moves() - root_board.moves();
        if (diff < 0 || diff > 6) return false;
        Board<B> bd = root_board;
        const std::uint32_t found = descend(root_, bd, diff, target);
        if (found == 0) return false;
        root_ = found;
        if (size_ > nodes_.size() / 2) compact();
        return true;
    }

    // A proven win, else the most visited child of the root not proven lost
    // (ties: the better mean), else the most visited; 0 when the root has no
    // children.
    [[nodiscard]] std::uint32_t most_visited() const {
        const TreeNode& root = nodes_[root_];
        std::uint32_t best = 0;
        for (int pass = 0; pass < 2 && best == 0; ++pass) {
            for (std::uint32_t i = root.first; i < root.first + root.count; ++i) {
                const TreeNode& c = nodes_[i];
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

    // The score reported for playing into node `i`: +-10000 when proven,
    // else the mean result in hundredths.
    [[nodiscard]] int score(std::uint32_t i) const {
        const TreeNode& n = nodes_[i];
        return n.proof == kWin    ? 10000
               : n.proof == kLoss ? -10000
               : n.visits > 0     ? 100 * n.value / static_cast<int>(n.visits)
                                  : 0;
    }

  private:
    // Proves `index` from its children where possible; true when it changed.
    bool update_proof(std::uint32_t index) {
        TreeNode& n = nodes_[index];
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

    template <class B>
    std::uint32_t descend(std::uint32_t index, Board<B>& bd, int left, const Board<B>& target) {
        if (left == 0) {
            return bd.current() == target.current() && bd.occupied() == target.occupied() ? index
                                                                                          : 0;
        }
        const TreeNode& n = nodes_[index];
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

    // Copies the root's subtree to the front of the spare pool (breadth
    // first) and swaps the pools.
    void compact() {
        LargeArray<TreeNode>& out = spare_;
        std::size_t size = 2;
        out[1] = nodes_[root_];
        std::vector<std::pair<std::uint32_t, std::uint32_t>> queue{{root_, 1}};
        for (std::size_t q = 0; q < queue.size(); ++q) {
            const auto [from, to] = queue[q];
            const TreeNode& n = nodes_[from];
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

    LargeArray<TreeNode>& nodes_;
    LargeArray<TreeNode>& spare_;
    std::size_t size_ = 1;
    std::uint32_t root_ = 0;
};

}  // namespace arena::c4
