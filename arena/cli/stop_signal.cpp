#include "arena/cli/stop_signal.hpp"

#include <ctime>

namespace arena::cli {

StopOnSignal::StopOnSignal() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    sigaddset(&set_, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    waiter_ = std::jthread([this](std::stop_token done) {
        const timespec tick{0, 100'000'000};
        while (!done.stop_requested()) {
            const int sig = sigtimedwait(&set_, nullptr, &tick);
            if (sig == SIGINT || sig == SIGTERM) {
                source_.request_stop();
                return;
            }
        }
    });
}

StopOnSignal::~StopOnSignal() {
    waiter_.request_stop();
    pthread_kill(waiter_.native_handle(), SIGUSR1);
    waiter_.join();
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

}  // namespace arena::cli
