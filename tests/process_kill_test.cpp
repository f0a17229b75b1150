// Bot processes against an arena that dies, end to end with the arena binary
// (docs/security.md, "Bot processes"): whatever kills `arena run`, no process
// of any bot (helpers it forked, a fork bomb) outlives it by 2 s, the next
// arena start cleans the cgroups a killed one left, and a run killed again
// and again stores every scheduled game exactly once after its resumes.
//
// ARENA_KILL_ROUNDS=20 runs the kill test with 20 kills instead of the
// suite's few.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArenaOptions;
using testing::ArenaProcess;
using testing::bin;
using testing::source;

constexpr int kSuiteKills = 5;

class KilledArena : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("arena-kill-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        // Readable by nobody, for the unprivileged run.
        fs::permissions(dir_, fs::perms::all);
        // A path in the test's folder: misbehave --log writes there.
        marker_ = (dir_ / testing::unique_marker()).string();
        db_ = dir_ / "kill.db";
    }
    void TearDown() override {
        for (const int pid : testing::processes_with_arg(marker_))
            ::kill(pid, SIGKILL);
        fs::remove_all(dir_);
    }

    // Bots that fork: Python helpers (multiprocessing), a fork bomb on
    // every move, a forked child, a setsid() escape and a daemon, beside a
    // well-behaved one that takes 20 ms a move (so that games last long
    // enough to be killed in). Every process carries the marker.
    // `escapes`: with the fork bomb, the setsid() and the daemon bots, whose
    // escapes only a PID namespace or a cgroup holds at the moment of the
    // kill (without a cgroup a fork bomb also grows for up to 100 ms between
    // two polls of the reaper, too much for a suite on a small machine).
    fs::path write_config(int games_per_pair, bool escapes) {
        const auto path = dir_ / "kill.yaml";
        const std::string py = "/usr/bin/python3 " + source("tests/data/hostile/helper_bot.py");
        const std::string mis = bin("bots/misbehave");
        std::ofstream out(path);
        out << "name: kill\n"
            << "game: { name: connect4 }\n"
            << "time: { move_ms: 300 }\n"
            << "schedule: { type: round-robin, games_per_pair: " << games_per_pair << " }\n"
            << "seed: 7\n"
            << "database: " << db_.string() << "\n"
            << "bots:\n"
            << "  - { name: helpers, command: " << py << " --helpers 3, args: [" << marker_
            << "] }\n"

            << "  - { name: child, command: " << mis
            << " --seed 2 --mode fork-child, args: [--log, " << marker_ << "] }\n"
            << "  - { name: plain, command: " << mis
            << " --seed 5 --mode sleep --sleep-ms 20, args: [--log, " << marker_ << "] }\n";
        if (escapes) {
            out << "  - { name: bomb, command: " << py << " --fork-bomb, args: [" << marker_
                << "] }\n"
                << "  - { name: setsid, command: " << mis
                << " --seed 3 --mode setsid, args: [--log, " << marker_ << "] }\n"
                << "  - { name: daemon, command: " << mis
                << " --seed 4 --mode daemon, args: [--log, " << marker_ << "] }\n";
        }
        return path;
    }

    // Game index -> how many times it is stored.
    std::map<std::string, int> stored() {
        std::map<std::string, int> count;
        if (!fs::exists(db_)) return count;
        for (const auto& row : testing::query(db_, "SELECT game_index FROM games"))
            ++count[row.at(0)];
        return count;
    }

    struct Tally {
        int kills = 0;              // arenas killed while running
        int clean = 0;              // kills after which no bot process was left at 2 s
        std::size_t most_left = 0;  // the most bot processes left at 2 s after one kill
        int resumes = 0;
    };

    // Kills `arena run` at `kills` random moments (each a while after it
    // started), checking after each that no bot process is left 2 s later,
    // then runs it to the end.
    Tally kill_and_resume(const fs::path& config, int kills, const ArenaOptions& options,
                          int expected_games) {
        Tally t;
        std::mt19937 rng(std::random_device{}());
        std::uniform_int_distribution<int> moment_ms(200, 900);
        for (int round = 0; round < kills; ++round) {
            ArenaProcess run(dir_, {"run", config.string()}, options);
            std::this_thread::sleep_for(std::chrono::milliseconds(moment_ms(rng)));
            if (auto done = run.try_wait()) {
                EXPECT_EQ(done->status, 0) << done->err;
                break;  // it finished before the kill
            }
            ++t.kills;
            // Bots on move, helpers and a bomb at work: the moment matters,
            // so it is taken as it comes.
            EXPECT_EQ(::kill(run.pid(), SIGKILL), 0);
            EXPECT_EQ(run.wait().status, 128 + SIGKILL);
            const auto left = testing::survivors(marker_, 2s);
            if (left.empty()) ++t.clean;
            t.most_left = std::max(t.most_left, left.size());
            for (const int pid : left)
                ::kill(pid, SIGKILL);  // not to disturb the next round
            testing::survivors(marker_, 2s);
        }
        for (int attempt = 0; attempt < 3; ++attempt) {
            ++t.resumes;
            const auto r = testing::run_arena(dir_, {"run", config.string()}, options);
            EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
            if (r.status == 0) break;
        }
        EXPECT_EQ(testing::survivors(marker_), std::vector<int>{});
        const auto games = stored();
        EXPECT_EQ(static_cast<int>(games.size()), expected_games);
        for (const auto& [index, n] : games)
            EXPECT_EQ(n, 1) << "game " << index << " stored " << n << " times";
        return t;
    }

    fs::path dir_, db_;
    std::string marker_;
};

