#pragma once
// How `arena check-bot` speaks to a bot (BotKind, check.hpp): from its
// protocol, the game that implies, and the kind's name in the report.

#include <optional>
#include <string>
#include <string_view>

#include "arena/check/check.hpp"
#include "arena/session/bot_protocol.hpp"

namespace arena::check {

// A Tsinghua strategy library (`strategy_library`: played through
// arena-so-host) whatever its host speaks; else a Gomocup brain, an NBoard
// engine, or a protocol v1 bot, by `protocol`.
[[nodiscard]] BotKind bot_kind(session::BotProtocol protocol, bool strategy_library);

// The one game a kind plays (gomocup: gomoku, nboard: reversi, tsinghua-so:
// connect4); nullopt for a protocol v1 bot, which plays them all.
[[nodiscard]] std::optional<std::string> implied_game(BotKind kind);

// Sets options.kind from the bot's protocol (bot_kind) and, when
// options.game is empty, the game that kind implies. Throws
// std::invalid_argument when it implies none: a protocol v1 bot needs --game.
void set_kind_and_game(CheckOptions& options, bool strategy_library);

// "arena1", "gomocup", "nboard", "tsinghua-so".
[[nodiscard]] std::string_view kind_name(BotKind kind);

}  // namespace arena::check
