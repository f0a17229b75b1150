#include "arena/session/process.hpp"

// Spawning uses Boost.Process v1 as the launcher only (fork, exec, error
// reporting from the child); every descriptor, the pid and all waiting are
// handled here with plain POSIX calls.
//
// Things that matter for a multithreaded arena running many bots at once:
//  - Our pipes are created close-on-exec, so a bot started by another thread
//    never inherits the far end of someone else's pipe (EOF would never come).
//    In the child, fds >= 3 are additionally marked close-on-exec with
//    close_range(2), which covers descriptors other code opened without it.
//  - Nothing in the forked child allocates: the handlers only make syscalls.
//  - Spawns are serialised: Boost's internal error pipe is not close-on-exec
//    for a moment after pipe(2), and a concurrent fork could leak it.

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
// glibc declares vfork(2) whatever the feature macros say, but Boost.Process
// enables its vfork launcher only for old _XOPEN_SOURCE levels.
#ifndef BOOST_POSIX_HAS_VFORK
#define BOOST_POSIX_HAS_VFORK 1
#endif
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/error.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>
#include <boost/process/search_path.hpp>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include "arena/session/reaper.hpp"

namespace arena::session {

namespace bp = boost::process;

namespace {

constexpr std::size_t kChunkBytes = 64 << 10;
// The longest single wait in poll(2). The kernel lets a poll timeout expire
// up to 0.1 % late, 0.5 % for a thread with positive niceness, at most
// 100 ms. Process::read_line splits every wait kRealtimeWindow before its
// deadline, so a wait up to that point may be late by less than the window
// without delaying the verdict: at most 2 ms (10 ms niced) for slices of
// 2 s. The last kRealtimeWindow is one sleep, whose slack is at most 20 us
// (100 us niced), none at real-time priority.
constexpr auto kMaxPollSlice = std::chrono::seconds(2);

// stderr reads per wake-up, so that a flooding stderr cannot starve the
// deadline check or stdout.
constexpr int kStderrReadsPerWake = 4;

// Signals commonly ignored or blocked by a host program; ignored dispositions
// survive exec, so the child gets the defaults back.
constexpr int kResetSignals[] = {SIGPIPE, SIGCHLD, SIGINT,  SIGQUIT, SIGHUP,
                                 SIGTERM, SIGUSR1, SIGUSR2, SIGTSTP, SIGALRM};

class UniqueFd {
  public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    [[nodiscard]] int get() const { return fd_; }
    [[nodiscard]] int release() { return std::exchange(fd_, -1); }
    void reset(int fd = -1) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }

  private:
    int fd_ = -1;
};

// The likely cause of the commonest failures, for people writing a bot.
std::string spawn_hint(const std::string& command, int err) {
    switch (err) {
        case ENOEXEC:
            return " (a script needs a first line such as '#!/usr/bin/env python3', or give "
                   "its interpreter: 'python3 bot.py')";
        case EACCES:
            return " (is it executable? chmod +x)";
        case ENOENT:
            if (command.find('/') == std::string::npos) return " (not found in PATH)";
            if (command.front() == '/') return "";
            return " (a relative path is taken from the bot's directory: its 'dir', else the "
                   "directory the arena was started in)";
        default:
            return "";
    }
}

[[noreturn]] void throw_spawn_error(const std::string& command, int err) {
    throw SpawnError("cannot start '" + command + "': " + std::strerror(err) +
                     spawn_hint(command, err));
}

// A close-on-exec pipe whose ends are both >= 3: the child dup2()s them onto
// 0..2, which must not collide (and dup2 onto itself would keep CLOEXEC).
void make_pipe(const std::string& command, UniqueFd& read_end, UniqueFd& write_end) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw_spawn_error(command, errno);
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
    for (UniqueFd* end : {&read_end, &write_end}) {
        if (end->get() > STDERR_FILENO) continue;
        const int moved = ::fcntl(end->get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
        if (moved < 0) throw_spawn_error(command, errno);
        end->reset(moved);
    }
}

void set_nonblocking(const std::string& command, int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        throw_spawn_error(command, errno);
}

void ignore_sigpipe_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_handler = SIG_IGN;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGPIPE, &action, nullptr);
    });
}

// System directories a sandboxed bot sees read-only. A symlink (a merged-usr
// /bin -> usr/bin) is recreated as the same symlink inside.
constexpr const char* kSandboxSystemDirs[] = {"/usr",   "/bin",   "/sbin", "/lib",
                                              "/lib32", "/lib64", "/etc",  "/opt"};

constexpr rlim_t kMiB = rlim_t{1} << 20;