int kill_rounds() {
    const char* env = std::getenv("ARENA_KILL_ROUNDS");
    return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : kSuiteKills;
}

// Games a pair plays, enough for `kills` kills 0.2 to 0.9 s apart (a game
// takes about 0.1 s).
int games_per_pair(int kills) {
    return kills <= kSuiteKills ? 4 : 14;
}

// 6 bots, a round-robin: 15 pairs.
TEST_F(KilledArena, NoBotProcessOutlivesAKillAndEveryGameIsStoredOnce) {
    const int per_pair = games_per_pair(kill_rounds());
    const auto config = write_config(per_pair, true);
    ArenaOptions options;
    options.cwd = dir_;
    const auto t = kill_and_resume(config, kill_rounds(), options, 15 * per_pair);
    std::cout << "[ figures  ] " << t.kills << " kills, " << t.clean
              << " with no bot process left at 2 s (most left: " << t.most_left << "), "
              << t.resumes << " resume(s) to the end\n";
    EXPECT_GT(t.kills, 0);
    EXPECT_EQ(t.clean, t.kills);
}

// The same as a normal user (nobody), where the arena can make neither a
// PID namespace nor a cgroup, with the bots that stay in their process
// groups (helpers, a forked child): the keeper process kills the groups. (A process that left its
// group in the last 100 ms before the kill is out of its reach: docs/security.md.)
TEST_F(KilledArena, AsANormalUserToo) {
    if (::geteuid() != 0) GTEST_SKIP() << "runs the arena as nobody, which needs root";
    const int kills = std::max(2, kill_rounds() / 2);
    const int per_pair = 3 * games_per_pair(kills);  // 3 bots: fewer pairs
    const auto config = write_config(per_pair, false);
    auto options = ArenaOptions::unprivileged();
    options.cwd = dir_;
    const auto t = kill_and_resume(config, kills, options, 3 * per_pair);
    std::cout << "[ figures  ] " << t.kills << " kills as nobody, " << t.clean
              << " with no bot process left at 2 s (most left: " << t.most_left << ")\n";
    EXPECT_GT(t.kills, 0);
    EXPECT_EQ(t.clean, t.kills);
}

// The cgroup v1 freezer directory of the arena with pid `arena`
// (<mount>/<its group>/arena-<pid>), or empty where there is none.
fs::path arena_freezer_dir(pid_t arena) {
    const fs::path mount = "/sys/fs/cgroup/freezer";
    std::ifstream in("/proc/" + std::to_string(arena) + "/cgroup");
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        const auto second = line.find(':', colon + 1);
        if (colon == std::string::npos || second == std::string::npos) continue;
        if (line.substr(colon + 1, second - colon - 1) != "freezer") continue;
        return mount / fs::path(line.substr(second + 1)).relative_path() /
               ("arena-" + std::to_string(arena));
    }
    return {};
}

