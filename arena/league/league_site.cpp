#include "arena/league/league_site.hpp"

#include <chrono>
#include <sstream>

#include "arena/league/grades.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/html.hpp"
#include "arena/serve/page.hpp"
#include "arena/store/results_store.hpp"

namespace arena::league {
namespace {

using nlohmann::json;
using serve::api_error;
using serve::json_response;
using serve::Request;
using serve::Response;

constexpr std::string_view kUploadPath = "/api/league/upload";

json version_json(const store::LeagueVersionRow& v, bool with_log) {
    json j{{"participant", v.participant},
           {"version", v.version},
           {"file", v.file_name},
           {"kind", v.kind},
           {"bytes", v.bytes},
           {"status", v.status},
           {"message", v.message},
           {"uploaded_at", v.uploaded_at},
           {"checked_at", v.checked_at}};
    if (with_log) j["log"] = v.check_log;
    return j;
}

Response redirect(const std::string& to) {
    Response r;
    r.status = 303;
    r.content_type = "text/plain; charset=utf-8";
    r.body = "see " + to + "\n";
    r.headers.emplace_back("Location", to);
    return r;
}

bool tls(const Request& request) {
    return serve::lower(request.forwarded_proto) == "https";
}

// A POST from a page: when the browser names its origin, this server's.
bool same_origin(const Request& request) {
    return request.origin.empty() || request.origin == "http://" + request.host ||
           request.origin == "https://" + request.host;
}

std::string base_name(const std::string& bot) {
    return bot.substr(0, bot.find('@'));
}

}  // namespace

std::string bearer_token(std::string_view authorization) {
    constexpr std::string_view kBearer = "Bearer ";
    if (authorization.size() <= kBearer.size() ||
        serve::lower(authorization.substr(0, kBearer.size())) != "bearer ")
        return {};
    auto token = authorization.substr(kBearer.size());
    while (!token.empty() && token.front() == ' ')
        token.remove_prefix(1);
    return std::string(token);
}

serve::BodyAllowance LeagueSite::allowance(const Request& head) {
    serve::BodyAllowance allowed;
    allowed.limit = 64 * 1024;
    allowed.json = head.target.starts_with("/api/");
    const auto path = std::string_view(head.target).substr(0, head.target.find('?'));
    if (head.method != "POST" || path != kUploadPath) return allowed;
    if (bearer_token(head.authorization).empty() &&
        cookie_value(head.cookie, kSessionCookie).empty()) {
        allowed.refuse = 401;
        allowed.message =
            "an upload needs a token (Authorization: Bearer TOKEN) or a signed-in "
            "page";
        return allowed;
    }
    if (!uploads_.try_acquire()) {
        allowed.refuse = 503;
        allowed.message = "too many uploads at once; try again in a few seconds";
        return allowed;
    }
    allowed.hold = std::shared_ptr<void>(nullptr, [this](void*) { uploads_.release(); });
    allowed.limit = static_cast<std::size_t>(p_.desk->limits().max_upload);
    return allowed;
}

LeagueSite::Caller LeagueSite::check_token(std::string_view token) {
    Caller who;
    if (!hashing_.try_acquire_for(std::chrono::seconds(10))) {
        who.status = 503;
        who.problem = "the server is busy checking tokens; try again";
        return who;
    }
    try {
        who.user = p_.accounts->authenticate(token);
    } catch (...) {
        hashing_.release();
        throw;
    }
    hashing_.release();
    if (!who.user) who.problem = "the token is not valid, or its account is disabled";
    return who;
}

LeagueSite::Caller LeagueSite::caller(const Request& request) {
    if (const auto token = bearer_token(request.authorization); !token.empty())
        return check_token(token);
    Caller who;
    who.session = p_.sessions->find(request.cookie);
    if (!who.session) return who;
    // Disabled since signing in: the session ends.
    const auto now = p_.accounts->find_user(who.session->user.name);
    if (!now || now->disabled()) {
        p_.sessions->close(who.session->id);
        who.session.reset();
        who.problem = "the account is disabled";
        return who;
    }
    who.user = *now;
    return who;
}

Response LeagueSite::handle(const Request& request) {
    if (p_.loopback_hosts_only && !serve::loopback_host(request.host)) {
        return Response::text(421, "this server answers only requests for localhost (Host: " +
                                       record::escape_controls(request.host.substr(0, 100)) + ")");
    }
    std::string problem;
    const auto target = serve::parse_target(request.target, problem);
    if (!target) return Response::text(400, problem);
    try {
        Caller who = caller(request);
        return route(request, *target, who);
    } catch (const store::BusyError& e) {
        return api_error(503, std::string("the database is busy; try again (") + e.what() + ")");
    } catch (const store::StoreError& e) {
        return api_error(503, e.what());
    }
}

std::vector<serve::NavLink> LeagueSite::nav(const Caller& who) const {
    if (!who.user) return {{"/league", "Sign in"}};
    std::vector<serve::NavLink> links{{"/me", "My bot"}};
    if (who.user->organiser) links = {{"/league/organiser", "Organiser"}};
    return links;
}

Response LeagueSite::route(const Request& request, const serve::Target& target, Caller& who) {
    const auto& p = target.path;
    const bool post = request.method == "POST";
    const bool league_api = p.size() >= 2 && p[0] == "api" && p[1] == "league";
    const bool league_page = (!p.empty() && (p[0] == "league" || p[0] == "me")) || league_api;
    if (!league_page) {
        if (who.user && who.user->organiser) return p_.organiser_site->handle(request);
        return p_.public_site->handle(request);
    }
    const auto not_signed_in = [&] {
        return api_error(who.status,
                         who.problem.empty() ? "sign in first, or send a token" : who.problem);
    };
    if (post && league_api && p.size() == 3 && p[2] == "signin") return sign_in(request);
    if (post) {
        if (!who.user) return not_signed_in();
        if (who.session &&
            (!same_secret(request.csrf_token, who.session->csrf) || !same_origin(request)))
            return api_error(403,
                             "the request lacks this page's CSRF token (X-CSRF-Token): "
                             "reload the page");
        if (p.size() == 3 && p[2] == "signout") {
            if (who.session) p_.sessions->close(who.session->id);
            auto r = json_response(200, {{"ok", true}});
            r.headers.emplace_back("Set-Cookie", WebSessions::cleared_cookie(tls(request)));
            return r;
        }
        if (p.size() == 3 && p[2] == "upload") return upload(request, target, *who.user);
        return api_error(404, "no such action");
    }
    if (request.method != "GET" && request.method != "HEAD")
        return api_error(405, "GET, HEAD or POST");
    const bool api = league_api;
    const std::vector<std::string> rest(p.begin() + (api ? 2 : 1), p.end());
    if (!api && p.size() == 1 && p[0] == "league") return sign_in_page(who);
    if (!who.user) {
        if (!api) return redirect("/league");
        return not_signed_in();
    }
    const User& user = *who.user;
    if ((api && rest.size() == 1 && rest[0] == "me") || (!api && p.size() == 1 && p[0] == "me"))
        return me(user, who.session, api);
    if (p[0] == "me" && p.size() == 3 && p[1] == "g") return own_game(user, p[2], false);
    if (api && rest.size() == 2 && rest[0] == "g") return own_game(user, rest[1], true);
    if (api && rest.size() == 2 && rest[0] == "versions") {
        const auto n = serve::parse_id(rest[1]);
        const auto v = n ? p_.desk->version(user.name, *n) : std::nullopt;
        if (!v) return api_error(404, "you have no version " + record::escape_controls(rest[1]));
        return json_response(200, version_json(*v, true));
    }
    const bool organiser_route = (!api && p.size() == 2 && p[0] == "league" &&
                                  (p[1] == "organiser" || p[1] == "grades.csv")) ||
                                 (api && rest.size() == 1 && rest[0] == "organiser");
    if (organiser_route && !user.organiser)
        return api ? api_error(403, "for the league's organisers")
                   : Response::text(403, "for the league's organisers");
    if (organiser_route) return p[1] == "grades.csv" ? grades() : organiser(api);
    return api ? api_error(404, "no such page") : Response::text(404, "no such page");
}

Response LeagueSite::sign_in(const Request& request) {
    if (serve::media_type(request.content_type) != "application/json")
        return api_error(415, "the body must be application/json");
    if (!same_origin(request)) return api_error(403, "a request from another site");
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object() || !body.contains("token") || !body["token"].is_string())
        return api_error(400, "expected {\"token\": \"...\"}");
    const Caller checked = check_token(body["token"].get<std::string>());
    if (!checked.user) return api_error(checked.status, checked.problem);
    const auto& user = checked.user;
    const auto session = p_.sessions->open(*user);
    auto r = json_response(200, {{"name", user->name},
                                 {"organiser", user->organiser},
                                 {"csrf", session.csrf},
                                 {"next", user->organiser ? "/league/organiser" : "/me"}});
    r.headers.emplace_back("Set-Cookie", p_.sessions->cookie(session.id, tls(request)));
    return r;
}

