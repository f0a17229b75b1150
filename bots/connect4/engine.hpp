#pragma once
// What the four Connect-4 engines share: each engine keeps one Searcher,
// a template instantiated for the bit-set width its board needs, made again
// only when the board changes (so tables and trees survive between games on
// the same board), and helpers for the protocol side (info lines, benches).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arena/games/connect4.hpp"
#include "bots/common/bot_loop.hpp"
#include "bots/connect4/board.hpp"

namespace arena::c4 {

class Searcher {
  public:
    virtual ~Searcher() = default;
    // A new game starts (on this searcher's board).
    virtual void new_game() {}
    // The column to play; `state` is not over.
    [[nodiscard]] virtual int choose(const games::Connect4State& state, const protocol::Go& go,
                                     const bots::InfoSink& info) = 0;
    // Nodes (or simulations) searched by the last choose().
    [[nodiscard]] virtual std::uint64_t nodes() const = 0;
};

// Makes S<B> for the bit-set type the geometry needs; S's constructor takes
// (const Geometry&, args&...).
template <template <class> class S, class... Args>
[[nodiscard]] std::unique_ptr<Searcher> make_searcher(const Geometry& g, Args&... args) {
    switch (width_for(g)) {
        case Width::k64:
            return std::make_unique<S<std::uint64_t>>(g, args...);
        case Width::k192:
            return std::make_unique<S<Wide3>>(g, args...);
        case Width::k320:
            break;
    }
    return std::make_unique<S<Wide5>>(g, args...);
}

// The `go` a search budgets from: move_ms less a reserve of 30 ms (at most a
// quarter of it) for a loaded machine, where a process can wait tens of
// milliseconds for a core; SearchClock's own margin covers the usual delays.
// With two games on two shared cores, moves planned to the full limit were
// lost on time now and then; with this reserve, none were.
[[nodiscard]] inline protocol::Go reserve_time(const protocol::Go& go) {
    protocol::Go g = go;
    if (g.move_ms > 0) g.move_ms -= std::min<std::int64_t>(30, g.move_ms / 4);
    return g;
}

// An Engine for the protocol loop over a Searcher factory.
class Connect4Engine : public bots::Engine {
  public:
    using Factory = std::function<std::unique_ptr<Searcher>(const Geometry&)>;
    explicit Connect4Engine(Factory factory) : factory_(std::move(factory)) {}

    void new_game(const games::Game& game, int /*player*/) override {
        const Geometry g(connect4_config(game));
        if (!searcher_ || !(g == geometry_)) {
            searcher_.reset();
            geometry_ = g;
            searcher_ = factory_(geometry_);
        }
        searcher_->new_game();
    }

    [[nodiscard]] games::Move choose(const games::State& state, const protocol::Go& go,
                                     const bots::InfoSink& info) override {
        return searcher_->choose(connect4_state(state), reserve_time(go), info);
    }

    [[nodiscard]] std::uint64_t nodes() const { return searcher_ ? searcher_->nodes() : 0; }

  private:
    Factory factory_;
    Geometry geometry_;
    std::unique_ptr<Searcher> searcher_;
};

// One position of a bench: the board and the moves (1-based columns) played.
struct BenchPosition {
    games::Connect4Config config;
    std::string moves;  // e.g. "4 4 3", space separated
};

// The fixed positions every bot's --bench searches: the empty 7 x 6 board, two
// 7 x 6 middle games, a tsinghua-sized board with a blocked cell, 10 x 12
// connect 5 with blocked cells, and 16 x 16 after two moves.
[[nodiscard]] std::vector<BenchPosition> bench_positions();

// Runs `engine` (already configured for fixed work) on every bench position
// and prints "nodes <n>" and "nps <n>"; returns the exit code.
int run_bench(Connect4Engine& engine);

}  // namespace arena::c4
