// `arena submit URL FILE` (docs/league.md, "Uploading from a script"): the
// built executable against a stub league server, a raw Boost.Asio socket
// server in this file that records every request's bytes as they came
// (request line, headers, body) and answers with a canned HTTP response.
// Then the client in-process: its timeout, and the URLs it takes.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "arena/league/submit_client.hpp"
#include "arena/league/submit_command.hpp"
#include "arena/record/escape.hpp"
#include "arena_process.hpp"
#include "http_client.hpp"
#include "temp_dir.hpp"

namespace arena::league {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using testing::ArenaResult;
using testing::header_of;
using testing::TempDir;

// Two tokens of the form arena league user add prints.
const std::string kToken = "7.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";
const std::string kOtherToken = "12.zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPON_-98";

// One request as the stub received it.
struct StubRequest {
    std::string head;  // the request line and the headers, without the blank line
    std::string body;

    [[nodiscard]] std::string line() const { return head.substr(0, head.find("\r\n")); }
    [[nodiscard]] std::string header(const std::string& name) const {
        return header_of(head + "\r\n\r\n", name);
    }
};

// A league server's stand-in: answers each request (the n-th one, from 0)
// with what `answer` returns, the bytes of a whole HTTP response, then closes.
class StubServer {
  public:
    using Answer = std::function<std::string(const StubRequest&, std::size_t n)>;

    explicit StubServer(Answer answer)
        : answer_(std::move(answer)),
          acceptor_(io_, tcp::endpoint(asio::ip::address_v4::loopback(), 0)),
          port_(acceptor_.local_endpoint().port()),
          thread_([this] { serve(); }) {}
    ~StubServer() {
        stopping_ = true;
        boost::system::error_code ec;
        tcp::socket wake(io_);  // ends the accept that waits
        wake.connect(tcp::endpoint(asio::ip::address_v4::loopback(), port_), ec);
        thread_.join();
    }
    StubServer(const StubServer&) = delete;
    StubServer& operator=(const StubServer&) = delete;

    [[nodiscard]] unsigned short port() const { return port_; }
    [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    [[nodiscard]] std::vector<StubRequest> requests() const {
        const std::lock_guard lock(mutex_);
        return requests_;
    }

  private:
    void serve() {
        while (!stopping_) {
            tcp::socket socket(io_);
            boost::system::error_code ec;
            acceptor_.accept(socket, ec);
            if (!ec && !stopping_) handle(socket);
        }
    }

    void handle(tcp::socket& socket) {
        boost::system::error_code ec;
        std::string data;
        const std::size_t head_end =
            asio::read_until(socket, asio::dynamic_buffer(data), "\r\n\r\n", ec);
        if (ec) return;
        const std::string length = header_of(data, "Content-Length");
        const std::size_t size = length.empty() ? 0 : std::stoull(length);
        if (data.size() < head_end + size)
            asio::read(socket, asio::dynamic_buffer(data),
                       asio::transfer_exactly(head_end + size - data.size()), ec);
        StubRequest request{data.substr(0, head_end - 4), data.substr(head_end, size)};
        std::size_t n = 0;
        {
            const std::lock_guard lock(mutex_);
            requests_.push_back(request);
            n = requests_.size() - 1;
        }
        asio::write(socket, asio::buffer(answer_(request, n)), ec);
        socket.shutdown(tcp::socket::shutdown_send, ec);
        char buffer[4096];  // until the client closes: no reset to cut its answer
        while (!ec)
            socket.read_some(asio::buffer(buffer), ec);
    }

    Answer answer_;
    asio::io_context io_;
    tcp::acceptor acceptor_;
    unsigned short port_;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    std::vector<StubRequest> requests_;
    std::thread thread_;
};

std::string http_answer(int status, const std::string& body, const std::string& headers = "",
                        const std::string& type = "application/json") {
    return "HTTP/1.1 " + std::to_string(status) + " Whatever\r\nContent-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n" +
           headers + "\r\n" + body;
}

std::string accepted(int version) {
    return http_answer(202, R"({"version": )" + std::to_string(version) +
                                R"(, "status": "checking", "message": "upload received"})");
}

std::string version_answer(int version, const std::string& status, const std::string& message,
                           const std::string& log = "") {
    nlohmann::json json{{"version", version}, {"status", status},
                        {"file", "bot.py"},   {"uploaded_at", "2025-03-01T09:12:44Z"},
                        {"message", message}, {"log", log}};
    return http_answer(200, json.dump());
}

// Sets (or unsets) an environment variable for the arena processes a test
// starts, and puts it back after.
class EnvVar {
  public:
    EnvVar(const char* name, const std::optional<std::string>& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) {
            ::setenv(name, value->c_str(), 1);
        } else {
            ::unsetenv(name);
        }
    }
    ~EnvVar() {
        if (old_) {
            ::setenv(name_, old_->c_str(), 1);
        } else {
            ::unsetenv(name_);
        }
    }
    EnvVar(const EnvVar&) = delete;
    EnvVar& operator=(const EnvVar&) = delete;

