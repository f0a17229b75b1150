#include "arena/match/opening.hpp"

#include <utility>

namespace arena::match {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

std::uint64_t derive_seed(std::uint64_t base, std::uint64_t index) {
    std::uint64_t state = base ^ splitmix64(index);
    return splitmix64(state);
}

std::vector<games::Move> random_opening(const games::Game& game, int plies, std::uint64_t seed) {
    constexpr int kAttempts = 100;
    std::uint64_t rng = seed;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        auto state = game.new_initial_state();
        std::vector<games::Move> moves;
        while (static_cast<int>(moves.size()) < plies && !state->is_over()) {
            const auto legal = state->legal_moves();
            const auto m = legal[splitmix64(rng) % legal.size()];
            state->apply(m);
            moves.push_back(m);
        }
        if (!state->is_over()) return moves;
    }
    // Every attempt ended the game: a tiny board. Play no opening at all.
    return {};
}

std::vector<games::Move> continuation(const games::State& state, int plies, std::uint64_t index,
                                      std::uint64_t seed) {
    constexpr std::uint64_t kAttempts = 100;
    for (std::uint64_t attempt = 0; attempt < kAttempts; ++attempt) {
        auto s = state.clone();
        std::vector<games::Move> moves;
        std::uint64_t digits = index + attempt;
        std::uint64_t ply_seed = seed;
        while (static_cast<int>(moves.size()) < plies && !s->is_over()) {
            auto legal = s->legal_moves();
            // Fisher-Yates with plain modulo of derived seeds: the same order
            // on every platform and standard library.
            for (std::size_t i = legal.size(); i > 1; --i)
                std::swap(legal[i - 1], legal[derive_seed(ply_seed, i) % i]);
            const auto m = legal[digits % legal.size()];
            digits /= legal.size();
            ply_seed = derive_seed(ply_seed, static_cast<std::uint64_t>(m) + 1);
            s->apply(m);
            moves.push_back(m);
        }
        if (!s->is_over()) return moves;
    }
    return {};
}

std::string opening_text(const games::Game& game, const std::vector<games::Move>& opening) {
    auto state = game.new_initial_state();
    std::string text;
    for (const auto move : opening) {
        if (!text.empty()) text += ' ';
        text += state->format_move(move);
        state->apply(move);
    }
    return text;
}

}  // namespace arena::match