// The bwrap options that put `exe` (with `args`) in a sandbox that starts
// in `dir`, sees it read-only and can write only `scratch` (see
// docs/security.md), followed by "--", exe.
std::vector<std::string> sandbox_args(const SandboxOptions& sandbox, const std::string& exe,
                                      const std::vector<std::string>& args,
                                      const std::filesystem::path& dir,
                                      const std::filesystem::path& scratch) {
    namespace fs = std::filesystem;
    std::vector<std::string> out = {"--die-with-parent", "--unshare-net", "--unshare-pid",
                                    "--unshare-ipc",     "--unshare-uts", "--unshare-cgroup-try",
                                    "--hostname",        "arena-sandbox"};
    for (const char* system_dir : kSandboxSystemDirs) {
        std::error_code ec;
        if (fs::is_symlink(system_dir, ec)) {
            out.insert(out.end(),
                       {"--symlink", fs::read_symlink(system_dir, ec).string(), system_dir});
        } else if (fs::is_directory(system_dir, ec)) {
            out.insert(out.end(), {"--ro-bind", system_dir, system_dir});
        }
    }
    out.insert(out.end(), {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"});
    // What the bot may read of the host besides the system: its own
    // program's files. A directory is shown whole (read-only) unless it
    // holds the arena's working directory or something hidden (other bots'
    // folders and programs, the results, the config): from such a directory
    // only the file named (the program, a script, a weights file) is shown.
    const fs::path base = dir.empty() ? fs::current_path() : dir;
    const auto canonical = [](const fs::path& path) {
        std::error_code ec;
        return fs::weakly_canonical(path, ec).string();
    };
    std::vector<std::string> guarded = {canonical(fs::current_path())};
    for (const auto& path : sandbox.hidden)
        guarded.push_back(canonical(path));
    const auto holds_guarded = [&](const std::string& p) {
        if (p == "/") return true;
        return std::any_of(guarded.begin(), guarded.end(), [&](const std::string& g) {
            return !g.empty() && (g == p || g.starts_with(p + "/"));
        });
    };
    std::vector<std::string> binds;
    for (const auto& path : sandbox.read_only)  // named by the config: shown as asked
        binds.push_back(canonical(path));
    const auto show = [&](const fs::path& path) {
        std::error_code ec;
        const bool is_dir = fs::is_directory(path, ec);
        const std::string folder = canonical(is_dir ? path : path.parent_path());
        if (folder.empty()) return;
        if (!holds_guarded(folder)) {
            binds.push_back(folder);
        } else if (!is_dir) {
            binds.push_back(canonical(path));
        }
    };
    const std::string start_dir = canonical(base);
    const bool start_shown = !start_dir.empty() && !holds_guarded(start_dir);
    // The working directory itself, when it is not shown, exists inside as
    // an empty directory (holding only what is shown below it).
    if (!start_shown && !start_dir.empty() && start_dir != "/")
        out.insert(out.end(), {"--dir", start_dir});
    if (start_shown) binds.push_back(start_dir);
    show(fs::path(exe));
    for (const auto& arg : args) {
        std::error_code ec;
        if (arg.find('/') == std::string::npos) continue;
        const fs::path path = base / arg;  // an absolute arg replaces the base
        if (fs::exists(path, ec)) show(path);
    }
    for (const auto& p : binds) {
        if (!p.empty() && p != "/") out.insert(out.end(), {"--ro-bind-try", p, p});
    }
    if (!scratch.empty()) out.insert(out.end(), {"--bind", scratch.string(), scratch.string()});
    out.insert(out.end(), {"--chdir", start_dir.empty() ? base.string() : start_dir, "--", exe});
    return out;
}

timespec to_timespec(Clock::duration d) {
    if (d < Clock::duration::zero()) d = Clock::duration::zero();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
    return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

// Where one wait toward a deadline stops: kRealtimeWindow before it while it
// is further off, so that a long sleep's slack never delays the deadline.
Clock::time_point wake_before(Clock::time_point deadline, Clock::time_point now) {
    return deadline - now > kRealtimeWindow ? deadline - kRealtimeWindow : deadline;
}

timespec poll_timeout(Clock::duration left) {
    return to_timespec(std::min<Clock::duration>(left, kMaxPollSlice));
}

// sched_setattr(2)'s argument (SCHED_ATTR_SIZE_VER0); glibc 2.36 has no
// declaration of its own.
struct SchedAttr {
    std::uint32_t size = sizeof(SchedAttr);
    std::uint32_t policy = SCHED_OTHER;
    std::uint64_t flags = 0;
    std::int32_t nice = 0;
    std::uint32_t priority = 0;
    std::uint64_t runtime = 0;
    std::uint64_t deadline = 0;
    std::uint64_t period = 0;
};
constexpr std::uint64_t kSchedResetOnFork = 0x01;  // SCHED_FLAG_RESET_ON_FORK
// The scheduler slice asked for threads that wait on bots: the kernel's
// minimum (0.1 ms).
constexpr std::uint64_t kWaiterSliceNs = 100'000;

ExitStatus decode_status(int status) {
    ExitStatus s;
    if (WIFEXITED(status)) {
        s.exited = true;
        s.code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        s.signaled = true;
        s.signal = WTERMSIG(status);
    }
    return s;
}

// A request that every CPU stay out of idle states that are slow to leave
// (PM QoS, /dev/cpu_dma_latency), held by one waiting thread for the last
// stretch of a wait: an idle virtual CPU that halts may take milliseconds to
// run again when its timer fires. Closing the file ends the request. Needs
// root; without it nothing changes and it is not tried again.
class IdleLatencyRequest {
  public:
    IdleLatencyRequest() = default;
    IdleLatencyRequest(const IdleLatencyRequest&) = delete;
    IdleLatencyRequest& operator=(const IdleLatencyRequest&) = delete;
    ~IdleLatencyRequest() {
        if (fd_ >= 0) ::close(fd_);
    }

    void hold(bool low) {
        if (low == low_) return;
        if (fd_ < 0) {
            if (!low || tried_) return;
            tried_ = true;
            fd_ = ::open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
            if (fd_ < 0) return;
        }
        // Microseconds of wake-up latency allowed: none, or the kernel's
        // "no constraint".
        const std::int32_t value = low ? 0 : 2'000'000'000;
        if (::write(fd_, &value, sizeof value) == static_cast<ssize_t>(sizeof value)) low_ = low;
    }

  private:
    int fd_ = -1;
    bool tried_ = false;
    bool low_ = false;
};

// The scheduling of one thread that waits on bots.
struct WaiterScheduling {
    bool prepared = false;
    bool adjustable = false;  // SCHED_OTHER when prepared: the arena decides its policy
    bool realtime = false;    // SCHED_FIFO now
    bool refused = false;     // real-time priority was refused: not asked again
    int nice = 0;             // kept through every change
    IdleLatencyRequest idle_latency;
};

WaiterScheduling& waiter_scheduling() {
    thread_local WaiterScheduling w;
    return w;
}

// SCHED_OTHER with the waiter's slice and nice value.
bool set_normal_policy(const WaiterScheduling& w) {
    SchedAttr attr;
    attr.flags = kSchedResetOnFork;
    attr.nice = w.nice;
    attr.runtime = kWaiterSliceNs;
    return ::syscall(SYS_sched_setattr, 0, &attr, 0U) == 0;
}

}  // namespace

void prepare_waiting_thread() {
    auto& w = waiter_scheduling();
    if (w.prepared) return;
    w.prepared = true;
    ::prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    if (::sched_getscheduler(0) != SCHED_OTHER) return;
    errno = 0;
    w.nice = ::getpriority(PRIO_PROCESS, 0);  // this thread's
    if (errno != 0) return;
    w.adjustable = true;
    set_normal_policy(w);  // best effort
}

void set_waiting_thread_realtime(bool on) {
    auto& w = waiter_scheduling();
    w.idle_latency.hold(on);
    if (!w.adjustable || on == w.realtime) return;
    if (on) {
        if (w.refused) return;
        sched_param param{};
        param.sched_priority = 1;
        if (::sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param) != 0) {
            w.refused = true;
            return;
        }
        w.realtime = true;
        return;
    }
    if (!set_normal_policy(w)) {
        // A kernel without sched_setattr: plain SCHED_OTHER.
        const sched_param param{};
        if (::sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &param) != 0) return;
        ::setpriority(PRIO_PROCESS, 0, w.nice);
    }
    w.realtime = false;
}

