#pragma once
// `arena slurm`: a tournament spread over a Slurm job array, in shards (one
// task per shard, each an `arena run CONFIG --shard K/N`) or in workers (one
// task per worker, each an `arena run CONFIG --worker K/N`), and a merge job
// that runs after it (`--dependency=afterany`). This file writes the two
// sbatch scripts (pure text, no I/O) and submits them with `sbatch`
// (docs/cluster.md).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena::cluster {

// How the array's tasks share the tournament.
enum class Split {
    kShards,   // task K plays shard K of N on its own (`arena run --shard K/N`)
    kWorkers,  // task K is worker K of N (`arena run --worker K/N`), reading the others' databases
};

// "shard" or "worker": what the tasks are called in the scripts, their
// file names and the messages.
[[nodiscard]] std::string_view part_noun(Split split);

// Everything the scripts name. Paths are absolute: the tasks run on other
// machines, from `workdir`, where the config's relative paths (its bots,
// openings and results) resolve as they do for `arena run` here.
struct SlurmJob {
    std::string tournament;            // the config's name, shown in the job names
    std::filesystem::path arena;       // the arena executable every task runs
    std::filesystem::path config;      // the tournament's config
    std::filesystem::path workdir;     // where the tasks start (sbatch --chdir)
    std::filesystem::path database;    // the merged database; part K next to it
    std::filesystem::path job_dir;     // the scripts, and the tasks' logs in logs/
    Split split = Split::kShards;      // shards or workers
    int parts = 1;                     // N: the shards or workers, one array task each
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
    // shared file system directly. Shards only: workers read each other's
    // databases, so theirs stay on the shared file system (slurm_job_problem
    // refuses it, and the workers' script leaves it out).
    std::string local_dir;
};

struct SlurmScripts {
    std::string array;  // the array job: shards.sbatch or workers.sbatch
    std::string merge;  // the merge job: merge.sbatch
};

// The two scripts. Each is a bash script with #SBATCH lines, so it can also
// be resubmitted by hand (`sbatch --array=3 shards.sbatch`). Part K's
// database is `part_database(job, K)`, its log `part_log(job, K)`.
[[nodiscard]] SlurmScripts slurm_scripts(const SlurmJob& job);

// Why `job` cannot be written as sbatch directives, naming the option; empty
// when it can. sbatch splits its #SBATCH lines at white space and reads '%'
// in log names as a pattern, so the paths the directives name must have
// neither; partitions, times and options are checked for their form. Workers
// cannot have a local_dir: they read each other's databases.
[[nodiscard]] std::string slurm_job_problem(const SlurmJob& job);

// The array indices of a resubmission: "3", "2,5-7". Each index lies in
// 1..parts; nullopt after setting `problem` to what is wrong (naming --tasks
// and, by `split`, the shards' or the workers' range).
[[nodiscard]] std::optional<std::string> parse_tasks(std::string_view text, Split split, int parts,
                                                     std::string& problem);

// `text` as one word of a POSIX shell: in single quotes.
[[nodiscard]] std::string shell_quote(std::string_view text);

// Files of the job in its directory: the array's script (`shards.sbatch` or
// `workers.sbatch`) and `merge.sbatch`.
[[nodiscard]] std::filesystem::path array_script_path(const SlurmJob& job);
[[nodiscard]] std::filesystem::path merge_script_path(const SlurmJob& job);

// Where task K (1..parts) plays: next to the merged database, with
// ".shard-K-of-N" or ".worker-K-of-N" before its extension
// (results/big.db -> results/big.worker-2-of-4.db). Every part of a job is
// in that one folder: workers read each other's databases there.
[[nodiscard]] std::filesystem::path part_database(const SlurmJob& job, int k);

// Task K's log: logs/shard-K.out or logs/worker-K.out in the job's folder
// (the merge job's: logs/merge.out).
[[nodiscard]] std::filesystem::path part_log(const SlurmJob& job, int k);

// The argument lists of the two submissions: `sbatch --parsable [--array=LIST]
// shards.sbatch` (or workers.sbatch), then `sbatch --parsable
// --dependency=afterany:JOB merge.sbatch` with JOB the array's job id.
[[nodiscard]] std::vector<std::string> array_submission(const SlurmJob& job,
                                                        const std::string& tasks);
[[nodiscard]] std::vector<std::string> merge_submission(const SlurmJob& job,
                                                        const std::string& after_job);

// Runs `sbatch` with `args` and returns the job id it prints (--parsable:
// "ID" or "ID;CLUSTER"). Throws std::runtime_error with sbatch's own message
// when it fails, or when no sbatch is found on PATH.
[[nodiscard]] std::string submit(const std::vector<std::string>& args);

}  // namespace arena::cluster
