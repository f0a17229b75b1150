#include "arena/serve/site.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>

#include "arena/record/escape.hpp"
#include "arena/report/html.hpp"
#include "arena/report/html_report.hpp"
#include "arena/serve/page.hpp"
#include "arena/serve/target.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::serve {
namespace {

using nlohmann::json;
using report::html_escape;

// A /play session id: 32 lowercase hex digits.
bool session_id(std::string_view text) {
    return text.size() == 32 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

}  // namespace

Site::Site(std::vector<std::unique_ptr<ServedDatabase>> databases, SiteOptions options)
    : databases_(std::move(databases)), options_(std::move(options)) {}

std::vector<NavLink> Site::nav() const {
    std::vector<NavLink> links;
    if (options_.play != nullptr) links.emplace_back("/play", "Play against a bot");
    links.insert(links.end(), options_.nav.begin(), options_.nav.end());
    return links;
}

ServedDatabase* Site::database(const std::string& segment) {
    const auto index = parse_id(segment);
    if (!index || *index >= static_cast<long long>(databases_.size())) return nullptr;
    return databases_[static_cast<std::size_t>(*index)].get();
}

json Site::index_json() {
    json dbs = json::array();
    for (const auto& db : databases_) {
        try {
            dbs.push_back(db->overview());
        } catch (const store::SqliteError& e) {
            dbs.push_back({{"index", db->index()},
                           {"file", db->path().filename().string()},
                           {"path", db->path().string()},
                           {"error", e.what()},
                           {"tournaments", json::array()}});
        }
    }
    json j{{"databases", std::move(dbs)}, {"play", options_.play != nullptr}};
    if (options_.live != nullptr) j["live"] = options_.live->list();
    return j;
}

Response Site::handle(const Request& request) {
    if (options_.loopback_hosts_only && !loopback_host(request.host)) {
        return Response::text(421, "this server answers only requests for localhost (Host: " +
                                       record::escape_controls(request.host.substr(0, 100)) + ")");
    }
    std::string problem;
    const auto target = parse_target(request.target, problem);
    if (!target) return Response::text(400, problem);
    const bool get = request.method == "GET" || request.method == "HEAD";
    const bool post = request.method == "POST";
    if (!get && !post) {
        auto r = Response::text(405, "only GET, HEAD and POST are served");
        r.headers.emplace_back("Allow", "GET, HEAD, POST");
        return r;
    }
    try {
        return get ? this->get(target->path, target->query) : this->post(target->path, request);
    } catch (const store::BusyError& e) {
        return Response::text(503,
                              std::string("the database is busy; try again (") + e.what() + ")");
    } catch (const store::StoreError& e) {
        return Response::text(503, e.what());
    } catch (const store::SqliteError& e) {
        return Response::text(500, e.what());
    }
}

Response Site::get(const std::vector<std::string>& path,
                   const std::map<std::string, std::string>& query) {
    const auto n = path.size();
    const bool api = n > 0 && path[0] == "api";
    const std::vector<std::string> p(path.begin() + (api ? 1 : 0), path.end());
    const auto not_found = [&](const std::string& what) {
        return api ? api_error(404, what) : Response::text(404, what);
    };
    if (p.empty()) {
        if (api) return not_found("no such page");
        const json data{{"index", index_json()}};
        return page("index", options_.title,
                    header_title(options_.title,
                                 "results databases served live <span id=\"live\" "
                                 "class=\"live-dot\" title=\"live\"></span>"),
                    "<div id=\"databases\"></div>\n<section id=\"live-games\"></section>", data,
                    nav());
    }
    if (api && p.size() == 1 && p[0] == "index") return json_response(200, index_json());
    // Browsers ask for it on pages without an icon (the report's): nothing.
    if (!api && p.size() == 1 && p[0] == "favicon.ico") {
        Response r;
        r.status = 204;
        r.content_type = "image/x-icon";
        return r;
    }

    if (p[0] == "t" && (p.size() == 3 || (p.size() == 4 && p[3] == "report" && !api)))
        return tournament_page(p, query, api);
    if (p[0] == "g" && p.size() == 3) return game_page(p, api);
    if (p[0] == "live" && p.size() == 2) return live_page(p, api);
    if (p[0] == "play" && p.size() <= 2) return play_page(p, api);
    if (api && !p.empty() && p[0] == "play") return api_error(405, "this takes POST");
    return not_found("no such page");
}

// /t/DB/T, /t/DB/T/report, /api/t/DB/T
Response Site::tournament_page(const std::vector<std::string>& p,
                               const std::map<std::string, std::string>& query, bool api) {
    const auto not_found = [&](const std::string& what) {
        return api ? api_error(404, what) : Response::text(404, what);
    };
    ServedDatabase* db = database(p[1]);
    const auto id = parse_id(p[2]);
    if (db == nullptr || !id) return not_found("no such tournament");
    if (p.size() == 4) {
        if (options_.hide_logs)
            return not_found("the full report, with the bots' logs, is the organiser's");
        const auto report = db->report(*id);
        if (!report) return not_found("no such tournament");
        Response r;
        r.body = *report;
        r.headers.emplace_back(
            "Content-Security-Policy",
            report::content_security_policy({report::replay_js(), report::report_js()}));
        return r;
    }
    std::int64_t since = 0;
    if (const auto s = query.find("since"); s != query.end()) {
        const auto v = parse_id(s->second);
        if (!v) return api_error(400, "'since' is not a game id");
        since = *v;
    }
    auto t = db->tournament(*id, since);
    if (!t) return not_found("no such tournament");
    if (options_.live != nullptr)
        (*t)["live"] = options_.live->list((*t)["tournament"]["name"].get<std::string>());
    if (api) return json_response(200, *t);
    const auto& head = (*t)["tournament"];
    const std::string name = head["name"].get<std::string>();
    const std::string base = "/t/" + p[1] + "/" + p[2];
    std::ostringstream sub;
    sub << html_escape(head["game"].get<std::string>()) << " · <span id=\"game-count\">"
        << head["games"].get<std::int64_t>() << "</span> of <span id=\"game-total\">"
        << head["total"].get<std::int64_t>() << "</span> games · <span id=\"status\">"
        << html_escape(head["status"].get<std::string>())
        << "</span> <span id=\"live\" class=\"live-dot\" title=\"live\"></span> · "
        << html_escape(db->path().filename().string());
    if (!options_.hide_logs) sub << " · <a href=\"" << base << "/report\">the full report</a>";
    const std::string main =
        "<p id=\"problem\" class=\"problem\"></p>\n"
        "<section id=\"live-games\"></section>\n"
        "<section><h2>Standings</h2><div class=\"scroll\"><table id=\"standings\" "
        "class=\"numbers\"><thead><tr><th>#</th><th>bot</th><th>Elo</th><th>±95%</th>"
        "<th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>faults</th></tr>"
        "</thead><tbody></tbody></table></div></section>\n"
        "<section><h2>Games</h2><p class=\"note\">newest first</p><p id=\"earlier\" "
        "class=\"note\"></p><div class=\"scroll\"><table id=\"games\" class=\"numbers "
        "games\"><thead><tr><th>game</th><th>first</th><th>second</th><th>result</"
        "th><th>ending</th><th>plies</th><th>s</th><th>detail</th></tr></thead><tbody></"
        "tbody></table></div></section>";
    const json data{{"db", db->index()}, {"id", *id}, {"tournament", *t}};
    return page("tournament", name + " — arena serve", header_title(name, sub.str()), main, data,
                nav());
}

// /g/DB/GAME, /api/g/DB/GAME
Response Site::game_page(const std::vector<std::string>& p, bool api) {
    const auto not_found = [&](const std::string& what) {
        return api ? api_error(404, what) : Response::text(404, what);
    };
    ServedDatabase* db = database(p[1]);
    const auto id = parse_id(p[2]);
    if (db == nullptr || !id) return not_found("no such game");
    const auto game = db->game(*id);
    if (!game) return not_found("no such game");
    json replay = report::replay_game_json(*game);
    // A person (arena play, /play) has no stderr: no box for it.
    const auto people = db->people(*id);
    for (std::size_t side = 0; side < 2; ++side)
        if (people[side] || options_.hide_logs) replay["logs"][side] = nullptr;
    if (api) return json_response(200, replay);
    const auto tournament = db->tournament_of(*id);
    std::string sub = html_escape(game->game) + " " + html_escape(game->params);
    if (tournament) {
        sub += " · <a href=\"/t/" + p[1] + "/" + std::to_string(tournament->first) + "\">" +
               html_escape(tournament->second) + "</a>";
    }
    return page(
        "game",
        "game " + std::to_string(*id) + ": " + game->summary.first + " vs " + game->summary.second,
        header_title("Game " + std::to_string(*id) + ": " + game->summary.first + " vs " +
                         game->summary.second,
                     sub),
        "<section><div class=\"replay\" id=\"replay\"></div></section>", {{"game", replay}}, nav());
}

// /live/KEY, /api/live/KEY
Response Site::live_page(const std::vector<std::string>& p, bool api) {
    const auto not_found = [&](const std::string& what) {
        return api ? api_error(404, what) : Response::text(404, what);
    };
    if (options_.live == nullptr || !is_live_key(p[1])) return not_found("no such game");
    const auto live = options_.live->game(p[1]);
    if (!live) return not_found("no such game in progress");
    if (api) return json_response(200, *live);
    const auto& g = (*live)["game"];
    const std::string title =
        g["first"].get<std::string>() + " vs " + g["second"].get<std::string>();
    return page("live", title + " — in progress",
                header_title(title, html_escape((*live)["tournament"].get<std::string>()) +
                                        " · <span id=\"game-number\">in progress: its game "
                                        "number comes when it is stored</span> · <span id=\"live\" "
                                        "class=\"live-dot\"></span>"),
                "<p id=\"game-status\" class=\"play-status\"></p><section><div "
                "class=\"live-game\"><div class=\"replay\" id=\"replay\"></div></div>"
                "</section>",
                {{"key", p[1]}, {"live", *live}}, nav());
}

// /play, /play/ID, /api/play, /api/play/ID
Response Site::play_page(const std::vector<std::string>& p, bool api) {
    const auto not_found = [&](const std::string& what) {
        return api ? api_error(404, what) : Response::text(404, what);
    };
    if (options_.play == nullptr) {
        return not_found(
            "playing is not enabled here: arena serve offers /play with --play-bot "
            "NAME=COMMAND or with the bots of the served tournaments");
    }
    if (p.size() == 1) {
        const json choices = options_.play->choices();
        if (api) return json_response(200, choices);
        const std::string stored =
            options_.play_db_path.empty()
                ? "Games are not stored."
                : "Finished games are stored in " + html_escape(options_.play_db_path) + ".";
        const std::string main =
            "<section><form id=\"play-form\" class=\"play\">"
            "<label for=\"game\">game</label><select id=\"game\" name=\"game\"></select>"
            "<label>board</label><div id=\"board-options\" class=\"board-options\"></div>"
            "<label for=\"bot\">bot</label><select id=\"bot\" name=\"bot\"></select>"
            "<label for=\"color\">you play</label><select id=\"color\" name=\"color\">"
            "<option value=\"first\">first</option>"
            "<option value=\"second\">second</option></select>"
            "<label for=\"move_ms\">the bot's time per move (ms)</label>"
            "<input id=\"move_ms\" name=\"move_ms\" type=\"number\">"
            "<div class=\"actions\"><button class=\"start\" type=\"submit\">Start the "
            "game</button> <span id=\"play-problem\" class=\"problem\"></span></div></form>"
            "<p id=\"no-bot\" class=\"note\" hidden>No bot here plays this game.</p>"
            "<p id=\"checking\" class=\"note\" hidden></p>"
            "<p class=\"note\">The bot is judged as in any match: its clock, its faults. "
            "You have no time limit; a move the rules refuse is refused and you choose "
            "another. Leaving the page ends the game. " +
            stored + "</p></section>";
        return page("play-form", "play — arena serve",
                    header_title("Play against a bot", "choose the game, the bot and your side"),
                    main, {{"choices", choices}}, nav());
    }
    if (!session_id(p[1])) return not_found("no such game");
    auto state = options_.play->state(p[1]);
    if (!state) return not_found("no such game (it may have ended long ago)");
    if (options_.play_db && state->contains("stored")) {
        (*state)["stored"]["link"] = "/g/" + std::to_string(*options_.play_db) + "/" +
                                     std::to_string((*state)["stored"]["game"].get<std::int64_t>());
    }
    if (api) return json_response(200, *state);
    const std::string title = "you vs " + (*state)["bot"].get<std::string>();
    const std::string main =
        "<section><div id=\"play-status\" class=\"play-status\" data-phase=\"\"></div>"
        "<div id=\"play-refused\" class=\"play-refused\"></div>"
        "<div class=\"play-actions\"><button id=\"play-leave\" type=\"button\">Leave this "
        "game</button> <a href=\"/play\">Choose another game</a></div>"
        "<div id=\"play-board\" class=\"play-board live-game\"><div class=\"replay\" "
        "id=\"replay\"></div></div><p id=\"play-stored\"></p></section>";
    return page("play", title + " — arena serve",
                header_title(title, html_escape((*state)["game"]["game"].get<std::string>()) + " " +
                                        html_escape((*state)["game"]["params"].get<std::string>())),
                main, {{"id", p[1]}, {"state", *state}}, nav());
}

Response Site::post(const std::vector<std::string>& path, const Request& request) {
    const bool play_api = path.size() >= 2 && path[0] == "api" && path[1] == "play";
    if (!play_api || path.size() > 4) {
        auto r = Response::text(405, "only /api/play takes POST; everything else is read-only");
        r.headers.emplace_back("Allow", "GET, HEAD");
        return r;
    }
    // Only the server's own pages: a JSON body (which a form on another site
    // cannot send without the browser asking first) and, when the browser
    // names the page's origin, this server's.
    if (media_type(request.content_type) != "application/json")
        return api_error(415, "the body must be application/json");
    if (!request.origin.empty() && request.origin != "http://" + request.host)
        return api_error(403, "a request from another site");
    if (options_.play == nullptr) return api_error(404, "playing is not enabled here");
    const json body = json::parse(request.body, nullptr, false);
    if (body.is_discarded()) return api_error(400, "the body is not JSON");
    try {
        if (path.size() == 2) {
            const std::string id = options_.play->start(body);
            return json_response(201, {{"id", id}, {"url", "/play/" + id}});
        }
        if (!session_id(path[2])) return api_error(404, "no such game");
        if (path.size() == 4 && path[3] == "move") {
            if (!body.is_object() || !body.contains("move") || !body["move"].is_string())
                return api_error(400, "expected {\"move\": \"...\"}");
            options_.play->move(path[2], body["move"].get<std::string>());
            return json_response(200, {{"ok", true}});
        }
        if (path.size() == 4 && path[3] == "leave") {
            options_.play->leave(path[2]);
            return json_response(200, {{"ok", true}});
        }
        return api_error(404, "no such action (move or leave)");
    } catch (const PlayError& e) {
        return api_error(e.status(), e.what());
    }
}

}  // namespace arena::serve