  private:
    const char* name_;
    std::optional<std::string> old_;
};

class Submit : public ::testing::Test {
  protected:
    // `arena submit args...`, with ARENA_LEAGUE_TOKEN as `env_token` (unset
    // when nullopt, whatever the developer's shell has).
    ArenaResult submit(const std::vector<std::string>& args,
                       const std::optional<std::string>& env_token = std::nullopt) {
        const EnvVar env("ARENA_LEAGUE_TOKEN", env_token);
        std::vector<std::string> argv{"submit"};
        argv.insert(argv.end(), args.begin(), args.end());
        return testing::run_arena(dir_.path(), argv);
    }

    // A token file holding `token` and a newline, as an editor leaves it.
    std::string token_file(const std::string& token = kToken) {
        return dir_.write("token", token + "\n");
    }

    std::string bot_file(const std::string& content = "#!/usr/bin/env python3\nprint('move 4')\n",
                         const std::string& name = "bot.py") {
        return dir_.write(name, content);
    }

    TempDir dir_{"arena_submit"};
};

bool has_raw_escape(const ArenaResult& r) {
    return r.out.find('\x1b') != std::string::npos || r.err.find('\x1b') != std::string::npos;
}

TEST_F(Submit, SendsTheFilesBytesExactlyWithItsNameAndTheToken) {
    StubServer server([](const StubRequest&, std::size_t) { return accepted(3); });
    constexpr char kHead[] =
        "\x7f"
        "ELF\0\r\n\r\nGET / HTTP/1.1\r\n\xff\xfe\0\0";
    std::string bytes(kHead, sizeof kHead - 1);
    for (int i = 0; i < 200'000; ++i)
        bytes += static_cast<char>((i * 7919) % 256);
    const std::string file = bot_file(bytes, "my bot+1.py");

    const ArenaResult r = submit({server.url(), file, "--token-file", token_file()});

    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out,
              "arena submit: accepted my bot+1.py as version 3 of your bot; it is being checked\n"
              "  upload received\n");
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    const StubRequest& request = requests[0];
    EXPECT_EQ(request.line(), "POST /api/league/upload?name=my%20bot%2B1.py HTTP/1.1");
    EXPECT_EQ(request.header("Authorization"), "Bearer " + kToken);  // the file's newline gone
    EXPECT_EQ(request.header("Content-Type"), "application/octet-stream");
    EXPECT_EQ(request.header("Host"), "127.0.0.1:" + std::to_string(server.port()));
    EXPECT_EQ(request.header("Content-Length"), std::to_string(bytes.size()));
    EXPECT_TRUE(request.body == bytes) << "the body differs from the file's bytes";
}

TEST_F(Submit, ThePrefixOfTheUrlAndNameAreUsed) {
    StubServer server([](const StubRequest&, std::size_t) { return accepted(1); });
    const ArenaResult r = submit({server.url() + "/league-prefix/", bot_file(), "--name",
                                  "other name.tar.gz", "--token-file", token_file()});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("accepted other name.tar.gz as version 1 of your bot"), std::string::npos)
        << r.out;
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests()[0].line(),
              "POST /league-prefix/api/league/upload?name=other%20name.tar.gz HTTP/1.1");
}

