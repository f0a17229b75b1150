// The Kubernetes manifests of cluster workers (deploy/kubernetes/README.md):
// workers-job.yaml, merge-job.yaml and results-pvc.yaml. There is no
// Kubernetes cluster here, so the test checks the YAML and runs the
// containers' own commands on this machine:
//  - every manifest of deploy/kubernetes parses, each object with its kind's
//    apiVersion; the workers' Job is Indexed, with completions and parallelism
//    equal to the N of its `--worker "$((JOB_COMPLETION_INDEX + 1))/N"`; its
//    --db lies on the mounted ReadWriteMany claim; the merge Job mounts the
//    same claim and merges into that database exactly the N databases the
//    workers write (arena::tournament::worker_database);
//  - the workers' command and args, as the YAML gives them, run as a pod runs
//    them (command + args as the program's argv, JOB_COMPLETION_INDEX set, in
//    the working directory) for every index at once, then the merge's. The
//    working directory is a temporary folder laid out like the image
//    (build/bin/arena: this build's arena; the config: a fast SPRT gauntlet),
//    and the one change to the commands' text is the volume's mount path,
//    moved to a temporary folder. The merge says the tournament is complete,
//    and its database holds every game once.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "arena/tournament/workers.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "worker_runs.hpp"

namespace arena::testing {
namespace {

namespace fs = std::filesystem;

// The paths of the image that the workers' command names, relative to the
// container's working directory: the test puts this build's arena and its
// own config there.
constexpr const char* kImageArena = "build/bin/arena";
constexpr const char* kImageConfig = "configs/league-connect4.yaml";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

fs::path deploy_dir() {
    return source("deploy/kubernetes");
}

YAML::Node manifest(const std::string& name) {
    return YAML::LoadFile((deploy_dir() / name).string());
}

// A Job's only container, and what the pod around it mounts.
struct Container {
    YAML::Node pod;   // the PodSpec
    YAML::Node node;  // the container
    std::vector<std::string> argv;
    [[nodiscard]] std::string script() const { return argv.size() == 3 ? argv[2] : ""; }
    [[nodiscard]] std::string workdir() const { return node["workingDir"].as<std::string>(""); }
};

Container container_of(const YAML::Node& job) {
    Container c;
    c.pod = job["spec"]["template"]["spec"];
    EXPECT_EQ(c.pod["containers"].size(), 1u);
    c.node = c.pod["containers"][0];
    for (const char* part : {"command", "args"})
        if (c.node[part])
            for (const auto& word : c.node[part])
                c.argv.push_back(word.as<std::string>());
    return c;
}

// The claim mounted at `mount_path` in `c`'s pod ("" when none is).
std::string claim_at(const Container& c, const std::string& mount_path) {
    for (const auto& m : c.node["volumeMounts"]) {
        if (m["mountPath"].as<std::string>() != mount_path) continue;
        for (const auto& v : c.pod["volumes"])
            if (v["name"].as<std::string>() == m["name"].as<std::string>())
                return v["persistentVolumeClaim"]["claimName"].as<std::string>("");
    }
    return "";
}

// What the workers' shell command says: the N of its --worker, and its --db.
struct WorkerArgs {
    int count = -1;
    std::string db;
};

WorkerArgs worker_args(const std::string& script) {
    WorkerArgs w;
    std::smatch m;
    if (std::regex_search(
            script, m,
            std::regex(R"re(--worker "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/([0-9]+)")re")))
        w.count = std::stoi(m.str(1));
    if (std::regex_search(script, m, std::regex(R"(--db ([^\s"']+))"))) w.db = m.str(1);
    return w;
}

// The arguments of `arena merge` in a shell script, line continuations
// joined: OUT.db, then the inputs.
std::vector<std::string> merge_args(std::string script) {
    script = std::regex_replace(script, std::regex("\\\\\n"), " ");
    std::istringstream in(script);
    std::vector<std::string> words;
    bool after_merge = false;
    for (std::string word; in >> word;) {
        if (!after_merge) {
            after_merge = word == "merge";
            continue;
        }
        const bool last = word.ends_with(")");
        if (last) word.pop_back();
        if (!word.ends_with(".db")) break;
        words.push_back(word);
        if (last) break;
    }
    return words;
}

// Every occurrence of `from` in `text` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// ---- the YAML -----------------------------------------------------------------

TEST(KubernetesWorkers, EveryManifestParsesWithItsKindsApiVersion) {
    const std::map<std::string, std::string> versions = {{"Job", "batch/v1"},
                                                         {"PersistentVolumeClaim", "v1"}};
    std::vector<std::string> seen;
    for (const auto& entry : fs::directory_iterator(deploy_dir())) {
        if (entry.path().extension() != ".yaml") continue;
        const auto name = entry.path().filename().string();
        seen.push_back(name);
        std::vector<YAML::Node> docs;
        ASSERT_NO_THROW(docs = YAML::LoadAll(slurp(entry.path().string()))) << name;
        ASSERT_FALSE(docs.empty()) << name;
        for (const auto& doc : docs) {
            const auto kind = doc["kind"].as<std::string>("");
            ASSERT_TRUE(versions.contains(kind)) << name << ": kind '" << kind << "'";
            EXPECT_EQ(doc["apiVersion"].as<std::string>(""), versions.at(kind)) << name;
            EXPECT_FALSE(doc["metadata"]["name"].as<std::string>("").empty()) << name;
            if (kind != "Job") continue;
            // An image named without a registry host ("arena:1.0").
            for (const auto& c : doc["spec"]["template"]["spec"]["containers"])
                EXPECT_FALSE(has(c["image"].as<std::string>(""), "/"))
                    << name << ": " << c["image"].as<std::string>("");
        }
    }
    for (const char* ours : {"workers-job.yaml", "merge-job.yaml", "results-pvc.yaml"})
        EXPECT_NE(std::find(seen.begin(), seen.end(), ours), seen.end()) << ours;
}

TEST(KubernetesWorkers, AnIndexedJobOfNWorkersAtOnceAndAMergeOfExactlyTheirDatabases) {
    const auto job = manifest("workers-job.yaml");
    const auto spec = job["spec"];
    EXPECT_EQ(job["kind"].as<std::string>(), "Job");
    EXPECT_EQ(spec["completionMode"].as<std::string>(""), "Indexed");
    const auto workers = container_of(job);
    ASSERT_EQ(workers.argv.size(), 3u);
    EXPECT_EQ(workers.argv[0], "/bin/sh");
    EXPECT_EQ(workers.argv[1], "-c");
    const auto args = worker_args(workers.script());
    ASSERT_GT(args.count, 0) << workers.script();
    // One pod per worker, all at once.
    EXPECT_EQ(spec["completions"].as<int>(), args.count);
    EXPECT_EQ(spec["parallelism"].as<int>(), args.count);
    // A failed index is retried in a new pod; one that fails for good stops
    // the Job (the other workers would wait for its pairs).
    EXPECT_GE(spec["backoffLimitPerIndex"].as<int>(0), 1);
    EXPECT_EQ(spec["maxFailedIndexes"].as<int>(-1), 0);
    EXPECT_EQ(spec["podReplacementPolicy"].as<std::string>(""), "Failed");
    EXPECT_EQ(workers.pod["restartPolicy"].as<std::string>(""), "Never");
    EXPECT_TRUE(has(workers.script(), "exec " + std::string(kImageArena) + " run " + kImageConfig))
        << workers.script();
    EXPECT_TRUE(has(workers.script(), "--concurrency 1")) << workers.script();
    EXPECT_EQ(workers.node["resources"]["requests"]["cpu"].as<std::string>(""), "1");
    // The example's config is shipped, and is one that workers can play and
    // shards cannot: a ladder.
    EXPECT_EQ(YAML::LoadFile(source(kImageConfig))["schedule"]["type"].as<std::string>(""),
              "ladder");

    // The tournament's database is on the shared volume: a ReadWriteMany claim.
    ASSERT_TRUE(fs::path(args.db).is_absolute()) << args.db;
    const auto mount = fs::path(args.db).parent_path().string();
    const auto pvc = manifest("results-pvc.yaml");
    EXPECT_EQ(pvc["kind"].as<std::string>(), "PersistentVolumeClaim");
    const auto claim = pvc["metadata"]["name"].as<std::string>();
    EXPECT_EQ(claim_at(workers, mount), claim) << "nothing mounted at " << mount;
    const auto modes = pvc["spec"]["accessModes"].as<std::vector<std::string>>();
    EXPECT_EQ(modes, std::vector<std::string>{"ReadWriteMany"});

    // The merge: the same image, folder and volume; into the workers' --db,
    // exactly the N databases they write, in worker order.
    const auto merge_job = manifest("merge-job.yaml");
    EXPECT_EQ(merge_job["kind"].as<std::string>(), "Job");
    const auto merge = container_of(merge_job);
    ASSERT_EQ(merge.argv.size(), 3u);
    EXPECT_EQ(merge.argv[0], "/bin/sh");
    EXPECT_EQ(merge.argv[1], "-c");
    EXPECT_EQ(merge.node["image"].as<std::string>(), workers.node["image"].as<std::string>());
    EXPECT_EQ(merge.workdir(), workers.workdir());
    EXPECT_EQ(claim_at(merge, mount), claim);
    std::vector<std::string> expected{args.db};
    for (int k = 1; k <= args.count; ++k)
        expected.push_back(tournament::worker_database(args.db, {k, args.count}).string());
    EXPECT_EQ(merge_args(merge.script()), expected) << merge.script();
    EXPECT_TRUE(has(merge.script(), std::string(kImageArena) + " merge ")) << merge.script();
}

// ---- the commands, run ----------------------------------------------------------

// A container's process as Kubernetes starts it: `argv` (command + args)
// executed in `cwd` with `env` only, stdin empty, stdout and stderr into one
// log. In its own process group, which is killed if the test ends first.
class PodProcess {
  public:
    PodProcess(const std::vector<std::string>& argv, const fs::path& cwd,
               const std::vector<std::string>& env, const fs::path& log)
        : log_(log) {
        std::vector<std::string> args = argv, vars = env;
        std::vector<char*> cargv, cenv;
        for (auto& a : args)
            cargv.push_back(a.data());
        cargv.push_back(nullptr);
        for (auto& v : vars)
            cenv.push_back(v.data());
        cenv.push_back(nullptr);
        const std::string dir = cwd.string(), out = log.string();
        pid_ = fork();
        if (pid_ == 0) {
            // Only async-signal-safe calls between fork and exec.
            setpgid(0, 0);
            if (chdir(dir.c_str()) != 0) _exit(126);
            const int in_fd = open("/dev/null", O_RDONLY);
            const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (in_fd < 0 || out_fd < 0) _exit(126);
            dup2(in_fd, 0);
            dup2(out_fd, 1);
            dup2(out_fd, 2);
            execve(cargv[0], cargv.data(), cenv.data());
            _exit(127);
        }
    }
    PodProcess(const PodProcess&) = delete;
    PodProcess& operator=(const PodProcess&) = delete;
    ~PodProcess() {
        if (pid_ > 0 && status_ < 0) {
            kill(-pid_, SIGKILL);
            static_cast<void>(wait());
        }
    }

    // The exit status (128 + the signal when one ended it).
    int wait() {
        int status = 0;
        waitpid(pid_, &status, 0);
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return status_;
    }
    [[nodiscard]] std::string log() const { return slurp(log_.string()); }

  private:
    fs::path log_;
    pid_t pid_ = -1;
    int status_ = -1;
};

TEST(KubernetesWorkers, ThePodsCommandsPlayTheTournamentAndTheMergeSaysComplete) {
    TempDir dir("kubernetes_test");
    const auto workers = container_of(manifest("workers-job.yaml"));
    const auto merge = container_of(manifest("merge-job.yaml"));
    const auto args = worker_args(workers.script());
    ASSERT_GT(args.count, 0) << workers.script();
    const int n = args.count;

    // The image: its working directory, with this build's arena and a small
    // SPRT gauntlet of deterministic bots at the paths the command names.
    ASSERT_TRUE(fs::path(workers.workdir()).is_absolute()) << workers.workdir();
    const auto image = dir.path() / "image";
    const auto workdir = image / fs::path(workers.workdir()).relative_path();
    fs::create_directories(workdir / fs::path(kImageArena).parent_path());
    fs::create_symlink(bin("bin/arena"), workdir / kImageArena);
    fs::create_directories(workdir / fs::path(kImageConfig).parent_path());
    const auto volume = dir.path() / "results";
    fs::create_directory(volume);
    std::ofstream(workdir / kImageConfig)
        << sprt_gauntlet_yaml("k8s", dir.path() / "config-database-unused.db");

    // The one change to the commands: the volume's mount path.
    const auto mount = fs::path(args.db).parent_path().string();
    const auto on_volume = [&](const Container& c) {
        EXPECT_TRUE(has(c.script(), mount + "/")) << c.script();
        auto argv = c.argv;
        argv.back() = replaced(argv.back(), mount + "/", volume.string() + "/");
        return argv;
    };
    const auto db = volume / fs::path(args.db).filename();
    const auto env = [&](const Container& c, int index) {
        std::vector<std::string> vars{
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME=" + dir.path().string()};
        if (index >= 0) vars.push_back("JOB_COMPLETION_INDEX=" + std::to_string(index));
        for (const auto& e : c.node["env"]) {
            EXPECT_TRUE(e["value"])
                << "an env var the test cannot set: " << e["name"].as<std::string>("");
            vars.push_back(e["name"].as<std::string>() + "=" + e["value"].as<std::string>(""));
        }
        return vars;
    };

    // Every index at once, as parallelism == completions runs them.
    std::vector<std::unique_ptr<PodProcess>> pods;
    for (int index = 0; index < n; ++index)
        pods.push_back(std::make_unique<PodProcess>(
            on_volume(workers), workdir, env(workers, index),
            dir.path() / ("worker-" + std::to_string(index) + ".log")));
    std::int64_t stored = 0;
    for (int index = 0; index < n; ++index) {
        auto& pod = *pods[static_cast<std::size_t>(index)];
        const int status = pod.wait();
        const auto log = pod.log();
        ASSERT_EQ(status, 0) << "index " << index << ":\n" << log;
        // Index i is worker i + 1, in its own database beside --db.
        const int k = index + 1;
        EXPECT_TRUE(has(log, "worker " + std::to_string(k) + " of " + std::to_string(n))) << log;
        const auto own = tournament::worker_database(db, {k, n});
        ASSERT_TRUE(fs::exists(own)) << own << "\n" << log;
        EXPECT_EQ(query_one(own, "SELECT COUNT(*) FROM games WHERE pair_index % " +
                                     std::to_string(n) + " <> " + std::to_string(k - 1)),
                  "0");
        stored += std::stoll(query_one(own, "SELECT COUNT(*) FROM games"));
    }
    EXPECT_GT(stored, 0);

    // The merge Job, once the workers' Job is complete.
    PodProcess merged(on_volume(merge), workdir, env(merge, -1), dir.path() / "merge.log");
    const int status = merged.wait();
    const auto log = merged.log();
    ASSERT_EQ(status, 0) << log;
    // "DB: tournament 'k8s': G of G games, complete", then each opponent's
    // test as one machine decides it, then the standings.
    const auto said = log.find(db.string() + ": tournament 'k8s': ");
    ASSERT_NE(said, std::string::npos) << log;
    const auto line = lines_of(log.substr(said)).front();
    EXPECT_TRUE(std::regex_search(line, std::regex(R"(: (\d+) of \1 games, complete$)"))) << line;
    for (const char* opponent : {"shallow", "mid", "twin"})
        EXPECT_TRUE(std::regex_search(log, std::regex(std::string("Results of deep vs ") +
                                                      opponent + R"([^]*?SPRT: H[01] accepted)")))
            << opponent << "\n"
            << log;
    // The standings of `arena standings`.
    EXPECT_TRUE(std::regex_search(log, std::regex(R"((^|\n)k8s: \d+ of \d+ games, connect4\n)")))
        << log;
    // Every game once: as many as the workers stored, each index once.
    EXPECT_EQ(query_one(db, "SELECT COUNT(*) || ' ' || COUNT(DISTINCT game_index) FROM games"),
              std::to_string(stored) + " " + std::to_string(stored));
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
}

}  // namespace
}  // namespace arena::testing