Response LeagueSite::upload(const Request& request, const serve::Target& target, const User& user) {
    if (user.organiser)
        return api_error(403, "an organiser has no bot; add a participant to upload one");
    const auto name = target.query.find("name");
    if (name == target.query.end() || name->second.empty())
        return api_error(400, "name the file: " + std::string(kUploadPath) + "?name=bot.py");
    const auto answer = p_.desk->submit(user, name->second, request.body);
    if (!answer.version) {
        auto r = api_error(answer.status, answer.message);
        if (answer.retry_after_s > 0)
            r.headers.emplace_back("Retry-After", std::to_string(answer.retry_after_s));
        return r;
    }
    json j = version_json(*answer.version, false);
    j["message"] = answer.message;
    return json_response(202, j);
}

json LeagueSite::league_json() {
    const auto& config = p_.desk->config();
    json j{{"name", config.name}, {"game", config.game}, {"closed", p_.desk->closed()}};
    j["closes"] = config.league && config.league->closes ? iso_utc(*config.league->closes) : "";
    j["uploads_per_hour"] = config.league ? config.league->uploads_per_hour : 0;
    j["max_upload"] = p_.desk->limits().max_upload;
    j["tournament"] = nullptr;
    const auto overview = p_.database->overview();
    for (const auto& t : overview["tournaments"])
        if (t["name"] == config.name) j["tournament"] = {{"db", 0}, {"id", t["id"]}};
    if (p_.status) {
        const auto s = p_.status();
        j["play"] = {{"stored", s.stored},
                     {"total", s.total},
                     {"idle", s.idle},
                     {"waiting", s.waiting},
                     {"problem", s.last_problem}};
    }
    return j;
}

