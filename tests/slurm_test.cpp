// `arena slurm` without a cluster: the scripts it writes (pure), its
// argument and config errors, --dry-run, and end to end through a stand-in
// `sbatch` on PATH that runs each submitted job at once, task by task, as
// Slurm would (SLURM_ARRAY_TASK_ID, SLURM_CPUS_PER_TASK, the --output log).
// The merged database equals a whole run of the same config game for game;
// a task that did not run leaves the merge incomplete and saying so, and
// --tasks resubmits it; with --local-dir each shard plays on "node-local"
// disk and is copied back, also when the task is stopped with SIGTERM, and
// the next attempt resumes from that copy. With --workers: the workers'
// scripts, what is refused (--local-dir, a tune) and what is taken (SPRT
// gauntlets, ladders), and both scripts run through the stand-in sbatch
// with a stand-in arena that records its calls. The same scripts on a real
// Slurm: slurm_cluster_test.cpp.

#include "arena/cluster/slurm.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "arena/tournament/shard.hpp"
#include "db_query.hpp"
#include "fake_sbatch.hpp"
#include "game_rows.hpp"
#include "proc_util.hpp"
#include "run_control.hpp"
#include "temp_dir.hpp"

namespace arena::cluster {
namespace {

namespace fs = std::filesystem;
using testing::bin;
using testing::kGameRows;
using testing::kMoveRows;
using testing::query;
using testing::query_one;
using testing::run_shell;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

SlurmJob sample_job() {
    SlurmJob job;
    job.tournament = "league";
    job.arena = "/opt/arena/bin/arena";
    job.config = "/home/org/league.yaml";
    job.workdir = "/home/org";
    job.database = "/home/org/results/league.db";
    job.job_dir = "/home/org/results/league.slurm";
    job.parts = 8;
    job.cpus_per_task = 4;
    job.partition = "short";
    job.time = "2:00:00";
    job.max_running = 3;
    job.options = {"--account=cs101", "--mem-per-cpu=2G"};
    return job;
}

// ---- the scripts (pure) -----------------------------------------------------------

TEST(SlurmScripts, AnArrayOfShardsAndAMergeAfterIt) {
    const auto job = sample_job();
    const auto s = slurm_scripts(job);
    EXPECT_TRUE(s.array.starts_with("#!/bin/bash\n"));
    for (const char* line :
         {"#SBATCH --job-name=arena-league\n", "#SBATCH --array=1-8%3\n",
          "#SBATCH --cpus-per-task=4\n", "#SBATCH --time=2:00:00\n", "#SBATCH --partition=short\n",
          "#SBATCH --account=cs101\n", "#SBATCH --mem-per-cpu=2G\n",
          "#SBATCH --output=/home/org/results/league.slurm/logs/shard-%a.out\n", "cd '/home/org'\n",
          "db='/home/org/results/league.shard-'\"$shard\"'-of-8.db'\n",
          "exec '/opt/arena/bin/arena' run '/home/org/league.yaml' --shard \"$shard/8\" "
          "--concurrency \"${SLURM_CPUS_PER_TASK:-4}\" --db \"$db\"\n"})
        EXPECT_TRUE(has(s.array, line)) << line << "\n" << s.array;
    // Every #SBATCH line comes before the first command, or sbatch ignores it.
    const auto first_command = s.array.find("\nset -euo pipefail");
    EXPECT_EQ(s.array.find("#SBATCH", first_command), std::string::npos);

    for (const char* line : {"#SBATCH --job-name=arena-league-merge\n", "#SBATCH --time=30:00\n",
                             "#SBATCH --partition=short\n", "#SBATCH --account=cs101\n",
                             "for shard in $(seq 1 8); do\n",
                             "merged=$('/opt/arena/bin/arena' merge "
                             "'/home/org/results/league.db' \"${inputs[@]}\")\n"})
        EXPECT_TRUE(has(s.merge, line)) << line << "\n" << s.merge;
    EXPECT_FALSE(has(s.merge, "--array"));

    EXPECT_EQ(
        array_submission(job, ""),
        (std::vector<std::string>{"--parsable", "/home/org/results/league.slurm/shards.sbatch"}));
    EXPECT_EQ(array_submission(job, "3,5-6"),
              (std::vector<std::string>{"--parsable", "--array=3,5-6",
                                        "/home/org/results/league.slurm/shards.sbatch"}));
    EXPECT_EQ(merge_submission(job, "41"),
              (std::vector<std::string>{"--parsable", "--dependency=afterany:41",
                                        "/home/org/results/league.slurm/merge.sbatch"}));
}

TEST(SlurmScripts, PathsAreQuotedForTheShell) {
    auto job = sample_job();
    job.workdir = "/home/o'brien/my league";
    job.arena = "/home/o'brien/bin/arena";
    const auto s = slurm_scripts(job);
    EXPECT_TRUE(has(s.array, "cd '/home/o'\\''brien/my league'\n")) << s.array;
    EXPECT_EQ(shell_quote("a'b c"), "'a'\\''b c'");
    EXPECT_EQ(shell_quote(""), "''");
    // A quoted word is one word to bash, whatever it holds.
    const auto r = run_shell("printf '%s|' " + shell_quote("x 'y' $HOME `id` \"z\""));
    EXPECT_EQ(r.out, "x 'y' $HOME `id` \"z\"|");
}

TEST(SlurmScripts, ProblemsNameTheOption) {
    const auto problem = [](auto change) {
        auto job = sample_job();
        change(job);
        return slurm_job_problem(job);
    };
    EXPECT_EQ(problem([](SlurmJob&) {}), "");
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.time = "2 hours"; }), "--time '2 hours'"));
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.merge_time = "soon"; }), "--merge-time"));
    for (const char* ok : {"30", "30:00", "2:00:00", "1-12", "1-12:30", "2-00:00:00", "UNLIMITED"})
        EXPECT_EQ(problem([&](SlurmJob& j) { j.time = ok; }), "") << ok;
    for (const char* bad : {"1:2:3:4", "1-", ":30", "1-2:3:4:5", "1h", "-5", "30:"})
        EXPECT_TRUE(has(problem([&](SlurmJob& j) { j.time = bad; }), "--time")) << bad;
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.partition = "a b"; }), "--partition 'a b'"));
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.job_dir = "/tmp/my jobs"; }), "--job-dir"));
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.job_dir = "/tmp/100%"; }), "--job-dir"));
    EXPECT_TRUE(
        has(problem([](SlurmJob& j) { j.options = {"account=x"}; }), "--sbatch 'account=x'"));
    EXPECT_TRUE(
        has(problem([](SlurmJob& j) { j.options = {"--array=1-3"}; }), "sets --array itself"));
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.options = {"-o/tmp/x"}; }), "sets -o itself"));
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.options = {"--a\nb"}; }), "--sbatch"));
    EXPECT_TRUE(has(problem([](SlurmJob& j) { j.cpus_per_task = 0; }), "--cpus-per-task"));

    std::string why;
    EXPECT_EQ(parse_tasks("3", Split::kShards, 8, why), "3");
    EXPECT_EQ(parse_tasks("2,5-7,8", Split::kShards, 8, why), "2,5-7,8");
    for (const char* bad : {"", "0", "9", "x", "3-2", "1,,2", "1-", "-1", "+2", "2,", "1-9"}) {
        why.clear();
        EXPECT_FALSE(parse_tasks(bad, Split::kShards, 8, why)) << bad;
        EXPECT_TRUE(has(why, "--tasks")) << bad << ": " << why;
        EXPECT_TRUE(has(why, "from 1 to 8")) << bad << ": " << why;
    }
}

