#include "arena/serve/http_server.hpp"

#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
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
        case 204:
            return "No Content";
        case 303:
            return "See Other";
        case 400:
            return "Bad Request";
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
        case 415:
            return "Unsupported Media Type";
        case 421:
            return "Misdirected Request";
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

struct HttpServer::Impl {
    Impl(ServerOptions o, Handler h) : options(std::move(o)), handler(std::move(h)) {}

    ServerOptions options;
    Handler handler;
    std::atomic<std::size_t> connections{0};
    net::io_context ioc;
    tcp::acceptor acceptor{ioc};
    std::vector<std::thread> threads;
    bool started = false;

    void accept();
};

namespace {

// One connection: requests read one at a time, each within the read
// timeout, each answered before the next is read.
class Connection : public std::enable_shared_from_this<Connection> {
  public:
    Connection(tcp::socket&& socket, HttpServer::Impl& server)
        : stream_(std::move(socket)), server_(server) {
        ++server_.connections;
    }
    ~Connection() { --server_.connections; }

    void run() {
        net::dispatch(stream_.get_executor(),
                      beast::bind_front_handler(&Connection::read, shared_from_this()));
    }

  private:
    void read() {
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(server_.options.header_limit));
        parser_->body_limit(server_.options.body_limit);
        stream_.expires_after(server_.options.read_timeout);
        http::async_read(stream_, buffer_, *parser_,
                         beast::bind_front_handler(&Connection::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
            ec == net::error::operation_aborted || ec == net::error::eof ||
            ec == net::error::connection_reset) {
            close();
            return;
        }
        if (ec) {
            const int status = ec == http::error::header_limit ? 431
                               : ec == http::error::body_limit ? 413
                                                               : 400;
            send(Response::text(status, "the request could not be read (" + ec.message() + ")"),
                 false, false);
            return;
        }
        const auto& req = parser_->get();
        Request request;
        request.method = std::string(req.method_string());
        request.target = std::string(req.target());
        request.host = std::string(req[http::field::host]);
        request.origin = std::string(req[http::field::origin]);
        request.content_type = std::string(req[http::field::content_type]);
        request.body = req.body();
        Response response;
        try {
            response = server_.handler(request);
        } catch (const std::exception& e) {
            response = Response::text(500, e.what());
        } catch (...) {
            response = Response::text(500, "unexpected error");
        }
        send(std::move(response), req.keep_alive() && response.status < 400,
             req.method() == http::verb::head);
    }

    void send(Response response, bool keep_alive, bool head) {
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
        message_ = message;
        stream_.expires_after(server_.options.read_timeout);
        http::async_write(
            stream_, *message,
            [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                self->message_.reset();
                if (ec) {
                    self->close();
                } else if (!keep_alive) {
                    self->linger();
                } else {
                    self->read();
                }
            });
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
                                        self->drain();
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
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<void> message_;  // the response being written
    std::array<char, 4096> discard_{};
};

}  // namespace

void HttpServer::Impl::accept() {
    acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
        if (!ec) {
            if (connections.load() >= options.max_connections) {
                beast::error_code ignored;
                socket.close(ignored);  // too many at once: refused
            } else {
                std::make_shared<Connection>(std::move(socket), *this)->run();
            }
        }
        accept();
    });
}

HttpServer::HttpServer(ServerOptions options, Handler handler)
    : impl_(std::make_shared<Impl>(std::move(options), std::move(handler))) {
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
        impl_->threads.emplace_back([impl = impl_] { impl->ioc.run(); });
}

void HttpServer::stop() {
    if (!impl_) return;
    net::post(impl_->ioc, [impl = impl_.get()] {
        beast::error_code ec;
        impl->acceptor.close(ec);
    });
    impl_->ioc.stop();
    for (auto& t : impl_->threads)
        if (t.joinable()) t.join();
    impl_->threads.clear();
}

}  // namespace arena::serve
