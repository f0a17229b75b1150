#pragma once
// Where `check: true` (docs/config.md) keeps what the submission checks
// found, next to the tournament's database: the submissions module writes
// them before a run, `arena grade` reads them.

#include <filesystem>
#include <string>

#include "arena/tournament/config.hpp"

namespace arena::tournament {

// The table of the programs that passed their checks.
[[nodiscard]] inline std::filesystem::path passed_checks_file(const Config& config) {
    return config.database.parent_path() / (config.name + ".checked");
}

// The log of bot `bot`'s failed check.
[[nodiscard]] inline std::filesystem::path check_log_file(const Config& config,
                                                          const std::string& bot) {
    return config.database.parent_path() / (config.name + "." + bot + ".check.txt");
}

}  // namespace arena::tournament
