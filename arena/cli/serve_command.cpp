// `arena serve DB...`: a local web server for results databases, live, and
// for games against bots on /play (arena/serve/, docs/serve.md).

#include <boost/asio/ip/address.hpp>
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "arena/cli/bot_options.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/league/league_server.hpp"
#include "arena/record/escape.hpp"
#include "arena/serve/running_server.hpp"
#include "arena/session/bot_host.hpp"

namespace arena::cli {

namespace po = boost::program_options;

namespace {

constexpr std::string_view kUsage = R"(usage: arena serve DB... [options]

Serves the results databases DB... on a local web page, live: an index of
their tournaments, each tournament's standings and games (updated as a
running `arena run` stores games), every game in the replay viewer, the
page `arena report` writes, and /play, where you play a game against a bot
by clicking. Everything is read-only except /play. Ctrl-C stops the server.

/play offers the bots of --play-bot NAME=COMMAND (repeatable) and the bots
of the served tournaments (their stored commands, run from the current
directory; --no-db-bots leaves them out). A request never names a command,
only one of these bots. The bot plays as in any match, under the arena's
clock and judging; the finished game is stored in --play-db FILE (created
when missing, and served too), by default the first DB. --no-play turns
/play off.

The server listens on 127.0.0.1 and answers only requests addressed to
localhost. --bind to another address needs --league, whose pages have
accounts; put a TLS proxy in front of it (docs/league.md). See docs/serve.md.

--league CONFIG runs a league (docs/league.md): participants sign in on
/league with their tokens (arena league user add), upload their bots, which
are checked and then play the config's standing tournament while the server
runs, and read their own check logs and games on /me. DB may be left out: it
is the config's database.

examples:
  arena serve results/demo.db --port 8080 --play-bot 'alphabeta=build/bots/c4-alphabeta'
  arena serve --league configs/league.yaml

)";

// Whether `bind` is a loopback address; an address that does not parse is
// left for the server to name.
bool loopback_address(const std::string& bind) {
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(bind, ec);
    return ec || address.is_loopback();
}

// Starts a Server (serve::RunningServer, league::LeagueServer) from
// `options`, says where it is (and `advice`, when given), and serves until
// SIGINT or SIGTERM.
template <class Server, class Options>
int serve_until_stopped(const Options& options, std::ostream& out, std::ostream& err,
                        const char* advice = nullptr) {
    // Blocked in every thread from here on, so the server's threads leave
    // SIGINT and SIGTERM to this one.
    StopOnSignal signals;
    session::BotHost host;  // the bots the server starts
    std::optional<Server> server;
    try {
        server.emplace(host, options, err);
    } catch (const std::invalid_argument& e) {
        err << "arena serve: " << record::escape_controls(e.what()) << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        err << "arena serve: " << record::escape_controls(e.what()) << "\n";
        return kExitFailure;
    }
    if (advice != nullptr) err << advice;
    out << "arena serve: " << server->describe() << "; Ctrl-C stops it" << std::endl;
    while (!signals.stopped())
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server.reset();
    out << "arena serve: stopped" << std::endl;
    return kExitOk;
}

}  // namespace

int serve_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description opts("options");
    serve::ServeSetup setup;
    int port = 8080;
    bool no_db_bots = false, no_play = false;
    std::int64_t idle_s = 30, max_move_ms = 60'000;
    BotRunOptions run_options;
    std::string league;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("port", po::value<int>(&port)->default_value(port), "TCP port (0: any free port, printed at start)")
        ("bind", po::value<std::string>(&setup.server.bind)->default_value(setup.server.bind), "address to listen on (other than loopback: with --league only)")
        ("league", po::value<std::string>(&league), "CONFIG: run this league (sign-in, uploads, checks, play)")
        ("play-bot", po::value<std::vector<std::string>>(&setup.play_bot_args)->composing(), "NAME=COMMAND: a bot /play offers (repeatable)")
        ("play-db", po::value<std::string>(&setup.play_db), "store /play games in this results database (default: the first DB)")
        ("no-db-bots", po::bool_switch(&no_db_bots), "offer on /play only the bots of --play-bot")
        ("no-play", po::bool_switch(&no_play), "no /play")
        ("play-max", po::value<std::size_t>(&setup.play_max)->default_value(setup.play_max), "games on /play at once")
        ("play-idle-s", po::value<std::int64_t>(&idle_s)->default_value(idle_s), "a /play game whose page has not been heard from for this long is ended")
        ("max-move-ms", po::value<std::int64_t>(&max_move_ms)->default_value(max_move_ms), "the longest move_ms /play allows");
    // clang-format on
    run_options.add_startup_options(opts);
    run_options.add_limit_options(opts);
    CommandLine line{"serve", kUsage, opts};
    line.arguments.add_options()("db", po::value<std::vector<std::string>>(&setup.databases), "db");
    line.positional.add("db", -1);
    if (const auto done = parse_command_line(line, args, out, err, [&](const po::variables_map&) {
            if (!league.empty()) {
                setup.play_db = "-";  // a league has its database; setup_problem wants one
                if (setup.databases.size() > 1)
                    throw std::invalid_argument("--league serves its config's database only");
            }
            setup.idle = std::chrono::seconds(idle_s);
            setup.max_move_ms = match::Millis{max_move_ms};
            if (const auto problem = serve::setup_problem(setup, port); !problem.empty())
                throw std::invalid_argument(problem);
            run_options.apply(setup.isolation, setup.session);
        }))
        return *done;
    if (!league.empty()) {
        league::LeagueServerOptions options;
        options.config = league;
        options.server = setup.server;
        options.server.port = static_cast<unsigned short>(port);
        return serve_until_stopped<league::LeagueServer>(
            options, out, err, loopback_address(setup.server.bind) ? nullptr : league::kTlsAdvice);
    }
    if (!loopback_address(setup.server.bind)) {
        err << "arena serve: --bind " << record::escape_controls(setup.server.bind)
            << " is reachable from other machines; that needs --league, whose pages have "
               "accounts (docs/league.md)\n";
        return kExitUsage;
    }
    setup.play = !no_play;
    setup.db_bots = !no_db_bots;
    setup.server.port = static_cast<unsigned short>(port);

    return serve_until_stopped<serve::RunningServer>(setup, out, err);
}

}  // namespace arena::cli
