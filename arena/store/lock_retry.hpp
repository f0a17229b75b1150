#pragma once
// How a call of the store waits for a database that another connection holds
// locked, internal to the store: the call is run again and again, as
// LockWaiting (results_store.hpp) says, until it gets past the lock.

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>

#include "arena/store/results_store.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {

// "0.3 s", "5.0 s", "12 s".
inline std::string seconds_text(std::chrono::milliseconds t) {
    char text[32];
    const double s = std::chrono::duration<double>(t).count();
    std::snprintf(text, sizeof text, s < 10 ? "%.1f s" : "%.0f s", s);
    return text;
}

// Runs `attempt` until it gets past the locks of other connections: every
// BusyError (SQLITE_BUSY after the busy timeout) starts it over. An attempt
// that could not get a lock has changed nothing: a write takes its lock at
// BEGIN IMMEDIATE, and a transaction that fails later is rolled back whole.
// Gives up, with a StoreError naming the file, when `waiting` says so.
template <class Attempt>
auto retry_while_locked(const std::filesystem::path& file, const LockWaiting& waiting,
                        const std::string& context, Attempt&& attempt) {
    using namespace std::chrono_literals;
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> since;  // the first attempt that found a lock
    auto next_report = waiting.report_every;
    bool reported = false;
    const auto waited = [&] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *since);
    };
    for (;;) {
        const auto tried = Clock::now();
        try {
            if constexpr (std::is_void_v<std::invoke_result_t<Attempt&>>) {
                attempt();
                if (reported) waiting.report({file, waited(), true});
                return;
            } else {
                auto result = attempt();
                if (reported) waiting.report({file, waited(), true});
                return result;
            }
        } catch (const BusyError& e) {
            // SQLITE_LOCKED is a conflict within this process, which waiting cannot end.
            if (e.primary_code() != SQLITE_BUSY) throw StoreError(context + e.what());
            if (!since) since = tried;
            const auto so_far = waited();
            if (waiting.stop.stop_requested()) {
                throw StoreError(context + file.string() +
                                 ": the database is locked by another program; stopped waiting "
                                 "for it after " +
                                 seconds_text(so_far));
            }
            if (waiting.limit && so_far >= *waiting.limit) {
                throw StoreError(context + file.string() +
                                 ": the database is locked by another program; gave up after " +
                                 seconds_text(so_far));
            }
            if (waiting.report && waiting.report_every.count() > 0 && so_far >= next_report) {
                waiting.report({file, next_report, false});
                reported = true;
                while (next_report <= so_far)
                    next_report += waiting.report_every;
            }
            // SQLite can answer SQLITE_BUSY without waiting (a lock it must
            // not wait for); don't spin.
            if (Clock::now() - tried < 10ms) std::this_thread::sleep_for(10ms);
        }
    }
}

// `body()`, with SQLite's errors as StoreError, but BusyError, which the
// callers wait on and try again.
template <class Body>
auto store_errors(Body&& body) {
    try {
        return body();
    } catch (const BusyError&) {
        throw;
    } catch (const SqliteError& e) {
        throw StoreError(e.what());
    }
}

// One call on a store's connection: serialized by `mutex`, run again while
// another connection holds the database locked (as `waiting` says), and
// SQLite's errors turned into StoreError (whose message names the file).
template <class Body>
auto serialized_call(std::mutex& mutex, const std::filesystem::path& file,
                     const LockWaiting& waiting, Body&& body) {
    std::lock_guard lock(mutex);
    return retry_while_locked(file, waiting, "", [&] { return store_errors(body); });
}

// What a store's constructor does: `make()` (its connection and prepared
// statements) tried again while the file is locked, a statement that does
// not prepare as StoreError.
template <class Make>
auto open_retrying(const std::filesystem::path& file, const LockWaiting& waiting, Make&& make) {
    return retry_while_locked(file, waiting,
                              "cannot open results database: ", [&] { return store_errors(make); });
}

}  // namespace arena::store
