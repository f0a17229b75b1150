// A league's server (league/league_server.hpp), in process, over HTTP on
// loopback: uploads with a token and with a signed-in page, each checked by
// arena check-bot before it enters play (a failing version leaves the
// previous one in play), the session cookie and CSRF, what each caller may
// see, and the hostile cases of docs/league.md: no token, another's token,
// a missing CSRF token, archives that escape or bomb, a 1 GB upload, many
// uploads at once, late uploads, too many uploads. After each refusal,
// nothing on disk but the uploader's own folder may have changed.

#include "arena/league/league_server.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "archives.hpp"
#include "arena/league/accounts.hpp"
#include "db_query.hpp"
#include "http_client.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena::league {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;
using testing::body_of;
using testing::header_of;
using testing::http_exchange;
using testing::status_of;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every file under `root` with its bytes (but the league's database, which
// the server writes), keyed by path.
std::map<std::string, std::string> snapshot(const fs::path& root) {
    std::map<std::string, std::string> files;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
         ++it) {
        if (it->path().filename().string().starts_with("league.db")) continue;
        files[fs::relative(it->path(), root).string()] =
            it->is_regular_file() ? read_file(it->path()) : std::string("<dir>");
    }
    return files;
}

// The paths where two snapshots differ ("" when none), not their bytes.
std::string changes(const std::map<std::string, std::string>& before,
                    const std::map<std::string, std::string>& after) {
    std::string out;
    for (const auto& [path, bytes] : after)
        if (auto it = before.find(path); it == before.end() || it->second != bytes)
            out += "changed or made: " + path + "\n";
    for (const auto& [path, bytes] : before)
        if (!after.contains(path)) out += "removed: " + path + "\n";
    return out;
}

// A Python bot that answers the handshake, then nothing sensible.
constexpr const char* kBrokenBot =
    "import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n";

class LeagueServerTest : public ::testing::Test {
  protected:
    void SetUp() override { fs::create_directories(subs()); }

    fs::path subs() const { return dir_.path() / "subs"; }
    fs::path db() const { return dir_.path() / "league.db"; }

    // A round-robin league of connect4 with `league` as its league: section.
    fs::path config(const std::string& league = "{}", int games = 2) {
        return dir_.write("league.yaml",
                          "name: spring\ngame: { name: connect4 }\ntime: { move_ms: 1000 }\n"
                          "openings: { random_plies: 2 }\n"
                          "schedule: { type: round-robin, games_per_pair: " +
                              std::to_string(games) +
                              " }\nconcurrency: 2\nbots_dir: " + subs().string() +
                              "\ndatabase: " + db().string() + "\nleague: " + league + "\n");
    }

    void start(const std::string& league = "{}", bool play = true, int games = 2) {
        LeagueServerOptions options;
        options.config = config(league, games);
        options.server.port = 0;
        options.play = play;
        server_ = std::make_unique<LeagueServer>(host_, options, log_);
    }

    std::string add_user(const std::string& name, bool organiser = false) {
        Accounts accounts(db(), "spring");
        return accounts.add_user(name, organiser);
    }

    std::string send(const std::string& method, const std::string& target,
                     const std::string& body = "", const std::string& type = "application/json",
                     const std::string& headers = "") {
        return http_exchange(server_->port(),
                             testing::request(method, target, body, type, headers));
    }

    std::string upload(const std::string& token, const std::string& name,
                       const std::string& bytes) {
        return send("POST", "/api/league/upload?name=" + name, bytes, "application/octet-stream",
                    token.empty() ? "" : "Authorization: Bearer " + token + "\r\n");
    }

    // The version's JSON once its check is over (at most 60 s).
    json checked(const std::string& token, int version) {
        const auto until = std::chrono::steady_clock::now() + 60s;
        json v;
        while (std::chrono::steady_clock::now() < until) {
            const auto r = send("GET", "/api/league/versions/" + std::to_string(version), "", "",
                                "Authorization: Bearer " + token + "\r\n");
            v = json::parse(body_of(r), nullptr, false);
            if (status_of(r) == 200 && v["status"] != "checking") return v;
            std::this_thread::sleep_for(50ms);
        }
        return v;
    }

