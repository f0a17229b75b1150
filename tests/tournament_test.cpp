// Tournaments: schedules as pure values, and `arena run` end to end — the
// database reopened and queried, exact resume after kill -9 (also at every
// step of creating the database), Ctrl-C, and configs that are refused before
// anything runs.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/play_order.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using arena::testing::bin;
using arena::testing::survivors;
using arena::testing::unique_marker;

// ---- schedules -------------------------------------------------------------

TEST(Schedule, RoundRobinPlaysEveryPairInColourSwappedPairs) {
    const auto c = testing::bare_config(5, 4);
    const auto s = make_schedule(c);
    ASSERT_EQ(s.size(), 10u * 4u);
    std::map<std::pair<int, int>, int> by_colour;
    for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(s[i].index, static_cast<std::int64_t>(i));
        EXPECT_NE(s[i].first, s[i].second);
        ++by_colour[{s[i].first, s[i].second}];
        if (i % 2 == 1) {
            // The two games of a pair: consecutive, same pair number, colours swapped.
            EXPECT_EQ(s[i].pair, s[i - 1].pair);
            EXPECT_EQ(s[i].first, s[i - 1].second);
            EXPECT_EQ(s[i].second, s[i - 1].first);
            EXPECT_EQ(s[i].game_in_pair, 1);
        }
    }
    EXPECT_EQ(by_colour.size(), 20u);  // every ordered pair
    for (const auto& [k, n] : by_colour)
        EXPECT_EQ(n, 2) << k.first << "-" << k.second;
    EXPECT_EQ(s.back().pair, 19);
}

TEST(Schedule, GauntletPlaysTheChallengerAgainstEveryOther) {
    const auto c = testing::bare_config(4, 6, 1, ScheduleType::kGauntlet);
    const auto s = make_schedule(c);
    ASSERT_EQ(s.size(), 3u * 6u);
    std::map<int, int> opponents;
    for (const auto& p : s) {
        EXPECT_TRUE(p.first == 2 || p.second == 2);
        ++opponents[p.first == 2 ? p.second : p.first];
    }
    EXPECT_EQ(opponents, (std::map<int, int>{{0, 6}, {1, 6}, {3, 6}}));
}

TEST(Schedule, RoundsRepeatTheSchedule) {
    auto c = testing::bare_config(3, 2);
    c.rounds = 3;
    const auto s = make_schedule(c);
    ASSERT_EQ(s.size(), 3u * 2u * 3u);
    EXPECT_EQ(s.back().round, 2);
}

TEST(Schedule, PairSetupIsDeterministicAndSharedByThePair) {
    auto c = testing::bare_config(3, 2);
    c.game_params = {{"variant", "tsinghua"}};
    c.openings.random_plies = 3;
    std::set<games::Params> boards;
    for (int pair = 0; pair < 20; ++pair) {
        const auto a = pair_setup(c, pair);
        const auto b = pair_setup(c, pair);
        EXPECT_EQ(a.board, b.board);
        EXPECT_EQ(a.opening, b.opening);
        EXPECT_EQ(a.opening.size(), 3u);
        boards.insert(a.board);
    }
    EXPECT_GT(boards.size(), 10u);  // boards differ between pairs
    c.seed = 2;
    EXPECT_NE(pair_setup(c, 0).board, testing::bare_config(3, 2).game_params);
}

TEST(Schedule, FileOpeningsAreUsedInOrderFromASeededStart) {
    auto c = testing::bare_config(2, 2);
    c.openings.lines = {{"1", "2"}, {"3", "4"}, {"5"}};
    std::vector<std::vector<games::Move>> seen;
    for (int pair = 0; pair < 6; ++pair)
        seen.push_back(pair_setup(c, pair).opening);
    // The second pass: each line again, then kPassPlies more plies.
    for (int pair = 0; pair < 3; ++pair) {
        ASSERT_EQ(seen[pair + 3].size(), seen[pair].size() + kPassPlies);
        EXPECT_TRUE(std::equal(seen[pair].begin(), seen[pair].end(), seen[pair + 3].begin()));
    }
    EXPECT_NE(seen[0], seen[1]);
    EXPECT_NE(seen[1], seen[2]);
}

