// `arena run` when the results database cannot take more (a full disk) and
// when two runs meet on one database: end-to-end tests of the arena binary.

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/store/run_lock.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"

namespace arena::store {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArenaOptions;
using testing::ArenaProcess;
using testing::bin;
using testing::run_arena;

class RunSafetyTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("arena-run-safety-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        // A path in the test's folder: misbehave --log writes there.
        marker_ = (dir_ / testing::unique_marker()).string();
    }
    void TearDown() override { fs::remove_all(dir_); }

    // A round-robin of `bots` deterministic misbehave bots (which play legal
    // moves); `extra` is added to each bot's command.
    fs::path write_config(const std::string& name, int bots, int games_per_pair,
                          const std::string& extra = "") {
        const auto path = dir_ / (name + ".yaml");
        std::ofstream out(path);
        out << "name: " << name << "\n"
            << "game: { name: connect4 }\n"
            << "time: { move_ms: 2000 }\n"
            << "schedule: { type: round-robin, games_per_pair: " << games_per_pair << " }\n"
            << "openings: { random_plies: 2 }\n"
            << "seed: 7\n"
            << "database: " << db_.string() << "\n"
            << "bots:\n";
        for (int i = 0; i < bots; ++i) {
            out << "  - { name: bot" << i << ", command: " << bin("bots/misbehave") << " --seed "
                << (i + 1) << " " << extra << ", args: [--log, " << marker_ << "] }\n";
        }
        return path;
    }

    // `run` ends well with all `games` of its schedule stored once each, and
    // no bot process left.
    void expect_run_ends_with_each_game_once(ArenaProcess& run, std::size_t games) {
        const auto r = run.wait();
        ASSERT_EQ(r.status, 0) << r.err;
        const auto stored = stored_games();
        ASSERT_EQ(stored.size(), games);
        for (const auto& [index, n] : stored)
            EXPECT_EQ(n, 1) << "game " << index;
        EXPECT_EQ(testing::survivors(marker_), std::vector<int>{});
    }

    // Schedule index -> count of stored games, and a check that every stored
    // game is whole: as many moves as its plies.
    std::map<std::int64_t, int> stored_games() {
        ResultsStore store(db_);
        std::map<std::int64_t, int> count;
        for (const auto& t : store.tournaments()) {
            for (const auto& g : store.games(t.id)) {
                ++count[g.slot.index];
                const auto game = store.load_game(g.id);
                EXPECT_TRUE(game.has_value());
                if (game) {
                    EXPECT_EQ(static_cast<int>(game->moves.size()), g.plies) << g.id;
                }
            }
        }
        return count;
    }

    std::string integrity_check() {
        sqlite3* db = nullptr;
        std::string result = "cannot open";
        if (sqlite3_open_v2(db_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
            sqlite3_stmt* stmt = nullptr;
            if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nullptr) == SQLITE_OK &&
                sqlite3_step(stmt) == SQLITE_ROW) {
                result = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
            }
            sqlite3_finalize(stmt);
        }
        sqlite3_close(db);
        return result;
    }

    fs::path dir_;
    fs::path db_ = fs::path();
    std::string marker_;

    void use_db(const std::string& name) { db_ = dir_ / name; }
};

// "<prefix><SQLite's message for a failed write>[ (<OS error>)]": which of
// the two SQLite reports depends on whether the write that hit the limit was
// cut short (full) or refused (I/O error, with EFBIG).
bool is_write_failure(const std::string& line, const std::string& prefix) {
    if (!line.starts_with(prefix)) return false;
    const std::string problem = line.substr(prefix.size());
    for (const std::string known : {"database or disk is full", "disk I/O error"}) {
        if (problem == known || problem.starts_with(known + " (")) return true;
    }
    return false;
}

