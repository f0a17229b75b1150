// The web server under hostile clients, over real sockets on 127.0.0.1: a
// chunked trailer that once threw out of the parser and aborted the process,
// a chunk extension that grew without end, a request line, headers, a body
// and a trailer past their bounds, slow clients holding connections open
// (slowloris), and a bounded load test of `arena serve` that prints what it
// measured. Most tests run the real `arena serve` process, whose resident
// memory they read from /proc; the ones that need small limits run the
// HttpServer class with the real site in this process.

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "arena/serve/http_server.hpp"
#include "arena/serve/served_database.hpp"
#include "arena/serve/site.hpp"
#include "arena_process.hpp"
#include "http_client.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A results database with two stored games.
std::filesystem::path small_database(const TempDir& dir) {
    const auto db = dir.path() / "served.db";
    const auto r =
        run_arena(dir.path(), {"match", "--game", "connect4", "--games", "2", "--move-ms", "1000",
                               "--openings", "none", "--db", db.string(), "a=" + bin("bots/random"),
                               "b=" + bin("bots/random") + " --seed 2"});
    EXPECT_EQ(r.status, 0) << r.err;
    return db;
}

// `arena serve DB --port 0 --no-play`, with the port it printed.
struct ServeProcess {
    explicit ServeProcess(const TempDir& dir, const std::filesystem::path& db)
        : arena(dir.path(), {"serve", db.string(), "--port", "0", "--no-play"}) {
        std::string out;
        for (int i = 0; i < 1000 && port == 0; ++i) {
            std::this_thread::sleep_for(20ms);
            out = slurp(arena.out_path());
            const auto at = out.find("http://127.0.0.1:");
            if (at != std::string::npos && out.find('\n', at) != std::string::npos)
                port = static_cast<unsigned short>(std::stoi(out.substr(at + 17)));
        }
        EXPECT_NE(port, 0) << out;
    }

    // Resident memory in MB, from /proc/PID/status; 0 when it is gone.
    [[nodiscard]] double rss_mb() const {
        const std::string status =
            read_proc_file("/proc/" + std::to_string(arena.pid()) + "/status");
        const auto at = status.find("VmRSS:");
        if (at == std::string::npos) return 0;
        return std::stod(status.substr(at + 6)) / 1024.0;
    }

    [[nodiscard]] bool alive() { return !arena.try_wait().has_value(); }

    ArenaProcess arena;
    unsigned short port = 0;
};

// The site of `db` and the server, in this process, with `options` (its port
// chosen).
struct InProcessServer {
    InProcessServer(const std::filesystem::path& db, serve::ServerOptions options) {
        std::vector<std::unique_ptr<serve::ServedDatabase>> served;
        served.push_back(std::make_unique<serve::ServedDatabase>(0, db));
        site = std::make_unique<serve::Site>(std::move(served), serve::SiteOptions{});
        options.port = 0;
        http = std::make_unique<serve::HttpServer>(
            options, [s = site.get()](const serve::Request& r) { return s->handle(r); });
        http->start();
        port = http->port();
    }

    std::unique_ptr<serve::Site> site;
    std::unique_ptr<serve::HttpServer> http;
    unsigned short port = 0;
};

// A GET of `target` on a new connection: the status (0 for none) and how
// long the answer took.
struct Timed {
    int status = 0;
    std::chrono::milliseconds took{0};
};

Timed timed_get(unsigned short port, const std::string& target = "/",
                std::chrono::milliseconds timeout = 10s) {
    const auto start = Clock::now();
    Timed t;
    t.status = status_of(http_exchange(port, request("GET", target), timeout));
    t.took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return t;
}

