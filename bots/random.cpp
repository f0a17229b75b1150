// random: plays a uniformly random legal move, for any game of the registry.
//
//   random [--game connect4|gomoku|reversi|any] [--seed N]
//
// The choice is a function of the seed and the position only (see
// position_seed.hpp), so a game replays identically whatever the process
// played before; the index is taken by plain modulo (not
// uniform_int_distribution, whose output differs between standard libraries).

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "arena/games/registry.hpp"
#include "bots/common/bot_main.hpp"
#include "bots/common/position_seed.hpp"

namespace {

using arena::games::GameError;
using arena::games::Move;

class RandomEngine : public arena::bots::Engine {
  public:
    RandomEngine(std::string game, std::uint64_t seed) : game_(std::move(game)), seed_(seed) {}

    void new_game(const arena::games::Game& game, int /*player*/) override {
        if (game_ != "any" && game.name() != game_) {
            throw GameError("this bot was started with --game " + game_);
        }
    }

    [[nodiscard]] Move choose(const arena::games::State& state, const arena::protocol::Go& /*go*/,
                              const arena::bots::InfoSink& /*info*/) override {
        const std::vector<Move> moves = state.legal_moves();
        std::mt19937_64 rng(arena::bots::position_seed(seed_, state));
        return moves[static_cast<std::size_t>(rng() % moves.size())];
    }

  private:
    std::string game_;
    std::uint64_t seed_;
};

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    std::string game = "any";
    arena::bots::BotProgram program;
    program.info = {.name = "random", .author = "", .version = "1"};
    program.summary = "Plays a uniformly random legal move.";
    program.flags.add_options()("game", po::value<std::string>(&game)->default_value("any"),
                                "accept only this game (connect4, gomoku, reversi or any)");
    program.make_engine = [&](const arena::bots::CommonFlags& flags) {
        const auto names = arena::games::game_names();
        if (game != "any" && std::find(names.begin(), names.end(), game) == names.end())
            throw std::invalid_argument("unknown game '" + game + "'");
        return std::make_unique<RandomEngine>(game, flags.seed);
    };
    return arena::bots::bot_main(argc, argv, program);
}
