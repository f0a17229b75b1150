#include "arena/serve/http_server.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <cstdint>
#include <iostream>
#include <limits>
#include <list>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace arena::serve {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

const char* reason_phrase(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 201:
            return "Created";
        case 202:
            return "Accepted";
        case 204:
            return "No Content";
        case 303:
            return "See Other";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 409:
            return "Conflict";
        case 413:
            return "Content Too Large";
        case 414:
            return "URI Too Long";
        case 408:
            return "Request Timeout";
        case 415:
            return "Unsupported Media Type";
        case 421:
            return "Misdirected Request";
        case 422:
            return "Unprocessable Content";
        case 429:
            return "Too Many Requests";
        case 431:
            return "Request Header Fields Too Large";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        default:
            return "";
    }
}

Response Response::text(int status, const std::string& message) {
    Response r;
    r.status = status;
    r.content_type = "text/plain; charset=utf-8";
    r.body = std::to_string(status) + " " + reason_phrase(status) + ": " + message + "\n";
    return r;
}

Response Response::json_error(int status, const std::string& message) {
    Response r;
    r.status = status;
    r.content_type = "application/json; charset=utf-8";
    r.body = nlohmann::json{{"error", message}}.dump(-1, ' ', false,
                                                     nlohmann::json::error_handler_t::replace);
    return r;
}

// --- RequestReader ---------------------------------------------------------

struct RequestReader::Parser {
    explicit Parser(const ServerOptions& o)
        : request_line_limit(o.request_line_limit),
          header_limit(std::clamp<std::size_t>(o.header_limit, 64,
                                               std::numeric_limits<std::uint32_t>::max())),
          body_limit(o.body_limit),
          allowance(static_cast<bool>(o.body_allowance)),
          buffer(header_limit) {
        reset();
    }

    void reset() {
        parser.emplace();
        parser->header_limit(static_cast<std::uint32_t>(header_limit));
        // With an allowance, the limit is set once the header is read
        // (admit); a Content-Length is checked there.
        if (allowance)
            parser->body_limit(boost::none);
        else
            parser->body_limit(body_limit);
        parser->eager(true);
        line_done = false;
        header_used = 0;
    }

    std::size_t request_line_limit, header_limit, body_limit;
    bool allowance;
    beast::flat_buffer buffer;  // at most header_limit bytes
    std::optional<http::request_parser<http::string_body>> parser;
    bool line_done = false;       // the request line is parsed (and consumed)
    std::size_t header_used = 0;  // bytes of the header parsed (and consumed)
};

RequestReader::RequestReader(const ServerOptions& options)
    : p_(std::make_unique<Parser>(options)), allowance_(options.body_allowance) {}

RequestReader::~RequestReader() = default;

std::span<char> RequestReader::space() {
    auto& b = p_->buffer;
    const std::size_t room = std::min<std::size_t>(b.max_size() - b.size(), 8192);
    if (state_ != State::reading || room == 0) return {};
    const auto m = b.prepare(room);
    return {static_cast<char*>(m.data()), m.size()};
}

RequestReader::State RequestReader::received(std::size_t n) {
    if (state_ != State::reading) return state_;
    p_->buffer.commit(n);
    return parse();
}

bool RequestReader::started() const {
    return p_->parser->got_some() || p_->buffer.size() > 0;
}

bool RequestReader::header_done() const {
    return p_->parser->is_header_done();
}

RequestReader::State RequestReader::fail(int status, std::string problem) {
    status_ = status;
    problem_ = std::move(problem);
    return state_ = State::failed;
}

namespace {

std::string bytes(std::size_t n) {
    return n % 1024 == 0 ? std::to_string(n / 1024) + " KiB" : std::to_string(n) + " bytes";
}

// Whether `data` (the unparsed input of a chunked body) starts with the
// whole line of the last chunk ("0", maybe extensions, CRLF): what follows
// is the trailer.
bool at_trailer(std::string_view data) {
    if (data.starts_with("\r\n")) data.remove_prefix(2);
    std::size_t i = 0;
    while (i < data.size() && data[i] == '0')
        ++i;
    if (i == 0 || i == data.size() || (data[i] != ';' && data[i] != '\r')) return false;
    return data.find('\n', i) != std::string_view::npos;
}

}  // namespace