SlurmJob sample_workers() {
    auto job = sample_job();
    job.split = Split::kWorkers;
    job.parts = 4;
    return job;
}

TEST(SlurmScripts, AnArrayOfWorkersAndAMergeAfterThem) {
    const auto job = sample_workers();
    const auto s = slurm_scripts(job);
    EXPECT_TRUE(s.array.starts_with("#!/bin/bash\n# The workers of tournament 'league'"))
        << s.array;
    for (const char* line :
         {"#SBATCH --job-name=arena-league-workers\n", "#SBATCH --array=1-4%3\n",
          "#SBATCH --cpus-per-task=4\n", "#SBATCH --time=2:00:00\n", "#SBATCH --partition=short\n",
          "#SBATCH --account=cs101\n",
          "#SBATCH --output=/home/org/results/league.slurm/logs/worker-%a.out\n",
          "#SBATCH --open-mode=append\n",
          "worker=${SLURM_ARRAY_TASK_ID:?'the task script of a Slurm job array: submit it with "
          "sbatch'}\n",
          "cd '/home/org'\n", "db='/home/org/results/league.worker-'\"$worker\"'-of-4.db'\n",
          "exec '/opt/arena/bin/arena' run '/home/org/league.yaml' --worker \"$worker/4\" "
          "--concurrency \"${SLURM_CPUS_PER_TASK:-4}\" --db '/home/org/results/league.db'\n"})
        EXPECT_TRUE(has(s.array, line)) << line << "\n" << s.array;
    const auto first_command = s.array.find("\nset -euo pipefail");
    EXPECT_EQ(s.array.find("#SBATCH", first_command), std::string::npos);

    for (const char* line :
         {"#SBATCH --job-name=arena-league-merge\n", "#SBATCH --open-mode=append\n",
          "#SBATCH --output=/home/org/results/league.slurm/logs/merge.out\n",
          "for worker in $(seq 1 4); do\n",
          "  db='/home/org/results/league.worker-'\"$worker\"'-of-4.db'\n",
          "merged=$('/opt/arena/bin/arena' merge '/home/org/results/league.db' \"${inputs[@]}\")\n",
          "see the workers' logs in /home/org/results/league.slurm/logs, and resubmit the "
          "workers that failed: the same arena slurm command with --tasks K[,K...]"})
        EXPECT_TRUE(has(s.merge, line)) << line << "\n" << s.merge;
    // Nothing of either script speaks of shards.
    EXPECT_FALSE(has(s.array, "shard")) << s.array;
    EXPECT_FALSE(has(s.merge, "shard")) << s.merge;

    EXPECT_EQ(array_script_path(job), "/home/org/results/league.slurm/workers.sbatch");
    EXPECT_EQ(merge_script_path(job), "/home/org/results/league.slurm/merge.sbatch");
    EXPECT_EQ(array_submission(job, "2"),
              (std::vector<std::string>{"--parsable", "--array=2",
                                        "/home/org/results/league.slurm/workers.sbatch"}));
    EXPECT_EQ(part_database(job, 2), "/home/org/results/league.worker-2-of-4.db");
    EXPECT_EQ(part_log(job, 2), "/home/org/results/league.slurm/logs/worker-2.out");
    EXPECT_EQ(part_noun(Split::kWorkers), "worker");
    EXPECT_EQ(part_noun(Split::kShards), "shard");
}