Response LeagueSite::me(const User& user, const std::optional<WebSession>& session, bool api) {
    json versions = json::array();
    for (const auto& v : p_.desk->versions(user.name))
        versions.push_back(version_json(v, true));
    json data{{"user", {{"name", user.name}, {"organiser", user.organiser}}},
              {"league", league_json()},
              {"versions", std::move(versions)},
              {"csrf", session ? session->csrf : ""}};
    if (api) return json_response(200, data);
    Caller who;
    who.user = user;
    const std::string main =
        "<section><h2>Upload a new version</h2><div class=\"upload\"><input id=\"upload-file\" "
        "type=\"file\"> <button id=\"upload-send\" type=\"button\">Upload</button> <span "
        "id=\"upload-status\" class=\"note\"></span></div><p id=\"league-note\" "
        "class=\"note\"></p></section>\n"
        "<section><h2>Your versions</h2><div id=\"versions\"></div></section>\n"
        "<section><h2>Your games</h2><p class=\"note\">newest first; each with your bot's "
        "stderr</p><div class=\"scroll\"><table id=\"my-games\" class=\"numbers games\"><thead>"
        "<tr><th>game</th><th>first</th><th>second</th><th>result</th><th>ending</th>"
        "<th>plies</th></tr></thead><tbody></tbody></table></div></section>\n"
        "<p><button id=\"signout\" type=\"button\">Sign out</button></p>";
    return serve::page(
        "me", user.name + " — " + p_.desk->config().name,
        serve::header_title(
            user.name, "your bot in the league " + report::html_escape(p_.desk->config().name)),
        main, data, nav(who));
}

