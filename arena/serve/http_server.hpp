#pragma once
// A small HTTP/1.1 server on Boost.Beast for arena serve. It knows
// connections, limits and timeouts; what to answer is a Handler, a plain
// function from request to response that tests can call without a socket.
//
// Nothing a client sends can stop the server: every part of a request is
// bounded (the request line: 414 past it; the header and the trailer of a
// chunked body: 431; a chunk's line with its extensions: 400; the body:
// 413), a request the parser refuses gets a 400, and anything that goes
// wrong while a connection is handled, an exception included, ends that
// connection only (with a 4xx or a 500 where an answer can still be sent).
// A request's header must arrive within the header timeout and the whole
// request within the read timeout. At the connection limit the connection
// that has waited longest for its request is cut to make room for a new one;
// a new one is refused only when every connection is busy with a request.
// A handler that throws gets the client a 500; the server goes on.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace arena::serve {

struct Request {
    std::string method;  // as sent: "GET", "POST", ...
    std::string target;  // as sent: "/t/0/1?since=5"
    std::string host;    // the Host header
    std::string origin;  // the Origin header; empty when absent
    std::string content_type;
    std::string cookie;           // the Cookie header
    std::string authorization;    // the Authorization header
    std::string csrf_token;       // the X-CSRF-Token header
    std::string forwarded_proto;  // X-Forwarded-Proto: "https" behind a TLS proxy
    std::string body;
};

struct Response {
    int status = 200;
    std::string content_type = "text/html; charset=utf-8";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // more headers

    // A plain-text answer (errors): "<status> <reason>: message".
    [[nodiscard]] static Response text(int status, const std::string& message);
    // {"error": message}, as the JSON API's errors are.
    [[nodiscard]] static Response json_error(int status, const std::string& message);
};

using Handler = std::function<Response(const Request&)>;

// How large one request's body may be, decided once its header has arrived
// (ServerOptions::body_allowance): the routes that take uploads allow more
// than the rest, and a slot (`hold`, kept until the request is answered)
// bounds how many such bodies are buffered at once.
struct BodyAllowance {
    std::size_t limit = 0;       // bytes; past it, 413
    std::shared_ptr<void> hold;  // released when the request is answered
    int refuse = 0;              // non-zero: answer this status at once, reading no body
    std::string message;         // with `refuse`
    bool json = false;           // refusals of this request as {"error": ...} (an API's)
};
// Called with the request's header (its body empty).
using BodyAllowanceFn = std::function<BodyAllowance(const Request& head)>;

struct ServerOptions {
    std::string bind = "127.0.0.1";
    unsigned short port = 8080;  // 0: any free port (see HttpServer::port)
    int threads = 4;             // handlers run on these
    // Connections at once; at most half the process's open-file limit
    // (RLIMIT_NOFILE), so that bots and databases keep theirs.
    std::size_t max_connections = 512;
    std::size_t request_line_limit = 8 * 1024;  // bytes: 414 past it
    // Bytes of the request line and headers (431 past it). Also what is
    // buffered of the input at most: it bounds a chunk's size line with its
    // extensions (400) and a chunked body's trailer (431).
    std::size_t header_limit = 16 * 1024;
    std::size_t body_limit = 64 * 1024;  // bytes, chunked or not: 413 past it
    // When set, decides each request's body limit instead of body_limit.
    BodyAllowanceFn body_allowance;
    // From the moment a connection waits for a request (connected, or its
    // last answer sent) to the end of the request's header...
    std::chrono::milliseconds header_timeout{10'000};
    // ... and to the end of the whole request (also the limit for sending an
    // answer). Past either, the connection is closed.
    std::chrono::milliseconds read_timeout{30'000};
};

// What the server does with the bytes of one connection, without the socket:
// requests parsed one after another (pipelined ones too) within the
// options' limits, with at most header_limit bytes buffered. The server
// reads into space() and calls received(); the fuzz target does the same.
class RequestReader {
  public:
    enum class State {
        reading,  // wants more bytes
        done,     // a request is complete: request()
        failed,   // the input broke a rule or a limit: status(), problem()
        closed,   // the client closed between requests
    };

    explicit RequestReader(const ServerOptions& options);
    ~RequestReader();
    RequestReader(const RequestReader&) = delete;
    RequestReader& operator=(const RequestReader&) = delete;

    [[nodiscard]] State state() const { return state_; }
    // Where the next bytes go; never empty while reading.
    [[nodiscard]] std::span<char> space();
    // `n` bytes were written into space(): parses them.
    State received(std::size_t n);
    // The client sent all it will (end of file).
    State end_of_input();
    // After done: starts on the next request with the bytes already
    // buffered (a pipelined request may complete at once).
    State next();

    // Whether any byte of the current request has arrived, and whether its
    // header is complete.
    [[nodiscard]] bool started() const;
    [[nodiscard]] bool header_done() const;

    // When done: the request, whether the client keeps the connection
    // open, and whether it is a HEAD request.
    [[nodiscard]] Request request() const;
    // The same, the body moved out (the reader is done with it).
    [[nodiscard]] Request take_request();
    [[nodiscard]] bool keep_alive() const;
    [[nodiscard]] bool head() const;

    // When failed: 400, 413, 414 or 431 (or an allowance's refusal), and what
    // was wrong; whether the answer is JSON ({"error": problem}).
    [[nodiscard]] int status() const { return status_; }
    [[nodiscard]] const std::string& problem() const { return problem_; }
    [[nodiscard]] bool problem_json() const { return problem_json_; }

  private:
    struct Parser;  // Beast's parser and buffer (http_server.cpp)

    State parse();
    State fail(int status, std::string problem);
    // The header is complete: the body's allowance.
    State admit();

    std::unique_ptr<Parser> p_;
    BodyAllowanceFn allowance_;
    std::shared_ptr<void> hold_;  // the allowance's slot, until next()
    bool problem_json_ = false;
    State state_ = State::reading;
    int status_ = 0;
    std::string problem_;
};

// "Not Found" for 404, ...
[[nodiscard]] const char* reason_phrase(int status);

class HttpServer {
  public:
    // Binds and listens. Throws std::runtime_error naming the address and
    // the problem ("127.0.0.1:8080: Address already in use").
    HttpServer(ServerOptions options, Handler handler);
    ~HttpServer();  // stop()
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // The port listened on (the one chosen when asked for 0).
    [[nodiscard]] unsigned short port() const;
    // Serves on the option's threads, in the background.
    void start();
    // Stops accepting, closes every connection and joins the threads.
    void stop();

    struct Impl;  // the connections' shared state (http_server.cpp)

  private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace arena::serve
