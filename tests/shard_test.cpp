// Shards and merging: how `arena run --shard K/N` cuts the schedule (pure),
// and end to end a 4-bot round-robin of deterministic bots played whole and
// as 4 shards by hand, merged with `arena merge`: the merged database equals
// the whole run game for game and move for move, and holds every row of the
// shards; merging again adds nothing; a shard of another config or another
// build of a bot is refused naming the file; a game with two results is an
// error naming both files; a merge during a running shard takes its finished
// games and a later one the rest; a new output gets its name only once it is
// whole; bad --shard values and adaptive schedules get one clear message.

#include "arena/tournament/shard.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "fixtures.hpp"
#include "game_rows.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArenaOptions;
using testing::ArenaResult;
using testing::bin;
using testing::query;
using testing::query_one;
using testing::Rows;

// ---- the cut (pure) -----------------------------------------------------------

TEST(ShardCut, EveryPairInExactlyOneShardContiguousAndNeverSplit) {
    for (const auto& config : {testing::bare_config(4, 2, 1), testing::bare_config(5, 4, 3),
                               testing::bare_config(2, 2, 1)}) {
        const auto schedule = make_schedule(config);
        const auto pairs = static_cast<int>(schedule.size()) / 2;
        for (const int n : {1, 2, 3, 4, 7, pairs, pairs + 3}) {
            std::vector<Pairing> joined;
            std::size_t smallest = schedule.size(), largest = 0;
            for (int k = 1; k <= n; ++k) {
                const auto part = shard_games(schedule, {k, n});
                // Whole pairs only: each pair's two games, together.
                ASSERT_EQ(part.size() % 2, 0u);
                for (std::size_t i = 0; i < part.size(); i += 2) {
                    EXPECT_EQ(part[i].pair, part[i + 1].pair);
                    EXPECT_EQ(part[i].game_in_pair, 0);
                    EXPECT_EQ(part[i + 1].game_in_pair, 1);
                }
                smallest = std::min(smallest, part.size());
                largest = std::max(largest, part.size());
                joined.insert(joined.end(), part.begin(), part.end());
            }
            // In order, the shards are the schedule itself: contiguous and complete.
            ASSERT_EQ(joined.size(), schedule.size()) << "N=" << n;
            for (std::size_t i = 0; i < joined.size(); ++i) {
                EXPECT_EQ(joined[i].index, schedule[i].index);
                EXPECT_EQ(joined[i].pair, schedule[i].pair);
                EXPECT_EQ(joined[i].first, schedule[i].first);
                EXPECT_EQ(joined[i].second, schedule[i].second);
            }
            // Even: the sizes differ by one pair at most.
            EXPECT_LE(largest - smallest, 2u) << "N=" << n;
        }
    }
}

TEST(ShardCut, ParsesKOfNAndNamesWhatIsWrong) {
    std::string problem;
    const auto s = parse_shard("3/8", problem);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->index, 3);
    EXPECT_EQ(s->count, 8);
    ASSERT_TRUE(parse_shard("1/1", problem));
    for (const char* bad : {"0/4", "5/4", "x/y", "1/0", "4", "", "/4", "1/", "-1/4", "1/4/2",
                            "+1/4", "1/ 4", "99999999999/4"}) {
        problem.clear();
        EXPECT_FALSE(parse_shard(bad, problem)) << bad;
        EXPECT_NE(problem.find("--shard"), std::string::npos) << bad << ": " << problem;
    }
}

TEST(ShardCut, DatabaseNextToTheTournaments) {
    EXPECT_EQ(shard_database("results/demo.db", {2, 4}), fs::path("results/demo.shard-2-of-4.db"));
    EXPECT_EQ(shard_database("x", {1, 1}), fs::path("x.shard-1-of-1"));
}

// ---- end to end ------------------------------------------------------------------

