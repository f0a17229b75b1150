#pragma once
// Test helpers for a league's server run as the arena binary
// (`arena serve --league CONFIG --port 0`): its port, its participants'
// tokens (`arena league user add`), uploads over HTTP, and waiting on what
// its database holds.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "http_client.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::testing {

// The port the server prints once it listens ("arena serve: league 'NAME' at
// http://127.0.0.1:PORT/league ..."); 0 if it does not within 30 s.
inline unsigned short league_port(const ArenaProcess& server) {
    static const std::regex at("at http://127\\.0\\.0\\.1:([0-9]+)/league");
    const auto until = std::chrono::steady_clock::now() + scaled(std::chrono::seconds(30));
    while (std::chrono::steady_clock::now() < until) {
        const auto out = slurp(server.out_path().string());
        if (std::smatch m; std::regex_search(out, m, at))
            return static_cast<unsigned short>(std::stoi(m[1].str()));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return 0;
}

// `arena league user add CONFIG NAME` (run in `dir`): the participant's
// token, "" when it failed.
inline std::string add_league_user(const std::filesystem::path& dir, const std::string& config,
                                   const std::string& name) {
    const auto r = run_arena(dir, {"league", "user", "add", config, name});
    static const std::regex token("token: (\\S+)");
    std::smatch m;
    return r.status == 0 && std::regex_search(r.out, m, token) ? m[1].str() : "";
}

// POST /api/league/upload?name=NAME with `bytes` as `token`'s participant:
// the whole HTTP answer.
inline std::string league_upload(unsigned short port, const std::string& token,
                                 const std::string& name, const std::string& bytes) {
    return http_exchange(
        port,
        request("POST", "/api/league/upload?name=" + name, bytes, "application/octet-stream",
                "Authorization: Bearer " + token + "\r\n"),
        std::chrono::seconds(120));
}

// A count from the database, -1 while it cannot be read (not made yet, or
// locked for a moment by the server).
inline std::int64_t db_count(const std::filesystem::path& db, const std::string& sql) {
    try {
        if (!std::filesystem::exists(db)) return -1;
        const auto text = query_one(db, sql);
        return text.empty() ? -1 : std::stoll(text);
    } catch (const std::exception&) {
        return -1;
    }
}

// Waits (at most `limit`, scaled) until `sql` counts at least `n`.
inline bool wait_for_count(const std::filesystem::path& db, const std::string& sql, std::int64_t n,
                           std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + scaled(limit);
    while (std::chrono::steady_clock::now() < until) {
        if (db_count(db, sql) >= n) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

}  // namespace arena::testing