// A full disk, simulated with RLIMIT_FSIZE: it works as root (where chmod does
// not stop writes) and needs no mount. A write that would pass the limit
// fails with EFBIG; the arena catches SIGXFSZ, so the failure reaches SQLite
// as an I/O error instead of killing the process. The limit is low enough for
// the schema and a few games, not for the 30 games of the tournament.
TEST_F(RunSafetyTest, AFullDiskStopsTheRunCleanlyAndItResumesLater) {
    use_db("full.db");
    const auto config = write_config("full", 3, 10);
    const auto r = run_arena(dir_, {"run", config.string(), "--concurrency", "2"},
                             ArenaOptions::file_size(256 * 1024));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto lines = r.err_lines();
    ASSERT_EQ(lines.size(), 2u) << r.err;
    EXPECT_TRUE(is_write_failure(lines[0], "arena run: " + db_.string() + ": ")) << lines[0];
    EXPECT_TRUE(lines[1].starts_with("arena run: stopped with ")) << lines[1];
    EXPECT_TRUE(
        lines[1].ends_with(" of 30 games stored; run the same command again to play the "
                           "rest"))
        << lines[1];
    EXPECT_EQ(testing::survivors(marker_), std::vector<int>{});

    // Nothing half-written: the database is intact and every game is whole.
    EXPECT_EQ(integrity_check(), "ok");
    const auto partial = stored_games();
    EXPECT_LT(partial.size(), 30u);
    for (const auto& [index, n] : partial)
        EXPECT_EQ(n, 1) << "game " << index;

    // With room again, the same command plays exactly the missing games.
    const auto again = run_arena(dir_, {"run", config.string(), "--concurrency", "2"});
    ASSERT_EQ(again.status, 0) << again.err;
    const auto all = stored_games();
    ASSERT_EQ(all.size(), 30u);
    for (const auto& [index, n] : all)
        EXPECT_EQ(n, 1) << "game " << index;
    ResultsStore store(db_);
    EXPECT_EQ(store.find_tournament("full")->status, "finished");
}

// A limit that the database file itself cannot meet: the run cannot even
// create the tournament, and says so in one line.
TEST_F(RunSafetyTest, NoRoomAtAllIsOneClearLine) {
    use_db("tiny.db");
    const auto config = write_config("tiny", 2, 2);
    const auto r = run_arena(dir_, {"run", config.string()}, ArenaOptions::file_size(1024));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto lines = r.err_lines();
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_TRUE(is_write_failure(lines[0],
                                 "arena run: cannot open results database: " + db_.string() + ": "))
        << lines[0];
    EXPECT_EQ(testing::survivors(marker_), std::vector<int>{});
}

// Waits until the tournament has at least one stored game.
bool wait_for_a_game(const fs::path& db, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (fs::exists(db)) {
            try {
                ResultsStore store(db);
                for (const auto& t : store.tournaments())
                    if (!store.games(t.id).empty()) return true;
            } catch (const StoreError&) {
                // Being created: try again.
            }
        }
        std::this_thread::sleep_for(50ms);
    }
    return false;
}

TEST_F(RunSafetyTest, ASecondRunOfTheSameTournamentIsRefusedWhileTheFirstPlays) {
    use_db("shared.db");
    const auto config = write_config("shared", 3, 10, "--mode sleep --sleep-ms 20");
    ArenaProcess first(dir_, {"run", config.string(), "--concurrency", "2"});
    ASSERT_TRUE(wait_for_a_game(db_, 30s));

    const auto second = run_arena(dir_, {"run", config.string(), "--concurrency", "2"});
    EXPECT_EQ(second.status, 1) << second.err;
    EXPECT_EQ(second.err, "arena run: tournament 'shared' in " + db_.string() +
                              " is being played by another arena process (pid " +
                              std::to_string(first.pid()) + ")\n");

    // Another tournament in the same database waits its turn too.
    const auto other_config = dir_ / "other.yaml";
    {
        std::ifstream in(config);
        std::string text{std::istreambuf_iterator<char>(in), {}};
        text.replace(text.find("name: shared"), 12, "name: other");
        std::ofstream(other_config) << text;
    }
    const auto other = run_arena(dir_, {"run", other_config.string()});
    EXPECT_EQ(other.status, 1) << other.err;
    EXPECT_EQ(other.err, "arena run: " + db_.string() +
                             " is in use by another arena process playing 'shared' (pid " +
                             std::to_string(first.pid()) + ")\n");

    // Readers take no lock.
    const auto standings = run_arena(dir_, {"standings", db_.string()});
    EXPECT_EQ(standings.status, 0) << standings.err;
    EXPECT_NE(standings.out.find("bot0"), std::string::npos) << standings.out;
    const auto games = run_arena(dir_, {"games", db_.string()});
    EXPECT_EQ(games.status, 0) << games.err;

    expect_run_ends_with_each_game_once(first, 30);
}