// The database each task's script names is part_database(), for shards the
// same as `arena run --shard`'s (tournament::shard_database), and every part
// of a job is in one folder: workers read each other's there.
TEST(SlurmScripts, TheScriptsDatabasesArePartDatabase) {
    for (const auto split : {Split::kShards, Split::kWorkers}) {
        auto job = split == Split::kShards ? sample_job() : sample_workers();
        job.database = "/home/o'brien/my results/league.v2.db";
        const auto s = slurm_scripts(job);
        const auto at = s.array.find("\ndb=");
        ASSERT_NE(at, std::string::npos) << s.array;
        const auto db_line = s.array.substr(at + 1, s.array.find('\n', at + 1) - at);
        const std::string noun(part_noun(split));
        for (const int k : {1, 3}) {
            const auto r =
                run_shell(noun + "=" + std::to_string(k) + "; " + db_line + "printf '%s' \"$db\"");
            EXPECT_EQ(r.out, part_database(job, k).string()) << db_line;
            EXPECT_EQ(part_database(job, k).parent_path(), job.database.parent_path());
            // And the merge looks for the same files.
            EXPECT_TRUE(has(s.merge, "  " + db_line)) << s.merge;
        }
        if (split == Split::kShards) {
            for (const int k : {1, 8}) {
                EXPECT_EQ(part_database(job, k),
                          tournament::shard_database(job.database, {k, job.parts}));
            }
        }
    }
}

// Workers play on the shared file system: a local_dir is refused, naming
// why, and the workers' script would not use it.
TEST(SlurmScripts, WorkersHaveNoLocalDir) {
    auto job = sample_workers();
    job.local_dir = "$TMPDIR/arena";
    const auto problem = slurm_job_problem(job);
    EXPECT_TRUE(has(problem, "--local-dir cannot be used with --workers")) << problem;
    EXPECT_TRUE(has(problem, "read each other's databases")) << problem;
    EXPECT_TRUE(has(problem, "shared file system")) << problem;
    EXPECT_FALSE(has(slurm_scripts(job).array, "local_dir"));
    EXPECT_FALSE(has(slurm_scripts(job).array, "TMPDIR"));
    // Shards take it.
    auto shards = sample_job();
    shards.local_dir = "$TMPDIR/arena";
    EXPECT_EQ(slurm_job_problem(shards), "");
    EXPECT_TRUE(has(slurm_scripts(shards).array, "local_dir=\"$TMPDIR/arena\"\n"));

    job.local_dir.clear();
    job.parts = 0;
    EXPECT_EQ(slurm_job_problem(job), "--workers must be 1 or more");
    std::string why;
    EXPECT_EQ(parse_tasks("1,3-4", Split::kWorkers, 4, why), "1,3-4");
    EXPECT_FALSE(parse_tasks("5", Split::kWorkers, 4, why));
    EXPECT_TRUE(has(why, "--tasks '5': '5' is not a task: each task is a worker index from 1 to 4"))
        << why;
}

// ---- the command -------------------------------------------------------------------

