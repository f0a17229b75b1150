#pragma once
// What the arena keeps for the bot processes it starts, for as long as it
// runs games: the run's scratch directory, its cgroups (cgroup.hpp) and the
// reaper with its spawner thread and keeper process (reaper.hpp). Whoever
// runs games owns one (a command, a test) and passes it down to where bots
// are started: make_session, Process, spawn_child. Nothing is made before
// it is needed: the scratch directory with the first bot's, the cgroups at
// their first use (support(), a bot with a cgroup), the reaper and keeper
// at the first spawn. When the host goes, all of it goes: a last sweep, the
// keeper ended and reaped, the arena's cgroups and the scratch directory
// removed.
//
// One host at a time in a process: a second one, made while the first
// lives, throws std::logic_error. Two would fight: the reaper kills every
// child of the arena that is not one of its own bots (a daemon a bot left),
// so each host's sweep would kill the other's bots, and both would make the
// same arena-<pid> cgroups. Hosts one after another (commands run in one
// test process) are fine: each starts its own keeper.
//
// The host must outlive every Process (and session) it started: destroying
// it while one is alive is a programming error, and aborts with a message.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

#include "arena/session/cgroup.hpp"
#include "arena/session/reaper.hpp"

namespace arena::session {

class BotHost {
  public:
    // Throws std::logic_error when another host is alive in this process.
    BotHost();
    ~BotHost();
    BotHost(const BotHost&) = delete;
    BotHost& operator=(const BotHost&) = delete;

    // What the machine allows for a cgroup per bot (detected on the first
    // call; cgroup::ArenaGroups::support).
    [[nodiscard]] const cgroup::Support& cgroup_support() { return cgroups_.support(); }
    // The limits line of a run (cgroup::ArenaGroups::describe_limits).
    [[nodiscard]] std::string describe_limits(bool wanted = true) {
        return cgroups_.describe_limits(wanted);
    }

    // A fresh private directory for one process of `bot` (mode 0700), in
    // the run's scratch directory: $TMPDIR/arena-XXXXXX, made on first use.
    // Throws SpawnError when either cannot be made.
    [[nodiscard]] std::filesystem::path make_scratch(const std::string& bot);
    // The run's scratch directory; empty until the first make_scratch.
    [[nodiscard]] std::filesystem::path run_dir() const;

    // For Process and spawn_child.
    [[nodiscard]] cgroup::ArenaGroups& cgroups() { return cgroups_; }
    [[nodiscard]] reaper::Reaper& reaper() { return reaper_; }

  private:
    friend class Process;  // counts itself in processes_

    // The one host of the process: taken first, given back last.
    class Claim {
      public:
        Claim();
        ~Claim();
        Claim(const Claim&) = delete;
        Claim& operator=(const Claim&) = delete;
    };

    // The run's scratch directory, removed (with whatever bots left in it)
    // when the host goes: after the reaper's last sweep, as it is made
    // before the reaper starts.
    class RunDir {
      public:
        RunDir() = default;
        ~RunDir();
        RunDir(const RunDir&) = delete;
        RunDir& operator=(const RunDir&) = delete;
        std::filesystem::path make_scratch(const std::string& bot);
        [[nodiscard]] std::filesystem::path path() const;

      private:
        mutable std::mutex mutex_;
        std::filesystem::path path_;
        std::uint64_t serial_ = 0;
    };

    // Destroyed in reverse order: the reaper (its last sweep, the keeper's
    // end) before the cgroups it sweeps, and both before the scratch
    // directory.
    Claim claim_;
    RunDir run_dir_;
    cgroup::ArenaGroups cgroups_;
    reaper::Reaper reaper_{cgroups_};
    std::atomic<int> processes_{0};  // Processes alive that use this host
};

}  // namespace arena::session
