#pragma once
// Test helper: a stand-in for Slurm's sbatch, for testing `arena slurm`
// where there is no cluster (the real one: slurm_cluster_test.cpp).

#include <filesystem>
#include <fstream>
#include <string>

namespace arena::testing {

// A stand-in for sbatch: prints a new job id, and runs the job at once:
// each task of its array (from --array, else the script's #SBATCH line) in
// turn (a workers' array: all together, since workers wait for each
// other), with the variables Slurm sets and its output appended to the
// script's --output log (%a: the task). Tasks listed in $SKIP_TASKS are not
// run, as if they had failed before starting.
inline constexpr const char* kFakeSbatch = R"(#!/bin/bash
set -u
dir=$(dirname "$0")
echo "$*" >> "$dir/calls.txt"
array="" script=""
for a in "$@"; do
  case "$a" in
    --array=*) array=${a#--array=} ;;
    -*) ;;
    *) script=$a ;;
  esac
done
[ -n "$array" ] || array=$(sed -n 's/^#SBATCH --array=//p' "$script")
id=$(( $(cat "$dir/last-id" 2>/dev/null || echo 100) + 1 ))
echo "$id" > "$dir/last-id"
cpus=$(sed -n 's/^#SBATCH --cpus-per-task=//p' "$script")
out=$(sed -n 's/^#SBATCH --output=//p' "$script")
# Workers wait for each other: their tasks run all at once, as on a cluster
# with room for the whole array; shards run in turn.
together=false
grep -q -- ' --worker ' "$script" && together=true
if [ -n "$array" ]; then
  for item in $(echo "${array%%%*}" | tr , ' '); do
    for k in $(seq "${item%-*}" "${item#*-}"); do
      case ",${SKIP_TASKS:-}," in *",$k,"*) continue ;; esac
      if $together; then
        SLURM_ARRAY_TASK_ID=$k SLURM_JOB_ID=$id SLURM_CPUS_PER_TASK=$cpus \
          bash "$script" >> "${out//%a/$k}" 2>&1 &
      else
        SLURM_ARRAY_TASK_ID=$k SLURM_JOB_ID=$id SLURM_CPUS_PER_TASK=$cpus \
          bash "$script" >> "${out//%a/$k}" 2>&1
      fi
    done
  done
  wait
else
  SLURM_JOB_ID=$id bash "$script" >> "$out" 2>&1
fi
echo "$id"
)";

// Writes the stand-in as `dir`/sbatch (its calls are appended to
// `dir`/calls.txt, its last job id kept in `dir`/last-id); put `dir` first
// on PATH.
inline void install_fake_sbatch(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "sbatch") << kFakeSbatch;
    std::filesystem::permissions(dir / "sbatch", std::filesystem::perms::owner_all);
}

}  // namespace arena::testing
