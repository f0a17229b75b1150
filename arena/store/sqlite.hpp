#pragma once
// Thin RAII wrappers over the SQLite C API, after the shape of Nix's
// sqlite.hh: a Database that owns one connection (movable, not copyable), a
// Statement prepared once and finalized in its destructor, a Transaction that
// rolls back unless committed, and typed errors (BusyError when another
// connection held a lock for longer than the busy timeout).
//
// A Statement is used through a Query, which resets the statement (and clears
// its bindings) when it goes out of scope. Without that, a SELECT read only
// up to its first row would stay active and pin an old read snapshot of a WAL
// database (or, in a rollback journal mode, hold the shared lock that keeps
// every writer from committing) until the statement happened to be used again.
//
//     auto q = stmt.use();
//     q.bind(tournament).bind(name);
//     while (q.step()) rows.push_back(q.column_text(0));
//
// Values are always bound as parameters; user data never becomes SQL text.
// Error messages name the database file, SQLite's message and the statement.
// Nothing here is thread-safe: one connection belongs to one thread at a time.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace arena::store {

// A failed SQLite call. code() is the extended result code
// (e.g. SQLITE_CONSTRAINT_UNIQUE), primary_code() its low byte (SQLITE_CONSTRAINT).
class SqliteError : public std::runtime_error {
  public:
    SqliteError(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
    [[nodiscard]] int code() const { return code_; }
    [[nodiscard]] int primary_code() const { return code_ & 0xff; }

  private:
    int code_;
};

// SQLITE_BUSY or SQLITE_LOCKED: another connection kept the database locked
// for longer than the busy timeout. Retrying later may succeed.
class BusyError : public SqliteError {
  public:
    using SqliteError::SqliteError;
};

class Statement;

class Database {
  public:
    // kReadOnly never writes, not even SQLite's `-shm` file: a WAL database
    // in a directory the user cannot write, with no `-wal` file (or an empty
    // one), is read as immutable; with a `-wal` file that holds transactions
    // and no `-shm` it cannot be read, and the constructor throws
    // SqliteError (SQLITE_READONLY_...) saying so. So it does for a database
    // in a rollback journal mode with a hot `-journal` (a writer stopped in
    // the middle of a commit), which only a connection that writes can roll
    // back (SQLITE_READONLY_ROLLBACK).
    enum class Mode { kReadWriteCreate, kReadWrite, kReadOnly };

    Database() = default;  // not open
    explicit Database(const std::filesystem::path& path, Mode mode = Mode::kReadWriteCreate);
    ~Database();
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    [[nodiscard]] bool is_open() const { return db_ != nullptr; }
    [[nodiscard]] sqlite3* handle() const { return db_; }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    // Runs one or more statements that take no parameters and return no rows
    // needed by the caller (schema scripts, BEGIN/COMMIT).
    void exec(const std::string& sql);

    // Prepares a statement meant to be kept and reused.
    [[nodiscard]] Statement prepare(std::string sql);

    // The first column of the first row of a parameterless query, e.g.
    // "PRAGMA user_version". Throws if the query returns no row.
    [[nodiscard]] std::int64_t query_int(const std::string& sql);
    [[nodiscard]] std::string query_text(const std::string& sql);

    void set_busy_timeout(std::chrono::milliseconds timeout);

    // A private, writable copy of `source` in memory (SQLite's backup API),
    // which names source's file in its messages: changing it changes
    // nothing on disk.
    [[nodiscard]] static Database copy_in_memory(Database& source);

    [[nodiscard]] std::int64_t last_insert_rowid() const;
    // Rows changed by the most recent INSERT, UPDATE or DELETE.
    [[nodiscard]] std::int64_t changes() const;
    // False inside an explicit transaction.
    [[nodiscard]] bool autocommit() const;

  private:
    void open(const char* name, int flags);
    void close() noexcept;

    sqlite3* db_ = nullptr;
    std::filesystem::path path_;
};

class Statement {
  public:
    class Query;

    Statement() = default;
    Statement(sqlite3* db, std::string sql);
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Starts one execution: the statement is reset now and again when the
    // returned Query is destroyed.
    [[nodiscard]] Query use();

    // Back to the start, bindings cleared. Query does this for you.
    void reset() noexcept;

    [[nodiscard]] const std::string& sql() const { return sql_; }
    // False for a default-constructed or moved-from Statement.
    [[nodiscard]] bool is_prepared() const { return stmt_ != nullptr; }

  private:
    friend class Query;
    [[noreturn]] void fail(int rc, std::string_view what) const;

    sqlite3_stmt* stmt_ = nullptr;
    std::string sql_;
};

// One execution of a Statement: fluent binding (parameters 1, 2, ... in the
// order of the bind calls), stepping and reading columns (0-based).
class Statement::Query {
  public:
    explicit Query(Statement& stmt) : stmt_(&stmt) { stmt.reset(); }
    ~Query() { stmt_->reset(); }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    // Strings are copied by SQLite, so temporaries are fine.
    Query& bind(std::string_view value);
    Query& bind(const char* value) { return bind(std::string_view(value)); }
    Query& bind(const std::string& value) { return bind(std::string_view(value)); }
    Query& bind(std::int64_t value);
    Query& bind(int value) { return bind(static_cast<std::int64_t>(value)); }
    Query& bind(bool value) { return bind(static_cast<std::int64_t>(value ? 1 : 0)); }
    Query& bind(double value);
    Query& bind(std::nullopt_t);
    template <class T>
    Query& bind(const std::optional<T>& value) {
        return value ? bind(*value) : bind(std::nullopt);
    }

    // True when a row is available; false once the statement is done.
    [[nodiscard]] bool step();
    // Steps to the end, ignoring any rows (INSERT, UPDATE, DELETE).
    void exec();

    [[nodiscard]] bool is_null(int column) const;
    [[nodiscard]] std::int64_t column_int64(int column) const;
    [[nodiscard]] int column_int(int column) const;
    [[nodiscard]] double column_double(int column) const;
    // NULL reads as "". Embedded NUL bytes are kept.
    [[nodiscard]] std::string column_text(int column) const;
    // The same without a copy: valid until the next step() or the end of the Query.
    [[nodiscard]] std::string_view column_view(int column) const;

  private:
    Statement* stmt_;
    int next_param_ = 1;
};

// BEGIN ... COMMIT, rolled back by the destructor unless commit() succeeded.
// kImmediate takes the write lock at BEGIN, which a transaction that will
// write should do: a deferred one that reads first and then writes can fail
// with SQLITE_BUSY at once, without waiting for the busy timeout.
class Transaction {
  public:
    enum class Mode { kDeferred, kImmediate };

    explicit Transaction(Database& db, Mode mode = Mode::kImmediate);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    void commit();

  private:
    Database* db_;
    bool active_ = true;
};

}  // namespace arena::store
