#pragma once
// Test helpers: what lies beside and inside a SQLite database file, for the
// tests of its journal modes.

#include <array>
#include <filesystem>
#include <fstream>
#include <utility>

namespace arena::testing {

// Bytes 18 and 19 of the file's header: SQLite's file format versions for
// writing and reading, 1 for a rollback journal, 2 for WAL.
inline std::pair<int, int> header_versions(const std::filesystem::path& db) {
    std::ifstream in(db, std::ios::binary);
    std::array<char, 20> header{};
    in.read(header.data(), header.size());
    if (!in) return {-1, -1};
    return {header[18], header[19]};
}

// Whether the file `db` + `suffix` ("-wal", "-shm", "-journal") exists.
inline bool exists_beside(const std::filesystem::path& db, const char* suffix) {
    return std::filesystem::exists(db.string() + suffix);
}

}  // namespace arena::testing