// Writes FROZEN or THAWED to every bot group's freezer under `dir`; the
// number of groups with processes in them.
int set_bot_groups(const fs::path& dir, const char* state) {
    int busy = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (!e.path().filename().string().starts_with("bot-")) continue;
        std::ofstream(e.path() / "freezer.state") << state;
        if (!testing::slurp((e.path() / "cgroup.procs").string()).empty()) ++busy;
    }
    return busy;
}

// With cgroup v1, the arena kills a bot by freezing its group, signalling
// every process in it and thawing it; a frozen process dies of SIGKILL only
// once thawed. An arena killed in between (here: every bot group frozen by
// the test, then the arena killed) leaves no bot process behind either.
TEST_F(KilledArena, ABotFrozenForItsKillDiesWithTheArena) {
    if (::geteuid() != 0) GTEST_SKIP() << "cgroups need root";
    const auto config = write_config(20, true);
    ArenaOptions options;
    options.cwd = dir_;
    ArenaProcess run(dir_, {"run", config.string()}, options);
    const fs::path freezer = arena_freezer_dir(run.pid());
    if (freezer.empty() || !fs::exists(freezer.parent_path()))
        GTEST_SKIP() << "no cgroup v1 freezer here";
    const auto until = std::chrono::steady_clock::now() + 10s;
    int frozen = 0;
    while (frozen < 2 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(20ms);
        frozen = set_bot_groups(freezer, "THAWED");
    }
    ASSERT_GE(frozen, 2) << "no game started in 10 s";
    set_bot_groups(freezer, "FROZEN");
    EXPECT_EQ(::kill(run.pid(), SIGKILL), 0);
    EXPECT_EQ(run.wait().status, 128 + SIGKILL);
    const auto left = testing::survivors(marker_, 2s);
    EXPECT_EQ(left, std::vector<int>{}) << left.size() << " bot processes left";
    set_bot_groups(freezer, "THAWED");  // if they were left: not to hang the test
}

// ---- a bot that exits after each game -----------------------------------------

// A bot that quits after `end` has lost nothing: each of its games starts a
// fresh process, with no fault, and the output says so once.
TEST(ExitsAfterEachGame, AFreshProcessEachGameNoFaultSaidOnce) {
    const fs::path dir = fs::temp_directory_path() / ("arena-quitter-" + testing::unique_marker());
    fs::create_directories(dir);
    const auto r = testing::run_arena(
        dir, {"match", "--game", "connect4", "--games", "6", "--move-ms", "1000",
              "quitter=/usr/bin/python3 " + source("tests/data/hostile/helper_bot.py") +
                  " --exit-after-end",
              "good=" + bin("bots/misbehave") + " --seed 1"});
    EXPECT_EQ(r.status, 0) << r.err;
    int games = 0;
    for (const auto& line : testing::lines_of(r.out)) {
        if (!line.starts_with("game ")) continue;
        ++games;
        EXPECT_NE(line.find(" normal "), std::string::npos) << line;
    }
    EXPECT_EQ(games, 6) << r.out;
    const std::string note =
        "arena match: bot 'quitter' exits after each game (exit 0): a fresh "
        "process starts for each of its games, which costs its start-up time (";
    const auto at = r.err.find(note);
    EXPECT_NE(at, std::string::npos) << r.err;
    if (at != std::string::npos) {
        EXPECT_EQ(r.err.find(note, at + 1), std::string::npos) << r.err;  // once
    }
    fs::remove_all(dir);
}

// ---- the memory a Gomocup engine is told ---------------------------------------

