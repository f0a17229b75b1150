#pragma once
// Test helper: runs a shell command with a new pseudo-terminal as its
// controlling terminal, as when a person runs it, and returns everything it
// wrote there.

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace arena::testing {

// `command` through sh on a new terminal `columns` wide (0: the default).
inline std::string run_in_terminal(const std::string& command, unsigned short columns = 0) {
    winsize size{};
    size.ws_col = columns;
    size.ws_row = 24;
    int master = -1;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, columns > 0 ? &size : nullptr);
    if (pid < 0) return "forkpty failed";
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(master, buf, sizeof buf);
        if (n > 0) {
            out.append(buf, static_cast<std::size_t>(n));
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            break;  // EIO: every process holding the terminal is gone
        }
    }
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return out;
}

}  // namespace arena::testing
