// `arena`: the command-line entry point. Dispatches to the subcommands.

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "arena/cli/commands.hpp"

namespace {

constexpr std::string_view kUsage = R"(usage: arena <command> [options]

commands:
  run        play a tournament from a YAML config into its results database
  match      play games between two bots and print the results
  standings  print the standings of a stored tournament
  games      list the stored games of a tournament
  show       replay one stored game as text boards
  rate       fit Elo ratings to a CSV of games
  help       show this text (arena <command> --help for a command's options)

Bots are executables that speak protocol v1 (protocol/PROTOCOL.md).
)";

}  // namespace

int main(int argc, char** argv) {
    using namespace arena::cli;
    if (argc < 2) {
        std::cerr << kUsage;
        return kExitUsage;
    }
    const std::string command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (command == "run") return run_command(args, std::cout, std::cerr);
    if (command == "match") return match_command(args, std::cout, std::cerr);
    if (command == "standings") return standings_command(args, std::cout, std::cerr);
    if (command == "games") return games_command(args, std::cout, std::cerr);
    if (command == "show") return show_command(args, std::cout, std::cerr);
    if (command == "rate") return rate_command(args, std::cout, std::cerr);
    if (command == "help" || command == "--help" || command == "-h") {
        std::cout << kUsage;
        return kExitOk;
    }
    if (command == "--version") {
        std::cout << "arena 0.1.0 (protocol 1)\n";
        return kExitOk;
    }
    std::cerr << "arena: unknown command '" << command << "'\n\n" << kUsage;
    return kExitUsage;
}
