// `arena`: the command-line entry point. Dispatches to the subcommands.

#include <csignal>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/suggest.hpp"

namespace {

constexpr std::string_view kUsage = R"(usage: arena <command> [options]

commands:
  run        play a tournament from a YAML config into its results database
  match      play games between two bots and print the results
  standings  print the standings of a stored tournament
  games      list the stored games of a tournament (--bot, --termination to filter)
  show       replay one stored game as text boards
  report     write a self-contained HTML report of a stored tournament, with replays
  log        print what the bots of one stored game wrote on stderr
  rate       fit Elo ratings to games in a CSV (arena export -f csv, or white,black,result)
  export     write stored games as PGN, CSV, Connect-4 move strings, psq or GGF
  sprt       the SPRT of a head-to-head from pair (or game) counts, with its Elo
  play       play a game against a bot in the terminal
  serve      a local web server: live standings, replays, play against a bot
  check-bot  check one bot before it is submitted: protocol, boards, time, memory
  grade      play a folder of submissions against references and print the grade table
  merge      merge results databases of the same tournament (the shards of run --shard)
  slurm      play a tournament on a Slurm cluster: a job array of shards, then a merge
  upgrade    bring results databases of an older arena to this arena's schema
  help       show this text (arena <command> --help for a command's options)

Bots are executables that speak protocol v1 (protocol/PROTOCOL.md).
)";

using Command = int (*)(const std::vector<std::string>&, std::ostream&, std::ostream&);

struct Entry {
    std::string_view name;
    Command run;
};

constexpr Entry kCommands[] = {
    {"run", arena::cli::run_command},
    {"match", arena::cli::match_command},
    {"standings", arena::cli::standings_command},
    {"games", arena::cli::games_command},
    {"show", arena::cli::show_command},
    {"report", arena::cli::report_command},
    {"log", arena::cli::log_command},
    {"rate", arena::cli::rate_command},
    {"export", arena::cli::export_command},
    {"sprt", arena::cli::sprt_command},
    {"play", arena::cli::play_command},
    {"serve", arena::cli::serve_command},
    {"check-bot", arena::cli::check_command},
    {"grade", arena::cli::grade_command},
    {"merge", arena::cli::merge_command},
    {"slurm", arena::cli::slurm_command},
    {"upgrade", arena::cli::upgrade_command},
};

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
    for (const auto& c : kCommands)
        if (command == c.name) return c.run(args, std::cout, std::cerr);
    if (command == "help" || command == "--help" || command == "-h") {
        std::cout << kUsage;
        return kExitOk;
    }
    if (command == "--version") {
        std::cout << "arena 0.1.0 (protocol 1)\n";
        return kExitOk;
    }
    std::vector<std::string_view> names{"help"};
    for (const auto& c : kCommands)
        names.push_back(c.name);
    const std::string hint = arena::record::suggestion(command, names);
    std::cerr << "arena: unknown command '" << arena::record::escape_controls(command) << "'"
              << hint << "\n";
    if (hint.empty()) {
        std::cerr << "\n" << kUsage;
    } else {
        std::cerr << "(arena help lists the commands)\n";
    }
    return kExitUsage;
}
