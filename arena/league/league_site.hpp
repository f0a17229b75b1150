#pragma once
// What a league's server answers (docs/league.md, "The league's pages"):
// the routes of the league in front of arena serve's pages.
//
//   /league                  sign in with a token
//   /me, /api/league/me      a participant's versions, check logs and games
//   /me/g/GAME               one of their games, with their own bot's stderr
//   /league/organiser        every version and check log, the grades
//   /league/grades.csv       the grades (organisers)
//   POST /api/league/signin  {"token": ...}: a session cookie and a CSRF token
//   POST /api/league/signout
//   POST /api/league/upload?name=FILE   the body is the file
//   GET  /api/league/versions/N         the caller's version N, with its log
//
// Everything else goes to arena serve's pages: the public ones, which show
// names and moves but no bot's stderr, or for an organiser the full ones.
//
// A request is signed in by the session cookie, or by `Authorization:
// Bearer TOKEN` (scripts: arena submit, curl). A request that changes
// something with the cookie must carry the session's CSRF token in
// X-CSRF-Token, and, when the browser names its origin, come from this
// server; a token in the header is no ambient credential, so it needs none.

#include <functional>
#include <memory>
#include <optional>
#include <semaphore>
#include <string>

#include "arena/league/accounts.hpp"
#include "arena/league/desk.hpp"
#include "arena/league/league_play.hpp"
#include "arena/league/web_sessions.hpp"
#include "arena/serve/http_server.hpp"
#include "arena/serve/site.hpp"
#include "arena/serve/target.hpp"

namespace arena::league {

struct LeagueSiteParts {
    Accounts* accounts = nullptr;
    WebSessions* sessions = nullptr;
    SubmissionDesk* desk = nullptr;
    serve::Site* public_site = nullptr;         // hide_logs
    serve::Site* organiser_site = nullptr;      // everything
    serve::ServedDatabase* database = nullptr;  // the league's (index 0)
    std::function<LeagueStatus()> status;       // of the league's play; may be empty
    bool loopback_hosts_only = true;
};

class LeagueSite {
  public:
    explicit LeagueSite(LeagueSiteParts parts) : p_(std::move(parts)) {}

    [[nodiscard]] serve::Response handle(const serve::Request& request);
    // The body a request may send (ServerOptions::body_allowance): an upload
    // gets the league's upload cap while fewer than `uploads_at_once` are
    // read at once; everything else the default.
    [[nodiscard]] serve::BodyAllowance allowance(const serve::Request& head);

  private:
    struct Caller {
        std::optional<User> user;
        std::optional<WebSession> session;  // when signed in by the cookie
        std::string problem;                // why a token was refused
        int status = 401;                   // with `problem`: 401, or 503 when busy
    };
    // The user `token` signs in, with at most two Argon2id hashes at once.
    [[nodiscard]] Caller check_token(std::string_view token);
    [[nodiscard]] Caller caller(const serve::Request& request);
    [[nodiscard]] serve::Response route(const serve::Request& request, const serve::Target& target,
                                        Caller& who);
    [[nodiscard]] serve::Response sign_in(const serve::Request& request);
    [[nodiscard]] serve::Response upload(const serve::Request& request, const serve::Target& target,
                                         const User& user);
    [[nodiscard]] serve::Response me(const User& user, const std::optional<WebSession>& session,
                                     bool api);
    [[nodiscard]] serve::Response own_game(const User& user, const std::string& id, bool api);
    [[nodiscard]] serve::Response organiser(bool api);
    [[nodiscard]] serve::Response grades();
    [[nodiscard]] serve::Response sign_in_page(const Caller& who);
    [[nodiscard]] nlohmann::json league_json();
    [[nodiscard]] std::vector<serve::NavLink> nav(const Caller& who) const;

    LeagueSiteParts p_;
    std::counting_semaphore<64> hashing_{2};  // Argon2id at once (64 MiB each)
    std::counting_semaphore<64> uploads_{8};  // upload bodies read at once
};

// "Bearer X" -> "X"; "" when the header is not of that form.
[[nodiscard]] std::string bearer_token(std::string_view authorization);

}  // namespace arena::league
