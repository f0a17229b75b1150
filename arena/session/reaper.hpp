#pragma once
// The process-wide keeper of bot process trees (see docs/security.md).
//
// Every bot is started as the leader of its own process group (in the
// arena's session, without a controlling terminal), and every process a bot
// starts must stay in that group. The arena makes
// itself a child subreaper (PR_SET_CHILD_SUBREAPER), so a bot's descendants
// whose parents exit (a double-forked daemon) are reparented to the arena
// instead of to init, and stay visible as descendants. A sweep over /proc,
// every 100 ms on a background thread and right after every kill, then:
//  - SIGKILLs every descendant of a bot (or process adopted from one) that is
//    not in a live bot's process group: a setsid() or setpgid() escape, or a
//    daemon whose bot is gone;
//  - reaps the adopted ones once dead, by explicit pid, never waitpid(-1):
//    the exit status of a bot's leader belongs to its Process;
//  - counts each bot's processes and threads, and kills a bot that has more
//    than its limit (flagging it, so the verdict can name the limit).
// Adopted processes are the arena's children that are not bot leaders and
// have left the arena's process group or session; the arena's own non-bot
// children (they stay in its group) are never touched.

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace arena::session::reaper {

// Serialises spawning with sweeps: a freshly forked bot is registered before
// a sweep can see it. Process holds it around fork and registration.
[[nodiscard]] std::mutex& spawn_mutex();

// Makes this process a child subreaper and starts the sweeper and spawner
// threads (idempotent; called before the first spawn).
void start();

// Runs `task` on the spawner thread, which lives as long as the arena, and
// waits for it (rethrowing what it throws). Bots are forked there because
// their PR_SET_PDEATHSIG fires when the forking *thread* ends: a frozen bot
// must die with the arena (even a kill -9 of it), not with a worker thread.
void on_spawner_thread(const std::function<void()>& task);

// A live bot leader. `max_tasks` (processes + threads in its group; 0: no
// limit) is enforced by the sweeper, which sets `*over_limit` before killing.
// Call with spawn_mutex() held.
void add_bot(pid_t pid, std::uint64_t max_tasks, std::atomic<bool>* over_limit);
// After the leader has been reaped.
void remove_bot(pid_t pid);

// Every process in the bot's process group, or descending from
// it through parent links (the leader included): what kill() must cover.
[[nodiscard]] std::vector<pid_t> tree_of(pid_t leader);

// One sweep now.
void sweep();

// CPU time (user + system) of one process, in clock ticks; -1 if it is gone.
[[nodiscard]] long long cpu_ticks(pid_t pid);

}  // namespace arena::session::reaper
