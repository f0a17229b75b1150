// arena serve over real sockets: the pages and the JSON API of a served
// database, escaping of every string a bot controls, refusals of malformed,
// huge, foreign and unsafe requests (the server answers 4xx and goes on),
// /play from start to a stored game, its limits and its idle timeout, and
// the `arena serve` command itself.

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "arena/serve/http_server.hpp"
#include "arena/serve/play_session.hpp"
#include "arena/serve/served_database.hpp"
#include "arena/serve/site.hpp"
#include "arena/serve/target.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "http_client.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// Strings a bot controls, as HTML and JavaScript.
const std::string kName = "<script>alert('name')</script>";
const std::string kInfo = "</script><script>alert('info')</script><!--";
const std::string kLog = "<img src=x onerror=\"alert('log')\">\u2028";
const std::string kDetail = "<b onmouseover=alert(5)>detail</b>' \"";

void exec_sql(const std::filesystem::path& db, const std::string& sql) {
    sqlite3* handle = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(handle);
    ASSERT_EQ(rc, SQLITE_OK) << message;
}

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) {
        out += c;
        if (c == '\'') out += '\'';
    }
    return out + "'";
}

// A database with one tournament of 4 games between two random bots, the
// first of them renamed to markup, with markup in info lines, stderr and
// details.
std::filesystem::path hostile_database(const TempDir& dir) {
    const auto db = dir.path() / "served.db";
    const auto r =
        run_arena(dir.path(), {"match", "--game", "connect4", "--games", "4", "--move-ms", "1000",
                               "--openings", "none", "--db", db.string(), "a=" + bin("bots/random"),
                               "b=" + bin("bots/random") + " --seed 2"});
    EXPECT_EQ(r.status, 0) << r.err;
    exec_sql(db, "UPDATE bots SET name = " + quoted(kName) + " WHERE name = 'a';" +
                     "UPDATE moves SET info = " + quoted(kInfo) + " WHERE ply <= 2;" +
                     "INSERT OR REPLACE INTO bot_logs (game, side, stderr) SELECT id, 1, " +
                     quoted(kLog) + " FROM games;" +
                     "UPDATE games SET detail = " + quoted(kDetail) + ";");
    return db;
}

// The site and the server, in this process, on a free port.
struct TestServer {
    TestServer(std::vector<std::filesystem::path> dbs, std::optional<serve::PlayConfig> play = {},
               std::size_t max_connections = 64) {
        std::vector<std::unique_ptr<serve::ServedDatabase>> served;
        for (std::size_t i = 0; i < dbs.size(); ++i)
            served.push_back(std::make_unique<serve::ServedDatabase>(static_cast<int>(i), dbs[i]));
        serve::SiteOptions options;
        if (play) {
            host.emplace();
            manager = std::make_unique<serve::PlayManager>(*host, std::move(*play));
            options.play = manager.get();
            options.play_db = 0;
        }
        site = std::make_unique<serve::Site>(std::move(served), options);
        serve::ServerOptions server_options;
        server_options.port = 0;
        server_options.read_timeout = 1500ms;
        server_options.max_connections = max_connections;
        http = std::make_unique<serve::HttpServer>(
            server_options, [s = site.get()](const serve::Request& r) { return s->handle(r); });
        http->start();
        port = http->port();
    }

    std::string get(const std::string& target) {
        return http_exchange(port, request("GET", target));
    }
    std::string post(const std::string& target, const json& body) {
        return http_exchange(port, request("POST", target, body.dump()));
    }

    std::optional<session::BotHost> host;  // /play's bots; outlives the manager
    std::unique_ptr<serve::PlayManager> manager;
    std::unique_ptr<serve::Site> site;
    std::unique_ptr<serve::HttpServer> http;
    unsigned short port = 0;
};

TEST(ServeTarget, PathsAndQueriesAreTakenApartStrictly) {
    std::string problem;
    auto t = serve::parse_target("/t/0/12?since=5&x=a%20b+c", problem);
    ASSERT_TRUE(t) << problem;
    EXPECT_EQ(t->path, (std::vector<std::string>{"t", "0", "12"}));
    EXPECT_EQ(t->query["since"], "5");
    EXPECT_EQ(t->query["x"], "a b c");
    t = serve::parse_target("/", problem);
    ASSERT_TRUE(t);
    EXPECT_TRUE(t->path.empty());
    for (const char* bad :
         {"", "t/0", "/../etc/passwd", "/a/../../b", "/%2e%2e/x", "/%2E%2E", "/a/%2fb", "/a%00",
          "/%zz", "/%4", "/%", "/a b", "/a\\b", "/?x=%g1", "http://example.com/", "/./x"}) {
        EXPECT_FALSE(serve::parse_target(bad, problem)) << bad;
        EXPECT_FALSE(problem.empty()) << bad;
    }
    EXPECT_FALSE(serve::parse_target("/" + std::string(5000, 'a'), problem));
    EXPECT_EQ(serve::parse_id("123"), 123);
    EXPECT_FALSE(serve::parse_id("12a"));
    EXPECT_FALSE(serve::parse_id("-1"));
    EXPECT_FALSE(serve::parse_id(""));
    EXPECT_FALSE(serve::parse_id(std::string(19, '9')));
}

