#include "bots/reversi/greedy.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <string>

#include "bots/common/position_seed.hpp"
#include "bots/reversi/search_output.hpp"

namespace arena::bots::reversi {

Bitboard greedy_candidates(const Position& pos) {
    const Bitboard moves = pos.moves();
    const Bitboard pool = (moves & kCorners) != 0 ? moves & kCorners : moves;
    Bitboard best = 0;
    int most = 0;
    for (Bitboard rest = pool; rest != 0; rest &= rest - 1) {
        const int sq = lsb(rest);
        const int n = popcount(flips(pos.own, pos.opp, sq));
        if (n > most) {
            most = n;
            best = 0;
        }
        if (n == most) best |= bit(sq);
    }
    return best;
}

void GreedyEngine::new_game(const games::Game& game, int /*player*/) {
    if (game.name() != "reversi") throw games::GameError("reversi-greedy plays reversi only");
}

games::Move GreedyEngine::choose(const games::State& state, const protocol::Go& /*go*/,
                                 const InfoSink& info) {
    const Position pos = position_of(dynamic_cast<const games::ReversiState&>(state));
    if (pos.moves() == 0) return games::kPass;  // the arena never asks then
    Bitboard candidates = greedy_candidates(pos);
    std::mt19937_64 rng(position_seed(seed_, state));
    const auto pick = rng() % static_cast<std::uint64_t>(popcount(candidates));
    for (std::uint64_t i = 0; i < pick; ++i)
        candidates &= candidates - 1;
    const int sq = lsb(candidates);
    info("depth 1 score " + std::to_string(popcount(flips(pos.own, pos.opp, sq))) + " nodes " +
         std::to_string(popcount(pos.moves())) + " pv " + square_name(sq));
    return sq;
}

int greedy_bench() {
    std::uint64_t nodes = 0;
    const auto t0 = std::chrono::steady_clock::now();
    // Greedy self-play from 2000 positions of seeded random games (8 plies
    // each): the moves examined are the nodes.
    for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
        Position pos = position_of(random_position(seed, 8));
        while (true) {
            if (pos.moves() == 0) {
                if (pos.pass().moves() == 0) break;
                pos = pos.pass();
                continue;
            }
            nodes += static_cast<std::uint64_t>(popcount(pos.moves()));
            pos = pos.play(lsb(greedy_candidates(pos)));
        }
    }
    print_bench_totals(nodes, t0);
    return 0;
}

}  // namespace arena::bots::reversi
