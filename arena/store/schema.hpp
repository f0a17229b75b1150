#pragma once
// The versioned schema of a results database, internal to the store: the SQL
// of every version since the first, the steps that take an older file up to
// this arena's (kSchemaVersion), and the opening of a connection with the
// schema up to date, in place for a store that writes, or through a copy in
// memory for one opened read-only (see Access in results_store.hpp).

#include <filesystem>

#include "arena/store/journal_mode.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {

// The connection of a read-write store: the file is created when missing
// (with its directory), set to `journal` mode (switched when it is in the
// other one) and upgraded to this arena's schema. Throws StoreError for a
// file that is not an arena results database or is of a newer schema, or
// that cannot leave WAL because another connection has it open in WAL mode
// (after waiting up to 2 s for it to close), and BusyError while another
// connection holds it locked (the caller waits and tries again).
Database open_database(const std::filesystem::path& path, JournalMode journal = JournalMode::kWal);

// The connection of a read-only store (see Access): SQLITE_OPEN_READONLY,
// and nothing written. A file of an older schema is read through a copy in
// memory, upgraded there. Throws as open_database() does.
Database open_read_only(const std::filesystem::path& path);

}  // namespace arena::store
