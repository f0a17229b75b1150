#pragma once
// A small HTTP/1.1 server on Boost.Beast for arena serve. It knows
// connections, limits and timeouts; what to answer is a Handler, a plain
// function from request to response that tests can call without a socket.
//
// Every connection has a deadline for each request it reads (a slow or
// silent client is dropped), a request's header and body are bounded (too
// large: 431 or 413, then the connection is closed), a request the parser
// refuses gets a 400 and the connection is closed, and the number of
// connections at once is bounded (more are closed at once). A handler that
// throws gets the client a 500; the server goes on.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
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
    std::string body;
};

struct Response {
    int status = 200;
    std::string content_type = "text/html; charset=utf-8";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // more headers

    // A plain-text answer (errors): "<status> <reason>: message".
    [[nodiscard]] static Response text(int status, const std::string& message);
};

using Handler = std::function<Response(const Request&)>;

struct ServerOptions {
    std::string bind = "127.0.0.1";
    unsigned short port = 8080;  // 0: any free port (see HttpServer::port)
    int threads = 4;             // handlers run on these
    std::size_t max_connections = 64;
    std::size_t header_limit = 16 * 1024;  // bytes of the request line and headers
    std::size_t body_limit = 64 * 1024;
    std::chrono::milliseconds read_timeout{30'000};  // to read one whole request
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