TEST(Serve, PagesAndJsonOfAServedDatabase) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db});

    auto r = server.get("/");
    EXPECT_EQ(status_of(r), 200) << r;
    EXPECT_EQ(header_of(r, "Content-Type"), "text/html; charset=utf-8");
    const std::string csp = header_of(r, "Content-Security-Policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << csp;
    EXPECT_EQ(header_of(r, "X-Content-Type-Options"), "nosniff");

    r = server.get("/api/index");
    ASSERT_EQ(status_of(r), 200) << r;
    auto j = json::parse(body_of(r));
    ASSERT_EQ(j["databases"].size(), 1u);
    EXPECT_EQ(j["databases"][0]["file"], "served.db");
    ASSERT_EQ(j["databases"][0]["tournaments"].size(), 1u);
    const auto t = j["databases"][0]["tournaments"][0];
    EXPECT_EQ(t["games"], 4);
    EXPECT_EQ(t["total"], 4);
    EXPECT_EQ(t["status"], "finished");
    const std::string tid = std::to_string(t["id"].get<int>());

    r = server.get("/api/t/0/" + tid);
    ASSERT_EQ(status_of(r), 200) << r;
    j = json::parse(body_of(r));
    ASSERT_EQ(j["games"].size(), 4u);
    ASSERT_EQ(j["standings"].size(), 2u);
    std::int64_t games = 0;
    for (const auto& s : j["standings"])
        games += s["games"].get<std::int64_t>();
    // From the empty board the second pair repeats the first move for move:
    // the standings count one pair, two games a bot (docs/ratings.md).
    EXPECT_EQ(games, 4);
    const auto last = j["games"][3]["id"].get<std::int64_t>();
    // Only what came after `since`.
    r = server.get("/api/t/0/" + tid + "?since=" + std::to_string(last - 1));
    EXPECT_EQ(json::parse(body_of(r))["games"].size(), 1u);
    r = server.get("/api/t/0/" + tid + "?since=" + std::to_string(last));
    EXPECT_EQ(json::parse(body_of(r))["games"].size(), 0u);

    r = server.get("/api/g/0/" + std::to_string(last));
    ASSERT_EQ(status_of(r), 200) << r;
    j = json::parse(body_of(r));
    EXPECT_EQ(j["board"]["game"], "connect4");
    EXPECT_FALSE(j["moves"].empty());

    for (const std::string& page : std::vector<std::string>{
             "/t/0/" + tid, "/t/0/" + tid + "/report", "/g/0/" + std::to_string(last), "/play"}) {
        r = server.get(page);
        EXPECT_EQ(status_of(r), page == "/play" ? 404 : 200) << page << r.substr(0, 300);
    }
    // Unknown things are 404, never an error of the server.
    for (const char* missing :
         {"/t/0/999", "/t/1/1", "/t/x/1", "/g/0/99999", "/g/0/1abc", "/api/t/0/999", "/nothing",
          "/api/nothing", "/live/1", "/play/0123456789abcdef0123456789abcdef"}) {
        EXPECT_EQ(status_of(server.get(missing)), 404) << missing;
    }
    EXPECT_EQ(status_of(server.get("/api/t/0/" + tid + "?since=abc")), 400);
    EXPECT_EQ(status_of(server.get("/favicon.ico")), 204);
}

TEST(Serve, EveryStringABotControlsIsEscaped) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db});
    const std::string tid = query_one(db, "SELECT id FROM tournaments");
    const std::string game = query_one(db, "SELECT min(id) FROM games");
    for (const std::string& page :
         std::vector<std::string>{"/", "/t/0/" + tid, "/t/0/" + tid + "/report", "/g/0/" + game,
                                  "/api/index", "/api/t/0/" + tid, "/api/g/0/" + game}) {
        const std::string r = server.get(page);
        ASSERT_EQ(status_of(r), 200) << page;
        const std::string body = body_of(r);
        for (const std::string& raw :
             std::vector<std::string>{kName, kInfo, kLog, kDetail, "<script>alert", "<img src=x"}) {
            EXPECT_EQ(body.find(raw), std::string::npos) << page << " holds " << raw;
        }
        // A line separator would end a line of script.
        EXPECT_EQ(body.find("\u2028"), std::string::npos) << page;
    }
    // The JSON carries the text itself, escaped.
    auto j = json::parse(body_of(server.get("/api/t/0/" + tid)));
    bool named = false;
    for (const auto& s : j["standings"])
        named = named || s["name"] == kName;
    EXPECT_TRUE(named);
    EXPECT_EQ(j["games"][0]["detail"], kDetail);
    j = json::parse(body_of(server.get("/api/g/0/" + game)));
    EXPECT_EQ(j["moves"][0]["info"], kInfo);
    EXPECT_EQ(j["logs"][0], kLog);
    // The page's title and header are escaped markup.
    const std::string page = body_of(server.get("/g/0/" + game));
    EXPECT_NE(page.find("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"), std::string::npos)
        << page.substr(0, 2000);
}