TEST_F(Submit, TheTokenComesFromTheEnvironmentUnlessAnOptionGivesIt) {
    StubServer server([](const StubRequest&, std::size_t) { return accepted(2); });
    const std::string file = bot_file();
    EXPECT_EQ(submit({server.url(), file}, kOtherToken).status, 0);
    EXPECT_EQ(submit({server.url(), file, "--token-file", token_file(kToken)}, kOtherToken).status,
              0);
    EXPECT_EQ(submit({server.url(), file, "--token", kToken}).status, 0);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_EQ(requests[0].header("Authorization"), "Bearer " + kOtherToken);
    EXPECT_EQ(requests[1].header("Authorization"), "Bearer " + kToken);
    EXPECT_EQ(requests[2].header("Authorization"), "Bearer " + kToken);
}

TEST_F(Submit, WithoutAGoodTokenNothingIsSent) {
    StubServer server([](const StubRequest&, std::size_t) { return accepted(1); });
    const std::string file = bot_file();

    const ArenaResult none = submit({server.url(), file});
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("no token"), std::string::npos) << none.err;
    EXPECT_NE(none.err.find("ARENA_LEAGUE_TOKEN"), std::string::npos) << none.err;

    // Not a token: refused, and not printed (it may be a secret all the same).
    const ArenaResult bad = submit({server.url(), file, "--token-file", token_file("hunter2")});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("is not a league token"), std::string::npos) << bad.err;
    EXPECT_EQ(bad.err.find("hunter2"), std::string::npos) << bad.err;

    const ArenaResult both =
        submit({server.url(), file, "--token", kToken, "--token-file", token_file()});
    EXPECT_EQ(both.status, 2);
    EXPECT_NE(both.err.find("--token and --token-file: give one"), std::string::npos) << both.err;

    const ArenaResult missing = submit({server.url(), file, "--token-file", "no-such-token"});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("No such file or directory"), std::string::npos) << missing.err;

    EXPECT_TRUE(server.requests().empty());
}

TEST_F(Submit, EachRefusalExitsOneWithTheServersErrorEscaped) {
    for (const int status : {401, 403, 413, 422, 429, 503}) {
        SCOPED_TRACE(status);
        StubServer server([status](const StubRequest&, std::size_t) {
            const nlohmann::json error{
                {"error", "upload \x1b[31mred\x1b[0m refused " + std::to_string(status)}};
            return http_answer(status, error.dump(), status == 429 ? "Retry-After: 30\r\n" : "");
        });
        const ArenaResult r = submit({server.url(), bot_file(), "--token-file", token_file()});
        EXPECT_EQ(r.status, 1);
        EXPECT_EQ(r.out, "");
        EXPECT_NE(r.err.find(server.url() + " refused bot.py: HTTP " + std::to_string(status) +
                             ": upload \\x1b[31mred\\x1b[0m refused " + std::to_string(status)),
                  std::string::npos)
            << r.err;
        EXPECT_FALSE(has_raw_escape(r)) << r.err;
        if (status == 401) {
            EXPECT_NE(r.err.find("arena league user reset"), std::string::npos) << r.err;
        }
        if (status == 429) {
            EXPECT_NE(r.err.find("wait 30 s"), std::string::npos) << r.err;
        }
    }
}

