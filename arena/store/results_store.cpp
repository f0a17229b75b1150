#include "arena/store/results_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "arena/store/results_store_impl.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {

// Built by appending: `"'" + std::string(name) + "'"` trips a false
// -Wrestrict in GCC 12 at -O3.
std::string in_quotes(std::string_view name) {
    std::string text;
    text.reserve(name.size() + 2);
    text += '\'';
    text += name;
    text += '\'';
    return text;
}

namespace {

TournamentRow read_tournament(const Statement::Query& q) {
    TournamentRow row;
    row.id = q.column_int64(0);
    row.spec.name = q.column_text(1);
    row.spec.game = q.column_text(2);
    row.spec.config_text = q.column_text(3);
    row.spec.fingerprint = q.column_text(4);
    row.spec.seed = std::strtoull(q.column_text(5).c_str(), nullptr, 10);
    row.spec.total_games = q.column_int64(6);
    row.status = q.column_text(7);
    row.created_at = q.column_text(8);
    row.finished_at = q.column_text(9);
    return row;
}

}  // namespace

std::vector<std::int64_t> ResultsStore::Impl::bot_ids_of(std::int64_t tournament) {
    std::vector<std::int64_t> ids;
    auto q = bot_ids.use();
    q.bind(tournament);
    while (q.step())
        ids.push_back(q.column_int64(0));
    return ids;
}

std::unordered_map<std::int64_t, int> ResultsStore::Impl::bot_positions(std::int64_t tournament) {
    std::unordered_map<std::int64_t, int> index;
    for (const auto id : bot_ids_of(tournament))
        index.emplace(id, static_cast<int>(index.size()));
    return index;
}

void ResultsStore::Impl::insert_bot_row(std::int64_t tournament, const std::string& shown_name,
                                        const BotEntry& bot) {
    try {
        insert_bot.use()
            .bind(tournament)
            .bind(bot.name)
            .bind(bot.command)
            .bind(bot.protocol)
            .bind(bot.sha256.empty() ? std::nullopt : std::optional(bot.sha256))
            .bind(bot.version)
            .exec();
    } catch (const SqliteError& e) {
        if (e.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
        fail("bot " + in_quotes(bot.name) + " is listed twice in tournament " +
             in_quotes(shown_name));
    }
}

void ResultsStore::Impl::insert_segment_rows(std::int64_t tournament, const SegmentRow& segment) {
    try {
        insert_segment.use()
            .bind(tournament)
            .bind(segment.segment)
            .bind(segment.games_per_pair)
            .bind(segment.rounds)
            .bind(segment.first_game)
            .bind(segment.games)
            .bind(segment.description)
            .bind(segment.fingerprint)
            .exec();
    } catch (const SqliteError& e) {
        if (e.code() != SQLITE_CONSTRAINT_PRIMARYKEY) throw;
        fail("segment " + std::to_string(segment.segment) + " of tournament " +
             name_of(tournament) + " is already stored");
    }
    const auto ids = bot_ids_of(tournament);
    for (const int position : segment.active) {
        if (position < 0 || static_cast<std::size_t>(position) >= ids.size()) {
            fail("segment " + std::to_string(segment.segment) + " of tournament " +
                 name_of(tournament) + " names bot " + std::to_string(position) +
                 ", which it does not have");
        }
        insert_segment_bot.use()
            .bind(tournament)
            .bind(segment.segment)
            .bind(ids[static_cast<std::size_t>(position)])
            .exec();
    }
}

std::string ResultsStore::Impl::name_of(std::int64_t tournament) {
    auto q = tournament_name.use();
    q.bind(tournament);
    return q.step() ? in_quotes(q.column_text(0))
                    : std::string("#").append(std::to_string(tournament));
}

std::int64_t ResultsStore::Impl::find_bot(std::int64_t tournament, const std::string& name) {
    auto q = bot_id.use();
    q.bind(tournament).bind(name);
    if (!q.step()) fail("tournament " + name_of(tournament) + " has no bot " + in_quotes(name));
    return q.column_int64(0);
}

ResultsStore::ResultsStore(const std::filesystem::path& path, LockWaiting waiting)
    : ResultsStore(path, Access::kReadWrite, std::move(waiting)) {}

ResultsStore::ResultsStore(const std::filesystem::path& path, Access access, LockWaiting waiting) {
    impl_ = open_retrying(path, waiting, [&] {
        return std::make_unique<Impl>(path, waiting, access, JournalMode::kWal);
    });
}

ResultsStore::ResultsStore(const std::filesystem::path& path, JournalMode journal,
                           LockWaiting waiting) {
    impl_ = open_retrying(path, waiting, [&] {
        return std::make_unique<Impl>(path, waiting, Access::kReadWrite, journal);
    });
}

bool ResultsStore::read_only() const {
    return Impl::of(impl_).read_only;
}

void ResultsStore::set_lock_waiting(LockWaiting waiting) {
    auto& s = Impl::of(impl_);
    std::lock_guard lock(s.mutex);
    s.waiting = std::move(waiting);
}

ResultsStore::~ResultsStore() = default;
ResultsStore::ResultsStore(ResultsStore&&) noexcept = default;
ResultsStore& ResultsStore::operator=(ResultsStore&&) noexcept = default;

std::optional<TournamentRow> ResultsStore::find_tournament(const std::string& name) {
    auto& s = Impl::of(impl_);
    return s.run([&]() -> std::optional<TournamentRow> {
        auto q = s.find_tournament.use();
        q.bind(name);
        if (!q.step()) return std::nullopt;
        return read_tournament(q);
    });
}

std::vector<TournamentRow> ResultsStore::tournaments() {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<TournamentRow> rows;
        auto q = s.list_tournaments.use();
        while (q.step())
            rows.push_back(read_tournament(q));
        return rows;
    });
}

