#pragma once
// Starting a bot's program as a child of the arena: the program found, its
// pipes, the sandbox's command line wrapped around it, its cgroup and
// rlimits, and what the child does between fork and exec (its own process
// group, no terminal, default signals, its limits). Process (process.hpp)
// owns what comes back.

#include <sys/types.h>

#include <functional>
#include <memory>

#include "arena/session/bot_host.hpp"
#include "arena/session/cgroup.hpp"
#include "arena/session/process.hpp"

namespace arena::session {

// A started child: its pid, the arena's ends of its pipes (non-blocking,
// close-on-exec) and its cgroup (null: rlimits and the reaper's poll).
struct SpawnedChild {
    pid_t pid = -1;
    int stdin_fd = -1;
    int stdout_fd = -1;
    int stderr_fd = -1;
    std::unique_ptr<cgroup::Group> group;
};

// Starts the child `options` describes, under `host` (its cgroups; its
// reaper, started). `on_started` runs on the reaper's spawner thread, with
// the spawn lock held, as soon as the child has exec'd, with its pid and
// cgroup: the moment to register it with the reaper (Reaper::add_bot).
// Throws SpawnError.
[[nodiscard]] SpawnedChild spawn_child(
    BotHost& host, const ProcessOptions& options,
    const std::function<void(pid_t, cgroup::Group*)>& on_started);

}  // namespace arena::session
