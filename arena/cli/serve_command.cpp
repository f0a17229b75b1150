// `arena serve DB...`: a local web server for results databases, live, and
// for games against bots on /play (arena/serve/, docs/serve.md).

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "arena/cli/bot_options.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/cli/serve_setup.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/anchors.hpp"
#include "arena/serve/http_server.hpp"
#include "arena/serve/site.hpp"
#include "arena/session/command_line.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"

namespace arena::cli {

namespace po = boost::program_options;

namespace {

// The bots /play offers: those of --play-bot, then those of the served
// tournaments.
std::vector<serve::PlayBot> play_bots(const std::vector<std::string>& play_bot_args,
                                      const std::vector<serve::ServedDatabase*>& databases,
                                      const session::Isolation& isolation, std::ostream& err) {
    std::vector<serve::PlayBot> bots;
    const auto entry_of = [](const session::BotSpec& spec, const std::string& command) {
        return store::BotEntry{
            spec.name, command, std::string(session::to_string(spec.protocol)),
            tournament::program_sha256(tournament::program_files(spec.argv, spec.working_dir))};
    };
    for (const auto& arg : play_bot_args) {
        auto spec = parse_bot_argument(arg);  // throws std::invalid_argument
        spec.isolation = isolation;
        const auto eq = arg.find('=');
        const auto space = arg.find_first_of(" \t");
        const std::string command =
            eq != std::string::npos && (space == std::string::npos || eq < space)
                ? arg.substr(eq + 1)
                : arg;
        serve::PlayBot bot;
        bot.label = spec.name + " (--play-bot)";
        bot.entry = entry_of(spec, command);
        bot.spec = std::move(spec);
        bots.push_back(std::move(bot));
    }
    // The served tournaments' bots, each program once (by name, command and
    // protocol), with every game it was seen playing.
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> seen;
    for (auto* db : databases) {
        for (const auto& t : db->bots()) {
            const auto key = std::make_tuple(t.bot.name, t.bot.command, t.bot.protocol);
            if (const auto it = seen.find(key); it != seen.end()) {
                auto& games = bots[it->second].games;
                if (std::find(games.begin(), games.end(), t.game) == games.end())
                    games.push_back(t.game);
                continue;
            }
            session::BotSpec spec;
            try {
                spec.name = t.bot.name;
                spec.argv = session::split_command(t.bot.command);
                spec.isolation = isolation;
                set_bot_protocol(spec, t.bot.protocol);
            } catch (const std::exception& e) {
                err << "arena serve: " << db->path().string() << ": bot '"
                    << record::escape_controls(t.bot.name) << "' of tournament '"
                    << record::escape_controls(t.tournament_name)
                    << "' is not offered on /play: " << record::escape_controls(e.what()) << "\n";
                continue;
            }
            serve::PlayBot bot;
            bot.label =
                t.bot.name + " (" + t.tournament_name + ", " + db->path().filename().string() + ")";
            bot.games = {t.game};
            bot.entry = entry_of(spec, t.bot.command);
            bot.spec = std::move(spec);
            seen[key] = bots.size();
            bots.push_back(std::move(bot));
        }
    }
    return bots;
}

}  // namespace

RunningServer::RunningServer(const ServeSetup& setup, std::ostream& err) {
    namespace fs = std::filesystem;
    std::vector<std::string> paths = setup.databases;
    std::string play_db;
    if (setup.play) {
        play_db = setup.play_db.empty() ? (paths.empty() ? "" : paths.front()) : setup.play_db;
        if (!setup.play_db.empty()) {
            // Created when missing, and served with the others.
            (void)store::ResultsStore(setup.play_db);
            bool served = false;
            for (const auto& p : paths) {
                std::error_code ec;
                served = served || fs::equivalent(p, setup.play_db, ec);
            }
            if (!served) paths.push_back(setup.play_db);
        }
    }
    std::vector<std::unique_ptr<serve::ServedDatabase>> databases;
    std::vector<serve::ServedDatabase*> raw;
    std::optional<int> play_index;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            std::error_code ec;
            if (fs::equivalent(paths[i], paths[j], ec))
                throw std::invalid_argument(paths[i] + " is given twice");
        }
        databases.push_back(std::make_unique<serve::ServedDatabase>(
            static_cast<int>(i), paths[i],
            [](const std::string& text) { return report::anchors_of_config_text(text); }));
        raw.push_back(databases.back().get());
        std::error_code ec;
        if (!play_db.empty() && fs::equivalent(paths[i], play_db, ec))
            play_index = static_cast<int>(i);
    }
    databases_ = databases.size();
    serve::SiteOptions site;
    site.title = setup.title;
    site.live = setup.live;
    if (setup.play) {
        serve::PlayConfig config;
        config.bots = play_bots(setup.play_bot_args,
                                setup.db_bots ? raw : std::vector<serve::ServedDatabase*>{},
                                setup.isolation, err);
        config.db = play_db;
        config.max_sessions = setup.play_max;
        config.idle_timeout = setup.idle;
        config.max_move_ms = setup.max_move_ms;
        config.session = setup.session;
        bots_ = config.bots.size();
        play_manager_ = std::make_unique<serve::PlayManager>(std::move(config));
        site.play = play_manager_.get();
        site.play_db = play_index;
        site.play_db_path = play_db;
        play_ = true;
    }
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(setup.server.bind, ec);
    if (ec) throw std::invalid_argument("--bind '" + setup.server.bind + "' is not an IP address");
    site.loopback_hosts_only = address.is_loopback();
    if (!address.is_loopback()) {
        err << "arena serve: listening on " << setup.server.bind
            << ", not only on this machine: whoever reaches it sees the results"
            << (play_ ? " and can start the bots of /play" : "") << "\n";
    }
    site_ = std::make_unique<serve::Site>(std::move(databases), std::move(site));
    http_ = std::make_unique<serve::HttpServer>(
        setup.server, [site = site_.get()](const serve::Request& r) { return site->handle(r); });
    http_->start();
    const std::string host = address.is_v6() ? "[" + setup.server.bind + "]" : setup.server.bind;
    url_ = "http://" + host + ":" + std::to_string(http_->port()) + "/";
}

