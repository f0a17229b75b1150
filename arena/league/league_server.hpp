#pragma once
// `arena serve --league CONFIG` (docs/league.md): the league's pages and
// uploads (league_site), its desk of uploads and checks (desk), and its
// games, played while the server runs (league_play), over the config's
// results database, which is created when missing.

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <thread>

#include "arena/league/accounts.hpp"
#include "arena/league/desk.hpp"
#include "arena/league/league_play.hpp"
#include "arena/league/league_site.hpp"
#include "arena/league/web_sessions.hpp"
#include "arena/serve/http_server.hpp"
#include "arena/serve/live_games.hpp"
#include "arena/serve/site.hpp"
#include "arena/session/bot_host.hpp"

namespace arena::league {

struct LeagueServerOptions {
    std::filesystem::path config;  // the league's config
    serve::ServerOptions server;   // bind, port, limits
    int concurrency = 0;           // games at once; 0: the config's
    bool play = true;              // false: pages and uploads only (tests)
};

// What `arena serve --league --bind ADDRESS` says when other machines can
// reach it: put TLS in front (docs/league.md, "In front of it").
inline constexpr const char* kTlsAdvice =
    "arena serve: other machines reach this server: put a reverse proxy with TLS in front of it "
    "(such as Caddy or nginx, forwarding to this port and setting X-Forwarded-Proto: https) and "
    "give participants its https address: tokens and session cookies must not cross the "
    "network in plain HTTP. docs/league.md, \"In front of it\", has an example.\n";

class LeagueServer {
  public:
    // Reads the config (std::invalid_argument with its problem, already
    // printed on `log` for a bad file), opens the database and starts
    // serving and playing. Throws std::runtime_error naming the address or
    // file for what else fails.
    LeagueServer(session::BotHost& host, LeagueServerOptions options, std::ostream& log);
    ~LeagueServer();  // stops serving, then the checks, then the play (between games)
    LeagueServer(const LeagueServer&) = delete;
    LeagueServer& operator=(const LeagueServer&) = delete;

    [[nodiscard]] unsigned short port() const { return http_->port(); }
    // "league 'spring' at http://127.0.0.1:8080/league (3 participants)"
    [[nodiscard]] std::string describe() const;
    [[nodiscard]] LeagueStatus status() const;
    [[nodiscard]] SubmissionDesk& desk() { return *desk_; }

  private:
    std::string url_;
    tournament::Config config_;
    serve::LiveGames live_;
    std::unique_ptr<serve::LiveTournament> live_observer_;
    std::unique_ptr<Accounts> accounts_;
    WebSessions sessions_;
    std::unique_ptr<LeaguePlay> play_;
    std::unique_ptr<SubmissionDesk> desk_;
    std::unique_ptr<serve::ServedDatabase> database_;
    std::unique_ptr<serve::Site> public_site_, organiser_site_;
    std::unique_ptr<LeagueSite> site_;
    std::jthread play_thread_;
    std::unique_ptr<serve::HttpServer> http_;  // last: stopped first
};

}  // namespace arena::league