TEST(Serve, MalformedAndHugeRequestsGet4xxAndTheServerGoesOn) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db});
    const auto port = server.port;
    struct Case {
        std::string label, bytes;
        int status;
    };
    const std::string huge_header =
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(40000, 'a') + "\r\n\r\n";
    std::string many_headers = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < 2000; ++i)
        many_headers += "X-H" + std::to_string(i) + ": v\r\n";
    many_headers += "\r\n";
    const std::vector<Case> cases = {
        {"a huge header", huge_header, 431},
        {"many headers", many_headers, 431},
        {"a huge body", request("POST", "/api/play", std::string(200000, 'x')), 413},
        {"an unknown method", "BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 405},
        {"DELETE", "DELETE /t/0/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 405},
        {"a bad method token", "G(T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400},
        {"not HTTP", "hello there\r\n\r\n", 400},
        {"a bad version", "GET / HTTP/7.5\r\nHost: 127.0.0.1\r\n\r\n", 400},
        {"a relative target", "GET t/0/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400},
        {"an absolute URL", "GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400},
        {"/../", request("GET", "/../../etc/passwd"), 400},
        {"/t/../..", request("GET", "/t/0/../../../etc/passwd"), 400},
        {"an encoded ..", request("GET", "/%2e%2e/%2e%2e/etc/passwd"), 400},
        {"an encoded slash", request("GET", "/t/0%2f..%2f1/1"), 400},
        {"a bad escape", request("GET", "/t/%zz/1"), 400},
        {"a cut escape", request("GET", "/t/0/1%2"), 400},
        {"a NUL", request("GET", "/t/0/1%00"), 400},
        {"a bad query escape", request("GET", "/api/index?x=%%"), 400},
        {"a long target", request("GET", "/" + std::string(6000, 'a')), 400},
        {"a foreign host", "GET / HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n", 421},
        {"a rebinding host", "GET /api/index HTTP/1.1\r\nHost: 127.0.0.1.evil.example\r\n\r\n",
         421},
        {"a POST elsewhere", request("POST", "/t/0/1", "{}"), 405},
        {"a POST of a form", request("POST", "/api/play", "game=connect4", "text/plain"), 415},
        {"a POST from another site",
         request("POST", "/api/play", "{}", "application/json", "Origin: http://evil.example\r\n"),
         403},
        {"a bad Content-Length",
         "POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n", 400},
    };
    for (const auto& c : cases) {
        const std::string r = http_exchange(port, c.bytes);
        EXPECT_EQ(status_of(r), c.status) << c.label << ":\n" << r.substr(0, 300);
    }
    // HTTP/1.0 without a Host (not a browser) is served.
    EXPECT_EQ(status_of(http_exchange(port, "GET /api/index HTTP/1.0\r\n\r\n")), 200);
    EXPECT_EQ(status_of(http_exchange(port,
                                      "GET / HTTP/1.1\r\nHost: localhost:1234\r\n"
                                      "Connection: close\r\n\r\n")),
              200);
    EXPECT_EQ(status_of(http_exchange(port,
                                      "HEAD / HTTP/1.1\r\nHost: [::1]:1\r\n"
                                      "Connection: close\r\n\r\n")),
              200);
    // A client that says nothing is dropped after the read timeout.
    const int idle = connect_local(port);
    ASSERT_GE(idle, 0);
    bool closed = false;
    const auto started = std::chrono::steady_clock::now();
    (void)read_until_closed(idle, 20s, &closed);
    ::close(idle);
    EXPECT_TRUE(closed);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 15s);
    // Several requests on one connection (keep-alive) are answered in turn.
    const std::string two =
        "GET /api/index HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        "GET /api/index HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    const std::string both = http_exchange(port, two);
    EXPECT_EQ(status_of(both), 200);
    EXPECT_NE(both.find("HTTP/1.1 200", 10), std::string::npos);
    // After all that, the server still serves.
    EXPECT_EQ(status_of(server.get("/")), 200);
}

const std::vector<std::string> kAllGames = {"connect4", "gomoku", "reversi"};

// A /play bot of `command` (a program of build/, then its arguments) that
// plays `games` (empty: not known, tried by the manager).
serve::PlayBot play_bot(const std::string& name, std::vector<std::string> argv,
                        std::vector<std::string> games) {
    serve::PlayBot bot;
    bot.label = name;
    bot.games = std::move(games);
    bot.entry = {name, argv[0], "arena1", ""};
    bot.spec = {name, std::move(argv), {}};
    return bot;
}

serve::PlayConfig play_config(const std::filesystem::path& db, const std::string& marker) {
    serve::PlayConfig config;
    serve::PlayBot bot;
    bot.label = "random";
    bot.games = kAllGames;
    bot.spec = {"random", {bin("bots/random"), "--seed", marker}, {}};
    bot.entry = {"random", bin("bots/random"), "arena1", ""};
    config.bots.push_back(bot);
    serve::PlayBot c4only = bot;
    c4only.games = {"connect4"};
    c4only.label = "connect4 only";
    config.bots.push_back(c4only);
    serve::PlayBot instant;
    instant.label = "instant";
    instant.games = kAllGames;
    instant.spec = {"instant", {bin("bots/instant"), "--seed", marker}, {}};
    instant.entry = {"instant", bin("bots/instant"), "arena1", ""};
    config.bots.push_back(instant);
    config.db = db;
    config.max_sessions = 2;
    return config;
}

// Polls the state until `done` says so (or 30 s).
template <typename Done>
json wait_state(TestServer& server, const std::string& id, Done done) {
    json state;
    for (int i = 0; i < 3000; ++i) {
        const std::string r = server.get("/api/play/" + id);
        if (status_of(r) != 200) return json{{"http", status_of(r)}};
        state = json::parse(body_of(r));
        if (done(state)) break;
        std::this_thread::sleep_for(10ms);
    }
    return state;
}

// Against `instant` (the first legal column, always), column 1 fills up
// without a winner, so the person's illegal move is refused on the way.
TEST(ServePlay, AWholeConnect4GameIsPlayedThroughTheApiAndStored) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db}, play_config(db, unique_marker()));
    auto r = server.get("/api/play");
    ASSERT_EQ(status_of(r), 200) << r;
    EXPECT_EQ(json::parse(body_of(r))["bots"].size(), 3u);
    EXPECT_EQ(status_of(server.get("/play")), 200);

    r = server.post("/api/play",
                    {{"game", "connect4"}, {"bot", "2"}, {"color", "second"}, {"move_ms", 1000}});
    ASSERT_EQ(status_of(r), 201) << r;
    const std::string id = json::parse(body_of(r))["id"];
    EXPECT_EQ(id.size(), 32u);
    EXPECT_EQ(status_of(server.get("/play/" + id)), 200);
    json state;
    int refused = 0;
    for (int moves = 0; moves < 30; ++moves) {
        state = wait_state(server, id, [](const json& s) {
            return s["phase"] == "your-move" || s["phase"] == "over";
        });
        ASSERT_FALSE(state.contains("http")) << state;
        if (state["phase"] == "over") break;
        // An illegal move first (when a column is full), then the first legal.
        const json legal = state["legal"];
        ASSERT_FALSE(legal.empty());
        std::string full;
        for (int c = 1; c <= 7 && full.empty(); ++c)
            if (std::find(legal.begin(), legal.end(), std::to_string(c)) == legal.end())
                full = std::to_string(c);
        if (!full.empty() && refused == 0) {
            r = server.post("/api/play/" + id + "/move", {{"move", full}});
            ASSERT_EQ(status_of(r), 200) << r;
            state = wait_state(server, id, [](const json& s) { return s["refused"] != ""; });
            EXPECT_EQ(state["refused"], "illegal move '" + full + "'");
            ++refused;
        }
        r = server.post("/api/play/" + id + "/move", {{"move", legal[0]}});
        ASSERT_EQ(status_of(r), 200) << r;
    }
    ASSERT_EQ(state["phase"], "over") << state;
    EXPECT_EQ(refused, 1);
    // No move once the game is over.
    r = server.post("/api/play/" + id + "/move", {{"move", "1"}});
    EXPECT_EQ(status_of(r), 409) << r;
    EXPECT_EQ(json::parse(body_of(r))["error"], "it is not your move");
    ASSERT_TRUE(state.contains("stored")) << state;
    const std::string game = std::to_string(state["stored"]["game"].get<std::int64_t>());
    EXPECT_EQ(state["stored"]["link"], "/g/0/" + game);
    EXPECT_EQ(state["stored"]["tournament"], "human-vs-instant-connect4");
    const auto rows = query(db,
                            "SELECT f.name, s.name, g.result, g.termination, g.plies FROM games g "
                            "JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
                            "WHERE g.id = " +
                                game);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0][0], "instant");
    EXPECT_EQ(rows[0][1], "human");
    EXPECT_EQ(rows[0][2], state["result"]["score"]);
    EXPECT_EQ(rows[0][3], "normal");
    EXPECT_EQ(rows[0][4], std::to_string(state["game"]["moves"].size()));
    // The stored game is served like any other, and the play tournament is
    // listed with the others.
    EXPECT_EQ(status_of(server.get("/g/0/" + game)), 200);
    // The person (second) has no stderr: no log, not an empty one.
    const auto replay = json::parse(body_of(server.get("/api/g/0/" + game)));
    EXPECT_TRUE(replay["logs"][0].is_string()) << replay["logs"];
    EXPECT_TRUE(replay["logs"][1].is_null()) << replay["logs"];
    EXPECT_TRUE(state["game"]["logs"][1].is_null()) << state["game"]["logs"];
    const auto index = json::parse(body_of(server.get("/api/index")));
    EXPECT_EQ(index["databases"][0]["tournaments"].size(), 2u);
}

