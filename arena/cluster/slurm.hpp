#pragma once
// `arena slurm`: a sharded tournament as a Slurm job array (one task per
// shard, each an `arena run CONFIG --shard K/N`) and a merge job that runs
// after it (`--dependency=afterany`). This file writes the two sbatch
// scripts (pure text, no I/O) and submits them with `sbatch`
// (docs/cluster.md).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena::cluster {

// Everything the scripts name. Paths are absolute: the tasks run on other
// machines, from `workdir`, where the config's relative paths (its bots,
// openings and results) resolve as they do for `arena run` here.
struct SlurmJob {
    std::string tournament;            // the config's name, shown in the job names
    std::filesystem::path arena;       // the arena executable every task runs
    std::filesystem::path config;      // the tournament's config
    std::filesystem::path workdir;     // where the tasks start (sbatch --chdir)
    std::filesystem::path database;    // the merged database; shard K next to it
    std::filesystem::path job_dir;     // the scripts, and the tasks' logs in logs/
    int shards = 1;                    // N
    int cpus_per_task = 1;             // C: each task plays C games at once
    std::string partition;             // empty: the cluster's default partition
    std::string time;                  // each task's time limit; empty: the default
    std::string merge_time = "30:00";  // the merge job's time limit
    int max_running = 0;               // at most this many tasks at once (%M); 0: no limit
    std::vector<std::string> options;  // further sbatch options, one #SBATCH line each
    // Node-local databases: each task plays into this directory on its node
    // (it may name the node's environment, such as $TMPDIR), starting from
    // the shard's copy on the shared file system if there is one, and copies
    // its database back there when it ends. Empty: the tasks write to the
    // shared file system directly.
    std::string local_dir;
};

struct SlurmScripts {
    std::string shards;  // the array job
    std::string merge;   // the merge job
};

// The two scripts. Each is a bash script with #SBATCH lines, so it can also
// be resubmitted by hand (`sbatch --array=3 shards.sbatch`).
[[nodiscard]] SlurmScripts slurm_scripts(const SlurmJob& job);

// Why `job` cannot be written as sbatch directives, naming the option; empty
// when it can. sbatch splits its #SBATCH lines at white space and reads '%'
// in log names as a pattern, so the paths the directives name must have
// neither; partitions, times and options are checked for their form.
[[nodiscard]] std::string slurm_job_problem(const SlurmJob& job);

// The array indices of a resubmission: "3", "2,5-7". Each index lies in
// 1..shards; nullopt after setting `problem` to what is wrong (naming --tasks).
[[nodiscard]] std::optional<std::string> parse_tasks(std::string_view text, int shards,
                                                     std::string& problem);

// `text` as one word of a POSIX shell: in single quotes.
[[nodiscard]] std::string shell_quote(std::string_view text);

// Files of the job in its directory.
[[nodiscard]] std::filesystem::path shards_script_path(const SlurmJob& job);
[[nodiscard]] std::filesystem::path merge_script_path(const SlurmJob& job);

// The argument lists of the two submissions: `sbatch --parsable [--array=LIST]
// shards.sbatch`, then `sbatch --parsable --dependency=afterany:JOB
// merge.sbatch` with JOB the array's job id.
[[nodiscard]] std::vector<std::string> shards_submission(const SlurmJob& job,
                                                         const std::string& tasks);
[[nodiscard]] std::vector<std::string> merge_submission(const SlurmJob& job,
                                                        const std::string& after_job);

// Runs `sbatch` with `args` and returns the job id it prints (--parsable:
// "ID" or "ID;CLUSTER"). Throws std::runtime_error with sbatch's own message
// when it fails, or when no sbatch is found on PATH.
[[nodiscard]] std::string submit(const std::vector<std::string>& args);

}  // namespace arena::cluster
