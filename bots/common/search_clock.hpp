#pragma once
// Time management for the reference bots. `go move_ms=N` is a hard limit
// measured by the arena from the moment it wrote `go`; the bot's own clock
// starts a little later, and its answer reaches the arena a little after it
// is written. The budget keeps a margin for both, scaled to the limit (a
// loaded machine delays more at short limits, in proportion), and splits it
// into a soft limit (do not start another iteration of iterative deepening
// past it) and a hard limit (abandon the current iteration at once).

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "protocol/codec.hpp"

namespace arena::bots {

class SearchClock {
  public:
    using Clock = std::chrono::steady_clock;

    // `go` as received; `fraction` of the usable time may be spent before the
    // soft limit (iterations usually grow by a factor, so about half).
    explicit SearchClock(const protocol::Go& go, double soft_fraction = 0.5)
        : start_(Clock::now()) {
        std::int64_t ms = go.move_ms;
        // With a game clock, spend a share of what is left.
        if (go.clock_ms)
            ms = std::min<std::int64_t>(ms > 0 ? ms : *go.clock_ms, *go.clock_ms / 20 + 1);
        // Margin: 10 % of the limit, at least 8 ms and at most 150 ms.
        const std::int64_t margin = std::clamp<std::int64_t>(ms / 10, 8, 150);
        const auto usable = std::chrono::milliseconds(std::max<std::int64_t>(1, ms - margin));
        hard_ = start_ + usable;
        soft_ = start_ + std::chrono::duration_cast<Clock::duration>(usable * soft_fraction);
    }

    // For fixed-depth or fixed-node searches: no time limit.
    static SearchClock unlimited() { return SearchClock(); }

    [[nodiscard]] bool past_soft() const { return limited_ && Clock::now() >= soft_; }
    [[nodiscard]] bool past_hard() const { return limited_ && Clock::now() >= hard_; }
    [[nodiscard]] std::chrono::milliseconds elapsed() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
    }

  private:
    SearchClock() : start_(Clock::now()), limited_(false) {}

    Clock::time_point start_, soft_{}, hard_{};
    bool limited_ = true;
};

}  // namespace arena::bots
