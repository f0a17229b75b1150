#include "arena/league/submit_client.hpp"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

namespace arena::league {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using beast::error_code;

// Why a request got no answer; caught in send() and made its reply's problem.
class NoAnswer : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

constexpr const char* kBadToken =
    "the token is empty or holds a space or a control character: it cannot be sent";

constexpr std::string_view kExpected =
    "expected http://HOST[:PORT][/PREFIX], the league server's address, such as "
    "http://127.0.0.1:8080";

bool is_ascii_alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_host_char(char c) {
    return is_ascii_alnum(c) || c == '.' || c == '-' || c == '_';
}

bool is_ipv6_char(char c) {
    return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || (c >= '0' && c <= '9') || c == ':' ||
           c == '.';
}

// "" when `text` is a port (1-65535), else the problem.
std::string read_port(std::string_view text, unsigned short& port) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value == 0 ||
        value > 65535)
        return "its port '" + std::string(text) + "' is not a number from 1 to 65535";
    port = static_cast<unsigned short>(value);
    return "";
}

// Host and port of "host", "host:port", "[v6]" or "[v6]:port"; "" or the problem.
std::string read_authority(std::string_view authority, ServerUrl& url) {
    if (authority.find('@') != std::string_view::npos)
        return "it names a user (user@host): the token goes in --token-file or "
               "ARENA_LEAGUE_TOKEN, not in the URL";
    std::string_view port;
    if (authority.starts_with('[')) {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return "its IPv6 address has no closing ']'";
        url.host = std::string(authority.substr(1, close - 1));
        const std::string_view rest = authority.substr(close + 1);
        if (!rest.empty() && !rest.starts_with(':')) return "junk after its IPv6 address";
        if (!rest.empty()) port = rest.substr(1);
        if (url.host.empty() || !std::all_of(url.host.begin(), url.host.end(), is_ipv6_char))
            return "its IPv6 address '" + url.host + "' is not one";
        return rest.empty() ? "" : read_port(port, url.port);
    }
    const auto colon = authority.find(':');
    url.host = std::string(authority.substr(0, colon));
    if (url.host.empty()) return "it names no host";
    if (!std::all_of(url.host.begin(), url.host.end(), is_host_char))
        return "its host '" + url.host + "' is not a host name or an address";
    return colon == std::string_view::npos ? "" : read_port(authority.substr(colon + 1), url.port);
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// The first line of `body`, at most 300 bytes: what a server that is not a
// league server said.
std::string first_line(std::string_view body) {
    std::string_view line = body.substr(0, body.find_first_of("\r\n"));
    if (line.size() > 300) line = line.substr(0, 300);
    return std::string(line);
}

std::string seconds_text(std::chrono::milliseconds d) {
    const auto ms = d.count();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// Runs the io_context until the operations started on it are done.
void run(asio::io_context& io) {
    io.restart();
    io.run();
}

// The endpoints of `url`'s host, within `timeout`; throws NoAnswer.
tcp::resolver::results_type resolve(asio::io_context& io, const ServerUrl& url,
                                    std::chrono::milliseconds timeout) {
    tcp::resolver resolver(io);
    asio::steady_timer timer(io);
    bool timed_out = false;
    error_code result;
    tcp::resolver::results_type endpoints;
    timer.expires_after(timeout);
    timer.async_wait([&](error_code ec) {
        if (ec) return;
        timed_out = true;
        resolver.cancel();
    });
    resolver.async_resolve(url.host, std::to_string(url.port),
                           [&](error_code ec, tcp::resolver::results_type found) {
                               result = ec;
                               endpoints = std::move(found);
                               timer.cancel();
                           });
    run(io);
    if (timed_out)
        throw NoAnswer("the host '" + url.host + "' was not found within " + seconds_text(timeout));
    if (result) throw NoAnswer("the host '" + url.host + "' was not found: " + result.message());
    return endpoints;
}

// One request and its answer, on a new connection; the fields of the
// answer's JSON are read by the caller.
struct RawAnswer {
    int status = 0;
    std::string retry_after;
    std::string body;
};

template <class Body>
RawAnswer exchange(const ServerUrl& url, http::request<Body>& request,
                   const ClientOptions& options) {
    asio::io_context io;
    const auto endpoints = resolve(io, url, options.connect_timeout);
    beast::tcp_stream stream(io);
    error_code ec;
    stream.expires_after(options.connect_timeout);
    stream.async_connect(endpoints, [&](error_code e, const tcp::endpoint&) { ec = e; });
    run(io);
    if (ec == beast::error::timeout)
        throw NoAnswer("could not connect within " + seconds_text(options.connect_timeout));
    if (ec) throw NoAnswer(ec.message());

    stream.expires_after(options.read_timeout);
    error_code write_error;
    http::async_write(stream, request, [&](error_code e, std::size_t) { write_error = e; });
    run(io);
    if (write_error == beast::error::timeout)
        throw NoAnswer("the request was not sent within " + seconds_text(options.read_timeout));
    // A server may answer and close before it has read the whole body (413):
    // its answer is read all the same, and the write's error is told only
    // when there is none.
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(options.max_body);
    stream.expires_after(options.read_timeout);
    http::async_read(stream, buffer, parser, [&](error_code e, std::size_t) { ec = e; });
    run(io);
    if (ec && write_error) throw NoAnswer("sending the request failed: " + write_error.message());
    if (ec == beast::error::timeout)
        throw NoAnswer("no answer within " + seconds_text(options.read_timeout));
    if (ec == http::error::body_limit)
        throw NoAnswer("its answer is larger than " + std::to_string(options.max_body) +
                       " bytes, the most arena submit reads");
    if (ec == http::error::end_of_stream || ec == asio::error::eof)
        throw NoAnswer("the server closed the connection without answering");
    if (ec) throw NoAnswer("its answer could not be read: " + ec.message());
    error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);

    auto& response = parser.get();
    RawAnswer answer;
    answer.status = response.result_int();
    if (const auto it = response.find(http::field::retry_after); it != response.end())
        answer.retry_after = std::string(it->value());
    answer.body = std::move(response.body());
    return answer;
}

template <class Body>
void set_headers(http::request<Body>& request, const ServerUrl& url, std::string_view token) {
    request.set(http::field::host, url.authority());
    request.set(http::field::user_agent, "arena-submit/0.1.0");
    request.set(http::field::accept, "application/json");
    request.set(http::field::authorization, "Bearer " + std::string(token));
    request.set(http::field::connection, "close");
}

std::string string_field(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

LeagueReply reply_of(const RawAnswer& answer) {
    LeagueReply reply;
    reply.status = answer.status;
    reply.retry_after = answer.retry_after;
    const auto json = nlohmann::json::parse(answer.body, nullptr, false);
    if (!json.is_object()) {
        reply.error = first_line(answer.body);
        return reply;
    }
    if (const auto it = json.find("version"); it != json.end() && it->is_number_integer())
        reply.version = it->get<long long>();
    reply.state = string_field(json, "status");
    reply.file = string_field(json, "file");
    reply.uploaded_at = string_field(json, "uploaded_at");
    reply.message = string_field(json, "message");
    reply.log = string_field(json, "log");
    reply.error = string_field(json, "error");
    return reply;
}

LeagueReply unanswered(std::string problem) {
    LeagueReply reply;
    reply.problem = std::move(problem);
    return reply;
}

// Whether `token` can go in a header as it is: printable ASCII, no space.
bool header_safe(std::string_view token) {
    return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
        return static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7f;
    });
}

