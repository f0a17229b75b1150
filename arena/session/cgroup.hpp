#pragma once
// A control group per bot process, where the machine gives the arena one
// (docs/security.md): the memory limit counts resident memory (plus swap) of
// the bot's whole process tree, the process limit is exact (a fork beyond it
// fails in the bot), freezing and killing cover the tree at once, and the
// kernel keeps the tree's peak memory.
//
// Detected once per host (ArenaGroups, owned by the session::BotHost that
// runs the games): cgroup v2 (a unified hierarchy whose memory and pids
// controllers the arena may hand to sub-groups), else cgroup v1 (separate
// memory, pids and, when mounted, freezer hierarchies). Groups are made
// under the arena's own group of each hierarchy (/proc/self/cgroup), as
// <own>/arena-<arena pid>/bot-<n>, and removed when the bot is gone; the
// groups of an arena that was killed (-9) are emptied (every process left in
// them killed) and removed by the next arena that starts beside it. Where
// nothing can be made (not root, no delegation), the Process falls back to
// rlimits and the reaper's /proc poll.

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace arena::session::cgroup {

struct Support {
    int version = 0;       // 2 or 1; 0: no cgroup per bot here
    bool freezer = false;  // a freezer for each bot's group
    bool swap = false;     // swap is accounted: the memory limit covers it too
    std::string reason;    // with version 0: why not, for people
};

// Whether a frozen bot is stopped by its group's freezer rather than by
// SIGSTOP to its process group (docs/performance.md says why not).
inline constexpr bool kFreezeByGroup = false;

class Group;

// The arena's own groups (<own>/arena-<pid>, one per hierarchy), under which
// each bot's groups are made. Nothing is detected or made until the first
// support() (or Group::create); the arena-<pid> groups are removed when this
// goes, after the bot groups whose removal had to wait (remove_pending).
class ArenaGroups {
  public:
    ArenaGroups();
    ~ArenaGroups();
    ArenaGroups(const ArenaGroups&) = delete;
    ArenaGroups& operator=(const ArenaGroups&) = delete;

    // What this machine allows (detected on the first call, which makes the
    // arena's groups). Thread-safe.
    [[nodiscard]] const Support& support();

    // The mechanism in force, in one line for the start of a run:
    // "limits: cgroup v1 per bot (memory, pids)" or "limits: rlimits and a
    // 100 ms /proc poll (no cgroup: ...)". `wanted` false: every bot asked
    // for no cgroup (`cgroup: false`); nothing is detected then.
    [[nodiscard]] std::string describe_limits(bool wanted = true);

    // The arena's groups, for the keeper process (reaper.hpp) to empty if
    // the arena dies; none when support() has not run (nothing is detected
    // for this).
    [[nodiscard]] std::vector<std::string> arena_dirs() const;

    // Retries removing bot groups whose processes were still dying (the
    // reaper's periodic sweep calls it).
    void remove_pending();

  private:
    friend class Group;
    class State;
    State& state();

    mutable std::mutex mutex_;
    std::unique_ptr<State> state_;  // made by the first state()
};

// The groups of one bot process, with its limits set.
class Group {
  public:
    // A group under `arena`'s (which must outlive it); nullptr, with the
    // reason in `why`, when the machine gives none or it cannot be made.
    // `memory_mb` 0 and `max_tasks` 0: no limit.
    static std::unique_ptr<Group> create(ArenaGroups& arena, std::uint64_t memory_mb,
                                         std::uint64_t max_tasks, std::string* why = nullptr);
    // Kills whatever is left in it and removes it (a removal that has to
    // wait for dying processes is retried by remove_pending).
    ~Group();
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;

    // Descriptors of the groups' cgroup.procs files (close-on-exec): the
    // child writes "0" to each before exec, so everything it ever starts or
    // allocates is counted. Closed by close_join_fds once the child runs.
    [[nodiscard]] const std::vector<int>& join_fds() const { return join_fds_; }
    void close_join_fds();

    // Freezes or thaws every process in it; false when there is no freezer.
    bool set_frozen(bool frozen);
    // SIGKILL to every process in it (v2 cgroup.kill; else frozen, killed
    // one by one, thawed, so that nothing forks meanwhile).
    void kill_all();

    // Has the kernel's out-of-memory killer killed one of its processes?
    [[nodiscard]] bool oom_killed() const;
    // Was a fork (or a thread) refused because of the process limit?
    [[nodiscard]] bool fork_refused() const;
    // Peak memory (bytes) since it was made or since reset_peak.
    [[nodiscard]] std::optional<std::uint64_t> peak_bytes() const;
    void reset_peak();

  private:
    explicit Group(ArenaGroups& arena) : arena_(arena) {}
    [[nodiscard]] std::vector<pid_t> members() const;
    ArenaGroups& arena_;  // where a removal that has to wait is left
    int version_ = 0;
    std::string memory_, pids_, freezer_;  // v1: one directory each; v2: memory_ only
    std::vector<int> join_fds_;
    int peak_fd_ = -1;  // v2 memory.peak, held: a reset is local to its descriptor
    bool frozen_ = false;
};

// SIGKILL to every process in the groups below `dir` (cgroup.kill where the
// kernel has it); true when a process was signalled or may have been.
// Async-signal-safe: the keeper calls it in a forked child.
bool kill_tree(const char* dir);

}  // namespace arena::session::cgroup
