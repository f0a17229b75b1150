// `arena slurm CONFIG --shards N`: submits a tournament to Slurm as a job
// array of N shards and a merge job after it (arena/cluster/slurm.hpp,
// docs/cluster.md), or prints both scripts with --dry-run.

#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/config_args.hpp"
#include "arena/cluster/slurm.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena/tournament/shard.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr std::string_view kSlurmUsage =
    R"(usage: arena slurm CONFIG --shards N [--partition P] [--time T] [--cpus-per-task C]
                   [--tasks LIST] [--dry-run] [options]

Plays the tournament of CONFIG on a Slurm cluster: writes a job array of N
tasks, task K running `arena run CONFIG --shard K/N --concurrency C` into
its own database, and a merge job that runs after the array ends
(--dependency=afterany) and merges the shards into the tournament's
database; then submits both with sbatch. Run it on a login node, from the
directory the config's paths are relative to, on a file system every node
sees (docs/cluster.md). --dry-run prints the scripts and the sbatch commands
instead. --tasks resubmits only those shards (after a failure or scancel),
with a new merge after them.

)";

// Where this arena executable is, for the tasks to run the same one.
fs::path own_executable() {
    std::error_code ec;
    auto self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path{} : self;
}

std::string joined(const std::vector<std::string>& args) {
    std::string s = "sbatch";
    for (const auto& a : args)
        s += " " + cluster::shell_quote(a);
    return s;
}

// The merge job's sbatch command as --dry-run prints it, to be pasted into
// bash after `job=$(sbatch --parsable ...)`: the dependency in double quotes,
// so that bash puts in the job id (--parsable prints "ID" or "ID;CLUSTER").
std::string merge_command_line(const cluster::SlurmJob& job) {
    constexpr std::string_view kJob = "\x01";
    std::string s = "sbatch";
    for (const auto& a : cluster::merge_submission(job, std::string(kJob))) {
        const auto at = a.find(kJob);
        if (at == std::string::npos) {
            s += " " + cluster::shell_quote(a);
        } else {
            s += " " + cluster::shell_quote(a.substr(0, at)) + "\"${job%%;*}\"" +
                 (at + kJob.size() < a.size() ? cluster::shell_quote(a.substr(at + kJob.size()))
                                              : "");
        }
    }
    return s;
}

void write_file(const fs::path& path, const std::string& text) {
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

}  // namespace

