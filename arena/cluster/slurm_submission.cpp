#include "arena/cluster/slurm_submission.hpp"

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace arena::cluster {
namespace {

namespace fs = std::filesystem;

void write_script(const fs::path& path, const std::string& text) {
    const auto part = fs::path(path.string() + ".part");
    {
        std::ofstream file(part, std::ios::trunc);
        file << text;
        file.close();
        if (!file) throw std::runtime_error("cannot write " + part.string());
    }
    fs::permissions(part, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    fs::rename(part, path);
}

fs::path absolute_path(const fs::path& path) {
    return fs::absolute(path).lexically_normal();
}

}  // namespace

fs::path own_executable() {
    std::error_code ec;
    auto self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path{} : self;
}

void place_job(SlurmJob& job, const std::string& tournament, const fs::path& config,
               const fs::path& database, const fs::path& job_dir, const fs::path& arena) {
    job.tournament = tournament;
    job.workdir = fs::current_path();
    job.config = absolute_path(config);
    job.database = absolute_path(database);
    job.job_dir = job_dir.empty() ? job.database.parent_path() / (tournament + ".slurm")
                                  : absolute_path(job_dir);
    job.arena = arena.empty() ? own_executable() : absolute_path(arena);
}

std::string parts_note(Split split, int parts, std::size_t pairs) {
    if (static_cast<std::size_t>(parts) <= pairs) return "";
    const std::string noun(part_noun(split));
    return "note: " + std::to_string(parts) + " " + noun + "s for " + std::to_string(pairs) +
           " colour-swapped pair" + (pairs == 1 ? "" : "s") + ": " +
           std::to_string(static_cast<std::size_t>(parts) - pairs) + " " + noun +
           "(s) will have no games";
}

std::string sbatch_command_line(const std::vector<std::string>& args) {
    std::string s = "sbatch";
    for (const auto& a : args)
        s += " " + shell_quote(a);
    return s;
}

std::string merge_command_line(const SlurmJob& job) {
    constexpr std::string_view kJob = "\x01";
    std::string s = "sbatch";
    for (const auto& a : merge_submission(job, std::string(kJob))) {
        const auto at = a.find(kJob);
        if (at == std::string::npos) {
            s += " " + shell_quote(a);
        } else {
            s += " " + shell_quote(a.substr(0, at)) + "\"${job%%;*}\"" +
                 (at + kJob.size() < a.size() ? shell_quote(a.substr(at + kJob.size())) : "");
        }
    }
    return s;
}

std::string dry_run_text(const SlurmJob& job, const std::string& tasks) {
    const auto scripts = slurm_scripts(job);
    return "# " + array_script_path(job).string() + "\n" + scripts.array + "\n# " +
           merge_script_path(job).string() + "\n" + scripts.merge + "\n# submitted with:\n" +
           "mkdir -p " + shell_quote((job.job_dir / "logs").string()) + "\n" + "job=$(" +
           sbatch_command_line(array_submission(job, tasks)) + ")\n" + merge_command_line(job) +
           "\n";
}

void write_job_files(const SlurmJob& job) {
    const auto scripts = slurm_scripts(job);
    fs::create_directories(job.job_dir / "logs");
    fs::create_directories(job.database.parent_path());
    write_script(array_script_path(job), scripts.array);
    write_script(merge_script_path(job), scripts.merge);
}

std::string submitted_text(const SlurmJob& job, const std::string& tasks,
                           const std::string& array_job, const std::string& merge_job) {
    const std::string noun(part_noun(job.split));
    const std::string shown_tasks = tasks.empty() ? "1-" + std::to_string(job.parts) : tasks;
    return "tournament '" + job.tournament + "' in " + std::to_string(job.parts) + " " + noun +
           (job.parts == 1 ? "" : "s") + ": scripts in " + job.job_dir.string() + "\n" +
           "submitted: " + noun + "s job " + array_job + " (tasks " + shown_tasks +
           "), merge job " + merge_job + " (after " + array_job + ")\n" + "  watch:    squeue -j " +
           array_job + "," + merge_job + "\n" + "  logs:     " + (job.job_dir / "logs").string() +
           "/\n" + "  results:  arena standings " + job.database.string() +
           " (once the merge ran)\n" + "  resubmit: this command with --tasks K[,K...] (the " +
           noun + "s that failed; a new merge follows them)\n";
}

std::string merge_unsubmitted_text(const SlurmJob& job, const std::string& array_job,
                                   std::string_view why) {
    return "the " + std::string(part_noun(job.split)) + "s are submitted as job " + array_job +
           ", but the merge job is not: " + std::string(why) + "\n" +
           "(submit it by hand: sbatch --dependency=afterany:" + array_job + " " +
           shell_quote(merge_script_path(job).string()) + ")\n";
}

std::string submit_job(const SlurmJob& job, const std::string& tasks) {
    write_job_files(job);
    const std::string array_job = submit(array_submission(job, tasks));
    std::string merge_job;
    try {
        merge_job = submit(merge_submission(job, array_job));
    } catch (const std::exception& e) {
        std::string text = merge_unsubmitted_text(job, array_job, e.what());
        text.pop_back();  // its last newline
        throw std::runtime_error(text);
    }
    return submitted_text(job, tasks, array_job, merge_job);
}

}  // namespace arena::cluster
