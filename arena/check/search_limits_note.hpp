#pragma once
// The `search limits` note of `arena check-bot`: does the bot honour the
// optional search limits of `go` (depth=<n>, nodes=<n>; PROTOCOL.md section
// 4)? One position is asked for with depth=1, with depth=kDeepDepth and
// with nodes=kNodeLimit, each under the check's move time. Never a failure:
// a bot that does not search may ignore them. For an NBoard engine the
// depth goes as `set depth`; a Gomocup brain and a Tsinghua strategy
// library are told neither (skip).

#include <cstdint>
#include <optional>
#include <string>

#include "arena/check/check.hpp"
#include "arena/games/game.hpp"

namespace arena::check {

inline constexpr int kDeepDepth = 6;
inline constexpr std::int64_t kNodeLimit = 1000;

// One answer of the probe.
struct LimitAnswer {
    bool answered = false;
    std::string problem;  // when not answered: the fault
    std::string move;
    double ms = 0;                            // think time, as the arena measured it
    std::optional<std::int64_t> depth;        // the last `depth <n>` of its info lines
    std::optional<std::int64_t> nodes;        // the last `nodes <n>`
    std::optional<std::int64_t> simulations;  // the last `simulations <n>` (Monte Carlo bots)
};

// The note from the answers at depth=1, depth=kDeepDepth and
// nodes=kNodeLimit, each under `move_ms`: status ok (skip when one was not
// answered), the figures and whether they show the limits honoured. Pure,
// for tests.
[[nodiscard]] CheckResult judge_search_limits(const LimitAnswer& shallow, const LimitAnswer& deep,
                                              const LimitAnswer& nodes, double move_ms);

// Whether the bot's kind is told the limits (protocol v1, NBoard).
[[nodiscard]] bool told_search_limits(BotKind kind);

// Runs the probe in `session`, a live process between games: a game on
// `params` from a position of a few random plies (seeded by o.seed), the
// three requests, then `end`. For a kind that is told no limits, a skip
// (`session` is then not used and may be null).
[[nodiscard]] CheckResult probe_search_limits(session::BotSession* session, const CheckOptions& o,
                                              const games::Params& params);

}  // namespace arena::check
