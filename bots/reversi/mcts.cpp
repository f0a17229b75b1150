#include "bots/reversi/mcts.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <iostream>
#include <string>

#include "bots/common/position_seed.hpp"
#include "bots/common/search_limits.hpp"
#include "bots/reversi/budget.hpp"
#include "bots/reversi/search_output.hpp"

namespace arena::bots::reversi {
namespace {

// The deepest a game can go: 60 moves and as many passes.
constexpr int kMaxPath = 128;
// The new position is looked for this many plies below the old root.
constexpr int kReuseDepth = 8;

// xorshift64*: fast and good enough for playouts.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : s_(seed != 0 ? seed : 0x9e3779b97f4a7c15ULL) {}
    std::uint64_t next() {
        s_ ^= s_ >> 12;
        s_ ^= s_ << 25;
        s_ ^= s_ >> 27;
        return s_ * 0x2545f4914f6cdd1dULL;
    }
    // A uniformly drawn set bit of `b` (b != 0).
    int pick(Bitboard b) {
        const auto n = static_cast<std::uint64_t>(popcount(b));
        for (std::uint64_t k = ((next() >> 32) * n) >> 32; k > 0; --k)
            b &= b - 1;
        return lsb(b);
    }

  private:
    std::uint64_t s_;
};

// 2 for a win, 1 for a draw, 0 for a loss of the side to move in a final position.
[[nodiscard]] std::uint32_t result2(const Position& pos) {
    const int d = pos.disc_diff();
    return d > 0 ? 2 : d == 0 ? 1 : 0;
}

// Random play to the end; the result for the side to move in `pos`.
[[nodiscard]] std::uint32_t playout(Position pos, Rng& rng, std::uint64_t& nodes) {
    bool flipped = false;  // whether the side to move is the opponent of pos's mover
    bool passed = false;
    while (true) {
        const Bitboard moves = pos.moves();
        if (moves == 0) {
            if (passed) break;
            passed = true;
        } else {
            passed = false;
            pos = pos.play(rng.pick(moves));
            ++nodes;
            flipped = !flipped;
            continue;
        }
        pos = pos.pass();
        flipped = !flipped;
    }
    const std::uint32_t r = result2(pos);
    return flipped ? 2 - r : r;
}

}  // namespace

Mcts::Mcts(std::size_t max_nodes) : max_nodes_(max_nodes) {
    // Reserved once: the search never allocates (pages are touched as used).
    nodes_.reserve(max_nodes_);
    scratch_.reserve(max_nodes_);
}

std::int32_t Mcts::add_node(const Position& pos, int move) {
    Node n;
    n.pos = pos;
    n.move = static_cast<std::int8_t>(move);
    n.untried = pos.moves();
    if (n.untried == 0) {
        if (pos.pass().moves() != 0) {
            n.kind = kMustPass;
            n.pass_untried = true;
        } else {
            n.kind = kFinal;
        }
    }
    nodes_.push_back(n);
    return static_cast<std::int32_t>(nodes_.size() - 1);
}

std::int32_t Mcts::find(const Position& target) const {
    // Discs never leave the board, so only nodes whose occupied cells are all
    // occupied in the target can lead to it.
    const Bitboard occupied = target.own | target.opp;
    std::array<std::pair<std::int32_t, int>, 512> stack{};
    std::size_t top = 0;
    stack[top++] = {0, 0};
    while (top > 0) {
        const auto [idx, depth] = stack[--top];
        const Node& n = nodes_[idx];
        if (n.pos == target) return idx;
        if (depth == kReuseDepth) continue;
        for (std::int32_t c = n.first_child; c >= 0; c = nodes_[c].next_sibling) {
            const Bitboard occ = nodes_[c].pos.own | nodes_[c].pos.opp;
            if ((occ & ~occupied) == 0 && top < stack.size()) stack[top++] = {c, depth + 1};
        }
    }
    return -1;
}

void Mcts::compact(std::int32_t new_root) {
    scratch_.clear();
    scratch_.push_back(nodes_[new_root]);
    scratch_[0].move = -1;
    scratch_[0].next_sibling = -1;
    // Breadth first: each copied node's children are copied next to each other.
    for (std::size_t i = 0; i < scratch_.size(); ++i) {
        std::int32_t prev = -1;
        for (std::int32_t c = scratch_[i].first_child; c >= 0; c = nodes_[c].next_sibling) {
            scratch_.push_back(nodes_[c]);
            const auto idx = static_cast<std::int32_t>(scratch_.size() - 1);
            if (prev < 0) {
                scratch_[i].first_child = idx;
            } else {
                scratch_[prev].next_sibling = idx;
            }
            prev = idx;
        }
        if (prev >= 0) scratch_[prev].next_sibling = -1;
    }
    nodes_.swap(scratch_);
    scratch_.clear();
}

bool Mcts::set_root(const Position& pos) {
    if (!nodes_.empty()) {
        const std::int32_t found = find(pos);
        if (found == 0) return true;
        if (found > 0) {
            compact(found);
            return true;
        }
    }
    nodes_.clear();
    add_node(pos, -1);
    return false;
}

