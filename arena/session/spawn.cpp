#include "arena/session/spawn.hpp"

// Spawning uses Boost.Process v1 as the launcher only (fork, exec, error
// reporting from the child); every descriptor, the pid and all waiting are
// handled here and in Process with plain POSIX calls.
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
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "arena/session/reaper.hpp"
#include "arena/session/sandbox.hpp"

namespace arena::session {

namespace bp = boost::process;

namespace {

// Signals commonly ignored or blocked by a host program; ignored dispositions
// survive exec, so the child gets the defaults back.
constexpr int kResetSignals[] = {SIGPIPE, SIGCHLD, SIGINT,  SIGQUIT, SIGHUP,
                                 SIGTERM, SIGUSR1, SIGUSR2, SIGTSTP, SIGALRM};

constexpr rlim_t kMiB = rlim_t{1} << 20;

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

// The child's stdin, stdout and stderr; the arena's ends are non-blocking.
struct Pipes {
    explicit Pipes(const std::string& command) {
        make_pipe(command, in_read, in_write);
        make_pipe(command, out_read, out_write);
        make_pipe(command, err_read, err_write);
        for (int fd : {in_write.get(), out_read.get(), err_read.get()})
            set_nonblocking(command, fd);
    }
    UniqueFd in_read, in_write, out_read, out_write, err_read, err_write;
};

// The program to exec, resolved in the parent (the child must not
// allocate). A relative path with a '/' is relative to working_dir, where
// it starts; that directory must exist.
std::string resolve_program(const ProcessOptions& options) {
    const std::string& command = options.argv.front();
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
    return exe;
}

// One resource limit the child sets for itself.
struct Rlimit {
    int resource;
    rlim_t value;  // soft
    rlim_t hard;
};

// The rlimits of a bot with `lim`; `in_group`: the kernel limits its tree's
// resident memory and tasks in its cgroup, else the reaper polls both, with
// an address-space safety net.
std::vector<Rlimit> child_rlimits(const Limits& lim, bool in_group) {
    std::vector<Rlimit> rlimits;
    if (!in_group && lim.memory_mb > 0 && kAddressSpaceFactor > 0) {
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
    return rlimits;
}

// What the forked child does before exec. Everything it uses is prepared
// in the parent: it runs async-signal-safe calls only.
struct ChildSetup {
    const char* chdir_to;  // null: stay in the arena's directory
    char** env;            // null: inherit the arena's environment
    const Rlimit* rlimits_begin;
    const Rlimit* rlimits_end;
    pid_t arena_pid;
    int nice;
    const int* join_begin;  // the cgroup.procs files to join
    const int* join_end;
    // Born in the bots' PID namespace (reaper.hpp), the bot gets a /proc of
    // that namespace, in a mount namespace of its own: the numbers it knows
    // itself by (getpid(), $$) then name its own /proc entries, and it sees
    // no process of the host.
    bool own_proc;

    template <class Exec>
    void operator()(Exec& exec) const {
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
    }
};

// Forks and execs `exe` with `args` on the spawner thread, the pipes as its
// stdin, stdout and stderr; calls `on_started` there once it runs. The
// child's pid, or -1 with `spawn_error` set.
pid_t launch(reaper::Reaper& reaper, const std::string& exe, const std::vector<std::string>& args,
             const Pipes& pipes, const ChildSetup& child_setup, cgroup::Group* group,
             const std::function<void(pid_t, cgroup::Group*)>& on_started,
             std::error_code& spawn_error) {
    pid_t failed_pid = -1;
    auto on_error = [&failed_pid](auto& exec, const std::error_code&) { failed_pid = exec.pid; };
    pid_t pid = -1;
    reaper.on_spawner_thread([&] {
        const std::lock_guard lock(reaper.spawn_mutex());
        // vfork: the child borrows the arena's memory until it execs, so a
        // spawn costs no copy of the page tables; child_setup only makes
        // system calls and writes nothing the parent reads but the error.
        bp::child child(bp::exe = exe, bp::args = args, bp::posix::use_vfork,
                        bp::extend::on_exec_setup = child_setup,
                        bp::posix::fd.bind(STDIN_FILENO, pipes.in_read.get()),
                        bp::posix::fd.bind(STDOUT_FILENO, pipes.out_write.get()),
                        bp::posix::fd.bind(STDERR_FILENO, pipes.err_write.get()),
                        bp::extend::on_error = on_error, spawn_error);
        child.detach();  // the pid is ours: bp::child must never wait for or terminate it
        if (!spawn_error && child.valid()) {
            pid = child.id();
            on_started(pid, group);
        } else if (failed_pid > 0) {
            // The child is on its way out after reporting; do not leave a
            // zombie. Under the lock, so the pid cannot be one of our new
            // children yet.
            while (::waitpid(failed_pid, nullptr, 0) < 0 && errno == EINTR) {
            }
        }
    });
    return pid;
}

}  // namespace

SpawnedChild spawn_child(BotHost& host, const ProcessOptions& options,
                         const std::function<void(pid_t, cgroup::Group*)>& on_started) {
    if (options.argv.empty() || options.argv.front().empty()) {
        throw SpawnError("cannot start a bot: empty command");
    }
    const std::string& command = options.argv.front();
    std::string exe = resolve_program(options);
    const std::string dir = options.working_dir.string();
    Pipes pipes(command);

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

    // The environment, prepared here: the child must not allocate.
    std::vector<char*> envp;
    if (options.environment) {
        for (const auto& entry : *options.environment)
            envp.push_back(const_cast<char*>(entry.c_str()));
        envp.push_back(nullptr);
    }

    SpawnedChild out;
    const Limits& lim = options.limits;
    if (options.cgroup)
        out.group = cgroup::Group::create(host.cgroups(), lim.memory_mb, lim.processes);
    const std::vector<Rlimit> rlimits = child_rlimits(lim, out.group != nullptr);
    const int* const join_begin = out.group ? out.group->join_fds().data() : nullptr;
    const ChildSetup child_setup{
        .chdir_to = dir.empty() ? nullptr : dir.c_str(),
        .env = options.environment ? envp.data() : nullptr,
        .rlimits_begin = rlimits.data(),
        .rlimits_end = rlimits.data() + rlimits.size(),
        .arena_pid = ::getpid(),
        .nice = lim.nice,
        .join_begin = join_begin,
        .join_end = join_begin + (out.group ? out.group->join_fds().size() : 0),
        .own_proc = host.reaper().bots_in_namespace(),
    };

    std::error_code spawn_error;
    const pid_t pid = launch(host.reaper(), exe, args, pipes, child_setup, out.group.get(),
                             on_started, spawn_error);
    if (out.group) out.group->close_join_fds();
    if (pid <= 0) throw_spawn_error(command, spawn_error ? spawn_error.value() : ECHILD);
    // The child called setpgid() before exec, and Boost returns only after
    // the exec: its process group exists already.
    out.pid = pid;
    out.stdin_fd = pipes.in_write.release();
    out.stdout_fd = pipes.out_read.release();
    out.stderr_fd = pipes.err_read.release();
    return out;
}

}  // namespace arena::session