// Sends `head`, then `filler` bytes of 'x' as fast as the server takes
// them, until the server answers (then the rest is not sent) or all is sent
// (then the answer is waited for up to `wait`). Returns the answer, read
// until the server closed the connection (*closed) or 3 s passed; *sent
// counts the filler sent.
std::string stream_until_answered(unsigned short port, const std::string& head, std::size_t filler,
                                  std::size_t* sent, bool* closed = nullptr,
                                  std::chrono::milliseconds wait = 5s) {
    *sent = 0;
    if (closed != nullptr) *closed = false;
    const int fd = connect_local(port);
    if (fd < 0) return "connect failed";
    std::size_t head_sent = 0;
    const std::string block(64 * 1024, 'x');
    std::string answer;
    auto last_send = Clock::now(), answered_at = Clock::now();
    for (;;) {
        const bool more = answer.empty() && (head_sent < head.size() || *sent < filler);
        pollfd p{fd, static_cast<short>(POLLIN | (more ? POLLOUT : 0)), 0};
        if (::poll(&p, 1, 100) < 0 && errno != EINTR) break;
        if ((p.revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            char buf[8192];
            const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
            if (n > 0) {
                if (answer.empty()) answered_at = Clock::now();
                answer.append(buf, static_cast<std::size_t>(n));
                continue;
            }
            if (n == 0 || (errno != EAGAIN && errno != EINTR)) {  // closed or reset
                if (closed != nullptr) *closed = true;
                break;
            }
        }
        if (!answer.empty()) {
            if (Clock::now() - answered_at > 3s) break;
            continue;
        }
        if (more && (p.revents & POLLOUT) != 0) {
            ssize_t n = 0;
            if (head_sent < head.size()) {
                n = ::send(fd, head.data() + head_sent, head.size() - head_sent,
                           MSG_NOSIGNAL | MSG_DONTWAIT);
                if (n > 0) head_sent += static_cast<std::size_t>(n);
            } else {
                n = ::send(fd, block.data(), std::min(block.size(), filler - *sent),
                           MSG_NOSIGNAL | MSG_DONTWAIT);
                if (n > 0) *sent += static_cast<std::size_t>(n);
            }
            if (n < 0 && errno != EAGAIN && errno != EINTR) {
                if (closed != nullptr) *closed = true;
                break;
            }
            last_send = Clock::now();
            continue;
        }
        if (!more && Clock::now() - last_send > wait) break;  // all sent, no answer
    }
    ::close(fd);
    return answer;
}

constexpr const char* kChunkedHead =
    "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    "Transfer-Encoding: chunked\r\n\r\n";

TEST(HttpHostile, AHugeTrailerFieldEndsOnlyItsConnection) {
    TempDir dir("http-hostile");
    ServeProcess server(dir, small_database(dir));
    ASSERT_NE(server.port, 0);
    // A 65,535-byte trailer field made Beast throw std::length_error ("field
    // value too large") out of the server's threads: the process aborted.
    const std::string bytes = std::string(kChunkedHead) +
                              "2\r\n{}\r\n0\r\nX-Trailer: " + std::string(65535, 'a') + "\r\n\r\n";
    const std::string r = http_exchange(server.port, bytes, 10s);
    const int status = status_of(r);
    EXPECT_TRUE(status == 431 || status == 400) << r.substr(0, 300);
    EXPECT_TRUE(server.alive());
    EXPECT_EQ(timed_get(server.port).status, 200);
    // Trailers of any size around the limit: answered, never a crash.
    for (const std::size_t size : {16000u, 16384u, 17000u, 32768u, 65000u, 65536u, 70000u}) {
        const std::string t = std::string(kChunkedHead) +
                              "2\r\n{}\r\n0\r\nX-T: " + std::string(size, 'b') + "\r\n\r\n";
        const int s = status_of(http_exchange(server.port, t, 10s));
        EXPECT_GE(s, 400) << size;
        EXPECT_LT(s, 500) << size;
    }
    EXPECT_TRUE(server.alive());
    EXPECT_EQ(timed_get(server.port).status, 200);
    ::kill(server.arena.pid(), SIGINT);
    const auto end = server.arena.wait();
    EXPECT_EQ(end.status, 0) << end.err;
    EXPECT_FALSE(looks_like_a_crash(end.err)) << end.err;
}

TEST(HttpHostile, AnEndlessChunkExtensionIsCutWithA400AndMemoryStaysSmall) {
    TempDir dir("http-hostile");
    ServeProcess server(dir, small_database(dir));
    ASSERT_NE(server.port, 0);
    const double before = server.rss_mb();
    // "2;" and then 64 MB of an extension that never ends: the server used
    // to buffer all of it, waiting for the line's end.
    std::size_t sent = 0;
    const std::string r =
        stream_until_answered(server.port, std::string(kChunkedHead) + "2;", 64u << 20, &sent);
    const double after = server.rss_mb();
    std::printf("chunk extension: %.1f MB sent before the answer; server RSS %.1f -> %.1f MB\n",
                static_cast<double>(sent) / (1 << 20), before, after);
    EXPECT_EQ(status_of(r), 400) << r.substr(0, 300);
    EXPECT_LT(sent, 32u << 20);
    EXPECT_LT(after, before + 16) << "the server kept what it was sent";
    EXPECT_TRUE(server.alive());
    EXPECT_EQ(timed_get(server.port).status, 200);
}

TEST(HttpHostile, EachPartOfARequestHasABound) {
    TempDir dir("http-hostile");
    ServeProcess server(dir, small_database(dir));
    ASSERT_NE(server.port, 0);
    std::string chunks;
    for (int i = 0; i < 100; ++i)
        chunks += "3e8\r\n" + std::string(1000, 'c') + "\r\n";
    struct Case {
        std::string label, bytes;
        int status;
        std::size_t filler = 0;  // bytes of 'x' sent after `bytes`
    };
    const std::vector<Case> cases = {
        {"a long request line",
         "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414},
        {"an endless request line", "GET /", 414, 16u << 20},
        {"a huge header",
         "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(40000, 'a') + "\r\n\r\n",
         431},
        {"a huge Content-Length",
         "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n", 413},
        {"a huge chunked body", kChunkedHead + chunks + "0\r\n\r\n", 413},
        {"a huge chunk size", std::string(kChunkedHead) + "ffffffffffff\r\n", 413},
        {"an endless trailer", std::string(kChunkedHead) + "2\r\n{}\r\n0\r\nX-T: ", 431, 16u << 20},
        {"a long chunk extension",
         std::string(kChunkedHead) + "2;" + std::string(20000, 'e') + "\r\n{}\r\n0\r\n\r\n", 400},
        {"a long trailer",
         std::string(kChunkedHead) + "2\r\n{}\r\n0\r\nX-T: " + std::string(20000, 't') + "\r\n\r\n",
         431},
        {"many trailers",
         [&] {
             std::string t = std::string(kChunkedHead) + "2\r\n{}\r\n0\r\n";
             for (int i = 0; i < 3000; ++i)
                 t += "X-T" + std::to_string(i) + ": v\r\n";
             return t + "\r\n";
         }(),
         431},
    };
    for (const auto& c : cases) {
        bool closed = false;
        std::size_t sent = 0;
        const std::string r = stream_until_answered(server.port, c.bytes, c.filler, &sent, &closed);
        EXPECT_EQ(status_of(r), c.status) << c.label << ":\n" << r.substr(0, 300);
        EXPECT_TRUE(closed) << c.label << ": the connection stays open";
    }
    // Within the bounds, a chunked body with an extension and a trailer is
    // read (and refused by the site: POST / is not a form).
    const std::string fine =
        std::string(kChunkedHead) + "2;name=value\r\n{}\r\n0\r\nX-T: v\r\n\r\n";
    EXPECT_EQ(status_of(http_exchange(server.port, fine, 10s)), 405);
    EXPECT_TRUE(server.alive());
    EXPECT_EQ(timed_get(server.port).status, 200);
}

// `n` connections that each sent the start of a request and then nothing.
std::vector<int> slow_connections(unsigned short port, int n) {
    std::vector<int> fds;
    const std::string start = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = 0; i < n; ++i) {
        const int fd = connect_local(port);
        if (fd < 0) break;
        (void)::send(fd, start.data(), start.size(), MSG_NOSIGNAL);
        fds.push_back(fd);
    }
    return fds;
}

// Whether the server closed `fd` (without waiting).
bool closed_by_server(int fd) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    char c;
    return ::recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK) <= 0;
}

