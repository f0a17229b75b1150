#pragma once
// The client side of a league server's upload routes (docs/league.md,
// "Uploading from a script"): a small HTTP/1.1 client on Boost.Beast that
// speaks plain http:// only, with a timeout on every step and a cap on what
// it reads. What the server sends is kept as it came: whoever prints it
// escapes it (record::escape_controls).
//
//   POST {URL}/api/league/upload?name=NAME   the file's bytes    -> 202 {"version": N, ...}
//   GET  {URL}/api/league/versions/N                              -> 200 {"status": ..., "log":
//   ...}
//
// both with "Authorization: Bearer TOKEN"; a refusal is a 4xx or 5xx with
// {"error": "one line"}.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace arena::league {

// A league server's base address: http://HOST[:PORT][/PREFIX].
struct ServerUrl {
    std::string host;  // a name, an IPv4 address, or an IPv6 one without brackets
    unsigned short port = 80;
    std::string prefix;  // "" or "/league-prefix": no trailing '/'

    [[nodiscard]] std::string authority() const;  // "host:8080", "[::1]:8080", "host" for 80
    [[nodiscard]] std::string text() const;       // "http://host:8080/prefix"
};

struct UrlParse {
    std::optional<ServerUrl> url;
    std::string problem;  // when there is no url: what is wrong with it (not quoting it)
};

// Reads a league server's base URL: "http://" (any case), a host (a name, an
// IPv4 address or a bracketed IPv6 one), an optional port (1-65535, default
// 80) and an optional path prefix; a trailing '/' is dropped. Refused: https
// (arena submit speaks plain HTTP: curl does https), other schemes, no
// scheme, user names, a query or a fragment, spaces and control characters.
[[nodiscard]] UrlParse parse_server_url(std::string_view url);

// `text` percent-encoded for a query string: every byte but the unreserved
// ones (letters, digits, - . _ ~) becomes %XX.
[[nodiscard]] std::string percent_encode(std::string_view text);

struct ClientOptions {
    std::chrono::milliseconds connect_timeout{10'000};  // finding the host and connecting
    // Sending the request, and then again reading the whole answer.
    std::chrono::milliseconds read_timeout{120'000};
    std::size_t max_body = 4 * 1024 * 1024;  // bytes of an answer's body read at most
};

// What a league server answered, or why there is no answer. The strings
// are the server's bytes, unescaped.
struct LeagueReply {
    // Non-empty when no HTTP answer came: "Connection refused", "no answer
    // within 120 s", "its answer is larger than 4 MiB, ...".
    std::string problem;
    int status = 0;           // the HTTP status of the answer
    std::string retry_after;  // the Retry-After header, if any
    // The JSON fields, when the body is a JSON object holding them.
    std::optional<long long> version;
    std::string state;  // "status": "checking", "passed", "failed"
    std::string file, uploaded_at, message, log;
    // A refusal's "error"; when the body is not JSON, its first line (at
    // most 300 bytes), or "" for an empty body.
    std::string error;

    [[nodiscard]] bool answered() const { return problem.empty(); }
    [[nodiscard]] bool success() const { return answered() && status >= 200 && status < 300; }
};

// POST {url}/api/league/upload?name=`file_name` with `bytes` as the body.
[[nodiscard]] LeagueReply upload(const ServerUrl& url, std::string_view token,
                                 std::string_view file_name, std::string_view bytes,
                                 const ClientOptions& options = {});

// GET {url}/api/league/versions/`n`.
[[nodiscard]] LeagueReply version(const ServerUrl& url, std::string_view token, long long n,
                                  const ClientOptions& options = {});

}  // namespace arena::league