TEST_F(Submit, AnAnswerThatIsNotTheLeaguesIsShownEscaped) {
    StubServer not_found([](const StubRequest&, std::size_t) {
        return http_answer(404,
                           "Not \x1b]0;title\x07"
                           "Found\r\nmore",
                           "", "text/plain");
    });
    const ArenaResult r = submit({not_found.url(), bot_file(), "--token-file", token_file()});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("HTTP 404: Not \\x1b]0;title\\x07Found (is the URL the league server's"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(has_raw_escape(r)) << r.err;

    // A 2xx that names no version is not taken for an acceptance.
    StubServer page([](const StubRequest&, std::size_t) {
        return http_answer(200, "<html>hello</html>", "", "text/html");
    });
    const ArenaResult p = submit({page.url(), bot_file(), "--token-file", token_file()});
    EXPECT_EQ(p.status, 1);
    EXPECT_NE(p.err.find("without a version number"), std::string::npos) << p.err;
}

TEST_F(Submit, AnAnswerLargerThanTheCapIsNotRead) {
    StubServer server([](const StubRequest&, std::size_t) {
        return http_answer(422, std::string(5 * 1024 * 1024, 'x'));
    });
    const ArenaResult r = submit({server.url(), bot_file(), "--token-file", token_file()});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("its answer is larger than 4194304 bytes"), std::string::npos) << r.err;
}

