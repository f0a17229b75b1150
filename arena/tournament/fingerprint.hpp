#pragma once
// What identifies a tournament's results: a canonical text of every config
// value that decides the schedule or the games (game, time, schedule,
// openings, seed, bots), one `key: value` per line. Values that only decide
// how fast it runs (concurrency, database) are left out, so a resumed run
// may change them. Comparing two fingerprints line by line tells the user
// exactly what changed.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "arena/tournament/config.hpp"

namespace arena::tournament {

[[nodiscard]] std::string fingerprint(const Config& config);

// The end of `bot`'s line in the fingerprint: its own time control, when it
// differs from the config's (" time: move_ms=50 tolerance_ms=10 game_ms=0
// inc_ms=0"), and its search limits (" depth=2 nodes=1000"); "" for a bot
// that plays under the config's time without limits, so that the
// fingerprints of configs without them stay as they were.
[[nodiscard]] std::string bot_odds_text(const Config& config, const BotConfig& bot);

// The first line that differs, as "was: ... / now: ...", or nullopt when equal.
[[nodiscard]] std::optional<std::string> fingerprint_difference(const std::string& stored,
                                                                const std::string& current);

// Lower-case hex SHA-256 of a file's content; empty when it cannot be read.
[[nodiscard]] std::string sha256_file(const std::filesystem::path& path);
// Lower-case hex SHA-256 of `text`.
[[nodiscard]] std::string sha256_text(std::string_view text);

}  // namespace arena::tournament