TEST(ServePlay, BadRequestsAreRefusedAndNoCommandCanBeNamed) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db}, play_config(db, unique_marker()));
    const json good{{"game", "connect4"}, {"bot", "0"}, {"color", "first"}, {"move_ms", 500}};
    struct Case {
        json body;
        std::string error;
    };
    auto with = [&](const char* key, json value) {
        json j = good;
        j[key] = std::move(value);
        return j;
    };
    const std::vector<Case> cases = {
        {json::array(), "the request is not a JSON object"},
        {with("game", "chess"), "unknown game (connect4, gomoku or reversi)"},
        {with("bot", "sh -c 'touch /tmp/pwned'"), "no such bot"},
        {with("bot", "../../bin/sh"), "no such bot"},
        {with("bot", "9"), "no such bot"},
        {with("color", "red"), "'color' must be first or second"},
        {with("move_ms", 1), "'move_ms' must be between 10 and 60000"},
        {with("move_ms", "lots"), "'move_ms' is not a number"},
        {with("params", {{"rows", "99"}}), "connect4: rows=99 is out of range (4..16)"},
        {with("params", {{"command", "x"}}), "'command' is not a board option of connect4"},
        {json{{"game", "gomoku"}, {"bot", "1"}, {"color", "first"}, {"move_ms", 500}},
         "this bot does not play gomoku"},
    };
    for (const auto& c : cases) {
        const std::string r = server.post("/api/play", c.body);
        EXPECT_EQ(status_of(r), 400) << c.body;
        EXPECT_EQ(json::parse(body_of(r))["error"], c.error) << c.body;
    }
    EXPECT_EQ(status_of(http_exchange(server.port, request("POST", "/api/play", "{not json"))),
              400);
    EXPECT_EQ(
        status_of(server.post("/api/play/0123456789abcdef0123456789abcdef/move", {{"move", "1"}})),
        404);
    EXPECT_EQ(status_of(server.post("/api/play/nothex/move", {{"move", "1"}})), 404);
    EXPECT_FALSE(std::filesystem::exists("/tmp/pwned"));
    EXPECT_EQ(server.manager->playing(), 0u);
}

