#pragma once
// The arena's own open-file limit, and what each bot process costs of it.
//
// A bot process holds kFdsPerBot descriptors in the arena for as long as it
// lives (its stdin, stdout and stderr pipes, a pidfd, a cgroup v2
// memory.peak), so the open-file limit bounds how many bot processes a run
// may keep alive at once. A run raises its soft limit to the hard limit
// first; bots get their own limit (Limits::open_files), never the raised one.

#include <cstdint>

namespace arena::session {

inline constexpr std::uint64_t kFdsPerBot = 5;

struct OpenFileLimit {
    std::uint64_t soft = 0;  // in force now (after the raise)
    std::uint64_t hard = 0;
    bool unlimited = false;  // RLIM_INFINITY: no bound worth computing
};

// Raises this process's soft RLIMIT_NOFILE to its hard limit (capped at the
// kernel's nr_open) and returns the limits then in force.
[[nodiscard]] OpenFileLimit raise_open_file_limit();

}  // namespace arena::session