// ---- arena run -------------------------------------------------------------

class RunTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::path(::testing::TempDir()) / ("run_" + unique_marker());
        fs::create_directories(dir_);
        // Every bot logs to this file: its path marks the bots' processes.
        marker_ = (dir_ / "bots.log").string();
    }
    void TearDown() override { fs::remove_all(dir_); }

    // A round-robin of deterministic random bots; `extra` is appended to each
    // bot's command. The marker lets the test find every bot process.
    fs::path write_config(const std::string& name, int bots, int games_per_pair,
                          const std::string& extra = "", const std::string& more = "") {
        const auto path = dir_ / (name + ".yaml");
        std::ofstream out(path);
        out << "name: " << name << "\n"
            << "game: { name: connect4 }\n"
            << "time: { move_ms: 2000 }\n"
            << "schedule: { type: round-robin, games_per_pair: " << games_per_pair << " }\n"
            << "openings: { random_plies: 2 }\n"
            << "seed: 7\n"
            << "database: " << (dir_ / (name + ".db")).string() << "\n"
            << more << "bots:\n";
        for (int i = 0; i < bots; ++i) {
            out << "  - { name: bot" << i << ", command: " << bin("bots/misbehave") << " --seed "
                << (i + 1) << " " << extra << ", args: [--log, " << marker_ << "] }\n";
        }
        return path;
    }

    testing::ArenaResult run(const std::vector<std::string>& args) {
        return testing::run_arena(dir_, args);
    }

    static std::string slurp(const fs::path& p) {
        std::ifstream in(p);
        return {std::istreambuf_iterator<char>(in), {}};
    }

    // Stored games of the only tournament: schedule index -> (players, result).
    static std::map<std::int64_t, std::string> stored_games(const fs::path& db) {
        store::ResultsStore store(db);
        const auto ts = store.tournaments();
        std::map<std::int64_t, std::string> games;
        if (ts.size() != 1) {
            ADD_FAILURE() << db << " holds " << ts.size() << " tournaments, not 1";
            return games;
        }
        for (const auto& g : store.games(ts[0].id)) {
            const bool fresh = games
                                   .emplace(g.slot.index, g.first + " " + g.second + " " +
                                                              g.result + " " + g.termination)
                                   .second;
            EXPECT_TRUE(fresh) << "game " << g.slot.index << " stored twice";
        }
        return games;
    }

    fs::path dir_;
    std::string marker_;
};

// The first row of `sql` on the database, its columns joined by '|'; nullopt
// when the file, a table or the row is not there. Read-only: the test itself
// never creates, migrates or repairs what a killed run left.
std::optional<std::string> query_row(const fs::path& db, const std::string& sql) {
    sqlite3* handle = nullptr;
    std::optional<std::string> row;
    if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
            sqlite3_step(stmt) == SQLITE_ROW) {
            row.emplace();
            for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
                const auto* text = sqlite3_column_text(stmt, i);
                if (i > 0) *row += '|';
                *row += text != nullptr ? reinterpret_cast<const char*>(text) : "NULL";
            }
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(handle);
    return row;
}

// Games stored so far in a database that a killed run may have left at any
// point of its creation: 0 when it holds no games table or tournament yet.
std::size_t games_stored_now(const fs::path& db) {
    const auto count = query_row(db, "SELECT count(*) FROM games");
    return count ? std::stoul(*count) : 0;
}