TEST_F(Submit, WaitPrintsAPassingVerdict) {
    StubServer server([](const StubRequest&, std::size_t n) {
        if (n == 0) return accepted(5);
        if (n == 1) return version_answer(5, "checking", "");
        return version_answer(5, "passed", "all checks passed");
    });
    const ArenaResult r =
        submit({server.url(), bot_file(), "--token-file", token_file(), "--wait"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("accepted bot.py as version 5"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("arena submit: version 5 (bot.py) passed its check: all checks passed\n"),
              std::string::npos)
        << r.out;
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 3u);
    for (const std::size_t i : {1u, 2u}) {
        EXPECT_EQ(requests[i].line(), "GET /api/league/versions/5 HTTP/1.1");
        EXPECT_EQ(requests[i].header("Authorization"), "Bearer " + kToken);
    }
}

TEST_F(Submit, WaitPrintsAFailedCheckWithItsLogEscaped) {
    StubServer server([](const StubRequest&, std::size_t n) {
        if (n == 0) return accepted(6);
        return version_answer(6, "failed", "no move in \x1b[1m5 s",
                              "sent: go\nreceived: \x1b[2J(nothing)\n\tstderr: boom");
    });
    const ArenaResult r =
        submit({server.url(), bot_file(), "--token-file", token_file(), "--wait-s", "30"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("arena submit: version 6 (bot.py) failed its check: no move in "
                         "\\x1b[1m5 s\nthe check's log:\n"
                         "sent: go\nreceived: \\x1b[2J(nothing)\n\tstderr: boom\n"),
              std::string::npos)
        << r.out;
    EXPECT_FALSE(has_raw_escape(r)) << r.out;
}

TEST_F(Submit, WaitGivesUpWhenTheCheckDoesNotEndInTime) {
    StubServer server([](const StubRequest&, std::size_t n) {
        return n == 0 ? accepted(7) : version_answer(7, "checking", "");
    });
    const auto start = std::chrono::steady_clock::now();
    const ArenaResult r =
        submit({server.url(), bot_file(), "--token-file", token_file(), "--wait-s", "2"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("version 7 has no verdict after 2 s (its status is 'checking')"),
              std::string::npos)
        << r.err;
    EXPECT_GE(server.requests().size(), 2u);  // asked more than once
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(Submit, AServerOutOfReachIsAFailure) {
    unsigned short port = 0;
    {
        asio::io_context io;  // a port that was free a moment ago, and nobody listens on
        tcp::acceptor probe(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
        port = probe.local_endpoint().port();
    }
    const std::string url = "http://127.0.0.1:" + std::to_string(port);
    const ArenaResult r = submit({url, bot_file(), "--token-file", token_file()});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(
        r.err.find("arena submit: could not upload bot.py to " + url + ": Connection refused"),
        std::string::npos)
        << r.err;
}

TEST_F(Submit, UrlsItCannotUseAreUsageErrors) {
    const std::string file = bot_file();
    const std::string tokens = token_file();
    const ArenaResult https = submit({"https://league.example.org", file, "--token-file", tokens});
    EXPECT_EQ(https.status, 2);
    EXPECT_NE(https.err.find("URL 'https://league.example.org': arena submit speaks plain HTTP "
                             "only"),
              std::string::npos)
        << https.err;
    EXPECT_NE(https.err.find("curl"), std::string::npos) << https.err;

    for (const std::string url :
         {"garbage", "127.0.0.1:8080", "ftp://host/", "http://", "http://host:99999",
          "http://me@host", "http://host/?x=1", "http://ho\x1bst"}) {
        SCOPED_TRACE(url);
        const ArenaResult r = submit({url, file, "--token-file", tokens});
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err.rfind("arena submit: URL '" + record::escape_controls(url) + "': ", 0), 0u)
            << r.err;
        EXPECT_FALSE(has_raw_escape(r));
    }
}

TEST_F(Submit, AFileItCannotSendIsAUsageError) {
    StubServer server([](const StubRequest&, std::size_t) { return accepted(1); });
    const std::string tokens = token_file();

    const ArenaResult missing = submit({server.url(), "no-such-bot.py", "--token-file", tokens});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("FILE 'no-such-bot.py': No such file or directory"),
              std::string::npos)
        << missing.err;

    const auto folder = dir_.path() / "mybot";
    std::filesystem::create_directory(folder);
    const ArenaResult dir = submit({server.url(), folder.string(), "--token-file", tokens});
    EXPECT_EQ(dir.status, 2);
    EXPECT_NE(dir.err.find("it is a folder"), std::string::npos) << dir.err;

    // 1 GiB and a byte, sparse: refused by its size, without being read.
    const std::string huge = bot_file("", "huge.bin");
    std::filesystem::resize_file(huge, kMaxSubmitBytes + 1);
    const ArenaResult big = submit({server.url(), huge, "--token-file", tokens});
    EXPECT_EQ(big.status, 2);
    EXPECT_NE(big.err.find("it holds 1073741825 bytes, more than the 1 GiB arena submit takes"),
              std::string::npos)
        << big.err;

    EXPECT_TRUE(server.requests().empty());
}

TEST_F(Submit, HelpAndMissingArguments) {
    const ArenaResult help = submit({"--help"});
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("usage: arena submit URL FILE"), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("ARENA_LEAGUE_TOKEN"), std::string::npos);
    EXPECT_NE(help.out.find("--token-file"), std::string::npos);

    const ArenaResult none = submit({});
    EXPECT_EQ(none.status, 2);
    EXPECT_NE(none.err.find("arena submit: missing URL"), std::string::npos) << none.err;

    const ArenaResult no_file = submit({"http://127.0.0.1:1"});
    EXPECT_EQ(no_file.status, 2);
    EXPECT_NE(no_file.err.find("arena submit: missing FILE"), std::string::npos) << no_file.err;

    const ArenaResult listed = testing::run_arena(dir_.path(), {"help"});
    EXPECT_NE(listed.out.find("  submit "), std::string::npos) << listed.out;
}

// ---- the client, in-process -----------------------------------------------

TEST(SubmitClient, GivesUpWhenNoAnswerComesInTime) {
    StubServer server([](const StubRequest&, std::size_t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        return std::string();
    });
    const auto url = parse_server_url(server.url());
    ASSERT_TRUE(url.url) << url.problem;
    ClientOptions options;
    options.read_timeout = std::chrono::milliseconds(300);
    const auto start = std::chrono::steady_clock::now();
    const LeagueReply reply = upload(*url.url, kToken, "bot.py", "print(1)\n", options);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1200));
    EXPECT_FALSE(reply.answered());
    EXPECT_EQ(reply.problem, "no answer within 300 ms");
}

