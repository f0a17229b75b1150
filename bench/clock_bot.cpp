// clock_bot: a benchmark fixture that answers a legal move exactly
// --answer-ms after it read `go` (an absolute CLOCK_MONOTONIC deadline), by
// sleeping or, with --spin, by burning CPU until then. With --answer-ms 0
// and --spin it is a CPU-hungry neighbour for the clock-accuracy benchmark
// when given a large value.
//
//   clock_bot --answer-ms N [--spin] [--seed N]

#include <time.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string_view>

#include "bots/common/bot_main.hpp"
#include "bots/common/position_seed.hpp"

namespace {

using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC

class ClockEngine : public arena::bots::Engine {
  public:
    ClockEngine(std::int64_t answer_ms, bool spin, std::uint64_t seed)
        : answer_(std::chrono::milliseconds(answer_ms)), spin_(spin), seed_(seed) {}

    void on_line(std::string_view line) override {
        if (line.starts_with("go")) go_read_ = Clock::now();
    }

    [[nodiscard]] arena::games::Move choose(const arena::games::State& state,
                                            const arena::protocol::Go& /*go*/,
                                            const arena::bots::InfoSink& /*info*/) override {
        const auto moves = state.legal_moves();
        std::mt19937_64 rng(arena::bots::position_seed(seed_, state));
        const auto move = moves[static_cast<std::size_t>(rng() % moves.size())];
        const auto target = go_read_ + answer_;
        if (spin_) {
            volatile std::uint64_t sink = 0;
            while (Clock::now() < target)
                for (int i = 0; i < 1000; ++i)
                    sink = sink + static_cast<std::uint64_t>(i);
        } else {
            const auto ns =
                std::chrono::duration_cast<std::chrono::nanoseconds>(target.time_since_epoch())
                    .count();
            const timespec when{static_cast<time_t>(ns / 1'000'000'000),
                                static_cast<long>(ns % 1'000'000'000)};
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, nullptr) != 0) {
            }
        }
        return move;
    }

  private:
    Clock::duration answer_;
    bool spin_;
    std::uint64_t seed_;
    Clock::time_point go_read_ = Clock::now();
};

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    std::int64_t answer_ms = 0;
    bool spin = false;
    arena::bots::BotProgram program;
    program.info = {.name = "clock_bot", .author = "", .version = "1"};
    program.summary = "Answers a random legal move a fixed time after `go` (benchmark fixture).";
    program.flags.add_options()("answer-ms", po::value<std::int64_t>(&answer_ms)->default_value(0),
                                "answer this many milliseconds after reading `go`")(
        "spin", po::bool_switch(&spin), "burn CPU until then instead of sleeping");
    program.make_engine = [&](const arena::bots::CommonFlags& flags) {
        return std::make_unique<ClockEngine>(answer_ms, spin, flags.seed);
    };
    return arena::bots::bot_main(argc, argv, program);
}
