#pragma once
// What `arena slurm` does with a job besides its scripts (slurm.hpp): where
// the job's files go, writing them, and the lines it prints: the commands of
// --dry-run, and what was submitted.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "arena/cluster/slurm.hpp"

namespace arena::cluster {

// Where this executable is (/proc/self/exe), for the tasks to run the same
// one; empty when that cannot be told.
[[nodiscard]] std::filesystem::path own_executable();

// Sets the job's tournament and its paths, absolute and normal: `workdir`
// the current directory; `config`; `database`; `job_dir` (empty: the folder
// `<tournament>.slurm` next to the database); `arena` (empty: this
// executable, own_executable(), which may leave it empty).
void place_job(SlurmJob& job, const std::string& tournament, const std::filesystem::path& config,
               const std::filesystem::path& database, const std::filesystem::path& job_dir,
               const std::filesystem::path& arena);

// "note: 5 shards for 3 colour-swapped pairs: 2 shard(s) will have no
// games" when there are more parts than pairs ("workers", "worker(s)" by
// `split`); else empty.
[[nodiscard]] std::string parts_note(Split split, int parts, std::size_t pairs);

// `sbatch ARGS...` as one line of a POSIX shell.
[[nodiscard]] std::string sbatch_command_line(const std::vector<std::string>& args);

// The merge job's sbatch command as --dry-run prints it, to be pasted into
// bash after `job=$(sbatch --parsable ...)`: the dependency in double quotes,
// so that bash puts in the job id (--parsable prints "ID" or "ID;CLUSTER").
[[nodiscard]] std::string merge_command_line(const SlurmJob& job);

// What --dry-run prints: both scripts, each after a comment naming its file,
// then the commands that submit them (the array's only `tasks`, if any).
[[nodiscard]] std::string dry_run_text(const SlurmJob& job, const std::string& tasks);

// Creates the job's folder with its logs/ and the database's folder, and
// writes both scripts there, executable (each through a .part file).
// Throws std::runtime_error or std::filesystem::filesystem_error.
void write_job_files(const SlurmJob& job);

// Writes the job's files (write_job_files) and submits its two jobs: the
// array of shards or workers (only `tasks`, if any), then the merge job after it.
// Returns submitted_text. Throws std::runtime_error with the lines that
// follow "arena slurm: ", but for their last newline: what failed, or, when
// only the merge job was not submitted, merge_unsubmitted_text.
[[nodiscard]] std::string submit_job(const SlurmJob& job, const std::string& tasks);

// After a submission: the job's scripts, its two jobs (the array's `tasks`,
// empty: all) and how to follow them; lines that follow "arena slurm: ".
[[nodiscard]] std::string submitted_text(const SlurmJob& job, const std::string& tasks,
                                         const std::string& array_job,
                                         const std::string& merge_job);

// When the array was submitted as `array_job` but the merge job was not
// (`why`): what happened and the command that submits the merge by hand;
// lines that follow "arena slurm: ".
[[nodiscard]] std::string merge_unsubmitted_text(const SlurmJob& job, const std::string& array_job,
                                                 std::string_view why);

}  // namespace arena::cluster
