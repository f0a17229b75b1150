// Cluster workers (`arena run CONFIG --worker K/N`, docs/cluster.md): each
// of N processes plays every Nth pair into its own database and reads the
// others' between its pairs. Here the workers are processes on this
// machine, as they would be on the nodes of a cluster with a shared file
// system (slurm_cluster_test.cpp runs them as a Slurm job array):
// - an SPRT gauntlet against three opponents decides on every worker what
//   one machine decides, and no worker plays more than one pair (at one
//   game at a time) of an opponent past its decision;
// - a worker killed mid-run leaves its pairs to itself: the others wait for
//   it, and running it again finishes the tournament;
// - a ladder of 40 deterministic bots gives the games and standings of one
//   machine;
// - a tune, --worker beside --shard, and a peer whose tournament differs
//   are refused, each with one message.

#include "arena/tournament/workers.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "created_files.hpp"
#include "db_query.hpp"
#include "run_control.hpp"
#include "scratch_mount.hpp"
#include "temp_dir.hpp"
#include "worker_runs.hpp"

namespace arena::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// ---- the pure parts ---------------------------------------------------------

TEST(WorkerParts, ParsesKOfNAndNamesTheOptionWhenItCannot) {
    std::string problem;
    const auto w = tournament::parse_worker("2/4", problem);
    ASSERT_TRUE(w);
    EXPECT_EQ(w->index, 2);
    EXPECT_EQ(w->count, 4);
    for (const char* bad : {"0/4", "5/4", "2", "a/4", "2/0", "-1/4", "2/4x"}) {
        problem.clear();
        EXPECT_FALSE(tournament::parse_worker(bad, problem)) << bad;
        EXPECT_TRUE(problem.starts_with("--worker ")) << problem;
        EXPECT_TRUE(has(problem, std::string("'") + bad + "'")) << problem;
    }
}

TEST(WorkerParts, EachPairHasOneWorkerAndTheDatabasesLieBesideTheTournaments) {
    for (int pair = 0; pair < 12; ++pair) {
        int owners = 0;
        for (int k = 1; k <= 4; ++k) {
            tournament::Pairing p;
            p.pair = pair;
            owners += tournament::Worker{k, 4}.plays(p) ? 1 : 0;
            if (tournament::Worker{k, 4}.plays(p)) {
                EXPECT_EQ(pair % 4, k - 1);
            }
        }
        EXPECT_EQ(owners, 1) << pair;
    }
    EXPECT_EQ(tournament::worker_database("results/g.db", {2, 4}),
              fs::path("results/g.worker-2-of-4.db"));
    const auto peers = tournament::peer_databases("results/g.db", {2, 3});
    ASSERT_EQ(peers.size(), 2u);
    EXPECT_EQ(peers[0], fs::path("results/g.worker-1-of-3.db"));
    EXPECT_EQ(peers[1], fs::path("results/g.worker-3-of-3.db"));
}

// ---- workers at work --------------------------------------------------------

// N workers of `config`, started at once in `dir`.
std::vector<std::unique_ptr<ArenaProcess>> start_workers(
    const TempDir& dir, const std::string& config, int n,
    const std::vector<std::string>& more = {}) {
    std::vector<std::unique_ptr<ArenaProcess>> workers;
    for (int k = 1; k <= n; ++k) {
        std::vector<std::string> args{"run", config, "--worker",
                                      std::to_string(k) + "/" + std::to_string(n)};
        args.insert(args.end(), more.begin(), more.end());
        workers.push_back(std::make_unique<ArenaProcess>(dir.path(), args));
    }
    return workers;
}

std::vector<std::string> decision_lines(const std::vector<Decision>& ds) {
    std::vector<std::string> lines;
    for (const auto& d : ds)
        lines.push_back(d.line);
    return lines;
}

