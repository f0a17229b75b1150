// What `arena slurm` does around its scripts (cluster/slurm_submission):
// where a job's files go, the commands --dry-run prints, the files written,
// and the lines said after a submission or a failed merge submission; and
// the submission itself, with a stand-in sbatch.

#include "arena/cluster/slurm_submission.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena::cluster {
namespace {

namespace fs = std::filesystem;

SlurmJob small_job(const fs::path& dir) {
    SlurmJob job;
    job.tournament = "cup";
    job.arena = "/opt/arena";
    job.config = "/home/o/cup.yaml";
    job.workdir = "/home/o";
    job.database = dir / "db" / "cup.db";
    job.job_dir = dir / "cup.slurm";
    job.parts = 3;
    return job;
}

TEST(SlurmSubmission, PlacesTheJobsFilesAbsoluteWithDefaults) {
    SlurmJob job;
    place_job(job, "cup", "configs/../cup.yaml", "results/cup.db", "", "");
    const auto here = fs::current_path();
    EXPECT_EQ(job.tournament, "cup");
    EXPECT_EQ(job.workdir, here);
    EXPECT_EQ(job.config, here / "cup.yaml");
    EXPECT_EQ(job.database, here / "results" / "cup.db");
    EXPECT_EQ(job.job_dir, here / "results" / "cup.slurm");
    EXPECT_EQ(job.arena, own_executable());
    EXPECT_TRUE(job.arena.is_absolute());
    place_job(job, "cup", "/c.yaml", "/d/cup.db", "jobs/./x", "/bin/../usr/bin/arena");
    EXPECT_EQ(job.job_dir, here / "jobs" / "x");
    EXPECT_EQ(job.arena, fs::path("/usr/bin/arena"));
}

TEST(SlurmSubmission, ANoteWhenShardsOutnumberPairs) {
    EXPECT_EQ(parts_note(Split::kShards, 3, 3), "");
    EXPECT_EQ(parts_note(Split::kShards, 5, 3),
              "note: 5 shards for 3 colour-swapped pairs: 2 shard(s) will have no games");
    EXPECT_EQ(parts_note(Split::kShards, 2, 1),
              "note: 2 shards for 1 colour-swapped pair: 1 shard(s) will have no games");
}

TEST(SlurmSubmission, DryRunPrintsTheScriptsAndCommandsBashTakes) {
    const auto job = small_job("/j");
    EXPECT_EQ(sbatch_command_line({"--parsable", "a b"}), "sbatch '--parsable' 'a b'");
    EXPECT_EQ(merge_command_line(job),
              "sbatch '--parsable' '--dependency=afterany:'\"${job%%;*}\" "
              "'/j/cup.slurm/merge.sbatch'");
    const auto scripts = slurm_scripts(job);
    EXPECT_EQ(dry_run_text(job, "2"),
              "# /j/cup.slurm/shards.sbatch\n" + scripts.array + "\n# /j/cup.slurm/merge.sbatch\n" +
                  scripts.merge +
                  "\n# submitted with:\nmkdir -p '/j/cup.slurm/logs'\n"
                  "job=$(sbatch '--parsable' '--array=2' '/j/cup.slurm/shards.sbatch')\n" +
                  merge_command_line(job) + "\n");
    // The printed commands run in bash: the merge takes the array's job id.
    const auto r =
        testing::run_shell("job='41;cluster'; printf '%s|' " + merge_command_line(job).substr(7));
    EXPECT_EQ(r.out, "--parsable|--dependency=afterany:41|/j/cup.slurm/merge.sbatch|");
}

TEST(SlurmSubmission, WritesBothScriptsExecutable) {
    testing::TempDir dir;
    const auto job = small_job(dir.path());
    write_job_files(job);
    EXPECT_TRUE(fs::is_directory(job.job_dir / "logs"));
    EXPECT_TRUE(fs::is_directory(dir.path() / "db"));
    const auto scripts = slurm_scripts(job);
    EXPECT_EQ(testing::slurp(array_script_path(job).string()), scripts.array);
    EXPECT_EQ(testing::slurp(merge_script_path(job).string()), scripts.merge);
    EXPECT_NE(fs::status(merge_script_path(job)).permissions() & fs::perms::owner_exec,
              fs::perms::none);
    EXPECT_FALSE(fs::exists(job.job_dir / "shards.sbatch.part"));
}

TEST(SlurmSubmission, RefusesAFolderItCannotCreate) {
    testing::TempDir dir;
    auto job = small_job(dir.path());
    (void)dir.write("file", "");
    job.job_dir = dir.path() / "file" / "cup.slurm";
    EXPECT_THROW(write_job_files(job), fs::filesystem_error);
}

TEST(SlurmSubmission, SaysWhatWasSubmittedAndHowToSubmitAMissingMerge) {
    const auto job = small_job("/j");
    EXPECT_EQ(submitted_text(job, "", "41", "42"),
              "tournament 'cup' in 3 shards: scripts in /j/cup.slurm\n"
              "submitted: shards job 41 (tasks 1-3), merge job 42 (after 41)\n"
              "  watch:    squeue -j 41,42\n"
              "  logs:     /j/cup.slurm/logs/\n"
              "  results:  arena standings /j/db/cup.db (once the merge ran)\n"
              "  resubmit: this command with --tasks K[,K...] (the shards that failed; a new "
              "merge follows them)\n");
    EXPECT_NE(submitted_text(job, "2,3", "41", "42").find("(tasks 2,3)"), std::string::npos);
    EXPECT_EQ(merge_unsubmitted_text(job, "41", "sbatch: error: no partition"),
              "the shards are submitted as job 41, but the merge job is not: sbatch: error: no "
              "partition\n(submit it by hand: sbatch --dependency=afterany:41 "
              "'/j/cup.slurm/merge.sbatch')\n");
}

SlurmJob small_workers(const fs::path& dir) {
    auto job = small_job(dir);
    job.split = Split::kWorkers;
    job.parts = 2;
    return job;
}

TEST(SlurmSubmission, WorkersNotesDryRunFilesAndTextsSayWorkers) {
    EXPECT_EQ(parts_note(Split::kWorkers, 2, 2), "");
    EXPECT_EQ(parts_note(Split::kWorkers, 5, 3),
              "note: 5 workers for 3 colour-swapped pairs: 2 worker(s) will have no games");

    const auto job = small_workers("/j");
    const auto scripts = slurm_scripts(job);
    EXPECT_EQ(dry_run_text(job, ""),
              "# /j/cup.slurm/workers.sbatch\n" + scripts.array +
                  "\n# /j/cup.slurm/merge.sbatch\n" + scripts.merge +
                  "\n# submitted with:\nmkdir -p '/j/cup.slurm/logs'\n"
                  "job=$(sbatch '--parsable' '/j/cup.slurm/workers.sbatch')\n" +
                  merge_command_line(job) + "\n");
    EXPECT_EQ(submitted_text(job, "", "81234", "81235"),
              "tournament 'cup' in 2 workers: scripts in /j/cup.slurm\n"
              "submitted: workers job 81234 (tasks 1-2), merge job 81235 (after 81234)\n"
              "  watch:    squeue -j 81234,81235\n"
              "  logs:     /j/cup.slurm/logs/\n"
              "  results:  arena standings /j/db/cup.db (once the merge ran)\n"
              "  resubmit: this command with --tasks K[,K...] (the workers that failed; a new "
              "merge follows them)\n");
    auto one = job;
    one.parts = 1;
    EXPECT_NE(submitted_text(one, "", "41", "42").find("in 1 worker: "), std::string::npos);
    EXPECT_EQ(merge_unsubmitted_text(job, "41", "sbatch: error: no partition"),
              "the workers are submitted as job 41, but the merge job is not: sbatch: error: no "
              "partition\n(submit it by hand: sbatch --dependency=afterany:41 "
              "'/j/cup.slurm/merge.sbatch')\n");

    testing::TempDir dir;
    const auto on_disk = small_workers(dir.path());
    write_job_files(on_disk);
    EXPECT_EQ(array_script_path(on_disk), dir.path() / "cup.slurm" / "workers.sbatch");
    EXPECT_EQ(testing::slurp(array_script_path(on_disk).string()), slurm_scripts(on_disk).array);
    EXPECT_NE(fs::status(array_script_path(on_disk)).permissions() & fs::perms::owner_exec,
              fs::perms::none);
    EXPECT_FALSE(fs::exists(dir.path() / "cup.slurm" / "shards.sbatch"));
    // The workers' databases' folder, which they all read, is there before they start.
    EXPECT_TRUE(fs::is_directory(part_database(on_disk, 1).parent_path()));
}

// A stand-in sbatch in `dir`, first on PATH while it lives: it prints job
// ids 41, 42, ... and refuses a job with a dependency when `refuse_merge`.
class FakeSbatch {
  public:
    FakeSbatch(const fs::path& dir, bool refuse_merge) : path_(std::getenv("PATH")) {
        fs::create_directories(dir);
        std::ofstream(dir / "sbatch")
            << "#!/bin/sh\n"
            << (refuse_merge ? "case \"$*\" in *--dependency*) echo 'sbatch: error: no partition' "
                               ">&2; exit 1;; esac\n"
                             : "")
            << "n=$(cat \"$0.n\" 2>/dev/null || echo 40); n=$((n + 1)); echo $n > \"$0.n\"; "
               "echo $n\n";
        fs::permissions(dir / "sbatch", fs::perms::owner_all);
        ::setenv("PATH", (dir.string() + ":" + path_).c_str(), 1);
    }
    ~FakeSbatch() { ::setenv("PATH", path_.c_str(), 1); }
    FakeSbatch(const FakeSbatch&) = delete;
    FakeSbatch& operator=(const FakeSbatch&) = delete;

