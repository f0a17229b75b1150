#pragma once
// The keeper of bot process trees (see docs/security.md), one per
// session::BotHost: whoever runs games owns it (bot_host.hpp).
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
//  - for a bot without a cgroup, counts its processes and threads and sums
//    their resident memory, and kills a bot over its limits (flagging it,
//    so the verdict can name the limit); for a bot with a cgroup
//    (cgroup.hpp), where the kernel enforces both limits, kills a bot whose
//    fork was refused or whose process the out-of-memory killer took.
// Adopted processes are the arena's children that are not bot leaders and
// have left the arena's process group or session; the arena's own non-bot
// children (they stay in its group) are never touched.
//
// Whatever ends the arena (kill -9, a crash, the out-of-memory killer), no
// process of a bot outlives it by more than a moment. A bot leader has
// PR_SET_PDEATHSIG, which covers it alone; for everything it starts, a small
// keeper process forked from the arena (on the spawner thread), in a session
// of its own, holds the read end of a pipe only the arena can write, and a
// pidfd of the arena. At end of file or the pidfd's signal (the arena is
// gone, however it died) it kills and thaws every
// group in the arena's cgroups (a process in a cgroup v1 freezer that the
// arena froze to kill it dies only once thawed), and then:
//  - where the arena may make a PID namespace (root, or CAP_SYS_ADMIN), the
//    bots are born in one of their own, whose init is the keeper. Its exit
//    makes the kernel kill every process of the namespace: helpers, daemons,
//    setsid() escapes and fork bombs alike, at once. The keeper also reaps
//    the namespace's orphans (which the sweep kills as adopted ones);
//  - elsewhere (a normal user), the arena tells the keeper each bot's process
//    group; it SIGKILLs them all, and every process in the arena's cgroups,
//    until none is left, then exits. What left its bot's process group
//    (setsid) without a cgroup to hold it is killed by the arena's sweep
//    within 100 ms while the arena lives; one that did so in the last 100 ms
//    before the arena died can survive.
// The cgroups of a killed arena are emptied and removed by the next arena
// that starts beside it (cgroup.hpp).
//
// All of this belongs to the Reaper below, one per session::BotHost. When
// the host goes (a command ends), its Reaper sweeps once more and closes the
// keeper's pipe: the keeper sees its end as it would the arena's death,
// kills what is left (normally nothing), exits and is reaped. A later host
// forks a keeper of its own (and, as root, a new PID namespace).

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "arena/session/cgroup.hpp"

namespace arena::session::reaper {

// What the sweeper watches of one bot. Every pointer outlives the bot's
// registration (until remove_bot returns).
struct Watch {
    // Without a cgroup: processes + threads in its group (0: no limit)...
    std::uint64_t max_tasks = 0;
    // ...and the sum of its processes' resident sets (bytes; 0: no limit),
    // polled. Over either, the sweeper sets the flag, then kills the group.
    std::uint64_t max_rss = 0;
    std::atomic<bool>* over_task_limit = nullptr;
    std::atomic<bool>* over_memory_limit = nullptr;
    // Without a cgroup, the last sum of resident sets and the largest
    // since the peak was reset (both may be null).
    std::atomic<std::uint64_t>* rss = nullptr;
    std::atomic<std::uint64_t>* peak_rss = nullptr;
    // With one: a refused fork or an out-of-memory kill in it sets the
    // flag and kills the bot.
    const cgroup::Group* group = nullptr;
};

// The sweeper, the spawner thread and the keeper process of one
// session::BotHost (bot_host.hpp), which owns it: they start with its first
// bot (start()) and end with it. Its destructor sweeps once more, stops both
// threads, and closes the keeper's pipe: the keeper then kills whatever is
// left of the bots (nothing, normally), exits and is reaped.
class Reaper {
  public:
    // `groups`: the host's cgroups (it must outlive this), emptied by the
    // keeper if the arena dies, and whose pending removals each sweep retries.
    explicit Reaper(cgroup::ArenaGroups& groups);
    ~Reaper();
    Reaper(const Reaper&) = delete;
    Reaper& operator=(const Reaper&) = delete;

    // Makes this process a child subreaper and starts the sweeper and
    // spawner threads and the keeper (idempotent; called before the first
    // spawn). The keeper is given the arena's cgroups detected by then.
    void start();

    // Serialises spawning with sweeps: a freshly forked bot is registered
    // before a sweep can see it. Process holds it around fork and registration.
    [[nodiscard]] std::mutex& spawn_mutex() { return mutex_; }

    // Runs `task` on the spawner thread, which lives as long as this, and
    // waits for it (rethrowing what it throws). Bots are forked there
    // because their PR_SET_PDEATHSIG fires when the forking *thread* ends: a
    // frozen bot must die with the arena (even a kill -9 of it), not with a
    // worker thread. After start().
    void on_spawner_thread(const std::function<void()>& task);

    // A live bot leader, watched as `watch` says. Call with spawn_mutex() held.
    void add_bot(pid_t pid, const Watch& watch);
    // After the leader has been reaped.
    void remove_bot(pid_t pid);
    // Bot leaders registered and not yet removed.
    [[nodiscard]] std::size_t bots() const;

    // One sweep now.
    void sweep();

    // Whether bots are born in the arena's PID namespace (see above); after start().
    [[nodiscard]] bool bots_in_namespace() const { return namespace_; }

  private:
    void start_keeper();
    void tell_keeper(std::int32_t op, pid_t pid) const;
    void spawn_loop();
    void run();
    void sweep_locked();

    cgroup::ArenaGroups& groups_;

    mutable std::mutex mutex_;  // spawn_mutex(): bots_, stopping_
    std::condition_variable wake_;
    std::once_flag started_;
    bool started_flag_ = false;  // start() ran (read at the end)
    std::thread thread_;         // the sweeper
    bool stopping_ = false;
    std::unordered_map<pid_t, Watch> bots_;

    bool namespace_ = false;  // bots are born in a PID namespace of their own
    pid_t keeper_pid_ = -1;   // the keeper process, -1: none
    int keeper_fd_ = -1;      // the write end of its pipe (held until this goes)
    std::vector<std::string> cgroup_dirs_;

    std::mutex task_mutex_;
    std::condition_variable task_wake_, task_done_;
    std::deque<std::function<void()>> tasks_;
    bool tasks_stopping_ = false;
    std::thread spawner_;
};

// Every process in the bot's process group, or descending from
// it through parent links (the leader included): what kill() must cover.
[[nodiscard]] std::vector<pid_t> tree_of(pid_t leader);

// CPU time (user + system) of one process, in clock ticks; -1 if it is gone.
[[nodiscard]] long long cpu_ticks(pid_t pid);

}  // namespace arena::session::reaper
