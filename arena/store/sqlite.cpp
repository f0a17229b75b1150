#include "arena/store/sqlite.hpp"

#include <sqlite3.h>

#include <cstring>
#include <string>
#include <utility>

namespace arena::store {
namespace {

[[noreturn]] void throw_error(std::string message, int code) {
    const int primary = code & 0xff;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) throw BusyError(message, code);
    throw SqliteError(message, code);
}

// Errors that come from the file or the system, not from the statement: the
// SQL text would only hide the problem from the person reading the message.
bool is_environment_error(int code) {
    switch (code & 0xff) {
        case SQLITE_FULL:
        case SQLITE_IOERR:
        case SQLITE_READONLY:
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
        case SQLITE_NOTADB:
        case SQLITE_CORRUPT:
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
        case SQLITE_NOLFS:
            return true;
        default:
            return false;
    }
}

// Which operation an I/O error came from, when the OS error is not known.
const char* io_operation(int code) {
    switch (code) {
        case SQLITE_IOERR_WRITE:
            return "a write failed";
        case SQLITE_IOERR_READ:
        case SQLITE_IOERR_SHORT_READ:
            return "a read failed";
        case SQLITE_IOERR_FSYNC:
            return "fsync failed";
        case SQLITE_IOERR_TRUNCATE:
            return "truncating a file failed";
        default:
            return nullptr;
    }
}

// "<file>: <what SQLite says>[ (<OS error>)][ (while running: <sql>)]", e.g.
// "results/x.db: disk I/O error (File too large)" or
// "results/x.db: no such table: foo (while running: SELECT * FROM foo)".
[[noreturn]] void throw_db_error(sqlite3* db, int code, std::string_view file,
                                 std::string_view sql) {
    std::string message(file);
    message += ": ";
    message += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    const int primary = code & 0xff;
    const int os_error = db != nullptr ? sqlite3_system_errno(db) : 0;
    if (os_error != 0 && (primary == SQLITE_IOERR || primary == SQLITE_FULL ||
                          primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY)) {
        message += " (";
        message += std::strerror(os_error);
        message += ')';
    } else if (const char* what = io_operation(code)) {
        message += " (";
        message += what;
        message += ')';
    }
    if (!sql.empty() && !is_environment_error(code)) {
        message += " (while running: ";
        message += sql;
        message += ')';
    }
    throw_error(std::move(message), code);
}

std::string_view file_of(sqlite3* db) {
    const char* name = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
    return name != nullptr && *name != '\0' ? name : "(temporary database)";
}

bool only_space(const char* text) {
    for (; *text != '\0'; ++text) {
        if (*text != ' ' && *text != '\n' && *text != '\t' && *text != '\r') return false;
    }
    return true;
}

// `file:<path>?immutable=1`: the path made absolute, with every byte other
// than an unreserved one or '/' percent-encoded (RFC 3986, as SQLite's URI
// filenames read it).
std::string immutable_uri(const std::filesystem::path& path) {
    std::error_code ec;
    auto absolute = std::filesystem::absolute(path, ec);
    if (ec) absolute = path;
    std::string uri = "file:";
    for (const char c : absolute.string()) {
        const auto b = static_cast<unsigned char>(c);
        if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') ||
            b == '-' || b == '.' || b == '_' || b == '~' || b == '/') {
            uri += c;
        } else {
            constexpr char kHex[] = "0123456789ABCDEF";
            uri += '%';
            uri += kHex[b >> 4];
            uri += kHex[b & 15];
        }
    }
    uri += "?immutable=1";
    return uri;
}

}  // namespace

// ---------------------------------------------------------------- Database

