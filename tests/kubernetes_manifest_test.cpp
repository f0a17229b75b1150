// The Kubernetes manifests of deploy/kubernetes (docs/cluster.md,
// "Kubernetes"), checked without a cluster:
//  - each is YAML whose every field is a real field of its object, at the
//    place it is written, with a value of the right kind, and exists in the
//    documented Kubernetes version (1.24): a misspelt or invented field, or
//    one of a newer Kubernetes, fails (the checker is shown to catch them);
//  - the facts the workflow rests on: an Indexed Job of as many completions
//    as the shards its command names, the shard taken from
//    JOB_COMPLETION_INDEX, a restart policy a Job accepts, volumes that
//    exist, the merge reading the databases the shards write;
//  - and what the pods run is run here: the shards' shell command with
//    JOB_COMPLETION_INDEX 0 to N-1 and the merge's, on a small tournament of
//    deterministic bots with /data moved to a temporary directory; the merged
//    database is the whole tournament, game for game the unsharded run's.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "db_query.hpp"
#include "game_rows.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena::testing {
namespace {

namespace fs = std::filesystem;

// ---- the documented structure ---------------------------------------------------

// What a field's value is.
enum class Value {
    kString,      // a scalar
    kInt,         // a scalar that is a whole number
    kBool,        // true or false
    kQuantity,    // a resource quantity: 2, 500m, 1Gi
    kStringMap,   // a map of scalars (labels, requests)
    kStringList,  // a list of scalars
    kObject,      // an object of `type`
    kObjectList,  // a list of objects of `type`
};

struct Field {
    Value value;
    std::string type;  // for kObject and kObjectList
    int since = 0;     // the Kubernetes 1.x from which it exists and is on by default
};

using Type = std::map<std::string, Field>;

// The objects of the Kubernetes API (core/v1 and batch/v1) that the manifests
// may use, with the fields of each: a whitelist from the API reference
// (kubernetes.io/docs/reference/kubernetes-api/). Fields not listed are
// refused, real or not, so the manifests stay within what is documented
// here.
std::map<std::string, Type> api() {
    const Field str{Value::kString, ""};
    const Field integer{Value::kInt, ""};
    const Field boolean{Value::kBool, ""};
    const Field quantity{Value::kQuantity, ""};
    const Field string_map{Value::kStringMap, ""};
    const Field string_list{Value::kStringList, ""};
    const auto object = [](const std::string& type, int since = 0) {
        return Field{Value::kObject, type, since};
    };
    const auto objects = [](const std::string& type) { return Field{Value::kObjectList, type}; };
    const auto newer = [](Field f, int since) {
        f.since = since;
        return f;
    };
    return {
        {"Job",
         {{"apiVersion", str},
          {"kind", str},
          {"metadata", object("ObjectMeta")},
          {"spec", object("JobSpec")}}},
        {"PersistentVolumeClaim",
         {{"apiVersion", str},
          {"kind", str},
          {"metadata", object("ObjectMeta")},
          {"spec", object("PersistentVolumeClaimSpec")}}},
        {"ObjectMeta",
         {{"name", str},
          {"generateName", str},
          {"namespace", str},
          {"labels", string_map},
          {"annotations", string_map}}},
        {"JobSpec",
         {{"activeDeadlineSeconds", integer},
          {"backoffLimit", integer},
          {"completions", integer},
          {"parallelism", integer},
          {"manualSelector", boolean},
          {"selector", object("LabelSelector")},
          {"template", object("PodTemplateSpec")},
          {"completionMode", newer(str, 22)},  // beta 1.22, stable 1.24
          {"suspend", newer(boolean, 22)},     // beta 1.22, stable 1.24
          {"ttlSecondsAfterFinished", newer(integer, 21)},
          {"podFailurePolicy", object("PodFailurePolicy", 26)},
          {"backoffLimitPerIndex", newer(integer, 29)},  // beta 1.29
          {"maxFailedIndexes", newer(integer, 29)},
          {"podReplacementPolicy", newer(str, 29)}}},
        {"PodFailurePolicy", {}},  // not used: listed for its version only
        {"LabelSelector", {{"matchLabels", string_map}}},
        {"PodTemplateSpec", {{"metadata", object("ObjectMeta")}, {"spec", object("PodSpec")}}},
        {"PodSpec",
         {{"activeDeadlineSeconds", integer},
          {"containers", objects("Container")},
          {"initContainers", objects("Container")},
          {"restartPolicy", str},
          {"volumes", objects("Volume")},
          {"nodeSelector", string_map},
          {"tolerations", objects("Toleration")},
          {"serviceAccountName", str},
          {"priorityClassName", str},
          {"terminationGracePeriodSeconds", integer},
          {"imagePullSecrets", objects("LocalObjectReference")}}},
        {"Container",
         {{"name", str},
          {"image", str},
          {"imagePullPolicy", str},
          {"command", string_list},
          {"args", string_list},
          {"workingDir", str},
          {"env", objects("EnvVar")},
          {"resources", object("ResourceRequirements")},
          {"volumeMounts", objects("VolumeMount")}}},
        {"EnvVar", {{"name", str}, {"value", str}, {"valueFrom", object("EnvVarSource")}}},
        {"EnvVarSource",
         {{"fieldRef", object("ObjectFieldSelector")},
          {"resourceFieldRef", object("ResourceFieldSelector")}}},
        {"ObjectFieldSelector", {{"apiVersion", str}, {"fieldPath", str}}},
        {"ResourceFieldSelector",
         {{"containerName", str}, {"resource", str}, {"divisor", quantity}}},
        {"ResourceRequirements", {{"requests", string_map}, {"limits", string_map}}},
        {"VolumeMount",
         {{"name", str},
          {"mountPath", str},
          {"subPath", str},
          {"subPathExpr", str},
          {"readOnly", boolean}}},
        {"Volume",
         {{"name", str},
          {"persistentVolumeClaim", object("PersistentVolumeClaimVolumeSource")},
          {"emptyDir", object("EmptyDirVolumeSource")},
          {"hostPath", object("HostPathVolumeSource")},
          {"nfs", object("NFSVolumeSource")}}},
        {"PersistentVolumeClaimVolumeSource", {{"claimName", str}, {"readOnly", boolean}}},
        {"EmptyDirVolumeSource", {{"medium", str}, {"sizeLimit", quantity}}},
        {"HostPathVolumeSource", {{"path", str}, {"type", str}}},
        {"NFSVolumeSource", {{"server", str}, {"path", str}, {"readOnly", boolean}}},
        {"LocalObjectReference", {{"name", str}}},
        {"Toleration",
         {{"key", str},
          {"operator", str},
          {"value", str},
          {"effect", str},
          {"tolerationSeconds", integer}}},
        {"PersistentVolumeClaimSpec",
         {{"accessModes", string_list},
          {"resources", object("VolumeResourceRequirements")},
          {"storageClassName", str},
          {"volumeMode", str},
          {"volumeName", str},
          {"selector", object("LabelSelector")}}},
        {"VolumeResourceRequirements", {{"requests", string_map}, {"limits", string_map}}},
    };
}

// The Kubernetes 1.x the manifests are documented to need.
constexpr int kKubernetesMinor = 24;

// Values that only take one of a few words, by field name.
std::map<std::string, std::set<std::string>> words() {
    return {
        {"completionMode", {"NonIndexed", "Indexed"}},
        {"imagePullPolicy", {"Always", "IfNotPresent", "Never"}},
        {"medium", {"", "Memory"}},
        {"volumeMode", {"Filesystem", "Block"}},
    };
}

// Everything wrong with `node` as an object of `type`, each problem with
// the field's path.
class Checker {
  public:
    std::vector<std::string> check_document(const YAML::Node& doc) {
        if (!doc.IsMap()) return {"the document is not a map"};
        const auto kind = doc["kind"] ? doc["kind"].as<std::string>("") : "";
        const std::map<std::string, std::string> versions = {{"Job", "batch/v1"},
                                                             {"PersistentVolumeClaim", "v1"}};
        const auto it = versions.find(kind);
        if (it == versions.end()) return {"kind '" + kind + "' is not one the manifests use"};
        if (!doc["apiVersion"] || doc["apiVersion"].as<std::string>("") != it->second)
            problems_.push_back("apiVersion: a " + kind + " is " + it->second);
        check(doc, kind, "");
        if (kind == "Job") {
            const auto policy = doc["spec"]["template"]["spec"]["restartPolicy"];
            if (!policy || (policy.as<std::string>("") != "Never" &&
                            policy.as<std::string>("") != "OnFailure"))
                problems_.push_back(
                    "spec.template.spec.restartPolicy: a Job's pods need Never or OnFailure");
        }
        if (kind == "PersistentVolumeClaim") {
            for (const auto& mode : doc["spec"]["accessModes"]) {
                const auto m = mode.as<std::string>("");
                if (m != "ReadWriteOnce" && m != "ReadOnlyMany" && m != "ReadWriteMany" &&
                    m != "ReadWriteOncePod")
                    problems_.push_back("spec.accessModes: '" + m + "' is not an access mode");
            }
        }
        return problems_;
    }

