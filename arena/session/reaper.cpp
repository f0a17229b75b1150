#include "arena/session/reaper.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <thread>
#include <unordered_map>
#include <unordered_set>

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

class Keeper {
  public:
    ~Keeper() {
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
            // The last sweep: nothing a bot left behind outlives the arena.
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
    }

    void start() {
        std::call_once(started_, [this] {
            // Orphans of bots come to us, not to init: see the header.
            ::prctl(PR_SET_CHILD_SUBREAPER, 1);
            started_flag_ = true;
            thread_ = std::thread([this] { run(); });
            spawner_ = std::thread([this] { spawn_loop(); });
        });
    }

    void on_spawner(const std::function<void()>& task) {
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

    std::mutex& mutex() { return mutex_; }

    void add(pid_t pid, const Watch& watch) { bots_[pid] = watch; }

    void remove(pid_t pid) {
        const std::lock_guard lock(mutex_);
        bots_.erase(pid);
    }

    void sweep() {
        const std::lock_guard lock(mutex_);
        sweep_locked();
    }

  private:
    void spawn_loop() {
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

    void run() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            wake_.wait_for(lock, kSweepPeriod);
            if (!stopping_) sweep_locked();
        }
    }

    void sweep_locked() {
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
        auto ours = [&](const ProcInfo& p) {
            const ProcInfo* at = &p;
            for (int depth = 0; depth < kMaxDepth && at != nullptr; ++depth) {
                if (bots_.contains(at->pid)) return true;
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
        cgroup::remove_pending();
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::once_flag started_;
    bool started_flag_ = false;  // start() ran (read at exit)
    std::thread thread_;
    bool stopping_ = false;
    std::unordered_map<pid_t, Watch> bots_;

    std::mutex task_mutex_;
    std::condition_variable task_wake_, task_done_;
    std::deque<std::function<void()>> tasks_;
    bool tasks_stopping_ = false;
    std::thread spawner_;
};

Keeper& keeper() {
    static Keeper k;
    return k;
}

}  // namespace

std::mutex& spawn_mutex() {
    return keeper().mutex();
}

void start() {
    keeper().start();
}

void on_spawner_thread(const std::function<void()>& task) {
    keeper().on_spawner(task);
}

void add_bot(pid_t pid, const Watch& watch) {
    keeper().add(pid, watch);
}

void remove_bot(pid_t pid) {
    keeper().remove(pid);
}

void sweep() {
    keeper().sweep();
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