bool sandbox_available(const std::string& bwrap) {
    static std::mutex mutex;
    static std::optional<bool> available;
    const std::lock_guard lock(mutex);
    if (!available) {
        const std::string path = bp::search_path(bwrap).string();
        available =
            !path.empty() &&
            std::system((path + " --ro-bind / / --unshare-net --unshare-pid --die-with-parent "
                                "true >/dev/null 2>&1")
                            .c_str()) == 0;
    }
    return *available;
}

std::string ExitStatus::describe() const {
    if (exited) return "exit " + std::to_string(code);
    if (signaled) {
        std::string text = "signal " + std::to_string(signal);
        if (const char* abbrev = ::sigabbrev_np(signal)) {
            text += " (SIG";
            text += abbrev;
            text += ')';
        }
        return text;
    }
    return "unknown status";
}

Process::Process(const ProcessOptions& options)
    : max_line_bytes_(options.max_line_bytes),
      stderr_log_bytes_(options.stderr_log_bytes),
      transcript_limit_(options.transcript_bytes),
      limits_(options.limits),
      sandboxed_(options.sandbox.enabled),
      realtime_deadlines_(options.realtime_deadlines) {
    ignore_sigpipe_once();
    // Detected before the reaper starts, so that the arena's groups are
    // removed after the reaper's last sweep at exit.
    if (options.cgroup) (void)cgroup::support();
    reaper::start();
    if (options.argv.empty() || options.argv.front().empty()) {
        throw SpawnError("cannot start a bot: empty command");
    }
    const std::string& command = options.argv.front();

    // Resolve the program in the parent (the child must not allocate). A
    // relative path with a '/' is relative to working_dir, where it starts.
    std::string exe;
    if (command.find('/') == std::string::npos) {
        exe = bp::search_path(command).string();
        if (exe.empty()) throw_spawn_error(command, ENOENT);
    } else {
        std::error_code ec;
        exe = std::filesystem::absolute(options.working_dir / command, ec).string();
        if (ec) throw_spawn_error(command, ec.value());
    }
    const std::string dir = options.working_dir.string();
    if (!dir.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(options.working_dir, ec)) {
            throw SpawnError("cannot start '" + command + "' in '" + dir +
                             "': " + std::strerror(ec ? ec.value() : ENOTDIR));
        }
    }

    UniqueFd in_read, in_write, out_read, out_write, err_read, err_write;
    make_pipe(command, in_read, in_write);
    make_pipe(command, out_read, out_write);
    make_pipe(command, err_read, err_write);
    for (int fd : {in_write.get(), out_read.get(), err_read.get()})
        set_nonblocking(command, fd);

    std::vector<std::string> args(options.argv.begin() + 1, options.argv.end());
    if (options.sandbox.enabled) {
        const std::string bwrap = bp::search_path(options.sandbox.bwrap).string();
        if (bwrap.empty()) {
            throw SpawnError("cannot start '" + command + "' in a sandbox: '" +
                             options.sandbox.bwrap + "' (bubblewrap) not found");
        }
        auto wrapped =
            sandbox_args(options.sandbox, exe, args, options.working_dir, options.scratch_dir);
        wrapped.insert(wrapped.end(), args.begin(), args.end());
        args = std::move(wrapped);
        exe = bwrap;
    }
    const char* const chdir_to = dir.empty() ? nullptr : dir.c_str();

    // The environment, prepared here: the child must not allocate.
    std::vector<char*> envp;
    if (options.environment) {
        for (const auto& entry : *options.environment)
            envp.push_back(const_cast<char*>(entry.c_str()));
        envp.push_back(nullptr);
    }
    char** const env = options.environment ? envp.data() : nullptr;

    struct Rlimit {
        int resource;
        rlim_t value;  // soft
        rlim_t hard;   // set below
    };
    std::vector<Rlimit> rlimits;
    const Limits& lim = options.limits;
    // In a cgroup the kernel limits the tree's resident memory and tasks;
    // else the reaper polls both, with an address-space safety net.
    if (options.cgroup) group_ = cgroup::Group::create(lim.memory_mb, lim.processes);
    if (!group_ && lim.memory_mb > 0 && kAddressSpaceFactor > 0) {
        const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGESIZE);
        const std::uint64_t ram =
            pages > 0 && page_size > 0
                ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size)
                : 0;
        rlimits.push_back({RLIMIT_AS, lim.memory_mb * kAddressSpaceFactor * kMiB + ram, 0});
    }
    if (lim.file_size_mb > 0) rlimits.push_back({RLIMIT_FSIZE, lim.file_size_mb * kMiB, 0});
    if (lim.open_files > 0) rlimits.push_back({RLIMIT_NOFILE, lim.open_files, 0});
    if (lim.cpu_seconds > 0) rlimits.push_back({RLIMIT_CPU, lim.cpu_seconds, 0});
    // No real-time priority for bots, whatever the arena's own limit allows
    // (only CAP_SYS_NICE overrides it).
    rlimits.push_back({RLIMIT_RTPRIO, 0, 0});
    // Within the arena's own hard limits, which an unprivileged process
    // cannot raise (a bot's default open_files above `ulimit -Hn`).
    for (Rlimit& r : rlimits) {
        rlimit own{};
        r.hard = r.resource == RLIMIT_CPU ? r.value + 1 : r.value;
        if (::getrlimit(r.resource, &own) == 0 && own.rlim_max != RLIM_INFINITY) {
            r.hard = std::min(r.hard, own.rlim_max);
            r.value = std::min(r.value, r.hard);
        }
    }
    const Rlimit* const rlimits_begin = rlimits.data();
    const Rlimit* const rlimits_end = rlimits.data() + rlimits.size();

    const pid_t arena_pid = ::getpid();
    const int nice = lim.nice;
    const int* const join_begin = group_ ? group_->join_fds().data() : nullptr;
    const int* const join_end = join_begin + (group_ ? group_->join_fds().size() : 0);

    // Runs in the forked child: async-signal-safe calls only.
    // Born in the bots' PID namespace (reaper.hpp), the bot gets a /proc of
    // that namespace, in a mount namespace of its own: the numbers it knows
    // itself by (getpid(), $$) then name its own /proc entries, and it sees
    // no process of the host.
    const bool own_proc = reaper::bots_in_namespace();
    auto child_setup = [chdir_to, env, rlimits_begin, rlimits_end, arena_pid, nice, join_begin,
                        join_end, own_proc](auto& exec) {
        // Into the bot's cgroups first, so that everything it starts or
        // allocates from here on is counted there.
        for (const int* fd = join_begin; fd != join_end; ++fd) {
            if (::write(*fd, "0", 1) != 1) {
                exec.set_error(std::error_code(errno, std::system_category()),
                               "joining the bot's cgroup failed");
                ::_exit(127);
            }
        }
        // Its own process group, which the reaper and freezing rely on, in
        // the arena's session: a session of its own would also be a
        // scheduling group of its own (autogroup), and then a judging
        // thread's wake-up could wait a tick or two for a thinking bot (see
        // docs/performance.md). It gives up the controlling terminal
        // instead, so that it cannot read, write or inject into it.
        ::setpgid(0, 0);
        if (const int tty = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC); tty >= 0) {
            ::ioctl(tty, TIOCNOTTY);
            ::close(tty);
        }
        // Dies with the arena, even a kill -9 of it: a frozen bot would never
        // see the end of its input. (Forked on the spawner thread, see reaper.hpp.)
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (own_proc && ::unshare(CLONE_NEWNS) == 0) {
            // Best effort: without it the bot sees the host's /proc.
            if (::mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) == 0)
                ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
        }
        // Born in the bots' PID namespace (reaper.hpp), it sees its parent,
        // outside it, as 0; orphaned, it would see the keeper (1) instead.
        const pid_t parent = ::getppid();
        if (parent != arena_pid && parent != 0) ::_exit(127);
        for (const Rlimit* r = rlimits_begin; r != rlimits_end; ++r) {
            // CPU: SIGXCPU at the limit, SIGKILL a second later.
            const rlimit value{r->value, r->hard};
            if (::setrlimit(r->resource, &value) != 0) {
                exec.set_error(std::error_code(errno, std::system_category()), "setrlimit failed");
                ::_exit(127);
            }
        }
        // Inherited by everything the bot starts; a bot may lower its own
        // priority further, never raise it above this without privileges.
        if (nice > 0) ::setpriority(PRIO_PROCESS, 0, nice);
        if (env != nullptr) exec.env = env;
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        for (int sig : kResetSignals)
            ::sigaction(sig, &dfl, nullptr);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC);  // best effort
        if (chdir_to != nullptr && ::chdir(chdir_to) != 0) {
            exec.set_error(std::error_code(errno, std::system_category()), "chdir failed");
            ::_exit(127);  // reported to the parent through Boost's error pipe
        }
    };
    pid_t failed_pid = -1;
    auto on_error = [&failed_pid](auto& exec, const std::error_code&) { failed_pid = exec.pid; };

    std::error_code spawn_error;
    pid_t pid = -1;
    reaper::on_spawner_thread([&] {
        const std::lock_guard lock(reaper::spawn_mutex());
        // vfork: the child borrows the arena's memory until it execs, so a
        // spawn costs no copy of the page tables; child_setup only makes
        // system calls and writes nothing the parent reads but the error.
        bp::child child(bp::exe = exe, bp::args = args, bp::posix::use_vfork,
                        bp::extend::on_exec_setup = child_setup,
                        bp::posix::fd.bind(STDIN_FILENO, in_read.get()),
                        bp::posix::fd.bind(STDOUT_FILENO, out_write.get()),
                        bp::posix::fd.bind(STDERR_FILENO, err_write.get()),
                        bp::extend::on_error = on_error, spawn_error);
        child.detach();  // the pid is ours: bp::child must never wait for or terminate it
        if (!spawn_error && child.valid()) {
            pid = child.id();
            reaper::Watch watch;
            watch.over_task_limit = &over_task_limit_;
            watch.over_memory_limit = &over_memory_limit_;
            if (group_) {
                watch.group = group_.get();
            } else {
                watch.max_tasks = limits_.processes;
                watch.max_rss = limits_.memory_mb * kMiB;
                watch.rss = &polled_rss_;
                watch.peak_rss = &polled_peak_;
            }
            reaper::add_bot(pid, watch);
        } else if (failed_pid > 0) {
            // The child is on its way out after reporting; do not leave a
            // zombie. Under the lock, so the pid cannot be one of our new
            // children yet.
            while (::waitpid(failed_pid, nullptr, 0) < 0 && errno == EINTR) {
            }
        }
    });
    if (group_) group_->close_join_fds();
    if (pid <= 0) throw_spawn_error(command, spawn_error ? spawn_error.value() : ECHILD);
    // The child called setpgid() before exec, and Boost returns only after
    // the exec: its process group exists already.
    pid_ = pid;

    stdin_fd_ = in_write.release();
    stdout_fd_ = out_read.release();
    stderr_fd_ = err_read.release();
    // -1 on kernels before 5.3: the child's exit is then seen only as EOF.
    // (glibc 2.36's pidfd_open declaration lacks C linkage, hence syscall.)
    pid_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
}

