#pragma once
// One `arena run` at a time per results database.
//
// Two runs of the same tournament on one database would both see the same
// games missing and play them twice (the second store would be refused, but
// the games would have been played). A RunLock is taken before the run reads
// what is stored and held until it ends. It is the database file's own: a
// write lock (fcntl F_OFD_SETLK) on one byte of the file far past the bytes
// SQLite locks, so that every name of the file (a symlink, another relative
// path, a hard link) meets the same lock. Beside it, an exclusive flock(2)
// on `<db>.lock`, where `<db>` is the database's canonical path (symlinks
// resolved, made absolute), holds the holder's pid and tournament, so the
// refusal can say who holds it (through a hard link it cannot: the message
// then names no holder). The kernel drops both when the process dies in any
// way, kill -9 included, so a stale lock file never blocks a resume; the
// file itself is left in place (removing it would race with a process about
// to lock it).
// The descriptor is close-on-exec: bots never inherit it,
// so a bot that outlives the arena does not keep the database locked.
// Readers (`arena standings`, the sqlite3 shell) take no lock of this kind:
// they read while a run writes (in WAL without waiting; with the rollback
// journal, journal_mode: delete, SQLite's own locks make a read and a commit
// wait for each other for a moment).

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
    // Locks the database (which must exist) and lock_path(database)
    // (created when missing) for `tournament`.
    // Throws LockedError when another process holds it, and StoreError
    // (results_store.hpp) when the lock file cannot be opened or locked.
    RunLock(const std::filesystem::path& database, const std::string& tournament);
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

    // `<canonical path of database>.lock`.
    [[nodiscard]] static std::filesystem::path lock_path(const std::filesystem::path& database);

  private:
    int fd_ = -1;     // <db>.lock
    int db_fd_ = -1;  // the database file, holding its lock
};

}  // namespace arena::store
