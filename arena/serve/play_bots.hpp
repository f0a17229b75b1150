#pragma once
// The bots /play offers (arena serve): those given as --play-bot, then those
// of the served tournaments, each program once.

#include <iosfwd>
#include <string>
#include <vector>

#include "arena/serve/play_session.hpp"
#include "arena/serve/served_database.hpp"
#include "arena/session/session.hpp"

namespace arena::serve {

// The bots of `play_bot_args` ('[name=]command' each; a bad one throws
// std::invalid_argument), then those of `databases` not already offered (by
// name, command and protocol), with every game each was seen playing, all
// with `isolation`. A stored bot that cannot be read is left out, said on
// `err`.
[[nodiscard]] std::vector<PlayBot> play_bots(const std::vector<std::string>& play_bot_args,
                                             const std::vector<ServedDatabase*>& databases,
                                             const session::Isolation& isolation,
                                             std::ostream& err);

}  // namespace arena::serve