Process::~Process() {
    kill();
    for (int* fd : {&stdin_fd_, &stdout_fd_, &stderr_fd_, &pid_fd_}) {
        if (*fd >= 0) ::close(*fd);
        *fd = -1;
    }
}

std::optional<Process::ReadResult> Process::take_line() {
    if (scan_ < head_) scan_ = head_;
    const char* base = buffer_.data();
    const std::size_t size = buffer_.size();
    const auto* newline = static_cast<const char*>(std::memchr(base + scan_, '\n', size - scan_));
    if (skipping_) {  // the rest of a too-long line
        if (newline == nullptr) {
            buffer_.clear();
            head_ = scan_ = 0;
            return std::nullopt;
        }
        skipping_ = false;
        head_ = scan_ = static_cast<std::size_t>(newline - base) + 1;
        return take_line();
    }
    if (newline == nullptr) {
        scan_ = size;
        if (size - head_ > max_line_bytes_) {
            buffer_.clear();
            head_ = scan_ = 0;
            skipping_ = true;
            return ReadResult{ReadStatus::kTooLong, {}, last_read_at_};
        }
        return std::nullopt;
    }
    const auto end = static_cast<std::size_t>(newline - base);
    std::size_t length = end - head_;
    ReadResult result{ReadStatus::kLine, {}, last_read_at_};
    if (length > max_line_bytes_) {
        result.status = ReadStatus::kTooLong;
    } else {
        if (length > 0 && base[end - 1] == '\r') --length;
        result.line.assign(base + head_, length);
    }
    head_ = scan_ = end + 1;
    if (head_ == size) {
        buffer_.clear();
        head_ = scan_ = 0;
    }
    return result;
}