// A round-robin of c4-alphabeta at fixed depths 1 to 4: the same moves
// every time (its choices are seeded per position), with random openings
// drawn from the seed, so that the games differ.
std::string config_text(const std::string& name, const std::string& bot4 = "",
                        const std::string& extra = "") {
    std::string text = "name: " + name +
                       "\n"
                       "game: { name: connect4, rows: 6, cols: 7 }\n"
                       "time: { move_ms: 5000 }\n"
                       "schedule: { type: round-robin, games_per_pair: 4 }\n"
                       "openings: { random_plies: 2 }\n"
                       "seed: 11\n"
                       "transcript: true\n" +
                       extra + "bots:\n";
    for (int depth = 1; depth <= 4; ++depth) {
        const std::string command =
            depth == 4 && !bot4.empty()
                ? bot4
                : bin("bots/c4-alphabeta") + " --depth " + std::to_string(depth);
        text += "  - { name: d" + std::to_string(depth) + ", command: " + command + " }\n";
    }
    return text;
}

class ShardRun : public ::testing::Test {
  protected:
    fs::path write(const std::string& file, const std::string& text) {
        const auto path = dir_.path() / file;
        std::ofstream(path) << text;
        return path;
    }
    ArenaResult arena(const std::vector<std::string>& args) {
        ArenaOptions options;
        options.cwd = dir_.path();
        return testing::run_arena(dir_.path(), args, options);
    }
    fs::path path(const std::string& relative) const { return dir_.path() / relative; }

    testing::TempDir dir_{"shard_test"};
};

// Every stored column of every game and its rows, times included: what a
// merge must copy exactly.
const char* kGamesExactly =
    "SELECT g.game_index, g.round, g.pair_index, g.game_in_pair, f.name, s.name, g.opening, "
    "g.game, g.params, g.result, g.winner, g.termination, g.detail, g.plies, g.opening_plies, "
    "g.started_at, g.ended_at, g.duration_us, IFNULL(g.fault_after_us, '-'), g.moves_hash, "
    "IFNULL(g.first_peak_memory, '-'), IFNULL(g.second_peak_memory, '-') FROM games g JOIN bots "
    "f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot ORDER BY g.game_index";
const char* kMovesExactly =
    "SELECT g.game_index, m.ply, m.side, m.move, m.time_us, m.by_arena, IFNULL(m.info, '-') "
    "FROM moves m JOIN games g ON g.id = m.game ORDER BY g.game_index, m.ply";
const char* kLogs =
    "SELECT g.game_index, l.side, l.stderr FROM bot_logs l JOIN games g ON g.id = l.game "
    "ORDER BY g.game_index, l.side";
const char* kTranscripts =
    "SELECT g.game_index, t.side, t.lines FROM transcripts t JOIN games g ON g.id = t.game "
    "ORDER BY g.game_index, t.side";

// The rows of `sql` in every database, in order of their first column.
Rows union_of(const std::vector<fs::path>& dbs, const std::string& sql) {
    Rows all;
    for (const auto& db : dbs) {
        auto rows = query(db, sql);
        all.insert(all.end(), rows.begin(), rows.end());
    }
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return std::stoll(a[0]) < std::stoll(b[0]);
    });
    return all;
}

std::vector<fs::path> shard_files(const fs::path& dir, const std::string& name, int n) {
    std::vector<fs::path> files;
    for (int k = 1; k <= n; ++k)
        files.push_back(
            dir / "results" /
            (name + ".shard-" + std::to_string(k) + "-of-" + std::to_string(n) + ".db"));
    return files;
}