TEST(SubmitClient, RefusesATokenThatCannotGoInAHeader) {
    const auto url = parse_server_url("http://127.0.0.1:1");
    ASSERT_TRUE(url.url);
    const LeagueReply reply = version(*url.url, "1.abc\r\nX-Evil: 1", 3);
    EXPECT_FALSE(reply.answered());
    EXPECT_NE(reply.problem.find("cannot be sent"), std::string::npos) << reply.problem;
}

TEST(SubmitUrl, ReadsHostPortAndPrefix) {
    const auto plain = parse_server_url("http://127.0.0.1:8080");
    ASSERT_TRUE(plain.url) << plain.problem;
    EXPECT_EQ(plain.url->host, "127.0.0.1");
    EXPECT_EQ(plain.url->port, 8080);
    EXPECT_EQ(plain.url->prefix, "");

    const auto prefixed = parse_server_url("HTTP://league.example.org/spring//");
    ASSERT_TRUE(prefixed.url) << prefixed.problem;
    EXPECT_EQ(prefixed.url->host, "league.example.org");
    EXPECT_EQ(prefixed.url->port, 80);
    EXPECT_EQ(prefixed.url->prefix, "/spring");
    EXPECT_EQ(prefixed.url->text(), "http://league.example.org/spring");

    const auto v6 = parse_server_url("http://[::1]:9000/a/b/");
    ASSERT_TRUE(v6.url) << v6.problem;
    EXPECT_EQ(v6.url->host, "::1");
    EXPECT_EQ(v6.url->port, 9000);
    EXPECT_EQ(v6.url->prefix, "/a/b");
    EXPECT_EQ(v6.url->authority(), "[::1]:9000");
}

TEST(SubmitUrl, RefusesWhatIsNotAPlainHttpAddress) {
    for (const char* url :
         {"https://host", "HTTPS://host:8443/x", "host:8080", "ftp://host", "http://", "http://:80",
          "http://host:0", "http://host:65536", "http://host:8o", "http://u:p@host",
          "http://host/x?y", "http://host/#top", "http://ho st", "http://h\xc3\xa9st",
          "http://[::1", "http://[zz]:80"}) {
        SCOPED_TRACE(url);
        const auto parsed = parse_server_url(url);
        EXPECT_FALSE(parsed.url);
        EXPECT_FALSE(parsed.problem.empty());
    }
    EXPECT_NE(parse_server_url("https://host").problem.find("plain HTTP only"), std::string::npos);
}

TEST(SubmitUrl, PercentEncodesAllButTheUnreservedBytes) {
    EXPECT_EQ(percent_encode("bot-1_a.B~"), "bot-1_a.B~");
    EXPECT_EQ(percent_encode("a b/c?d&e=f%+\xc3\xa9"), "a%20b%2Fc%3Fd%26e%3Df%25%2B%C3%A9");
    EXPECT_EQ(percent_encode(std::string("\0\n", 2)), "%00%0A");
}

TEST(SubmitToken, HasTheFormArenaLeagueUserPrints) {
    EXPECT_TRUE(is_league_token(kToken));
    EXPECT_TRUE(is_league_token(kOtherToken));
    EXPECT_FALSE(is_league_token(""));
    EXPECT_FALSE(is_league_token(kToken.substr(2)));  // no id
    EXPECT_FALSE(is_league_token(kToken + "A"));      // 44 characters
    EXPECT_FALSE(is_league_token(kToken.substr(0, kToken.size() - 1)));
    EXPECT_FALSE(is_league_token("x" + kToken));
    std::string plus = kToken;
    plus.back() = '+';  // base64, not base64url
    EXPECT_FALSE(is_league_token(plus));
}

}  // namespace
}  // namespace arena::league
