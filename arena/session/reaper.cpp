#include "arena/session/reaper.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace arena::session::reaper {
namespace {

constexpr auto kSweepPeriod = std::chrono::milliseconds(100);
// Parent links followed upwards at most (a chain longer than this is not ours).
constexpr int kMaxDepth = 256;

struct ProcInfo {
    pid_t pid = 0;
    pid_t ppid = 0;
    pid_t pgid = 0;
    char state = '?';
    long threads = 1;
    long long cpu = 0;  // utime + stime, clock ticks
};

// /proc/PID/stat: "pid (comm) state ppid pgrp session ..."; comm may hold
// spaces and parentheses, so fields are counted from the last ')'.
bool read_stat(pid_t pid, ProcInfo& info) {
    char path[32];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char buf[1024];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return false;
    buf[n] = '\0';
    const char* p = std::strrchr(buf, ')');
    if (p == nullptr || p[1] == '\0') return false;
    p += 2;
    info.pid = pid;
    info.state = *p;
    // Fields after the state, numbered as in proc(5): 4 ppid, 5 pgrp,
    // 14 utime, 15 stime, 20 num_threads.
    char* cursor = const_cast<char*>(p + 1);
    long long fields[21] = {};
    for (int field = 4; field <= 20; ++field)
        fields[field] = std::strtoll(cursor, &cursor, 10);
    info.ppid = static_cast<pid_t>(fields[4]);
    info.pgid = static_cast<pid_t>(fields[5]);
    info.cpu = fields[14] + fields[15];
    info.threads = static_cast<long>(fields[20]);
    return true;
}

std::vector<ProcInfo> all_processes() {
    std::vector<ProcInfo> out;
    DIR* dir = ::opendir("/proc");
    if (dir == nullptr) return out;
    while (const dirent* e = ::readdir(dir)) {
        char* end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (end == e->d_name || *end != '\0' || pid <= 0) continue;
        ProcInfo info;
        if (read_stat(static_cast<pid_t>(pid), info)) out.push_back(info);
    }
    ::closedir(dir);
    return out;
}

// Resident memory of one process (bytes, from /proc/PID/statm); 0 if gone.
std::uint64_t resident_bytes(pid_t pid) {
    static const long page = ::sysconf(_SC_PAGESIZE);
    char path[32];
    std::snprintf(path, sizeof path, "/proc/%d/statm", static_cast<int>(pid));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[256];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return 0;
    buf[n] = '\0';
    // "size resident shared text lib data dt", in pages.
    char* cursor = buf;
    std::strtoull(cursor, &cursor, 10);
    return std::strtoull(cursor, nullptr, 10) * static_cast<std::uint64_t>(page);
}

// ---- the keeper process (see the header) ---------------------------------------

// One record on the keeper's pipe: a bot's process group to kill if the
// arena dies (kAdd), or no longer (kRemove). 8 bytes: a write is atomic.
struct Record {
    std::int32_t op = 0;
    std::int32_t pid = 0;
};
constexpr std::int32_t kAdd = 1;
constexpr std::int32_t kRemove = 2;
// Process groups the keeper remembers at most (more than any run starts at once).
constexpr int kMaxGroups = 4096;
// How often the keeper reaps the orphans of its namespace.
constexpr int kKeeperPollMs = 50;

// The keeper's record of the bots' process groups (see keeper_main).
struct KeptGroups {
    pid_t pids[kMaxGroups];
    int count = 0;