TEST_F(ShardRun, FourShardsMergedEqualTheWholeRunGameForGame) {
    const auto config = write("rr.yaml", config_text("rr"));
    const auto whole = arena({"run", config.string(), "--db", "whole.db", "-j", "2"});
    ASSERT_EQ(whole.status, 0) << whole.err;
    const auto whole_db = path("whole.db");
    ASSERT_EQ(query_one(whole_db, "SELECT count(*) FROM games"), "24");

    for (int k = 1; k <= 4; ++k) {
        const auto r =
            arena({"run", config.string(), "--shard", std::to_string(k) + "/4", "-j", "2"});
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.err.find("shard " + std::to_string(k) + " of 4"), std::string::npos) << r.err;
        // Its game lines give each game's place in the whole schedule.
        EXPECT_NE(r.out.find("(schedule position " + std::to_string(6 * (k - 1) + 1) + " of 24)"),
                  std::string::npos)
            << r.out;
    }
    const auto shards = shard_files(dir_.path(), "rr", 4);
    std::set<std::string> seen;
    std::int64_t next = 0;
    for (const auto& shard : shards) {
        ASSERT_TRUE(fs::exists(shard)) << shard;
        // 12 pairs in 4 shards: 3 pairs each, contiguous, following each other.
        const auto indices = query(shard, "SELECT game_index FROM games ORDER BY game_index");
        ASSERT_EQ(indices.size(), 6u) << shard;
        for (const auto& row : indices) {
            EXPECT_EQ(std::stoll(row[0]), next) << shard;
            ++next;
        }
        // The tournament as the whole run stores it: its total is the whole schedule's.
        EXPECT_EQ(query_one(shard, "SELECT total_games FROM tournaments"), "24");
        EXPECT_EQ(query_one(shard, "SELECT fingerprint FROM tournaments"),
                  query_one(whole_db, "SELECT fingerprint FROM tournaments"));
    }
    // A finished shard run again plays nothing and prints its standings.
    const auto again = arena({"run", config.string(), "--shard", "2/4"});
    ASSERT_EQ(again.status, 0) << again.err;
    for (const auto& line : testing::lines_of(again.out))
        EXPECT_FALSE(line.starts_with("game ")) << again.out;
    EXPECT_NE(again.out.find("rr: 6 of 24 games"), std::string::npos) << again.out;
    EXPECT_EQ(query_one(shards[1], "SELECT count(*) FROM games"), "6");

    std::vector<std::string> merge_args{"merge", "merged.db"};
    for (const auto& s : shards)
        merge_args.push_back(s.string());
    const auto merged = arena(merge_args);
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_NE(merged.out.find("tournament 'rr': 24 of 24 games, complete"), std::string::npos)
        << merged.out;
    const auto merged_db = path("merged.db");

    // Game for game and move for move, the whole run's.
    EXPECT_EQ(query(merged_db, testing::kGameRows), query(whole_db, testing::kGameRows));
    EXPECT_EQ(query(merged_db, testing::kMoveRows), query(whole_db, testing::kMoveRows));
    EXPECT_EQ(query_one(merged_db, "SELECT count(*) FROM moves"),
              query_one(whole_db, "SELECT count(*) FROM moves"));
    // And exactly the shards' rows: times, logs and transcripts included.
    EXPECT_EQ(query(merged_db, kGamesExactly), union_of(shards, kGamesExactly));
    EXPECT_EQ(query(merged_db, kMovesExactly), union_of(shards, kMovesExactly));
    EXPECT_EQ(query(merged_db, kLogs), union_of(shards, kLogs));
    const auto transcripts = query(merged_db, kTranscripts);
    EXPECT_EQ(transcripts.size(), 48u);
    EXPECT_EQ(transcripts, union_of(shards, kTranscripts));
    EXPECT_EQ(query(merged_db, "SELECT name, command, sha256, version FROM bots ORDER BY id"),
              query(whole_db, "SELECT name, command, sha256, version FROM bots ORDER BY id"));
    EXPECT_EQ(query_one(merged_db, "SELECT status FROM tournaments"), "finished");
    EXPECT_EQ(query(merged_db, "PRAGMA foreign_key_check"), Rows{});

    // The standings of the merged database are the whole run's.
    const auto standings_whole = arena({"standings", "whole.db"});
    const auto standings_merged = arena({"standings", "merged.db"});
    ASSERT_EQ(standings_merged.status, 0) << standings_merged.err;
    EXPECT_EQ(standings_merged.out, standings_whole.out);

    // Idempotent: merging every shard again (one of them twice) adds nothing.
    auto twice = merge_args;
    twice.push_back(shards[0].string());
    const auto again_merged = arena(twice);
    ASSERT_EQ(again_merged.status, 0) << again_merged.err;
    EXPECT_NE(again_merged.out.find(shards[0].string() + ": 0 games added, 6 already in merged.db"),
              std::string::npos)
        << again_merged.out;
    EXPECT_EQ(query(merged_db, kGamesExactly), union_of(shards, kGamesExactly));
    EXPECT_EQ(query(merged_db, kMovesExactly), union_of(shards, kMovesExactly));
    EXPECT_EQ(query(merged_db, kTranscripts), transcripts);

    // Shards merged into the whole run's database add nothing either: the same games.
    const auto into_whole = arena({"merge", "whole.db", shards[2].string()});
    ASSERT_EQ(into_whole.status, 0) << into_whole.err;
    EXPECT_EQ(query_one(whole_db, "SELECT count(*) FROM games"), "24");

    // A game of a shard with another result: an error that names both files,
    // and the input is not merged at all.
    fs::copy_file(shards[3], path("tampered.db"));
    const auto index = query_one(path("tampered.db"), "SELECT min(game_index) FROM games");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path("tampered.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           ("UPDATE games SET result = CASE result WHEN '1-0' THEN '0-1' ELSE "
                            "'1-0' END, winner = CASE winner WHEN 1 THEN 2 ELSE 1 END WHERE "
                            "game_index = " +
                            index)
                               .c_str(),
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    const auto partial =
        arena({"merge", "partial.db", shards[2].string(), shards[3].string(), "tampered.db"});
    EXPECT_EQ(partial.status, 1);
    EXPECT_NE(partial.err.find("game index " + index), std::string::npos) << partial.err;
    EXPECT_NE(partial.err.find("tampered.db"), std::string::npos) << partial.err;
    EXPECT_NE(partial.err.find(shards[3].string()), std::string::npos) << partial.err;
    EXPECT_FALSE(testing::looks_like_a_crash(partial.err)) << partial.err;
    // The inputs before it are merged; nothing of it is.
    EXPECT_EQ(query_one(path("partial.db"), "SELECT count(*) FROM games"), "12");
    // Not all of it: not finished, whatever the shards' own status.
    EXPECT_EQ(query_one(path("partial.db"), "SELECT status FROM tournaments"), "interrupted");
    const char* indices = "SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name";
    EXPECT_EQ(query(path("partial.db"), indices), query(whole_db, indices));
    // Against a database that held the game before the merge: named as such.
    const auto conflict = arena({"merge", "merged.db", "tampered.db"});
    EXPECT_EQ(conflict.status, 1);
    EXPECT_NE(conflict.err.find("merged.db (stored there before this merge)"), std::string::npos)
        << conflict.err;
    EXPECT_NE(conflict.err.find("tampered.db"), std::string::npos) << conflict.err;
}