void Process::read_stdout() {
    if (head_ > 0) {  // each byte is moved at most once: only after a line was taken
        buffer_.erase(0, head_);
        scan_ -= head_;
        head_ = 0;
    }
    char chunk[kChunkBytes];
    for (;;) {
        const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
        if (n > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(n));
            last_read_at_ = Clock::now();
            return;
        }
        if (n == 0) {
            stdout_eof_ = true;
            return;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) stdout_eof_ = true;
        return;
    }
}

void Process::keep(Clock::time_point at, bool from_bot, std::string_view text) {
    if (transcript_size_ + text.size() > transcript_limit_) {
        ++transcript_dropped_;
        return;
    }
    transcript_size_ += text.size();
    transcript_.push_back({at, from_bot, std::string(text)});
}

std::vector<TranscriptLine> Process::take_transcript(std::uint64_t* dropped) {
    if (dropped != nullptr) *dropped = transcript_dropped_;
    transcript_dropped_ = 0;
    transcript_size_ = 0;
    return std::exchange(transcript_, {});
}

std::string Process::take_stderr_log() {
    if (stderr_fd_ >= 0) drain_stderr();
    if (stderr_log_.size() > stderr_log_bytes_) {
        const std::size_t cut = stderr_log_.size() - stderr_log_bytes_;
        stderr_log_.erase(0, cut);
        stderr_dropped_ += cut;
    }
    std::string log = std::move(stderr_log_);
    if (stderr_dropped_ > 0)
        log.insert(0, "[" + std::to_string(stderr_dropped_) + " earlier bytes not kept]\n");
    stderr_log_.clear();
    stderr_dropped_ = 0;
    return log;
}

