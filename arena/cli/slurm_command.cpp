// `arena slurm CONFIG --shards N` / `--workers N`: submits a tournament to
// Slurm as a job array of N shards or N workers and a merge job after it
// (arena/cluster/slurm.hpp, docs/cluster.md), or prints both scripts with
// --dry-run.

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/config_args.hpp"
#include "arena/cluster/slurm.hpp"
#include "arena/cluster/slurm_submission.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena/tournament/shard.hpp"
#include "arena/tournament/workers.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr std::string_view kSlurmUsage =
    R"(usage: arena slurm CONFIG (--shards N | --workers N) [--partition P] [--time T]
                   [--cpus-per-task C] [--tasks LIST] [--dry-run] [options]

Plays the tournament of CONFIG on a Slurm cluster: writes a job array of N
tasks, task K running `arena run CONFIG --shard K/N --concurrency C` (or
`--worker K/N` with --workers) into its own database, and a merge job that
runs after the array ends (--dependency=afterany) and merges the tasks'
databases into the tournament's database; then submits both with sbatch.
Run it on a login node, from the directory the config's paths are relative
to, on a file system every node sees (docs/cluster.md). --dry-run prints
the scripts and the sbatch commands instead. --tasks resubmits only those
shards or workers (after a failure or scancel), with a new merge after them.

Shards play apart, each its own range of the schedule; they cannot play an
SPRT gauntlet or a ladder. Workers read each other's databases between
pairs, so an SPRT gauntlet stops on all of them once decided and a ladder's
rounds are played by all together; their databases stay on the shared file
system (no --local-dir).

)";

}  // namespace

int slurm_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string config_path, db_override, job_dir, arena_path, tasks_text;
    cluster::SlurmJob job;
    std::optional<int> shards, workers;
    bool dry_run = false;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("shards,n", po::value<int>()->notifier([&](int n) { shards = n; }), "N: the number of shards, one array task each (arena run --shard K/N)")
        ("workers", po::value<int>()->notifier([&](int n) { workers = n; }), "N: the number of workers, one array task each (arena run --worker K/N); instead of --shards")
        ("partition,p", po::value<std::string>(&job.partition), "the partition (default: the cluster's)")
        ("time,t", po::value<std::string>(&job.time), "each task's time limit, as sbatch takes it (HH:MM:SS, D-HH:MM, ...; default: the partition's)")
        ("cpus-per-task,c", po::value<int>(&job.cpus_per_task)->default_value(1), "C: cores per task, and the games each task plays at once")
        ("max-running", po::value<int>(&job.max_running)->default_value(0), "at most this many tasks at once (0: as many as Slurm gives)")
        ("merge-time", po::value<std::string>(&job.merge_time)->default_value("30:00"), "the merge job's time limit")
        ("sbatch", po::value<std::vector<std::string>>(&job.options), "a further sbatch option for both jobs, e.g. --sbatch=--account=cs101 (repeatable)")
        ("db", po::value<std::string>(&db_override), "the merged database (default: the config's); shard or worker K goes next to it as <name>.shard-K-of-N.db or <name>.worker-K-of-N.db")
        ("local-dir", po::value<std::string>(&job.local_dir), "play each shard into this directory on its node (e.g. '$TMPDIR') and copy it back at the end (not with --workers)")
        ("job-dir", po::value<std::string>(&job_dir), "where the scripts and the tasks' logs go (default: <database's folder>/<name>.slurm)")
        ("arena", po::value<std::string>(&arena_path), "the arena executable the tasks run (default: this one)")
        ("tasks", po::value<std::string>(&tasks_text), "submit only these shards or workers, e.g. 3 or 2,5-7 (to resubmit failed tasks)")
        ("dry-run", po::bool_switch(&dry_run), "print the scripts and the sbatch commands; write and submit nothing");
    // clang-format on
    const auto one_split = [](const po::variables_map& vm) {
        if (vm.count("shards") && vm.count("workers"))
            throw std::invalid_argument(
                "give either --shards N or --workers N, not both (docs/cluster.md)");
        if (!vm.count("shards") && !vm.count("workers"))
            throw std::invalid_argument(
                "give --shards N (each task plays its own range of the schedule) or --workers N "
                "(the tasks read each other's results: SPRT gauntlets, ladders)");
    };
    if (const auto done =
            parse_config_args("slurm", kSlurmUsage, args, opts, config_path, out, err, one_split))
        return *done;
    job.split = workers ? cluster::Split::kWorkers : cluster::Split::kShards;
    job.parts = workers ? *workers : *shards;
    const std::string noun(cluster::part_noun(job.split));
    if (job.parts < 1) {
        err << "arena slurm: --" << noun << "s must be 1 or more\n(arena slurm --help for usage)\n";
        return kExitUsage;
    }
    std::string tasks;
    if (!tasks_text.empty()) {
        std::string problem;
        const auto parsed = cluster::parse_tasks(tasks_text, job.split, job.parts, problem);
        if (!parsed) {
            err << "arena slurm: " << problem << "\n(arena slurm --help for usage)\n";
            return kExitUsage;
        }
        tasks = *parsed;
    }

    const auto loaded = tournament::load_config(config_path, err);
    if (!loaded) return kExitUsage;
    const tournament::Config& config = *loaded;
    if (const auto why = tournament::too_few_bots(config); !why.empty()) {
        err << "arena slurm: " << why << "\n";  // a league nobody has uploaded to yet
        return kExitFailure;
    }
    if (job.split == cluster::Split::kShards) {
        if (const auto why = tournament::shard_refusal(config); !why.empty()) {
            err << "arena slurm: " << config.path.string() << ": " << why << "\n";
            return kExitUsage;
        }
    } else if (const auto why = tournament::worker_refusal(config); !why.empty()) {
        // Workers play SPRT gauntlets and ladders (each reads the others'
        // results between pairs), but not a tune.
        err << "arena slurm: " << config.path.string() << ": " << why << "\n";
        return kExitUsage;
    }
    // A ladder's schedule is made round by round from its results: its
    // pairs are not known ahead, so there is nothing to compare N with.
    if (config.schedule != tournament::ScheduleType::kLadder) {
        const auto pairs = tournament::make_schedule(config).size() / 2;
        if (const auto note = cluster::parts_note(job.split, job.parts, pairs); !note.empty())
            err << "arena slurm: " << note << "\n";
    }

    cluster::place_job(job, config.name, config_path,
                       db_override.empty() ? config.database : fs::path(db_override), job_dir,
                       arena_path);
    if (job.arena.empty()) {
        err << "arena slurm: cannot tell where this arena executable is: give --arena PATH\n";
        return kExitUsage;
    }
    if (const auto problem = cluster::slurm_job_problem(job); !problem.empty()) {
        err << "arena slurm: " << problem << "\n(arena slurm --help for usage)\n";
        return kExitUsage;
    }

    if (dry_run) {
        out << cluster::dry_run_text(job, tasks);
        return kExitOk;
    }
    std::string submitted;
    try {
        submitted = cluster::submit_job(job, tasks);
    } catch (const std::exception& e) {
        err << "arena slurm: " << e.what() << "\n";
        return kExitFailure;
    }
    out << "arena slurm: " << submitted;
    return kExitOk;
}

}  // namespace arena::cli
