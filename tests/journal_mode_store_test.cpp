// The results database's journal mode (store::JournalMode, the config's
// `journal_mode`): with `delete` the file keeps a rollback journal and never
// has a `-wal` or `-shm` beside it, a file in the other mode is switched
// either way, a read-only open changes nothing, leaving WAL while another
// connection holds the file in WAL is refused naming the file, a hot journal
// is not read past, and readers read while a writer in delete mode writes.
// End to end, on a mount of its own: journal_mode_run_test.cpp.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/store/sqlite.hpp"
#include "db_query.hpp"
#include "sqlite_files.hpp"
#include "stored_tournaments.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using store::Access;
using store::Database;
using store::JournalMode;
using store::ResultsStore;
using store::StoreError;
using testing::exists_beside;
using testing::header_versions;
using testing::query_one;
using testing::TempDir;

// What `PRAGMA journal_mode` says of the file, asked by another connection.
std::string journal_mode_of(const fs::path& db) {
    return query_one(db, "PRAGMA journal_mode");
}

record::GameRecord game_record(int plies) {
    record::GameRecord r;
    r.game = "connect4";
    r.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
    r.players[0] = "a";
    r.players[1] = "b";
    for (int i = 0; i < plies; ++i) {
        record::MoveRecord m;
        m.move = std::to_string(1 + i % 7);
        m.player = 1 + i % 2;
        m.time = std::chrono::microseconds(100 + i);
        r.moves.push_back(m);
    }
    r.outcome = games::Outcome::kWin1;
    r.termination = record::Termination::kNormal;
    r.started_at = std::chrono::system_clock::now();
    r.duration = 1000us;
    r.stderr_logs[0] = std::string(300, 'x');  // a few pages a game
    return r;
}

store::GameSlot slot(std::int64_t index) {
    store::GameSlot s;
    s.index = index;
    s.pair = static_cast<int>(index / 2);
    s.game_in_pair = static_cast<int>(index % 2);
    return s;
}

// A tournament 't' of bots a and b with `games` games stored, by a store in
// `journal` mode; returns the tournament's id.
std::int64_t store_games(const fs::path& db, JournalMode journal, int games, int first = 0) {
    ResultsStore store(db, journal);
    const auto found = store.find_tournament("t");
    const auto id = found ? found->id
                          : store.create_tournament(testing::tournament_spec("t"),
                                                    testing::bots_named({"a", "b"}));
    for (int i = first; i < first + games; ++i)
        store.record_game(id, slot(i), game_record(20));
    return id;
}

std::int64_t games_in(const fs::path& db) {
    return std::stoll(query_one(db, "SELECT count(*) FROM games"));
}

// ------------------------------------------------------------------- store

TEST(JournalModeStore, DeleteModeKeepsARollbackJournalAndNoWal) {
    TempDir dir("journal_mode_test");
    const auto db = dir.path() / "delete.db";
    {
        ResultsStore store(db, JournalMode::kDelete);
        const auto id =
            store.create_tournament(testing::tournament_spec("t"), testing::bots_named({"a", "b"}));
        for (int i = 0; i < 20; ++i)
            store.record_game(id, slot(i), game_record(20));
        // While the store is open, after its writes: no log, no shared memory,
        // and no journal left after the commits.
        EXPECT_EQ(journal_mode_of(db), "delete");
        EXPECT_FALSE(exists_beside(db, "-wal"));
        EXPECT_FALSE(exists_beside(db, "-shm"));
        EXPECT_FALSE(exists_beside(db, "-journal"));
        EXPECT_EQ(header_versions(db), std::make_pair(1, 1));
        EXPECT_EQ(store.games(id).size(), 20u);
    }
    EXPECT_EQ(games_in(db), 20);
    EXPECT_EQ(query_one(db, "PRAGMA integrity_check"), "ok");

    // The default, for comparison: the same writes in WAL leave a -wal and
    // a -shm while the store is open, and the header says 2.
    const auto wal = dir.path() / "wal.db";
    ResultsStore store(wal);
    const auto id =
        store.create_tournament(testing::tournament_spec("t"), testing::bots_named({"a", "b"}));
    store.record_game(id, slot(0), game_record(20));
    EXPECT_EQ(journal_mode_of(wal), "wal");
    EXPECT_TRUE(exists_beside(wal, "-wal"));
    EXPECT_TRUE(exists_beside(wal, "-shm"));
    EXPECT_EQ(header_versions(wal), std::make_pair(2, 2));
}

