#pragma once
// How a store that writes keeps its results database consistent between
// commits: SQLite's journal mode, which is stored in the file (bytes 18 and
// 19 of its header: 2 for WAL, 1 for a rollback journal), so the last
// program that wrote it decides how every program reads it.
//
//  kWal: the write-ahead log (`<db>-wal`, with its index `<db>-shm` in
//      shared memory). Readers never block the writer, nor it them. The
//      shared memory works only between processes on one machine: a
//      database whose readers are on other machines (NFS) must not be in WAL.
//  kDelete: the rollback journal (`<db>-journal`, deleted after each commit).
//      No shared memory, so it works over a network filesystem, but a reader
//      and the writer briefly block each other, and each commit fsyncs the
//      journal and the file.
//
// A config chooses it with `journal_mode:` (docs/config.md); docs/database.md
// says when to choose which.

#include <string_view>

namespace arena::store {

enum class JournalMode { kWal, kDelete };

// "wal" or "delete": the config's word, and what `PRAGMA journal_mode` answers.
[[nodiscard]] constexpr std::string_view journal_mode_name(JournalMode mode) {
    return mode == JournalMode::kDelete ? "delete" : "wal";
}

}  // namespace arena::store
