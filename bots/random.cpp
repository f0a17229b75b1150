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
#include "bots/common/bot_loop.hpp"
#include "bots/common/position_seed.hpp"

namespace {

using arena::games::GameError;
using arena::games::Move;

constexpr std::string_view kUsage =
    "usage: random [--game connect4|gomoku|reversi|any] [--seed N]\n"
    "Plays a uniformly random legal move (protocol v1 on stdin/stdout).\n"
    "  --game G   accept only game G (default any)\n"
    "  --seed N   seed of the move choice (default 1)\n";

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

[[nodiscard]] bool parse_u64(std::string_view text, std::uint64_t& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return !text.empty() && ec == std::errc() && ptr == end;
}

int usage_error(const std::string& message) {
    std::cerr << "random: " << message << '\n' << kUsage;
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string game = "any";
    std::uint64_t seed = 1;
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view flag = args[i];
        std::string_view value;
        bool has_value = false;
        if (const auto eq = flag.find('=');
            flag.starts_with("--") && eq != std::string_view::npos) {
            value = flag.substr(eq + 1);
            flag = flag.substr(0, eq);
            has_value = true;
        }
        if (flag == "--help" || flag == "-h") {
            std::cout << kUsage;
            return 0;
        }
        if (flag != "--game" && flag != "--seed") {
            return usage_error("unknown argument '" + std::string(args[i]) + "'");
        }
        if (!has_value) {
            if (i + 1 >= args.size()) return usage_error(std::string(flag) + " needs a value");
            value = args[++i];
        }
        if (flag == "--seed") {
            if (!parse_u64(value, seed)) {
                return usage_error("--seed wants a non-negative integer, not '" +
                                   std::string(value) + "'");
            }
        } else {
            const auto names = arena::games::game_names();
            if (value != "any" && std::find(names.begin(), names.end(), value) == names.end()) {
                return usage_error("unknown game '" + std::string(value) + "'");
            }
            game = value;
        }
    }

    std::ios::sync_with_stdio(false);
    RandomEngine engine(game, seed);
    return arena::bots::run_bot({.name = "random", .author = "", .version = "1"}, engine, std::cin,
                                std::cout);
}