// The lock is the database file's, not its path's: a second run that
// reaches the same file through a symlink, another relative path or a hard
// link is refused at once, before it plays anything.
TEST_F(RunSafetyTest, ASecondRunThroughAnotherPathToTheSameFileIsRefused) {
    use_db("shared.db");
    const auto config = write_config("shared", 3, 10, "--mode sleep --sleep-ms 20");
    ArenaProcess first(dir_, {"run", config.string(), "--concurrency", "2"});
    ASSERT_TRUE(wait_for_a_game(db_, 30s));

    fs::create_directories(dir_ / "links");
    fs::create_symlink(db_, dir_ / "links" / "via-symlink.db");
    const std::string expected_tail =
        " is being played by another arena process (pid " + std::to_string(first.pid()) + ")\n";
    for (const std::string& path : {(dir_ / "links" / "via-symlink.db").string(),
                                    (dir_ / "links" / ".." / "shared.db").string()}) {
        const auto second = run_arena(dir_, {"run", config.string(), "--db", path});
        EXPECT_EQ(second.status, 1) << second.err;
        EXPECT_EQ(second.err, "arena run: tournament 'shared' in " + path + expected_tail) << path;
    }
    // A relative path from another working directory.
    ArenaOptions in_links;
    in_links.cwd = dir_ / "links";
    const auto relative =
        run_arena(dir_, {"run", config.string(), "--db", "../shared.db"}, in_links);
    EXPECT_EQ(relative.status, 1) << relative.err;
    EXPECT_EQ(relative.err, "arena run: tournament 'shared' in ../shared.db" + expected_tail);
    // A hard link: another name of the same file, where the holder's lock
    // file is not, so the message names no holder.
    const auto hard = dir_ / "links" / "hard.db";
    fs::create_hard_link(db_, hard);
    const auto linked = run_arena(dir_, {"run", config.string(), "--db", hard.string()});
    EXPECT_EQ(linked.status, 1) << linked.err;
    EXPECT_EQ(linked.err, "arena run: " + hard.string() + " is in use by another arena process\n");

    expect_run_ends_with_each_game_once(first, 30);
}

// A run's lock, taken and released, leaves the locks of the process's own
// SQLite connections to the file in place (closing any descriptor of a file
// drops every POSIX lock the process holds on it): a connection of another
// process that closes then does not delete the WAL from under them. A
// league's server takes the lock for each of its runs while its other
// connections stay open; `arena league user add` beside it broke them.
TEST_F(RunSafetyTest, ARunLockReleasedLeavesItsProcessConnectionsLocked) {
    use_db("held.db");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
    const auto exec = [&](const std::string& sql) {
        char* error = nullptr;
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
        const std::string message = error != nullptr ? error : "";
        sqlite3_free(error);
        return rc == SQLITE_OK ? std::string("ok") : message;
    };
    ASSERT_EQ(exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)"),
              "ok");
    for (int i = 0; i < 2; ++i) {  // taken again once released
        const RunLock lock(db_, "held");
    }
    EXPECT_THROW(
        {
            const RunLock first(db_, "held");
            const RunLock second(db_, "held");  // this process holds it already
        },
        LockedError);
    const auto other =
        testing::run_shell("python3 -c \"import sqlite3; c = sqlite3.connect('" + db_.string() +
                           "'); c.execute('INSERT INTO t VALUES (2)'); c.commit(); c.close()\"");
    ASSERT_EQ(other.status, 0) << other.out;
    EXPECT_TRUE(fs::exists(db_.string() + "-wal"));
    EXPECT_TRUE(fs::exists(db_.string() + "-shm"));
    EXPECT_EQ(exec("INSERT INTO t VALUES (3)"), "ok");
    EXPECT_EQ(testing::query(db_, "SELECT count(*) FROM t"), (testing::Rows{{"3"}}));
    sqlite3_close(db);
}

