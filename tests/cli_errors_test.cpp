// Every error a user can cause gives a non-zero exit and one clear line on
// stderr naming the file and the problem (or, for a bad command line, that
// line and the usage hint), never a stack trace, an abort or a wrong answer.
// End to end: each case runs the arena binary.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;
using testing::ArenaResult;
using testing::bin;

constexpr int kFailure = 1;
constexpr int kUsage = 2;

class CliErrorsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("arena-cli-errors-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        // A test may have made something unreadable.
        std::error_code ec;
        for (const auto& e : fs::recursive_directory_iterator(dir_, ec))
            fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(dir_);
    }

    ArenaResult arena(const std::vector<std::string>& args) {
        return testing::run_arena(dir_, args);
    }
    // As a user for whom permissions count (nobody, when the test runs as root).
    ArenaResult arena_unprivileged(const std::vector<std::string>& args) {
        return testing::run_arena(dir_, args, testing::ArenaOptions::unprivileged());
    }

    fs::path write(const std::string& name, const std::string& content) {
        const auto path = dir_ / name;
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

    // A valid config whose database is `db`.
    fs::path config(const fs::path& db) {
        return write("t.yaml", "name: t\ngame: { name: connect4 }\ndatabase: " + db.string() +
                                   "\nbots:\n  - { name: a, command: " + bin("bots/random") +
                                   " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    }

    // A results database with tournament 't' (bots a and b) and no games.
    fs::path results_db() {
        const auto path = dir_ / "results.db";
        store::ResultsStore store(path);
        store::TournamentSpec spec{"t", "connect4", "name: t\n", "fingerprint", 1, 2};
        static_cast<void>(store.create_tournament(
            spec, {{"a", "random", "arena1", ""}, {"b", "random", "arena1", ""}}));
        return path;
    }

    // A SQLite file with PRAGMA user_version one above this arena's, as a later arena would write.
    fs::path newer_db() {
        const auto path = dir_ / "newer.db";
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        EXPECT_EQ(
            sqlite3_exec(
                db, ("PRAGMA user_version = " + std::to_string(store::kSchemaVersion + 1)).c_str(),
                nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(db);
        return path;
    }

    fs::path garbage_db() { return write("garbage.db", std::string(4096, 'x')); }

    fs::path dir_;
};

// The one line of stderr, after checking the exit code and that nothing
// crashed.
std::string one_line(const ArenaResult& r, int status) {
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto lines = r.err_lines();
    EXPECT_EQ(lines.size(), 1u) << r.err;
    return lines.empty() ? "" : lines.front();
}

// A bad command line: the problem, then the usage hint.
void usage_error(const ArenaResult& r, const std::string& first, const std::string& command) {
    EXPECT_EQ(r.status, kUsage) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    EXPECT_EQ(r.err, first + "\n(arena " + command + " --help for usage)\n");
}

// ---- arena run --------------------------------------------------------------

TEST_F(CliErrorsTest, RunMissingConfig) {
    const auto path = dir_ / "missing.yaml";
    EXPECT_EQ(one_line(arena({"run", path.string()}), kUsage),
              path.string() + ": cannot read the config file (No such file or directory)");
}

TEST_F(CliErrorsTest, RunConfigIsADirectory) {
    EXPECT_EQ(one_line(arena({"run", dir_.string()}), kUsage),
              dir_.string() + ": cannot read the config file (it is a directory)");
}

TEST_F(CliErrorsTest, RunUnreadableConfig) {
    const auto path = config(dir_ / "x.db");
    fs::permissions(path, fs::perms::none);
    EXPECT_EQ(one_line(arena_unprivileged({"run", path.string()}), kUsage),
              path.string() + ": cannot read the config file (Permission denied)");
}

TEST_F(CliErrorsTest, RunBadConfig) {
    const auto path = write("bad.yaml", "name: t\ngame: { name: connect4 }\nconcurency: 2\n");
    EXPECT_EQ(one_line(arena({"run", path.string()}), kUsage),
              path.string() + ":3:1: unknown key 'concurency' (did you mean 'concurrency'?)");
}

TEST_F(CliErrorsTest, RunConfigThatIsNotYaml) {
    const auto path = write("binary.yaml", std::string("\x00\x01\x02[{", 5));
    const auto line = one_line(arena({"run", path.string()}), kUsage);
    EXPECT_TRUE(line.starts_with(path.string() + ":")) << line;
}

// A league that nobody (or one participant) has uploaded to loads, and has
// nothing to play: the last line of `arena run` says so (after what a run
// says first, the bots' limits when it has bots), and no database is made;
// `arena slurm` says the same and writes no job.
TEST_F(CliErrorsTest, RunALeagueWithFewerThanTwoBots) {
    if (testing::run_shell("bwrap --ro-bind / / --unshare-pid --die-with-parent true").status != 0)
        GTEST_SKIP() << "a league runs its uploads sandboxed, and bubblewrap cannot here";
    fs::create_directories(dir_ / "subs");
    const auto db = dir_ / "l.db";
    const auto path = write(
        "l.yaml", "name: spring\ngame: { name: connect4 }\nbots_dir: " + (dir_ / "subs").string() +
                      "\ndatabase: " + db.string() + "\nleague: {}\n");
    for (const std::string bots : {"0 bots", "1 bot"}) {
        const auto r = arena({"run", path.string()});
        EXPECT_EQ(r.status, kFailure) << r.err;
        EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
        const auto lines = r.err_lines();
        ASSERT_FALSE(lines.empty());
        EXPECT_EQ(lines.back(), "arena run: league 'spring' has " + bots +
                                    "; at least 2 are needed to play; uploads add more");
        EXPECT_FALSE(fs::exists(db));
        // Nor are shards of nothing sent to a cluster.
        const auto slurm = arena({"slurm", path.string(), "--shards", "2", "--dry-run"});
        EXPECT_EQ(slurm.status, kFailure) << slurm.err;
        EXPECT_EQ(slurm.out, "");
        EXPECT_EQ(slurm.err_lines(),
                  (std::vector<std::string>{"arena slurm: league 'spring' has " + bots +
                                            "; at least 2 are needed to play; uploads add more"}));
        fs::create_directories(dir_ / "subs" / "alice");
        write("subs/alice/bot.sh", "echo ready\n");
        write("subs/alice/bot.yaml", "command: sh bot.sh\n");
    }
}

TEST_F(CliErrorsTest, RunBadOption) {
    usage_error(arena({"run", "x.yaml", "--concurrency", "0"}),
                "arena run: --concurrency must be at least 1", "run");
}

TEST_F(CliErrorsTest, RunGarbageDatabase) {
    const auto db = garbage_db();
    EXPECT_EQ(
        one_line(arena({"run", config(db).string()}), kFailure),
        "arena run: cannot open results database: " + db.string() + ": file is not a database");
}

TEST_F(CliErrorsTest, RunDatabaseFromANewerArena) {
    const auto db = newer_db();
    EXPECT_EQ(one_line(arena({"run", config(db).string()}), kFailure),
              "arena run: " + db.string() + ": results database schema version " +
                  std::to_string(store::kSchemaVersion + 1) +
                  " is newer than this arena supports "
                  "(version " +
                  std::to_string(store::kSchemaVersion) + "); use a newer arena");
}

TEST_F(CliErrorsTest, RunDatabaseIsADirectory) {
    const auto db = dir_ / "dir.db";
    fs::create_directory(db);
    EXPECT_EQ(one_line(arena({"run", config(db).string()}), kFailure),
              "arena run: " + db.string() + ": is a directory, not a results database");
}

TEST_F(CliErrorsTest, RunDatabaseUnderAFile) {
    const auto file = write("file", "x");
    const auto db = file / "x.db";
    EXPECT_EQ(one_line(arena({"run", config(db).string()}), kFailure),
              "arena run: cannot create the directory of results database " + db.string() +
                  ": Not a directory");
}

TEST_F(CliErrorsTest, RunDatabaseOfAnotherApplication) {
    const auto db = dir_ / "other.db";
    {
        sqlite3* handle = nullptr;
        ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(handle, "CREATE TABLE notes (text TEXT)", nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(handle);
    }
    EXPECT_EQ(one_line(arena({"run", config(db).string()}), kFailure),
              "arena run: " + db.string() +
                  ": a SQLite database with tables but no arena schema version, not an arena "
                  "results database");
}

// A config of bots a and b (random) on `game` with the database in dir_,
// `bot_a` added to a's entry and `tail` at the end.
std::string two_bot_config(const fs::path& dir, const std::string& game, const std::string& bot_a,
                           const std::string& tail = "", const std::string& name_a = "a") {
    return "name: t\ngame: " + game + "\ndatabase: " + (dir / "t.db").string() +
           "\nbots:\n  - { name: " + name_a + ", command: " + bin("bots/random") + bot_a +
           " }\n  - { name: b, command: " + bin("bots/random") + " }\n" + tail;
}

// Numbers, names, documents and boards a config cannot have: one line
// naming the file, line and problem, before any database is made.
TEST_F(CliErrorsTest, RunConfigProblemsAreNamedBeforeTheDatabaseIsMade) {
    const std::string connect4 = "{ name: connect4 }";
    const auto refused = [&](const std::string& text, const std::string& expected) {
        const auto cfg = write("t.yaml", text);
        const auto line = one_line(arena({"run", cfg.string()}), kUsage);
        EXPECT_TRUE(line.starts_with(cfg.string() + ":")) << line;
        EXPECT_NE(line.find(expected), std::string::npos) << line;
        EXPECT_FALSE(fs::exists(dir_ / "t.db")) << line;
    };
    // The lower bound, not the upper one.
    refused(two_bot_config(dir_, connect4, ", max_line_bytes: 1"),
            "max_line_bytes must be at least 64, got 1");
    refused(two_bot_config(dir_, connect4, "", "", std::string(5000, 'x')),
            "bot name 'xxxxxxxxxxxxxxxxxxxxxxxx...' is 5000 characters long; at most 100 are "
            "allowed");
    refused(two_bot_config(dir_, connect4, "", "---\nconcurrency: 3\n"),
            ":8:1: a second YAML document (after '---'), which the arena would not read");
    std::string every_cell;
    for (int col = 1; col <= 4; ++col)
        for (int row = 1; row <= 4; ++row)
            every_cell +=
                (every_cell.empty() ? "" : ",") + std::to_string(col) + ":" + std::to_string(row);
    refused(two_bot_config(
                dir_, "{ name: connect4, rows: 4, cols: 4, blocked: '" + every_cell + "' }", ""),
            "connect4: the blocked cells leave no line of 4 open cells on the board, so every "
            "game would be a draw without a move (every cell is blocked)");
}

// The command line gets the config's ranges and the same kind of message.
TEST_F(CliErrorsTest, MatchNumbersOutOfRangeAreRefused) {
    const auto match = [&](const std::string& option, const std::string& value) {
        return arena(
            {"match", "--game", "connect4", option, value, bin("bots/random"), bin("bots/random")});
    };
    usage_error(match("--move-ms", "10000000000000"),
                "arena match: --move-ms must be at most 1000000000, got 10000000000000", "match");
    usage_error(match("--startup-ms", "9223372036854775807"),
                "arena match: --startup-ms must be at most 1000000000, got 9223372036854775807",
                "match");
    usage_error(match("--memory-mb", "-1"), "arena match: --memory-mb must not be negative, got -1",
                "match");
    usage_error(match("--memory-mb", "2000000000"),
                "arena match: --memory-mb must be at most 1073741824, got 2000000000", "match");
    usage_error(match("--max-line-bytes", "1"),
                "arena match: --max-line-bytes must be at least 64, got 1", "match");
    usage_error(match("--games", "0"), "arena match: --games must be positive, got 0", "match");
    usage_error(match("--tolerance-ms", "many"),
                "arena match: expected an integer for --tolerance-ms, got 'many'", "match");
}

// A merge refused before it merged anything leaves no OUT.db behind.
TEST_F(CliErrorsTest, ARefusedMergeLeavesNoOutput) {
    const auto bad = garbage_db();
    const auto out = dir_ / "out.db";
    const auto r = arena({"merge", out.string(), bad.string()});
    EXPECT_EQ(r.status, kFailure) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out.string() + ".merging"));
}

// A game whose bot row was deleted by hand (sqlite3, foreign keys off):
// the reports name the database and the id.
TEST_F(CliErrorsTest, AGameOfADeletedBotIsNamed) {
    const auto cfg = write("t.yaml", two_bot_config(dir_, "{ name: connect4 }", ""));
    const auto run = arena({"run", cfg.string()});
    ASSERT_EQ(run.status, 0) << run.err;
    const auto db = dir_ / "t.db";
    {
        sqlite3* handle = nullptr;
        ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
        EXPECT_EQ(
            sqlite3_exec(handle, "DELETE FROM bots WHERE name = 'b'", nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(handle);
    }
    const std::string problem = db.string() +
                                ": a game of tournament 't' names bot id 2, which is not one of "
                                "the tournament's bots (was its row deleted?)";
    EXPECT_EQ(one_line(arena({"standings", db.string()}), kFailure), "arena standings: " + problem);
    EXPECT_EQ(one_line(arena({"report", db.string(), "-o", (dir_ / "r.html").string()}), kFailure),
              "arena report: " + problem);
}

// ---- arena standings / games / show ---------------------------------------------

TEST_F(CliErrorsTest, ReadCommandsMissingDatabase) {
    const auto db = dir_ / "missing.db";
    for (const std::string command : {"standings", "games"}) {
        EXPECT_EQ(one_line(arena({command, db.string()}), kUsage),
                  "arena " + command + ": " + db.string() + ": no such file")
            << command;
    }
    EXPECT_EQ(one_line(arena({"show", db.string(), "1"}), kUsage),
              "arena show: " + db.string() + ": no such file");
    EXPECT_FALSE(fs::exists(db));
}

TEST_F(CliErrorsTest, ReadCommandsGarbageDatabase) {
    const auto db = garbage_db();
    for (const std::string command : {"standings", "games"}) {
        EXPECT_EQ(one_line(arena({command, db.string()}), kFailure),
                  "arena " + command + ": cannot open results database: " + db.string() +
                      ": file is not a database")
            << command;
    }
    EXPECT_EQ(
        one_line(arena({"show", db.string(), "1"}), kFailure),
        "arena show: cannot open results database: " + db.string() + ": file is not a database");
}

TEST_F(CliErrorsTest, ReadCommandsDatabaseFromANewerArena) {
    const auto db = newer_db();
    for (const std::string command : {"standings", "games"}) {
        EXPECT_EQ(one_line(arena({command, db.string()}), kFailure),
                  "arena " + command + ": " + db.string() + ": results database schema version " +
                      std::to_string(store::kSchemaVersion + 1) +
                      " is newer than this arena supports "
                      "(version " +
                      std::to_string(store::kSchemaVersion) + "); use a newer arena")
            << command;
    }
}

TEST_F(CliErrorsTest, ReadCommandsDatabaseIsADirectory) {
    for (const std::string command : {"standings", "games"}) {
        EXPECT_EQ(
            one_line(arena({command, dir_.string()}), kFailure),
            "arena " + command + ": " + dir_.string() + ": is a directory, not a results database")
            << command;
    }
}

TEST_F(CliErrorsTest, ReadCommandsUnreadableDatabase) {
    const auto db = results_db();
    fs::permissions(db, fs::perms::none);
    const auto line = one_line(arena_unprivileged({"standings", db.string()}), kFailure);
    EXPECT_TRUE(
        line.starts_with("arena standings: cannot open results database: " + db.string() + ": "))
        << line;
}

// A database the user may read but not write: the file 0644 in a
// directory of another user (root's, read by nobody). The commands that
// only read open it read-only and work; nothing appears next to it.
class ReadOnlyDatabaseTest : public CliErrorsTest {
  protected:
    // `db` in its own directory, both root's and 0755/0644, with one game
    // stored; the output directory `out_` is writable by anyone.
    void SetUp() override {
        CliErrorsTest::SetUp();
        if (geteuid() != 0) GTEST_SKIP() << "needs root to run the arena as another user";
        fs::create_directories(dir_ / "ro");
        db_ = dir_ / "ro" / "r.db";
        out_ = dir_ / "out";
        fs::create_directories(out_);
        fs::permissions(out_, fs::perms::all);
        const auto cfg =
            write("t.yaml", "name: t\ngame: { name: connect4 }\ndatabase: " + db_.string() +
                                "\nschedule: { type: round-robin, games_per_pair: 2 }\nbots:\n"
                                "  - { name: a, command: " +
                                bin("bots/random") +
                                " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
        const auto run = arena({"run", cfg.string()});
        ASSERT_EQ(run.status, 0) << run.err;
        fs::remove(db_.string() + ".lock");
        fs::permissions(db_, fs::perms::owner_read | fs::perms::owner_write |
                                 fs::perms::group_read | fs::perms::others_read);
    }

    // Every read command, as nobody: each succeeds and says something.
    void read_everything() {
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {"standings", db_.string()},
                 {"standings", db_.string(), "--anchor", "a=1500"},
                 {"games", db_.string()},
                 {"show", db_.string(), "1"},
                 {"log", db_.string(), "1"},
                 {"export", db_.string(), "--format", "csv"},
                 {"report", db_.string(), "-o", (out_ / "r.html").string()}}) {
            const auto r = arena_unprivileged(args);
            EXPECT_EQ(r.status, 0) << args[0] << ": " << r.err;
            EXPECT_EQ(r.err.find("readonly"), std::string::npos) << args[0] << ": " << r.err;
        }
        EXPECT_TRUE(fs::exists(out_ / "r.html"));
    }

    fs::path db_, out_;
};

TEST_F(ReadOnlyDatabaseTest, ReadCommandsReadWithoutWriteAccess) {
    // No -wal and no -shm: SQLite cannot make the shared memory it would
    // read a WAL file through, in a directory nobody may write.
    ASSERT_FALSE(fs::exists(db_.string() + "-wal"));
    const auto before = fs::file_size(db_);
    read_everything();
    EXPECT_FALSE(fs::exists(db_.string() + "-shm"));
    EXPECT_FALSE(fs::exists(db_.string() + "-wal"));
    EXPECT_EQ(fs::file_size(db_), before);
}

TEST_F(ReadOnlyDatabaseTest, ReadCommandsReadWhileAWriterHoldsTheLog) {
    // A writer (root) has the file open, with a -wal and a -shm of its own
    // that nobody may write: the readers read through them, and see the
    // game stored last.
    store::ResultsStore writer(db_);
    const auto t = writer.find_tournament("t");
    ASSERT_TRUE(t.has_value());
    writer.set_status(t->id, "interrupted");
    ASSERT_TRUE(fs::exists(db_.string() + "-wal"));
    ASSERT_TRUE(fs::exists(db_.string() + "-shm"));
    read_everything();
    const auto games = arena_unprivileged({"games", db_.string()});
    EXPECT_EQ(games.status, 0) << games.err;
}

TEST_F(ReadOnlyDatabaseTest, ALogWithoutItsSharedMemoryIsNamedNotSkipped) {
    // A -wal that holds a change, without the -shm to read it through (a
    // copy taken while a writer had the file open): reading the file alone
    // would be a wrong answer, so the reader says what to do.
    store::ResultsStore writer(db_);
    writer.set_status(writer.find_tournament("t")->id, "interrupted");
    fs::create_directories(dir_ / "copy");
    const auto copy = dir_ / "copy" / "r.db";
    fs::copy_file(db_, copy);
    fs::copy_file(db_.string() + "-wal", copy.string() + "-wal");
    ASSERT_GT(fs::file_size(copy.string() + "-wal"), 0u);
    const auto line = one_line(arena_unprivileged({"standings", copy.string()}), kFailure);
    EXPECT_NE(line.find(copy.string() + ": cannot read its write-ahead log " + copy.string() +
                        "-wal without writing " + copy.string() + "-shm"),
              std::string::npos)
        << line;
    EXPECT_FALSE(fs::exists(copy.string() + "-shm"));
}

// The whole file, to compare before and after.
std::string file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Takes the database back to schema 6 (as arena wrote it before growing
// tournaments), folded into the main file.
void back_to_schema_6(const fs::path& db) {
    sqlite3* handle = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
    EXPECT_EQ(
        sqlite3_exec(handle,
                     "DROP TABLE segment_bots; DROP TABLE segments; "
                     "ALTER TABLE bots DROP COLUMN retired; "
                     "ALTER TABLE bots DROP COLUMN version; "
                     "DROP TABLE league_versions; DROP TABLE league_users; DROP TABLE game_params; "
                     "ALTER TABLE games DROP COLUMN first_control; "
                     "ALTER TABLE games DROP COLUMN second_control; PRAGMA user_version = 6; "
                     "PRAGMA wal_checkpoint(TRUNCATE)",
                     nullptr, nullptr, nullptr),
        SQLITE_OK)
        << sqlite3_errmsg(handle);
    sqlite3_close(handle);
}

// A file of an older schema is read, by a user who may write it and by one
// who may not, without a byte of it changing: the reading commands upgrade a
// copy in memory. `arena upgrade` upgrades the file itself, once.
TEST_F(ReadOnlyDatabaseTest, AnOlderSchemaIsReadWithoutUpgradingTheFile) {
    fs::permissions(db_, fs::perms::owner_write, fs::perm_options::add);
    back_to_schema_6(db_);
    const std::string before = file_bytes(db_);
    read_everything();
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"standings", db_.string()}, {"games", db_.string()}, {"show", db_.string(), "1"}}) {
        const auto r = arena(args);  // root, who could write it
        EXPECT_EQ(r.status, 0) << args[0] << ": " << r.err;
        EXPECT_NE(r.out.find(args[0] == "show" ? "result" : "a"), std::string::npos) << r.out;
    }
    EXPECT_TRUE(file_bytes(db_) == before) << "a reading command changed the file";
    EXPECT_EQ(testing::query(db_, "PRAGMA user_version"), (testing::Rows{{"6"}}));
    // arena serve refuses it, naming the command that upgrades it.
    const auto served = arena({"serve", db_.string(), "--port", "0"});
    EXPECT_EQ(served.status, 1);
    EXPECT_NE(served.err.find("arena upgrade " + db_.string()), std::string::npos) << served.err;

    // As nobody, the upgrade needs write access, and says so.
    const auto refused = arena_unprivileged({"upgrade", db_.string()});
    EXPECT_EQ(refused.status, 1) << refused.out;
    EXPECT_NE(refused.err.find("readonly"), std::string::npos) << refused.err;
    EXPECT_TRUE(file_bytes(db_) == before);
    const auto upgraded = arena({"upgrade", db_.string()});
    EXPECT_EQ(upgraded.status, 0) << upgraded.err;
    EXPECT_EQ(upgraded.out, db_.string() + ": upgraded from schema version 6 to " +
                                std::to_string(store::kSchemaVersion) + "\n");
    EXPECT_EQ(testing::query(db_, "PRAGMA user_version"),
              (testing::Rows{{std::to_string(store::kSchemaVersion)}}));
    EXPECT_EQ(testing::query(db_, "SELECT count(*) FROM games"), (testing::Rows{{"2"}}));
    const auto again = arena({"upgrade", db_.string()});
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.out.find("left as it is"), std::string::npos) << again.out;
}

TEST_F(CliErrorsTest, UpgradeRefusesWhatIsNotAResultsDatabase) {
    const auto text = write("notes.txt", "not a database\n");
    const auto r = arena({"upgrade", text.string(), (dir_ / "missing.db").string()});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(text.string() + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("missing.db: no such results database"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "missing.db"));
    EXPECT_EQ(file_bytes(text), "not a database\n");
    EXPECT_EQ(arena({"upgrade"}).status, 2);
}

TEST_F(CliErrorsTest, StandingsAnchoredDoesNotStoreRatings) {
    const auto db = results_db();
    {
        store::ResultsStore store(db);
        store.save_ratings(store.find_tournament("t")->id, {{"a", 1234.0, 5.0}, {"b", -7.0, 5.0}});
    }
    const auto r = arena({"standings", db.string(), "--anchor", "a=1500"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("1500"), std::string::npos) << r.out;
    store::ResultsStore store(db);
    const auto stored = store.ratings(store.find_tournament("t")->id);
    ASSERT_EQ(stored.size(), 2u);
    EXPECT_EQ(stored[0].bot, "a");
    EXPECT_EQ(stored[0].elo, 1234.0);
    EXPECT_EQ(stored[1].elo, -7.0);
}

TEST_F(CliErrorsTest, ReadCommandsRefuseAnEmptyFileAndLeaveItEmpty) {
    const auto db = write("empty.db", "");
    for (const std::string command : {"standings", "games"}) {
        EXPECT_EQ(one_line(arena({command, db.string()}), kFailure),
                  "arena " + command + ": " + db.string() +
                      ": an empty file (0 bytes), not a results database: nothing is stored in it")
            << command;
    }
    EXPECT_EQ(one_line(arena({"report", db.string(), "-o", (dir_ / "r.html").string()}), kFailure),
              "arena report: " + db.string() +
                  ": an empty file (0 bytes), not a results database: nothing is stored in it");
    EXPECT_EQ(fs::file_size(db), 0u);
    EXPECT_FALSE(fs::exists(db.string() + "-wal"));
}

TEST_F(CliErrorsTest, UnknownTournament) {
    const auto db = results_db();
    EXPECT_EQ(one_line(arena({"standings", db.string(), "--tournament", "nope"}), kUsage),
              "arena standings: no tournament 'nope' in " + db.string());
    EXPECT_EQ(one_line(arena({"games", db.string(), "-t", "nope"}), kUsage),
              "arena games: no tournament 'nope' in " + db.string());
}

TEST_F(CliErrorsTest, EmptyDatabase) {
    const auto db = dir_ / "empty.db";
    static_cast<void>(store::ResultsStore(db));
    EXPECT_EQ(one_line(arena({"standings", db.string()}), kUsage),
              "arena standings: no tournament in " + db.string());
}

TEST_F(CliErrorsTest, GamesOfAnUnknownBot) {
    const auto db = results_db();
    EXPECT_EQ(one_line(arena({"games", db.string(), "--bot", "nobody"}), kUsage),
              "arena games: tournament 't' in " + db.string() + " has no bot 'nobody'");
}

TEST_F(CliErrorsTest, StandingsAnchoredOnAnUnknownBot) {
    const auto db = results_db();
    EXPECT_EQ(one_line(arena({"standings", db.string(), "--anchor", "nobody"}), kUsage),
              "arena standings: --anchor nobody: tournament 't' in " + db.string() +
                  " has no bot 'nobody'");
}

TEST_F(CliErrorsTest, ShowUnknownGame) {
    const auto db = results_db();
    EXPECT_EQ(one_line(arena({"show", db.string(), "99"}), kUsage),
              "arena show: no game 99 in " + db.string());
}

TEST_F(CliErrorsTest, ShowBadGameId) {
    const auto db = results_db();
    usage_error(arena({"show", db.string(), "twelve"}),
                "arena show: GAME must be a game id (a positive whole number), got 'twelve'",
                "show");
}

// ---- arena rate ---------------------------------------------------------------

TEST_F(CliErrorsTest, RateMissingFile) {
    const auto path = dir_ / "missing.csv";
    EXPECT_EQ(one_line(arena({"rate", path.string()}), kUsage),
              "arena rate: " + path.string() + ": cannot read (No such file or directory)");
}

TEST_F(CliErrorsTest, RateDirectory) {
    EXPECT_EQ(one_line(arena({"rate", dir_.string()}), kUsage),
              "arena rate: " + dir_.string() + ": cannot read (Is a directory)");
}

TEST_F(CliErrorsTest, RateUnreadableFile) {
    const auto path = write("games.csv", "a,b,1-0\n");
    fs::permissions(path, fs::perms::none);
    EXPECT_EQ(one_line(arena_unprivileged({"rate", path.string()}), kUsage),
              "arena rate: " + path.string() + ": cannot read (Permission denied)");
}

TEST_F(CliErrorsTest, RateBadCsv) {
    const struct {
        std::string csv, problem;
    } cases[] = {
        {"a,b,1-0\na,b\n", "line 2: expected 3 comma-separated fields (white,black,result), got 2"},
        {"a,b,1-0\nb,a,2-0\n", "line 2: unknown result '2-0' (expected 1-0, 0-1 or 1/2-1/2)"},
        {"a,a,1-0\n", "line 1: 'a' cannot play itself"},
        {",b,1-0\n", "line 1: empty player name"},
        {"", "no games"},
        {"white,black,result\n\n", "no games"},
    };
    for (const auto& c : cases) {
        const auto path = write("games.csv", c.csv);
        EXPECT_EQ(one_line(arena({"rate", path.string()}), kUsage),
                  "arena rate: " + path.string() + ": " + c.problem)
            << c.csv;
    }
}

TEST_F(CliErrorsTest, RateUnknownAnchor) {
    const auto path = write("games.csv", "a,b,1-0\nb,a,1/2-1/2\n");
    EXPECT_EQ(one_line(arena({"rate", path.string(), "--anchor", "nobody"}), kUsage),
              "arena rate: " + path.string() + ": no player 'nobody' to anchor on");
}

TEST_F(CliErrorsTest, RateBinaryFile) {
    const auto path = write("games.csv", std::string("\x7f"
                                                     "ELF\x02\x01\x01\x00",
                                                     8));
    const auto line = one_line(arena({"rate", path.string()}), kUsage);
    EXPECT_TRUE(line.starts_with("arena rate: " + path.string() + ": line 1: ")) << line;
}

// ---- arena match --------------------------------------------------------------

TEST_F(CliErrorsTest, MatchBotThatCannotStart) {
    const auto missing = (dir_ / "no-such-bot").string();
    const auto line =
        one_line(arena({"match", "--game", "connect4", missing, bin("bots/random")}), kFailure);
    EXPECT_NE(line.find(missing), std::string::npos) << line;
}

TEST_F(CliErrorsTest, MatchBadArguments) {
    const auto r = arena({"match", "--game", "chess", bin("bots/random"), bin("bots/random")});
    EXPECT_EQ(r.status, kUsage) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto lines = r.err_lines();
    ASSERT_EQ(lines.size(), 2u) << r.err;
    EXPECT_NE(lines[0].find("chess"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace arena::cli
