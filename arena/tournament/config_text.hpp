#pragma once
// A config written back as YAML, for a tournament made without a file
// (`arena match`): what the results database keeps as the tournament's
// config, so that `arena show`, `standings`, `report` and `merge` read it
// like any other. parse_config() of the text gives the same settings.

#include <string>

#include "arena/tournament/config.hpp"

namespace arena::tournament {

// The settings of `config` as a config file: name, game, time, schedule,
// openings, seed and bots (each bot's command as its words, quoted as
// needed). `comment` (one line, e.g. the command line) comes first as a YAML
// comment; "" for none.
[[nodiscard]] std::string config_text(const Config& config, const std::string& comment = "");

}  // namespace arena::tournament