template <class Body>
LeagueReply send(const ServerUrl& url, http::request<Body>& request, const ClientOptions& options) {
    try {
        return reply_of(exchange(url, request, options));
    } catch (const NoAnswer& e) {
        return unanswered(e.what());
    }
}

}  // namespace

std::string ServerUrl::authority() const {
    std::string text = host.find(':') == std::string::npos ? host : "[" + host + "]";
    if (port != 80) text += ":" + std::to_string(port);
    return text;
}

std::string ServerUrl::text() const {
    return "http://" + authority() + prefix;
}

UrlParse parse_server_url(std::string_view url) {
    const auto fail = [](std::string problem) {
        return UrlParse{std::nullopt, std::move(problem)};
    };
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos)
        return fail("it is not a URL: " + std::string(kExpected));
    const std::string scheme = lower(url.substr(0, scheme_end));
    if (scheme == "https")
        return fail(
            "arena submit speaks plain HTTP only, not https: upload with curl instead "
            "(docs/league.md, \"Uploading from a script\")");
    if (scheme != "http")
        return fail("the scheme '" + scheme + "' is not http: " + std::string(kExpected));
    if (std::any_of(url.begin(), url.end(), [](char c) {
            const auto b = static_cast<unsigned char>(c);
            return b <= 0x20 || b >= 0x7f;
        }))
        return fail("it holds a space, a control character or a byte that is not ASCII");
    const std::string_view rest = url.substr(scheme_end + 3);
    const auto path_start = std::min(rest.find('/'), rest.size());
    if (rest.find_first_of("?#") != std::string_view::npos)
        return fail("it has a query or a fragment (? or #): give the league server's address");
    ServerUrl parsed;
    if (auto problem = read_authority(rest.substr(0, path_start), parsed); !problem.empty())
        return fail(std::move(problem) + ": " + std::string(kExpected));
    std::string_view prefix = rest.substr(path_start);
    while (prefix.ends_with('/'))
        prefix.remove_suffix(1);
    parsed.prefix = std::string(prefix);
    return UrlParse{std::move(parsed), ""};
}

std::string percent_encode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if (is_ascii_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += kHex[b >> 4];
            out += kHex[b & 0xf];
        }
    }
    return out;
}

LeagueReply upload(const ServerUrl& url, std::string_view token, std::string_view file_name,
                   std::string_view bytes, const ClientOptions& options) {
    if (!header_safe(token)) return unanswered(kBadToken);
    http::request<http::span_body<const char>> request{
        http::verb::post, url.prefix + "/api/league/upload?name=" + percent_encode(file_name), 11};
    set_headers(request, url, token);
    request.set(http::field::content_type, "application/octet-stream");
    request.body() = beast::span<const char>(bytes.data(), bytes.size());
    request.prepare_payload();
    return send(url, request, options);
}

LeagueReply version(const ServerUrl& url, std::string_view token, long long n,
                    const ClientOptions& options) {
    if (!header_safe(token)) return unanswered(kBadToken);
    http::request<http::empty_body> request{
        http::verb::get, url.prefix + "/api/league/versions/" + std::to_string(n), 11};
    set_headers(request, url, token);
    return send(url, request, options);
}

}  // namespace arena::league
