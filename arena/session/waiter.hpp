#pragma once
// The scheduling of the arena's threads that wait on bots: a reply or a
// deadline must wake such a thread at once, even when thinking bots keep
// every CPU busy. A waiting thread is prepared once (timer slack, a short
// scheduler slice), runs the last kRealtimeWindow before each deadline at
// real-time priority, and splits its waits so that the switch to real time
// is never late. Process::read_line is the waiter; measurements are in
// docs/performance.md.

#include <time.h>

#include <chrono>

namespace arena::session {

// The clock of every deadline.
using Clock = std::chrono::steady_clock;

// Once per thread that waits on a bot (Process::read_line calls it), so that
// the wake-up at a deadline or a reply is served at once even when thinking
// bots keep every CPU busy:
//  - a timer slack of 1 us instead of 50 us: timeouts expire on time;
//  - a short scheduler slice (Linux >= 6.12 EEVDF custom slices): a waking
//    thread with a shorter slice than the running task preempts it, instead
//    of waiting for that task's slice to end at a tick (4 ms at HZ=250).
//    Older kernels ignore the field. Only a SCHED_OTHER thread is changed,
//    and its nice value is kept.
// Best effort; measured effect under CPU-hungry bots in docs/performance.md.
void prepare_waiting_thread();

// How long before its deadline a wait switches to real-time priority.
inline constexpr std::chrono::milliseconds kRealtimeWindow{20};

// Moves a waiting thread (prepared as above) to real-time priority,
// SCHED_FIFO 1, or back to what prepare_waiting_thread gave it. Under
// CPU-hungry bots a woken SCHED_OTHER thread still waits for the next tick
// about once in a hundred wake-ups (2.5 to 4 ms at HZ=250); a real-time one
// preempts at once. With it, the thread asks every CPU to stay out of idle
// states that are slow to leave (PM QoS, root only): on an idle machine a
// halted virtual CPU takes about 0.1 ms, sometimes milliseconds, to run
// again. Process::read_line asks for both only for the last kRealtimeWindow
// before a deadline, so a fast game, whose replies all come long before their
// deadlines, never pays for the switches. Children forked by the thread never
// inherit the priority (SCHED_RESET_ON_FORK). Without permission
// (CAP_SYS_NICE or `ulimit -r` >= 1), or when the thread was not SCHED_OTHER
// when prepared, the priority does not change; a refusal is not asked again.
void set_waiting_thread_realtime(bool on);

// Where one wait toward `deadline` stops: kRealtimeWindow before it while it
// is further off, so that a long sleep's slack never delays the deadline.
[[nodiscard]] Clock::time_point wake_before(Clock::time_point deadline, Clock::time_point now);

// The timeout of one poll(2) toward a point `left` away: at most
// kMaxPollSlice (waiter.cpp), so that the kernel's slack on a long timeout
// stays short of kRealtimeWindow.
[[nodiscard]] timespec poll_timeout(Clock::duration left);

// `d` as a timespec (a negative duration as zero).
[[nodiscard]] timespec to_timespec(Clock::duration d);

}  // namespace arena::session