    // Signs in with `token`: the session cookie and the CSRF token.
    std::pair<std::string, std::string> sign_in(const std::string& token,
                                                const std::string& headers = "") {
        const auto r = send("POST", "/api/league/signin", json{{"token", token}}.dump(),
                            "application/json", headers);
        EXPECT_EQ(status_of(r), 200) << r;
        const auto cookie = header_of(r, "Set-Cookie");
        const auto j = json::parse(body_of(r), nullptr, false);
        return {cookie.substr(0, cookie.find(';')), j.value("csrf", "")};
    }

    std::int64_t stored_games_of(const std::string& bot) {
        return std::stoll(testing::query(
            db(),
            "SELECT count(*) FROM games g JOIN bots a ON a.id = g.first_bot JOIN bots b ON "
            "b.id = g.second_bot WHERE a.name = '" +
                bot + "' OR b.name = '" + bot + "'")[0][0]);
    }

    std::string python_bot() const {
        return read_file(testing::source("bots/examples/random_bot.py"));
    }

    testing::TempDir dir_{"league_server_test"};
    session::BotHost host_;
    std::ostringstream log_;
    std::unique_ptr<LeagueServer> server_;
};

TEST_F(LeagueServerTest, UploadWithATokenIsCheckedAndPlays) {
    const auto ann = add_user("ann");
    const auto bob = add_user("bob");
    start();
    auto r = upload(ann, "bot.py", python_bot());
    ASSERT_EQ(status_of(r), 202) << r;
    EXPECT_EQ(json::parse(body_of(r))["version"], 1);
    r = upload(bob, "bot.py", python_bot());
    ASSERT_EQ(status_of(r), 202) << r;
    EXPECT_EQ(checked(ann, 1)["status"], "passed") << log_.str();
    EXPECT_EQ(checked(bob, 1)["status"], "passed") << log_.str();
    EXPECT_TRUE(fs::exists(subs() / "ann" / "bot.py"));
    EXPECT_EQ(read_file(subs() / "ann" / "bot.yaml"), "command: ./bot.py\n");
    const auto until = std::chrono::steady_clock::now() + 60s;
    while (server_->status().stored < 2 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(50ms);
    EXPECT_EQ(server_->status().stored, 2) << log_.str();
    EXPECT_EQ(stored_games_of("ann"), 2);
}

TEST_F(LeagueServerTest, FailedCheckKeepsThePreviousVersionInPlay) {
    const auto ann = add_user("ann");
    start("{}", false);
    ASSERT_EQ(status_of(upload(ann, "bot.py", python_bot())), 202);
    ASSERT_EQ(checked(ann, 1)["status"], "passed");
    const auto before = snapshot(subs());
    ASSERT_EQ(status_of(upload(ann, "bot.py", kBrokenBot)), 202);
    const auto v2 = checked(ann, 2);
    EXPECT_EQ(v2["status"], "failed");
    EXPECT_NE(v2["message"].get<std::string>().find("failed:"), std::string::npos) << v2;
    EXPECT_NE(v2["log"].get<std::string>().find("FAIL"), std::string::npos) << v2;
    // The log names the participant's folder, not where the server checked it.
    EXPECT_EQ(v2["log"].get<std::string>().find(".install-"), std::string::npos) << v2;
    EXPECT_NE(v2["log"].get<std::string>().find((subs() / "ann").string()), std::string::npos)
        << v2;
    EXPECT_EQ(changes(before, snapshot(subs())), "");  // version 1 stays, nothing left beside it
}

TEST_F(LeagueServerTest, SignedInPageUploadsWithItsCsrfTokenOnly) {
    const auto ann = add_user("ann");
    start("{}", false);
    const auto [cookie, csrf] = sign_in(ann);
    ASSERT_EQ(cookie.size(), std::string("arena_league=").size() + 64);
    const std::string with_cookie = "Cookie: " + cookie + "\r\n";
    // No CSRF token, a wrong one, and the right one from another site.
    auto r = send("POST", "/api/league/upload?name=bot.py", python_bot(),
                  "application/octet-stream", with_cookie);
    EXPECT_EQ(status_of(r), 403) << r;
    r = send("POST", "/api/league/upload?name=bot.py", python_bot(), "application/octet-stream",
             with_cookie + "X-CSRF-Token: " + std::string(64, 'a') + "\r\n");
    EXPECT_EQ(status_of(r), 403) << r;
    r = send("POST", "/api/league/upload?name=bot.py", python_bot(), "application/octet-stream",
             with_cookie + "X-CSRF-Token: " + csrf + "\r\nOrigin: http://evil.example\r\n");
    EXPECT_EQ(status_of(r), 403) << r;
    EXPECT_TRUE(snapshot(subs()).empty());
    r = send("POST", "/api/league/upload?name=bot.py", python_bot(), "application/octet-stream",
             with_cookie + "X-CSRF-Token: " + csrf + "\r\nOrigin: http://127.0.0.1\r\n");
    EXPECT_EQ(status_of(r), 202) << r;
    EXPECT_EQ(checked(ann, 1)["status"], "passed");
    // Signed out, the cookie no longer works.
    r = send("POST", "/api/league/signout", "", "application/json",
             with_cookie + "X-CSRF-Token: " + csrf + "\r\n");
    EXPECT_EQ(status_of(r), 200);
    EXPECT_EQ(status_of(send("GET", "/api/league/me", "", "", with_cookie)), 401);
}

TEST_F(LeagueServerTest, SessionCookieIsHttpOnlyStrictAndSecureBehindTls) {
    const auto ann = add_user("ann");
    start("{}", false);
    auto r = send("POST", "/api/league/signin", json{{"token", ann}}.dump());
    const auto plain = header_of(r, "Set-Cookie");
    EXPECT_NE(plain.find("; HttpOnly"), std::string::npos) << plain;
    EXPECT_NE(plain.find("; SameSite=Strict"), std::string::npos) << plain;
    EXPECT_EQ(plain.find("Secure"), std::string::npos) << plain;
    r = send("POST", "/api/league/signin", json{{"token", ann}}.dump(), "application/json",
             "X-Forwarded-Proto: https\r\n");
    EXPECT_NE(header_of(r, "Set-Cookie").find("; Secure"), std::string::npos);
    r = send("POST", "/api/league/signin", json{{"token", ann + "x"}}.dump());
    EXPECT_EQ(status_of(r), 401);
    EXPECT_EQ(header_of(r, "Set-Cookie"), "");
}

TEST_F(LeagueServerTest, WithoutATokenNothingIsReadOrWritten) {
    add_user("ann");
    start("{}", false);
    // 1 GB announced: refused from the header, before the body.
    const auto started = std::chrono::steady_clock::now();
    auto r = http_exchange(server_->port(),
                           "POST /api/league/upload?name=bot.py HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Content-Length: 1073741824\r\n\r\n");
    EXPECT_EQ(status_of(r), 401) << r;
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
    r = upload("1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "bot.py", python_bot());
    EXPECT_EQ(status_of(r), 401) << r;
    EXPECT_EQ(status_of(send("GET", "/me")), 303);
    EXPECT_EQ(status_of(send("GET", "/api/league/me")), 401);
    EXPECT_TRUE(snapshot(subs()).empty());
}

TEST_F(LeagueServerTest, OneGigabyteUploadIsRefusedBeforeItsBody) {
    const auto ann = add_user("ann");
    start("{}", false);
    const auto started = std::chrono::steady_clock::now();
    auto r = http_exchange(server_->port(),
                           "POST /api/league/upload?name=bot.py HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Authorization: Bearer " +
                               ann + "\r\nContent-Length: 1073741824\r\n\r\n" +
                               std::string(1 << 20, 'x'));
    EXPECT_EQ(status_of(r), 413) << r;
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
    EXPECT_TRUE(snapshot(subs()).empty());
}

TEST_F(LeagueServerTest, HostileArchivesAre4xxAndTouchNothing) {
    const auto ann = add_user("ann");
    const auto bob = add_user("bob");
    start("{}", false);
    ASSERT_EQ(status_of(upload(bob, "bot.py", python_bot())), 202);
    ASSERT_EQ(checked(bob, 1)["status"], "passed");
    const auto before = snapshot(dir_.path());
    using testing::Entry;
    using testing::Format;
    const std::string yaml = "command: python3 bot.py\n";
    const std::vector<std::pair<std::string, std::string>> hostile = {
        {"up.tar.gz",
         testing::make_archive({{"mybot/bot.yaml", yaml}, {"mybot/../bob/bot.py", "print('x')\n"}},
                               Format::tar_gz)},
        {"abs.tar.gz",
         testing::make_archive({{"mybot/bot.yaml", yaml}, {(subs() / "bob/bot.py").string(), "x"}},
                               Format::tar_gz)},
        {"link.tar.gz",
         testing::make_archive(
             {{"mybot/bot.yaml", yaml}, {"mybot/bot.py", "", AE_IFLNK, 0777, "../../bob/bot.py"}},
             Format::tar_gz)},
        {"bomb.zip",
         testing::make_archive(
             {{"mybot/bot.yaml", yaml}, {"mybot/zeros", std::string(8 << 20, '\0')}}, Format::zip)},
        {"other.zip",
         testing::make_archive({{"mybot/bot.yaml", "name: bob\n" + yaml}, {"mybot/bot.py", "x"}},
                               Format::zip)},
    };
    for (const auto& [name, bytes] : hostile) {
        const auto r = upload(ann, name, bytes);
        EXPECT_EQ(status_of(r), 422) << name << ": " << r;
        EXPECT_NE(body_of(r).find("\"error\""), std::string::npos) << r;
    }
    EXPECT_EQ(changes(before, snapshot(dir_.path())), "");
}

TEST_F(LeagueServerTest, AnotherParticipantsTokenSeesOnlyItsOwn) {
    const auto ann = add_user("ann");
    const auto bob = add_user("bob");
    start("{}", false);
    ASSERT_EQ(status_of(upload(ann, "bot.py", python_bot())), 202);
    ASSERT_EQ(checked(ann, 1)["status"], "passed");
    // Bob has no version 1: Ann's is not his to read.
    EXPECT_EQ(status_of(send("GET", "/api/league/versions/1", "", "",
                             "Authorization: Bearer " + bob + "\r\n")),
              404);
    const auto me = json::parse(
        body_of(send("GET", "/api/league/me", "", "", "Authorization: Bearer " + bob + "\r\n")));
    EXPECT_EQ(me["user"]["name"], "bob");
    EXPECT_TRUE(me["versions"].empty());
    // An organiser's pages refuse participants.
    EXPECT_EQ(status_of(send("GET", "/league/grades.csv", "", "",
                             "Authorization: Bearer " + bob + "\r\n")),
              403);
}

TEST_F(LeagueServerTest, ClosedLeagueRefusesUploads) {
    const auto ann = add_user("ann");
    start("{ closes: 2020-01-01T00:00:00Z }", false);
    const auto r = upload(ann, "bot.py", python_bot());
    EXPECT_EQ(status_of(r), 403) << r;
    EXPECT_NE(body_of(r).find("closed for uploads at 2020-01-01T00:00:00Z"), std::string::npos)
        << r;
    EXPECT_TRUE(snapshot(subs()).empty());
}

TEST_F(LeagueServerTest, UploadsPerHourAreLimited) {
    const auto ann = add_user("ann");
    start("{ uploads_per_hour: 2 }", false);
    EXPECT_EQ(status_of(upload(ann, "bot.py", python_bot())), 202);
    EXPECT_EQ(status_of(upload(ann, "notes.txt", "no bot")), 422);  // refused uploads count too
    const auto r = upload(ann, "bot.py", python_bot());
    EXPECT_EQ(status_of(r), 429) << r;
    const int retry = std::stoi(header_of(r, "Retry-After"));
    EXPECT_GT(retry, 3000);
    EXPECT_LE(retry, 3600);
}

TEST_F(LeagueServerTest, ManyUploadsAtOnceAreEachAnswered) {
    std::vector<std::string> tokens;
    for (int i = 0; i < 24; ++i)
        tokens.push_back(add_user("p" + std::to_string(i)));
    start("{ uploads_per_hour: 1 }", false);
    std::vector<std::future<int>> answers;
    for (int round = 0; round < 2; ++round)
        for (const auto& token : tokens)
            answers.push_back(std::async(std::launch::async, [&, token] {
                return status_of(upload(token, "bot.py", python_bot()));
            }));
    std::map<int, int> count;
    for (auto& a : answers)
        ++count[a.get()];
    // Each participant's first upload that got through is taken; the second is over the limit;
    // a few may be told to come back (503) while 8 are read at once.
    EXPECT_EQ(count[202] + count[429] + count[503], 48) << count[0];
    EXPECT_LE(count[202], 24);
    EXPECT_GE(count[202], 8);
    for (int i = 0; i < 24; ++i)
        EXPECT_LE(
            testing::query(db(), "SELECT count(*) FROM league_versions WHERE participant = 'p" +
                                     std::to_string(i) + "'")[0][0],
            "1");
}

TEST_F(LeagueServerTest, PublicPagesShowNoStderrButTheParticipantSeesTheirOwn) {
    const auto ann = add_user("ann");
    const auto bob = add_user("bob");
    const auto org = add_user("org", true);
    start();
    ASSERT_EQ(status_of(upload(ann, "bot.py", python_bot())), 202);
    // Bob's bot writes to stderr first.
    const auto script = python_bot();
    const auto body = script.find('\n') + 1;
    ASSERT_EQ(status_of(upload(bob, "bot.py",
                               script.substr(0, body) +
                                   "import sys\nprint('bob-secret', file=sys.stderr)\n" +
                                   script.substr(body))),
              202);
    ASSERT_EQ(checked(ann, 1)["status"], "passed");
    const auto bob_v1 = checked(bob, 1);
    ASSERT_EQ(bob_v1["status"], "passed") << bob_v1.dump().substr(0, 3000);
    const auto until = std::chrono::steady_clock::now() + 60s;
    while (server_->status().stored < 2 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(50ms);
    ASSERT_EQ(server_->status().stored, 2) << log_.str();
    const std::string game = testing::query(db(), "SELECT min(id) FROM games")[0][0];
    const auto pub = json::parse(body_of(send("GET", "/api/g/0/" + game)));
    EXPECT_TRUE(pub["logs"][0].is_null());
    EXPECT_TRUE(pub["logs"][1].is_null());
    EXPECT_EQ(status_of(send("GET", "/t/0/1/report")), 404);
    const auto as_ann = json::parse(body_of(
        send("GET", "/api/league/g/" + game, "", "", "Authorization: Bearer " + ann + "\r\n")));
    const int ann_side = as_ann["first"] == "ann" ? 0 : 1;
    EXPECT_TRUE(as_ann["logs"][1 - ann_side].is_null()) << as_ann["logs"];
    const auto as_bob = json::parse(body_of(
        send("GET", "/api/league/g/" + game, "", "", "Authorization: Bearer " + bob + "\r\n")));
    EXPECT_NE(as_bob["logs"][1 - ann_side].dump().find("bob-secret"), std::string::npos)
        << as_bob["logs"];
    const auto csv =
        send("GET", "/league/grades.csv", "", "", "Authorization: Bearer " + org + "\r\n");
    EXPECT_EQ(status_of(csv), 200) << csv;
    EXPECT_NE(body_of(csv).find("rank,name,elo"), std::string::npos);
    EXPECT_NE(body_of(csv).find(",ann,"), std::string::npos)
        << csv << body_of(send("GET", "/api/index")).substr(0, 2000);
}

}  // namespace
}  // namespace arena::league
