#pragma once
// A bot given on a command line ("[name=]command [args...]", or a Tsinghua
// strategy library) and the protocol named for it, as `arena match`, `play`,
// `check-bot` and `serve --play-bot` read them.

#include <string>

#include "arena/session/session.hpp"

namespace arena::tournament {

// "[name=]command [args...]" -> BotSpec, the command split like a shell
// splits words. The name defaults to the command's file name. A command that
// is one path ending in .so is a Tsinghua strategy library, played through
// arena-so-host and named after the file. Throws std::invalid_argument.
[[nodiscard]] session::BotSpec parse_bot_argument(const std::string& arg);

// Makes `spec`, whose argv is one path, play that Tsinghua strategy library
// through arena-so-host (protocol/TSINGHUA.md). Done already: nothing to do.
// Throws std::invalid_argument.
void play_strategy_library(session::BotSpec& spec);

// Makes `spec` speak `protocol`: "arena1", "gomocup", "nboard", or
// "tsinghua-so" (a strategy library through arena-so-host). Throws
// std::invalid_argument for an unknown name.
void set_bot_protocol(session::BotSpec& spec, const std::string& protocol);

}  // namespace arena::tournament
