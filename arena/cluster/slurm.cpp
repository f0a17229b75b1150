#include "arena/cluster/slurm.hpp"

#include <boost/process.hpp>
#include <charconv>
#include <sstream>
#include <stdexcept>

namespace arena::cluster {
namespace {

namespace fs = std::filesystem;
namespace bp = boost::process;

// A name Slurm shows (squeue, sacct): the tournament's, without characters a
// job name or a terminal would not take.
std::string job_name(const std::string& tournament) {
    std::string name = "arena-";
    for (const char c : tournament) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        name += plain ? c : '_';
    }
    return name;
}

// `text` in double quotes: the shell still expands $VAR in it (a node's
// $TMPDIR), but nothing else.
std::string double_quote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\' || c == '`') out += '\\';
        out += c;
    }
    return out + "\"";
}

// Part K's database as a shell word, for K in the shell variable named
// part_noun(split) ($shard, $worker): the path of part_database() with the
// index left to the shell (for shards, arena/tournament/shard.hpp's
// shard_database(); for workers, the same form with ".worker-").
std::string part_db_word(const SlurmJob& job) {
    const auto& database = job.database;
    const std::string noun(part_noun(job.split));
    const auto stem = (database.parent_path() / database.stem()).string();
    return shell_quote(stem + "." + noun + "-") + "\"$" + noun + "\"" +
           shell_quote("-of-" + std::to_string(job.parts) + database.extension().string());
}

// "8 shards", "1 worker".
std::string count_of(const SlurmJob& job) {
    return std::to_string(job.parts) + " " + std::string(part_noun(job.split)) +
           (job.parts == 1 ? "" : "s");
}

bool all_digits(std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// Slurm's forms of a time limit: minutes, minutes:seconds,
// hours:minutes:seconds, days-hours, days-hours:minutes,
// days-hours:minutes:seconds, or no limit.
bool is_slurm_time(std::string_view t) {
    for (const std::string_view none : {"UNLIMITED", "unlimited", "INFINITE", "infinite"})
        if (t == none) return true;
    const auto dash = t.find('-');
    if (dash != std::string_view::npos) {
        if (!all_digits(t.substr(0, dash))) return false;
        t.remove_prefix(dash + 1);
    }
    int fields = 0;
    for (std::size_t start = 0;; ++fields) {
        const auto colon = t.find(':', start);
        if (!all_digits(t.substr(start, colon == std::string_view::npos ? t.npos : colon - start)))
            return false;
        if (colon == std::string_view::npos) break;
        start = colon + 1;
    }
    return fields < 3;
}

std::string logs_dir(const SlurmJob& job) {
    return (job.job_dir / "logs").string();
}

void common_directives(std::ostringstream& s, const SlurmJob& job) {
    if (!job.partition.empty()) s << "#SBATCH --partition=" << job.partition << "\n";
    for (const auto& option : job.options)
        s << "#SBATCH " << option << "\n";
}

// The header both scripts start with: what the job is and how to redo it.
void preamble(std::ostringstream& s, const SlurmJob& job, std::string_view what) {
    const std::string noun(part_noun(job.split));
    s << "#!/bin/bash\n"
      << "# " << what << " of tournament '" << job.tournament << "' ("
      << job.config.filename().string() << "), in " << count_of(job) << ".\n"
      << "# Written by `arena slurm` (docs/cluster.md). Resubmit failed " << noun << "s with the\n"
      << "# same arena slurm command and --tasks K[,K...]: it submits those tasks of\n"
      << "# " << array_script_path(job).filename().string() << " and a new merge after them.\n";
    if (job.split == Split::kWorkers)
        s << "# The workers read each other's databases between pairs: they all play in\n"
          << "# " << job.database.parent_path().string() << ", on the shared file system.\n";
}

// The array job's script: each task one shard or worker.
std::string array_script(const SlurmJob& job) {
    const std::string n = std::to_string(job.parts);
    const std::string noun(part_noun(job.split));  // also the shell variable of the index
    const bool workers = job.split == Split::kWorkers;
    std::ostringstream s;
    preamble(s, job, workers ? "The workers" : "The shards");
    s << "#SBATCH --job-name=" << job_name(job.tournament) << (workers ? "-workers" : "") << "\n"
      << "#SBATCH --array=1-" << n;
    if (job.max_running > 0) s << "%" << job.max_running;
    s << "\n"
      << "#SBATCH --cpus-per-task=" << job.cpus_per_task << "\n";
    if (!job.time.empty()) s << "#SBATCH --time=" << job.time << "\n";
    s << "#SBATCH --output=" << logs_dir(job) << "/" << noun << "-%a.out\n"
      << "#SBATCH --open-mode=append\n";
    common_directives(s, job);
    s << "set -euo pipefail\n"
      << noun
      << "=${SLURM_ARRAY_TASK_ID:?'the task script of a Slurm job array: submit it with "
         "sbatch'}\n"
      << "cd " << shell_quote(job.workdir.string()) << "\n"
      << "db=" << part_db_word(job) << "\n"
      << "echo \"arena slurm: " << noun << " $" << noun << " of " << n
      << " on $(hostname), job ${SLURM_JOB_ID:-none}, $(date -u +%Y-%m-%dT%H:%M:%SZ)\"\n";
    const std::string run = shell_quote(job.arena.string()) + " run " +
                            shell_quote(job.config.string()) + " --" + noun + " \"$" + noun + "/" +
                            n + "\" --concurrency \"${SLURM_CPUS_PER_TASK:-" +
                            std::to_string(job.cpus_per_task) + "}\"";
    if (workers) {
        // Workers always play on the shared file system: given the
        // tournament's database, each stores its games beside it in
        // $db and reads the others' there between pairs
        // (slurm_job_problem refuses a local_dir).
        s << "exec " << run << " --db " << shell_quote(job.database.string()) << "\n";
    } else if (job.local_dir.empty()) {
        s << "exec " << run << " --db \"$db\"\n";
    } else {
        // The shard plays on the node's disk. It starts from the shared
        // copy, if an earlier attempt left one, and copies its database
        // back when it ends however it ends (Slurm's SIGTERM at scancel
        // or the time limit included: the run stops cleanly and closes
        // its database first). A database still with its write-ahead
        // log was not closed: it is not copied, and the shared copy
        // stays as it was; the next attempt plays what is missing.
        s << "local_dir=" << double_quote(job.local_dir) << "\n"
          << "mkdir -p \"$local_dir\"\n"
          << "local_db=\"$local_dir/$(basename \"$db\")\"\n"
          << "rm -f \"$local_db\" \"$local_db-wal\" \"$local_db-shm\"\n"
          << "if [ -f \"$db\" ]; then cp \"$db\" \"$local_db\"; fi\n"
          << run << " --db \"$local_db\" &\n"
          << "pid=$!\n"
          << "trap 'kill -TERM \"$pid\" 2>/dev/null || true' TERM INT\n"
          << "while kill -0 \"$pid\" 2>/dev/null; do wait \"$pid\" || true; done\n"
          << "status=0\n"
          << "wait \"$pid\" || status=$?\n"
          << "if [ -f \"$local_db-wal\" ]; then\n"
          << "  echo \"arena slurm: $local_db was not closed cleanly; $db is left as it "
             "was\" >&2\n"
          << "elif [ -f \"$local_db\" ]; then\n"
          << "  mkdir -p \"$(dirname \"$db\")\"\n"
          << "  cp \"$local_db\" \"$db.part\" && mv -f \"$db.part\" \"$db\"\n"
          << "  rm -f \"$local_db\" \"$local_db.lock\"\n"
          << "fi\n"
          << "exit \"$status\"\n";
    }
    return s.str();
}

// The merge job's script: every part's database there is into the
// tournament's, failing while the tournament is not complete.
std::string merge_script(const SlurmJob& job) {
    const std::string n = std::to_string(job.parts);
    const std::string noun(part_noun(job.split));  // also the shell variable of the index
    std::ostringstream s;
    preamble(s, job, "The merge");
    s << "#SBATCH --job-name=" << job_name(job.tournament) << "-merge\n"
      << "#SBATCH --cpus-per-task=1\n";
    if (!job.merge_time.empty()) s << "#SBATCH --time=" << job.merge_time << "\n";
    s << "#SBATCH --output=" << logs_dir(job) << "/merge.out\n"
      << "#SBATCH --open-mode=append\n";
    common_directives(s, job);
    const std::string out_db = shell_quote(job.database.string());
    s << "set -euo pipefail\n"
      << "cd " << shell_quote(job.workdir.string()) << "\n"
      << "echo \"arena slurm: merge on $(hostname), job ${SLURM_JOB_ID:-none}, $(date -u "
         "+%Y-%m-%dT%H:%M:%SZ)\"\n"
      << "inputs=()\n"
      << "missing=\n"
      << "for " << noun << " in $(seq 1 " << n << "); do\n"
      << "  db=" << part_db_word(job) << "\n"
      << "  if [ -f \"$db\" ]; then inputs+=(\"$db\"); else\n"
      << "    echo \"arena slurm: " << noun << " $" << noun << " of " << n
      << " has no database yet ($db)\"\n"
      << "    missing=\"${missing:+$missing,}$" << noun << "\"\n"
      << "  fi\n"
      << "done\n"
      << "if [ \"${#inputs[@]}\" -eq 0 ]; then echo \"arena slurm: no " << noun
      << " has a database yet\" >&2; exit 1; fi\n"
      << "mkdir -p \"$(dirname " << out_db << ")\"\n"
      << "merged=$(" << shell_quote(job.arena.string()) << " merge " << out_db
      << " \"${inputs[@]}\")\n"
      << "printf '%s\\n' \"$merged\"\n"
      // Complete when merge's line for this tournament says so.
      << "wanted=" << shell_quote(job.database.string() + ": tournament '" + job.tournament + "': ")
      << "\n"
      << "while IFS= read -r line; do\n"
      << "  if [[ \"$line\" == \"$wanted\"* && \"$line\" == *\", complete\" ]]; then exit 0; "
         "fi\n"
      << "done <<< \"$merged\"\n"
      << "echo \"arena slurm: tournament '" << job.tournament << "' is not complete: see the "
      << noun << "s' logs in " << logs_dir(job) << ", and resubmit the " << noun
      << "s that failed: the same arena slurm command with --tasks K[,K...]\" >&2\n"
      << "if [ -n \"$missing\" ]; then echo \"arena slurm: " << noun
      << "s with no database yet: $missing (--tasks $missing, and any other whose task "
         "failed)\" >&2; fi\n"
      << "exit 1\n";
    return s.str();
}

}  // namespace

std::string_view part_noun(Split split) {
    return split == Split::kWorkers ? "worker" : "shard";
}

std::string shell_quote(std::string_view text) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

fs::path array_script_path(const SlurmJob& job) {
    return job.job_dir / (std::string(part_noun(job.split)) + "s.sbatch");
}
fs::path merge_script_path(const SlurmJob& job) {
    return job.job_dir / "merge.sbatch";
}

fs::path part_database(const SlurmJob& job, int k) {
    const auto& database = job.database;
    return database.parent_path() /
           (database.stem().string() + "." + std::string(part_noun(job.split)) + "-" +
            std::to_string(k) + "-of-" + std::to_string(job.parts) + database.extension().string());
}

fs::path part_log(const SlurmJob& job, int k) {
    return job.job_dir / "logs" /
           (std::string(part_noun(job.split)) + "-" + std::to_string(k) + ".out");
}

SlurmScripts slurm_scripts(const SlurmJob& job) {
    return {array_script(job), merge_script(job)};
}

std::string slurm_job_problem(const SlurmJob& job) {
    // What sbatch's directive parser and its file name patterns would misread.
    const auto bad_path = [](const fs::path& p) {
        const std::string s = p.string();
        return s.find_first_of(" \t\n\r\"'%\\") != std::string::npos;
    };
    if (bad_path(job.job_dir))
        return "--job-dir " + job.job_dir.string() +
               ": the logs' path goes into #SBATCH lines, which cannot hold white space, quotes, "
               "'%' or '\\'; choose another directory";
    if (job.parts < 1) return "--" + std::string(part_noun(job.split)) + "s must be 1 or more";
    if (job.split == Split::kWorkers && !job.local_dir.empty())
        return "--local-dir cannot be used with --workers: the workers read each other's "
               "databases between pairs, so their databases must be on the shared file system "
               "(next to " +
               job.database.string() + ")";
    if (job.cpus_per_task < 1) return "--cpus-per-task must be 1 or more";
    if (job.max_running < 0) return "--max-running must be 0 (no limit) or more";
    if (job.split == Split::kWorkers && job.max_running > 0 && job.max_running < job.parts)
        return "--max-running " + std::to_string(job.max_running) + " with --workers " +
               std::to_string(job.parts) +
               ": the workers wait for each other's pairs, so all of them must run at once "
               "(choose fewer workers instead)";
    if (!job.partition.empty() &&
        job.partition.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_.,-") != std::string::npos)
        return "--partition '" + job.partition +
               "': a partition name is letters, digits, '_', '.', '-' (',' between several)";
    const std::string time_forms =
        "': Slurm takes MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS";
    if (!job.time.empty() && !is_slurm_time(job.time)) return "--time '" + job.time + time_forms;
    if (!job.merge_time.empty() && !is_slurm_time(job.merge_time))
        return "--merge-time '" + job.merge_time + time_forms;
    for (const auto& option : job.options) {
        if (!option.starts_with("-") || option.find_first_of("\n\r") != std::string::npos)
            return "--sbatch '" + option +
                   "': give one sbatch option, as it would be written on sbatch's command line "
                   "(--sbatch=--account=cs101)";
        for (const char* owned : {"--array", "-a", "--output", "-o", "--job-name", "-J",
                                  "--dependency", "-d", "--open-mode", "--cpus-per-task", "-c"}) {
            const std::string o = owned;
            if (option == o || option.starts_with(o + "=") ||
                (o.size() == 2 && option.starts_with(o)))
                return "--sbatch '" + option + "': arena slurm sets " + o +
                       " itself (see arena slurm --help for its own option)";
        }
    }
    return {};
}

std::optional<std::string> parse_tasks(std::string_view text, Split split, int parts,
                                       std::string& problem) {
    const auto index = [&](std::string_view s, int& value) {
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        return ec == std::errc{} && end == s.data() + s.size() && !s.empty() && s.front() != '+' &&
               value >= 1 && value <= parts;
    };
    const std::string range_hint = "each task is a " + std::string(part_noun(split)) +
                                   " index from 1 to " + std::to_string(parts) +
                                   ", as in 3 or 2,5-7";
    if (text.empty()) {
        problem = "--tasks is empty: " + range_hint;
        return std::nullopt;
    }
    std::string out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = text.find(',', start);
        const auto item = text.substr(
            start, comma == std::string_view::npos ? text.size() - start : comma - start);
        const auto dash = item.find('-');
        int a = 0, b = 0;
        const bool ok =
            dash == std::string_view::npos
                ? index(item, a)
                : index(item.substr(0, dash), a) && index(item.substr(dash + 1), b) && a <= b;
        if (!ok) {
            problem = "--tasks '" + std::string(text) + "': '" + std::string(item) +
                      "' is not a task: " + range_hint;
            return std::nullopt;
        }
        if (!out.empty()) out += ',';
        out += std::string(item);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

std::vector<std::string> array_submission(const SlurmJob& job, const std::string& tasks) {
    std::vector<std::string> args{"--parsable"};
    if (!tasks.empty()) args.push_back("--array=" + tasks);
    args.push_back(array_script_path(job).string());
    return args;
}

std::vector<std::string> merge_submission(const SlurmJob& job, const std::string& after_job) {
    return {"--parsable", "--dependency=afterany:" + after_job, merge_script_path(job).string()};
}

std::string submit(const std::vector<std::string>& args) {
    const auto sbatch = bp::search_path("sbatch");
    if (sbatch.empty())
        throw std::runtime_error(
            "no sbatch on PATH: run arena slurm where Slurm's commands are (a login node of "
            "the cluster), or print the scripts with --dry-run");
    bp::ipstream out, err;
    bp::child child(sbatch, bp::args = args, bp::std_in<bp::null, bp::std_out> out,
                    bp::std_err > err);
    std::string printed, line, complaint;
    while (std::getline(out, line))
        printed += line;
    while (std::getline(err, line))
        complaint += (complaint.empty() ? "" : "\n") + line;
    child.wait();
    if (child.exit_code() != 0 || printed.empty()) {
        std::string call = "sbatch";
        for (const auto& a : args)
            call += " " + a;
        throw std::runtime_error(call + " failed (exit " + std::to_string(child.exit_code()) + ")" +
                                 (complaint.empty() ? "" : ": " + complaint));
    }
    // --parsable: "ID" or "ID;CLUSTER".
    const auto id = printed.substr(0, printed.find(';'));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        throw std::runtime_error("sbatch printed '" + printed + "', not a job id");
    return id;
}

}  // namespace arena::cluster
