// `arena`: the command-line entry point. Dispatches to the subcommands.

#include <csignal>
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
  export     write stored games as PGN, CSV, Connect-4 move strings, psq or GGF
  help       show this text (arena <command> --help for a command's options)

Bots are executables that speak protocol v1 (protocol/PROTOCOL.md).
)";

// SIGXFSZ (a write past RLIMIT_FSIZE) would kill the arena with a core dump;
// caught, the write fails with EFBIG and becomes an error message naming the
// file. A handler, not SIG_IGN: an ignored signal stays ignored across exec
// and bots would inherit that, a caught one is reset to the default.
void on_file_too_large(int) {}

}  // namespace

int main(int argc, char** argv) {
    using namespace arena::cli;
    struct sigaction action {};
    action.sa_handler = on_file_too_large;
    sigemptyset(&action.sa_mask);
    sigaction(SIGXFSZ, &action, nullptr);
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
    if (command == "export") return export_command(args, std::cout, std::cerr);
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
