#include "arena/league/league_server.hpp"

#include <boost/asio/ip/address.hpp>
#include <ostream>
#include <stdexcept>

#include "arena/league/user_command.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"

namespace arena::league {
namespace {

std::vector<std::unique_ptr<serve::ServedDatabase>> one_database(
    const std::filesystem::path& path) {
    std::vector<std::unique_ptr<serve::ServedDatabase>> dbs;
    dbs.push_back(std::make_unique<serve::ServedDatabase>(0, path));
    return dbs;
}

}  // namespace

LeagueServer::LeagueServer(session::BotHost& host, LeagueServerOptions options, std::ostream& log) {
    auto config = tournament::load_config(options.config, log);
    if (!config) throw std::invalid_argument(options.config.string() + " cannot be used (above)");
    if (const auto problem = league_config_problem(*config); !problem.empty())
        throw std::invalid_argument(problem);
    if (!config->league)
        throw std::invalid_argument(options.config.string() +
                                    " has no league: section, which a league's server needs "
                                    "(league: {} takes the defaults; docs/league.md)");
    config_ = *config;
    std::error_code ec;
    std::filesystem::create_directories(config_.bots_dir, ec);
    if (!config_.database.parent_path().empty())
        std::filesystem::create_directories(config_.database.parent_path(), ec);
    // Created or upgraded, in the config's journal mode (switched now, before
    // the server's other connections open it).
    (void)store::ResultsStore(config_.database, config_.journal_mode);
    accounts_ = std::make_unique<Accounts>(config_.database, config_.name, config_.journal_mode);
    if (options.play) {
        live_observer_ = std::make_unique<serve::LiveTournament>(live_, config_.name);
        LeaguePlayOptions play;
        play.concurrency = options.concurrency;
        play.observers = {live_observer_.get()};
        play.reserved_fds = options.server.max_connections * 5 / 4 + 16;
        play_ = std::make_unique<LeaguePlay>(host, options.config, play, log);
    }
    desk_ = std::make_unique<SubmissionDesk>(
        host, options.config, config_,
        [this] {
            if (play_) play_->wake();
        },
        log);
    boost::system::error_code bad;
    const auto address = boost::asio::ip::make_address(options.server.bind, bad);
    if (bad)
        throw std::invalid_argument("--bind '" + options.server.bind + "' is not an IP address");
    serve::SiteOptions site;
    site.title = config_.name;
    site.live = &live_;
    // Behind a proxy the Host is the public name. The public pages show what
    // anyone may see, and what is not public needs a session cookie
    // (SameSite=Strict, kept for the server's own name) or a token: no Host
    // check, which guards a plain arena serve against DNS rebinding.
    site.loopback_hosts_only = false;
    serve::SiteOptions everything = site;
    site.hide_logs = true;
    site.nav = {{"/league", "Sign in"}, {"/me", "My bot"}};
    everything.nav = {{"/league/organiser", "Organiser"}};
    public_site_ = std::make_unique<serve::Site>(one_database(config_.database), site);
    organiser_site_ = std::make_unique<serve::Site>(one_database(config_.database), everything);
    database_ = std::make_unique<serve::ServedDatabase>(0, config_.database);
    LeagueSiteParts parts;
    parts.accounts = accounts_.get();
    parts.sessions = &sessions_;
    parts.desk = desk_.get();
    parts.public_site = public_site_.get();
    parts.organiser_site = organiser_site_.get();
    parts.database = database_.get();
    if (play_) parts.status = [this] { return play_->status(); };
    parts.loopback_hosts_only = false;
    site_ = std::make_unique<LeagueSite>(std::move(parts));
    if (play_) play_thread_ = std::jthread([this](std::stop_token stop) { play_->run(stop); });
    auto server = options.server;
    server.body_allowance = [this](const serve::Request& head) { return site_->allowance(head); };
    http_ = std::make_unique<serve::HttpServer>(
        server, [this](const serve::Request& r) { return site_->handle(r); });
    http_->start();
    const std::string name =
        address.is_v6() ? "[" + options.server.bind + "]" : options.server.bind;
    url_ = "http://" + name + ":" + std::to_string(http_->port()) + "/league";
}

LeagueServer::~LeagueServer() {
    if (http_) http_->stop();
    desk_.reset();
    if (play_thread_.joinable()) {
        play_thread_.request_stop();
        play_thread_.join();
    }
}

std::string LeagueServer::describe() const {
    std::size_t participants = 0;
    for (const auto& u : accounts_->list_users())
        participants += u.organiser ? 0 : 1;
    return "league '" + config_.name + "' at " + url_ + " (" + std::to_string(participants) +
           (participants == 1 ? " participant" : " participants") + ")";
}

LeagueStatus LeagueServer::status() const {
    return play_ ? play_->status() : LeagueStatus{};
}

}  // namespace arena::league