TEST(Workers, AnSprtGauntletOnFourWorkersDecidesAsOneMachineAndStopsWithinAPair) {
    TempDir dir;
    const auto single = dir.write("single.yaml", sprt_gauntlet_yaml("g", dir.path() / "one.db"));
    const auto reference = run_arena(dir.path(), {"run", single});
    ASSERT_EQ(reference.status, 0) << reference.err;
    const auto expected = decisions(reference.out);
    ASSERT_EQ(expected.size(), 3u) << reference.out;

    const auto config = dir.write("g.yaml", sprt_gauntlet_yaml("g", dir.path() / "g.db"));
    auto workers = start_workers(dir, config, 4);
    std::vector<fs::path> dbs;
    for (int k = 1; k <= 4; ++k) {
        const auto r = workers[static_cast<std::size_t>(k - 1)]->wait();
        ASSERT_EQ(r.status, 0) << "worker " << k << ":\n" << r.err << r.out;
        EXPECT_FALSE(looks_like_a_crash(r.err)) << r.err;
        EXPECT_TRUE(has(r.err, "worker " + std::to_string(k) + " of 4")) << r.err;
        // Every worker saw every decision, as one machine made it.
        EXPECT_EQ(decision_lines(decisions(r.out)), decision_lines(expected))
            << "worker " << k << r.out;
        dbs.push_back(dir.path() / ("g.worker-" + std::to_string(k) + "-of-4.db"));
        // Its own pairs only.
        EXPECT_EQ(query_one(dbs.back(), "SELECT COUNT(*) FROM games WHERE pair_index % 4 <> " +
                                            std::to_string(k - 1)),
                  "0");
    }

    // The merge: complete, with the tests one machine printed.
    std::vector<std::string> merge{"merge", (dir.path() / "g.db").string()};
    for (const auto& db : dbs)
        merge.push_back(db.string());
    const auto merged = run_arena(dir.path(), merge);
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_TRUE(std::regex_search(
        merged.out, std::regex(R"(g\.db: tournament 'g': (\d+) of \1 games, complete)")))
        << merged.out;
    EXPECT_EQ(sprt_blocks(merged.out), sprt_blocks(reference.out)) << merged.out;
    EXPECT_EQ(query_one(dir.path() / "g.db", "SELECT status FROM tournaments"), "finished");

    // Each game one machine played, the workers played the same (their
    // bots are deterministic), and a worker played at most one pair of an
    // opponent past the pair that decided its test: at one game at a time,
    // it starts a pair only within a lap (4 pairs) of the lowest pair not
    // stored, and stops once it reads the decision.
    const auto all = game_lines(dir.path() / "g.db");
    for (const auto& line : lines_of(game_lines(dir.path() / "one.db")))
        EXPECT_TRUE(has(all, line + "\n")) << line;
    for (const auto& d : expected) {
        const int decided = decision_pair(dir.path() / "g.db", d);
        ASSERT_GE(decided, 0) << d.line;
        for (std::size_t k = 0; k < dbs.size(); ++k)
            EXPECT_LE(pairs_past(dbs[k], d.opponent, decided), 1)
                << "worker " << k + 1 << ", " << d.line;
    }

    // A worker run again plays nothing.
    const auto before = query_one(dbs[2], "SELECT COUNT(*) FROM games");
    const auto again = run_arena(dir.path(), {"run", config, "--worker", "3/4"});
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(query_one(dbs[2], "SELECT COUNT(*) FROM games"), before);
}