  private:
    std::string path_;
};

TEST(SlurmSubmission, SubmitsTheShardsThenTheMergeAfterThem) {
    testing::TempDir dir;
    const auto job = small_job(dir.path());
    {
        FakeSbatch sbatch(dir.path() / "ok", false);
        EXPECT_EQ(submit_job(job, ""), submitted_text(job, "", "41", "42"));
    }
    EXPECT_TRUE(fs::exists(job.job_dir / "merge.sbatch"));
    {
        const auto workers = small_workers(dir.path());
        FakeSbatch sbatch(dir.path() / "ok-workers", false);
        EXPECT_EQ(submit_job(workers, "2"), submitted_text(workers, "2", "41", "42"));
        EXPECT_TRUE(fs::exists(workers.job_dir / "workers.sbatch"));
    }
    FakeSbatch sbatch(dir.path() / "no-merge", true);
    try {
        (void)submit_job(job, "2");
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_EQ(
            what.rfind("the shards are submitted as job 41, but the merge job is not: sbatch ", 0),
            0u)
            << what;
        const std::string end =
            "failed (exit 1): sbatch: error: no partition\n(submit it by "
            "hand: sbatch --dependency=afterany:41 '" +
            (job.job_dir / "merge.sbatch").string() + "')";
        ASSERT_GE(what.size(), end.size());
        EXPECT_EQ(what.substr(what.size() - end.size()), end);
    }
}

}  // namespace
}  // namespace arena::cluster
