#include "arena/league/web_sessions.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>

#include "arena/league/tokens.hpp"

namespace arena::league {
namespace {

std::string random_hex() {
    require_sodium();
    std::array<unsigned char, 32> bytes{};
    randombytes_buf(bytes.data(), bytes.size());
    std::string hex(bytes.size() * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), bytes.data(), bytes.size());
    hex.pop_back();
    return hex;
}

}  // namespace

WebSession WebSessions::open(const User& user) {
    WebSession s{random_hex(), random_hex(), user, std::chrono::steady_clock::now() + lifetime_};
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    std::erase_if(sessions_, [&](const auto& entry) { return entry.second.expires <= now; });
    while (sessions_.size() >= max_sessions_ && !sessions_.empty()) {
        const auto oldest = std::min_element(
            sessions_.begin(), sessions_.end(),
            [](const auto& a, const auto& b) { return a.second.expires < b.second.expires; });
        sessions_.erase(oldest);
    }
    sessions_.emplace(s.id, s);
    return s;
}

std::optional<WebSession> WebSessions::find(std::string_view cookie_header) {
    const std::string id = cookie_value(cookie_header, kSessionCookie);
    if (id.size() != 64) return std::nullopt;
    std::lock_guard lock(mutex_);
    const auto it = sessions_.find(id);
    if (it == sessions_.end()) return std::nullopt;
    if (it->second.expires <= std::chrono::steady_clock::now()) {
        sessions_.erase(it);
        return std::nullopt;
    }
    return it->second;
}

void WebSessions::close(const std::string& id) {
    std::lock_guard lock(mutex_);
    sessions_.erase(id);
}

void WebSessions::close_user(const std::string& name) {
    std::lock_guard lock(mutex_);
    std::erase_if(sessions_, [&](const auto& entry) { return entry.second.user.name == name; });
}

std::string WebSessions::cookie(const std::string& id, bool tls) const {
    return std::string(kSessionCookie) + "=" + id +
           "; Path=/; Max-Age=" + std::to_string(lifetime_.count()) +
           "; HttpOnly; SameSite=Strict" + (tls ? "; Secure" : "");
}

std::string WebSessions::cleared_cookie(bool tls) {
    return std::string(kSessionCookie) + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" +
           (tls ? "; Secure" : "");
}

std::string cookie_value(std::string_view header, std::string_view name) {
    while (!header.empty()) {
        const auto end = std::min(header.find(';'), header.size());
        std::string_view pair = header.substr(0, end);
        header.remove_prefix(std::min(end + 1, header.size()));
        while (!pair.empty() && pair.front() == ' ')
            pair.remove_prefix(1);
        const auto eq = pair.find('=');
        if (eq != std::string_view::npos && pair.substr(0, eq) == name)
            return std::string(pair.substr(eq + 1));
    }
    return {};
}

bool same_secret(std::string_view a, std::string_view b) {
    return a.size() == b.size() && !a.empty() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace arena::league