// A league with more bots than the open-file limit lets the arena keep
// alive (issue 42): under `ulimit -n 128`, idle bot processes are retired
// and started again, every game is stored once without a fault, and every
// game (pair, colours, opening, moves, result) is the one a run without the
// bound plays. A limit too small for two processes a game is one message
// naming the limit, not a bot.
TEST_F(RunSafetyTest, ALeagueLargerThanTheOpenFileLimitPlaysTheSameGames) {
    constexpr int kBots = 18, kGames = kBots * (kBots - 1);
    const auto write = [&](const std::string& name) {
        const auto path = dir_ / (name + ".yaml");
        std::ofstream out(path);
        out << "name: league\ngame: { name: connect4 }\n"
            << "schedule: { type: round-robin, games_per_pair: 2 }\n"
            << "openings: { random_plies: 2 }\nseed: 5\nconcurrency: 2\n"
            << "database: " << (dir_ / (name + ".db")).string() << "\nbots:\n";
        for (int i = 0; i < kBots; ++i)
            out << "  - { name: b" << i << ", command: " << bin("bots/random") << " --seed " << i
                << " }\n";
        return path;
    };
    ArenaOptions small;
    small.open_files = 128;
    const auto bounded = run_arena(dir_, {"run", write("bounded").string(), "--stats"}, small);
    ASSERT_EQ(bounded.status, 0) << bounded.err;
    const auto free = run_arena(dir_, {"run", write("free").string(), "--stats"});
    ASSERT_EQ(free.status, 0) << free.err;
    const std::string games =
        "SELECT g.game_index, g.pair_index, a.name, b.name, g.opening, g.result, g.termination, "
        "(SELECT group_concat(move, ' ') FROM (SELECT move FROM moves WHERE game = g.id "
        "ORDER BY ply)) FROM games g JOIN bots a ON a.id = g.first_bot "
        "JOIN bots b ON b.id = g.second_bot ORDER BY g.game_index";
    // No fault in either run (the details say which, should one appear).
    const std::string faults =
        "SELECT game_index, termination, detail FROM games WHERE termination != 'normal'";
    EXPECT_EQ(testing::query(dir_ / "bounded.db", faults), testing::Rows{}) << bounded.err;
    EXPECT_EQ(testing::query(dir_ / "free.db", faults), testing::Rows{}) << free.err;
    const auto played = testing::query(dir_ / "bounded.db", games);
    ASSERT_EQ(played.size(), static_cast<std::size_t>(kGames));
    EXPECT_TRUE(played == testing::query(dir_ / "free.db", games))
        << "the bounded run played other games than the unbounded one";
    // Processes were retired to stay within the bound: more starts than bots.
    const auto stat = [](const std::string& out, const std::string& key) {
        const auto at = out.find(" " + key + "=");
        return at == std::string::npos ? -1 : std::stoll(out.substr(at + key.size() + 2));
    };
    EXPECT_EQ(stat(bounded.out, "process_capacity"), (128 - 64 - 16) / 5) << bounded.out;
    EXPECT_GT(stat(bounded.out, "bots_retired"), 0) << bounded.out;
    // Played block by block, far fewer than a start per game: the
    // colour-swapped games of a pair run side by side, each bot then
    // needing two processes.
    EXPECT_GT(stat(bounded.out, "bot_starts"), 2 * kBots) << bounded.out;
    EXPECT_LT(stat(bounded.out, "bot_starts"), kGames * 2 / 3) << bounded.out;
    EXPECT_LE(stat(free.out, "bot_starts"), 2 * kBots) << free.out;  // at most two a bot

    ArenaOptions tiny;
    tiny.open_files = 90;
    const auto refused = run_arena(dir_, {"run", write("tiny").string()}, tiny);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.err.find(
                  "arena run: the arena's open-file limit (ulimit -n 90, hard limit "
                  "90) allows 2 bot processes at once, and 2 games at once need 4: lower the "
                  "concurrency, or raise the hard limit to at least 100"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.err.find("b0"), std::string::npos) << refused.err;
}

