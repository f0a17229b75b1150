// `arena run` with `journal_mode: delete`, its database on a tmpfs of its own
// (testing::ScratchMount: a second mount point), while `arena standings` and
// `arena games` read the database one after another: the run stores every
// game, the readers never fail, and no `-wal` or `-shm` file ever appears
// beside the database (an inotify watch sees every file made in its folder).
// Needs root for the mount; skipped otherwise.

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arena_process.hpp"
#include "created_files.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "run_control.hpp"
#include "scratch_mount.hpp"
#include "sqlite_files.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::exists_beside;
using testing::header_versions;
using testing::query_one;
using testing::TempDir;

TEST(JournalModeRun, ARunInDeleteModeOnItsOwnMountWithReadersBesideIt) {
    std::string why;
    const auto scratch = testing::ScratchMount::make(why);
    if (!scratch) GTEST_SKIP() << why;
    TempDir dir("journal_mode_run");
    const auto db = scratch->path() / "results" / "delete.db";
    fs::create_directories(db.parent_path());
    // Gomoku between random bots: games of a hundred plies or so, from
    // openings too many to repeat (Connect-4's random bots repeat their
    // games, and the run stops such a pair's games early).
    constexpr int kGames = 300;
    const std::string random = testing::bin("bots/random");
    std::ostringstream yaml;
    yaml << "name: journal\n"
         << "game: { name: gomoku, size: 15 }\n"
         << "schedule: { type: round-robin, games_per_pair: " << kGames << " }\n"
         << "openings: { random_plies: 2 }\n"
         << "concurrency: 2\n"
         << "journal_mode: delete\n"
         << "database: " << db.string() << "\n"
         << "bots:\n"
         << "  - { name: one, command: " << random << " --seed 1 }\n"
         << "  - { name: two, command: " << random << " --seed 2 }\n";
    const auto config = dir.write("delete.yaml", yaml.str());
    testing::CreatedFiles created(db.parent_path());

    const auto started = std::chrono::steady_clock::now();
    testing::ArenaProcess run(dir.path(), {"run", config});
    // Readers, one after another, from the first game stored (before it, the
    // file may still be empty) for as long as the run lasts: each must read
    // the database and exit 0.
    int reads = 0, reads_between = 0;
    std::vector<std::string> failures;
    std::optional<testing::ArenaResult> ran;
    for (int turn = 0; !ran; ++turn) {
        ran = run.try_wait();
        const auto stored = testing::games_stored_now(db);
        if (stored == 0 && !ran) {
            std::this_thread::sleep_for(2ms);
            continue;
        }
        const char* command = turn % 2 == 0 ? "standings" : "games";
        const auto r = testing::run_arena(dir.path(), {command, db.string()});
        if (r.status != 0)
            failures.push_back(std::string(command) + " (exit " + std::to_string(r.status) +
                               "): " + r.err);
        ++reads;
        if (stored < kGames && !ran) ++reads_between;
    }
    const auto took = std::chrono::steady_clock::now() - started;
    ASSERT_EQ(ran->status, 0) << ran->err;
    EXPECT_FALSE(testing::looks_like_a_crash(ran->err)) << ran->err;
    EXPECT_TRUE(failures.empty()) << failures.size()
                                  << " reads failed, the first: " << failures.front();
    EXPECT_GE(reads_between, 3) << "the readers hardly overlapped the run (" << reads << " reads)";

    // Every game stored, whole, once; the file in delete mode.
    EXPECT_EQ(query_one(db, "SELECT count(DISTINCT game_index) FROM games"), std::to_string(kGames))
        << ran->out << ran->err;
    EXPECT_EQ(query_one(db,
                        "SELECT count(*) FROM games AS g WHERE plies <> "
                        "(SELECT count(*) FROM moves WHERE game = g.id)"),
              "0");
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
    EXPECT_EQ(query_one(db, "PRAGMA journal_mode"), "delete");
    EXPECT_EQ(header_versions(db), std::make_pair(1, 1));
    EXPECT_EQ(query_one(db, "PRAGMA integrity_check"), "ok");

    // No -wal or -shm ever appeared beside it; the journal did (which shows
    // that the watch saw the files SQLite made).
    std::this_thread::sleep_for(50ms);
    const auto names = created.names();
    for (const auto& name : names) {
        EXPECT_FALSE(name.ends_with("-wal") || name.ends_with("-shm")) << name;
    }
    EXPECT_TRUE(names.contains(db.filename().string() + "-journal"))
        << "no journal was seen; files: " << names.size();
    EXPECT_FALSE(exists_beside(db, "-wal"));
    EXPECT_FALSE(exists_beside(db, "-shm"));
    std::cout << "[ info     ] " << kGames << " games in "
              << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms, "
              << reads << " reads (" << reads_between << " while games were being stored)\n";
}

}  // namespace
}  // namespace arena
