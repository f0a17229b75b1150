#pragma once
// The command line shared by the reference bots:
//   <bot> [--seed N] [--level N] [--bench] [--help] [bot-specific flags]
// --bench runs the bot's fixed benchmark (fixed depth or simulations) and
// prints the node count, identical on every run, and the speed. Otherwise
// the bot speaks protocol v1 on stdin/stdout.

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "bots/common/bot_loop.hpp"

namespace arena::bots {

struct CommonFlags {
    std::uint64_t seed = 1;
    std::optional<int> level;  // weaker versions: 1 = weakest; absent = full strength
};

struct BotProgram {
    BotInfo info;
    std::string summary;  // one line for --help
    // The bot's own flags, bound to its variables; may be empty.
    boost::program_options::options_description flags{"bot options"};
    std::function<std::unique_ptr<Engine>(const CommonFlags&)> make_engine;
    // Prints "nodes <n>" and "nps <n>" lines; returns the exit code. Empty
    // for a bot without a search.
    std::function<int(const CommonFlags&)> bench;
    // Runs after the protocol loop ends, with its exit code (e.g. a test bot
    // that refuses to exit); returns the process's exit code.
    std::function<int(int)> after_loop;
};

// Parses the command line and runs the bot. Bad flags: a message and a usage
// line on stderr, exit 2; an engine that cannot be made (make_engine throws):
// a message on stderr, exit 2.
int bot_main(int argc, char** argv, BotProgram& program);

}  // namespace arena::bots