TEST(JournalModeStore, AFileIsSwitchedEitherWayAndKeepsItsGames) {
    TempDir dir("journal_mode_test");
    const auto db = dir.path() / "switch.db";
    store_games(db, JournalMode::kWal, 10);
    ASSERT_EQ(header_versions(db), std::make_pair(2, 2));

    store_games(db, JournalMode::kDelete, 10, 10);
    EXPECT_EQ(header_versions(db), std::make_pair(1, 1));
    EXPECT_EQ(journal_mode_of(db), "delete");
    EXPECT_FALSE(exists_beside(db, "-wal"));
    EXPECT_FALSE(exists_beside(db, "-shm"));
    EXPECT_EQ(games_in(db), 20);

    // ResultsStore(path) is WAL: it switches the file back, as does kWal.
    { ResultsStore store(db); }
    EXPECT_EQ(header_versions(db), std::make_pair(2, 2));
    store_games(db, JournalMode::kDelete, 5, 20);
    EXPECT_EQ(header_versions(db), std::make_pair(1, 1));
    store_games(db, JournalMode::kWal, 5, 25);
    EXPECT_EQ(header_versions(db), std::make_pair(2, 2));
    EXPECT_EQ(journal_mode_of(db), "wal");
    EXPECT_EQ(games_in(db), 30);
    EXPECT_EQ(query_one(db, "PRAGMA integrity_check"), "ok");

    // `arena upgrade` keeps the mode the file is in (here: of a file that is
    // already of this schema, and so left alone, and of one that is not).
    store_games(db, JournalMode::kDelete, 0);
    EXPECT_NE(store::upgrade_database(db).find("left as it is"), std::string::npos);
    {
        // The file as an arena of schema 10 made it (before league versions).
        Database raw(db);
        raw.exec("DROP TABLE league_versions; PRAGMA user_version = 10");
    }
    ASSERT_EQ(header_versions(db), std::make_pair(1, 1));
    EXPECT_NE(store::upgrade_database(db).find("upgraded from schema version 10"),
              std::string::npos);
    EXPECT_EQ(header_versions(db), std::make_pair(1, 1));
    EXPECT_EQ(games_in(db), 30);
}

TEST(JournalModeStore, AReadOnlyOpenNeverChangesTheMode) {
    TempDir dir("journal_mode_test");
    const auto rollback = dir.path() / "delete.db";
    const auto wal = dir.path() / "wal.db";
    store_games(rollback, JournalMode::kDelete, 3);
    store_games(wal, JournalMode::kWal, 3);
    for (const auto& db : {rollback, wal}) {
        const auto before = header_versions(db);
        {
            ResultsStore reader(db, Access::kReadOnly);
            ASSERT_TRUE(reader.read_only());
            const auto t = reader.find_tournament("t");
            ASSERT_TRUE(t.has_value());
            EXPECT_EQ(reader.games(t->id).size(), 3u);
        }
        EXPECT_EQ(header_versions(db), before) << db;
    }
    EXPECT_EQ(journal_mode_of(rollback), "delete");
    EXPECT_EQ(journal_mode_of(wal), "wal");
}

// SQLite can leave WAL only with the file to itself; another connection that
// has it open in WAL mode (here the test's own, as another program's would)
// makes the store wait 2 s, then refuse naming the file. The file stays in
// WAL, whole, and the switch goes through once that connection is closed.
TEST(JournalModeStore, LeavingWalWhileAnotherProgramHasItOpenIsRefused) {
    TempDir dir("journal_mode_test");
    const auto db = dir.path() / "held.db";
    store_games(db, JournalMode::kWal, 4);
    auto other = std::make_unique<Database>(db, Database::Mode::kReadOnly);
    ASSERT_EQ(other->query_int("SELECT count(*) FROM games"), 4);  // holds it open, in WAL

    const auto started = std::chrono::steady_clock::now();
    try {
        ResultsStore store(db, JournalMode::kDelete);
        FAIL() << "opened in delete mode while another connection holds the WAL";
    } catch (const StoreError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(db.string() + ": cannot switch from WAL to the rollback journal"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("journal_mode: delete"), std::string::npos) << message;
    }
    const auto waited = std::chrono::steady_clock::now() - started;
    EXPECT_GE(waited, 1900ms);
    EXPECT_LT(waited, 10s);
    EXPECT_EQ(header_versions(db), std::make_pair(2, 2));
    EXPECT_EQ(other->query_int("SELECT count(*) FROM games"), 4);

    // Closed within the 2 s: the switch waits for it and goes through.
    std::jthread closer([&] {
        std::this_thread::sleep_for(500ms);
        other.reset();
    });
    store_games(db, JournalMode::kDelete, 1, 4);
    closer.join();
    EXPECT_EQ(header_versions(db), std::make_pair(1, 1));
    EXPECT_EQ(games_in(db), 5);
}

