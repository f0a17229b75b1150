#pragma once
// Which protocol a bot speaks: the arena's own (protocol/PROTOCOL.md) or that
// of a family of community engines the arena talks to unmodified through an
// adapter session (protocol/GOMOCUP.md, protocol/NBOARD.md). A property of
// the bot: `protocol:` in a config, `--protocol` on `arena match`.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arena/games/game.hpp"

namespace arena::session {

enum class BotProtocol : std::uint8_t {
    kArena1,   // arena protocol v1, any game
    kGomocup,  // Gomocup / Piskvork brains (pbrain-*), Gomoku only
    kNboard,   // NBoard Othello engines, Reversi only
};

// The spelling in configs and on the command line: "arena1", "gomocup", "nboard".
[[nodiscard]] std::string_view to_string(BotProtocol protocol);
// nullopt for an unknown name.
[[nodiscard]] std::optional<BotProtocol> parse_bot_protocol(std::string_view name);
// Every name, for messages: "'arena1', 'gomocup' or 'nboard'".
[[nodiscard]] std::string bot_protocol_names();

// Empty when a bot speaking `protocol` can play `game` with `params` (the
// realized parameters, or a config's, which may describe a family); else why
// not, for people: "protocol 'nboard' plays only reversi".
[[nodiscard]] std::string protocol_problem(BotProtocol protocol, std::string_view game,
                                           const games::Params& params);

// What a move of `game` (with `params`, realized or a config's) looks like
// on a bot's stdout in `protocol`, for people: "`move <column>` (1..7, not
// full)", "`move <cell>` (a free cell a1..o15 such as h8: ...)". The hint
// after a reply that is not a move, in `arena check-bot`, `match` and `run`.
[[nodiscard]] std::string move_form(BotProtocol protocol, std::string_view game,
                                    const games::Params& params);

}  // namespace arena::session