Database::Database(const std::filesystem::path& path, Mode mode) : path_(path) {
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
        case Mode::kReadWriteCreate:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
            break;
        case Mode::kReadWrite:
            flags |= SQLITE_OPEN_READWRITE;
            break;
        case Mode::kReadOnly:
            flags |= SQLITE_OPEN_READONLY;
            break;
    }
    open(path.c_str(), flags);
    if (mode != Mode::kReadOnly) return;
    // A WAL file read by a user who cannot write to its directory: SQLite
    // needs `<file>-shm` to read through the log, and cannot create it
    // (SQLITE_READONLY_DIRECTORY, or SQLITE_READONLY_CANTINIT, at the first
    // read: a read-only connection never creates the file). Without a `-wal` file,
    // or with an empty one, the database file holds every committed
    // transaction, and `immutable=1` reads it without the shared memory.
    const int rc = sqlite3_exec(db_, "PRAGMA user_version", nullptr, nullptr, nullptr);
    // A hot rollback journal (`<file>-journal` of a program that stopped in
    // the middle of a commit, in journal_mode delete): SQLite must roll the
    // file back before anyone reads it, which a read-only connection cannot.
    // Read with `immutable=1`, the file would show the half-written commit.
    if (rc == SQLITE_READONLY_ROLLBACK) {
        close();
        throw_error(path.string() + ": a program stopped while writing it and left " +
                        path.string() +
                        "-journal, the rollback journal of its unfinished commit, which a "
                        "read-only open cannot roll back; open the database once with a command "
                        "that writes (arena run, or the sqlite3 shell), which rolls it back",
                    rc);
    }
    // With a -wal and no -shm, the read-only open of the -shm fails: SQLITE_CANTOPEN.
    if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN) return;
    std::error_code ec;
    const auto wal_size = std::filesystem::file_size(path.string() + "-wal", ec);
    if (!ec && wal_size > 0) {
        close();
        throw_error(path.string() + ": cannot read its write-ahead log " + path.string() +
                        "-wal without writing " + path.string() +
                        "-shm next to it; open the database once as a user who can write to "
                        "its directory (any arena command that writes, or sqlite3), which "
                        "folds the log into the file",
                    rc);
    }
    close();
    open(immutable_uri(path).c_str(), SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
}

void Database::open(const char* name, int flags) {
    const int rc = sqlite3_open_v2(name, &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = path_.string() + ": cannot open: ";
        message += db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        close();
        throw_error(std::move(message), rc);
    }
    sqlite3_extended_result_codes(db_, 1);
}

Database Database::copy_in_memory(Database& source) {
    Database copy;
    copy.path_ = source.path_;
    copy.open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
    sqlite3_backup* backup = sqlite3_backup_init(copy.db_, "main", source.db_, "main");
    if (backup == nullptr) {
        throw_error(
            source.path_.string() + ": cannot copy it into memory: " + sqlite3_errmsg(copy.db_),
            sqlite3_extended_errcode(copy.db_));
    }
    const int step = sqlite3_backup_step(backup, -1);
    const int rc = sqlite3_backup_finish(backup);
    if (step != SQLITE_DONE || rc != SQLITE_OK) {
        const int code = step != SQLITE_DONE ? step : rc;
        throw_error(source.path_.string() + ": cannot copy it into memory: " + sqlite3_errstr(code),
                    code);
    }
    return copy;
}

Database::~Database() {
    close();
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        close();
        db_ = std::exchange(other.db_, nullptr);
        path_ = std::move(other.path_);
    }
    return *this;
}

void Database::close() noexcept {
    // close_v2: if a Statement outlives its Database, the connection is
    // closed when that statement is finalized instead of failing here.
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = nullptr;
}

void Database::exec(const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    sqlite3_free(error);  // the same text as sqlite3_errmsg
    if (rc != SQLITE_OK) throw_db_error(db_, rc, path_.string(), sql);
}

Statement Database::prepare(std::string sql) {
    return Statement(db_, std::move(sql));
}

std::int64_t Database::query_int(const std::string& sql) {
    Statement stmt(db_, sql);
    auto q = stmt.use();
    if (!q.step()) throw_error(path_.string() + ": no result from " + sql, SQLITE_ERROR);
    return q.column_int64(0);
}

std::string Database::query_text(const std::string& sql) {
    Statement stmt(db_, sql);
    auto q = stmt.use();
    if (!q.step()) throw_error(path_.string() + ": no result from " + sql, SQLITE_ERROR);
    return q.column_text(0);
}

void Database::set_busy_timeout(std::chrono::milliseconds timeout) {
    const int rc = sqlite3_busy_timeout(db_, static_cast<int>(timeout.count()));
    if (rc != SQLITE_OK) throw_db_error(db_, rc, path_.string(), "sqlite3_busy_timeout");
}

std::int64_t Database::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(db_);
}

std::int64_t Database::changes() const {
    return sqlite3_changes64(db_);
}

bool Database::autocommit() const {
    return sqlite3_get_autocommit(db_) != 0;
}

// --------------------------------------------------------------- Statement