    // Reads what is on the pipe `fd` into the record; false at its end.
    bool read_from(int fd) {
        Record records[64];
        const ssize_t n = ::read(fd, records, sizeof records);
        if (n == 0) return false;
        for (ssize_t i = 0; i < n / static_cast<ssize_t>(sizeof(Record)); ++i) {
            const Record& r = records[i];
            if (r.op == kAdd && count < kMaxGroups) {
                pids[count++] = r.pid;
            } else if (r.op == kRemove) {
                for (int j = 0; j < count; ++j) {
                    if (pids[j] == r.pid) {
                        pids[j] = pids[--count];
                        break;
                    }
                }
            }
        }
        return true;
    }
};

// Closes every descriptor but `a` and `b` (either may be -1).
void close_all_but(int a, int b) {
    if (a > b) std::swap(a, b);
    unsigned from = 0;
    for (const int keep : {a, b}) {
        if (keep < 0) continue;
        const auto k = static_cast<unsigned>(keep);
        if (k > from) ::close_range(from, k - 1, 0);
        from = k + 1;
    }
    ::close_range(from, ~0U, 0);
}

// The keeper's life, in the forked child: async-signal-safe calls only (the
// arena is multithreaded). `fd` is the read end of the pipe whose write end
// only the arena holds: end of file is the arena's death, whatever killed it.
// `arena_fd`, a pidfd of the arena (or -1), says so too, even while some
// process the arena forked still holds the write end before its exec (a
// bot's child frozen in its cgroup there would hold it for good).
// `cgroups` (null-terminated) are the arena's cgroup directories.
[[noreturn]] void keeper_main(int fd, int arena_fd, bool init, const char* const* cgroups) {
    ::prctl(PR_SET_NAME, "arena-keeper", 0, 0, 0);
    // Nothing of the arena's but the pipe: a descriptor held here would
    // keep a bot's pipe (or the run's lock) open after the arena is gone.
    close_all_but(fd, arena_fd);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    KeptGroups groups;  // 16 KiB, on the child's copy of the spawner thread's stack
    for (;;) {
        pollfd p[2] = {{fd, POLLIN, 0}, {arena_fd, POLLIN, 0}};
        const int ready = ::poll(p, arena_fd >= 0 ? 2 : 1, init ? kKeeperPollMs : -1);
        if (init) {
            // The init of the bots' namespace: their orphans come here.
            while (::waitpid(-1, nullptr, WNOHANG) > 0) {
            }
        }
        if (ready <= 0) continue;
        if (p[0].revents != 0 && !groups.read_from(fd)) break;  // the arena is gone
        if (arena_fd >= 0 && p[1].revents != 0) {
            // The arena is gone: what it wrote last is still to be read.
            pollfd rest{fd, POLLIN, 0};
            while (::poll(&rest, 1, 0) > 0 && groups.read_from(fd)) {
            }
            break;
        }
    }
    // The arena is gone. Every bot's process group, and each group in the
    // arena's cgroups, is killed until nothing is left (a group signal
    // reaches a forking process and its child alike). kill_tree also thaws
    // each cgroup: the arena may have died in the middle of a kill, with a
    // bot's cgroup v1 freezer at FROZEN, and a process frozen there dies of
    // SIGKILL only once thawed (the kernel's own kill of a PID namespace
    // included). As the namespace's init, one round is enough: its exit
    // kills every process left in the namespace.
    for (int round = 0; round < (init ? 1 : 50); ++round) {
        bool any = false;
        for (int j = 0; j < groups.count; ++j)
            if (::kill(-groups.pids[j], SIGKILL) == 0) any = true;
        for (const char* const* dir = cgroups; dir != nullptr && *dir != nullptr; ++dir)
            if (cgroup::kill_tree(*dir)) any = true;
        if (!any) break;
        const timespec pause{0, 10'000'000};
        ::nanosleep(&pause, nullptr);
    }
    ::_exit(0);
}

}  // namespace

Reaper::Reaper(cgroup::ArenaGroups& groups) : groups_(groups) {}

