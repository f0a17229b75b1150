// libFuzzer target: the move parsers of every game (State::parse_move) and
// their agreement with the rules.
//
// The first byte picks a board (Connect-4 of several sizes, with blocked
// cells, tsinghua boards; Gomoku 5..26 freestyle and exact5; Reversi); the
// rest is a sequence of move texts separated by '\n', played in order.
// Properties, for every text:
//   - parse_move never throws nor crashes;
//   - a parsed move formats to a text that parses back to the same move;
//   - is_legal agrees with legal_moves, a legal move applies without
//     throwing, an illegal one is refused with GameError and changes nothing;
//   - a finished game has no legal moves; every legal move round-trips
//     through format_move/parse_move.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "arena/games/game.hpp"
#include "arena/games/registry.hpp"

namespace {

using namespace arena::games;

struct Board {
    std::string_view game;
    Params params;
    std::uint64_t seed = 0;  // realize() seed, for families
};

const std::array<Board, 16>& boards() {
    static const std::array<Board, 16> kBoards = {{
        {"connect4", {}},
        {"connect4", {{"rows", "4"}, {"cols", "4"}}},
        {"connect4", {{"rows", "16"}, {"cols", "16"}, {"connect", "5"}}},
        {"connect4", {{"rows", "5"}, {"cols", "9"}, {"connect", "2"}}},
        {"connect4", {{"blocked", "4:1,1:6,7:3"}}},
        {"connect4", {{"rows", "12"}, {"cols", "11"}, {"blocked", "11:12,1:1"}}},
        {"connect4", {{"variant", "tsinghua"}}, 1},
        {"connect4", {{"variant", "tsinghua"}}, 987654321},
        {"gomoku", {}},
        {"gomoku", {{"size", "5"}}},
        {"gomoku", {{"size", "26"}}},
        {"gomoku", {{"size", "9"}, {"rule", "exact5"}}},
        {"gomoku", {{"size", "15"}, {"rule", "exact5"}}},
        {"gomoku", {{"size", "6"}, {"rule", "exact5"}}},
        {"reversi", {}},
        {"reversi", {}},
    }};
    return kBoards;
}

void check(bool ok) {
    if (!ok) std::abort();
}

void check_state(const State& state) {
    const auto moves = state.legal_moves();
    check(state.is_over() == moves.empty());
    for (const Move m : moves) {
        check(state.is_legal(m));
        const auto parsed = state.parse_move(state.format_move(m));
        check(parsed.has_value() && *parsed == m);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const Board& board = boards()[data[0] % boards().size()];
    const Params params = realize(board.game, board.params, board.seed);
    const auto game = make_game(board.game, params);
    auto state = game->new_initial_state();

    std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    check_state(*state);
    while (!rest.empty()) {
        const std::size_t newline = rest.find('\n');
        const std::string_view text = rest.substr(0, newline);
        rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);

        const auto move = state->parse_move(text);
        if (!move) continue;
        const std::string formatted = state->format_move(*move);
        const auto again = state->parse_move(formatted);
        check(again.has_value() && *again == *move);

        const auto legal = state->legal_moves();
        const bool listed = std::find(legal.begin(), legal.end(), *move) != legal.end();
        check(state->is_legal(*move) == listed);
        if (listed) {
            const int ply = state->ply();
            state->apply(*move);  // must not throw
            check(state->ply() == ply + 1);
            check_state(*state);
        } else {
            const std::string before = state->render();
            bool refused = false;
            try {
                state->apply(*move);
            } catch (const GameError&) {
                refused = true;
            }
            check(refused && state->render() == before);
        }
    }
    return 0;
}