RequestReader::State RequestReader::parse() {
    if (state_ != State::reading) return state_;
    auto& pr = *p_->parser;
    auto& b = p_->buffer;
    try {
        while (b.size() > 0 && !pr.is_done()) {
            if (!p_->line_done && !pr.is_header_done()) {
                const std::string_view data(static_cast<const char*>(b.data().data()), b.size());
                const std::size_t look = p_->request_line_limit + 2;  // the line and its CRLF
                if (data.size() >= look &&
                    data.substr(0, look).find('\n') == std::string_view::npos)
                    return fail(414,
                                "the request line is longer than " + bytes(p_->request_line_limit));
            }
            // Beast asserts (a debug build aborts) when it resumes a chunked
            // body's trailer with fewer than 5 bytes; what follows a chunk
            // boundary in a whole request is never shorter ("0\r\n\r\n").
            if (pr.is_header_done() && pr.chunked() && b.size() < 5) break;
            const bool header_was_done = pr.is_header_done();
            if (!header_was_done) {
                // Beast counts its limit from where each call starts, and it
                // takes the request line and whole fields as they arrive:
                // what it took already counts too.
                if (p_->header_used >= p_->header_limit)
                    return fail(431, "the request line and headers are longer than " +
                                         bytes(p_->header_limit));
                pr.header_limit(static_cast<std::uint32_t>(p_->header_limit - p_->header_used));
            }
            beast::error_code ec;
            const std::size_t used = pr.put(b.data(), ec);
            b.consume(used);
            if (used > 0 && !header_was_done) {
                p_->line_done = true;
                if (!pr.is_header_done()) p_->header_used += used;
            }
            if (!header_was_done && pr.is_header_done() && allowance_ && admit() != State::reading)
                return state_;
            if (ec == http::error::need_more) break;
            if (ec == http::error::header_limit)
                return fail(
                    431, "the request line and headers are longer than " + bytes(p_->header_limit));
            if (ec == http::error::body_limit)
                return fail(413, "the body is longer than " + bytes(p_->body_limit));
            if (ec) return fail(400, "the request could not be read (" + ec.message() + ")");
            if (used == 0) break;
        }
    } catch (const std::exception& e) {
        // Beast throws for what its parser cannot hold (std::length_error
        // "field value too large"); the limits above should come first.
        return fail(400, std::string("the request could not be read (") + e.what() + ")");
    }
    if (pr.is_done()) return state_ = State::done;
    if (b.size() >= b.max_size()) {
        // The parser needs more of one element than may be buffered.
        if (!pr.is_header_done())
            return fail(431,
                        "the request line and headers are longer than " + bytes(p_->header_limit));
        const std::string_view data(static_cast<const char*>(b.data().data()), b.size());
        if (at_trailer(data))
            return fail(431, "the trailer is longer than " + bytes(p_->header_limit));
        return fail(400, "a chunk's size line (with its extensions) is longer than " +
                             bytes(p_->header_limit));
    }
    return state_;
}

RequestReader::State RequestReader::end_of_input() {
    if (state_ != State::reading) return state_;
    if (!started()) return state_ = State::closed;
    if (!p_->parser->got_some()) return fail(400, "the request ended before its header did");
    try {
        beast::error_code ec;
        p_->parser->put_eof(ec);
        if (ec) return fail(400, "the request ended early (" + ec.message() + ")");
    } catch (const std::exception& e) {
        return fail(400, std::string("the request could not be read (") + e.what() + ")");
    }
    return state_ = p_->parser->is_done() ? State::done : fail(400, "the request ended early");
}

RequestReader::State RequestReader::admit() {
    auto& pr = *p_->parser;
    BodyAllowance allowed = allowance_(request());
    problem_json_ = allowed.json;
    if (allowed.refuse != 0) return fail(allowed.refuse, allowed.message);
    p_->body_limit = allowed.limit;
    if (const auto length = pr.content_length(); length && *length > allowed.limit)
        return fail(413, "the body is longer than " + bytes(allowed.limit));
    // Of a chunked body, what the header's read took already is at most the
    // buffer (header_limit): it counts against the limit with the rest.
    pr.body_limit(allowed.limit);
    hold_ = std::move(allowed.hold);
    return state_;
}

RequestReader::State RequestReader::next() {
    hold_.reset();
    problem_json_ = false;
    p_->reset();
    state_ = State::reading;
    status_ = 0;
    problem_.clear();
    return parse();
}

