#pragma once
// reversi-greedy: takes a corner when it can (the corner that flips most),
// otherwise the move that flips the most discs; ties are broken by a draw
// seeded from --seed and the position (position_seed.hpp), so the choice
// never depends on what the process played before. No look-ahead.

#include <cstdint>

#include "bots/common/bot_loop.hpp"
#include "bots/reversi/board.hpp"

namespace arena::bots::reversi {

class GreedyEngine final : public Engine {
  public:
    explicit GreedyEngine(std::uint64_t seed) : seed_(seed) {}

    void new_game(const games::Game& game, int player) override;
    [[nodiscard]] games::Move choose(const games::State& state, const protocol::Go& go,
                                     const InfoSink& info) override;

  private:
    std::uint64_t seed_;
};

// The candidates greedy chooses among: the corners that can be played if
// any, otherwise the moves that flip the most discs.
[[nodiscard]] Bitboard greedy_candidates(const Position& pos);

// The --bench positions: prints `nodes` (moves examined) and `nps`.
int greedy_bench();

}  // namespace arena::bots::reversi
