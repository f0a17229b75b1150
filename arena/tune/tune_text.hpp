#pragma once
// What `arena tune` prints of a tune: the live line's values, the table
// every 100 iterations and at the end, and the closing JSON. Pure text.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arena/tune/spsa.hpp"

namespace arena::tune {

// `arena tune --help`: the command, and every key of a tuning config.
inline constexpr std::string_view kTuneUsage =
    R"(usage: arena tune CONFIG [--db PATH] [--concurrency N] [--stop-after N] [--json] [--stats]
                        [--transcript]

Tunes a bot's parameters by SPSA (simultaneous perturbation stochastic
approximation, docs/tuning.md): each iteration plays the bot at theta+ and
theta- (every parameter moved at once by +-c_k) in one colour-swapped pair,
and moves theta towards the side that scored better. Every game is stored
with the values it was played with; running the same command again after an
interruption continues exactly where it stopped.

CONFIG is a tournament config (docs/config.md) whose `tune:` section takes
the place of `bots:` and `schedule:`; `name`, `game`, `time`, `openings`,
`concurrency`, `seed`, `database`, `bot_defaults` and `transcript` are as in
any config:

  tune:
    command: build/bots/reversi-alphabeta --corner {corner} --mobility {mobility}
    params:
      - { name: corner,   start: 4, min: 0, max: 40, c_end: 2, r_end: 0.002 }
      - { name: mobility, start: 4, min: 0, max: 40, c_end: 2, r_end: 0.002, integer: true }
    pairs: 2000
    opponent: self

tune: keys
  command   the tuned bot's command; {name} is replaced by the parameter's value
            (in the command's arguments or in `args`)
  params    the parameters, each a map:
              name     letters, digits and _; written {name} in the command
              start    the value the tune starts from
              min/max  the range; every value the bot receives lies in it
              c_end    the perturbation c_k at the last iteration
              r_end    the learning rate a_k / c_k^2 at the last iteration
              integer  true: the bot receives the value rounded (default false)
  pairs     iterations, one colour-swapped pair each (two against an opponent)
  opponent  self (theta+ against theta-, the default), or a bot
            ({ name, command, ... }) that theta+ and theta- each play a pair
            against, on the same opening
  alpha     the exponent of a_k = a / (A + k + 1)^alpha (default 0.602)
  gamma     the exponent of c_k = c / (k + 1)^gamma (default 0.101)
  A         the stability constant (default 10 % of the pairs)
  batch     iterations played from one theta (default: the concurrency when
            the tune begins, then kept with its games)
  and the keys of a bot entry for the tuned bot: args, dir, protocol, time,
  depth, nodes and the limits (docs/config.md).

)";

// Every this many iterations, the table.
inline constexpr std::int64_t kTableEvery = 100;

// How the perturbed points scored over the iterations since the last table.
struct WindowScore {
    std::int64_t iterations = 0;
    double plus_points = 0.0, minus_points = 0.0;  // over their games
    std::int64_t games_each = 0;                   // games each of theta+ and theta- played
};

// "live_three 612.3, dead_four 743": each parameter's value, as the bot
// would receive it (integers rounded), to 4 significant digits.
[[nodiscard]] std::string values_text(const std::vector<SpsaParam>& params,
                                      const std::vector<double>& theta);

// The table: a heading ("tune: iteration 100 of 4000"), a row per
// parameter (its start, its value now, its range), and a line on the
// window (theta+ against theta-, or each against `opponent` when given).
[[nodiscard]] std::vector<std::string> table_lines(const std::vector<SpsaParam>& params,
                                                   const std::vector<double>& theta,
                                                   std::int64_t applied, std::int64_t iterations,
                                                   const WindowScore& window,
                                                   const std::string& opponent);

// {"params": {"live_three": 612.3, ...}, "iterations": N, "games": M}:
// theta as it stands, unrounded.
[[nodiscard]] std::string result_json(const std::vector<SpsaParam>& params,
                                      const std::vector<double>& theta, std::int64_t iterations,
                                      std::int64_t games);

}  // namespace arena::tune