TEST(ServePlay, GamesAreBoundedAndAnAbandonedPageEndsItsGame) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    const std::string marker = unique_marker();
    auto config = play_config(db, marker);
    config.idle_timeout = 1500ms;
    TestServer server({db}, config);
    const json start{{"game", "connect4"}, {"bot", "0"}, {"color", "first"}, {"move_ms", 500}};
    std::vector<std::string> ids;
    for (int i = 0; i < 2; ++i) {
        const std::string r = server.post("/api/play", start);
        ASSERT_EQ(status_of(r), 201) << r;
        ids.push_back(json::parse(body_of(r))["id"]);
    }
    // Two at once at most.
    std::string r = server.post("/api/play", start);
    EXPECT_EQ(status_of(r), 503) << r;
    for (const auto& id : ids)
        (void)wait_state(server, id, [](const json& s) { return s["phase"] == "your-move"; });
    EXPECT_EQ(processes_with_arg(marker).size(), 2u);
    // The first page leaves; the second goes quiet and times out.
    r = server.post("/api/play/" + ids[0] + "/leave", json::object());
    EXPECT_EQ(status_of(r), 200);
    auto state = wait_state(server, ids[0], [](const json& s) { return s["phase"] == "left"; });
    EXPECT_EQ(state["phase"], "left");
    EXPECT_FALSE(state.contains("stored"));
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (server.manager->playing() > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(50ms);
    EXPECT_EQ(server.manager->playing(), 0u);
    EXPECT_TRUE(survivors(marker).empty());
    EXPECT_EQ(wait_state(server, ids[1], [](const json&) { return true; })["phase"], "left");
    // Nothing was stored; a new game can start.
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM tournaments"), "1");
    EXPECT_EQ(status_of(server.post("/api/play", start)), 201);
}

// Thread stacks mapped in this process (the server's, in these tests):
// read-write mappings of the default stack size (RLIMIT_STACK). A thread's
// stack stays mapped until the thread is joined; joined threads' stacks are
// reused for new threads. -1 when the limit is not finite.
int thread_stacks() {
    rlimit limit{};
    if (getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
    const auto size = static_cast<unsigned long>(limit.rlim_cur);
    std::ifstream maps("/proc/self/maps");
    std::string range, perms, rest;
    int n = 0;
    while (maps >> range >> perms && std::getline(maps, rest)) {
        const auto dash = range.find('-');
        const unsigned long from = std::stoul(range.substr(0, dash), nullptr, 16);
        const unsigned long to = std::stoul(range.substr(dash + 1), nullptr, 16);
        if (perms == "rw-p" && to - from >= size - 65536 && to - from <= size + 65536) ++n;
    }
    return n;
}

// A bot that hangs on its move (move_ms 20 s): leaving the page, and the
// idle limit, kill it at once, free the slot and store nothing.
TEST(ServePlay, LeavingWhileTheBotThinksKillsItAtOnceAndStoresNothing) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    const std::string marker = unique_marker();
    serve::PlayConfig config;
    config.bots.push_back(play_bot(
        "hang", {bin("bots/misbehave"), "--mode", "hang", "--seed", marker}, {"connect4"}));
    config.db = db;
    config.max_sessions = 1;
    config.idle_timeout = 1500ms;
    TestServer server({db}, config);
    const json start{{"game", "connect4"}, {"bot", "0"}, {"color", "second"}, {"move_ms", 20000}};
    for (const bool by_leaving : {true, false}) {
        const std::string r = server.post("/api/play", start);
        ASSERT_EQ(status_of(r), 201) << r;
        const std::string id = json::parse(body_of(r))["id"];
        // The bot is on move (it hangs), and the page says so.
        for (int i = 0; i < 500 && processes_with_arg(marker).empty(); ++i)
            std::this_thread::sleep_for(10ms);
        EXPECT_EQ(processes_with_arg(marker).size(), 1u);
        // The handshake comes first; under load it can take a while.
        json state;
        for (int i = 0; i < 200; ++i) {
            state = json::parse(body_of(server.get("/api/play/" + id)));
            if (state["phase"] != "starting") break;
            std::this_thread::sleep_for(50ms);
        }
        ASSERT_EQ(state["phase"], "bot-thinking") << state;
        const auto left = std::chrono::steady_clock::now();
        if (by_leaving) {
            EXPECT_EQ(status_of(server.post("/api/play/" + id + "/leave", json::object())), 200);
        }
        // The page goes quiet when not leaving: the idle limit (1.5 s) ends it.
        json now;
        while (std::chrono::steady_clock::now() - left < 10s) {
            std::this_thread::sleep_for(50ms);
            if (by_leaving) {
                now = json::parse(body_of(server.get("/api/play/" + id)));
                if (now["phase"] != "bot-thinking") break;
            } else if (server.manager->playing() == 0) {
                now = json::parse(body_of(server.get("/api/play/" + id)));
                break;
            }
        }
        const auto took = std::chrono::steady_clock::now() - left;
        EXPECT_EQ(now["phase"], "left") << now;
        EXPECT_FALSE(now.contains("result")) << now;
        EXPECT_FALSE(now.contains("stored")) << now;
        // At once (well within the bot's 20 s), with margin for a loaded machine.
        EXPECT_LT(took, by_leaving ? 5s : 8s) << (by_leaving ? "leaving" : "idle");
        EXPECT_TRUE(survivors(marker).empty());
        EXPECT_EQ(server.manager->playing(), 0u);
    }
    // The slot is free, and nothing was stored.
    const std::string r = server.post("/api/play", start);
    EXPECT_EQ(status_of(r), 201) << r;
    server.manager->leave(json::parse(body_of(r))["id"]);
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM tournaments"), "1");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "4");
}

