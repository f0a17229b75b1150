#pragma once
// What many tests build the same way: a tournament config of plain bots for
// the pure schedule code, and the reference random bot with quick session
// options for the tests that play real games.

#include <chrono>
#include <string>
#include <vector>

#include "arena/session/session.hpp"
#include "arena/tournament/config.hpp"

namespace arena::testing {

// A config of `bots` bots named b0, b1, ... (no commands: for the schedule,
// growth and shard code, which never start them). A gauntlet's challenger is
// b2.
[[nodiscard]] tournament::Config bare_config(
    int bots, int games_per_pair, int rounds = 1,
    tournament::ScheduleType type = tournament::ScheduleType::kRoundRobin);

// The reference random bot (build/bots/random) named `name`, with `seed`.
[[nodiscard]] session::BotSpec random_bot(const std::string& name, const std::string& seed = "1");

// Session options for tests: a start-up limit of `startup` (long enough for
// a loaded machine) and a short grace after `quit`, so a test that ends a
// bot does not wait the default second.
[[nodiscard]] session::SessionOptions quick_options(
    std::chrono::milliseconds startup = std::chrono::milliseconds(3000));

// The game lines of arena's output: the lines that start with "game "
// ("game 3/10: a vs b ...", "game #12 (3/10 stored): ...").
[[nodiscard]] std::vector<std::string> game_lines(const std::string& text);

// How often `needle` occurs in `text` (overlapping occurrences too).
[[nodiscard]] int occurrences(const std::string& text, const std::string& needle);

}  // namespace arena::testing
