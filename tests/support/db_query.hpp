#pragma once
// Test helper: reads a results database with SQLite itself (read-only), so
// that tests check what was stored, not what the arena's store layer says.

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace arena::testing {

using Rows = std::vector<std::vector<std::string>>;

// Runs `sql` on the database file; NULL reads as "". Throws when the file
// cannot be opened or the statement is wrong.
inline Rows query(const std::filesystem::path& db, const std::string& sql) {
    sqlite3* handle = nullptr;
    if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(handle);
        throw std::runtime_error("cannot open " + db.string());
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        const std::string message = sqlite3_errmsg(handle);
        sqlite3_close(handle);
        throw std::runtime_error(message + " in " + sql);
    }
    Rows rows;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
            const auto* text = sqlite3_column_text(stmt, i);
            row.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(handle);
    return rows;
}

// The first column of the first row, or "" when there is no row.
inline std::string query_one(const std::filesystem::path& db, const std::string& sql) {
    const Rows rows = query(db, sql);
    return rows.empty() || rows.front().empty() ? std::string() : rows.front().front();
}

}  // namespace arena::testing