Request RequestReader::request() const {
    const auto& req = p_->parser->get();
    Request r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    r.host = std::string(req[http::field::host]);
    r.origin = std::string(req[http::field::origin]);
    r.content_type = std::string(req[http::field::content_type]);
    r.cookie = std::string(req[http::field::cookie]);
    r.authorization = std::string(req[http::field::authorization]);
    r.csrf_token = std::string(req["X-CSRF-Token"]);
    r.forwarded_proto = std::string(req["X-Forwarded-Proto"]);
    r.body = req.body();
    return r;
}

Request RequestReader::take_request() {
    std::string body = std::move(p_->parser->get().body());
    p_->parser->get().body().clear();
    Request r = request();
    r.body = std::move(body);
    return r;
}

bool RequestReader::keep_alive() const {
    return p_->parser->get().keep_alive();
}

bool RequestReader::head() const {
    return p_->parser->get().method() == http::verb::head;
}

// --- The server --------------------------------------------------------------

namespace http_detail {
class Connection;
}

using Clock = std::chrono::steady_clock;

struct HttpServer::Impl {
    Impl(ServerOptions o, Handler h) : options(std::move(o)), handler(std::move(h)) {}

    ServerOptions options;
    Handler handler;
    std::size_t max_connections = 0;  // options', within the open-file limit
    std::atomic<std::size_t> connections{0};
    std::atomic<std::size_t> cuts_pending{0};  // chosen to be cut, not closed yet
    // Before the io_context: connections still queued in it when it goes
    // take themselves out of `live` as they are destroyed.
    std::mutex mutex;  // guards `live`
    std::list<std::weak_ptr<http_detail::Connection>> live;
    net::io_context ioc;
    tcp::acceptor acceptor{ioc};
    net::steady_timer retry{ioc};  // accepting again after running out of files
    std::vector<std::thread> threads;
    bool started = false;

    void accept();
    void admit(tcp::socket socket);
    // Cuts the connection that has waited longest for (or to send) a
    // request; false when every connection is busy with a handler.
    bool cut_oldest();
};

namespace http_detail {

// One connection: requests read one at a time, each header within the
// header timeout and each whole request within the read timeout, each
// answered before the next is read.
class Connection : public std::enable_shared_from_this<Connection> {
  public:
    enum Phase : int { waiting, handling, writing };