std::int64_t ResultsStore::create_tournament(const TournamentSpec& spec,
                                             const std::vector<BotEntry>& bots,
                                             const std::optional<SegmentRow>& first_segment) {
    auto& s = Impl::of(impl_);
    s.check_writable("store a tournament");
    return s.run([&] {
        Transaction txn(s.db);
        try {
            s.insert_tournament.use()
                .bind(spec.name)
                .bind(spec.game)
                .bind(spec.config_text)
                .bind(spec.fingerprint)
                .bind(std::to_string(spec.seed))
                .bind(spec.total_games)
                .exec();
        } catch (const SqliteError& e) {
            if (e.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
            s.fail("tournament " + in_quotes(spec.name) + " already exists");
        }
        const auto id = s.db.last_insert_rowid();
        for (const auto& bot : bots)
            s.insert_bot_row(id, spec.name, bot);
        if (first_segment) s.insert_segment_rows(id, *first_segment);
        txn.commit();
        return id;
    });
}

std::vector<BotEntry> ResultsStore::bots(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<BotEntry> bots;
        auto q = s.list_bots.use();
        q.bind(tournament);
        while (q.step()) {
            bots.push_back({q.column_text(0), q.column_text(1), q.column_text(2), q.column_text(3),
                            q.column_int(4), q.column_int(5) != 0});
        }
        return bots;
    });
}

std::vector<SegmentRow> ResultsStore::segments(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        // One read snapshot for the three queries.
        Transaction txn(s.db, Transaction::Mode::kDeferred);
        std::vector<SegmentRow> rows;
        {
            auto q = s.list_segments.use();
            q.bind(tournament);
            while (q.step()) {
                SegmentRow row;
                row.segment = q.column_int(0);
                row.games_per_pair = q.column_int(1);
                row.rounds = q.column_int(2);
                row.first_game = q.column_int64(3);
                row.games = q.column_int64(4);
                row.description = q.column_text(5);
                row.fingerprint = q.column_text(6);
                rows.push_back(std::move(row));
            }
        }
        std::unordered_map<std::int64_t, int> position;  // bot id -> position in bots()
        for (const auto id : s.bot_ids_of(tournament))
            position.emplace(id, static_cast<int>(position.size()));
        std::unordered_map<int, std::size_t> row_of;  // segment number -> index in rows
        for (std::size_t i = 0; i < rows.size(); ++i)
            row_of.emplace(rows[i].segment, i);
        auto q = s.list_segment_bots.use();
        q.bind(tournament);
        while (q.step()) {
            const auto row = row_of.find(q.column_int(0));
            const auto bot = position.find(q.column_int64(1));
            if (row != row_of.end() && bot != position.end())
                rows[row->second].active.push_back(bot->second);
        }
        for (auto& row : rows)
            std::sort(row.active.begin(), row.active.end());
        txn.commit();
        return rows;
    });
}

