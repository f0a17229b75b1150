// `arena match`: N games between two bots, alternating who moves first,
// with a line per finished game and a summary per bot; with --sprt, played
// in colour-swapped pairs until the GSPRT decides (docs/ratings.md).

#include <array>
#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "arena/cli/bot_options.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/report/head_to_head_text.hpp"
#include "arena/report/sprt_text.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/match_config.hpp"
#include "arena/tournament/match_help.hpp"
#include "arena/tournament/match_lines.hpp"
#include "arena/tournament/match_run.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

struct MatchArgs : tournament::MatchSettings {
    bool json = false;  // the summary as one JSON object on stdout
};

// Parses the arguments; on a usage error prints it and returns nullopt
// with `exit_code` set.
std::optional<MatchArgs> parse_args(const std::vector<std::string>& args, std::ostream& out,
                                    std::ostream& err, int& exit_code) {
    po::options_description opts("options");
    MatchArgs m;
    BotRunOptions run_options;
    std::array<std::string, 3> protocols;  // --protocol, --protocol1, --protocol2
    std::array<std::string, 3> dirs;       // --dir, --dir1, --dir2
    std::string sprt_text;
    std::string openings_text;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("game", po::value<std::string>(&m.game)->required(), "connect4, gomoku or reversi");
    add_board_options(opts, "connect4: 'tsinghua' (9..12 x 9..12, one blocked cell, drawn per game pair)");
    opts.add_options()
        ("games", bounded_integer("games", 1, tournament::bounds::kMaxGames, &m.games), "number of games (with --sprt: the most, default 20000)")
        ("sprt", po::value<std::string>(&sprt_text), "elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]: play colour-swapped pairs until the GSPRT accepts H0 or H1")
        ("move-ms", bounded_integer("move-ms", 0, tournament::bounds::kMaxMillis, 3000, [&m](std::int64_t v) { m.time.move = match::Millis{v}; }), "time per move in ms")
        ("tolerance-ms", bounded_integer("tolerance-ms", 0, tournament::bounds::kMaxMillis, match::kDefaultTolerance.count(), [&m](std::int64_t v) { m.time.tolerance = match::Millis{v}; }), "extra time before a move is lost on time")
        ("game-ms", bounded_integer("game-ms", 0, tournament::bounds::kMaxMillis, 0, [&m](std::int64_t v) { m.time.game = match::Millis{v}; }), "game clock per player in ms (0: none)")
        ("inc-ms", bounded_integer("inc-ms", 0, tournament::bounds::kMaxMillis, 0, [&m](std::int64_t v) { m.time.increment = match::Millis{v}; }), "increment per move in ms (with --game-ms)");
    for (const auto& o : tournament::kSideOptions)  // --move-ms1, --move-ms2, ..., --nodes2
        for (const int side : {1, 2})
            opts.add_options()((std::string(o.stem) + std::to_string(side)).c_str(), bounded_integer(std::string(o.stem) + std::to_string(side), o.lo, o.hi, std::nullopt, [&m, &o, side](std::int64_t v) { tournament::set_side_option(m, o.stem, side, v); }), tournament::side_option_help(o, side).c_str());
    run_options.add_startup_options(opts);
    opts.add_options()
        ("seed", po::value<std::uint64_t>(&m.seed)->default_value(1), "seed for boards and openings")
        ("openings", po::value<std::string>(&openings_text), "FILE: start each colour-swapped pair from an opening of this file; none: from the empty board (default: the game's balanced suite, when one is shipped for the board)")
        ("random-plies", bounded_integer("random-plies", 0, tournament::bounds::kMaxPlies, &m.random_plies), "random opening plies instead of a suite, shared by each colour-swapped pair")
        ("count-repeats", po::bool_switch(&m.count_repeats), "count a pair that repeats an earlier pair move for move like any other, in the verdict and --sprt (for bots known to be non-deterministic; docs/ratings.md)")
        ("json", po::bool_switch(&m.json), "print the summary as one JSON object on stdout")
        ("db", po::value<std::string>(&m.db), "also store the match in this results database")
        ("transcript", po::bool_switch(&m.session.transcript), "with --db: also store every line between the arena and the bots (arena log --transcript)")
        ("name", po::value<std::string>(&m.name), "the stored tournament's name, with --db (default: BOT1-vs-BOT2)")
        ("dir", po::value<std::string>(&dirs[0]), "directory both bots start in, from which their commands are taken (default: the current one)")
        ("dir1", po::value<std::string>(&dirs[1]), "directory BOT1 starts in (overrides --dir)")
        ("dir2", po::value<std::string>(&dirs[2]), "directory BOT2 starts in (overrides --dir)")
        ("protocol", po::value<std::string>(&protocols[0])->default_value("arena1"), "the protocol both bots speak: arena1, gomocup, nboard or tsinghua-so")
        ("protocol1", po::value<std::string>(&protocols[1]), "the protocol BOT1 speaks (overrides --protocol)")
        ("protocol2", po::value<std::string>(&protocols[2]), "the protocol BOT2 speaks (overrides --protocol)");
    // clang-format on
    run_options.add_limit_options(opts);
    const std::string usage =
        std::string(tournament::kMatchUsage) + std::string(report::kHeadToHeadLegend) + "\n";
    CommandLine line{"match", usage, opts};
    std::vector<std::string> bots;  // BOT1 and BOT2, as typed
    line.arguments.add_options()("bot", po::value<std::vector<std::string>>(&bots), "bot");
    line.positional.add("bot", -1);

    if (const auto done =
            parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
                tournament::read_match_bots(m, bots, dirs);
                m.args = args;
                tournament::check_match_settings(
                    m, vm.count("sprt") ? std::optional(sprt_text) : std::nullopt,
                    vm["games"].defaulted());
                run_options.apply(m.isolation, m.session);
                for (auto& bot : m.bots)
                    bot.isolation = m.isolation;
                tournament::set_match_protocols(m, protocols);
                m.params = board_params(vm);  // checked before any bot starts
                tournament::check_match_game(m, openings_text, !vm["random-plies"].defaulted());
            })) {
        exit_code = *done;
        return std::nullopt;
    }
    return m;
}