TEST_F(ShardRun, AShardOfAnotherConfigOrBuildIsRefusedNamingTheFile) {
    const auto config = write("rr.yaml", config_text("rr"));
    ASSERT_EQ(arena({"run", config.string(), "--shard", "1/4"}).status, 0);
    // Another config: the fourth bot searches deeper.
    const auto other =
        write("other.yaml", config_text("rr", bin("bots/c4-alphabeta") + " --depth 5"));
    ASSERT_EQ(arena({"run", other.string(), "--shard", "2/4", "--db", "other.db"}).status, 0);
    const auto refused = arena({"merge", "m.db", "results/rr.shard-1-of-4.db", "other.db"});
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.err.find("other.db: tournament 'rr' is not the one in "
                               "results/rr.shard-1-of-4.db: its fingerprint differs"),
              std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("--depth 5"), std::string::npos) << refused.err;
    // Nothing was merged: the inputs are checked before anything is
    // written, and a refused merge into a new file leaves no file.
    EXPECT_FALSE(fs::exists(path("m.db")));
    EXPECT_FALSE(fs::exists(path("m.db.merging")));

    // The same config, but the fourth bot's program is another build.
    const auto program = path("bot");
    fs::copy_file(bin("bots/c4-alphabeta"), program);
    const auto built = write("built.yaml", config_text("b", program.string() + " --depth 2"));
    ASSERT_EQ(arena({"run", built.string(), "--shard", "1/2"}).status, 0);
    { std::ofstream(program, std::ios::app) << "another build"; }
    // Its own shard refuses to go on with another build.
    const auto resumed = arena({"run", built.string(), "--shard", "1/2"});
    EXPECT_EQ(resumed.status, 2);
    EXPECT_NE(resumed.err.find("the program of bot 'd4' changed"), std::string::npos)
        << resumed.err;
    ASSERT_EQ(arena({"run", built.string(), "--shard", "2/2"}).status, 0);
    const auto sha =
        arena({"merge", "b.db", "results/b.shard-1-of-2.db", "results/b.shard-2-of-2.db"});
    EXPECT_EQ(sha.status, 1);
    EXPECT_NE(sha.err.find("results/b.shard-2-of-2.db: tournament 'b' is not the one in "
                           "results/b.shard-1-of-2.db: the program of bot 'd4' differs: sha256"),
              std::string::npos)
        << sha.err;

    // A stored shard whose config changed is refused, not grown.
    auto more = config_text("rr");
    more.replace(more.find("games_per_pair: 4"), 17, "games_per_pair: 6");
    const auto grown = write("rr.yaml", more);
    const auto changed = arena({"run", grown.string(), "--shard", "1/4"});
    EXPECT_EQ(changed.status, 2);
    EXPECT_NE(changed.err.find("the config no longer matches it"), std::string::npos)
        << changed.err;
}

