#pragma once
// Turns SIGINT and SIGTERM into a stop request, for the commands that play
// games. The signals are blocked in every thread (the mask is inherited by
// threads created later) and taken by one thread with sigtimedwait, so no
// code runs in a signal handler. SIGUSR1, sent to that thread by the
// destructor, only wakes it to end.

#include <pthread.h>

#include <csignal>
#include <stop_token>
#include <thread>

namespace arena::cli {

class StopOnSignal {
  public:
    StopOnSignal();
    ~StopOnSignal();  // restores the signal mask
    StopOnSignal(const StopOnSignal&) = delete;
    StopOnSignal& operator=(const StopOnSignal&) = delete;

    [[nodiscard]] std::stop_token token() const { return source_.get_token(); }
    [[nodiscard]] bool stopped() const { return source_.stop_requested(); }

  private:
    sigset_t set_{}, old_{};
    std::stop_source source_;
    std::jthread waiter_;
};

}  // namespace arena::cli