class SlurmCommand : public ::testing::Test {
  protected:
    void SetUp() override { testing::install_fake_sbatch(dir_.path() / "fake"); }
    fs::path path(const std::string& relative) const { return dir_.path() / relative; }
    fs::path write(const std::string& file, const std::string& text) {
        std::ofstream(path(file)) << text;
        return path(file);
    }
    // `arena ARGS` in the test's directory, with the stand-in sbatch first on PATH.
    testing::ShellResult arena(const std::string& args, const std::string& env = "") {
        return run_shell("cd " + shell_quote(dir_.path().string()) + " && " + env +
                         " PATH=" + shell_quote(path("fake").string()) + ":\"$PATH\" " +
                         shell_quote(bin("bin/arena")) + " " + args);
    }
    std::string config() {
        // c4-alphabeta at fixed depths: the same moves every time; 24 games.
        std::string text =
            "name: rr\n"
            "game: { name: connect4, rows: 6, cols: 7 }\n"
            "time: { move_ms: 5000 }\n"
            "schedule: { type: round-robin, games_per_pair: 4 }\n"
            "openings: { random_plies: 2 }\n"
            "seed: 5\n"
            "bots:\n";
        for (int depth = 1; depth <= 4; ++depth)
            text += "  - { name: d" + std::to_string(depth) +
                    ", command: " + bin("bots/c4-alphabeta") + " --depth " + std::to_string(depth) +
                    " }\n";
        write("rr.yaml", text);
        return "rr.yaml";
    }
    // The whole tournament, unsharded, for comparison.
    fs::path whole_run() {
        const auto r = arena("run rr.yaml --db whole.db -j 2");
        EXPECT_EQ(r.status, 0) << r.out;
        return path("whole.db");
    }

    testing::TempDir dir_{"slurm_test"};
};

TEST_F(SlurmCommand, DryRunPrintsBothScriptsAndWritesNothing) {
    config();
    const auto r = arena(
        "slurm rr.yaml --shards 4 --partition debug --time 10:00 -c 2 --sbatch=--qos=low "
        "--dry-run");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto job_dir = path("results/rr.slurm");
    for (const std::string& part :
         {"# " + (job_dir / "shards.sbatch").string() + "\n#!/bin/bash\n",
          "# " + (job_dir / "merge.sbatch").string() + "\n#!/bin/bash\n",
          std::string("#SBATCH --array=1-4\n"), std::string("#SBATCH --partition=debug\n"),
          std::string("#SBATCH --time=10:00\n"), std::string("#SBATCH --cpus-per-task=2\n"),
          std::string("#SBATCH --qos=low\n"),
          "job=$(sbatch '--parsable' '" + (job_dir / "shards.sbatch").string() + "')\n",
          "sbatch '--parsable' '--dependency=afterany:'\"${job%%;*}\" '" +
              (job_dir / "merge.sbatch").string() + "'\n",
          " run '" + path("rr.yaml").string() + "' --shard \"$shard/4\""})
        EXPECT_TRUE(has(r.out, part)) << part << "\n" << r.out;
    EXPECT_FALSE(fs::exists(job_dir));
    EXPECT_FALSE(fs::exists(path("fake/calls.txt")));
}

// Issue 41 item 20: the sbatch commands --dry-run prints work when pasted
// into bash: the merge job depends on the id the first sbatch printed (with
// --parsable, "ID" or "ID;CLUSTER"), not on the text '$job'.
TEST_F(SlurmCommand, DryRunCommandsWorkWhenPastedIntoBash) {
    config();
    const auto r = arena("slurm rr.yaml --shards 4 --dry-run");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto at = r.out.find("# submitted with:\n");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::string commands = r.out.substr(at);
    // Up to the last sbatch line (a note may follow on stderr, merged here).
    commands = commands.substr(0, commands.find('\n', commands.rfind("\nsbatch ") + 1) + 1);
    for (const std::string printed : {"7001", "7002;cluster-a"}) {
        // An sbatch that only records its arguments and prints a job id.
        const auto bin_dir = path("record-" + printed.substr(0, 4));
        fs::create_directories(bin_dir);
        std::ofstream(bin_dir / "sbatch")
            << "#!/bin/bash\necho \"$*\" >> " << shell_quote((bin_dir / "calls.txt").string())
            << "\necho '" << printed << "'\n";
        fs::permissions(bin_dir / "sbatch", fs::perms::owner_all);
        write("pasted.sh", commands);
        const auto pasted = run_shell("cd " + shell_quote(dir_.path().string()) + " && PATH=" +
                                      shell_quote(bin_dir.string()) + ":\"$PATH\" bash pasted.sh");
        EXPECT_EQ(pasted.status, 0) << pasted.out;
        const auto calls = testing::slurp((bin_dir / "calls.txt").string());
        EXPECT_TRUE(has(calls, "--parsable --dependency=afterany:" + printed.substr(0, 4) + " " +
                                   path("results/rr.slurm/merge.sbatch").string() + "\n"))
            << commands << "\n"
            << calls;
    }
}

