#pragma once
// One `arena run` at a time per results database.
//
// Two runs of the same tournament on one database would both see the same
// games missing and play them twice (the second store would be refused, but
// the games would have been played). A RunLock is an exclusive flock(2) on
// `<db>.lock`, taken before the run reads what is stored and held until it
// ends. `<db>` is the database's canonical path (symlinks resolved, made
// absolute): the lock is the file's, however a run names it. Two hard
// links to one file are two names; the lock does not see through them. The kernel drops it when the
// process dies in any way, kill -9 included, so a stale lock file never blocks a resume; the file
// itself is left in place (removing it would race with a process about to lock it).
//
// The lock file holds the holder's pid and tournament, so the refusal can
// say who holds it. The descriptor is close-on-exec: bots never inherit it,
// so a bot that outlives the arena does not keep the database locked.
// Readers (`arena standings`, the sqlite3 shell) take no lock: WAL lets them
// read while a run writes.

#include <filesystem>
#include <stdexcept>
#include <string>

namespace arena::store {

// Another process holds the lock; the message says which and what it plays.
class LockedError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class RunLock {
  public:
    // Locks lock_path(database) (created when missing) for `tournament`.
    // Throws LockedError when another process holds it, and StoreError
    // (results_store.hpp) when the lock file cannot be opened or locked.
    RunLock(const std::filesystem::path& database, const std::string& tournament);
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

    // `<canonical path of database>.lock`.
    [[nodiscard]] static std::filesystem::path lock_path(const std::filesystem::path& database);

  private:
    int fd_ = -1;
};

}  // namespace arena::store