  private:
    void check(const YAML::Node& node, const std::string& type, const std::string& path) {
        const auto& fields = types_.at(type);
        if (!node.IsMap()) {
            problems_.push_back(path + ": a " + type + " is a map");
            return;
        }
        for (const auto& entry : node) {
            const auto name = entry.first.as<std::string>();
            const auto at = path.empty() ? name : path + "." + name;
            const auto f = fields.find(name);
            if (f == fields.end()) {
                problems_.push_back(at + ": no such field of " + type);
                continue;
            }
            if (f->second.since > kKubernetesMinor) {
                problems_.push_back(at + ": needs Kubernetes 1." + std::to_string(f->second.since) +
                                    ", the manifests are for 1." +
                                    std::to_string(kKubernetesMinor));
            }
            check_value(entry.second, f->second, type == "EnvVar" ? "EnvVar.name" : name, at);
        }
    }

    void check_value(const YAML::Node& v, const Field& f, const std::string& name,
                     const std::string& at) {
        static const std::regex kInteger("-?[0-9]+");
        static const std::regex kQuantity("[0-9]+(\\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?");
        static const std::regex kName("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
        switch (f.value) {
            case Value::kString:
            case Value::kInt:
            case Value::kBool:
            case Value::kQuantity: {
                if (!v.IsScalar()) {
                    problems_.push_back(at + ": a single value");
                    return;
                }
                const auto text = v.as<std::string>();
                if (f.value == Value::kInt && !std::regex_match(text, kInteger))
                    problems_.push_back(at + ": a whole number, not '" + text + "'");
                if (f.value == Value::kBool && text != "true" && text != "false")
                    problems_.push_back(at + ": true or false, not '" + text + "'");
                if (f.value == Value::kQuantity && !std::regex_match(text, kQuantity))
                    problems_.push_back(at + ": a quantity, not '" + text + "'");
                if (const auto w = words_.find(name);
                    w != words_.end() && !w->second.contains(text))
                    problems_.push_back(at + ": '" + text + "' is not one of its values");
                static const std::regex kVariable("[A-Za-z_][A-Za-z0-9_]*");
                if (name == "EnvVar.name" && !std::regex_match(text, kVariable))
                    problems_.push_back(at + ": '" + text + "' is not a variable name");
                if ((name == "name" || name == "claimName" || name == "containerName") &&
                    (text.size() > 63 || !std::regex_match(text, kName)))
                    problems_.push_back(at + ": '" + text + "' is not a DNS label");
                return;
            }
            case Value::kStringMap:
                if (!v.IsMap()) {
                    problems_.push_back(at + ": a map");
                    return;
                }
                for (const auto& e : v) {
                    if (!e.second.IsScalar())
                        problems_.push_back(at + "." + e.first.as<std::string>() +
                                            ": a single value");
                    else if ((name == "requests" || name == "limits") &&
                             !std::regex_match(e.second.as<std::string>(), kQuantity))
                        problems_.push_back(at + "." + e.first.as<std::string>() + ": a quantity");
                }
                return;
            case Value::kStringList:
                if (!v.IsSequence()) {
                    problems_.push_back(at + ": a list");
                    return;
                }
                for (const auto& e : v)
                    if (!e.IsScalar()) problems_.push_back(at + ": a list of single values");
                return;
            case Value::kObject:
                check(v, f.type, at);
                return;
            case Value::kObjectList:
                if (!v.IsSequence()) {
                    problems_.push_back(at + ": a list");
                    return;
                }
                for (std::size_t i = 0; i < v.size(); ++i)
                    check(v[i], f.type, at + "[" + std::to_string(i) + "]");
                return;
        }
    }

    const std::map<std::string, Type> types_ = api();
    const std::map<std::string, std::set<std::string>> words_ = words();
    std::vector<std::string> problems_;
};

std::vector<std::string> problems_of(const std::string& text) {
    std::vector<std::string> all;
    for (const auto& doc : YAML::LoadAll(text)) {
        const auto found = Checker().check_document(doc);
        all.insert(all.end(), found.begin(), found.end());
    }
    return all;
}

std::string manifest(const std::string& name) {
    return slurp(source("deploy/kubernetes/" + name));
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& l : lines)
        text += l + "\n";
    return text;
}

const char* const kManifests[] = {"arena-data.yaml", "arena-shards.yaml", "arena-merge.yaml"};

TEST(KubernetesManifests, NameOnlyRealFieldsOfKubernetes124) {
    for (const char* name : kManifests) {
        const auto text = manifest(name);
        ASSERT_FALSE(text.empty()) << name;
        std::vector<YAML::Node> docs;
        ASSERT_NO_THROW(docs = YAML::LoadAll(text)) << name;
        ASSERT_EQ(docs.size(), 1u) << name;
        EXPECT_EQ(problems_of(text), std::vector<std::string>{}) << name;
    }
}

// The checker itself: a misspelt field, an invented one, a value of the
// wrong kind, a field of a newer Kubernetes and a policy a Job refuses are
// each found, with their place.
TEST(KubernetesManifests, TheCheckerFindsMisspeltInventedAndNewerFields) {
    const auto shards = manifest("arena-shards.yaml");
    ASSERT_FALSE(shards.empty());
    const auto changed = [&](const std::string& from, const std::string& to) {
        auto text = shards;
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) text.replace(at, from.size(), to);
        return joined(problems_of(text));
    };
    EXPECT_NE(changed("\n  completionMode:", "\n  completionmode:")
                  .find("spec.completionmode: no such "
                        "field of JobSpec"),
              std::string::npos);
    EXPECT_NE(changed("claimName:", "claim:").find("persistentVolumeClaim.claim: no such field"),
              std::string::npos);
    EXPECT_NE(changed("mountPath:", "mountPath: /x\n              shardIndex:")
                  .find("volumeMounts[0].shardIndex: no such field of VolumeMount"),
              std::string::npos);
    EXPECT_NE(changed("completions: 8", "completions: eight").find("spec.completions: a whole"),
              std::string::npos);
    EXPECT_NE(changed("\n  completionMode: Indexed", "\n  completionMode: indexed")
                  .find("'indexed' is not one of its values"),
              std::string::npos);
    EXPECT_NE(changed("backoffLimit: 16", "backoffLimitPerIndex: 2")
                  .find("spec.backoffLimitPerIndex: needs Kubernetes 1.29"),
              std::string::npos);
    EXPECT_NE(changed("restartPolicy: OnFailure", "restartPolicy: Always")
                  .find("restartPolicy: a Job's pods need Never or OnFailure"),
              std::string::npos);
    EXPECT_NE(changed("apiVersion: batch/v1", "apiVersion: v1").find("a Job is batch/v1"),
              std::string::npos);
}