TEST_F(SlurmCommand, BadArgumentsAndConfigsGetOneMessage) {
    config();
    write("ladder.yaml",
          "name: lad\ngame: { name: connect4 }\ntime: { move_ms: 100 }\n"
          "schedule: { type: ladder, games_per_entrant: 4 }\n"
          "bots:\n  - { name: a, command: " +
              bin("bots/random") + " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    write("broken.yaml", "name: x\ngame: { name: connect4 }\nbots: 3\n");
    write("tune.yaml",
          "name: tu\ngame: { name: connect4 }\ntune:\n  command: " + bin("bots/random") +
              " --seed {s}\n  params:\n    - { name: s, start: 5, min: 1, max: 9, "
              "c_end: 1, r_end: 0.1 }\n  pairs: 10\n");
    const struct {
        std::string args, says;
    } cases[] = {
        {"slurm rr.yaml",
         "give --shards N (each task plays its own range of the schedule) or "
         "--workers N"},
        {"slurm --shards 4", "missing CONFIG"},
        {"slurm rr.yaml --shards 0", "--shards must be 1 or more"},
        {"slurm rr.yaml --shards 4 --tasks 5", "--tasks '5'"},
        {"slurm rr.yaml --shards 4 --time 'an hour'", "--time 'an hour'"},
        {"slurm rr.yaml --shards 4 --sbatch=--array=1", "sets --array itself"},
        {"slurm rr.yaml --shards 4 --shrads 3", "did you mean '--shards'"},
        {"slurm ladder.yaml --shards 2",
         "ladder.yaml: a ladder schedule (schedule: { type: ladder }) cannot be played in shards"},
        {"slurm tune.yaml --shards 2", "tune.yaml: a tune (tune:) cannot be played in shards yet"},
        {"slurm rr.yaml --shards 2 --workers 2", "give either --shards N or --workers N, not both"},
        {"slurm rr.yaml --workers 0", "--workers must be 1 or more"},
        {"slurm rr.yaml --workers 4 --tasks 5", "each task is a worker index from 1 to 4"},
        {"slurm rr.yaml --workers 2 --local-dir /tmp/x",
         "--local-dir cannot be used with --workers: the workers read each other's databases"},
        {"slurm rr.yaml --workrs 2", "did you mean '--workers'"},
        {"slurm tune.yaml --workers 2",
         "tune.yaml: arena tune is not distributed over workers yet: each SPSA iteration's point "
         "depends on every result before it (docs/cluster.md, 'Tuning')"},
        {"slurm broken.yaml --shards 2", "broken.yaml:3"},
        {"slurm missing.yaml --shards 2", "missing.yaml"},
    };
    for (const auto& c : cases) {
        const auto r = arena(c.args + " --dry-run");
        EXPECT_EQ(r.status, 2) << c.args << "\n" << r.out;
        EXPECT_TRUE(has(r.out, c.says)) << c.args << "\n" << r.out;
        EXPECT_FALSE(testing::lines_of(r.out).empty());
    }
    // No sbatch: the message says where to run it.
    const auto r = run_shell("cd " + shell_quote(dir_.path().string()) + " && PATH=/nonexistent " +
                             shell_quote(bin("bin/arena")) + " slurm rr.yaml --shards 2");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_TRUE(has(r.out, "no sbatch on PATH")) << r.out;
}

TEST_F(SlurmCommand, WorkersDryRunSaysWorkers) {
    config();
    const auto r = arena("slurm rr.yaml --workers 4 -c 2 --tasks 2,4 --dry-run");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto job_dir = path("results/rr.slurm");
    for (const std::string& part :
         {"# " + (job_dir / "workers.sbatch").string() + "\n#!/bin/bash\n",
          "# " + (job_dir / "merge.sbatch").string() + "\n#!/bin/bash\n",
          std::string("#SBATCH --array=1-4\n"), std::string("#SBATCH --cpus-per-task=2\n"),
          "#SBATCH --output=" + (job_dir / "logs").string() + "/worker-%a.out\n",
          "job=$(sbatch '--parsable' '--array=2,4' '" + (job_dir / "workers.sbatch").string() +
              "')\n",
          "sbatch '--parsable' '--dependency=afterany:'\"${job%%;*}\" '" +
              (job_dir / "merge.sbatch").string() + "'\n",
          " run '" + path("rr.yaml").string() + "' --worker \"$worker/4\" --concurrency ",
          "db='" + path("results/rr.worker-").string() + "'\"$worker\"'-of-4.db'\n"})
        EXPECT_TRUE(has(r.out, part)) << part << "\n" << r.out;
    EXPECT_FALSE(has(r.out, "shard")) << r.out;
    EXPECT_FALSE(fs::exists(job_dir));
    // More workers than pairs: the note says workers.
    const auto many = arena("slurm rr.yaml --workers 13 --dry-run");
    EXPECT_EQ(many.status, 0) << many.out;
    EXPECT_TRUE(has(many.out,
                    "arena slurm: note: 13 workers for 12 colour-swapped pairs: 1 worker(s) will "
                    "have no games"))
        << many.out;
}

// What shards refuse, workers take: an SPRT gauntlet and a ladder (whose
// pairs are not known ahead, so no note compares them with N).
TEST_F(SlurmCommand, WorkersTakeTheSprtGauntletsAndLaddersShardsRefuse) {
    const std::string bots = "bots:\n  - { name: a, command: " + bin("bots/random") +
                             " }\n  - { name: b, command: " + bin("bots/random") + " }\n";
    write("ladder.yaml",
          "name: lad\ngame: { name: connect4 }\ntime: { move_ms: 100 }\n"
          "schedule: { type: ladder, games_per_entrant: 4 }\n" +
              bots);
    write("sprt.yaml",
          "name: sp\ngame: { name: connect4 }\ntime: { move_ms: 100 }\n"
          "schedule: { type: gauntlet, challenger: a, games_per_pair: 100, "
          "sprt: { elo0: 0, elo1: 10 } }\n" +
              bots);
    for (const char* file : {"ladder.yaml", "sprt.yaml"}) {
        const auto shards = arena(std::string("slurm ") + file + " --shards 4 --dry-run");
        EXPECT_EQ(shards.status, 2) << shards.out;
        EXPECT_TRUE(has(shards.out, "cannot be played in shards")) << shards.out;
        const auto workers = arena(std::string("slurm ") + file + " --workers 4 --dry-run");
        EXPECT_EQ(workers.status, 0) << workers.out;
        EXPECT_TRUE(has(workers.out, "--worker \"$worker/4\"")) << workers.out;
        EXPECT_FALSE(has(workers.out, "note:")) << workers.out;
    }
}

// The workers' scripts run under bash as Slurm would run them (the stand-in
// sbatch), with a stand-in arena that records how it is called: each task
// runs `arena run CONFIG --worker K/N` from the workdir into its worker
// database, and the merge takes every worker database there is, says which
// are missing and fails until merge says the tournament is complete.
TEST_F(SlurmCommand, WorkersScriptsRunTheWorkersAndTheMerge) {
    config();
    const auto fake_arena = path("fake-arena/arena");
    fs::create_directories(fake_arena.parent_path());
    // run: given the tournament's database with --db, creates worker K's
    // beside it as arena run does, and records its arguments and where it
    // ran; merge: complete when it has all 4 inputs.
    std::ofstream(fake_arena)
        << "#!/bin/bash\n"
        // One write a call: the workers' tasks run at once.
        << "line=$(printf '%s|' \"$PWD\" \"$@\")\n"
        << "printf '%s\\n' \"$line\" >> " << shell_quote(path("arena-calls.txt").string()) << "\n"
        << "case \"$1\" in\n"
        << "  run) while [ $# -gt 1 ]; do\n"
        << "         case \"$1\" in --worker) k=${2%/*}; n=${2#*/} ;; --db) db=$2 ;; esac; shift\n"
        << "       done\n"
        << "       : > \"${db%.db}.worker-$k-of-$n.db\"\n"
        << "       echo 'arena run: stand-in' ;;\n"
        << "  merge) out=$2; shift 2\n"
        << "         if [ $# -eq 4 ]; then echo \"$out: tournament 'rr': 24 of 24 games, "
           "complete\"\n"
        << "         else echo \"$out: tournament 'rr': 18 of 24 games\"; fi ;;\n"
        << "esac\n";
    fs::permissions(fake_arena, fs::perms::owner_all);
    const std::string arena_option = " --arena " + shell_quote(fake_arena.string());

    const auto first = arena("slurm rr.yaml --workers 4 -c 2" + arena_option, "SKIP_TASKS=3");
    ASSERT_EQ(first.status, 0) << first.out;
    EXPECT_TRUE(has(first.out, "arena slurm: tournament 'rr' in 4 workers: scripts in " +
                                   path("results/rr.slurm").string() + "\n"))
        << first.out;
    EXPECT_TRUE(has(first.out, "submitted: workers job 101 (tasks 1-4), merge job 102 (after 101)"))
        << first.out;
    EXPECT_TRUE(has(first.out,
                    "resubmit: this command with --tasks K[,K...] (the workers that "
                    "failed; a new merge follows them)"))
        << first.out;
    EXPECT_FALSE(has(first.out, "shard")) << first.out;
    const auto sbatch_calls = testing::slurp(path("fake/calls.txt").string());
    EXPECT_TRUE(has(sbatch_calls, "--parsable " + path("results/rr.slurm/workers.sbatch").string() +
                                      "\n--parsable --dependency=afterany:101 " +
                                      path("results/rr.slurm/merge.sbatch").string() + "\n"))
        << sbatch_calls;
    EXPECT_FALSE(fs::exists(path("results/rr.slurm/shards.sbatch")));

    auto calls = testing::lines_of(testing::slurp(path("arena-calls.txt").string()));
    // The workers ran at once, in any order; the merge after them.
    if (calls.size() == 4) std::sort(calls.begin(), calls.begin() + 3);
    const auto worker_call = [&](int k) {
        return dir_.path().string() + "|run|" + path("rr.yaml").string() + "|--worker|" +
               std::to_string(k) + "/4|--concurrency|2|--db|" + path("results/rr.db").string() +
               "|";
    };
    const auto db = [&](int k) {
        return path("results/rr.worker-" + std::to_string(k) + "-of-4.db").string();
    };
    ASSERT_EQ(calls.size(), 4u) << testing::slurp(path("arena-calls.txt").string());
    EXPECT_EQ(calls[0], worker_call(1));
    EXPECT_EQ(calls[1], worker_call(2));
    EXPECT_EQ(calls[2], worker_call(4));
    EXPECT_EQ(calls[3], dir_.path().string() + "|merge|" + path("results/rr.db").string() + "|" +
                            db(1) + "|" + db(2) + "|" + db(4) + "|");
    const auto log2 = testing::slurp(path("results/rr.slurm/logs/worker-2.out").string());
    EXPECT_TRUE(has(log2, "arena slurm: worker 2 of 4 on ")) << log2;
    EXPECT_TRUE(has(log2, "arena run: stand-in")) << log2;
    EXPECT_FALSE(fs::exists(path("results/rr.slurm/logs/worker-3.out")));
    const auto merge_log = testing::slurp(path("results/rr.slurm/logs/merge.out").string());
    for (const std::string& line :
         {"arena slurm: worker 3 of 4 has no database yet (" + db(3) + ")\n",
          "arena slurm: tournament 'rr' is not complete: see the workers' logs in " +
              path("results/rr.slurm/logs").string() +
              ", and resubmit the workers that failed: the same arena slurm command with --tasks "
              "K[,K...]\n",
          std::string("arena slurm: workers with no database yet: 3 (--tasks 3, and any other "
                      "whose task failed)\n")})
        EXPECT_TRUE(has(merge_log, line)) << line << "\n" << merge_log;
    // The merge job fails while the tournament is not complete.
    const std::string merge_script = path("results/rr.slurm/merge.sbatch").string();
    EXPECT_EQ(run_shell("bash " + shell_quote(merge_script)).status, 1);

    // Worker 3 resubmitted by index, with a new merge after it, which completes.
    const auto again = arena("slurm rr.yaml --workers 4 -c 2 --tasks 3" + arena_option);
    ASSERT_EQ(again.status, 0) << again.out;
    EXPECT_TRUE(has(again.out, "workers job 103 (tasks 3), merge job 104 (after 103)"))
        << again.out;
    EXPECT_TRUE(has(testing::slurp(path("fake/calls.txt").string()),
                    "--parsable --array=3 " + path("results/rr.slurm/workers.sbatch").string()));
    const auto calls2 = testing::lines_of(testing::slurp(path("arena-calls.txt").string()));
    ASSERT_EQ(calls2.size(), 7u);  // and the merge run above by hand
    EXPECT_EQ(calls2[5], worker_call(3));
    EXPECT_EQ(calls2[6], dir_.path().string() + "|merge|" + path("results/rr.db").string() + "|" +
                             db(1) + "|" + db(2) + "|" + db(3) + "|" + db(4) + "|");
    const auto merge_log2 = testing::slurp(path("results/rr.slurm/logs/merge.out").string());
    EXPECT_TRUE(has(merge_log2, path("results/rr.db").string() +
                                    ": tournament 'rr': 24 of 24 games, complete\n"))
        << merge_log2;
    EXPECT_EQ(run_shell("bash " + shell_quote(merge_script)).status, 0);
}

TEST_F(SlurmCommand, SubmittedShardsMergedEqualTheWholeRunAndAFailedTaskIsResubmitted) {
    config();
    const auto whole = whole_run();
    // Task 3 fails to start: the merge runs after the array all the same
    // (afterany), takes what is there, and says the tournament is not complete.
    const auto first = arena("slurm rr.yaml --shards 4 -c 2", "SKIP_TASKS=3");
    ASSERT_EQ(first.status, 0) << first.out;
    EXPECT_TRUE(has(first.out, "submitted: shards job 101 (tasks 1-4), merge job 102 (after 101)"))
        << first.out;
    const auto calls = testing::slurp(path("fake/calls.txt").string());
    EXPECT_TRUE(has(calls, "--parsable " + path("results/rr.slurm/shards.sbatch").string()))
        << calls;
    EXPECT_TRUE(has(calls, "--parsable --dependency=afterany:101 " +
                               path("results/rr.slurm/merge.sbatch").string()))
        << calls;
    const auto merged = path("results/rr.db");
    EXPECT_EQ(query_one(merged, "SELECT count(*) FROM games"), "18");
    const auto merge_log = testing::slurp(path("results/rr.slurm/logs/merge.out").string());
    EXPECT_TRUE(has(merge_log, "shard 3 of 4 has no database yet")) << merge_log;
    EXPECT_TRUE(has(merge_log, "tournament 'rr' is not complete")) << merge_log;
    const auto log2 = testing::slurp(path("results/rr.slurm/logs/shard-2.out").string());
    EXPECT_TRUE(has(log2, "arena run: shard 2 of 4: games 7..12 of 24")) << log2;

    // Resubmitted by index: only task 3 runs, and a new merge completes it.
    const auto again = arena("slurm rr.yaml --shards 4 -c 2 --tasks 3");
    ASSERT_EQ(again.status, 0) << again.out;
    EXPECT_TRUE(has(again.out, "shards job 103 (tasks 3), merge job 104 (after 103)")) << again.out;
    EXPECT_TRUE(has(testing::slurp(path("fake/calls.txt").string()), "--parsable --array=3 "));
    const auto merge_log2 = testing::slurp(path("results/rr.slurm/logs/merge.out").string());
    EXPECT_TRUE(has(merge_log2, "tournament 'rr': 24 of 24 games, complete")) << merge_log2;
    EXPECT_EQ(query(merged, kGameRows), query(whole, kGameRows));
    EXPECT_EQ(query(merged, kMoveRows), query(whole, kMoveRows));
    // The standings, as the whole run's.
    const auto a = arena("standings results/rr.db"), b = arena("standings whole.db");
    EXPECT_EQ(a.status, 0);
    EXPECT_EQ(a.out, b.out);
}

TEST_F(SlurmCommand, LocalDirShardsAreCopiedBackAlsoWhenStoppedAndResume) {
    config();
    const auto whole = whole_run();
    const auto local = path("node-disk");
    // A shard stopped by SIGTERM (scancel, or the time limit) mid-run: the
    // script stops the run, which closes its database, and copies it back.
    // The directory names a variable of the node's environment, as $TMPDIR would.
    const std::string node_env = "NODE_DISK=" + shell_quote(local.string());
    const auto run = arena("slurm rr.yaml --shards 2 --local-dir '$NODE_DISK/arena'", node_env);
    ASSERT_EQ(run.status, 0) << run.out;
    const auto shard1 = path("results/rr.shard-1-of-2.db");
    ASSERT_TRUE(fs::exists(shard1));
    EXPECT_EQ(query_one(path("results/rr.db"), "SELECT count(*) FROM games"), "24");
    EXPECT_EQ(query(path("results/rr.db"), kGameRows), query(whole, kGameRows));
    // Nothing is left on the node's disk.
    EXPECT_TRUE(fs::is_empty(local / "arena")) << local;

    // Shard 1 again from nothing, stopped after 3 games. Its 12 games take
    // about a second, so on a busy machine the task can end before the
    // signal comes: then it is tried again, from nothing.
    const std::string script = path("results/rr.slurm/shards.sbatch").string();
    const auto local_db = local / "arena" / "rr.shard-1-of-2.db";
    std::int64_t kept = 12;
    std::string task_log;
    for (int attempt = 0; attempt < 5 && kept == 12; ++attempt) {
        fs::remove(shard1);
        const pid_t pid = fork();
        if (pid == 0) {
            setenv("SLURM_ARRAY_TASK_ID", "1", 1);
            setenv("NODE_DISK", local.c_str(), 1);
            const int out = open(path("task.out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(out, 1);
            dup2(out, 2);
            execl("/bin/bash", "bash", script.c_str(), nullptr);
            _exit(127);
        }
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(2);
        while (testing::games_stored_now(local_db) < 3 &&
               std::chrono::steady_clock::now() < give_up)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        kill(pid, SIGTERM);
        int status = 0;
        waitpid(pid, &status, 0);
        task_log = testing::slurp(path("task.out").string());
        ASSERT_TRUE(fs::exists(shard1)) << task_log;
        kept = std::stoll(query_one(shard1, "SELECT count(*) FROM games"));
        EXPECT_FALSE(fs::exists(local_db)) << task_log;
    }
    EXPECT_GE(kept, 3) << task_log;
    ASSERT_LT(kept, 12) << "the task ended before it was stopped, 5 times\n" << task_log;

    // The next attempt starts from the copy and plays only what is missing.
    const auto resumed = run_shell(node_env + " SLURM_ARRAY_TASK_ID=1 bash " + shell_quote(script));
    EXPECT_EQ(resumed.status, 0) << resumed.out;
    EXPECT_EQ(query_one(shard1, "SELECT count(*) FROM games"), "12") << resumed.out;
    long played = 0;
    for (const auto& line : testing::lines_of(resumed.out))
        played += line.starts_with("game ") ? 1 : 0;
    EXPECT_EQ(played, 12 - kept) << resumed.out;
    std::string first_half = kGameRows;
    first_half.insert(first_half.find("ORDER BY"), "WHERE g.game_index < 12 ");
    EXPECT_EQ(query(shard1, kGameRows), query(whole, first_half));
}

}  // namespace
}  // namespace arena::cluster
