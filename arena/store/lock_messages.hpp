#pragma once
// Waiting for a database that another program locks (a `sqlite3` shell in
// a transaction, a backup) as long as the lock is held, and saying so: a
// line every 10 s while it waits, and one when the database is free again.

#include <iosfwd>
#include <stop_token>
#include <string>
#include <string_view>

#include "arena/store/results_store.hpp"

namespace arena::store {

// The line for one report of a wait, after `who` ("arena run"): "F is
// locked by another program; still waiting (10 s)", or with wait.over "F is
// free again after 12 s; going on".
[[nodiscard]] std::string lock_wait_line(std::string_view who, const LockWait& wait);

// Waits without a limit, writing lock_wait_line() and a newline to `err`
// each time; a stop request (Ctrl-C) ends the wait.
[[nodiscard]] LockWaiting waiting_as_long_as_locked(std::ostream& err, std::string who,
                                                    std::stop_token stop = {});

}  // namespace arena::store