// ---- the facts the workflow rests on ----------------------------------------------

struct Pod {
    YAML::Node spec;       // the PodSpec
    YAML::Node container;  // its only container
    std::string script;    // what `sh -c` runs
};

Pod pod_of(const YAML::Node& job) {
    Pod pod;
    pod.spec = job["spec"]["template"]["spec"];
    EXPECT_EQ(pod.spec["containers"].size(), 1u);
    pod.container = pod.spec["containers"][0];
    const auto command = pod.container["command"].as<std::vector<std::string>>();
    EXPECT_EQ(command, (std::vector<std::string>{"/bin/sh", "-c"}));
    EXPECT_EQ(pod.container["args"].size(), 1u);
    pod.script = pod.container["args"][0].as<std::string>();
    return pod;
}

// N in `--shard "$shard/N"`, and in the databases' "-of-N.db".
int shard_count(const std::string& script) {
    std::smatch m;
    if (!std::regex_search(script, m, std::regex("--shard \"\\$shard/([0-9]+)\""))) return -1;
    return std::stoi(m[1]);
}

TEST(KubernetesManifests, AnIndexedJobOfOneCompletionPerShard) {
    const auto job = YAML::Load(manifest("arena-shards.yaml"));
    const auto spec = job["spec"];
    EXPECT_EQ(spec["completionMode"].as<std::string>(), "Indexed");
    const auto pod = pod_of(job);
    const int n = shard_count(pod.script);
    ASSERT_GT(n, 0) << pod.script;
    EXPECT_EQ(spec["completions"].as<int>(), n);
    EXPECT_GE(spec["parallelism"].as<int>(), 1);
    EXPECT_LE(spec["parallelism"].as<int>(), n);
    // The shard is the index plus one (indices count from 0, shards from 1).
    EXPECT_NE(pod.script.find("shard=$((JOB_COMPLETION_INDEX + 1))"), std::string::npos);
    EXPECT_NE(pod.script.find("-of-" + std::to_string(n) + ".db"), std::string::npos);
    // Games at once: the CPUs the container may use.
    const auto env = pod.container["env"][0];
    EXPECT_EQ(env["valueFrom"]["resourceFieldRef"]["containerName"].as<std::string>(),
              pod.container["name"].as<std::string>());
    EXPECT_EQ(env["valueFrom"]["resourceFieldRef"]["resource"].as<std::string>(), "limits.cpu");
    EXPECT_NE(pod.script.find("--concurrency \"$" + env["name"].as<std::string>() + "\""),
              std::string::npos);

    // The merge reads what the shards write, from the same volume.
    const auto merge = YAML::Load(manifest("arena-merge.yaml"));
    const auto merge_pod = pod_of(merge);
    EXPECT_NE(merge_pod.script.find("shard-*-of-" + std::to_string(n) + ".db"), std::string::npos)
        << merge_pod.script;
    const auto claim =
        YAML::Load(manifest("arena-data.yaml"))["metadata"]["name"].as<std::string>();
    for (const auto* p : {&pod, &merge_pod}) {
        std::set<std::string> volumes;
        for (const auto& v : p->spec["volumes"]) {
            volumes.insert(v["name"].as<std::string>());
            EXPECT_EQ(v["persistentVolumeClaim"]["claimName"].as<std::string>(), claim);
        }
        for (const auto& m : p->container["volumeMounts"]) {
            EXPECT_TRUE(volumes.contains(m["name"].as<std::string>()));
            EXPECT_EQ(m["mountPath"].as<std::string>(), "/data");
        }
        EXPECT_EQ(p->container["workingDir"].as<std::string>(), "/data");
    }
    EXPECT_EQ(YAML::Load(manifest("arena-data.yaml"))["spec"]["accessModes"][0].as<std::string>(),
              "ReadWriteMany");
}