// An engine that sizes its hash table to all of `INFO max_memory` (as Rapfi
// does) fits its memory limit: the arena announces less than the limit, as
// it announces less time than it gives.
TEST(GomocupMemory, AnEngineThatTakesAllItIsToldFits) {
    const fs::path dir = fs::temp_directory_path() / ("arena-fill-" + testing::unique_marker());
    fs::create_directories(dir);
    const fs::path db = dir / "fill.db";
    const fs::path config = dir / "fill.yaml";
    std::ofstream(config) << "name: fill\n"
                          << "game: { name: gomoku, size: 15, rule: freestyle }\n"
                          << "time: { move_ms: 2000 }\n"
                          << "schedule: { type: round-robin, games_per_pair: 2 }\n"
                          << "database: " << db.string() << "\n"
                          << "bots:\n"
                          << "  - { name: filler, command: /usr/bin/python3 "
                          << source("tests/data/hostile/fill_memory_brain.py")
                          << ", protocol: gomocup, memory_mb: 96 }\n"
                          << "  - { name: sample, command: " << bin("bots/pbrain-sample")
                          << ", protocol: gomocup }\n";
    const auto r = testing::run_arena(dir, {"run", config.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(testing::query(db, "SELECT termination, detail FROM games ORDER BY game_index"),
              (testing::Rows{{"normal", ""}, {"normal", ""}}))
        << r.out;
    fs::remove_all(dir);
}

// ---- the sandbox -------------------------------------------------------------

// A sandboxed bot in a project's directory, which holds the results, the
// config and another bot's folder: without `dir:` (it starts in the arena's
// directory) and with `dir: bots` (a folder holding the other bot's). A
// probing bot tries every path it can think of (its directory and the
// parents, what they list, the database, the config, the other bot's
// weights, /proc/<pid>/cwd and /proc/<pid>/root of every process it sees);
// it reads none of them, and still plays.
TEST(SandboxedRun, ABotReadsNothingOfTheArenasDirectory) {
    if (::geteuid() != 0 && ::access("/usr/bin/bwrap", X_OK) != 0)
        GTEST_SKIP() << "no bubblewrap here";
    const auto ok = testing::run_shell("bwrap --ro-bind / / --unshare-pid --die-with-parent true");
    if (ok.status != 0) GTEST_SKIP() << "bubblewrap cannot create a sandbox here: " << ok.out;
    for (const std::string probe_dir : {"", "bots"}) {
        SCOPED_TRACE("dir: '" + probe_dir + "'");
        const fs::path dir =
            fs::temp_directory_path() / ("arena-sandbox-" + testing::unique_marker());
        fs::create_directories(dir / "bots" / "bob");
        fs::create_directories(dir / "results");
        std::ofstream(dir / "bots" / "bob" / "weights.txt") << "bob's secret weights\n";
        const fs::path db = dir / "results" / "x.db";
        const fs::path config = dir / "sandbox.yaml";
        const std::string probe =
            "/usr/bin/python3 " + source("tests/data/hostile/helper_bot.py") +
            " --probe --try=" + db.string() +
            " --try=" + (dir / "bots" / "bob" / "weights.txt").string() +
            " --try=" + config.string() +
            " --try=results/x.db --try=bots/bob/weights.txt --try=../results/x.db"
            " --try=bob/weights.txt --try=bob --try=../sandbox.yaml";
        std::ofstream(config) << "name: sandbox\n"
                              << "game: { name: connect4 }\n"
                              << "time: { move_ms: 2000 }\n"
                              << "schedule: { type: round-robin, games_per_pair: 2 }\n"
                              << "database: results/x.db\n"
                              << "bots:\n"
                              << "  - { name: probe, command: " << probe << ", sandbox: true"
                              << (probe_dir.empty() ? "" : ", dir: " + probe_dir) << " }\n"
                              << "  - { name: bob, command: " << bin("bots/misbehave")
                              << " --seed 1, dir: bots/bob }\n";
        ArenaOptions options;
        options.cwd = dir;
        const auto r = ArenaProcess(dir, {"run", config.string()}, options).wait();
        ASSERT_EQ(r.status, 0) << r.err;
        const auto logs = testing::query(db, "SELECT stderr FROM bot_logs");
        std::string all;
        for (const auto& row : logs)
            all += row.at(0);
        EXPECT_NE(all.find("PROBED "), std::string::npos) << all;  // it ran
        EXPECT_EQ(testing::query(db, "SELECT termination FROM games"),
                  (testing::Rows{{"normal"}, {"normal"}}));
        // Nothing of the results, the config or the other bot: neither read
        // nor even seen in a listing (its own working directory, "bots",
        // exists inside, empty).
        for (const char* secret : {"x.db", "weights.txt", "sandbox.yaml", "results", "bob"})
            EXPECT_EQ(all.find(secret), std::string::npos) << secret << " in:\n" << all;
        EXPECT_EQ(all.find("READ "), std::string::npos) << all;
        if (probe_dir.empty()) {
            EXPECT_EQ(all.find("bots"), std::string::npos) << all;
        }
        fs::remove_all(dir);
    }
}

}  // namespace
}  // namespace arena