TEST_F(RunTest, PlaysTheScheduleAndStoresEveryGameAndMove) {
    const auto config = write_config("full", 3, 4);
    const auto r = run({"run", config.string(), "--concurrency", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("elo"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("crosstable"), std::string::npos) << r.out;

    // Reopen the database and check it.
    store::ResultsStore store(dir_ / "full.db");
    const auto t = store.find_tournament("full");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->status, "finished");
    EXPECT_EQ(t->spec.total_games, 12);
    const auto games = store.games(t->id);
    ASSERT_EQ(games.size(), 12u);
    for (std::size_t i = 0; i < games.size(); ++i) {
        EXPECT_EQ(games[i].slot.index, static_cast<std::int64_t>(i));
        EXPECT_EQ(games[i].termination, "normal");
        const auto g = store.load_game(games[i].id);
        ASSERT_TRUE(g.has_value());
        EXPECT_EQ(static_cast<int>(g->moves.size()), games[i].plies);
        EXPECT_TRUE(g->moves[0].by_arena);  // the 2-ply opening
        EXPECT_TRUE(g->moves[1].by_arena);
        EXPECT_FALSE(g->moves[2].by_arena);
        EXPECT_EQ(g->params, "rows=6 cols=7 connect=4");
    }
    // Both games of each pair share their opening.
    for (std::size_t i = 0; i + 1 < games.size(); i += 2)
        EXPECT_EQ(games[i].slot.opening, games[i + 1].slot.opening);
    const auto ratings = store.ratings(t->id);
    EXPECT_EQ(ratings.size(), 3u);
    EXPECT_EQ(store.bots(t->id).size(), 3u);
    EXPECT_EQ(survivors(marker_), std::vector<int>{});
}

// A bot waiting in the pool for its next game is frozen too, by the game
// running meanwhile. `ponder` burns CPU whenever it is not reading; it is idle
// while `a` and `b` play their games (20 ms a move). Its CPU time, from its own
// info lines, hardly grows from its last move before those games to its first
// after them. No timing is asserted, only where the CPU went.
TEST_F(RunTest, ABotWaitingForItsNextGameIsFrozen) {
    const auto path = dir_ / "pool.yaml";
    {
        const auto misbehave = bin("bots/misbehave");
        std::ofstream out(path);
        out << "name: pool\n"
            << "game: { name: connect4 }\n"
            << "time: { move_ms: 2000 }\n"
            << "schedule: { type: round-robin, games_per_pair: 2, rounds: 2 }\n"
            << "concurrency: 1\n"
            << "database: " << (dir_ / "pool.db").string() << "\n"
            << "bots:\n"
            << "  - { name: ponder, command: " << misbehave << " --mode ponder }\n"
            << "  - { name: a, command: " << misbehave << " --mode sleep --sleep-ms 20 }\n"
            << "  - { name: b, command: " << misbehave << " --mode sleep --sleep-ms 20 }\n";
    }
    const auto r = run({"run", path.string()});
    ASSERT_EQ(r.status, 0) << r.err;

    store::ResultsStore store(dir_ / "pool.db");
    const auto t = store.find_tournament("pool");
    ASSERT_TRUE(t.has_value());
    // ponder's CPU time at its first and last move of each of its games, and
    // how long the games without it ran since its previous game.
    struct Seen {
        long long first_ms = -1, last_ms = -1;
        std::int64_t idle_games_us = 0;
    };
    std::vector<Seen> seen;
    std::int64_t idle_us = 0;
    for (const auto& g : store.games(t->id)) {
        const auto game = store.load_game(g.id);
        ASSERT_TRUE(game.has_value());
        const int side = g.first == "ponder" ? 1 : g.second == "ponder" ? 2 : 0;
        if (side == 0) {
            idle_us += game->summary.duration_us;
            continue;
        }
        Seen s;
        s.idle_games_us = std::exchange(idle_us, 0);
        for (const auto& m : game->moves) {
            if (m.side != side) continue;
            for (const auto& info : m.info) {
                if (!info.starts_with("cpu_ms=")) continue;
                const long long ms = std::stoll(info.substr(7));
                if (s.first_ms < 0) s.first_ms = ms;
                s.last_ms = ms;
            }
        }
        ASSERT_GE(s.first_ms, 0) << "game " << g.slot.index;
        seen.push_back(s);
    }
    bool idle_seen = false;
    for (std::size_t i = 1; i < seen.size(); ++i) {
        if (seen[i].idle_games_us < 300'000) continue;
        idle_seen = true;
        const long long grew = seen[i].first_ms - seen[i - 1].last_ms;
        std::cout << "[ cpu      ] ponder waited through " << seen[i].idle_games_us / 1000
                  << " ms of other games and used " << grew << " ms of CPU\n";
        EXPECT_LT(grew * 4, seen[i].idle_games_us / 1000);
    }
    EXPECT_TRUE(idle_seen) << "the schedule never left ponder waiting";
}

// Every line a bot process receives is appended to the marker log, so its
// `arena 1` lines count the processes started.
TEST_F(RunTest, RestartPerGameStartsTwoProcessesPerGameWithTheSameResults) {
    const auto count_handshakes = [&] {
        const std::string log = slurp(marker_);
        int n = 0;
        for (std::size_t at = log.find("arena 1\n"); at != std::string::npos;
             at = log.find("arena 1\n", at + 1))
            ++n;
        return n;
    };
    const auto reused = write_config("reused", 3, 4);
    ASSERT_EQ(run({"run", reused.string(), "--concurrency", "2"}).status, 0);
    EXPECT_LE(count_handshakes(), 6);  // at most one process per bot and worker
    fs::remove(marker_);
    const auto fresh = write_config("fresh", 3, 4, "", "bot_defaults: { restart: per-game }\n");
    const auto r = run({"run", fresh.string(), "--concurrency", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_handshakes(), 24);  // 12 games, two fresh processes each
    EXPECT_EQ(stored_games(dir_ / "fresh.db"), stored_games(dir_ / "reused.db"));
    EXPECT_EQ(survivors(marker_), std::vector<int>{});
}

TEST_F(RunTest, RerunningAFinishedTournamentOnlyPrintsItsStandings) {
    const auto config = write_config("again", 2, 2);
    ASSERT_EQ(run({"run", config.string()}).status, 0);
    const auto before = stored_games(dir_ / "again.db");
    const auto r = run({"run", config.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("game 1/"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bot0"), std::string::npos) << r.out;
    EXPECT_EQ(stored_games(dir_ / "again.db"), before);
}

// What decides the stored games may not change (more games, bots and
// rounds may: tests/growth_test.cpp).
TEST_F(RunTest, AChangedConfigIsRefusedWithWhatChanged) {
    const auto config = write_config("changing", 2, 2);
    ASSERT_EQ(run({"run", config.string()}).status, 0);
    std::string text = slurp(config);
    text.replace(text.find("move_ms: 2000"), 13, "move_ms: 3000");
    std::ofstream(config) << text;
    const auto r = run({"run", config.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no longer matches tournament 'changing'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("was 'time: move_ms=2000"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("now 'time: move_ms=3000"), std::string::npos) << r.err;
}

TEST_F(RunTest, InvalidConfigWritesNothing) {
    const auto path = dir_ / "bad.yaml";
    std::ofstream(path) << "name: bad\ngame: { name: connect4 }\nconcurency: 2\ndatabase: "
                        << (dir_ / "bad.db").string()
                        << "\nbots:\n  - { name: a, command: " << bin("bots/random")
                        << " }\n  - { name: b, command: " << bin("bots/random") << " }\n";
    const auto r = run({"run", path.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(path.string() + ":3:1: unknown key 'concurency' (did you mean "
                                         "'concurrency'?)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "bad.db"));
}

// The issue's acceptance test: 4 bots x 10 games per pair at concurrency 2,
// killed with SIGKILL halfway, then run again: exactly 60 games, each once,
// and the same results as a run that was never interrupted.
TEST_F(RunTest, KillNineHalfwayThenResumeGivesTheUninterruptedResults) {
    const auto reference = write_config("reference", 4, 10);
    ASSERT_EQ(run({"run", reference.string(), "--concurrency", "2"}).status, 0);
    const auto expected = stored_games(dir_ / "reference.db");
    ASSERT_EQ(expected.size(), 60u);

    const auto config = write_config("resumed", 4, 10, "--mode sleep --sleep-ms 10");
    const auto db = dir_ / "resumed.db";
    testing::ArenaProcess arena(dir_, {"run", config.string(), "--concurrency", "2"});
    // Wait until about half the games are stored, then kill -9.
    const auto give_up = std::chrono::steady_clock::now() + 120s;
    while (std::chrono::steady_clock::now() < give_up && games_stored_now(db) < 25)
        std::this_thread::sleep_for(20ms);
    ASSERT_EQ(kill(arena.pid(), SIGKILL), 0);
    const auto killed = arena.wait();
    ASSERT_EQ(killed.status, 128 + SIGKILL);
    const auto partial = stored_games(db);
    ASSERT_GE(partial.size(), 25u);
    ASSERT_LT(partial.size(), 60u) << "the run finished before it could be killed";

    const auto r = run({"run", config.string(), "--concurrency", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto resumed = stored_games(db);
    EXPECT_EQ(resumed.size(), 60u);
    EXPECT_EQ(resumed, expected);
    // The games stored before the kill were kept, not replayed.
    for (const auto& [index, game] : partial)
        EXPECT_EQ(resumed.at(index), game);
    EXPECT_EQ(survivors(marker_), std::vector<int>{});
}

// kill -9 at twenty random moments of a concurrency-2 tournament: the
// database stays intact and, once the run completes, holds every scheduled
// game exactly once.
TEST_F(RunTest, TwentyKillNinesAtRandomMomentsLoseNothing) {
    const auto config = write_config("killed", 4, 10, "--mode sleep --sleep-ms 20");
    const auto db = dir_ / "killed.db";
    std::mt19937 rng(12345);
    int kills = 0;
    for (int attempt = 0; attempt < 200 && kills < 20; ++attempt) {
        testing::ArenaProcess arena(dir_, {"run", config.string(), "--concurrency", "2"});
        std::this_thread::sleep_for(std::chrono::milliseconds(50 + rng() % 400));
        if (kill(arena.pid(), SIGKILL) == 0 && arena.wait().status == 128 + SIGKILL) ++kills;
        // A kill may come before the tournament, or even the schema, exists.
        if (games_stored_now(db) == 60u) break;
    }
    EXPECT_GE(kills, 20);
    const auto r = run({"run", config.string(), "--concurrency", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto games = stored_games(db);  // also checks that no index is stored twice
    ASSERT_EQ(games.size(), 60u);
    EXPECT_EQ(games.begin()->first, 0);
    EXPECT_EQ(games.rbegin()->first, 59);
    store::ResultsStore store(db);
    EXPECT_EQ(store.find_tournament("killed")->status, "finished");
}

// ---- kill -9 while the database is created ----------------------------------

// Whether a system call about to run changes a file. A process killed just
// before each of them in turn leaves its files in every state they pass
// through (what it writes through shared memory, SQLite's -shm index, changes
// between two calls and is checksummed by SQLite).
bool changes_a_file(const __ptrace_syscall_info& call) {
    const auto nr = static_cast<long>(call.entry.nr);
    if (nr == SYS_openat) return (call.entry.args[2] & (O_CREAT | O_TRUNC)) != 0;
#ifdef SYS_open
    if (nr == SYS_open) return (call.entry.args[1] & (O_CREAT | O_TRUNC)) != 0;
#endif
    for (const long writes : {
             SYS_write,
             SYS_pwrite64,
             SYS_writev,
             SYS_pwritev,
             SYS_pwritev2,
             SYS_fsync,
             SYS_fdatasync,
             SYS_truncate,
             SYS_ftruncate,
             SYS_fallocate,
             SYS_unlinkat,
             SYS_renameat2,
             SYS_mkdirat,
#ifdef SYS_creat
             SYS_creat,
#endif
#ifdef SYS_unlink
             SYS_unlink,
#endif
#ifdef SYS_rename
             SYS_rename,
#endif
#ifdef SYS_renameat
             SYS_renameat,
#endif
#ifdef SYS_mkdir
             SYS_mkdir,
#endif
         }) {
        if (nr == writes) return true;
    }
    return false;
}

bool starts_a_thread_or_process(const __ptrace_syscall_info& call) {
    const auto nr = static_cast<long>(call.entry.nr);
    return nr == SYS_clone
#ifdef SYS_clone3
           || nr == SYS_clone3
#endif
#ifdef SYS_fork
           || nr == SYS_fork
#endif
#ifdef SYS_vfork
           || nr == SYS_vfork
#endif
        ;
}

enum class Traced {
    kKilled,               // killed before its nth file change
    kKilledAtFirstThread,  // it started a thread or process before that: killed there
    kEnded,                // it ended by itself
    kNotPermitted,         // ptrace is not permitted here
};

// Kills `pid`, stopped under ptrace, and reaps it.
void kill_traced(pid_t pid) {
    ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) == pid && !WIFEXITED(status) && !WIFSIGNALED(status)) {
    }
}

// Runs `arena args...` (output to `out`, `err`) under ptrace and kills it with
// SIGKILL just before its `n`th system call that changes a file (1-based).
// `arena run` opens or creates the database and the tournament on its main
// thread before it starts any thread or bot; at its first thread or process
// it is killed there, so only one thread is ever traced.
Traced kill_before_file_change(const std::vector<std::string>& args, int n, const fs::path& out,
                               const fs::path& err) {
    std::vector<std::string> argv{bin("bin/arena")};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv)
        cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const int in_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) ::_exit(126);
        if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) ::_exit(125);
        ::raise(SIGSTOP);
        ::execv(cargv[0], cargv.data());
        ::_exit(127);
    }
    ::close(in_fd);
    ::close(out_fd);
    ::close(err_fd);
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return Traced::kNotPermitted;
    if (!WIFSTOPPED(status)) return Traced::kNotPermitted;  // PTRACE_TRACEME failed
    if (::ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) != 0) {
        kill_traced(pid);
        return Traced::kNotPermitted;
    }
    int changes = 0;
    int deliver = 0;
    for (;;) {
        if (::ptrace(PTRACE_SYSCALL, pid, nullptr, deliver) != 0) {
            kill_traced(pid);
            return Traced::kNotPermitted;
        }
        deliver = 0;
        if (::waitpid(pid, &status, 0) != pid || WIFEXITED(status) || WIFSIGNALED(status))
            return Traced::kEnded;
        const int signal = WSTOPSIG(status);
        if (signal != (SIGTRAP | 0x80)) {
            // The SIGTRAP of execve is the tracer's; any other signal goes on.
            if (signal != SIGTRAP) deliver = signal;
            continue;
        }
        __ptrace_syscall_info call{};
        if (::ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof call, &call) <= 0) {
            kill_traced(pid);
            return Traced::kNotPermitted;  // a kernel older than 5.3
        }
        if (call.op != PTRACE_SYSCALL_INFO_ENTRY) continue;
        if (starts_a_thread_or_process(call)) {
            kill_traced(pid);
            return Traced::kKilledAtFirstThread;
        }
        if (changes_a_file(call) && ++changes == n) {
            kill_traced(pid);
            return Traced::kKilled;
        }
    }
}

// kill -9 at every step of creating a new database: just before each system
// call by which `arena run` changes a file (every third one in the sanitizer
// build), from its start until it has created the tournament and starts its
// first thread. After each kill the
// same command runs the tournament to its end on what the kill left, and the
// database, reopened, holds it finished with every game exactly once. Where
// ptrace is not permitted, the kills come after delays from 200 us to tens of
// milliseconds instead.
TEST_F(RunTest, KillNineAtEveryStepOfCreatingTheDatabaseThenResume) {
    const auto config = write_config("created", 2, 2);
    const auto db = dir_ / "created.db";
    const std::vector<std::string> command{"run", config.string()};
    const auto remove_database = [&] {
        for (const char* suffix : {"", "-wal", "-shm", "-journal", ".lock"})
            fs::remove(db.string() + suffix);
    };
    const auto resume_and_check = [&](const std::string& when) {
        SCOPED_TRACE(when);
        const auto r = run(command);
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(query_row(db, "SELECT count(*), min(name), min(status) FROM tournaments"),
                  "1|created|finished");
        EXPECT_EQ(query_row(db,
                            "SELECT count(*), count(DISTINCT game_index), min(game_index), "
                            "max(game_index) FROM games"),
                  "2|2|0|1");
        EXPECT_EQ(query_row(db,
                            "SELECT count(*) FROM games AS g WHERE plies <> "
                            "(SELECT count(*) FROM moves AS m WHERE m.game = g.id)"),
                  "0");
        EXPECT_EQ(query_row(db, "PRAGMA integrity_check"), "ok");
    };

    // Each kill and resume takes the sanitizer build five times as long.
#ifdef ARENA_SANITIZE
    constexpr int kStride = 3;
#else
    constexpr int kStride = 1;
#endif
    int kills = 0;
    bool traced = true;
    for (int n = 1; n <= 2000; n += kStride) {
        remove_database();
        const auto stop = kill_before_file_change(command, n, dir_ / "out.txt", dir_ / "err.txt");
        if (stop == Traced::kNotPermitted) {
            traced = false;
            break;
        }
        ASSERT_NE(stop, Traced::kEnded) << "arena run ended by itself under ptrace:\n"
                                        << slurp(dir_ / "err.txt");
        if (stop == Traced::kKilledAtFirstThread) {
            // Every step of the creation came before: the tournament is there.
            EXPECT_EQ(query_row(db, "SELECT count(*) FROM tournaments"), "1")
                << "arena run started a thread or process before it had created the "
                   "tournament, so these kills no longer cover the whole creation";
            resume_and_check("killed as it started its first thread");
            break;
        }
        ++kills;
        resume_and_check("killed before its file change " + std::to_string(n));
        if (HasFailure()) return;
    }
    if (!traced) {
        for (std::chrono::microseconds delay = 200us; delay <= arena::testing::scaled(60ms);
             delay = delay * 5 / 4) {
            remove_database();
            testing::ArenaProcess arena(dir_, command);
            std::this_thread::sleep_for(delay);
            ::kill(arena.pid(), SIGKILL);
            static_cast<void>(arena.wait());  // it may have finished first
            ++kills;
            resume_and_check("killed " + std::to_string(delay.count()) + " us after its start");
            if (HasFailure()) return;
        }
    }
    std::cout << "[ kills    ] " << kills
              << (traced ? " (before each file change, by ptrace)" : " (after delays)") << "\n";
    EXPECT_GE(kills, traced ? 20 : 10);
    EXPECT_EQ(survivors(marker_), std::vector<int>{});
}

TEST_F(RunTest, CtrlCStopsCleanlyAndTheRestIsPlayedLater) {
    const auto config = write_config("interrupted", 3, 20, "--mode sleep --sleep-ms 20");
    const auto db = dir_ / "interrupted.db";
    testing::ArenaProcess arena(dir_, {"run", config.string(), "--concurrency", "2"});
    // Interrupted once it has stored a game, however slowly it starts.
    const auto give_up = std::chrono::steady_clock::now() + 120s;
    while (std::chrono::steady_clock::now() < give_up && games_stored_now(db) == 0)
        std::this_thread::sleep_for(20ms);
    ASSERT_EQ(kill(arena.pid(), SIGINT), 0);
    const auto r = arena.wait();
    EXPECT_EQ(r.status, 130) << r.err;
    EXPECT_EQ(survivors(marker_), std::vector<int>{});
    std::size_t stored = 0;
    {
        store::ResultsStore store(db);
        const auto t = store.find_tournament("interrupted");
        ASSERT_TRUE(t.has_value());
        EXPECT_EQ(t->status, "interrupted");
        stored = store.games(t->id).size();
        EXPECT_LT(stored, 60u);
    }
    // It says how many games are stored, where, and that the same command
    // resumes (issue 41 item 16).
    const auto left = std::to_string(60 - stored);
    EXPECT_NE(
        r.err.find("arena run: interrupted: " + std::to_string(stored) + " of 60 games stored in " +
                   db.string() + "; run the same command again to play the other " + left),
        std::string::npos)
        << r.err;
    const auto again = run({"run", config.string(), "--concurrency", "2"});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(stored_games(db).size(), 60u);
    // The resumed run says so, and how many games are left.
    EXPECT_NE(
        again.err.find("arena run: resuming tournament 'interrupted': " + std::to_string(stored) +
                       " of 60 games stored, " + left + " left to play"),
        std::string::npos)
        << again.err;
    const auto done = run({"run", config.string()});
    ASSERT_EQ(done.status, 0) << done.err;
    EXPECT_NE(done.err.find("all 60 games stored, nothing left to play"), std::string::npos)
        << done.err;
}

// Issue 41 items 11 and 17: each game line of `arena run` gives the game's
// stored id (what `arena games` lists and `show` and `log` take) as its one
// number, and what the bots sent (here terminal escapes as move text and
// on stderr) only escaped.
TEST_F(RunTest, GameLinesGiveTheStoredIdAndEscapeWhatTheBotsSent) {
    const auto config = write_config("lines", 3, 2, "--mode escape-move --at-ply 3");
    const auto r = run({"run", config.string(), "--concurrency", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    for (const auto* text : {&r.out, &r.err}) {
        EXPECT_EQ(text->find('\x1b'), std::string::npos) << *text;
        EXPECT_EQ(text->find('\x07'), std::string::npos) << *text;
    }
    EXPECT_NE(r.out.find("not a move of this game: '\\x1b]0;TITLE\\x07\\x1b[1;31m'"),
              std::string::npos)
        << r.out;
    store::ResultsStore store(dir_ / "lines.db");
    const auto t = store.find_tournament("lines");
    ASSERT_TRUE(t.has_value());
    std::map<std::int64_t, std::string> players;
    for (const auto& g : store.games(t->id))
        players[g.id] = g.first + " vs " + g.second;
    ASSERT_EQ(players.size(), 6u);
    std::set<std::int64_t> seen;
    int stored = 0;
    for (std::size_t at = 0; (at = r.out.find("game #", at)) != std::string::npos; ++at) {
        ASSERT_TRUE(at == 0 || r.out[at - 1] == '\n') << r.out;
        const auto id = std::stoll(r.out.substr(at + 6));
        ASSERT_TRUE(players.contains(id)) << r.out;
        seen.insert(id);
        ++stored;
        const auto line = r.out.substr(at, r.out.find('\n', at) - at);
        // The count is progress: the n-th line says n of 6 stored.
        EXPECT_NE(line.find(" (" + std::to_string(stored) + "/6 stored): " + players[id] + "  "),
                  std::string::npos)
            << line;
    }
    EXPECT_EQ(seen.size(), 6u) << r.out;
}

// With a bound on live processes, the games are played block by block:
// every game once, each group of blocks in schedule order, and the number of
// times a bot comes back after its block was left stays small.
TEST(PlayOrder, GamesBetweenTwoBlocksArePlayedTogether) {
    Config config;
    config.game = "connect4";
    for (int i = 0; i < 20; ++i) {
        BotConfig bot;
        bot.name = "b" + std::to_string(i);
        config.bots.push_back(bot);
    }
    const auto schedule = make_schedule(config);
    auto ordered = schedule;
    order_for_capacity(ordered, 14, 1);  // blocks of (14 - 2) / 2 = 6 bots
    ASSERT_EQ(ordered.size(), schedule.size());
    std::set<std::int64_t> indices;
    for (const auto& p : ordered)
        indices.insert(p.index);
    EXPECT_EQ(indices.size(), schedule.size());
    const auto blocks = [](const Pairing& p) {
        return std::pair(std::min(p.first, p.second) / 6, std::max(p.first, p.second) / 6);
    };
    for (std::size_t i = 1; i < ordered.size(); ++i) {
        EXPECT_LE(blocks(ordered[i - 1]), blocks(ordered[i])) << i;
        if (blocks(ordered[i - 1]) == blocks(ordered[i])) {
            EXPECT_LT(ordered[i - 1].index, ordered[i].index) << i;
        }
    }
    // Everything fits, or no bound: the schedule order stays.
    auto same = schedule;
    order_for_capacity(same, 40, 2);
    EXPECT_EQ(same.front().index, 0);
    for (std::size_t i = 0; i < same.size(); ++i)
        EXPECT_EQ(same[i].index, schedule[i].index);
    order_for_capacity(same, 0, 2);
    for (std::size_t i = 0; i < same.size(); ++i)
        EXPECT_EQ(same[i].index, schedule[i].index);
}

}  // namespace
}  // namespace arena::tournament
