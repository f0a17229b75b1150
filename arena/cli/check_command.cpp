// `arena check-bot`: the checks of one bot before it is submitted (short
// games against the arena's random moves, and protocol probes), one line per
// check, or all of them as JSON.

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/check/bot_kind.hpp"
#include "arena/check/check.hpp"
#include "arena/check/plan.hpp"
#include "arena/check/report.hpp"
#include "arena/cli/bot_options.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/record/escape.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/tournament/bot_argument.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCheckUsage =
    R"(usage: arena check-bot [--game GAME] [--protocol P] [options] COMMAND [ARGS...]

Checks one bot before it is submitted. The arena plays a scripted sequence of
short games against it with random legal moves of its own (no second bot is
needed), and probes its protocol, step by step: start-up and identity, both
sides, several games in one process, every board the game allows, a game from
an opening position, unknown commands and keys, one move per go, quit, a
flushed stdout, time use, input from stdin only, and memory. It prints one
line per check: ok, FAIL (followed by what was sent, what came back, the end
of the bot's stderr, and what was expected), warn, or skip (the check does not
apply to the bot's protocol). protocol/PROTOCOL.md, "Before you submit", says
what each check asks for.

COMMAND is the bot's command, with its arguments: everything after the
options (`--` ends the options), or one argument split like a shell splits
words. A command that is one path ending in .so is a Tsinghua strategy
library (protocol/TSINGHUA.md), as with --protocol tsinghua-so.

--game may be left out when the protocol implies it: gomocup plays gomoku,
nboard reversi, tsinghua-so connect4. The bot starts in the current
directory, or in --dir D, from which a relative command is taken. The limits
and sandbox options are those of `arena match`.

Exit status: 0 when no check failed (warnings and skips pass), 1 when one did,
2 for bad arguments.

example:
  arena check-bot --game connect4 build/bots/random
  arena check-bot --game connect4 --move-ms 200 python3 bots/examples/random_bot.py
  arena check-bot --protocol gomocup build/bots/pbrain-sample
  arena check-bot --json --game reversi build/bots/reversi-greedy

)";

struct CheckArgs {
    check::CheckOptions options;
    std::string command;  // as typed, for the header line
    bool json = false;
};

// Splits the arguments into the options and the bot's command: the command
// starts at the first word that is neither an option nor an option's value,
// or after `--`.
void split_command_words(const std::vector<std::string>& args, const po::options_description& opts,
                         std::vector<std::string>& options, std::vector<std::string>& command) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            command.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            return;
        }
        if (a.size() < 2 || a[0] != '-') {
            command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
            return;
        }
        options.push_back(a);
        if (a.find('=') != std::string::npos) continue;
        const std::string name = a.substr(a.find_first_not_of('-'));
        const auto* option = opts.find_nothrow(name, false);
        if (option != nullptr && option->semantic()->max_tokens() > 0 && i + 1 < args.size())
            options.push_back(args[++i]);
    }
}

std::optional<CheckArgs> parse_args(const std::vector<std::string>& args, std::ostream& out,
                                    std::ostream& err, int& exit_code) {
    po::options_description opts("options");
    CheckArgs c;
    check::CheckOptions& o = c.options;
    std::string protocol = "arena1";
    std::string dir;
    std::int64_t move_ms = 1000, tolerance_ms = match::kDefaultTolerance.count();
    BotRunOptions run_options;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("game", po::value<std::string>(&o.game), "connect4, gomoku or reversi (default: the one the protocol plays, if only one)")
        ("protocol", po::value<std::string>(&protocol)->default_value(protocol), "the protocol the bot speaks: arena1, gomocup, nboard or tsinghua-so")
        ("move-ms", bounded_integer("move-ms", 1, tournament::bounds::kMaxMillis, &move_ms), "time per move in ms")
        ("tolerance-ms", bounded_integer("tolerance-ms", 0, tournament::bounds::kMaxMillis, &tolerance_ms), "extra time before a move is lost on time")
        ("seed", po::value<std::uint64_t>(&o.seed)->default_value(1), "seed of the arena's moves and openings")
        ("dir", po::value<std::string>(&dir), "directory the bot starts in, from which its command is taken (default: the current one)")
        ("json", po::bool_switch(&c.json), "print the checks as one JSON array on stdout");
    // clang-format on
    run_options.add_startup_options(opts);
    run_options.add_limit_options(opts);

    std::vector<std::string> option_words, command;
    split_command_words(args, opts, option_words, command);
    const CommandLine line{"check-bot", kCheckUsage, opts};
    if (const auto done =
            parse_command_line(line, option_words, out, err, [&](const po::variables_map& vm) {
                o.bot = tournament::bot_from_words(command);
                for (const auto& word : command)
                    c.command += (c.command.empty() ? "" : " ") + word;
                tournament::set_bot_dir(o.bot, dir);
                const bool library = tournament::runs_so_host(o.bot.argv);
                if (library && vm["protocol"].defaulted()) protocol = tournament::kTsinghuaSo;
                tournament::set_bot_protocol(o.bot, protocol);
                check::set_kind_and_game(
                    o, protocol == tournament::kTsinghuaSo || tournament::runs_so_host(o.bot.argv));
                o.time.move = match::Millis{move_ms};
                o.time.tolerance = match::Millis{tolerance_ms};
                if (move_ms <= 0) throw std::invalid_argument("--move-ms must be positive");
                if (auto problem = o.time.validate(); !problem.empty())
                    throw std::invalid_argument(problem);
                run_options.apply(o.bot.isolation, o.session);
                // The plan refuses a game the bot's kind cannot play.
                (void)check::make_plan(o.game, o.kind, o.seed);
            })) {
        exit_code = *done;
        return std::nullopt;
    }
    return c;
}

}  // namespace

int check_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    int exit_code = kExitOk;
    const auto parsed = parse_args(args, out, err, exit_code);
    if (!parsed) return exit_code;
    const CheckArgs& c = *parsed;
    session::BotHost host;  // the bot's processes, while the checks run
    err << host.describe_limits(c.options.bot.isolation.cgroup) << "\n";
    std::vector<check::CheckResult> results;
    try {
        results = check::print_checks(host, c.options, c.command, c.json, out);
    } catch (const std::exception& e) {
        err << "arena check-bot: " << record::escape_controls(e.what()) << "\n";
        return kExitFailure;
    }
    return check::all_passed(results) ? kExitOk : kExitFailure;
}

}  // namespace arena::cli