Statement::Statement(sqlite3* db, std::string sql) : sql_(std::move(sql)) {
    const char* tail = nullptr;
    const int rc = sqlite3_prepare_v3(db, sql_.c_str(), static_cast<int>(sql_.size() + 1),
                                      SQLITE_PREPARE_PERSISTENT, &stmt_, &tail);
    if (rc != SQLITE_OK) throw_db_error(db, rc, file_of(db), sql_);
    if (stmt_ == nullptr)
        throw_error(std::string(file_of(db)) + ": empty statement", SQLITE_MISUSE);
    if (tail != nullptr && !only_space(tail)) {
        sqlite3_finalize(std::exchange(stmt_, nullptr));
        throw_error(std::string(file_of(db)) + ": more than one statement in: " + sql_,
                    SQLITE_MISUSE);
    }
}

Statement::~Statement() {
    if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), sql_(std::move(other.sql_)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        if (stmt_ != nullptr) sqlite3_finalize(stmt_);
        stmt_ = std::exchange(other.stmt_, nullptr);
        sql_ = std::move(other.sql_);
    }
    return *this;
}

Statement::Query Statement::use() {
    if (stmt_ == nullptr) throw_error("use of an unprepared statement", SQLITE_MISUSE);
    return Query(*this);
}

void Statement::reset() noexcept {
    if (stmt_ == nullptr) return;
    // The return value repeats the last step's error, already reported.
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

void Statement::fail(int rc, std::string_view what) const {
    sqlite3* db = sqlite3_db_handle(stmt_);
    if (what.empty()) throw_db_error(db, rc, file_of(db), sql_);
    throw_error(std::string(file_of(db)) + ": " + std::string(what) + " (in: " + sql_ + ")", rc);
}

// ----------------------------------------------------------- Statement::Query

Statement::Query& Statement::Query::bind(std::string_view value) {
    // A null pointer would bind SQL NULL, not an empty string.
    const char* data = value.data() != nullptr ? value.data() : "";
    const int rc = sqlite3_bind_text64(stmt_->stmt_, next_param_++, data, value.size(),
                                       SQLITE_TRANSIENT, SQLITE_UTF8);
    if (rc != SQLITE_OK) stmt_->fail(rc, {});
    return *this;
}

Statement::Query& Statement::Query::bind(std::int64_t value) {
    const int rc = sqlite3_bind_int64(stmt_->stmt_, next_param_++, value);
    if (rc != SQLITE_OK) stmt_->fail(rc, {});
    return *this;
}

Statement::Query& Statement::Query::bind(double value) {
    const int rc = sqlite3_bind_double(stmt_->stmt_, next_param_++, value);
    if (rc != SQLITE_OK) stmt_->fail(rc, {});
    return *this;
}

Statement::Query& Statement::Query::bind(std::nullopt_t) {
    const int rc = sqlite3_bind_null(stmt_->stmt_, next_param_++);
    if (rc != SQLITE_OK) stmt_->fail(rc, {});
    return *this;
}

bool Statement::Query::step() {
    const int rc = sqlite3_step(stmt_->stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    stmt_->fail(rc, {});
}

void Statement::Query::exec() {
    while (step()) {
    }
}

bool Statement::Query::is_null(int column) const {
    return sqlite3_column_type(stmt_->stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::Query::column_int64(int column) const {
    return sqlite3_column_int64(stmt_->stmt_, column);
}

int Statement::Query::column_int(int column) const {
    return sqlite3_column_int(stmt_->stmt_, column);
}

double Statement::Query::column_double(int column) const {
    return sqlite3_column_double(stmt_->stmt_, column);
}

std::string Statement::Query::column_text(int column) const {
    return std::string(column_view(column));
}

std::string_view Statement::Query::column_view(int column) const {
    // Text first, then its length: the order SQLite documents as safe.
    const auto* text = sqlite3_column_text(stmt_->stmt_, column);
    const int size = sqlite3_column_bytes(stmt_->stmt_, column);
    if (text == nullptr) return {};
    return {reinterpret_cast<const char*>(text), static_cast<std::size_t>(size)};
}

// ------------------------------------------------------------- Transaction

Transaction::Transaction(Database& db, Mode mode) : db_(&db) {
    db.exec(mode == Mode::kImmediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction() {
    // Some errors (SQLITE_FULL, SQLITE_IOERR, ...) already rolled back.
    if (active_ && !db_->autocommit()) {
        sqlite3_exec(db_->handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
}

void Transaction::commit() {
    db_->exec("COMMIT");
    active_ = false;
}

}  // namespace arena::store
