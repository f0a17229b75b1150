// The subcommands' dispatch: the whole command line of `arena`, in-process.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/suggest.hpp"

namespace arena::cli {

namespace {

constexpr std::string_view kUsage = R"(usage: arena <command> [options]

commands:
  run        play a tournament from a YAML config into its results database
  tune       tune a bot's parameters by SPSA from games, stored and resumable
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
  league     the users of a league: add, list, disable, reset their tokens
  submit     upload a bot to a league server (arena serve --league) from a script
  help       show this text (arena <command> --help for a command's options)

Bots are executables that speak protocol v1 (protocol/PROTOCOL.md).
)";

using Command = int (*)(const std::vector<std::string>&, std::ostream&, std::ostream&);

struct Entry {
    std::string_view name;
    Command run;
};

constexpr Entry kCommands[] = {
    {"run", run_command},         {"match", match_command},     {"standings", standings_command},
    {"games", games_command},     {"show", show_command},       {"report", report_command},
    {"log", log_command},         {"rate", rate_command},       {"export", export_command},
    {"sprt", sprt_command},       {"play", play_command},       {"serve", serve_command},
    {"check-bot", check_command}, {"grade", grade_command},     {"merge", merge_command},
    {"slurm", slurm_command},     {"upgrade", upgrade_command}, {"tune", tune_command},
    {"league", league_command},   {"submit", submit_command},
};

}  // namespace

int dispatch(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    if (argv.empty()) {
        err << kUsage;
        return kExitUsage;
    }
    const std::string& command = argv.front();
    const std::vector<std::string> args(argv.begin() + 1, argv.end());
    for (const auto& c : kCommands)
        if (command == c.name) return c.run(args, out, err);
    if (command == "help" || command == "--help" || command == "-h") {
        out << kUsage;
        return kExitOk;
    }
    if (command == "--version") {
        out << "arena 0.1.0 (protocol 1)\n";
        return kExitOk;
    }
    std::vector<std::string_view> names{"help"};
    for (const auto& c : kCommands)
        names.push_back(c.name);
    const std::string hint = record::suggestion(command, names);
    err << "arena: unknown command '" << record::escape_controls(command) << "'" << hint << "\n";
    if (hint.empty()) {
        err << "\n" << kUsage;
    } else {
        err << "(arena help lists the commands)\n";
    }
    return kExitUsage;
}

}  // namespace arena::cli