TEST(HttpHostile, AClientIsAnsweredWhile256SlowConnectionsAreOpen) {
    TempDir dir("http-hostile");
    ServeProcess server(dir, small_database(dir));
    ASSERT_NE(server.port, 0);
    auto slow = slow_connections(server.port, 256);
    ASSERT_EQ(slow.size(), 256u);
    std::this_thread::sleep_for(300ms);
    for (int i = 0; i < 5; ++i) {
        const auto t = timed_get(server.port, "/", 5s);
        EXPECT_EQ(t.status, 200) << "attempt " << i;
        EXPECT_LT(t.took, 2s) << "attempt " << i;
    }
    for (const int fd : slow)
        ::close(fd);
    EXPECT_TRUE(server.alive());
}

TEST(HttpHostile, AtTheConnectionLimitTheOldestWaitingConnectionIsCut) {
    TempDir dir("http-hostile");
    const auto db = small_database(dir);
    serve::ServerOptions options;
    options.max_connections = 8;
    InProcessServer server(db, options);
    auto slow = slow_connections(server.port, 20);
    ASSERT_EQ(slow.size(), 20u);
    std::this_thread::sleep_for(300ms);
    const auto t = timed_get(server.port, "/", 5s);
    EXPECT_EQ(t.status, 200);
    EXPECT_LT(t.took, 2s);
    // The first ones, which waited longest, were cut to make room; the last
    // ones are still open.
    std::this_thread::sleep_for(200ms);
    int cut = 0;
    for (const int fd : slow)
        cut += closed_by_server(fd) ? 1 : 0;
    EXPECT_TRUE(closed_by_server(slow.front()));
    EXPECT_FALSE(closed_by_server(slow.back()));
    EXPECT_GE(cut, 12);
    for (const int fd : slow)
        ::close(fd);
}