void ResultsStore::change_tournament(std::int64_t tournament, const TournamentChange& change) {
    auto& s = Impl::of(impl_);
    s.check_writable("change a tournament");
    s.run([&] {
        Transaction txn(s.db);
        const auto name = s.name_of(tournament);
        for (const auto& [from, to] : change.renamed) {
            try {
                s.rename_bot.use().bind(tournament).bind(from).bind(to).exec();
            } catch (const SqliteError& e) {
                if (e.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
                s.fail("tournament " + name + " already has a bot " + in_quotes(to));
            }
            if (s.db.changes() == 0)
                s.fail("tournament " + name + " has no bot " + in_quotes(from));
        }
        for (const auto& [bot, sha256] : change.new_sha256) {
            s.set_bot_sha256.use()
                .bind(tournament)
                .bind(bot)
                .bind(sha256.empty() ? std::nullopt : std::optional(sha256))
                .exec();
            if (s.db.changes() == 0) s.fail("tournament " + name + " has no bot " + in_quotes(bot));
        }
        for (const auto& bot : change.entering)
            s.insert_bot_row(tournament, name, bot);
        for (const auto& segment : change.segments)
            s.insert_segment_rows(tournament, segment);
        if (!change.segments.empty())
            s.set_retired.use().bind(tournament).bind(change.segments.back().segment).exec();
        s.update_tournament.use()
            .bind(tournament)
            .bind(change.config_text)
            .bind(change.fingerprint)
            .bind(change.total_games)
            .exec();
        if (s.db.changes() == 0) s.fail("no tournament with id " + std::to_string(tournament));
        txn.commit();
    });
}

void ResultsStore::set_status(std::int64_t tournament, const std::string& status) {
    auto& s = Impl::of(impl_);
    s.check_writable("set a tournament's status");
    s.run([&] {
        s.set_status.use().bind(tournament).bind(status).exec();
        if (s.db.changes() == 0) s.fail("no tournament with id " + std::to_string(tournament));
    });
}

void ResultsStore::save_ratings(std::int64_t tournament, const std::vector<RatingRow>& ratings) {
    auto& s = Impl::of(impl_);
    s.check_writable("store ratings");
    s.run([&] {
        Transaction txn(s.db);
        s.delete_ratings.use().bind(tournament).exec();
        for (const auto& r : ratings) {
            if (!std::isfinite(r.elo) || !std::isfinite(r.error)) {
                s.fail("rating of bot " + in_quotes(r.bot) + " is not a finite number");
            }
            const auto bot = s.find_bot(tournament, r.bot);
            try {
                s.insert_rating.use().bind(bot).bind(tournament).bind(r.elo).bind(r.error).exec();
            } catch (const SqliteError& e) {
                if (e.code() != SQLITE_CONSTRAINT_PRIMARYKEY) throw;
                s.fail("bot " + in_quotes(r.bot) + " is rated twice");
            }
        }
        txn.commit();
    });
}

std::vector<RatingRow> ResultsStore::ratings(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<RatingRow> rows;
        auto q = s.list_ratings.use();
        q.bind(tournament);
        while (q.step())
            rows.push_back({q.column_text(0), q.column_double(1), q.column_double(2)});
        return rows;
    });
}

std::string upgrade_database(const std::filesystem::path& path) {
    const auto before = stored_schema_version(path);
    if (before == 0) {
        throw StoreError(path.string() +
                         ": an empty database, not a results database: nothing to upgrade");
    }
    if (before == kSchemaVersion) {
        return path.string() + ": schema version " + std::to_string(before) +
               ", this arena's: left as it is";
    }
    // Upgrades it, or refuses a newer one, in the journal mode it is in: the
    // file's header says WAL with a 2 at byte 18, a rollback journal with a 1.
    // A database a config keeps out of WAL (journal_mode: delete, for a
    // network filesystem) stays out of it.
    std::ifstream file(path, std::ios::binary);
    std::array<char, 20> header{};
    file.read(header.data(), header.size());
    const auto journal = file && header[18] == 1 ? JournalMode::kDelete : JournalMode::kWal;
    file.close();
    { ResultsStore upgraded(path, journal); }
    return path.string() + ": upgraded from schema version " + std::to_string(before) + " to " +
           std::to_string(kSchemaVersion);
}

}  // namespace arena::store