    Connection(tcp::socket&& socket, HttpServer::Impl& server)
        : stream_(std::move(socket)), server_(server), reader_(server.options) {
        ++server_.connections;
    }
    ~Connection() {
        if (cutting_) --server_.cuts_pending;
        --server_.connections;
        const std::lock_guard lock(server_.mutex);
        if (registered_) server_.live.erase(entry_);
    }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    void run() {
        {
            const std::lock_guard lock(server_.mutex);
            entry_ = server_.live.insert(server_.live.end(), weak_from_this());
            registered_ = true;
        }
        net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
            self->guarded([&] {
                self->begin_request();
                self->proceed();
            });
        });
    }

    // From any thread: closes this connection on its strand.
    void cut() {
        if (cutting_.exchange(true)) return;
        ++server_.cuts_pending;
        net::post(stream_.get_executor(), [self = shared_from_this()] { self->close(); });
    }

    [[nodiscard]] bool cuttable() const { return !cutting_ && phase_ != handling; }
    [[nodiscard]] std::int64_t since() const { return since_; }

  private:
    // Runs `f`; anything it throws ends this connection only.
    template <class F>
    void guarded(F&& f) {
        try {
            f();
        } catch (const std::exception& e) {
            std::cerr << ("arena serve: a connection ended on an error: " + std::string(e.what()) +
                          "\n");
            close();
        } catch (...) {
            std::cerr << "arena serve: a connection ended on an unknown error\n";
            close();
        }
    }

    void enter(Phase phase) {
        phase_ = phase;
        since_ = Clock::now().time_since_epoch().count();
    }

    // The connection waits for a request from now.
    void begin_request() {
        enter(waiting);
        const auto now = Clock::now();
        header_deadline_ =
            now + std::min(server_.options.header_timeout, server_.options.read_timeout);
        read_deadline_ = now + server_.options.read_timeout;
    }

    void proceed() {
        switch (reader_.state()) {
            case RequestReader::State::reading:
                return read_more();
            case RequestReader::State::done:
                return handle();
            case RequestReader::State::failed:
                return send(reader_.problem_json()
                                ? Response::json_error(reader_.status(), reader_.problem())
                                : Response::text(reader_.status(), reader_.problem()),
                            false, false);
            case RequestReader::State::closed:
                return close();
        }
    }

    void read_more() {
        const auto space = reader_.space();
        if (space.empty()) {  // cannot happen: the reader fails first
            send(Response::text(431, "the request is too large"), false, false);
            return;
        }
        stream_.expires_at(reader_.header_done() ? read_deadline_ : header_deadline_);
        stream_.async_read_some(net::buffer(space.data(), space.size()),
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                    self->guarded([&] { self->on_read(ec, n); });
                                });
    }

    void on_read(beast::error_code ec, std::size_t n) {
        if (ec == net::error::eof) {
            reader_.end_of_input();
            proceed();
            return;
        }
        if (ec) {  // the deadline (the client was too slow), a reset, a cut
            close();
            return;
        }
        reader_.received(n);
        proceed();
    }

    void handle() {
        enter(handling);
        const Request request = reader_.take_request();
        Response response;
        try {
            response = server_.handler(request);
        } catch (const std::exception& e) {
            response = Response::text(500, e.what());
        } catch (...) {
            response = Response::text(500, "unexpected error");
        }
        const bool keep_alive = reader_.keep_alive() && response.status < 400;
        send(std::move(response), keep_alive, reader_.head());
    }

    void send(Response response, bool keep_alive, bool head) {
        enter(writing);
        std::shared_ptr<http::response<http::string_body>> message;
        try {
            message = make_message(std::move(response), keep_alive, head);
        } catch (const std::exception& e) {
            // A header the handler set that HTTP cannot carry.
            keep_alive = false;
            message = make_message(Response::text(500, e.what()), false, head);
        }
        message_ = message;
        stream_.expires_after(server_.options.read_timeout);
        http::async_write(
            stream_, *message,
            [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                self->guarded([&] { self->on_written(ec, keep_alive); });
            });
    }

    static std::shared_ptr<http::response<http::string_body>> make_message(Response response,
                                                                           bool keep_alive,
                                                                           bool head) {
        auto message = std::make_shared<http::response<http::string_body>>(
            static_cast<http::status>(response.status), 11);
        message->set(http::field::server, "arena");
        message->set(http::field::content_type, response.content_type);
        message->set(http::field::cache_control, "no-store");
        message->set("X-Content-Type-Options", "nosniff");
        message->set("Referrer-Policy", "no-referrer");
        message->set("X-Frame-Options", "DENY");
        for (const auto& [name, value] : response.headers)
            message->set(name, value);
        message->keep_alive(keep_alive);
        const std::size_t length = response.body.size();
        if (!head) message->body() = std::move(response.body);
        message->content_length(length);
        return message;
    }

    void on_written(beast::error_code ec, bool keep_alive) {
        message_.reset();
        if (ec) {
            close();
        } else if (!keep_alive) {
            linger();
        } else {
            begin_request();
            reader_.next();  // a pipelined request may be complete already
            proceed();
        }
    }

    // The end of a connection whose client may still be sending (a request
    // refused before it was read whole): our side is shut, and what comes
    // in is read and dropped for up to a second before the socket closes.
    // Closing with unread input would reset the connection, and the client
    // could lose the response it has not read yet.
    void linger() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        stream_.expires_after(std::chrono::seconds(1));
        drain();
    }

    void drain() {
        stream_.async_read_some(net::buffer(discard_),
                                [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                    if (ec) {
                                        self->close();
                                    } else {
                                        self->guarded([&] { self->drain(); });
                                    }
                                });
    }

    void close() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
        stream_.socket().close(ec);
    }

    beast::tcp_stream stream_;
    HttpServer::Impl& server_;
    RequestReader reader_;
    Clock::time_point header_deadline_, read_deadline_;
    std::shared_ptr<void> message_;  // the response being written
    std::array<char, 4096> discard_{};
    std::atomic<int> phase_{waiting};
    std::atomic<std::int64_t> since_{0};  // when the phase began (steady clock ticks)
    std::atomic<bool> cutting_{false};
    bool registered_ = false;
    std::list<std::weak_ptr<Connection>>::iterator entry_;
};

}  // namespace http_detail

