#pragma once
// Test helper: runs a shell command with a new pseudo-terminal as its
// controlling terminal, as when a person runs it, and returns everything it
// wrote there.

#include <fcntl.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace arena::testing {

namespace detail {

// Everything readable from `fd` until end of file (or EIO: the terminal's
// last holder is gone).
inline std::string read_all(int fd) {
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            out.append(buf, static_cast<std::size_t>(n));
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            return out;
        }
    }
}

}  // namespace detail

// `command` through sh on a new terminal `columns` wide (0: the default).
//
// The terminal's session is made by a grandchild, under a relay child that
// stays in this process group and copies the terminal's output to a pipe. A
// test process that has also run bots keeps the arena's process keeper
// running, and the keeper kills any child of its process that left its
// session (a bot's escape); a grandchild under a child of its own group is
// not one.
inline std::string run_in_terminal(const std::string& command, unsigned short columns = 0) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return "pipe failed";
    const pid_t relay = ::fork();
    if (relay < 0) return "fork failed";
    if (relay == 0) {
        ::close(pipe_fds[0]);
        winsize size{};
        size.ws_col = columns;
        size.ws_row = 24;
        int master = -1;
        const pid_t pid = ::forkpty(&master, nullptr, nullptr, columns > 0 ? &size : nullptr);
        if (pid < 0) {
            constexpr char kFailed[] = "forkpty failed";
            (void)!::write(pipe_fds[1], kFailed, sizeof kFailed - 1);
            ::_exit(1);
        }
        if (pid == 0) {
            ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        const std::string out = detail::read_all(master);
        for (std::size_t done = 0; done < out.size();) {
            const ssize_t n = ::write(pipe_fds[1], out.data() + done, out.size() - done);
            if (n <= 0 && errno != EINTR) break;
            if (n > 0) done += static_cast<std::size_t>(n);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        ::_exit(0);
    }
    ::close(pipe_fds[1]);
    std::string out = detail::read_all(pipe_fds[0]);
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(relay, &status, 0);
    return out;
}

}  // namespace arena::testing
