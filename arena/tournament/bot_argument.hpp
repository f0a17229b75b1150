#pragma once
// A bot given on a command line ("[name=]command [args...]", or a Tsinghua
// strategy library) and the protocol named for it, as `arena match`, `play`,
// `check-bot` and `serve --play-bot` read them.

#include <string>
#include <vector>

#include "arena/games/game.hpp"
#include "arena/session/session.hpp"

namespace arena::tournament {

// "[name=]command [args...]" -> BotSpec, the command split like a shell
// splits words. The name defaults to the command's file name. A command that
// is one path ending in .so is a Tsinghua strategy library, played through
// arena-so-host and named after the file. Throws std::invalid_argument.
[[nodiscard]] session::BotSpec parse_bot_argument(const std::string& arg);

// A bot given as its command's words (`arena check-bot COMMAND [ARGS...]`):
// one word is a bot argument (parse_bot_argument); several are the command
// and its arguments as they are, the bot named after the command's file.
// Throws std::invalid_argument, also for no words ("no bot command given").
[[nodiscard]] session::BotSpec bot_from_words(const std::vector<std::string>& words);

// Starts `spec` in the folder `dir` (--dir), from which its command is
// taken; "" leaves it where it is. Throws std::invalid_argument("--dir 'D'
// is not a directory").
void set_bot_dir(session::BotSpec& spec, const std::string& dir);

// Makes `spec`, whose argv is one path, play that Tsinghua strategy library
// through arena-so-host (protocol/TSINGHUA.md). Done already: nothing to do.
// Throws std::invalid_argument.
void play_strategy_library(session::BotSpec& spec);

// Makes `spec` speak `protocol`: "arena1", "gomocup", "nboard", or
// "tsinghua-so" (a strategy library through arena-so-host). Throws
// std::invalid_argument for an unknown name.
void set_bot_protocol(session::BotSpec& spec, const std::string& protocol);

// Throws std::invalid_argument("bot 'NAME': ...") when `bot` cannot play
// `game` on the board of `params`: its protocol does not play it, or it is
// a strategy library (played through arena-so-host) and the board is not one
// a strategy library plays.
void check_bot_game(const session::BotSpec& bot, const std::string& game,
                    const games::Params& params);

}  // namespace arena::tournament
