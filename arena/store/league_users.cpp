#include "arena/store/league_users.hpp"

#include <sqlite3.h>

#include <mutex>
#include <utility>

#include "arena/store/lock_retry.hpp"
#include "arena/store/schema.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {
namespace {

constexpr const char* kUserColumns =
    "SELECT id, name, token_hash, organiser, IFNULL(disabled_at, ''), created_at "
    "FROM league_users ";

LeagueUserRow read_user(const Statement::Query& q) {
    LeagueUserRow row;
    row.id = q.column_int64(0);
    row.name = q.column_text(1);
    row.token_hash = q.column_text(2);
    row.organiser = q.column_int64(3) != 0;
    row.disabled_at = q.column_text(4);
    row.created_at = q.column_text(5);
    return row;
}

}  // namespace

struct LeagueUsers::Impl {
    std::mutex mutex;  // one connection, one caller at a time
    Database db;
    std::string league;
    LockWaiting waiting;
    bool read_only = false;
    Statement insert = db.prepare(
        "INSERT INTO league_users (league, name, token_hash, organiser) VALUES (?, ?, ?, ?)");
    Statement list = db.prepare(std::string(kUserColumns) + "WHERE league = ? ORDER BY id");
    Statement by_name = db.prepare(std::string(kUserColumns) + "WHERE league = ? AND name = ?");
    Statement by_id = db.prepare(std::string(kUserColumns) + "WHERE league = ? AND id = ?");
    Statement disable = db.prepare(
        "UPDATE league_users SET disabled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
        "WHERE league = ? AND name = ? AND disabled_at IS NULL");
    Statement set_hash =
        db.prepare("UPDATE league_users SET token_hash = ? WHERE league = ? AND name = ?");

    Impl(Database opened, std::string league_name, LockWaiting how, Access access)
        : db(std::move(opened)),
          league(std::move(league_name)),
          waiting(std::move(how)),
          read_only(access == Access::kReadOnly) {}

    static Impl& of(const std::unique_ptr<Impl>& impl) {
        if (!impl) throw StoreError("use of a moved-from LeagueUsers");
        return *impl;
    }

    void check_writable(const char* what) const {
        if (read_only) throw StoreError(db.path().string() + ": opened read-only: cannot " + what);
    }

    // As ResultsStore::Impl::run: serialized, retried while another
    // connection holds the database locked, SQLite's errors as StoreError.
    template <class F>
    auto run(F&& body) {
        return serialized_call(mutex, db.path(), waiting, std::forward<F>(body));
    }

    std::optional<LeagueUserRow> first_row(Statement::Query& q) {
        if (!q.step()) return std::nullopt;
        return read_user(q);
    }
};

LeagueUsers::LeagueUsers(const std::filesystem::path& path, std::string league, Access access,
                         LockWaiting waiting) {
    impl_ = open_retrying(path, waiting, [&] {
        return std::make_unique<Impl>(
            access == Access::kReadOnly ? open_read_only(path) : open_database(path), league,
            waiting, access);
    });
}

LeagueUsers::LeagueUsers(const std::filesystem::path& path, std::string league, JournalMode journal,
                         LockWaiting waiting) {
    impl_ = open_retrying(path, waiting, [&] {
        return std::make_unique<Impl>(open_database(path, journal), league, waiting,
                                      Access::kReadWrite);
    });
}

LeagueUsers::~LeagueUsers() = default;
LeagueUsers::LeagueUsers(LeagueUsers&&) noexcept = default;
LeagueUsers& LeagueUsers::operator=(LeagueUsers&&) noexcept = default;

std::optional<std::int64_t> LeagueUsers::add(const std::string& name, const std::string& token_hash,
                                             bool organiser) {
    auto& s = Impl::of(impl_);
    s.check_writable("add a league user");
    return s.run([&]() -> std::optional<std::int64_t> {
        try {
            s.insert.use().bind(s.league).bind(name).bind(token_hash).bind(organiser).exec();
        } catch (const SqliteError& e) {
            if (e.code() == SQLITE_CONSTRAINT_UNIQUE) return std::nullopt;
            throw;
        }
        return s.db.last_insert_rowid();
    });
}

std::vector<LeagueUserRow> LeagueUsers::list() {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<LeagueUserRow> rows;
        auto q = s.list.use();
        q.bind(s.league);
        while (q.step())
            rows.push_back(read_user(q));
        return rows;
    });
}

std::optional<LeagueUserRow> LeagueUsers::find(const std::string& name) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        auto q = s.by_name.use();
        q.bind(s.league).bind(name);
        return s.first_row(q);
    });
}

std::optional<LeagueUserRow> LeagueUsers::find(std::int64_t id) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        auto q = s.by_id.use();
        q.bind(s.league).bind(id);
        return s.first_row(q);
    });
}

bool LeagueUsers::disable(const std::string& name) {
    auto& s = Impl::of(impl_);
    s.check_writable("disable a league user");
    return s.run([&] {
        s.disable.use().bind(s.league).bind(name).exec();
        return s.db.changes() > 0;
    });
}

bool LeagueUsers::set_token_hash(const std::string& name, const std::string& token_hash) {
    auto& s = Impl::of(impl_);
    s.check_writable("replace a league user's token");
    return s.run([&] {
        s.set_hash.use().bind(token_hash).bind(s.league).bind(name).exec();
        return s.db.changes() > 0;
    });
}

}  // namespace arena::store
