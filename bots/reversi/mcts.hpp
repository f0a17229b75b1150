#pragma once
// reversi-mcts: UCT Monte-Carlo tree search with uniformly random bitboard
// playouts.
//
// Each simulation walks down the tree choosing the child with the highest
// UCB1 value  wins/visits + c * sqrt(ln(parent visits) / visits)  (a win
// counts 1, a draw 1/2, for the player who made the move), expands one
// untried move (chosen at random), plays the game out at random from there and
// backs the result up. A side with no move has a single `pass` child; a node
// where neither side can move is final and scored exactly. The answer is the
// most visited move.
//
// The tree lives as long as the process: before each search the new position
// is looked up among the descendants of the previous root (the moves played
// since, passes included) and its subtree becomes the new root, compacted
// into a fresh node pool; a position not in the tree starts a new one. Nodes
// come from a pool allocated once; when it is full the tree stops growing.

#include <cstdint>
#include <optional>
#include <vector>

#include "bots/common/bot_loop.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/reversi/board.hpp"

namespace arena::bots::reversi {

inline constexpr int kPassCell = 64;  // the move of a `pass` child

struct MctsReport {
    int move = -1;  // most visited root move (kPassCell when the root must pass)
    std::uint64_t simulations = 0;
    std::uint64_t nodes = 0;  // positions visited: tree steps plus playout moves
    int depth = 0;            // deepest tree path of this search
    double win_rate = 0.5;    // of the chosen move, for the side to move
    std::uint32_t visits = 0;
};

class Mcts {
  public:
    explicit Mcts(std::size_t max_nodes = std::size_t{1} << 20);

    // Makes `pos` the root. Returns true when it was found in the tree (within
    // a few plies of the old root) and its subtree was kept.
    bool set_root(const Position& pos);
    void clear() { nodes_.clear(); }

    // Runs up to `simulations` simulations (0: no limit) until the soft limit
    // of `clock`; the random choices come from `seed`. Precondition: a root.
    MctsReport run(std::uint64_t simulations, const SearchClock& clock, double c,
                   std::uint64_t seed);

    [[nodiscard]] std::size_t size() const { return nodes_.size(); }
    [[nodiscard]] std::uint32_t root_visits() const {
        return nodes_.empty() ? 0 : nodes_[0].visits;
    }

  private:
    enum Kind : std::uint8_t { kInner, kMustPass, kFinal };
    struct Node {
        Position pos;
        Bitboard untried = 0;  // legal moves without a child yet
        std::uint32_t visits = 0;
        std::uint32_t score2 = 0;  // 2 per win, 1 per draw, for the player who moved here
        std::int32_t first_child = -1;
        std::int32_t next_sibling = -1;
        std::int8_t move = -1;  // cell, kPassCell, or -1 at the root
        Kind kind = kInner;
        bool pass_untried = false;  // kMustPass and the pass child not made yet
    };

    std::int32_t add_node(const Position& pos, int move);
    std::int32_t find(const Position& target) const;
    void compact(std::int32_t new_root);

    std::vector<Node> nodes_;    // nodes_[0] is the root
    std::vector<Node> scratch_;  // compaction target, swapped with nodes_
    std::size_t max_nodes_;
};

struct MctsOptions {
    std::uint64_t simulations = 0;  // 0: as many as the clock allows
    double c = 0.4;                 // exploration constant (tuned: 0.4 beat 0.6 beat 1.0)
    std::uint64_t seed = 1;
};

class MctsEngine final : public Engine {
  public:
    explicit MctsEngine(const MctsOptions& options) : options_(options) {}

    void new_game(const games::Game& game, int player) override;
    [[nodiscard]] games::Move choose(const games::State& state, const protocol::Go& go,
                                     const InfoSink& info) override;

    // Whether the last choose() kept the tree of the previous one (tests).
    [[nodiscard]] bool reused() const { return reused_; }
    [[nodiscard]] std::uint32_t root_visits() const { return tree_.root_visits(); }

  private:
    MctsOptions options_;
    Mcts tree_;
    bool reused_ = false;
};

// The --bench positions at a fixed number of simulations.
int mcts_bench(std::uint64_t seed);

}  // namespace arena::bots::reversi