// A writer in delete mode killed in the middle of a commit leaves a hot
// journal, and the file half written. A read-only open cannot roll it back:
// it is refused, saying so, instead of reading the half-written file (as
// `immutable=1`, the fallback for a WAL file in a folder it cannot write,
// would). The next store that writes rolls it back.
TEST(JournalModeStore, AHotJournalIsRefusedByReadersAndRolledBackByTheNextWriter) {
    TempDir dir("journal_mode_test");
    const auto db = dir.path() / "hot.db";
    store_games(db, JournalMode::kDelete, 40);
    const std::string details_before = query_one(db, "SELECT group_concat(detail, ',') FROM games");

    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // Only SQLite's C API here, and _exit: nothing of the test's.
        sqlite3* h = nullptr;
        if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) _exit(2);
        // A cache too small for the change: its pages spill into the file
        // before the commit, their old content in the journal.
        const char* sql =
            "PRAGMA cache_size = 1; BEGIN IMMEDIATE; "
            "UPDATE games SET detail = printf('%.2000c', 'y'); "
            "UPDATE bot_logs SET stderr = printf('%.4000c', 'z');";
        if (sqlite3_exec(h, sql, nullptr, nullptr, nullptr) != SQLITE_OK) _exit(3);
        _exit(0);  // killed mid-commit, as far as the file can tell
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    ASSERT_TRUE(exists_beside(db, "-journal"));

    try {
        ResultsStore reader(db, Access::kReadOnly);
        FAIL() << "a read-only store opened a file with a hot journal";
    } catch (const StoreError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(db.string() + "-journal"), std::string::npos) << message;
        EXPECT_NE(message.find("cannot roll back"), std::string::npos) << message;
    }
    EXPECT_TRUE(exists_beside(db, "-journal"));  // the reader touched nothing

    { ResultsStore writer(db, JournalMode::kDelete); }  // rolls it back
    EXPECT_FALSE(exists_beside(db, "-journal"));
    ResultsStore reader(db, Access::kReadOnly);
    EXPECT_EQ(reader.games(reader.find_tournament("t")->id).size(), 40u);
    EXPECT_EQ(query_one(db, "SELECT group_concat(detail, ',') FROM games"), details_before);
    EXPECT_EQ(query_one(db, "PRAGMA integrity_check"), "ok");
}

// A writer in delete mode (another process, as an `arena run` is) stores
// games one transaction each while read-only stores read them: the reads
// and the commits wait for each other now and then (SQLite's busy timeout,
// then the store's retries), and neither side sees an error; each read sees
// whole games, never fewer than before.
TEST(JournalModeStore, ReadersReadWhileADeleteModeWriterWritesInAnotherProcess) {
    constexpr int kGames = 300;
    TempDir dir("journal_mode_test");
    const auto db = dir.path() / "shared.db";
    store_games(db, JournalMode::kDelete, 0);  // the file and its tournament

    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        int code = 0;
        try {
            store::LockWaiting patient;
            patient.limit = std::nullopt;
            ResultsStore store(db, JournalMode::kDelete, patient);
            const auto id = store.find_tournament("t")->id;
            // A game a millisecond at most, as a fast run stores them: back
            // to back, with the fsyncs of the commits, readers could wait
            // for their turn long enough to see only the start and the end.
            for (int i = 0; i < kGames; ++i) {
                store.record_game(id, slot(i), game_record(30));
                std::this_thread::sleep_for(1ms);
            }
        } catch (...) {
            code = 1;
        }
        _exit(code);
    }

    int reads = 0, errors = 0, went_back = 0, seen_between = 0;
    std::size_t last = 0;
    std::string first_error;
    const auto note = [&](const std::exception& e) {
        if (errors++ == 0) first_error = e.what();
    };
    // One reader kept open, as `arena serve` keeps its own, and one opened
    // for each read, as `arena standings` is.
    std::optional<ResultsStore> kept;
    for (int status = 0;;) {
        const bool ended = ::waitpid(child, &status, WNOHANG) == child;
        try {
            if (!kept) kept.emplace(db, Access::kReadOnly);
            const auto t = kept->find_tournament("t");
            const auto games = kept->games(t->id);
            if (!games.empty()) {
                const auto game = kept->load_game(games.back().id);
                if (!game || game->moves.size() != 30u) ++errors;
            }
            ResultsStore fresh(db, Access::kReadOnly);
            const auto counts = fresh.result_counts(t->id);
            std::int64_t counted = 0;
            for (const auto& c : counts)
                counted += c.games;
            if (games.size() < last || static_cast<std::size_t>(counted) < games.size())
                ++went_back;
            last = games.size();
            if (last > 0 && last < kGames) ++seen_between;
            ++reads;
        } catch (const std::exception& e) {
            note(e);
        }
        if (ended) {
            ASSERT_TRUE(WIFEXITED(status)) << status;
            EXPECT_EQ(WEXITSTATUS(status), 0) << "the writer failed";
            break;
        }
    }
    EXPECT_EQ(errors, 0) << first_error;
    EXPECT_EQ(went_back, 0);
    EXPECT_GT(seen_between, 0) << "no read happened while the games were being written";
    EXPECT_EQ(last, static_cast<std::size_t>(kGames));
    EXPECT_EQ(games_in(db), kGames);
    EXPECT_FALSE(exists_beside(db, "-wal"));
    EXPECT_EQ(header_versions(db), std::make_pair(1, 1));
    std::cout << "[ info     ] " << reads << " reads, " << seen_between
              << " of them while the writer wrote\n";
}

}  // namespace
}  // namespace arena