void Process::drain_stderr() {
    char chunk[kChunkBytes];
    for (int i = 0; i < kStderrReadsPerWake && stderr_fd_ >= 0;) {
        const ssize_t n = ::read(stderr_fd_, chunk, sizeof chunk);
        if (n > 0) {
            // Keep the tail: the last lines before a crash matter most. The
            // log may grow to twice its bound before the head is cut, so
            // cutting costs O(1) per byte read.
            const auto got = static_cast<std::size_t>(n);
            stderr_log_.append(chunk, got);
            if (stderr_log_.size() > 2 * stderr_log_bytes_) {
                const std::size_t cut = stderr_log_.size() - stderr_log_bytes_;
                stderr_log_.erase(0, cut);
                stderr_dropped_ += cut;
            }
            if (got < sizeof chunk) return;
            ++i;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        ::close(stderr_fd_);  // EOF or error: stop polling it
        stderr_fd_ = -1;
    }
}

Process::ReadResult Process::read_line(Clock::time_point deadline, IdleBot* idle) {
    prepare_waiting_thread();
    bool polled = false;
    for (;;) {
        if (auto line = take_line()) {
            if (transcript_limit_ > 0 && line->status == ReadStatus::kLine)
                keep(line->at, true, line->line);
            return std::move(*line);
        }
        if (stdout_eof_) return ReadResult{ReadStatus::kEof, {}, Clock::now()};
        const auto now = Clock::now();
        if (now >= deadline) {
            // A deadline in the past still collects what is already there:
            // one read of the (non-blocking) pipe, cheaper than a poll. This
            // is the check before every move for lines sent out of turn.
            if (polled) return ReadResult{ReadStatus::kTimeout, {}, now};
            polled = true;
            read_stdout();
            continue;
        }
        polled = true;
        // The last stretch runs at real-time priority; the wait before it
        // ends where the stretch begins, so the switch is never late.
        auto wake = wake_before(deadline, now);
        if (realtime_deadlines_ && deadline > now) set_waiting_thread_realtime(wake == deadline);
        if (idle != nullptr) {
            idle->freeze_if_due(now);
            if (const auto due = idle->freeze_due()) wake = std::min(wake, *due);
        }

        pollfd fds[3] = {{stdout_fd_, POLLIN, 0},
                         {stderr_fd_, POLLIN, 0},
                         {child_exited_ ? -1 : pid_fd_, POLLIN, 0}};
        const timespec timeout = poll_timeout(wake - now);
        const int ready = ::ppoll(fds, 3, &timeout, nullptr);
        if (ready < 0) {
            if (errno == EINTR) continue;
            stdout_eof_ = true;  // cannot happen with valid fds; never spin on it
            continue;
        }
        if (ready == 0) continue;
        if (fds[1].revents != 0) drain_stderr();
        if (fds[0].revents != 0) read_stdout();
        if (fds[2].revents != 0) {
            // The child has exited. What it wrote is already in the pipe;
            // collect it, then report EOF even if a leftover grandchild keeps
            // the pipe open.
            child_exited_ = true;
            for (int i = 0; i < 16 && !stdout_eof_; ++i) {
                const std::size_t before = buffer_.size() - head_;
                read_stdout();
                if (buffer_.size() - head_ == before) break;
            }
            stdout_eof_ = true;
        }
    }
}

bool Process::write_line(std::string_view line, Clock::time_point deadline) {
    return write_line_then(line, deadline, false).has_value();
}

std::optional<Clock::time_point> Process::write_line_and_thaw(std::string_view line,
                                                              Clock::time_point deadline) {
    return write_line_then(line, deadline, true);
}

std::optional<Clock::time_point> Process::write_line_then(std::string_view line,
                                                          Clock::time_point deadline,
                                                          bool thaw_it) {
    // When the child could first see the line: at the thaw if it is frozen,
    // else when the first byte goes into the pipe. Taken before the system
    // call, so that a delay of this thread never counts for the bot.
    std::optional<Clock::time_point> reachable;
    const auto thaw_now = [&] {
        if (!thaw_it) return;
        if (frozen_ && !reachable) reachable = Clock::now();
        thaw();
    };
    if (stdin_fd_ < 0) {
        thaw_now();
        return std::nullopt;
    }
    if (!frozen_ || !thaw_it) reachable = Clock::now();
    static const char kNewline = '\n';
    iovec iov[2] = {{const_cast<char*>(line.data()), line.size()},
                    {const_cast<char*>(&kNewline), 1}};
    iovec* next = iov;
    int count = 2;
    bool ok = true;
    while (count > 0) {
        const ssize_t n = ::writev(stdin_fd_, next, count);
        if (n >= 0) {
            auto written = static_cast<std::size_t>(n);
            while (count > 0 && written >= next->iov_len) {
                written -= next->iov_len;
                ++next;
                --count;
            }
            if (count > 0) {
                next->iov_base = static_cast<char*>(next->iov_base) + written;
                next->iov_len -= written;
            }
            continue;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {  // EPIPE: nobody reads
            ok = false;
            break;
        }
        // The pipe is full: a frozen child must run to empty it.
        thaw_now();
        if (!wait_writable(deadline)) {
            ok = false;
            break;
        }
    }
    thaw_now();
    if (!ok) return std::nullopt;
    if (transcript_limit_ > 0) keep(reachable.value_or(Clock::now()), false, line);
    return reachable;
}

std::size_t Process::unread_input() const {
    int pending = 0;
    if (stdin_fd_ < 0 || ::ioctl(stdin_fd_, FIONREAD, &pending) != 0 || pending < 0) return 0;
    return static_cast<std::size_t>(pending);
}

bool Process::wait_writable(Clock::time_point deadline) {
    for (;;) {
        const auto now = Clock::now();
        if (now >= deadline) return false;
        pollfd fd{stdin_fd_, POLLOUT, 0};
        const timespec timeout = poll_timeout(wake_before(deadline, now) - now);
        const int ready = ::ppoll(&fd, 1, &timeout, nullptr);
        if (ready > 0) return true;
        if (ready < 0 && errno != EINTR) return false;
    }
}

std::optional<ExitStatus> Process::poll_exit() {
    if (exit_ || pid_ <= 0) return exit_;
    // Seen, not reaped (WNOWAIT): the leader's zombie keeps its pid, and so
    // its process group's id, from being reused until kill() has signalled
    // the group and reaped it. A group signal to a reaped leader's id could
    // reach whatever process took that id meanwhile (a fork bomb among the
    // bots goes through the pids quickly).
    for (;;) {
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
            if (info.si_pid != pid_) break;  // still running
            const int status = info.si_code == CLD_EXITED ? W_EXITCODE(info.si_status, 0)
                                                          : W_EXITCODE(0, info.si_status);
            exit_ = decode(status);
            break;
        }
        if (errno == EINTR) continue;
        // Reaped elsewhere (e.g. SIGCHLD ignored): status unknown, and the
        // pid is no longer ours.
        exit_ = ExitStatus{};
        forget();
        lost_pid_ = true;
        break;
    }
    return exit_;
}

std::optional<ExitStatus> Process::wait_exit(Clock::time_point deadline) {
    for (;;) {
        if (auto status = poll_exit()) return status;
        const auto now = Clock::now();
        if (now >= deadline) return std::nullopt;
        if (pid_fd_ >= 0) {
            pollfd fd{pid_fd_, POLLIN, 0};
            const timespec timeout = to_timespec(deadline - now);
            if (::ppoll(&fd, 1, &timeout, nullptr) < 0 && errno != EINTR) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        } else {
            std::this_thread::sleep_for(
                std::min<Clock::duration>(deadline - now, std::chrono::milliseconds(1)));
        }
    }
}

ExitStatus Process::kill() {
    if (pid_ <= 0) return exit_.value_or(ExitStatus{});
    // The leader is not reaped before this (poll_exit only looks), so until
    // the waitpid below its pid and its group's id are the bot's and nobody
    // else's: the signals reach the bot and nothing else. A leader reaped
    // behind our back (lost_pid_) is never signalled: its id may belong to
    // another process by now.
    const bool exited_first = exit_.has_value();  // by itself, before this
    if (!group_killed_) {
        group_killed_ = true;
        if (group_) {
            // Everything in its cgroup at once, wherever it went; this also
            // thaws it (a frozen process dies only once thawed).
            note_group_limits();
            group_->kill_all();
            frozen_ = false;
        }
        if (!lost_pid_) {
            ::kill(-pid_, SIGKILL);
            // Processes that left the group (setsid, setpgid) but are still
            // linked to the leader by parent. What escapes even this (a fork
            // racing the kill) is adopted by the arena, and the sweep below
            // or the next periodic one kills it. A leader that exited by
            // itself has no such links left: what it started is already the
            // arena's child.
            if (!exited_first) {
                ::kill(pid_, SIGKILL);
                for (const pid_t p : reaper::tree_of(pid_))
                    ::kill(p, SIGKILL);
            }
        }
    }
    // Out of the reaper's list before the pid is given back to the kernel.
    forget();
    bool quit_cleanly = false;  // exited by itself, leaving an empty group
    if (!lost_pid_) {
        lost_pid_ = true;  // reaped below: never signalled again
        int status = 0;
        for (;;) {
            const pid_t r = ::waitpid(pid_, &status, 0);
            if (r == pid_) {
                if (!exit_) exit_ = decode(status);
                break;
            }
            if (r < 0 && errno == EINTR) continue;
            if (!exit_) exit_ = ExitStatus{};
            break;
        }
        // A bot that quit when asked and left nothing in its group needs no
        // walk over /proc: the periodic sweep (every 100 ms, and once more
        // when the arena exits) kills whatever it started elsewhere. Signal
        // 0 only asks; a reused id at worst costs one sweep.
        quit_cleanly = exited_first && ::kill(-pid_, 0) != 0 && errno == ESRCH;
    }
    if (!swept_) {
        swept_ = true;
        if (!quit_cleanly) reaper::sweep();  // what the kill orphaned
    }
    if (group_) {
        note_group_limits();
        final_peak_ = group_->peak_bytes();
        group_.reset();  // kills what is left in it, and removes it
    }
    return *exit_;
}

void Process::note_group_limits() {
    if (!group_) return;
    oom_killed_ = oom_killed_ || group_->oom_killed();
    fork_refused_ = fork_refused_ || group_->fork_refused();
}

std::optional<std::uint64_t> Process::peak_memory() {
    if (group_) return group_->peak_bytes();
    if (final_peak_) return final_peak_;
    const std::uint64_t polled = polled_peak_.load();
    if (polled > 0) return polled;
    return std::nullopt;
}

void Process::reset_peak_memory() {
    if (group_) {
        group_->reset_peak();
        return;
    }
    final_peak_.reset();
    polled_peak_.store(polled_rss_.load());
}

void Process::forget() {
    // At once: the pid may be reused as soon as it is reaped.
    if (reaped_) return;
    reaped_ = true;
    reaper::remove_bot(pid_);
}

ExitStatus Process::decode(int status) const {
    ExitStatus s = decode_status(status);
    // bubblewrap exits with 128 + N when the bot died of signal N.
    if (sandboxed_ && s.exited && s.code > 128 && s.code < 128 + NSIG) {
        s = ExitStatus{.exited = false, .code = 0, .signaled = true, .signal = s.code - 128};
    }
    return s;
}

bool Process::exits_when_woken(Clock::duration wait) {
    if (poll_exit()) return true;
    if (wait <= Clock::duration::zero()) return false;
    const bool was_frozen = frozen_;
    if (was_frozen) thaw();
    const bool gone = wait_exit(Clock::now() + wait).has_value();
    if (!gone && was_frozen) freeze();
    return gone;
}

void Process::freeze() {
    freeze_due_.reset();
    if (pid_ <= 0 || frozen_ || exit_) return;
    if (!(cgroup::kFreezeByGroup && group_ && group_->set_frozen(true))) ::kill(-pid_, SIGSTOP);
    frozen_ = true;
}

void Process::thaw() {
    freeze_due_.reset();
    if (pid_ <= 0 || !frozen_) return;
    if (!(cgroup::kFreezeByGroup && group_ && group_->set_frozen(false))) ::kill(-pid_, SIGCONT);
    frozen_ = false;
}

void Process::freeze_at(Clock::time_point when) {
    if (pid_ <= 0 || frozen_ || exit_) return;
    freeze_due_ = when;
}

void Process::freeze_if_due(Clock::time_point now) {
    if (freeze_due_ && now >= *freeze_due_) freeze();
}

std::string Process::limit_hit(const ExitStatus& status) {
    if (stderr_fd_ >= 0) drain_stderr();  // the last words name a failed allocation
    note_group_limits();
    if (over_task_limit_.load() || (fork_refused_ && limits_.processes > 0)) {
        return "process limit " + std::to_string(limits_.processes) + " (processes + threads)";
    }
    const std::string out_of_memory =
        "out of memory: memory limit " + std::to_string(limits_.memory_mb) + " MB";
    if (limits_.memory_mb > 0 && (over_memory_limit_.load() || oom_killed_)) return out_of_memory;
    const int signal = status.signaled ? status.signal : 0;
    if (signal == SIGXFSZ && limits_.file_size_mb > 0) {
        return "file size limit " + std::to_string(limits_.file_size_mb) + " MB";
    }
    if (signal == SIGXCPU && limits_.cpu_seconds > 0) {
        return "CPU time limit " + std::to_string(limits_.cpu_seconds) + " s";
    }
    // A failed allocation: C++ aborts with std::bad_alloc, Python raises
    // MemoryError, C runtimes say "out of memory" or ENOMEM's text.
    const bool failed = signal != 0 || (status.exited && status.code != 0);
    if (failed && limits_.memory_mb > 0) {
        for (const char* sign :
             {"bad_alloc", "MemoryError", "out of memory", "Cannot allocate memory"}) {
            if (stderr_log_.find(sign) != std::string::npos) return out_of_memory;
        }
    }
    return {};
}

}  // namespace arena::session