int slurm_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string config_path, db_override, job_dir, arena_path, tasks_text;
    cluster::SlurmJob job;
    bool dry_run = false;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("shards,n", po::value<int>(&job.shards)->required(), "N: the number of shards, one array task each")
        ("partition,p", po::value<std::string>(&job.partition), "the partition (default: the cluster's)")
        ("time,t", po::value<std::string>(&job.time), "each task's time limit, as sbatch takes it (HH:MM:SS, D-HH:MM, ...; default: the partition's)")
        ("cpus-per-task,c", po::value<int>(&job.cpus_per_task)->default_value(1), "C: cores per task, and the games each task plays at once")
        ("max-running", po::value<int>(&job.max_running)->default_value(0), "at most this many tasks at once (0: as many as Slurm gives)")
        ("merge-time", po::value<std::string>(&job.merge_time)->default_value("30:00"), "the merge job's time limit")
        ("sbatch", po::value<std::vector<std::string>>(&job.options), "a further sbatch option for both jobs, e.g. --sbatch=--account=cs101 (repeatable)")
        ("db", po::value<std::string>(&db_override), "the merged database (default: the config's); shard K goes next to it as <name>.shard-K-of-N.db")
        ("local-dir", po::value<std::string>(&job.local_dir), "play each shard into this directory on its node (e.g. '$TMPDIR') and copy it back at the end")
        ("job-dir", po::value<std::string>(&job_dir), "where the scripts and the tasks' logs go (default: <database's folder>/<name>.slurm)")
        ("arena", po::value<std::string>(&arena_path), "the arena executable the tasks run (default: this one)")
        ("tasks", po::value<std::string>(&tasks_text), "submit only these shards, e.g. 3 or 2,5-7 (to resubmit failed tasks)")
        ("dry-run", po::bool_switch(&dry_run), "print the scripts and the sbatch commands; write and submit nothing");
    // clang-format on
    if (const auto done =
            parse_config_args("slurm", kSlurmUsage, args, opts, config_path, out, err))
        return *done;
    if (job.shards < 1) {
        err << "arena slurm: --shards must be 1 or more\n(arena slurm --help for usage)\n";
        return kExitUsage;
    }
    std::string tasks;
    if (!tasks_text.empty()) {
        std::string problem;
        const auto parsed = cluster::parse_tasks(tasks_text, job.shards, problem);
        if (!parsed) {
            err << "arena slurm: " << problem << "\n(arena slurm --help for usage)\n";
            return kExitUsage;
        }
        tasks = *parsed;
    }

    const auto loaded = load_config_or_say_why(config_path, err);
    if (!loaded) return kExitUsage;
    const tournament::Config& config = *loaded;
    if (const auto why = tournament::shard_refusal(config); !why.empty()) {
        err << "arena slurm: " << config.path.string() << ": " << why << "\n";
        return kExitUsage;
    }
    const auto pairs = tournament::make_schedule(config).size() / 2;
    if (static_cast<std::size_t>(job.shards) > pairs)
        err << "arena slurm: note: " << job.shards << " shards for " << pairs
            << " colour-swapped pair" << (pairs == 1 ? "" : "s") << ": "
            << static_cast<std::size_t>(job.shards) - pairs << " shard(s) will have no games\n";

    job.tournament = config.name;
    job.workdir = fs::current_path();
    job.config = fs::absolute(config_path).lexically_normal();
    job.database = fs::absolute(db_override.empty() ? config.database : fs::path(db_override))
                       .lexically_normal();
    job.job_dir = job_dir.empty() ? job.database.parent_path() / (config.name + ".slurm")
                                  : fs::absolute(job_dir).lexically_normal();
    job.arena = arena_path.empty() ? own_executable() : fs::absolute(arena_path).lexically_normal();
    if (job.arena.empty()) {
        err << "arena slurm: cannot tell where this arena executable is: give --arena PATH\n";
        return kExitUsage;
    }
    if (const auto problem = cluster::slurm_job_problem(job); !problem.empty()) {
        err << "arena slurm: " << problem << "\n(arena slurm --help for usage)\n";
        return kExitUsage;
    }

    const auto scripts = cluster::slurm_scripts(job);
    const auto shards_args = cluster::shards_submission(job, tasks);
    if (dry_run) {
        out << "# " << cluster::shards_script_path(job).string() << "\n"
            << scripts.shards << "\n# " << cluster::merge_script_path(job).string() << "\n"
            << scripts.merge << "\n# submitted with:\n"
            << "mkdir -p " << cluster::shell_quote((job.job_dir / "logs").string()) << "\n"
            << "job=$(" << joined(shards_args) << ")\n"
            << merge_command_line(job) << "\n";
        return kExitOk;
    }

    try {
        fs::create_directories(job.job_dir / "logs");
        fs::create_directories(job.database.parent_path());
        write_file(cluster::shards_script_path(job), scripts.shards);
        write_file(cluster::merge_script_path(job), scripts.merge);
    } catch (const std::exception& e) {
        err << "arena slurm: " << e.what() << "\n";
        return kExitFailure;
    }
    std::string array_job, merge_job;
    try {
        array_job = cluster::submit(shards_args);
    } catch (const std::exception& e) {
        err << "arena slurm: " << e.what() << "\n";
        return kExitFailure;
    }
    try {
        merge_job = cluster::submit(cluster::merge_submission(job, array_job));
    } catch (const std::exception& e) {
        err << "arena slurm: the shards are submitted as job " << array_job
            << ", but the merge job is not: " << e.what() << "\n"
            << "(submit it by hand: sbatch --dependency=afterany:" << array_job << " "
            << cluster::shell_quote(cluster::merge_script_path(job).string()) << ")\n";
        return kExitFailure;
    }
    const std::string shown_tasks = tasks.empty() ? "1-" + std::to_string(job.shards) : tasks;
    out << "arena slurm: tournament '" << config.name << "' in " << job.shards << " shard"
        << (job.shards == 1 ? "" : "s") << ": scripts in " << job.job_dir.string() << "\n"
        << "submitted: shards job " << array_job << " (tasks " << shown_tasks << "), merge job "
        << merge_job << " (after " << array_job << ")\n"
        << "  watch:    squeue -j " << array_job << "," << merge_job << "\n"
        << "  logs:     " << (job.job_dir / "logs").string() << "/\n"
        << "  results:  arena standings " << job.database.string() << " (once the merge ran)\n"
        << "  resubmit: this command with --tasks K[,K...] (the shards that failed; a new merge "
           "follows them)\n";
    return kExitOk;
}

}  // namespace arena::cli
