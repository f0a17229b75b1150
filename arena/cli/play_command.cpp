// `arena play`: a person against a bot in the terminal. The board is drawn
// as `arena show` draws it, the person types moves in the game's notation,
// the bot plays as in any match (its own session, the arena's clock and
// judging), and the bot's `info` lines are shown as they came, escaped.
// With --db the game is stored like any other (arena/serve/play_store.hpp).

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/bot_options.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/games/registry.hpp"
#include "arena/record/escape.hpp"
#include "arena/serve/play_store.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/terminal/terminal_play.hpp"
#include "arena/tournament/bot_argument.hpp"
#include "arena/tournament/config.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;
using Millis = std::chrono::milliseconds;

constexpr std::string_view kPlayUsage = R"(usage: arena play --game GAME [options] BOT

Plays one game against BOT in the terminal: you type your moves, the bot
plays under the arena's clock and judging, as in arena match. BOT is one
argument, '[name=]command [args...]', as for arena match.

Moves are typed in the game's notation:
  connect4  the column number, 1 at the left ("4")
  gomoku    the column letter and the row number, a1 at the bottom left ("h8")
  reversi   the column letter and the row number, a1 at the top left ("d3");
            when you have no move, the arena passes for you
A move the rules refuse (not a move of the game, or an illegal one) is
refused and you are asked again; it does not lose the game. You have no time
limit unless --human-ms is given. Type 'help' for this list, 'board' to see
the board again, 'quit' (or end the input) to leave: a game left unfinished
is not a result and is not stored.

With --db FILE the finished game is stored in that results database as a
game of the tournament '<name>-vs-<bot>-<game>' (arena standings, games,
show and report work on it).

example:
  arena play --game connect4 --move-ms 500 build/bots/c4-alphabeta
  arena play --game gomoku --size 9 --color second --db results/me.db \
      'random=build/bots/random --game gomoku'

)";

struct PlayArgs : terminal::PlaySetup {
    std::string command;  // as typed
    std::string db;
    std::uint64_t seed = 1;
};

std::optional<PlayArgs> parse_args(const std::vector<std::string>& args, std::ostream& out,
                                   std::ostream& err, int& exit_code) {
    po::options_description opts("options");
    std::int64_t move_ms = 1000, tolerance_ms = match::kDefaultTolerance.count(), human_ms = 0;
    PlayArgs p;
    BotRunOptions run_options;
    std::string color = "first", protocol = "arena1", dir;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("game", po::value<std::string>(&p.game)->required(), "connect4, gomoku or reversi");
    add_board_options(opts, "connect4: 'tsinghua' (a 9..12 x 9..12 board with one blocked cell, drawn from --seed)");
    opts.add_options()
        ("seed", po::value<std::uint64_t>(&p.seed)->default_value(1), "seed of the board of --variant tsinghua")
        ("color", po::value<std::string>(&color)->default_value(color), "first (you move first) or second")
        ("move-ms", bounded_integer("move-ms", 1, tournament::bounds::kMaxMillis, &move_ms), "the bot's time per move in ms")
        ("tolerance-ms", bounded_integer("tolerance-ms", 0, tournament::bounds::kMaxMillis, &tolerance_ms), "extra time before a move is lost on time")
        ("human-ms", bounded_integer("human-ms", 0, tournament::bounds::kMaxMillis, &human_ms), "your time per move in ms (0: no limit)")
        ("name", po::value<std::string>(&p.person)->default_value(p.person), "your name in the results")
        ("db", po::value<std::string>(&p.db), "store the game in this results database")
        ("dir", po::value<std::string>(&dir), "directory the bot starts in, from which its command is taken (default: the current one)")
        ("protocol", po::value<std::string>(&protocol)->default_value(protocol), "the protocol the bot speaks: arena1, gomocup, nboard or tsinghua-so");
    // clang-format on
    run_options.add_startup_options(opts);
    run_options.add_limit_options(opts);
    CommandLine line{"play", kPlayUsage, opts};
    std::vector<std::string> bots;  // BOT, as typed
    line.arguments.add_options()("bot", po::value<std::vector<std::string>>(&bots), "bot");
    line.positional.add("bot", -1);
    if (const auto done =
            parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
                if (bots.size() != 1)
                    throw std::invalid_argument("expected one bot, got " +
                                                std::to_string(bots.size()));
                p.command = bots[0];
                p.bot = tournament::parse_bot_argument(bots[0]);
                tournament::set_bot_dir(p.bot, dir);
                terminal::seat_person(p, color);
                terminal::set_clocks(p, Millis{move_ms}, Millis{tolerance_ms}, Millis{human_ms});
                session::Isolation isolation;
                run_options.apply(isolation, p.session);
                p.bot.isolation = isolation;
                tournament::set_bot_protocol(p.bot, protocol);
                p.params = board_params(vm);
                terminal::settle_board(p, p.seed);
            })) {
        exit_code = *done;
        return std::nullopt;
    }
    return p;
}

}  // namespace

int play_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    int exit_code = kExitOk;
    const auto parsed = parse_args(args, out, err, exit_code);
    if (!parsed) return exit_code;
    const PlayArgs& p = *parsed;
    const auto game = games::make_game(p.game, p.params);

    std::optional<serve::PlayStore> stored;
    if (!p.db.empty()) {
        try {
            stored.emplace(p.db);
        } catch (const std::exception& e) {
            err << "arena play: " << e.what() << "\n";
            return kExitFailure;
        }
    }
    out << terminal::intro_text(p, *game) << std::flush;

    session::BotHost host;  // the bot's processes
    terminal::TerminalMatch terminal_match(host, p, *game, out);
    record::GameRecord record;
    bool interrupted = false;
    {
        StopOnSignal signals;
        try {
            record = terminal_match.play(signals.token());
        } catch (const session::SpawnError& e) {
            err << "arena play: " << e.what() << "\n";
            return kExitFailure;
        }
        interrupted = signals.stopped();
    }
    terminal_match.retire();
    if (record.abandoned) {
        err << "arena play: " << (interrupted ? "interrupted" : "you left the game")
            << "; it is not a result and was not stored\n";
        return interrupted ? 130 : kExitFailure;
    }
    out << terminal::result_text(p, *game, record);
    if (stored) {
        try {
            const auto where =
                stored->store(record, p.human_side, serve::bot_entry(p.bot, p.command));
            out << "stored as game " << where.game_id << " of tournament '"
                << record::escape_controls(where.tournament) << "' in " << p.db << "\n";
        } catch (const std::exception& e) {
            err << "arena play: " << e.what() << "\n";
            return kExitFailure;
        }
    }
    out << std::flush;
    return kExitOk;
}

}  // namespace arena::cli