TEST(Workers, AKilledWorkerIsWaitedForAndRunningItAgainFinishesTheRun) {
    TempDir dir;
    const auto config = dir.write("g.yaml", sprt_gauntlet_yaml("g", dir.path() / "g.db"));
    auto workers = start_workers(dir, config, 4);
    const auto second = dir.path() / "g.worker-2-of-4.db";
    const auto killed = stop_once_stored(*workers[1], second, 6, SIGKILL);
    EXPECT_EQ(killed.status, 128 + SIGKILL);
    const auto kept = games_stored_now(second);

    // The others wait at the gap its next pair leaves: none of them exits,
    // and none plays a pair of worker 2's.
    std::this_thread::sleep_for(3s);
    for (const std::size_t k : {0u, 2u, 3u}) {
        EXPECT_FALSE(workers[k]->try_wait()) << "worker " << k + 1 << " ended";
        const auto db = dir.path() / ("g.worker-" + std::to_string(k + 1) + "-of-4.db");
        EXPECT_EQ(query_one(db, "SELECT COUNT(*) FROM games WHERE pair_index % 4 = 1"), "0");
    }
    EXPECT_EQ(games_stored_now(second), kept);

    ArenaProcess again(dir.path(), {"run", config, "--worker", "2/4"});
    const auto resumed = again.wait();
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    const auto expected = decision_lines(decisions(resumed.out));
    EXPECT_EQ(expected.size(), 3u) << resumed.out;
    std::vector<std::string> merge{"merge", (dir.path() / "g.db").string()};
    for (std::size_t k = 0; k < workers.size(); ++k) {
        if (k != 1) {
            const auto r = workers[k]->wait();
            ASSERT_EQ(r.status, 0) << "worker " << k + 1 << ":\n" << r.err;
            EXPECT_EQ(decision_lines(decisions(r.out)), expected) << r.out;
        }
        merge.push_back((dir.path() / ("g.worker-" + std::to_string(k + 1) + "-of-4.db")).string());
    }
    const auto merged = run_arena(dir.path(), merge);
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_TRUE(has(merged.out, ", complete")) << merged.out;
    for (const auto& line : expected) {
        // The merged database's tests end as the workers decided.
        const auto d = decisions(line).front();
        EXPECT_TRUE(std::regex_search(
            merged.out, std::regex("Results of deep vs " + d.opponent +
                                   " \\(from deep's side\\), " + std::to_string(d.counted) +
                                   " colour-swapped pairs:[^]*?SPRT: " + d.verdict + " accepted")))
            << d.line << "\n"
            << merged.out;
    }
    // Every game once: the gap was filled by its own worker.
    EXPECT_EQ(
        query_one(dir.path() / "g.db", "SELECT COUNT(*) - COUNT(DISTINCT game_index) FROM games"),
        "0");
}

// On a network file system the workers use the rollback journal
// (`journal_mode: delete`): here their folder is a second mount point (a
// tmpfs of its own), where no WAL or shared-memory file ever appears, and
// the workers still decide as one machine does.
TEST(Workers, WithTheRollbackJournalOnASecondMountTheyDecideAsOneMachine) {
    std::string why;
    const auto scratch = ScratchMount::make(why);
    if (!scratch) GTEST_SKIP() << why;
    TempDir dir;
    const auto single = dir.write("single.yaml", sprt_gauntlet_yaml("g", dir.path() / "one.db"));
    const auto reference = run_arena(dir.path(), {"run", single});
    ASSERT_EQ(reference.status, 0) << reference.err;

    const auto folder = scratch->path() / "results";
    fs::create_directories(folder);
    const auto config =
        dir.write("g.yaml", sprt_gauntlet_yaml("g", folder / "g.db", "journal_mode: delete\n"));
    CreatedFiles created(folder);
    auto workers = start_workers(dir, config, 4);
    std::vector<std::string> merge{"merge", (dir.path() / "g.db").string()};
    for (int k = 1; k <= 4; ++k) {
        const auto r = workers[static_cast<std::size_t>(k - 1)]->wait();
        ASSERT_EQ(r.status, 0) << "worker " << k << ":\n" << r.err;
        EXPECT_EQ(decision_lines(decisions(r.out)), decision_lines(decisions(reference.out)))
            << "worker " << k << r.out;
        const auto db = folder / ("g.worker-" + std::to_string(k) + "-of-4.db");
        EXPECT_EQ(query_one(db, "PRAGMA journal_mode"), "delete");
        merge.push_back(db.string());
    }
    for (const auto& name : created.names()) {
        EXPECT_FALSE(name.ends_with("-wal") || name.ends_with("-shm")) << name;
    }
    EXPECT_TRUE(created.names().contains("g.worker-1-of-4.db-journal"));
    const auto merged = run_arena(dir.path(), merge);
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_TRUE(has(merged.out, ", complete")) << merged.out;
    EXPECT_EQ(sprt_blocks(merged.out), sprt_blocks(reference.out)) << merged.out;
}