// ---- what the pods run, run here --------------------------------------------------

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

TEST(KubernetesManifests, TheShardsCommandsThenTheMergeMakeTheWholeTournament) {
    TempDir dir("kubernetes_test");
    const auto data = dir.path().string();
    std::string config =
        "name: course\ngame: { name: connect4 }\ntime: { move_ms: 5000 }\n"
        "schedule: { type: round-robin, games_per_pair: 4 }\n"
        "openings: { random_plies: 2 }\nseed: 7\nbots:\n";
    for (int depth = 1; depth <= 4; ++depth) {
        config += "  - { name: d" + std::to_string(depth) +
                  ", command: " + bin("bots/c4-alphabeta") + " --depth " + std::to_string(depth) +
                  " }\n";
    }
    (void)dir.write("tournament.yaml", config);

    const auto shards_job = YAML::Load(manifest("arena-shards.yaml"));
    const auto shards = pod_of(shards_job);
    const auto merge = pod_of(YAML::Load(manifest("arena-merge.yaml")));
    const int n = shards_job["spec"]["completions"].as<int>();
    // ARENA_CPUS as Kubernetes sets it: limits.cpu in whole CPUs.
    const auto cpus = shards.container["resources"]["limits"]["cpu"].as<std::string>();
    const auto pod_shell = [&](const Pod& pod, const std::string& env) {
        const auto script = dir.write("script.sh", replaced(pod.script, "/data", data));
        const auto cwd = replaced(pod.container["workingDir"].as<std::string>(), "/data", data);
        return run_shell("cd '" + cwd + "' && env PATH='" + bin("bin") + ":/usr/bin:/bin' " + env +
                         " /bin/sh -c \"$(cat '" + script + "')\"");
    };
    for (int index = 0; index < n; ++index) {
        const auto r = pod_shell(
            shards, "JOB_COMPLETION_INDEX=" + std::to_string(index) + " ARENA_CPUS=" + cpus);
        ASSERT_EQ(r.status, 0) << "index " << index << ":\n" << r.out;
        EXPECT_NE(r.out.find("shard " + std::to_string(index + 1) + " of " + std::to_string(n)),
                  std::string::npos)
            << r.out;
    }
    const auto merged = pod_shell(merge, "");
    ASSERT_EQ(merged.status, 0) << merged.out;
    EXPECT_NE(merged.out.find("tournament 'course': 24 of 24 games, complete"), std::string::npos)
        << merged.out;

    const auto db = dir.path() / "results" / "tournament.db";
    ASSERT_TRUE(fs::exists(db)) << merged.out;
    EXPECT_EQ(query_one(db,
                        "SELECT count(*) || ' ' || min(game_index) || ' ' || max(game_index) "
                        "|| ' ' || count(DISTINCT game_index) FROM games"),
              "24 0 23 24");
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
    // The merge's standings are printed: every bot is in them.
    for (int depth = 1; depth <= 4; ++depth)
        EXPECT_NE(merged.out.find("d" + std::to_string(depth)), std::string::npos);

    // Game for game, the tournament one machine plays.
    const auto whole = run_shell("cd '" + data + "' && '" + bin("bin/arena") +
                                 "' run tournament.yaml --db whole.db -j 2");
    ASSERT_EQ(whole.status, 0) << whole.out;
    EXPECT_EQ(query(db, kGameRows), query(dir.path() / "whole.db", kGameRows));
    EXPECT_EQ(query(db, kMoveRows), query(dir.path() / "whole.db", kMoveRows));
}

}  // namespace
}  // namespace arena::testing
