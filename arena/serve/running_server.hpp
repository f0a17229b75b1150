#pragma once
// What `arena serve` and `arena run --serve` share: the served databases,
// /play with its bots, the site and the HTTP server, set up from the
// command's options and stopped when the object goes.

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "arena/match/time_control.hpp"
#include "arena/serve/http_server.hpp"
#include "arena/serve/live_games.hpp"
#include "arena/serve/play_bots.hpp"
#include "arena/serve/play_session.hpp"
#include "arena/serve/site.hpp"
#include "arena/session/session.hpp"

namespace arena::serve {

struct ServeSetup {
    std::vector<std::string> databases;      // served in this order (DB 0, 1, ...)
    bool play = true;                        // offer /play
    std::string play_db;                     // empty: the first database
    std::vector<std::string> play_bot_args;  // '[name=]command' each
    bool db_bots = true;                     // offer the served tournaments' bots too
    session::Isolation isolation;            // of /play's bots
    session::SessionOptions session;
    std::size_t play_max = 4;
    std::chrono::milliseconds idle{30'000};
    match::Millis max_move_ms{60'000};
    ServerOptions server;
    LiveGames* live = nullptr;  // games in progress to show (arena run --serve)
    std::string title = "arena";
};

// What is wrong with `setup` and `port` (--port, before it is made a port
// number) as `arena serve`'s options give them, naming the option: nothing
// to serve, a port out of 0..65535, or /play's limits out of theirs (at
// most 64 games at once, an idle game ended after 5 s at the least, a move
// of 10 ms at the least); "" when nothing is.
[[nodiscard]] std::string setup_problem(const ServeSetup& setup, int port);

// What `arena run --serve PORT` serves while it runs: the run's `database`,
// with the games in progress of `live`, and no /play.
[[nodiscard]] ServeSetup run_serve_setup(const std::string& database, LiveGames& live,
                                         unsigned short port);

class RunningServer {
  public:
    // Opens the databases, sets up /play and starts serving. Throws
    // std::invalid_argument for a bad --play-bot, a database given twice or
    // a --bind that is not an address, std::runtime_error naming the file or
    // address for anything else that fails. Problems that leave the server
    // usable (a stored bot that cannot be offered, an address other machines
    // reach) go to `err`. /play's bots are started under `host`, which must
    // outlive the server.
    RunningServer(session::BotHost& host, const ServeSetup& setup, std::ostream& err);
    ~RunningServer();

    [[nodiscard]] unsigned short port() const { return http_->port(); }
    // "http://127.0.0.1:8080/ (2 databases, /play with 3 bots)".
    [[nodiscard]] std::string describe() const;
    // The open files the server may hold: its connections, and the few it
    // holds past their limit (what a run keeps from its bots,
    // tournament::RunOptions::reserved_fds).
    [[nodiscard]] std::size_t open_files() const { return open_files_; }

  private:
    std::string url_;
    std::size_t open_files_ = 0;
    std::size_t databases_ = 0, bots_ = 0;
    bool play_ = false;
    std::unique_ptr<PlayManager> play_manager_;
    std::unique_ptr<Site> site_;
    std::unique_ptr<HttpServer> http_;  // last: stopped first
};

}  // namespace arena::serve