Reaper::~Reaper() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
        // The last sweep: nothing a bot left behind outlives the host.
        if (started_flag_) sweep_locked();
    }
    wake_.notify_all();
    {
        const std::lock_guard lock(task_mutex_);
        tasks_stopping_ = true;
    }
    task_wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (spawner_.joinable()) spawner_.join();
    // The end of its pipe: the keeper kills what is left of the bots (as it
    // would at the arena's death), and exits. It is our child: reaped here.
    if (keeper_fd_ >= 0) ::close(keeper_fd_);
    if (keeper_pid_ > 0)
        while (::waitpid(keeper_pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
}

void Reaper::start() {
    std::call_once(started_, [this] {
        // Orphans of bots come to us, not to init: see the header.
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
        started_flag_ = true;
        spawner_ = std::thread([this] { spawn_loop(); });
        on_spawner_thread([this] { start_keeper(); });
        thread_ = std::thread([this] { run(); });
    });
}

void Reaper::on_spawner_thread(const std::function<void()>& task) {
    std::exception_ptr error;
    bool done = false;
    std::unique_lock lock(task_mutex_);
    tasks_.push_back([&] {
        try {
            task();
        } catch (...) {
            error = std::current_exception();
        }
        const std::lock_guard done_lock(task_mutex_);
        done = true;
        task_done_.notify_all();
    });
    task_wake_.notify_one();
    task_done_.wait(lock, [&] { return done; });
    lock.unlock();
    if (error) std::rethrow_exception(error);
}

void Reaper::add_bot(pid_t pid, const Watch& watch) {
    bots_[pid] = watch;
    tell_keeper(kAdd, pid);
}

void Reaper::remove_bot(pid_t pid) {
    const std::lock_guard lock(mutex_);
    if (bots_.erase(pid) > 0) tell_keeper(kRemove, pid);
}

std::size_t Reaper::bots() const {
    const std::lock_guard lock(mutex_);
    return bots_.size();
}

void Reaper::sweep() {
    const std::lock_guard lock(mutex_);
    sweep_locked();
}

// On the spawner thread, once: the bots' PID namespace where the arena may
// make one, and the keeper process (see the header).
void Reaper::start_keeper() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    // Later children of this thread (the bots) are born in a new PID
    // namespace, whose init is the first of them: the keeper.
    namespace_ = ::unshare(CLONE_NEWPID) == 0;
    // The cgroup directories, prepared here: the child must not allocate.
    cgroup_dirs_ = groups_.arena_dirs();
    std::vector<const char*> dirs;
    for (const auto& d : cgroup_dirs_)
        dirs.push_back(d.c_str());
    dirs.push_back(nullptr);
    const bool init = namespace_;
    const pid_t arena = ::getpid();
    // (glibc 2.36's pidfd_open declaration lacks C linkage, hence syscall.)
    const int arena_fd = static_cast<int>(::syscall(SYS_pidfd_open, arena, 0));
    const pid_t pid = ::fork();
    if (pid == 0) {
        // Outlives the arena, out of reach of the signals of its terminal
        // and its process group, until it has seen the end of its pipe
        // and killed what is left. Not PR_SET_PDEATHSIG: a keeper killed
        // with the arena could not thaw a bot's frozen cgroup, whose
        // processes would then outlive its namespace.
        ::setsid();
        if (!init && ::getppid() != arena) ::_exit(0);
        keeper_main(fds[0], arena_fd, init, dirs.data());
    }
    ::close(fds[0]);
    if (arena_fd >= 0) ::close(arena_fd);
    if (pid < 0) {
        ::close(fds[1]);
        return;
    }
    keeper_pid_ = pid;
    keeper_fd_ = fds[1];
    ::fcntl(keeper_fd_, F_SETFL, O_NONBLOCK);
}

// Best effort: a full pipe (a keeper that stalls) loses the record.
void Reaper::tell_keeper(std::int32_t op, pid_t pid) const {
    if (keeper_fd_ < 0 || namespace_) return;  // the namespace needs no list
    const Record r{op, static_cast<std::int32_t>(pid)};
    (void)!::write(keeper_fd_, &r, sizeof r);
}

void Reaper::spawn_loop() {
    std::unique_lock lock(task_mutex_);
    for (;;) {
        task_wake_.wait(lock, [&] { return tasks_stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        auto task = std::move(tasks_.front());
        tasks_.pop_front();
        lock.unlock();
        task();
        lock.lock();
    }
}

void Reaper::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        wake_.wait_for(lock, kSweepPeriod);
        if (!stopping_) sweep_locked();
    }
}