TEST_F(ShardRun, MergesWhileAShardRunsAndAgainLater) {
    // Slow moves, so that the merge comes during the run.
    const std::string slow = bin("bots/misbehave") + " --mode sleep --sleep-ms 10";
    std::string text =
        "name: slow\ngame: { name: connect4, rows: 4, cols: 4, connect: 3 }\n"
        "time: { move_ms: 2000 }\nschedule: { type: round-robin, games_per_pair: 6 }\n"
        "seed: 3\nbots:\n";
    for (const char* name : {"a", "b", "c"})
        text += std::string("  - { name: ") + name + ", command: " + slow + " }\n";
    const auto config = write("slow.yaml", text);
    ArenaOptions options;
    options.cwd = dir_.path();
    testing::ArenaProcess shard(dir_.path(), {"run", config.string(), "--shard", "1/1", "-j", "1"},
                                options);
    const auto db = path("results/slow.shard-1-of-1.db");
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    // Games stored so far; 0 while the database is not made yet.
    const auto stored = [&]() -> long long {
        try {
            return fs::exists(db) ? std::stoll("0" + query_one(db, "SELECT count(*) FROM games"))
                                  : 0;
        } catch (const std::exception&) {
            return 0;
        }
    };
    while (std::chrono::steady_clock::now() < deadline && stored() < 2)
        std::this_thread::sleep_for(20ms);
    const auto during = arena({"merge", "m.db", db.string()});
    ASSERT_EQ(during.status, 0) << during.err;
    const auto first = std::stoll(query_one(path("m.db"), "SELECT count(*) FROM games"));
    EXPECT_GE(first, 2);
    EXPECT_EQ(query(path("m.db"), "PRAGMA foreign_key_check"), Rows{});
    // Only whole games: each with all its moves.
    EXPECT_EQ(query_one(path("m.db"),
                        "SELECT count(*) FROM games g WHERE g.plies <> (SELECT count(*) FROM "
                        "moves m WHERE m.game = g.id)"),
              "0");
    const auto done = shard.wait();
    ASSERT_EQ(done.status, 0) << done.err;
    const auto after = arena({"merge", "m.db", db.string()});
    ASSERT_EQ(after.status, 0) << after.err;
    EXPECT_NE(after.out.find("18 of 18 games, complete"), std::string::npos) << after.out;
    EXPECT_EQ(query(path("m.db"), kMovesExactly), query(db, kMovesExactly));
}

