#pragma once
// Test helper: stops an `arena run` under way once its database holds a given
// number of games, for the tests that interrupt a run and resume it.

#include <signal.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <thread>

#include "arena_process.hpp"
#include "db_query.hpp"

namespace arena::testing {

// Games stored so far by a run that may be under way: 0 while the file or its
// tables are not there yet, or the database is busy.
inline std::int64_t games_stored_now(const std::filesystem::path& db) {
    if (!std::filesystem::exists(db)) return 0;
    try {
        const std::string n = query_one(db, "SELECT count(*) FROM games");
        return n.empty() ? 0 : std::stoll(n);
    } catch (const std::exception&) {
        return 0;
    }
}

// Waits until `db` holds at least `games` games (two minutes at the most,
// however slow the machine), sends the run `signal` and returns how it ended.
inline ArenaResult stop_once_stored(ArenaProcess& run, const std::filesystem::path& db,
                                    std::int64_t games, int signal = SIGKILL) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (std::chrono::steady_clock::now() < give_up && games_stored_now(db) < games)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(run.pid(), signal);
    return run.wait();
}

}  // namespace arena::testing