TEST(Workers, ALadderOfFortyBotsOnFourWorkersGivesTheGamesAndStandingsOfOneMachine) {
    TempDir dir;
    const auto single = dir.write("one.yaml", ladder_yaml("lad", dir.path() / "one.db"));
    ASSERT_EQ(run_arena(dir.path(), {"run", single}).status, 0);

    const auto config = dir.write("lad.yaml", ladder_yaml("lad", dir.path() / "lad.db"));
    auto workers = start_workers(dir, config, 4);
    std::vector<std::string> merge{"merge", (dir.path() / "lad.db").string()};
    for (int k = 1; k <= 4; ++k) {
        const auto r = workers[static_cast<std::size_t>(k - 1)]->wait();
        ASSERT_EQ(r.status, 0) << "worker " << k << ":\n" << r.err;
        merge.push_back((dir.path() / ("lad.worker-" + std::to_string(k) + "-of-4.db")).string());
    }
    const auto merged = run_arena(dir.path(), merge);
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_TRUE(has(merged.out, ", complete")) << merged.out;

    // The same rounds, pairings, colours and results.
    const auto games = game_lines(dir.path() / "one.db");
    EXPECT_GT(std::count(games.begin(), games.end(), '\n'), 400);
    EXPECT_EQ(game_lines(dir.path() / "lad.db"), games);
    const auto one = run_arena(dir.path(), {"standings", (dir.path() / "one.db").string()});
    const auto four = run_arena(dir.path(), {"standings", (dir.path() / "lad.db").string()});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(four.out, one.out);
}

// A bot that cannot start: each worker gives it up after three failed
// starts, as one run does, and its start-up losses, held back and never
// stored, stall the laps only for the workers' patience (2 s here). No
// worker waits forever: each ends with the bot's line, the other tests
// decided as on one machine.
// A ladder worker killed mid-round: the others wait for its pairs of the
// round for their patience (2 s here), then end their runs, saying which
// pair is missing. Run again, the killed one first, they finish the ladder
// with the games of one machine.
TEST(Workers, ALadderRoundAKilledWorkerLeavesEndsTheOthersRunsAndTheirResumeFinishesIt) {
    TempDir dir;
    const auto single = dir.write("one.yaml", ladder_yaml("lad", dir.path() / "one.db", 3));
    ASSERT_EQ(run_arena(dir.path(), {"run", single}).status, 0);

    const auto config = dir.write("lad.yaml", ladder_yaml("lad", dir.path() / "lad.db", 3));
    const std::vector<std::string> patience{"--worker-patience", "2"};
    auto workers = start_workers(dir, config, 4, patience);
    const auto second = dir.path() / "lad.worker-2-of-4.db";
    const auto killed = stop_once_stored(*workers[1], second, 4, SIGKILL);
    EXPECT_EQ(killed.status, 128 + SIGKILL);
    for (const std::size_t k : {0u, 2u, 3u}) {
        const auto r = workers[k]->wait();
        EXPECT_EQ(r.status, 130) << "worker " << k + 1 << ":\n" << r.err << r.out;
        EXPECT_TRUE(std::regex_search(
            r.out,
            std::regex(
                "worker " + std::to_string(k + 1) +
                R"( of 4: pair \d+ of this round, which worker 2 plays, is not stored after \d+ s: stopping here)")))
            << r.out;
    }
    // Worker 2 first, then the others: each waits for the rest.
    std::vector<std::unique_ptr<ArenaProcess>> again;
    for (const int k : {2, 1, 3, 4}) {
        std::vector<std::string> args{"run", config, "--worker", std::to_string(k) + "/4"};
        again.push_back(std::make_unique<ArenaProcess>(dir.path(), args));
    }
    std::vector<std::string> merge{"merge", (dir.path() / "lad.db").string()};
    for (int k = 1; k <= 4; ++k)
        merge.push_back((dir.path() / ("lad.worker-" + std::to_string(k) + "-of-4.db")).string());
    for (auto& w : again) {
        const auto r = w->wait();
        EXPECT_EQ(r.status, 0) << r.err;
    }
    const auto merged = run_arena(dir.path(), merge);
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_TRUE(has(merged.out, ", complete")) << merged.out;
    EXPECT_EQ(game_lines(dir.path() / "lad.db"), game_lines(dir.path() / "one.db"));
}

