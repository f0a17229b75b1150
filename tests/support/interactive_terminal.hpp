#pragma once
// Test helper: a program run on a new pseudo-terminal as its controlling
// terminal, that the test reads from and types into as a person would.
// (terminal.hpp runs a program to its end without input.)

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace arena::testing {

class InteractiveTerminal {
  public:
    // Starts argv[0] (a path) with `argv` on a new terminal 120 columns wide.
    explicit InteractiveTerminal(const std::vector<std::string>& argv) {
        winsize size{};
        size.ws_col = 120;
        size.ws_row = 40;
        pid_ = ::forkpty(&master_, nullptr, nullptr, &size);
        if (pid_ == 0) {
            std::vector<char*> args;
            for (const auto& a : argv)
                args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            ::execv(args[0], args.data());
            ::_exit(127);
        }
    }
    ~InteractiveTerminal() {
        if (pid_ > 0 && !status_) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            ::waitpid(pid_, &status, 0);
        }
        if (master_ >= 0) ::close(master_);
    }
    InteractiveTerminal(const InteractiveTerminal&) = delete;
    InteractiveTerminal& operator=(const InteractiveTerminal&) = delete;

    [[nodiscard]] bool started() const { return pid_ > 0 && master_ >= 0; }

    // Everything the program wrote so far (the terminal's echo of what was
    // typed included), without the carriage returns the terminal adds
    // before each newline.
    [[nodiscard]] const std::string& output() const { return output_; }

    // Reads until `text` appears in the output after position `from`, the
    // program closes the terminal, or `timeout` passes. The position just
    // after `text`, or nullopt.
    std::optional<std::size_t> wait_for(const std::string& text, std::size_t from,
                                        std::chrono::milliseconds timeout) {
        const auto until = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (const auto at = output_.find(text, from); at != std::string::npos)
                return at + text.size();
            if (closed_) return std::nullopt;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                until - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
            read_some(left);
        }
    }

    // Types `text` (add "\n" to end a line).
    void type(const std::string& text) {
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(master_, text.data() + done, text.size() - done);
            if (n > 0) {
                done += static_cast<std::size_t>(n);
            } else if (errno != EINTR) {
                return;
            }
        }
    }

    // Reads the rest of the output and waits for the program to exit, at most
    // `timeout`; its exit code (128 + signal for a signal), or nullopt.
    std::optional<int> finish(std::chrono::milliseconds timeout) {
        const auto until = std::chrono::steady_clock::now() + timeout;
        while (!closed_ && std::chrono::steady_clock::now() < until)
            read_some(std::chrono::milliseconds(100));
        while (!status_ && std::chrono::steady_clock::now() < until) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                break;
            }
            ::usleep(10'000);
        }
        return status_;
    }

  private:
    void read_some(std::chrono::milliseconds wait) {
        pollfd fd{master_, POLLIN, 0};
        const int ready = ::poll(&fd, 1, static_cast<int>(std::min<long long>(wait.count(), 200)));
        if (ready <= 0) return;
        char buf[4096];
        const ssize_t n = ::read(master_, buf, sizeof buf);
        if (n > 0) {
            for (ssize_t i = 0; i < n; ++i)
                if (buf[i] != '\r') output_ += buf[i];
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            closed_ = true;  // EIO: the program's side of the terminal is closed
        }
    }

    pid_t pid_ = -1;
    int master_ = -1;
    std::string output_;
    bool closed_ = false;
    std::optional<int> status_;
};

}  // namespace arena::testing
