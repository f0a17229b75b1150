#include "arena/store/league_versions.hpp"

#include <mutex>
#include <utility>

#include "arena/store/lock_retry.hpp"
#include "arena/store/schema.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {
namespace {

constexpr const char* kColumns =
    "SELECT id, participant, version, file_name, kind, bytes, status, message, check_log, "
    "uploaded_at, IFNULL(checked_at, '') FROM league_versions ";

LeagueVersionRow read_version(const Statement::Query& q) {
    LeagueVersionRow row;
    row.id = q.column_int64(0);
    row.participant = q.column_text(1);
    row.version = q.column_int64(2);
    row.file_name = q.column_text(3);
    row.kind = q.column_text(4);
    row.bytes = q.column_int64(5);
    row.status = q.column_text(6);
    row.message = q.column_text(7);
    row.check_log = q.column_text(8);
    row.uploaded_at = q.column_text(9);
    row.checked_at = q.column_text(10);
    return row;
}

}  // namespace

struct LeagueVersions::Impl {
    std::mutex mutex;
    Database db;
    std::string league;
    LockWaiting waiting;
    Statement next = db.prepare(
        "SELECT IFNULL(MAX(version), 0) + 1 FROM league_versions WHERE league = ? AND "
        "participant = ?");
    Statement insert = db.prepare(
        "INSERT INTO league_versions (league, participant, version, file_name, kind, bytes) "
        "VALUES (?, ?, ?, ?, ?, ?)");
    Statement by_id = db.prepare(std::string(kColumns) + "WHERE id = ?");
    Statement checked = db.prepare(
        "UPDATE league_versions SET status = ?, message = ?, check_log = ?, "
        "checked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND league = ?");
    Statement of_one =
        db.prepare(std::string(kColumns) + "WHERE league = ? AND participant = ? ORDER BY id DESC");
    Statement of_all = db.prepare(std::string(kColumns) + "WHERE league = ? ORDER BY id DESC");
    Statement one =
        db.prepare(std::string(kColumns) + "WHERE league = ? AND participant = ? AND version = ?");
    Statement pending =
        db.prepare(std::string(kColumns) + "WHERE league = ? AND status = 'checking' ORDER BY id");
    Statement since = db.prepare(
        "SELECT count(*) FROM league_versions WHERE league = ? AND participant = ? AND "
        "uploaded_at >= ?");

    Impl(Database opened, std::string league_name, LockWaiting how)
        : db(std::move(opened)), league(std::move(league_name)), waiting(std::move(how)) {}

    static Impl& of(const std::unique_ptr<Impl>& impl) {
        if (!impl) throw StoreError("use of a moved-from LeagueVersions");
        return *impl;
    }

    template <class F>
    auto run(F&& body) {
        return serialized_call(mutex, db.path(), waiting, std::forward<F>(body));
    }

    std::vector<LeagueVersionRow> rows(Statement::Query& q) {
        std::vector<LeagueVersionRow> out;
        while (q.step())
            out.push_back(read_version(q));
        return out;
    }
};

LeagueVersions::LeagueVersions(const std::filesystem::path& path, std::string league, Access access,
                               LockWaiting waiting) {
    impl_ = open_retrying(path, waiting, [&] {
        return std::make_unique<Impl>(
            access == Access::kReadOnly ? open_read_only(path) : open_database(path), league,
            waiting);
    });
}

LeagueVersions::LeagueVersions(const std::filesystem::path& path, std::string league,
                               JournalMode journal, LockWaiting waiting) {
    impl_ = open_retrying(path, waiting, [&] {
        return std::make_unique<Impl>(open_database(path, journal), league, waiting);
    });
}

LeagueVersions::~LeagueVersions() = default;
LeagueVersions::LeagueVersions(LeagueVersions&&) noexcept = default;
LeagueVersions& LeagueVersions::operator=(LeagueVersions&&) noexcept = default;

LeagueVersionRow LeagueVersions::add(const std::string& participant, const std::string& file_name,
                                     const std::string& kind, std::int64_t bytes) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        Transaction transaction(s.db);
        std::int64_t version = 1;
        {
            auto n = s.next.use();
            n.bind(s.league).bind(participant);
            if (n.step()) version = n.column_int64(0);
        }
        s.insert.use()
            .bind(s.league)
            .bind(participant)
            .bind(version)
            .bind(file_name)
            .bind(kind)
            .bind(bytes)
            .exec();
        const auto id = s.db.last_insert_rowid();
        transaction.commit();
        auto q = s.by_id.use();
        q.bind(id);
        if (!q.step()) throw StoreError("league_versions: the version just added is missing");
        return read_version(q);
    });
}

void LeagueVersions::set_checked(std::int64_t id, bool passed, const std::string& message,
                                 const std::string& log) {
    auto& s = Impl::of(impl_);
    s.run([&] {
        s.checked.use()
            .bind(std::string(passed ? "passed" : "failed"))
            .bind(message)
            .bind(log)
            .bind(id)
            .bind(s.league)
            .exec();
    });
}

std::vector<LeagueVersionRow> LeagueVersions::list(const std::string& participant) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        auto q = participant.empty() ? s.of_all.use() : s.of_one.use();
        q.bind(s.league);
        if (!participant.empty()) q.bind(participant);
        return s.rows(q);
    });
}

std::optional<LeagueVersionRow> LeagueVersions::find(const std::string& participant,
                                                     std::int64_t version) {
    auto& s = Impl::of(impl_);
    return s.run([&]() -> std::optional<LeagueVersionRow> {
        auto q = s.one.use();
        q.bind(s.league).bind(participant).bind(version);
        if (!q.step()) return std::nullopt;
        return read_version(q);
    });
}

std::vector<LeagueVersionRow> LeagueVersions::checking() {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        auto q = s.pending.use();
        q.bind(s.league);
        return s.rows(q);
    });
}

std::int64_t LeagueVersions::count_since(const std::string& participant, const std::string& since) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        auto q = s.since.use();
        q.bind(s.league).bind(participant).bind(since);
        return q.step() ? q.column_int64(0) : std::int64_t{0};
    });
}

}  // namespace arena::store
