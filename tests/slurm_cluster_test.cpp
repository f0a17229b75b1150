// `arena slurm` on a real Slurm: a single-node cluster brought up on this
// machine by scripts/slurm-local (munged, slurmctld and slurmd, with a
// slurm.conf naming localhost and this machine's cores, every file in a
// temporary directory). A 4-shard tournament is submitted; one array task is
// cancelled mid-run with scancel; the merge job that follows the array says
// the tournament is not complete; the task is resubmitted with --tasks, and
// the merge after it gives the database an unsharded run of the same config
// gives: the same games, moves and standings. Every daemon the test started
// is stopped, and checked gone.
//
// It needs root and Debian's slurm-wlm and munge (scripts/setup installs
// them; CI runs as root). It runs in the release build (label cluster, as
// slurm_test.cpp, which runs the same scripts through a stand-in sbatch and
// can also run in a sanitizer build).

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "db_query.hpp"
#include "game_rows.hpp"
#include "proc_util.hpp"
#include "run_control.hpp"
#include "temp_dir.hpp"
#include "worker_runs.hpp"

namespace arena::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string quoted(const std::string& s) {
    std::string out = "'";
    for (const char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Live processes whose command line mentions `text` (zombies have none).
std::vector<int> naming(const std::string& text) {
    std::vector<int> found;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const auto name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        if (read_proc_file(entry.path().string() + "/cmdline").find(text) != std::string::npos)
            found.push_back(std::stoi(name));
    }
    return found;
}

// Why a single-node Slurm cannot be brought up here; empty when it can.
std::string why_no_cluster() {
#ifdef ARENA_SANITIZE
    return "the sanitizer build runs arena slurm through slurm_test's stand-in sbatch";
#else
    if (geteuid() != 0) return "slurmd must run as root to start jobs";
    for (const char* program : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel"})
        if (run_shell(std::string("command -v ") + program).status != 0)
            return std::string(program) + " is not installed (scripts/setup installs it)";
    return {};
#endif
}

class SlurmCluster : public ::testing::Test {
  protected:
    void SetUp() override {
        if (const auto why = why_no_cluster(); !why.empty()) GTEST_SKIP() << why;
        cluster_ = dir_.path() / "cluster";
        // munged wants every folder above its socket open to all.
        fs::permissions(dir_.path(), fs::perms::group_exec | fs::perms::others_exec,
                        fs::perm_options::add);
        const auto up =
            run_shell(quoted(source("scripts/slurm-local")) + " start " +
                      quoted(cluster_.string()) + (cpus_ > 0 ? " " + std::to_string(cpus_) : ""));
        started_ = true;
        ASSERT_EQ(up.status, 0) << up.out;
        ASSERT_TRUE(has(up.out, "export SLURM_CONF=" + (cluster_ / "slurm.conf").string()))
            << up.out;
        env_ = "SLURM_CONF=" + quoted((cluster_ / "slurm.conf").string()) + " ";
    }
    void TearDown() override {
        if (!started_) return;
        const auto down =
            run_shell(quoted(source("scripts/slurm-local")) + " stop " + quoted(cluster_.string()));
        EXPECT_EQ(down.status, 0) << down.out;
        // Every daemon started for the test is gone: each names a file of its directory.
        EXPECT_EQ(naming(cluster_.string()), std::vector<int>{});
    }

    ShellResult sh(const std::string& command) {
        return run_shell("cd " + quoted(dir_.path().string()) + " && " + env_ + command);
    }
    ShellResult arena(const std::string& args) { return sh(quoted(bin("bin/arena")) + " " + args); }
    fs::path path(const std::string& relative) const { return dir_.path() / relative; }

    // Waits until the cluster has no job left, pending or running.
    void wait_for_the_queue() {
        const auto give_up = std::chrono::steady_clock::now() + 5min;
        while (std::chrono::steady_clock::now() < give_up) {
            const auto q = sh("squeue -h -o '%i %T'");
            ASSERT_EQ(q.status, 0) << q.out;
            if (q.out.empty()) return;
            std::this_thread::sleep_for(200ms);
        }
        FAIL() << "jobs still queued after 5 minutes:\n"
               << sh("squeue").out << slurp((cluster_ / "log" / "slurmctld.log").string());
    }

    // The job ids of `arena slurm`'s "submitted: shards job A (...), merge
    // job B" line (or "workers job A").
    static std::pair<std::string, std::string> job_ids(const std::string& out) {
        std::smatch m;
        const std::regex line(R"((?:shards|workers) job (\d+) \(tasks [^)]*\), merge job (\d+))");
        if (!std::regex_search(out, m, line)) return {};
        return {m[1], m[2]};
    }

    TempDir dir_{"slurm_cluster_test"};
    int cpus_ = 0;  // the node's CPUs for Slurm; 0: the machine's cores
    fs::path cluster_;
    std::string env_;
    bool started_ = false;
};

TEST_F(SlurmCluster, FourShardsWithACancelledTaskResubmittedEqualTheWholeRun) {
    // Deterministic bots: c4-alphabeta at fixed depths, and a random mover
    // that takes 30 ms a move (its moves are a function of the position), so
    // that a shard lasts long enough to be cancelled in the middle.
    std::string text =
        "name: rr\n"
        "game: { name: connect4, rows: 6, cols: 7 }\n"
        "time: { move_ms: 5000 }\n"
        "schedule: { type: round-robin, games_per_pair: 8 }\n"
        "openings: { random_plies: 2 }\n"
        "seed: 9\n"
        "bots:\n";
    for (int depth = 1; depth <= 3; ++depth)
        text += "  - { name: d" + std::to_string(depth) + ", command: " + bin("bots/c4-alphabeta") +
                " --depth " + std::to_string(depth) + " }\n";
    text += "  - { name: slow, command: " + bin("bots/misbehave") +
            " --mode sleep --sleep-ms 30 --seed 3 }\n";
    std::ofstream(path("rr.yaml")) << text;

    const auto whole = arena("run rr.yaml --db whole.db -j 2");
    ASSERT_EQ(whole.status, 0) << whole.out;
    ASSERT_EQ(query_one(path("whole.db"), "SELECT count(*) FROM games"), "48");

    const auto submitted = arena("slurm rr.yaml --shards 4 --cpus-per-task 1 --time 10:00");
    ASSERT_EQ(submitted.status, 0) << submitted.out;
    const auto [array_job, merge_job] = job_ids(submitted.out);
    ASSERT_FALSE(array_job.empty()) << submitted.out;

    // Task 2, cancelled once it has stored a game: Slurm sends it SIGTERM,
    // and the run stops, keeping the games it finished.
    const auto shard2 = path("results/rr.shard-2-of-4.db");
    const auto give_up = std::chrono::steady_clock::now() + 3min;
    while (games_stored_now(shard2) < 1 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(10ms);
    const auto cancel = sh("scancel " + array_job + "_2");
    ASSERT_EQ(cancel.status, 0) << cancel.out;
    wait_for_the_queue();
    const auto kept = games_stored_now(shard2);
    EXPECT_GE(kept, 1);
    EXPECT_LT(kept, 12) << "task 2 ended before it was cancelled";
    const auto merge_log = slurp(path("results/rr.slurm/logs/merge.out").string());
    EXPECT_TRUE(has(merge_log, "tournament 'rr' is not complete")) << merge_log;
    const auto merged = path("results/rr.db");
    EXPECT_EQ(games_stored_now(merged), 36 + kept) << merge_log;
    for (const int k : {1, 3, 4}) {
        const auto log =
            slurp(path("results/rr.slurm/logs/shard-" + std::to_string(k) + ".out").string());
        EXPECT_TRUE(has(log, "arena run: shard " + std::to_string(k) + " of 4: games ")) << log;
    }

    // Resubmitted by index, with a new merge after it.
    const auto again = arena("slurm rr.yaml --shards 4 --cpus-per-task 1 --time 10:00 --tasks 2");
    ASSERT_EQ(again.status, 0) << again.out;
    EXPECT_TRUE(has(again.out, "(tasks 2)")) << again.out;
    wait_for_the_queue();
    const auto merge_log2 = slurp(path("results/rr.slurm/logs/merge.out").string());
    EXPECT_TRUE(has(merge_log2, "tournament 'rr': 48 of 48 games, complete")) << merge_log2;

    EXPECT_EQ(query(merged, kGameRows), query(path("whole.db"), kGameRows));
    EXPECT_EQ(query(merged, kMoveRows), query(path("whole.db"), kMoveRows));
    const auto a = arena("standings results/rr.db"), b = arena("standings whole.db");
    EXPECT_EQ(a.status, 0) << a.out;
    EXPECT_EQ(a.out, b.out);
}

// Workers wait for each other, so all four must run at once: the node
// offers Slurm four CPUs whatever the machine has.
class SlurmWorkers : public SlurmCluster {
  protected:
    SlurmWorkers() { cpus_ = 4; }
};

TEST_F(SlurmWorkers, AnSprtGauntletOnFourWorkersWithOneCancelledAndResubmittedDecidesAsOneMachine) {
    std::ofstream(path("g.yaml")) << sprt_gauntlet_yaml("g", "results/g.db");
    const auto started = std::chrono::steady_clock::now();
    const auto whole = arena("run g.yaml --db whole.db");
    const auto single_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
    ASSERT_EQ(whole.status, 0) << whole.out;
    const auto expected = decisions(whole.out);
    ASSERT_EQ(expected.size(), 3u) << whole.out;

    const auto submitted = arena("slurm g.yaml --workers 4 --cpus-per-task 1 --time 10:00");
    ASSERT_EQ(submitted.status, 0) << submitted.out;
    const auto [array_job, merge_job] = job_ids(submitted.out);
    ASSERT_FALSE(array_job.empty()) << submitted.out;

    // Worker 2, cancelled once it has stored a few games: it stops
    // cleanly, and the other three wait at the gap its pairs leave.
    const auto worker = [&](int k) {
        return path("results/g.worker-" + std::to_string(k) + "-of-4.db");
    };
    const auto give_up = std::chrono::steady_clock::now() + 3min;
    while (games_stored_now(worker(2)) < 4 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(10ms);
    const auto cancel = sh("scancel " + array_job + "_2");
    ASSERT_EQ(cancel.status, 0) << cancel.out;
    std::this_thread::sleep_for(3s);
    const auto running = sh("squeue -h -j " + array_job + " -t RUNNING -o %K");
    auto tasks = lines_of(running.out);
    std::sort(tasks.begin(), tasks.end());
    EXPECT_EQ(tasks, (std::vector<std::string>{"1", "3", "4"})) << running.out;
    const auto kept = games_stored_now(worker(2));
    EXPECT_GE(kept, 4);
    for (const int k : {1, 3, 4})
        EXPECT_EQ(query_one(worker(k), "SELECT COUNT(*) FROM games WHERE pair_index % 4 = 1"), "0");

    // Resubmitted by index: the run completes, with a merge after it.
    const auto again = arena("slurm g.yaml --workers 4 --cpus-per-task 1 --time 10:00 --tasks 2");
    ASSERT_EQ(again.status, 0) << again.out;
    wait_for_the_queue();
    const auto workers_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started) - single_s;

    // Every worker printed the decisions one machine made (worker 2's log
    // holds both of its runs: the decisions are the resumed one's).
    for (int k = 1; k <= 4; ++k) {
        const auto log =
            slurp(path("results/g.slurm/logs/worker-" + std::to_string(k) + ".out").string());
        const auto found = decisions(log);
        ASSERT_EQ(found.size(), 3u) << "worker " << k << ":\n" << log;
        for (std::size_t i = 0; i < found.size(); ++i)
            EXPECT_EQ(found[i].line, expected[i].line) << "worker " << k;
    }
    // The merged database: complete, and its tests decided as the workers said.
    const auto merge_log = slurp(path("results/g.slurm/logs/merge.out").string());
    EXPECT_TRUE(std::regex_search(
        merge_log, std::regex(R"(results/g\.db: tournament 'g': (\d+) of \1 games, complete)")))
        << merge_log;
    // (merge.out holds each merge job's output: the last one's blocks.)
    const auto last_merge =
        merge_log.substr(std::min(merge_log.rfind("tournament 'g'"), merge_log.size()));
    EXPECT_EQ(sprt_blocks(last_merge), sprt_blocks(whole.out)) << merge_log;
    const auto merged = path("results/g.db");
    EXPECT_EQ(query_one(merged, "SELECT status FROM tournaments"), "finished");

    // No worker played more than two pairs of an opponent past its decision.
    int pairs_past_all = 0;
    for (const auto& d : expected) {
        const int decided = decision_pair(merged, d);
        ASSERT_GE(decided, 0) << d.line;
        for (int k = 1; k <= 4; ++k) {
            const int past = pairs_past(worker(k), d.opponent, decided);
            EXPECT_LE(past, 2) << "worker " << k << ", " << d.line;
            pairs_past_all += past;
        }
    }
    const auto pairs = [](const fs::path& db) {
        return query_one(db, "SELECT COUNT(DISTINCT pair_index) FROM games");
    };
    std::cout << "one machine: " << pairs(path("whole.db")) << " pairs in " << single_s.count()
              << " s; 4 workers (one cancelled, resubmitted): " << pairs(merged) << " pairs, "
              << pairs_past_all << " past a decision, in " << workers_s.count() << " s\n";
}

}  // namespace
}  // namespace arena::testing
