#pragma once
// The signed-in browsers of a league's server (docs/league.md, "Signing
// in"). Signing in with a token makes a session: a random id, which the
// browser keeps in a cookie (HttpOnly, SameSite=Strict, Secure behind TLS),
// and a random CSRF token, which the page sends back in the X-CSRF-Token
// header of every request that changes something. Both are 32 bytes from
// libsodium, in hex. Sessions live in the server's memory: a restart signs
// everyone out. They end after `lifetime`, or when signed out; past
// `max_sessions` the oldest ends.

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "arena/league/accounts.hpp"

namespace arena::league {

// The cookie's name.
inline constexpr std::string_view kSessionCookie = "arena_league";

struct WebSession {
    std::string id;  // the cookie's value
    std::string csrf;
    User user;
    std::chrono::steady_clock::time_point expires;
};

class WebSessions {
  public:
    explicit WebSessions(std::chrono::seconds lifetime = std::chrono::hours(12),
                         std::size_t max_sessions = 10'000)
        : lifetime_(lifetime), max_sessions_(max_sessions) {}

    // A new session for `user`.
    WebSession open(const User& user);
    // The session a Cookie header names, while it lasts.
    [[nodiscard]] std::optional<WebSession> find(std::string_view cookie_header);
    void close(const std::string& id);
    // Ends every session of the user `name` (disabled, token reset).
    void close_user(const std::string& name);

    // The Set-Cookie value that keeps `id` (Secure when `tls`), and the
    // one that removes it.
    [[nodiscard]] std::string cookie(const std::string& id, bool tls) const;
    [[nodiscard]] static std::string cleared_cookie(bool tls);

  private:
    std::chrono::seconds lifetime_;
    std::size_t max_sessions_;
    std::mutex mutex_;
    std::map<std::string, WebSession, std::less<>> sessions_;
};

// The value of the cookie `name` in a Cookie header; "" when it has none.
[[nodiscard]] std::string cookie_value(std::string_view header, std::string_view name);

// Whether two secrets are equal, in time that does not depend on where they
// differ (sodium_memcmp).
[[nodiscard]] bool same_secret(std::string_view a, std::string_view b);

}  // namespace arena::league