RunningServer::~RunningServer() {
    if (http_) http_->stop();
}

std::string RunningServer::describe() const {
    std::string text = "serving " + url_ + " (" + std::to_string(databases_) +
                       (databases_ == 1 ? " database" : " databases");
    if (play_) text += ", /play with " + std::to_string(bots_) + (bots_ == 1 ? " bot" : " bots");
    return text + ")";
}

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

The server listens on 127.0.0.1 unless --bind says otherwise, and then
answers only requests addressed to localhost. See docs/serve.md.

example:
  arena serve results/demo.db --port 8080 --play-bot 'alphabeta=build/bots/c4-alphabeta'

)";

}  // namespace

int serve_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    po::options_description opts("options");
    int port = 8080;
    std::string bind = "127.0.0.1", play_db;
    std::vector<std::string> play_bot_args, dbs;
    bool no_db_bots = false, no_play = false;
    std::size_t play_max = 4;
    std::int64_t idle_s = 30, max_move_ms = 60'000;
    BotRunOptions run_options;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("port", po::value<int>(&port)->default_value(port), "TCP port (0: any free port, printed at start)")
        ("bind", po::value<std::string>(&bind)->default_value(bind), "address to listen on")
        ("play-bot", po::value<std::vector<std::string>>(&play_bot_args)->composing(), "NAME=COMMAND: a bot /play offers (repeatable)")
        ("play-db", po::value<std::string>(&play_db), "store /play games in this results database (default: the first DB)")
        ("no-db-bots", po::bool_switch(&no_db_bots), "offer on /play only the bots of --play-bot")
        ("no-play", po::bool_switch(&no_play), "no /play")
        ("play-max", po::value<std::size_t>(&play_max)->default_value(play_max), "games on /play at once")
        ("play-idle-s", po::value<std::int64_t>(&idle_s)->default_value(idle_s), "a /play game whose page has not been heard from for this long is ended")
        ("max-move-ms", po::value<std::int64_t>(&max_move_ms)->default_value(max_move_ms), "the longest move_ms /play allows");
    // clang-format on
    run_options.add_startup_options(opts);
    run_options.add_limit_options(opts);
    CommandLine line{"serve", kUsage, opts};
    line.arguments.add_options()("db", po::value<std::vector<std::string>>(&dbs), "db");
    line.positional.add("db", -1);
    session::Isolation isolation;
    session::SessionOptions session_options;
    if (const auto done = parse_command_line(line, args, out, err, [&](const po::variables_map&) {
            if (dbs.empty() && play_db.empty())
                throw std::invalid_argument("expected at least one DB (or --play-db)");
            if (port < 0 || port > 65535) throw std::invalid_argument("--port must be 0..65535");
            if (play_max < 1 || play_max > 64)
                throw std::invalid_argument("--play-max must be 1..64");
            if (idle_s < 5) throw std::invalid_argument("--play-idle-s must be at least 5");
            if (max_move_ms < 10) throw std::invalid_argument("--max-move-ms must be at least 10");
            run_options.apply(isolation, session_options);
        }))
        return *done;

    // Blocked in every thread from here on, so the server's threads leave
    // SIGINT and SIGTERM to this one.
    StopOnSignal signals;
    ServeSetup setup;
    setup.databases = dbs;
    setup.play = !no_play;
    setup.play_db = play_db;
    setup.play_bot_args = play_bot_args;
    setup.db_bots = !no_db_bots;
    setup.isolation = isolation;
    setup.session = session_options;
    setup.play_max = play_max;
    setup.idle = std::chrono::seconds(idle_s);
    setup.max_move_ms = match::Millis{max_move_ms};
    setup.server.bind = bind;
    setup.server.port = static_cast<unsigned short>(port);
    std::optional<RunningServer> server;
    try {
        server.emplace(setup, err);
    } catch (const std::invalid_argument& e) {
        err << "arena serve: " << record::escape_controls(e.what()) << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        err << "arena serve: " << record::escape_controls(e.what()) << "\n";
        return kExitFailure;
    }
    out << "arena serve: " << server->describe() << "; Ctrl-C stops it" << std::endl;
    while (!signals.stopped())
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server.reset();
    out << "arena serve: stopped" << std::endl;
    return kExitOk;
}

}  // namespace arena::cli