// A bot that cannot start, or that fails before its first move, is a failed
// start: the page says what happened, and it is neither a result nor stored.
TEST(ServePlay, ABotThatFailsBeforeItsFirstMoveIsAFailedStartNotAResult) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    serve::PlayConfig config;
    config.bots.push_back(
        play_bot("nostart", {bin("bots/misbehave"), "--mode", "handshake-exit"}, {"connect4"}));
    config.bots.push_back(
        play_bot("crasher", {bin("bots/misbehave"), "--mode", "crash"}, {"connect4"}));
    config.db = db;
    TestServer server({db}, config);
    struct Case {
        std::string bot, color, says;
    };
    for (const auto& c :
         std::vector<Case>{{"0", "second", "nostart did not start"},
                           {"1", "second", "crasher failed before its first move"},
                           {"1", "first", "crasher failed before its first move"}}) {
        const std::string r = server.post(
            "/api/play",
            {{"game", "connect4"}, {"bot", c.bot}, {"color", c.color}, {"move_ms", 1000}});
        ASSERT_EQ(status_of(r), 201) << r;
        const std::string id = json::parse(body_of(r))["id"];
        auto state = wait_state(server, id, [](const json& s) {
            return s["phase"] == "your-move" || s["phase"] == "over" || s["phase"] == "failed";
        });
        if (state["phase"] == "your-move") {
            ASSERT_EQ(status_of(server.post("/api/play/" + id + "/move", {{"move", "4"}})), 200);
            state = wait_state(server, id, [](const json& s) {
                return s["phase"] == "over" || s["phase"] == "failed";
            });
        }
        EXPECT_EQ(state["phase"], "failed") << c.bot << " " << c.color << ": " << state;
        EXPECT_NE(state.value("failure", "").find(c.says), std::string::npos) << state;
        EXPECT_FALSE(state.contains("result")) << state;
        EXPECT_FALSE(state.contains("stored")) << state;
    }
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "4");
    EXPECT_EQ(server.manager->playing(), 0u);
}

// Bots whose games are not known are tried on each: only the games they
// play are offered, and a start of another is refused.
TEST(ServePlay, OnlyTheGamesABotPlaysAreOfferedForIt) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    serve::PlayConfig config;
    config.bots.push_back(play_bot("random", {bin("bots/random")}, {}));
    config.bots.push_back(play_bot("c4", {bin("bots/c4-alphabeta"), "--level", "1"}, {}));
    config.bots.push_back(
        play_bot("nostart", {bin("bots/misbehave"), "--mode", "handshake-exit"}, {}));
    config.db = db;
    TestServer server({db}, config);
    json choices;
    const auto deadline = std::chrono::steady_clock::now() + 40s;
    for (;;) {
        choices = json::parse(body_of(server.get("/api/play")));
        bool checking = false;
        for (const auto& b : choices["bots"])
            checking = checking || b["checking"].get<bool>();
        if (!checking || std::chrono::steady_clock::now() > deadline) break;
        // While a bot is tried it is not offered.
        if (choices["bots"][2]["checking"]) {
            EXPECT_TRUE(choices["bots"][2]["games"].empty());
        }
        std::this_thread::sleep_for(100ms);
    }
    const auto& bots = choices["bots"];
    EXPECT_EQ(bots[0]["games"], json(kAllGames)) << bots;
    EXPECT_EQ(bots[1]["games"], json::array({"connect4"})) << bots;
    EXPECT_EQ(bots[2]["games"], json::array()) << bots;
    EXPECT_NE(bots[2].value("problem", "").find("startup"), std::string::npos) << bots;
    auto r = server.post("/api/play",
                         {{"game", "gomoku"}, {"bot", "1"}, {"color", "first"}, {"move_ms", 500}});
    EXPECT_EQ(status_of(r), 400) << r;
    EXPECT_EQ(json::parse(body_of(r))["error"], "this bot does not play gomoku");
    r = server.post("/api/play",
                    {{"game", "connect4"}, {"bot", "2"}, {"color", "first"}, {"move_ms", 500}});
    EXPECT_EQ(status_of(r), 400) << r;
    r = server.post("/api/play",
                    {{"game", "connect4"}, {"bot", "1"}, {"color", "first"}, {"move_ms", 500}});
    EXPECT_EQ(status_of(r), 201) << r;
}

// A finished game gives its thread back when it ends, not 10 minutes later:
// game after game, the server does not keep one more thread stack (8 MB of
// virtual memory) for each.
TEST(ServePlay, FinishedGamesGiveBackTheirThreads) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db}, play_config(db, unique_marker()));
    if (thread_stacks() < 0) GTEST_SKIP() << "no finite RLIMIT_STACK";
    const json start{{"game", "connect4"}, {"bot", "0"}, {"color", "first"}, {"move_ms", 500}};
    int before = 0;
    for (int game = 0; game < 10; ++game) {
        if (game == 2) before = thread_stacks();
        const std::string r = server.post("/api/play", start);
        ASSERT_EQ(status_of(r), 201) << r;
        const std::string id = json::parse(body_of(r))["id"];
        (void)wait_state(server, id, [](const json& s) { return s["phase"] == "your-move"; });
        ASSERT_EQ(status_of(server.post("/api/play/" + id + "/leave", json::object())), 200);
        const auto state =
            wait_state(server, id, [](const json& s) { return s["phase"] == "left"; });
        ASSERT_EQ(state["phase"], "left");
        // The page of a finished game still works.
        EXPECT_EQ(status_of(server.get("/play/" + id)), 200);
    }
    std::this_thread::sleep_for(300ms);
    const int grown = thread_stacks() - before;
    // 8 games that kept their threads would hold 8 more stacks.
    EXPECT_LE(grown, 3) << grown << " more thread stacks after 8 games";
}

