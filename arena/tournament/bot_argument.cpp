#include "arena/tournament/bot_argument.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "arena/session/bot_protocol.hpp"
#include "arena/session/command_line.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::tournament {

void play_strategy_library(session::BotSpec& spec) {
    if (std::filesystem::path(spec.argv.front()).filename() == kSoHostName) return;
    if (spec.argv.size() != 1) {
        throw std::invalid_argument("bot '" + spec.name +
                                    "': a strategy library bot is one path, without arguments");
    }
    const std::filesystem::path library = spec.argv[0];
    const auto host = find_so_host();
    if (!host) {
        throw std::invalid_argument("the strategy library " + library.string() +
                                    " needs arena-so-host, which is neither next to the arena "
                                    "executable nor in PATH");
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(library, ec))
        throw std::invalid_argument("strategy library '" + library.string() + "' not found");
    spec.argv = so_host_argv(*host, library);
}

session::BotSpec parse_bot_argument(const std::string& arg) {
    session::BotSpec spec;
    std::string command = arg;
    const auto eq = arg.find('=');
    const auto space = arg.find_first_of(" \t");
    if (eq != std::string::npos && eq > 0 && (space == std::string::npos || eq < space)) {
        spec.name = arg.substr(0, eq);
        command = arg.substr(eq + 1);
    }
    spec.argv = session::split_command(command);
    if (spec.argv.size() == 1 && spec.argv[0].ends_with(".so")) {
        if (spec.name.empty()) spec.name = std::filesystem::path(spec.argv[0]).stem().string();
        play_strategy_library(spec);
    }
    if (spec.name.empty()) spec.name = std::filesystem::path(spec.argv[0]).filename().string();
    return spec;
}

session::BotSpec bot_from_words(const std::vector<std::string>& words) {
    if (words.empty()) throw std::invalid_argument("no bot command given");
    if (words.size() == 1) return parse_bot_argument(words[0]);
    session::BotSpec spec;
    spec.argv = words;
    spec.name = std::filesystem::path(words[0]).filename().string();
    return spec;
}

void set_bot_dir(session::BotSpec& spec, const std::string& dir) {
    if (dir.empty()) return;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        throw std::invalid_argument("--dir '" + dir + "' is not a directory");
    spec.working_dir = dir;
}

void set_bot_protocol(session::BotSpec& spec, const std::string& protocol) {
    if (protocol == kTsinghuaSo) {  // a v1 bot: arena-so-host
        play_strategy_library(spec);
        spec.protocol = session::BotProtocol::kArena1;
        return;
    }
    const auto parsed = session::parse_bot_protocol(protocol);
    if (!parsed) {
        throw std::invalid_argument("unknown protocol '" + protocol + "' (expected " +
                                    session::bot_protocol_names() + ", or '" +
                                    std::string(kTsinghuaSo) + "')");
    }
    spec.protocol = *parsed;
}

void check_bot_game(const session::BotSpec& bot, const std::string& game,
                    const games::Params& params) {
    if (const auto problem = session::protocol_problem(bot.protocol, game, params);
        !problem.empty())
        throw std::invalid_argument("bot '" + bot.name + "': " + problem);
    if (std::filesystem::path(bot.argv.front()).filename() == kSoHostName) {
        const std::string problem = tsinghua_game_problem(game, params);
        if (!problem.empty()) throw std::invalid_argument("bot '" + bot.name + "': " + problem);
    }
}

}  // namespace arena::tournament
