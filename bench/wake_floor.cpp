// wake_floor: the floor of a verdict's delay under load. One thread sleeps in
// ppoll(2) until a deadline, again and again, and records how late it woke,
// while K forked children (each in its own process group of this session, at
// the bots' niceness, as the arena starts bots) burn CPU. The thread is set
// up as the arena's waiting threads are at the end of a wait
// (prepare_waiting_thread, then real-time priority when permitted: the
// default sleeps, 10 to 16 ms, lie within kRealtimeWindow), so what it
// measures is what the kernel and the machine give any judge. --no-realtime
// leaves it at the normal policy.
//
//   wake_floor [--samples N] [--spinners K] [--nice P] [--sleep-ms S] [--no-realtime]
//
// prints one JSON object with how late each wake-up was, in microseconds:
//   {"samples":N,"spinners":K,"late_us":[..]}

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "arena/session/process.hpp"

namespace {

using Clock = std::chrono::steady_clock;

long arg(int argc, char** argv, std::string_view name, long fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (name == argv[i]) return std::strtol(argv[i + 1], nullptr, 10);
    return fallback;
}

}  // namespace

int main(int argc, char** argv) {
    const long samples = std::max(1L, arg(argc, argv, "--samples", 600));
    const long spinners = std::max(0L, arg(argc, argv, "--spinners", 2));
    const int nice = static_cast<int>(arg(argc, argv, "--nice", 5));
    const long sleep_ms = std::max(1L, arg(argc, argv, "--sleep-ms", 10));

    std::vector<pid_t> children;
    for (long i = 0; i < spinners; ++i) {
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::perror("fork");
            return 1;
        }
        if (pid == 0) {
            ::setpgid(0, 0);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            ::setpriority(PRIO_PROCESS, 0, nice);
            volatile unsigned long spin = 0;
            for (;;) {
                spin = spin + 1;
            }
        }
        children.push_back(pid);
    }

    arena::session::prepare_waiting_thread();  // as the arena's waiting threads
    bool realtime = true;
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "--no-realtime") realtime = false;
    arena::session::set_waiting_thread_realtime(realtime);

    ::usleep(100'000);  // let the spinners settle
    std::vector<long> late_us;
    late_us.reserve(static_cast<std::size_t>(samples));
    for (long i = 0; i < samples; ++i) {
        const auto wait = std::chrono::milliseconds(sleep_ms + i % 7);
        const auto deadline = Clock::now() + wait;
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
        const timespec timeout{static_cast<time_t>(ns / 1'000'000'000), ns % 1'000'000'000};
        ::ppoll(nullptr, 0, &timeout, nullptr);
        late_us.push_back(static_cast<long>(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - deadline)
                .count()));
    }
    for (const pid_t pid : children)
        ::kill(pid, SIGKILL);
    for (const pid_t pid : children)
        ::waitpid(pid, nullptr, 0);

    std::printf("{\"samples\":%ld,\"spinners\":%ld,\"late_us\":[", samples, spinners);
    for (std::size_t i = 0; i < late_us.size(); ++i)
        std::printf("%s%ld", i == 0 ? "" : ",", late_us[i]);
    std::printf("]}\n");
    return 0;
}
