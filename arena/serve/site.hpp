#pragma once
// What arena serve answers: the pages and the JSON API, as one function
// from request to response (see docs/serve.md for the routes).
//
//   /                     the databases and their tournaments (live)
//   /t/DB/T               a tournament: standings and games (live)
//   /t/DB/T/report        the page `arena report` writes for it
//   /g/DB/GAME            a stored game in the replay viewer
//   /live/KEY             a game in progress (arena run --serve)
//   /play, /play/ID       a game against a bot
//   /api/...              the same as JSON
//
// DB is a served database's position on the command line (0, 1, ...), T a
// tournament id and GAME a game id: numbers, never file names. Only /api/play
// takes POST (JSON bodies); everything else is read-only. When the server
// listens on a loopback address, a request whose Host is not a loopback
// name is refused (so a web page elsewhere cannot reach it through DNS
// rebinding), and a POST must come from the server's own pages (its Origin,
// when sent, is the server's, and its body is JSON).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/serve/http_server.hpp"
#include "arena/serve/live_games.hpp"
#include "arena/serve/page.hpp"
#include "arena/serve/play_session.hpp"
#include "arena/serve/served_database.hpp"

namespace arena::serve {

struct SiteOptions {
    std::string title = "arena";
    // Host headers must name a loopback address (localhost, 127.x.x.x, [::1]).
    bool loopback_hosts_only = true;
    PlayManager* play = nullptr;  // null: no /play
    LiveGames* live = nullptr;    // null: no games in progress to show
    // The served database /play stores into, for links to its games.
    std::optional<int> play_db;
    std::string play_db_path;  // for the /play page's note; empty: not stored
    // The public pages of a league: no bot's stderr in a replay, and no
    // /report (which shows them); names and moves only.
    bool hide_logs = false;
    std::vector<NavLink> nav;  // more links in every page's navigation
};

class Site {
  public:
    Site(std::vector<std::unique_ptr<ServedDatabase>> databases, SiteOptions options);

    [[nodiscard]] Response handle(const Request& request);

  private:
    [[nodiscard]] Response get(const std::vector<std::string>& path,
                               const std::map<std::string, std::string>& query);
    // The pages and their /api twins (`api`), below the path's first word.
    [[nodiscard]] Response tournament_page(const std::vector<std::string>& p,
                                           const std::map<std::string, std::string>& query,
                                           bool api);
    [[nodiscard]] Response game_page(const std::vector<std::string>& p, bool api);
    [[nodiscard]] Response live_page(const std::vector<std::string>& p, bool api);
    [[nodiscard]] Response play_page(const std::vector<std::string>& p, bool api);
    [[nodiscard]] Response post(const std::vector<std::string>& path, const Request& request);
    [[nodiscard]] ServedDatabase* database(const std::string& segment);
    [[nodiscard]] nlohmann::json index_json();
    [[nodiscard]] std::vector<NavLink> nav() const;

    std::vector<std::unique_ptr<ServedDatabase>> databases_;
    SiteOptions options_;
};

// The assets of arena serve's pages (arena/serve/assets, compiled in).
[[nodiscard]] std::string_view serve_css();
[[nodiscard]] std::string_view serve_js();

}  // namespace arena::serve