// The SPRT's text in the match's lines: the report's, as `arena sprt` prints it.
tournament::SprtText sprt_text(const MatchArgs& m) {
    return {report::sprt_llr_suffix,
            [&m](std::ostream& out, const tournament::OpponentTest& t) {
                const auto& [a, b] = std::pair(m.bots[0].name, m.bots[1].name);
                if (!m.sprt)
                    return report::print_pairs_block(out, a, b, t.pairs, t.games, t.repeated_pairs);
                report::print_sprt_block(out, a, b, *m.sprt, t.result, t.pairs, t.games,
                                         t.repeated_pairs);
            },
            [&m](const tournament::OpponentTest& t) {
                return report::sprt_test_json(*m.sprt, t.result, t.pairs, t.games, t.counted_pairs,
                                              t.repeated_pairs);
            },
            report::print_sprt_decision};
}

}  // namespace

// A two-bot run of the tournament runner: the match is a tournament of its
// own, stored in --db or in a database in memory.
int match_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    int exit_code = kExitOk;
    const auto parsed = parse_args(args, out, err, exit_code);
    if (!parsed) return exit_code;
    const MatchArgs& m = *parsed;
    session::BotHost host;  // the bots' processes, while the match runs
    err << host.describe_limits(m.isolation.cgroup) << "\n";

    tournament::Config config = tournament::match_config(m);
    std::optional<tournament::MatchRun> run;
    try {
        // With --json, stdout holds the JSON object only; game lines go to stderr.
        run.emplace(m, std::move(config), sprt_text(m), m.json ? err : out);
    } catch (const std::exception& e) {
        err << "arena match: " << e.what() << "\n";
        return kExitFailure;
    }
    std::string failure;
    bool interrupted = false;
    {
        StopOnSignal signals;
        failure = run->play(host, err, signals.token());
        interrupted = signals.stopped();
    }
    const auto end = run->finish(m.json, interrupted && failure.empty(), failure, out, err);
    return end == tournament::MatchEnd::kFailed        ? kExitFailure
           : end == tournament::MatchEnd::kInterrupted ? 130
                                                       : kExitOk;
}

}  // namespace arena::cli