Response LeagueSite::own_game(const User& user, const std::string& id, bool api) {
    const auto n = serve::parse_id(id);
    const auto game = n ? p_.database->game(*n) : std::nullopt;
    const auto not_found = [&] {
        return api ? api_error(404, "you have no such game")
                   : Response::text(404, "you have no such game");
    };
    if (!game) return not_found();
    const bool first = base_name(game->summary.first) == user.name;
    const bool second = base_name(game->summary.second) == user.name;
    if (!user.organiser && !first && !second) return not_found();
    Request inner;
    inner.method = "GET";
    inner.target = "/api/g/0/" + std::to_string(*n);
    auto full = p_.organiser_site->handle(inner);
    if (full.status != 200) return full;
    json replay = json::parse(full.body);
    if (!user.organiser) {
        if (!first) replay["logs"][0] = nullptr;
        if (!second) replay["logs"][1] = nullptr;
    }
    if (api) return json_response(200, replay);
    Caller who;
    who.user = user;
    const std::string title =
        "Game " + std::to_string(*n) + ": " + game->summary.first + " vs " + game->summary.second;
    return serve::page("game", title, serve::header_title(title, "with your bot's stderr"),
                       "<section><div class=\"replay\" id=\"replay\"></div></section>",
                       {{"game", replay}}, nav(who));
}

Response LeagueSite::organiser(bool api) {
    json versions = json::array();
    for (const auto& v : p_.desk->versions(""))
        versions.push_back(version_json(v, true));
    json users = json::array();
    for (const auto& u : p_.accounts->list_users())
        users.push_back({{"name", u.name},
                         {"organiser", u.organiser},
                         {"disabled_at", u.disabled_at},
                         {"created_at", u.created_at}});
    json data{{"league", league_json()}, {"versions", std::move(versions)}, {"users", users}};
    if (api) return json_response(200, data);
    Caller who;
    who.user = User{};
    who.user->organiser = true;
    const std::string main =
        "<section><h2>Grades</h2><p><a href=\"/league/grades.csv\" download>Download the "
        "grades (CSV)</a></p></section>\n"
        "<section><h2>Participants</h2><div id=\"participants\"></div></section>\n"
        "<section><h2>Every version</h2><div id=\"versions\"></div></section>";
    return serve::page("organiser", p_.desk->config().name + " — organiser",
                       serve::header_title(p_.desk->config().name, "the league's organiser"), main,
                       data, nav(who));
}

Response LeagueSite::grades() {
    const auto& config = p_.desk->config();
    Response r;
    r.content_type = "text/csv; charset=utf-8";
    r.headers.emplace_back("Content-Disposition",
                           "attachment; filename=\"" + config.name + "-grades.csv\"");
    r.body = grades_csv(config, *p_.database);
    return r;
}

Response LeagueSite::sign_in_page(const Caller& who) {
    json data{{"league", league_json()},
              {"user", who.user ? json{{"name", who.user->name}, {"organiser", who.user->organiser}}
                                : json(nullptr)}};
    const std::string main =
        "<section><h2>Sign in</h2><div class=\"signin\"><label for=\"token\">your token</label> "
        "<input id=\"token\" type=\"password\" autocomplete=\"off\" spellcheck=\"false\" "
        "size=\"50\"> <button id=\"signin\" type=\"button\">Sign in</button> <span "
        "id=\"signin-status\" class=\"problem\"></span></div>"
        "<p class=\"note\">The organiser gave you a token. Signed in, you upload your bot, read "
        "its check logs and watch its games.</p><p id=\"league-note\" class=\"note\"></p>"
        "</section>";
    return serve::page("league-signin", p_.desk->config().name + " — sign in",
                       serve::header_title(p_.desk->config().name, "a league"), main, data,
                       nav(who));
}

}  // namespace arena::league
