// clock_bot: a benchmark fixture that answers a legal move exactly
// --answer-ms after it read `go` (an absolute CLOCK_MONOTONIC deadline), by
// sleeping or, with --spin, by burning CPU until then. With --answer-ms 0
// and --spin it is a CPU-hungry neighbour for the clock-accuracy benchmark
// when given a large value.
//
// With --go-stamp FILE it appends the CLOCK_MONOTONIC time in nanoseconds at
// which it read its first `go` (the start-up benchmark).
//
//   clock_bot --answer-ms N [--spin] [--go-stamp FILE] [--seed N]

#include <time.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>

#include "bots/common/bot_main.hpp"
#include "bots/common/position_seed.hpp"

namespace {

using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC

class ClockEngine : public arena::bots::Engine {
  public:
    ClockEngine(std::int64_t answer_ms, bool spin, std::string stamp, std::uint64_t seed)
        : answer_(std::chrono::milliseconds(answer_ms)),
          spin_(spin),
          stamp_(std::move(stamp)),
          seed_(seed) {}

    void on_line(std::string_view line) override {
        if (!line.starts_with("go")) return;
        go_read_ = Clock::now();
        if (!stamp_.empty()) {
            std::ofstream(stamp_, std::ios::app)
                << std::chrono::duration_cast<std::chrono::nanoseconds>(go_read_.time_since_epoch())
                       .count()
                << "\n";
            stamp_.clear();
        }
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
    std::string stamp_;  // emptied once written
    std::uint64_t seed_;
    Clock::time_point go_read_ = Clock::now();
};

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    std::int64_t answer_ms = 0;
    bool spin = false;
    std::string stamp;
    arena::bots::BotProgram program;
    program.info = {.name = "clock_bot", .author = "", .version = "1"};
    program.summary = "Answers a random legal move a fixed time after `go` (benchmark fixture).";
    program.flags.add_options()("answer-ms", po::value<std::int64_t>(&answer_ms)->default_value(0),
                                "answer this many milliseconds after reading `go`")(
        "spin", po::bool_switch(&spin), "burn CPU until then instead of sleeping")(
        "go-stamp", po::value<std::string>(&stamp),
        "append the monotonic time (ns) of the first `go` to this file");
    program.make_engine = [&](const arena::bots::CommonFlags& flags) {
        return std::make_unique<ClockEngine>(answer_ms, spin, stamp, flags.seed);
    };
    return arena::bots::bot_main(argc, argv, program);
}
