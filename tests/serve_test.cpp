// arena serve over real sockets: the pages and the JSON API of a served
// database, escaping of every string a bot controls, refusals of malformed,
// huge, foreign and unsafe requests (the server answers 4xx and goes on),
// /play from start to a stored game, its limits and its idle timeout, and
// the `arena serve` command itself.

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
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
            served.push_back(
                std::make_unique<serve::ServedDatabase>(static_cast<int>(i), dbs[i], nullptr));
        serve::SiteOptions options;
        if (play) {
            manager = std::make_unique<serve::PlayManager>(std::move(*play));
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
    EXPECT_EQ(games, 8);
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

TEST(Serve, ConnectionsBeyondTheLimitAreClosed) {
    TempDir dir("serve");
    const auto db = hostile_database(dir);
    TestServer server({db}, std::nullopt, 3);
    std::vector<int> held;
    for (int i = 0; i < 3; ++i) {
        held.push_back(connect_local(server.port));
        ASSERT_GE(held.back(), 0);
    }
    // Once the three are accepted (soon; a loaded machine may take a while),
    // a fourth is closed without an answer.
    std::string refused;
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::this_thread::sleep_for(50ms);
        refused = http_exchange(server.port, request("GET", "/api/index"), 5s);
        if (refused.empty()) break;
    }
    EXPECT_EQ(refused, "") << "answered beyond the connection limit";
    for (const int fd : held)
        ::close(fd);
    // Their slots come back.
    std::string r;
    for (int attempt = 0; attempt < 50 && status_of(r) != 200; ++attempt) {
        std::this_thread::sleep_for(50ms);
        r = server.get("/api/index");
    }
    EXPECT_EQ(status_of(r), 200);
}

serve::PlayConfig play_config(const std::filesystem::path& db, const std::string& marker) {
    serve::PlayConfig config;
    serve::PlayBot bot;
    bot.label = "random";
    bot.spec = {"random", {bin("bots/random"), "--seed", marker}, {}};
    bot.entry = {"random", bin("bots/random"), "arena1", ""};
    config.bots.push_back(bot);
    serve::PlayBot c4only = bot;
    c4only.games = {"connect4"};
    c4only.label = "connect4 only";
    config.bots.push_back(c4only);
    serve::PlayBot instant;
    instant.label = "instant";
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
    EXPECT_EQ(status_of(http_exchange(port, request("GET", "/live/" + key))), 200);
    EXPECT_EQ(status_of(http_exchange(port, request("GET", "/api/t/0/1"))), 200);
    // No /play in a run.
    EXPECT_EQ(status_of(http_exchange(port, request("GET", "/play"))), 404);
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