// The report page is built once, and again only when a game is added.
TEST(Serve, TheReportPageIsKeptUntilTheDatabaseChanges) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    // 2,000 more games: copies of the four.
    std::string sql =
        "CREATE TEMP TABLE g AS SELECT * FROM games; CREATE TEMP TABLE m AS SELECT * FROM "
        "moves;";
    for (int k = 0; k < 500; ++k) {
        sql +=
            "UPDATE g SET id = id + 10000, game_index = game_index + 4; INSERT INTO games SELECT * "
            "FROM g; UPDATE m SET game = game + 10000; INSERT INTO moves SELECT * FROM m;";
    }
    sql += "UPDATE tournaments SET total_games = (SELECT count(*) FROM games);";
    exec_sql(db, sql);
    TestServer server({db});
    const std::string tid = query_one(db, "SELECT id FROM tournaments");
    const auto cpu_s = [] {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    const auto report = [&] {
        const std::string r = server.get("/t/0/" + tid + "/report");
        EXPECT_EQ(status_of(r), 200);
        return body_of(r);
    };
    double t0 = cpu_s();
    const std::string first = report();
    const double built = cpu_s() - t0;
    t0 = cpu_s();
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(report(), first);
    const double kept = cpu_s() - t0;
    std::printf("the report of 2,004 games: built in %.3f s of CPU, then 5 more for %.3f s\n",
                built, kept);
    EXPECT_LT(kept, built) << "built " << built << " s, 5 more " << kept << " s";
    // A game added (as a running arena run adds them) is in the next one.
    exec_sql(db,
             "CREATE TEMP TABLE a AS SELECT * FROM games WHERE id = (SELECT min(id) FROM games); "
             "UPDATE a SET id = (SELECT max(id) + 1 FROM games), game_index = (SELECT "
             "max(game_index) + 1 FROM games), detail = 'the added game'; INSERT INTO games "
             "SELECT * FROM a;");
    const std::string after = report();
    EXPECT_TRUE(after != first);
    EXPECT_TRUE(after.find("the added game") != std::string::npos);
}

// The navigation offers only what is there: no "Play against a bot" without
// /play (as under arena run --serve).
TEST(Serve, TheNavigationOffersOnlyWhatExists) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    const std::string tid = query_one(db, "SELECT id FROM tournaments");
    const std::string game = query_one(db, "SELECT min(id) FROM games");
    {
        TestServer server({db});
        for (const std::string& page :
             std::vector<std::string>{"/", "/t/0/" + tid, "/g/0/" + game}) {
            const std::string body = body_of(server.get(page));
            EXPECT_EQ(body.find("href=\"/play\""), std::string::npos) << page;
            EXPECT_NE(body.find("href=\"/\""), std::string::npos) << page;
        }
    }
    TestServer server({db}, play_config(db, unique_marker()));
    EXPECT_NE(body_of(server.get("/")).find("href=\"/play\""), std::string::npos);
}

// One game number on every page: the stored game's id (what `arena games`
// lists and `arena show DB N` takes); no schedule position beside it.
TEST(Serve, GamesAreNumberedByTheirStoredIdOnly) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db});
    const std::string tid = query_one(db, "SELECT id FROM tournaments");
    const std::string page = body_of(server.get("/t/0/" + tid));
    EXPECT_NE(page.find("<thead><tr><th>game</th><th>first</th>"), std::string::npos) << page;
    const std::string report = body_of(server.get("/t/0/" + tid + "/report"));
    EXPECT_NE(report.find("<th data-key=\"id\">game</th><th data-key=\"first\">"),
              std::string::npos);
    EXPECT_EQ(report.find("data-key=\"index\""), std::string::npos);
    EXPECT_EQ(report.find("schedule #"), std::string::npos);
}

// `arena serve` as a command: its start line, a page, Ctrl-C.
TEST(ServeCommand, ServesUntilInterrupted) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    ArenaProcess arena(
        dir.path(), {"serve", db.string(), "--port", "0", "--play-bot", "r=" + bin("bots/random")});
    unsigned short port = 0;
    std::string out;
    for (int i = 0; i < 500 && port == 0; ++i) {
        std::this_thread::sleep_for(20ms);
        out = slurp(arena.out_path());
        const auto at = out.find("http://127.0.0.1:");
        if (at != std::string::npos && out.find('\n', at) != std::string::npos)
            port = static_cast<unsigned short>(std::stoi(out.substr(at + 17)));
    }
    ASSERT_NE(port, 0) << out;
    EXPECT_NE(out.find("(1 database, /play with 3 bots); Ctrl-C stops it"), std::string::npos)
        << out;
    EXPECT_EQ(status_of(http_exchange(port, request("GET", "/api/index"))), 200);
    EXPECT_EQ(status_of(http_exchange(port, request("GET", "/play"))), 200);
    ::kill(arena.pid(), SIGINT);
    const auto r = arena.wait();
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("arena serve: stopped"), std::string::npos) << r.out;
}