TEST(Workers, ABotThatCannotStartIsGivenUpAndNoWorkerWaitsForever) {
    TempDir dir;
    const auto with_broken_mid = [&](const std::string& name) {
        return std::regex_replace(sprt_gauntlet_yaml(name, dir.path() / (name + ".db")),
                                  std::regex("'[^']*c4-alphabeta --depth 3'"),
                                  "'" + bin("bots/misbehave") + " --mode handshake-exit'");
    };
    const auto single = dir.write("one.yaml", with_broken_mid("one"));
    ASSERT_TRUE(has(slurp(single), "handshake-exit")) << slurp(single);
    const auto reference = run_arena(dir.path(), {"run", single});
    EXPECT_EQ(reference.status, 1) << reference.err;
    const auto expected = decision_lines(decisions(reference.out));
    ASSERT_EQ(expected.size(), 2u) << reference.out;

    const auto config = dir.write("g.yaml", with_broken_mid("g"));
    const auto started = std::chrono::steady_clock::now();
    auto workers = start_workers(dir, config, 4, {"--worker-patience", "2"});
    for (int k = 1; k <= 4; ++k) {
        const auto r = workers[static_cast<std::size_t>(k - 1)]->wait();
        EXPECT_EQ(r.status, 1) << "worker " << k << ":\n" << r.err;
        EXPECT_TRUE(has(r.err, "bot 'mid' failed to start 3 times in a row")) << r.err;
        EXPECT_EQ(decision_lines(decisions(r.out)), expected) << "worker " << k << r.out;
    }
    EXPECT_LT(std::chrono::steady_clock::now() - started, 90s);
}

// `arena merge` tells a gauntlet's completion from its stored config, whose
// bots must be found where it ran: elsewhere it says it cannot tell, and
// counts the schedule's games.
TEST(Workers, AMergeWhereTheBotsAreNotFoundSaysItCannotTellTheTestsCompletion) {
    TempDir dir;
    fs::create_symlink(bin("bots/c4-alphabeta"), dir.path() / "ab");
    const auto text = std::regex_replace(sprt_gauntlet_yaml("g", dir.path() / "g.db"),
                                         std::regex("'[^']*c4-alphabeta "), "'./ab ");
    ASSERT_TRUE(has(text, "'./ab --depth 5'")) << text;
    const auto config = dir.write("g.yaml", text);
    ArenaOptions in_dir;  // where ./ab is
    in_dir.cwd = dir.path();
    const auto run = run_arena(dir.path(), {"run", config}, in_dir);
    ASSERT_EQ(run.status, 0) << run.err;
    const auto here = run_arena(dir.path(), {"merge", "here.db", "g.db"}, in_dir);
    ASSERT_EQ(here.status, 0) << here.err;
    EXPECT_TRUE(has(here.out, ", complete")) << here.out;
    EXPECT_TRUE(has(here.out, "SPRT: H1 accepted")) << here.out;

    fs::create_directories(dir.path() / "elsewhere");
    ArenaOptions elsewhere;
    elsewhere.cwd = dir.path() / "elsewhere";
    const auto there =
        run_arena(dir.path(), {"merge", "there.db", (dir.path() / "g.db").string()}, elsewhere);
    ASSERT_EQ(there.status, 0) << there.err;
    EXPECT_TRUE(has(there.err,
                    "there.db: tournament 'g': whether its tests are decided (or its "
                    "entrants placed) is not known here: its stored config does not "
                    "load: "))
        << there.err;
    EXPECT_TRUE(std::regex_search(there.out, std::regex(R"(tournament 'g': \d+ of 1200 games\n)")))
        << there.out;
    EXPECT_FALSE(has(there.out, "SPRT:")) << there.out;
}

