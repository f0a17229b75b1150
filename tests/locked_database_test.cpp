// `arena run` when another program holds the results database's write lock
// (a `sqlite3` shell inside BEGIN IMMEDIATE, a backup): the run waits for
// it, says so every 10 s, and stores every game once the lock is gone.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "arena_process.hpp"
#include "proc_util.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArenaProcess;
using testing::bin;

class LockedDatabaseTest : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "arena_locked_db_test_XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        db_ = dir_ / "locked.db";
    }
    void TearDown() override {
        if (db_handle_ != nullptr) sqlite3_close(db_handle_);
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    // A Gomoku round-robin of two random bots: long enough (a few seconds)
    // that the lock is taken while games are still being played.
    fs::path write_config(int games) {
        const auto path = dir_ / "locked.yaml";
        std::ofstream(path) << "name: locked\n"
                            << "game: { name: gomoku, size: 15 }\n"
                            << "schedule: { type: round-robin, games_per_pair: " << games << " }\n"
                            << "openings: { random_plies: 2 }\n"
                            << "concurrency: 2\n"
                            << "database: " << db_.string() << "\n"
                            << "bots:\n"
                            << "  - { name: one, command: " << bin("bots/random") << " --seed 1 }\n"
                            << "  - { name: two, command: " << bin("bots/random")
                            << " --seed 2 }\n";
        return path;
    }

    // The test's own connection: "another program".
    sqlite3* connection() {
        if (db_handle_ == nullptr) {
            EXPECT_EQ(sqlite3_open_v2(db_.c_str(), &db_handle_, SQLITE_OPEN_READWRITE, nullptr),
                      SQLITE_OK);
            sqlite3_busy_timeout(db_handle_, 5000);
        }
        return db_handle_;
    }

    void exec(const char* sql) {
        ASSERT_EQ(sqlite3_exec(connection(), sql, nullptr, nullptr, nullptr), SQLITE_OK)
            << sql << ": " << sqlite3_errmsg(connection());
    }

    // count(*) of the games stored; -1 when the file has no games table yet.
    int stored_games() {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(connection(), "SELECT count(*) FROM games", -1, &stmt, nullptr) !=
            SQLITE_OK) {
            return -1;
        }
        const int n = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : -1;
        sqlite3_finalize(stmt);
        return n;
    }

    fs::path dir_, db_;
    sqlite3* db_handle_ = nullptr;
};

TEST_F(LockedDatabaseTest, ARunWaitsForAnotherProgramsLockAndLosesNoGame) {
    constexpr int kGames = 800;
    const auto config = write_config(kGames);
    ArenaProcess arena(dir_, {"run", config.string()});

    // Once the first games are stored, take the write lock as `sqlite3`
    // would with BEGIN IMMEDIATE, and hold it for 15 s.
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while ((!fs::exists(db_) || stored_games() < 1) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    exec("BEGIN IMMEDIATE");
    const int stored_before = stored_games();
    ASSERT_GE(stored_before, 1);
    ASSERT_LT(stored_before, kGames) << "the tournament ended before the lock was taken";
    std::this_thread::sleep_for(15s);
    EXPECT_EQ(stored_games(), stored_before);  // nothing got past the lock
    exec("COMMIT");

    const auto r = arena.wait();
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto lines = r.err_lines();
    ASSERT_GE(lines.size(), 2u) << r.err;
    EXPECT_EQ(lines.front(),
              "arena run: " + db_.string() + " is locked by another program; still waiting (10 s)");
    EXPECT_TRUE(lines.back().starts_with("arena run: " + db_.string() + " is free again after "))
        << lines.back();
    EXPECT_TRUE(lines.back().ends_with(" s; going on")) << lines.back();
    for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
        EXPECT_NE(lines[i].find(" is locked by another program; still waiting ("),
                  std::string::npos)
            << lines[i];
    }
    EXPECT_NE(r.out.find("first-mover advantage"), std::string::npos) << r.out;

    // Every game of the schedule is stored once, whole.
    sqlite3_close(db_handle_);
    db_handle_ = nullptr;
    EXPECT_EQ(stored_games(), kGames);
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(connection(),
                                 "SELECT count(DISTINCT game_index), min(game_index), "
                                 "max(game_index), (SELECT count(*) FROM games AS g WHERE plies <> "
                                 "(SELECT count(*) FROM moves WHERE game = g.id)), "
                                 "(SELECT status FROM tournaments) FROM games",
                                 -1, &stmt, nullptr),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(stmt, 0), kGames);
    EXPECT_EQ(sqlite3_column_int(stmt, 1), 0);
    EXPECT_EQ(sqlite3_column_int(stmt, 2), kGames - 1);
    EXPECT_EQ(sqlite3_column_int(stmt, 3), 0);  // no game without all its moves
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 4)), "finished");
    sqlite3_finalize(stmt);
}

}  // namespace
}  // namespace arena
