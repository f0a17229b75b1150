#include "arena/serve/running_server.hpp"

#include <boost/asio/ip/address.hpp>
#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "arena/store/results_store.hpp"

namespace arena::serve {
namespace {

namespace fs = std::filesystem;

// The databases served: those of the setup, and the /play database (created
// when missing) when it is not one of them.
std::vector<std::string> served_paths(const ServeSetup& setup) {
    std::vector<std::string> paths = setup.databases;
    if (setup.play && !setup.play_db.empty()) {
        (void)store::ResultsStore(setup.play_db);
        bool served = false;
        for (const auto& p : paths) {
            std::error_code ec;
            served = served || fs::equivalent(p, setup.play_db, ec);
        }
        if (!served) paths.push_back(setup.play_db);
    }
    return paths;
}

// The databases of `paths`, each once; `play_index` becomes the position of
// `play_db` among them, if it is there.
std::vector<std::unique_ptr<ServedDatabase>> open_databases(const std::vector<std::string>& paths,
                                                            const std::string& play_db,
                                                            std::optional<int>& play_index) {
    std::vector<std::unique_ptr<ServedDatabase>> databases;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            std::error_code ec;
            if (fs::equivalent(paths[i], paths[j], ec))
                throw std::invalid_argument(paths[i] + " is given twice");
        }
        databases.push_back(std::make_unique<ServedDatabase>(static_cast<int>(i), paths[i]));
        std::error_code ec;
        if (!play_db.empty() && fs::equivalent(paths[i], play_db, ec))
            play_index = static_cast<int>(i);
    }
    return databases;
}

}  // namespace

std::string setup_problem(const ServeSetup& setup, int port) {
    if (setup.databases.empty() && setup.play_db.empty())
        return "expected at least one DB (or --play-db)";
    if (port < 0 || port > 65535) return "--port must be 0..65535";
    if (setup.play_max < 1 || setup.play_max > 64) return "--play-max must be 1..64";
    if (setup.idle < std::chrono::seconds(5)) return "--play-idle-s must be at least 5";
    if (setup.max_move_ms < match::Millis(10)) return "--max-move-ms must be at least 10";
    return "";
}

ServeSetup run_serve_setup(const std::string& database, LiveGames& live, unsigned short port) {
    ServeSetup setup;
    setup.databases = {database};
    setup.play = false;
    setup.live = &live;
    setup.server.port = port;
    return setup;
}

RunningServer::RunningServer(session::BotHost& host, const ServeSetup& setup, std::ostream& err)
    : open_files_(setup.server.max_connections * 5 / 4 + 16) {
    std::string play_db;
    if (setup.play)
        play_db = setup.play_db.empty() ? (setup.databases.empty() ? "" : setup.databases.front())
                                        : setup.play_db;
    std::optional<int> play_index;
    auto databases = open_databases(served_paths(setup), play_db, play_index);
    databases_ = databases.size();
    SiteOptions site;
    site.title = setup.title;
    site.live = setup.live;
    if (setup.play) {
        std::vector<ServedDatabase*> stored;
        if (setup.db_bots)
            for (const auto& db : databases)
                stored.push_back(db.get());
        PlayConfig config;
        config.bots = play_bots(setup.play_bot_args, stored, setup.isolation, err);
        config.db = play_db;
        config.max_sessions = setup.play_max;
        config.idle_timeout = setup.idle;
        config.max_move_ms = setup.max_move_ms;
        config.session = setup.session;
        bots_ = config.bots.size();
        play_manager_ = std::make_unique<PlayManager>(host, std::move(config));
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
    site_ = std::make_unique<Site>(std::move(databases), std::move(site));
    http_ = std::make_unique<HttpServer>(
        setup.server, [site = site_.get()](const Request& r) { return site->handle(r); });
    http_->start();
    const std::string name = address.is_v6() ? "[" + setup.server.bind + "]" : setup.server.bind;
    url_ = "http://" + name + ":" + std::to_string(http_->port()) + "/";
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

}  // namespace arena::serve
