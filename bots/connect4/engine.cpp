#include "bots/connect4/engine.hpp"

#include <iostream>
#include <sstream>

namespace arena::c4 {

std::vector<BenchPosition> bench_positions() {
    using games::Connect4Cell;
    using games::Connect4Config;
    return {
        {Connect4Config{}, ""},
        {Connect4Config{}, "4 4 4 4 3 5 2 3 3"},
        {Connect4Config{}, "4 3 4 4 5 2 5 6 1 5 2 3"},
        {Connect4Config{.rows = 10, .cols = 11, .connect = 4, .blocked = {Connect4Cell{5, 0}}},
         "6 5 7 6 5"},
        {Connect4Config{.rows = 10,
                        .cols = 12,
                        .connect = 5,
                        .blocked = {Connect4Cell{2, 1}, Connect4Cell{6, 0}, Connect4Cell{7, 4}}},
         "6 6 7 5 8"},
        {Connect4Config{.rows = 16, .cols = 16, .connect = 4, .blocked = {}}, "8 9"},
    };
}

int run_bench(Connect4Engine& engine) {
    std::uint64_t nodes = 0;
    const auto start = std::chrono::steady_clock::now();
    const bots::InfoSink quiet = [](std::string_view) {};
    for (const auto& pos : bench_positions()) {
        const games::Connect4Game game(pos.config);
        auto state = game.new_initial_state();
        std::istringstream in(pos.moves);
        int col = 0;
        while (in >> col)
            state->apply(col - 1);
        engine.new_game(game, state->current_player());
        (void)engine.choose(
            *state,
            protocol::Go{
                .move_ms = 0, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}},
            quiet);
        nodes += engine.nodes();
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "nodes " << nodes << "\n"
              << "nps " << static_cast<std::uint64_t>(static_cast<double>(nodes) / secs) << "\n";
    return 0;
}

}  // namespace arena::c4
