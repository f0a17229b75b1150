#include "arena/session/waiter.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace arena::session {

namespace {

// The longest single wait in poll(2). The kernel lets a poll timeout expire
// up to 0.1 % late, 0.5 % for a thread with positive niceness, at most
// 100 ms. Process::read_line splits every wait kRealtimeWindow before its
// deadline, so a wait up to that point may be late by less than the window
// without delaying the verdict: at most 2 ms (10 ms niced) for slices of
// 2 s. The last kRealtimeWindow is one sleep, whose slack is at most 20 us
// (100 us niced), none at real-time priority.
constexpr auto kMaxPollSlice = std::chrono::seconds(2);

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

timespec to_timespec(Clock::duration d) {
    if (d < Clock::duration::zero()) d = Clock::duration::zero();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
    return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

Clock::time_point wake_before(Clock::time_point deadline, Clock::time_point now) {
    return deadline - now > kRealtimeWindow ? deadline - kRealtimeWindow : deadline;
}

timespec poll_timeout(Clock::duration left) {
    return to_timespec(std::min<Clock::duration>(left, kMaxPollSlice));
}

}  // namespace arena::session