TEST_F(ShardRun, ANewOutputGetsItsNameOnlyWhenWhole) {
    const auto config = write("rr.yaml", config_text("rr"));
    for (int k = 1; k <= 2; ++k)
        ASSERT_EQ(arena({"run", config.string(), "--shard", std::to_string(k) + "/2"}).status, 0);
    const auto shards = shard_files(dir_.path(), "rr", 2);
    // What a merge killed while it wrote a new merged.db leaves: no
    // merged.db, and its half-written file with a stale journal.
    write("merged.db.merging", "half a database");
    write("merged.db.merging-wal", "a stale journal");
    const auto merged = arena({"merge", "merged.db", shards[0].string(), shards[1].string()});
    ASSERT_EQ(merged.status, 0) << merged.err;
    const auto db = path("merged.db");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "24");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM moves"),
              std::to_string(std::stoll(query_one(shards[0], "SELECT count(*) FROM moves")) +
                             std::stoll(query_one(shards[1], "SELECT count(*) FROM moves"))));
    EXPECT_EQ(query_one(db, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(query(db, "PRAGMA foreign_key_check"), Rows{});
    // A results database like any other: WAL, readable while a run writes,
    // with every index (the merge makes one of them at its end).
    EXPECT_EQ(query_one(db, "PRAGMA journal_mode"), "wal");
    const char* indices = "SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name";
    EXPECT_EQ(query(db, indices), query(shards[0], indices));
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        EXPECT_FALSE(fs::exists(path(std::string("merged.db.merging") + suffix))) << suffix;

    // Another merge writing the same new database: refused, and nothing named.
    const int held = ::open(path("busy.db.merging").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(held, 0);
    ASSERT_EQ(::flock(held, LOCK_EX), 0);
    const auto busy = arena({"merge", "busy.db", shards[0].string()});
    EXPECT_EQ(busy.status, 1);
    EXPECT_NE(busy.err.find("busy.db: another arena merge is writing it"), std::string::npos)
        << busy.err;
    EXPECT_FALSE(fs::exists(path("busy.db")));
    ::close(held);
    const auto after = arena({"merge", "busy.db", shards[0].string()});
    ASSERT_EQ(after.status, 0) << after.err;
    EXPECT_EQ(query_one(path("busy.db"), "SELECT count(*) FROM games"), "12");
    EXPECT_FALSE(fs::exists(path("busy.db.merging")));

    // In a folder that is not there yet: made, as for any results database.
    const auto nested = arena({"merge", "out/all/merged.db", shards[1].string()});
    ASSERT_EQ(nested.status, 0) << nested.out << nested.err;
    EXPECT_EQ(query_one(path("out/all/merged.db"), "SELECT count(*) FROM games"), "12");
}

TEST_F(ShardRun, BadShardValuesAndAdaptiveSchedulesGetOneClearMessage) {
    const auto config = write("rr.yaml", config_text("rr"));
    for (const char* bad : {"0/4", "5/4", "x/y", "1/0"}) {
        const auto r = arena({"run", config.string(), "--shard", bad});
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(r.err.find("arena run: --shard"), 0u) << bad << ": " << r.err;
        EXPECT_NE(r.err.find(std::string("'") + bad + "'"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(path("results"))) << bad;
    }
    const auto sprt = write(
        "sprt.yaml",
        "name: g\ngame: { name: connect4 }\ntime: { move_ms: 1000 }\n"
        "schedule: { type: gauntlet, challenger: a, games_per_pair: 20, sprt: { elo0: 0, elo1: "
        "10 } }\nbots:\n  - { name: a, command: " +
            bin("bots/random") + " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    const auto g = arena({"run", sprt.string(), "--shard", "1/2"});
    EXPECT_EQ(g.status, 2);
    EXPECT_NE(g.err.find("a gauntlet with sprt"), std::string::npos) << g.err;
    const auto ladder = write("ladder.yaml",
                              "name: l\ngame: { name: connect4 }\ntime: { move_ms: 1000 }\n"
                              "schedule: { type: ladder }\nbots:\n  - { name: a, command: " +
                                  bin("bots/random") +
                                  " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    const auto l = arena({"run", ladder.string(), "--shard", "1/2"});
    EXPECT_EQ(l.status, 2);
    EXPECT_NE(l.err.find("a ladder schedule"), std::string::npos) << l.err;
    EXPECT_FALSE(fs::exists(path("results")));

    // More shards than pairs: a shard may have nothing to play.
    const auto empty = arena({"run", config.string(), "--shard", "1/20"});
    EXPECT_EQ(empty.status, 0) << empty.err;
    EXPECT_NE(empty.err.find("shard 1 of 20: no games"), std::string::npos) << empty.err;
    EXPECT_EQ(query_one(path("results/rr.shard-1-of-20.db"), "SELECT count(*) FROM games"), "0");

    // arena merge's own usage errors.
    const auto alone = arena({"merge", "out.db"});
    EXPECT_EQ(alone.status, 2);
    EXPECT_NE(alone.err.find("arena merge: missing IN.db"), std::string::npos) << alone.err;
    const auto missing = arena({"merge", "out.db", "nowhere.db"});
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("nowhere.db: no such file"), std::string::npos) << missing.err;
    EXPECT_FALSE(fs::exists(path("nowhere.db")));
    write("not.db", "this is not a database");
    const auto not_db = arena({"merge", "out.db", "not.db"});
    EXPECT_EQ(not_db.status, 1);
    EXPECT_NE(not_db.err.find("not.db"), std::string::npos) << not_db.err;
    EXPECT_FALSE(testing::looks_like_a_crash(not_db.err)) << not_db.err;
}

}  // namespace
}  // namespace arena::tournament