void Reaper::sweep_locked() {
    const pid_t self = ::getpid();
    const pid_t self_pgid = ::getpgid(0);
    const auto procs = all_processes();
    std::unordered_map<pid_t, const ProcInfo*> by_pid;
    for (const auto& p : procs)
        by_pid[p.pid] = &p;

    // Is `p` a bot's process (a bot, a descendant of one, or adopted from
    // one)? Adopted processes are our children outside our process group
    // (bots have their own groups in our session; a group never spans
    // sessions, so this also covers a child that called setsid).
    // The orphans of the bots' PID namespace are its init's, the
    // keeper's, children; the keeper itself is never ours.
    const pid_t keeper = keeper_pid_;
    auto ours = [&](const ProcInfo& p) {
        const ProcInfo* at = &p;
        for (int depth = 0; depth < kMaxDepth && at != nullptr; ++depth) {
            if (at->pid == keeper) return false;
            if (bots_.contains(at->pid)) return true;
            if (at->ppid == keeper && keeper > 0) return true;
            if (at->ppid == self) return at->pgid != self_pgid;
            const auto it = by_pid.find(at->ppid);
            at = it == by_pid.end() ? nullptr : it->second;
        }
        return false;
    };

    // Per live bot group without a cgroup: tasks and resident bytes.
    std::unordered_map<pid_t, std::pair<std::uint64_t, std::uint64_t>> usage;
    for (const auto& p : procs) {
        if (p.pid == self || !ours(p)) continue;
        const bool zombie = p.state == 'Z' || p.state == 'X';
        if (zombie) {
            // Reap what was adopted; a bot leader is reaped by its Process.
            if (p.ppid == self && !bots_.contains(p.pid)) ::waitpid(p.pid, nullptr, WNOHANG);
            continue;
        }
        const auto bot = bots_.find(p.pgid);
        if (bot == bots_.end()) {
            ::kill(p.pid, SIGKILL);  // left its bot's group, or its bot is gone
            continue;
        }
        if (bot->second.group != nullptr) continue;
        auto& [tasks, rss] = usage[p.pgid];
        tasks += static_cast<std::uint64_t>(std::max(1L, p.threads));
        rss += resident_bytes(p.pid);
    }
    const auto over = [](std::atomic<bool>* flag, pid_t pid) {
        if (flag != nullptr) flag->store(true);
        ::kill(-pid, SIGKILL);
    };
    for (const auto& [pid, bot] : bots_) {
        if (bot.group != nullptr) {
            // The kernel refused a fork or killed for memory: the bot is
            // over a limit, and is killed whole (see Process::kill).
            if (bot.group->fork_refused()) {
                over(bot.over_task_limit, pid);
            } else if (bot.group->oom_killed()) {
                over(bot.over_memory_limit, pid);
            }
            continue;
        }
        const auto it = usage.find(pid);
        const auto [tasks, rss] =
            it == usage.end() ? std::pair<std::uint64_t, std::uint64_t>{} : it->second;
        if (bot.rss != nullptr) bot.rss->store(rss);
        if (bot.peak_rss != nullptr && rss > bot.peak_rss->load()) bot.peak_rss->store(rss);
        if (bot.max_tasks > 0 && tasks > bot.max_tasks) {
            over(bot.over_task_limit, pid);
        } else if (bot.max_rss > 0 && rss > bot.max_rss) {
            over(bot.over_memory_limit, pid);
        }
    }
    groups_.remove_pending();
}

std::vector<pid_t> tree_of(pid_t leader) {
    const auto procs = all_processes();
    std::unordered_map<pid_t, std::vector<pid_t>> children;
    std::unordered_set<pid_t> found;
    std::vector<pid_t> todo;
    for (const auto& p : procs) {
        children[p.ppid].push_back(p.pid);
        if (p.pid == leader || p.pgid == leader) {
            if (found.insert(p.pid).second) todo.push_back(p.pid);
        }
    }
    while (!todo.empty()) {
        const pid_t pid = todo.back();
        todo.pop_back();
        for (const pid_t child : children[pid])
            if (found.insert(child).second) todo.push_back(child);
    }
    return {found.begin(), found.end()};
}

long long cpu_ticks(pid_t pid) {
    ProcInfo info;
    return read_stat(pid, info) ? info.cpu : -1;
}

}  // namespace arena::session::reaper