// `arena run --serve`: the pages of the running tournament, with its games
// in progress move by move.
TEST(ServeCommand, ARunServesItsGamesInProgress) {
    TempDir dir("serve");
    const auto config = dir.write("slow.yaml",
                                  "name: slow\n"
                                  "game: { name: connect4 }\n"
                                  "time: { move_ms: 2000 }\n"
                                  "schedule: { type: round-robin, games_per_pair: 100 }\n"
                                  "openings: { random_plies: 0 }\n"
                                  "concurrency: 1\n"
                                  "bots:\n"
                                  "  - { name: sleepy, command: " +
                                      bin("bots/misbehave") +
                                      " --mode sleep --sleep-ms 40 }\n"
                                      "  - { name: random, command: " +
                                      bin("bots/random") + " }\n");
    const auto db = dir.path() / "slow.db";
    ArenaProcess arena(dir.path(), {"run", config, "--db", db.string(), "--serve", "0"});
    unsigned short port = 0;
    std::string out;
    for (int i = 0; i < 500 && port == 0; ++i) {
        std::this_thread::sleep_for(20ms);
        out = slurp(arena.out_path());
        const auto at = out.find("arena run: serving http://127.0.0.1:");
        if (at != std::string::npos && out.find('\n', at) != std::string::npos)
            port = static_cast<unsigned short>(std::stoi(out.substr(at + 36)));
    }
    ASSERT_NE(port, 0) << out;
    // A game in progress is listed, and its moves come one by one.
    std::string key;
    std::size_t plies = 0;
    bool grew = false;
    for (int i = 0; i < 400 && !grew; ++i) {
        std::this_thread::sleep_for(25ms);
        const auto index = json::parse(body_of(http_exchange(port, request("GET", "/api/index"))));
        ASSERT_TRUE(index.contains("live")) << index;
        if (key.empty()) {
            if (index["live"].empty()) continue;
            key = index["live"][0]["key"];
            EXPECT_EQ(index["live"][0]["tournament"], "slow");
        }
        const std::string r = http_exchange(port, request("GET", "/api/live/" + key));
        ASSERT_EQ(status_of(r), 200) << r;
        const auto live = json::parse(body_of(r));
        if (live["over"]) {
            key.clear();  // that one ended: watch the next
            plies = 0;
            continue;
        }
        const auto now = live["game"]["moves"].size();
        if (plies > 0 && now > plies) grew = true;
        plies = std::max(plies, now);
    }
    EXPECT_TRUE(grew) << "no game was seen growing move by move";
    // A game in progress has no number yet: its key is not one, and neither
    // the list nor its page shows a schedule position.
    EXPECT_TRUE(serve::is_live_key(key)) << key;
    const std::string live_page = http_exchange(port, request("GET", "/live/" + key));
    EXPECT_EQ(status_of(live_page), 200);
    EXPECT_EQ(live_page.find("of the schedule"), std::string::npos);
    const auto listed = json::parse(body_of(http_exchange(port, request("GET", "/api/index"))));
    for (const auto& g : listed["live"])
        EXPECT_FALSE(g.contains("index")) << g;
    // Once stored, it is known by the stored game's id, the number `arena
    // show DB N` takes.
    json ended;
    for (int i = 0; i < 400; ++i) {
        ended = json::parse(body_of(http_exchange(port, request("GET", "/api/live/" + key))));
        if (ended.contains("stored")) break;
        std::this_thread::sleep_for(50ms);
    }
    ASSERT_TRUE(ended.contains("stored")) << ended;
    const auto stored = ended["stored"]["game"].get<std::int64_t>();
    EXPECT_EQ(ended["game"]["id"], stored);
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games WHERE id = " + std::to_string(stored)),
              "1");
    EXPECT_EQ(status_of(http_exchange(port, request("GET", "/api/t/0/1"))), 200);
    // No /play in a run, and no page offers it.
    EXPECT_EQ(status_of(http_exchange(port, request("GET", "/play"))), 404);
    EXPECT_EQ(body_of(http_exchange(port, request("GET", "/"))).find("href=\"/play\""),
              std::string::npos);
    ::kill(arena.pid(), SIGINT);
    const auto r = arena.wait();
    EXPECT_EQ(r.status, 130) << r.err;
}

TEST(ServeCommand, BadArgumentsAndMissingDatabasesGetOneClearMessage) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    struct Case {
        std::vector<std::string> args;
        int status;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"serve"}, 2, "arena serve: expected at least one DB (or --play-db)"},
        {{"serve", db.string(), "--port", "70000"}, 2, "arena serve: --port must be 0..65535"},
        {{"serve", db.string(), "--bind", "nowhere"},
         2,
         "arena serve: --bind 'nowhere' is not an IP address"},
        {{"serve", (dir.path() / "missing.db").string()},
         1,
         "arena serve: " + (dir.path() / "missing.db").string() + ": no such results database"},
        {{"serve", db.string(), db.string()}, 2, "arena serve: " + db.string() + " is given twice"},
        {{"serve", db.string(), "--prot", "1"},
         2,
         "arena serve: unknown option '--prot' (did you mean '--port'?)"},
    };
    for (const auto& c : cases) {
        const auto r = run_arena(dir.path(), c.args);
        EXPECT_EQ(r.status, c.status) << r.err;
        EXPECT_EQ(r.err.substr(0, r.err.find('\n')), c.message) << r.err;
    }
}

}  // namespace
}  // namespace arena::testing