// The kernel drops the lock with the process: kill -9 never leaves the
// tournament locked, whatever the lock file still says.
TEST_F(RunSafetyTest, TheLockDiesWithTheArena) {
    use_db("killed.db");
    const auto config = write_config("killed", 3, 10, "--mode sleep --sleep-ms 20");
    {
        ArenaProcess first(dir_, {"run", config.string(), "--concurrency", "2"});
        ASSERT_TRUE(wait_for_a_game(db_, 30s));
        ASSERT_EQ(kill(first.pid(), SIGKILL), 0);
        EXPECT_EQ(first.wait().status, 128 + SIGKILL);
    }
    // Bots of the killed arena may live on (nothing was left to stop them):
    // not the subject here, so they go.
    for (const int pid : testing::processes_with_arg(marker_))
        kill(pid, SIGKILL);
    EXPECT_TRUE(fs::exists(dir_ / "killed.db.lock"));
    const auto r = run_arena(dir_, {"run", config.string(), "--concurrency", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(stored_games().size(), 30u);
    EXPECT_EQ(testing::survivors(marker_), std::vector<int>{});
}

// A batch system stops a job by signalling every one of its processes:
// Slurm's scancel and time limit send SIGTERM to the arena and to its bots
// at once. A bot that dies of it a moment before the arena hears its own is
// not at fault: the game is dropped, to be played again on resume, not
// stored as the bot's crash.
TEST_F(RunSafetyTest, AJobStopThatReachesTheBotsFirstIsNotTheirFault) {
    use_db("job.db");
    const auto config = write_config("job", 2, 4, "--mode sleep --sleep-ms 50");
    ArenaProcess run(dir_, {"run", config.string(), "--concurrency", "1"});
    ASSERT_TRUE(wait_for_a_game(db_, 60s));
    auto bots = testing::processes_with_arg(marker_);
    ASSERT_FALSE(bots.empty());
    for (const int pid : bots)
        kill(pid, SIGTERM);
    std::this_thread::sleep_for(30ms);
    kill(run.pid(), SIGTERM);
    const auto r = run.wait();
    EXPECT_NE(r.err.find("run the same command again"), std::string::npos) << r.err;
    const char* faults =
        "SELECT game_index, termination, detail FROM games WHERE termination <> 'normal'";
    EXPECT_EQ(testing::query(db_, faults), testing::Rows{}) << r.err;
    // Resumed, every game is played, none lost to the stop.
    const auto again = run_arena(dir_, {"run", config.string(), "--concurrency", "1"});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(stored_games().size(), 4u);
    EXPECT_EQ(testing::query(db_, faults), testing::Rows{});
}

// The same signal without the arena's stop is the bot's crash, as any death.
TEST_F(RunSafetyTest, ABotKilledBySigtermAloneCrashed) {
    use_db("alone.db");
    const auto config = write_config("alone", 2, 2, "--mode sleep --sleep-ms 50");
    ArenaProcess run(dir_, {"run", config.string(), "--concurrency", "1"});
    const auto give_up = std::chrono::steady_clock::now() + 60s;
    std::vector<int> bots;
    while (bots.size() < 2 && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(20ms);
        bots = testing::processes_with_arg(marker_);
    }
    ASSERT_EQ(bots.size(), 2u);
    std::this_thread::sleep_for(200ms);  // into the first game
    kill(bots.front(), SIGTERM);
    const auto r = run.wait();
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(stored_games().size(), 2u);
    const auto crash =
        testing::query(db_, "SELECT game_index, detail FROM games WHERE termination = 'crash'");
    ASSERT_EQ(crash.size(), 1u);
    EXPECT_EQ(crash[0][0], "0");
    EXPECT_NE(crash[0][1].find("SIGTERM"), std::string::npos) << crash[0][1];
}

}  // namespace
}  // namespace arena::store