// At the limit with every connection busy in a handler, nothing can be cut:
// a new connection is closed without an answer, and served once one is free.
TEST(HttpHostile, AtTheConnectionLimitWithEveryConnectionBusyANewOneIsRefused) {
    std::atomic<bool> release{false};
    std::atomic<int> blocked{0};
    serve::ServerOptions options;
    options.port = 0;
    options.max_connections = 2;
    serve::HttpServer http(options, [&](const serve::Request& r) {
        if (r.target == "/block") {
            ++blocked;
            while (!release)
                std::this_thread::sleep_for(5ms);
        }
        return serve::Response::text(200, "ok");
    });
    http.start();
    std::vector<std::thread> busy;
    for (int i = 0; i < 2; ++i)
        busy.emplace_back([&] { (void)http_exchange(http.port(), request("GET", "/block"), 20s); });
    for (int i = 0; i < 1000 && blocked < 2; ++i)
        std::this_thread::sleep_for(10ms);
    ASSERT_EQ(blocked, 2);
    EXPECT_EQ(http_exchange(http.port(), request("GET", "/"), 5s), "");
    release = true;
    for (auto& t : busy)
        t.join();
    std::string r;
    for (int attempt = 0; attempt < 50 && status_of(r) != 200; ++attempt) {
        std::this_thread::sleep_for(50ms);
        r = http_exchange(http.port(), request("GET", "/"), 5s);
    }
    EXPECT_EQ(status_of(r), 200);
}

// A request's header has a shorter deadline than the whole request: a
// client that trickles its header is cut at the header's deadline, one that
// trickles its body within the request's deadline is answered.
TEST(HttpHostile, TheHeaderHasAShorterDeadlineThanTheWholeRequest) {
    TempDir dir("http-hostile");
    const auto db = small_database(dir);
    serve::ServerOptions options;
    options.header_timeout = scaled(500ms);
    options.read_timeout = scaled(5000ms);
    InProcessServer server(db, options);
    // The header, a byte every 50 ms: never finished in time.
    const int header = connect_local(server.port);
    ASSERT_GE(header, 0);
    const std::string start = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    (void)::send(header, start.data(), start.size(), MSG_NOSIGNAL);
    const auto began = Clock::now();
    bool cut = false;
    while (!cut && Clock::now() - began < scaled(4000ms)) {
        (void)::send(header, "X", 1, MSG_NOSIGNAL);
        std::this_thread::sleep_for(50ms);
        cut = closed_by_server(header);
    }
    const auto header_took = Clock::now() - began;
    ::close(header);
    EXPECT_TRUE(cut);
    EXPECT_GE(header_took, scaled(400ms));
    EXPECT_LT(header_took, scaled(2500ms));
    // The body, a byte every 100 ms for about 1.2 s (past the header's
    // deadline, within the request's): answered (405: POST / is no form).
    const int body = connect_local(server.port);
    ASSERT_GE(body, 0);
    const std::string head =
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 12\r\nConnection: close\r\n\r\n";
    (void)::send(body, head.data(), head.size(), MSG_NOSIGNAL);
    for (int i = 0; i < 12; ++i) {
        std::this_thread::sleep_for(scaled(100ms));
        (void)::send(body, "x", 1, MSG_NOSIGNAL);
    }
    const std::string r = read_until_closed(body, 10s);
    ::close(body);
    EXPECT_EQ(status_of(r), 405) << r.substr(0, 300);
}