MctsReport Mcts::run(std::uint64_t simulations, const SearchClock& clock, double c,
                     std::uint64_t seed) {
    Rng rng(seed);
    MctsReport report;
    std::array<std::int32_t, kMaxPath> path{};
    for (std::uint64_t sim = 0; simulations == 0 || sim < simulations; ++sim) {
        if ((sim & 15) == 0 && (simulations == 0 ? clock.past_soft() : clock.past_hard())) break;
        int length = 0;
        std::int32_t idx = 0;
        path[length++] = idx;
        // Selection and expansion.
        while (true) {
            Node& n = nodes_[idx];
            if (n.kind == kFinal) break;
            const bool can_grow = nodes_.size() < max_nodes_;
            if ((n.untried != 0 || n.pass_untried) && can_grow) {
                int move = kPassCell;
                Position next = n.pos.pass();
                if (n.untried != 0) {
                    move = rng.pick(n.untried);
                    n.untried &= ~bit(move);
                    next = n.pos.play(move);
                } else {
                    n.pass_untried = false;
                }
                const std::int32_t parent = idx;
                const std::int32_t first = nodes_[parent].first_child;
                idx = add_node(next, move);  // `n` is still valid: no reallocation
                nodes_[idx].next_sibling = first;
                nodes_[parent].first_child = idx;
                path[length++] = idx;
                ++report.nodes;
                break;
            }
            if (n.first_child < 0) break;  // the pool is full: play out from here
            const double log_n = std::log(static_cast<double>(n.visits));
            std::int32_t best = -1;
            double best_value = -1.0;
            for (std::int32_t ch = n.first_child; ch >= 0; ch = nodes_[ch].next_sibling) {
                const Node& child = nodes_[ch];
                const double v = child.visits == 0 ? 1e9
                                                   : child.score2 / (2.0 * child.visits) +
                                                         c * std::sqrt(log_n / child.visits);
                if (v > best_value) {
                    best_value = v;
                    best = ch;
                }
            }
            idx = best;
            path[length++] = idx;
            ++report.nodes;
        }
        report.depth = std::max(report.depth, length - 1);
        // Simulation: the result for the side to move at the leaf.
        const Node& leaf = nodes_[idx];
        std::uint32_t r =
            leaf.kind == kFinal ? result2(leaf.pos) : playout(leaf.pos, rng, report.nodes);
        // Backpropagation: each node scores for the player who moved into it.
        for (int i = length - 1; i >= 0; --i) {
            Node& n = nodes_[path[i]];
            ++n.visits;
            n.score2 += 2 - r;
            r = 2 - r;
        }
        ++report.simulations;
    }
    // The most visited move (ties: the better score).
    const Node& root = nodes_[0];
    std::int32_t best = -1;
    for (std::int32_t ch = root.first_child; ch >= 0; ch = nodes_[ch].next_sibling) {
        const Node& child = nodes_[ch];
        if (best < 0 || child.visits > nodes_[best].visits ||
            (child.visits == nodes_[best].visits && child.score2 > nodes_[best].score2))
            best = ch;
    }
    if (best >= 0) {
        const Node& b = nodes_[best];
        report.move = b.move;
        report.visits = b.visits;
        report.win_rate = b.visits > 0 ? b.score2 / (2.0 * b.visits) : 0.5;
    }
    return report;
}

void MctsEngine::new_game(const games::Game& game, int /*player*/) {
    if (game.name() != "reversi") throw games::GameError("reversi-mcts plays reversi only");
    tree_.clear();
}

games::Move MctsEngine::choose(const games::State& state, const protocol::Go& go,
                               const InfoSink& info) {
    const SearchClock clock(with_reserve(go), 0.85);
    const Position pos = position_of(dynamic_cast<const games::ReversiState&>(state));
    if (pos.moves() == 0) return games::kPass;
    reused_ = tree_.set_root(pos);
    const auto t0 = SearchClock::Clock::now();
    // `go nodes=` is a number of simulations, as --simulations (the clock
    // still applies); depth= means nothing to it.
    const SearchLimits limits = SearchLimits::of(go);
    const MctsReport r = tree_.run(limits.nodes > 0 ? limits.nodes : options_.simulations, clock,
                                   options_.c, position_seed(options_.seed, state));
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(SearchClock::Clock::now() - t0)
            .count();
    int move = r.move;
    if (move < 0 || move == kPassCell) move = lsb(pos.moves());  // no simulation ran
    info("depth " + std::to_string(r.depth) + " score " +
         std::to_string(std::lround(100 * r.win_rate)) + " nodes " + std::to_string(r.nodes) +
         " nps " +
         std::to_string(r.nodes * 1000000 / static_cast<std::uint64_t>(std::max<long>(us, 1))) +
         " simulations " + std::to_string(r.simulations) + " tree " + std::to_string(tree_.size()) +
         " pv " + square_name(move));
    return move;
}

int mcts_bench(std::uint64_t seed) {
    // Four positions of seeded random games, 20000 simulations each, from an
    // empty tree.
    constexpr std::array<std::pair<std::uint64_t, int>, 4> kCases{
        {{1, 4}, {2, 20}, {3, 36}, {4, 48}}};
    constexpr std::uint64_t kSimulations = 20000;
    Mcts tree;
    std::uint64_t nodes = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& [game_seed, plies] : kCases) {
        const games::ReversiState state = random_position(game_seed, plies);
        tree.clear();
        (void)tree.set_root(position_of(state));
        const MctsReport r = tree.run(kSimulations, SearchClock::unlimited(), MctsOptions{}.c,
                                      position_seed(seed, state));
        nodes += r.nodes;
        std::cout << "position " << state.ply() << " plies: simulations " << r.simulations
                  << " depth " << r.depth << " nodes " << r.nodes << " move " << square_name(r.move)
                  << " win rate " << r.win_rate << "\n";
    }
    print_bench_totals(nodes, t0);
    return 0;
}

}  // namespace arena::bots::reversi
