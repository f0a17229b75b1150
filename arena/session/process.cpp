#include "arena/session/process.hpp"

// A running bot: its pipes, the deadline-bounded reads and writes, its
// stderr log, freezing, its end and the limit that caused it. Starting it
// is spawn.cpp's; the scheduling of the threads that wait on it, waiter.cpp's.

#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

#include "arena/session/bot_host.hpp"
#include "arena/session/reaper.hpp"
#include "arena/session/spawn.hpp"

namespace arena::session {

namespace {

constexpr std::size_t kChunkBytes = 64 << 10;
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// stderr reads per wake-up, so that a flooding stderr cannot starve the
// deadline check or stdout.
constexpr int kStderrReadsPerWake = 4;

void ignore_sigpipe_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_handler = SIG_IGN;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGPIPE, &action, nullptr);
    });
}

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

}  // namespace

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

Process::Process(BotHost& host, const ProcessOptions& options)
    : host_(host),
      max_line_bytes_(options.max_line_bytes),
      stderr_log_bytes_(options.stderr_log_bytes),
      transcript_limit_(options.transcript_bytes),
      limits_(options.limits),
      sandboxed_(options.sandbox.enabled),
      realtime_deadlines_(options.realtime_deadlines) {
    ignore_sigpipe_once();
    // Detected before the reaper starts, so that the keeper is given the
    // arena's groups to empty if the arena dies.
    if (options.cgroup) (void)host_.cgroup_support();
    host_.reaper().start();
    SpawnedChild child = spawn_child(host_, options, [this](pid_t pid, cgroup::Group* group) {
        reaper::Watch watch;
        watch.over_task_limit = &over_task_limit_;
        watch.over_memory_limit = &over_memory_limit_;
        if (group != nullptr) {
            watch.group = group;
        } else {
            watch.max_tasks = limits_.processes;
            watch.max_rss = limits_.memory_mb * kMiB;
            watch.rss = &polled_rss_;
            watch.peak_rss = &polled_peak_;
        }
        host_.reaper().add_bot(pid, watch);
    });
    group_ = std::move(child.group);
    pid_ = child.pid;
    stdin_fd_ = child.stdin_fd;
    stdout_fd_ = child.stdout_fd;
    stderr_fd_ = child.stderr_fd;
    // -1 on kernels before 5.3: the child's exit is then seen only as EOF.
    // (glibc 2.36's pidfd_open declaration lacks C linkage, hence syscall.)
    pid_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    ++host_.processes_;
}

Process::~Process() {
    kill();
    for (int* fd : {&stdin_fd_, &stdout_fd_, &stderr_fd_, &pid_fd_}) {
        if (*fd >= 0) ::close(*fd);
        *fd = -1;
    }
    --host_.processes_;
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
        // when its host goes) kills whatever it started elsewhere. Signal
        // 0 only asks; a reused id at worst costs one sweep.
        quit_cleanly = exited_first && ::kill(-pid_, 0) != 0 && errno == ESRCH;
    }
    if (!swept_) {
        swept_ = true;
        if (!quit_cleanly) host_.reaper().sweep();  // what the kill orphaned
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
    host_.reaper().remove_bot(pid_);
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