bool HttpServer::Impl::cut_oldest() {
    std::shared_ptr<http_detail::Connection> oldest;
    // Released after the lock: the last owner's destructor takes the lock.
    std::vector<std::shared_ptr<http_detail::Connection>> held;
    {
        const std::lock_guard lock(mutex);
        held.reserve(live.size());
        for (const auto& weak : live) {
            auto c = weak.lock();
            if (!c) continue;
            if (c->cuttable() && (!oldest || c->since() < oldest->since())) oldest = c;
            held.push_back(std::move(c));
        }
    }
    if (!oldest) return false;
    oldest->cut();
    return true;
}

void HttpServer::Impl::admit(tcp::socket socket) {
    // Cut connections count until they are closed, within a margin.
    const std::size_t open = connections.load(), cut = cuts_pending.load();
    const bool full = open >= max_connections + std::max<std::size_t>(max_connections / 4, 8);
    if (full || (open - std::min(open, cut) >= max_connections && !cut_oldest())) {
        beast::error_code ignored;
        socket.close(ignored);  // every connection is busy: refused
        return;
    }
    std::make_shared<http_detail::Connection>(std::move(socket), *this)->run();
}

void HttpServer::Impl::accept() {
    acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
        if (ec == net::error::no_descriptors || ec == net::error::no_buffer_space ||
            ec == net::error::no_memory || ec.value() == ENFILE) {
            // Out of files: make room, and accept again a little later
            // (at once would spin, the connection still waiting).
            (void)cut_oldest();
            retry.expires_after(std::chrono::milliseconds(50));
            retry.async_wait([this](beast::error_code e) {
                if (!e && acceptor.is_open()) accept();
            });
            return;
        }
        if (!ec) {
            try {
                admit(std::move(socket));
            } catch (const std::exception& e) {
                std::cerr << ("arena serve: a connection could not be set up: " +
                              std::string(e.what()) + "\n");
            }
        }
        accept();
    });
}

HttpServer::HttpServer(ServerOptions options, Handler handler)
    : impl_(std::make_shared<Impl>(std::move(options), std::move(handler))) {
    impl_->max_connections = std::max<std::size_t>(impl_->options.max_connections, 1);
    if (rlimit files{}; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
        impl_->max_connections = std::clamp<std::size_t>(
            static_cast<std::size_t>(files.rlim_cur / 2), 1, impl_->max_connections);
    const std::string where = impl_->options.bind + ":" + std::to_string(impl_->options.port);
    beast::error_code ec;
    const auto address = net::ip::make_address(impl_->options.bind, ec);
    if (ec) throw std::runtime_error("'" + impl_->options.bind + "' is not an IP address");
    const tcp::endpoint endpoint(address, impl_->options.port);
    auto& acceptor = impl_->acceptor;
    const auto fail = [&](const char* what) {
        throw std::runtime_error(where + ": cannot " + what + ": " + ec.message());
    };
    if (acceptor.open(endpoint.protocol(), ec); ec) fail("open a socket");
    if (acceptor.set_option(net::socket_base::reuse_address(true), ec); ec) fail("set it up");
    if (acceptor.bind(endpoint, ec); ec) fail("listen");
    if (acceptor.listen(net::socket_base::max_listen_connections, ec); ec) fail("listen");
}

HttpServer::~HttpServer() {
    stop();
}

unsigned short HttpServer::port() const {
    beast::error_code ec;
    return impl_->acceptor.local_endpoint(ec).port();
}

void HttpServer::start() {
    if (impl_->started) return;
    impl_->started = true;
    impl_->accept();
    const int n = std::max(1, impl_->options.threads);
    for (int i = 0; i < n; ++i)
        impl_->threads.emplace_back([impl = impl_] {
            // The last line of defence: an exception out of a handler ends
            // its connection (the connection's own handlers catch what they
            // can), never the server.
            for (;;) {
                try {
                    impl->ioc.run();
                    return;
                } catch (const std::exception& e) {
                    std::cerr << ("arena serve: " + std::string(e.what()) + "\n");
                } catch (...) {
                    std::cerr << "arena serve: an unknown error\n";
                }
            }
        });
}

void HttpServer::stop() {
    if (!impl_) return;
    net::post(impl_->ioc, [impl = impl_.get()] {
        beast::error_code ec;
        impl->acceptor.close(ec);
        impl->retry.cancel();
    });
    impl_->ioc.stop();
    for (auto& t : impl_->threads)
        if (t.joinable()) t.join();
    impl_->threads.clear();
}

}  // namespace arena::serve