TEST(Workers, ATuneAShardBesideAndAPeerOfAnotherTournamentAreRefused) {
    TempDir dir;
    const auto config = dir.write("g.yaml", sprt_gauntlet_yaml("g", dir.path() / "g.db"));
    const auto both = run_arena(dir.path(), {"run", config, "--worker", "1/2", "--shard", "1/2"});
    EXPECT_EQ(both.status, 2);
    EXPECT_TRUE(has(both.err, "--worker and --shard cannot go together")) << both.err;
    const auto alone = run_arena(dir.path(), {"run", config, "--worker-patience", "5"});
    EXPECT_EQ(alone.status, 2);
    EXPECT_TRUE(
        has(alone.err, "--worker-patience takes seconds, 1 or more, and goes with --worker"))
        << alone.err;
    const auto zero = run_arena(dir.path(), {"run", config, "--worker", "0/2"});
    EXPECT_EQ(zero.status, 2);
    EXPECT_TRUE(has(zero.err, "--worker K/N: K must be 1..2")) << zero.err;
    const auto tune_config =
        dir.write("tune.yaml",
                  "name: t\ngame: { name: connect4 }\ntime: { move_ms: 1000 }\ntune:\n"
                  "  command: " +
                      bin("bots/c4-alphabeta") +
                      " --depth 2 --three {three}\n"
                      "  params:\n    - { name: three, start: 100, min: 0, max: 1000, "
                      "c_end: 10, r_end: 0.03, integer: true }\n  pairs: 10\n");
    const auto tune = run_arena(dir.path(), {"tune", tune_config, "--worker", "1/2"});
    EXPECT_EQ(tune.status, 2) << tune.err;
    EXPECT_TRUE(has(tune.err, "arena tune: --worker: " + tune_config +
                                  ": arena tune is not distributed over workers yet"))
        << tune.err;

    // Worker 2 plays a round-robin whose `shallow` searches deeper; worker
    // 1, of the config as written, reads it and stops before any game.
    const std::string round_robin = "schedule: { type: round-robin, games_per_pair: 2 }\n";
    const auto text = std::regex_replace(sprt_gauntlet_yaml("rr", dir.path() / "rr.db"),
                                         std::regex("schedule: \\{[^}]*\\} \\}\n"), round_robin);
    ASSERT_TRUE(has(text, round_robin)) << text;
    const auto ours = dir.write("rr.yaml", text);
    const auto theirs = dir.write("rr-other.yaml",
                                  std::regex_replace(text, std::regex("--depth 1'"), "--depth 2'"));
    ASSERT_EQ(run_arena(dir.path(), {"run", theirs, "--worker", "2/2"}).status, 0);
    const auto refused = run_arena(dir.path(), {"run", ours, "--worker", "1/2"});
    EXPECT_EQ(refused.status, 1) << refused.err;
    EXPECT_TRUE(has(refused.err,
                    "rr.worker-2-of-2.db: tournament 'rr' is not the one this "
                    "worker plays: its fingerprint differs"))
        << refused.err;
    EXPECT_EQ(query_one(dir.path() / "rr.worker-1-of-2.db", "SELECT COUNT(*) FROM games"), "0");
}

}  // namespace
}  // namespace arena::testing
