// instant: answers at once with the first legal move, without any search,
// for any game of the registry. The arena's benchmarks use it to measure
// what the arena itself costs per move; as an opponent it is weaker than
// `random` and entirely predictable.
//
//   instant [--seed N] (the seed is accepted and ignored)

#include <memory>

#include "bots/common/bot_main.hpp"

namespace {

class InstantEngine : public arena::bots::Engine {
  public:
    [[nodiscard]] arena::games::Move choose(const arena::games::State& state,
                                            const arena::protocol::Go& /*go*/,
                                            const arena::bots::InfoSink& /*info*/) override {
        return state.legal_moves().front();
    }
};

}  // namespace

int main(int argc, char** argv) {
    arena::bots::BotProgram program;
    program.info = {.name = "instant", .author = "", .version = "1"};
    program.summary = "Plays the first legal move at once (no search).";
    program.make_engine = [](const arena::bots::CommonFlags& /*flags*/) {
        return std::make_unique<InstantEngine>();
    };
    return arena::bots::bot_main(argc, argv, program);
}