// 2,000 requests over about 12 s and 256 slow connections (each one cut
// replaced at once) against `arena serve`: a client's GET / is answered
// within 2 s throughout and the server's resident memory stays under 100 MB.
// Prints the figures.
TEST(HttpHostile, LoadWithSlowConnections) {
    TempDir dir("http-hostile");
    ServeProcess server(dir, small_database(dir));
    ASSERT_NE(server.port, 0);
    const double rss_start = server.rss_mb();
    std::atomic<bool> done{false};
    std::atomic<int> slow_cut{0};
    // The slow clients: 256 connections that send a header byte now and
    // then and never finish it; one the server closes is opened again.
    std::thread slow_thread([&] {
        auto slow = slow_connections(server.port, 256);
        while (!done) {
            for (auto& fd : slow) {
                if (closed_by_server(fd) || ::send(fd, "X", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
                    ::close(fd);
                    ++slow_cut;
                    auto again = slow_connections(server.port, 1);
                    fd = again.empty() ? -1 : again[0];
                }
            }
            std::this_thread::sleep_for(200ms);
        }
        for (const int fd : slow)
            if (fd >= 0) ::close(fd);
    });
    std::this_thread::sleep_for(300ms);
    // The load: 2,000 requests from 4 clients, pages and refusals mixed.
    const std::vector<std::string> targets = {"/",          "/api/index", "/t/0/1",
                                              "/api/t/0/1", "/nothing",   "/g/0/1"};
    std::atomic<int> next{0}, failed{0};
    std::mutex latency_mutex;
    std::chrono::milliseconds load_max{0};
    std::vector<std::thread> clients;
    const auto load_start = Clock::now();
    for (int c = 0; c < 4; ++c) {
        clients.emplace_back([&] {
            for (int i = next++; i < 2000; i = next++) {
                const auto t = timed_get(
                    server.port, targets[static_cast<std::size_t>(i) % targets.size()], 10s);
                if (t.status == 0 || t.status >= 500) ++failed;
                // Paced over about 12 s, past the header deadline (10 s), so
                // that the server cuts slow connections meanwhile.
                std::this_thread::sleep_for(24ms - std::min(t.took, 24ms));
                const std::lock_guard lock(latency_mutex);
                load_max = std::max(load_max, t.took);
            }
        });
    }
    // The normal client: GET / every 100 ms; and the server's memory.
    std::chrono::milliseconds probe_max{0};
    int probes = 0, probe_failed = 0;
    double rss_max = 0;
    while (next < 2000) {
        const auto t = timed_get(server.port, "/", 5s);
        ++probes;
        if (t.status != 200) ++probe_failed;
        probe_max = std::max(probe_max, t.took);
        rss_max = std::max(rss_max, server.rss_mb());
        std::this_thread::sleep_for(100ms);
    }
    for (auto& t : clients)
        t.join();
    const auto load_s = std::chrono::duration<double>(Clock::now() - load_start).count();
    rss_max = std::max(rss_max, server.rss_mb());
    done = true;
    slow_thread.join();
    std::printf(
        "load: 2000 requests in %.1f s (%d failed, slowest %lld ms) with 256 slow connections "
        "(%d cut by the server); GET / every 100 ms: %d probes, %d failed, slowest %lld ms; "
        "server RSS %.1f MB at the start, at most %.1f MB\n",
        load_s, failed.load(), static_cast<long long>(load_max.count()), slow_cut.load(), probes,
        probe_failed, static_cast<long long>(probe_max.count()), rss_start, rss_max);
    EXPECT_EQ(failed, 0);
    EXPECT_EQ(probe_failed, 0);
    EXPECT_LT(probe_max, 2s);
#ifndef ARENA_SANITIZE
    // A sanitizer build holds freed memory in quarantine (256 MB by default).
    EXPECT_LT(rss_max, 100.0);
#endif
    EXPECT_TRUE(server.alive());
}

}  // namespace
}  // namespace arena::testing
