#include "arena/check/inspect.hpp"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace arena::check::inspect {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string link_target(const fs::path& path) {
    std::error_code ec;
    const auto target = fs::read_symlink(path, ec);
    return ec ? std::string() : target.string();
}

// The fields of /proc/<pid>/stat after the command name (which may hold
// blanks and parentheses): state, ppid, pgrp, session, tty_nr, ...
std::vector<std::string> stat_fields(pid_t pid) {
    const std::string text = read_file("/proc/" + std::to_string(pid) + "/stat");
    const auto close = text.rfind(')');
    std::vector<std::string> fields;
    if (close == std::string::npos) return fields;
    std::istringstream in(text.substr(close + 1));
    for (std::string field; in >> field;)
        fields.push_back(field);
    return fields;
}

// The read-like system calls, whose first argument is the descriptor.
bool is_read_call(long number) {
    switch (number) {
#ifdef SYS_read
        case SYS_read:
#endif
#ifdef SYS_readv
        case SYS_readv:
#endif
#ifdef SYS_pread64
        case SYS_pread64:
#endif
#ifdef SYS_preadv
        case SYS_preadv:
#endif
#ifdef SYS_recvfrom
        case SYS_recvfrom:
#endif
#ifdef SYS_recvmsg
        case SYS_recvmsg:
#endif
            return true;
        default:
            return false;
    }
}

// The system calls that open a file, and which argument is its path.
int open_path_argument(long number) {
    switch (number) {
#ifdef SYS_open
        case SYS_open:
            return 0;
#endif
#ifdef SYS_openat
        case SYS_openat:
            return 1;
#endif
#ifdef SYS_openat2
        case SYS_openat2:
            return 1;
#endif
        default:
            return -1;
    }
}

// The NUL-terminated string at `address` in the memory of `pid`; "" when it
// cannot be read.
std::string read_string(pid_t pid, unsigned long long address) {
    const std::string path = "/proc/" + std::to_string(pid) + "/mem";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    char buffer[4096];
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, static_cast<off_t>(address));
    ::close(fd);
    if (n <= 0) return {};
    return std::string(buffer, ::strnlen(buffer, static_cast<std::size_t>(n)));
}

// Whether the socket `target` ("socket:[1234]") of `pid` is a TCP or UDP
// one: its inode is listed in the process's view of /proc/net.
bool is_network_socket(pid_t pid, const std::string& target) {
    const auto open = target.find('[');
    const auto close = target.find(']');
    if (open == std::string::npos || close == std::string::npos) return false;
    const std::string inode = target.substr(open + 1, close - open - 1);
    for (const char* table : {"tcp", "tcp6", "udp", "udp6"}) {
        std::istringstream in(read_file("/proc/" + std::to_string(pid) + "/net/" + table));
        std::string line;
        std::getline(in, line);  // the header
        while (std::getline(in, line)) {
            // sl local remote st tx:rx tr:when retrnsmt uid timeout inode ...
            std::istringstream fields(line);
            std::string field;
            for (int i = 0; i < 10 && fields >> field; ++i) {
            }
            if (field == inode) return true;
        }
    }
    return false;
}

bool is_terminal_path(const std::string& target) {
    return target == "/dev/tty" || target == "/dev/console" || target.starts_with("/dev/pts/") ||
           (target.starts_with("/dev/tty") && target.size() > 8);
}

}  // namespace

std::vector<pid_t> group_members(pid_t group) {
    std::vector<pid_t> members;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto pid = static_cast<pid_t>(std::atol(name.c_str()));
        const auto fields = stat_fields(pid);
        // fields: state, ppid, pgrp, ...
        if (fields.size() > 2 && std::atol(fields[2].c_str()) == group) members.push_back(pid);
    }
    return members;
}

namespace {

// What one thread of a process waits in: a read-like call on `fd`, or an
// open of `path`.
struct Wait {
    bool reading = false;
    long fd = -1;
    bool opening = false;
    std::string path;
};

std::vector<Wait> waits(pid_t pid) {
    std::vector<Wait> out;
    const fs::path proc = "/proc/" + std::to_string(pid);
    std::error_code ec;
    for (const auto& task : fs::directory_iterator(proc / "task", ec)) {
        // "<number> <argument 1> ... <argument 6> <sp> <pc>", the arguments
        // in hex; "running" for a thread not in a system call.
        std::istringstream in(read_file(task.path() / "syscall"));
        long number = -1;
        std::vector<std::string> args(6);
        if (!(in >> number)) continue;
        for (auto& arg : args)
            in >> arg;
        Wait w;
        if (is_read_call(number)) {
            w.reading = true;
            w.fd = std::strtol(args[0].c_str(), nullptr, 0);
        } else if (const int arg = open_path_argument(number); arg >= 0) {
            w.opening = true;
            w.path = read_string(
                pid, std::strtoull(args[static_cast<std::size_t>(arg)].c_str(), nullptr, 0));
        } else {
            continue;
        }
        out.push_back(std::move(w));
    }
    return out;
}

}  // namespace

std::string blocked_input(pid_t pid) {
    const fs::path proc = "/proc/" + std::to_string(pid);
    const std::string stdin_target = link_target(proc / "fd" / "0");
    for (const auto& w : waits(pid)) {
        if (w.opening) return "opening " + (w.path.empty() ? std::string("a file") : w.path);
        const std::string target = link_target(proc / "fd" / std::to_string(w.fd));
        if (w.fd == 0 || target.empty() || target == stdin_target) continue;
        // A pipe is how a bot talks to a helper process of its own, and an
        // anon_inode (eventfd, ...) is its runtime's: not outside input. A
        // socket counts when it is a network one.
        if (target.starts_with("pipe:") || target.starts_with("anon_inode:")) continue;
        if (target.starts_with("socket:")) {
            if (!is_network_socket(pid, target)) continue;
            return "reading fd " + std::to_string(w.fd) + " (a network socket)";
        }
        return "reading fd " + std::to_string(w.fd) + " (" + target + ")";
    }
    return {};
}

bool waiting_on_stdin(pid_t pid) {
    const fs::path proc = "/proc/" + std::to_string(pid);
    const std::string stdin_target = link_target(proc / "fd" / "0");
    for (const auto& w : waits(pid)) {
        if (!w.reading) continue;
        if (w.fd == 0) return true;
        const std::string target = link_target(proc / "fd" / std::to_string(w.fd));
        if (!stdin_target.empty() && target == stdin_target) return true;
    }
    return false;
}

std::vector<std::string> terminal_fds(pid_t pid) {
    std::vector<std::string> found;
    const fs::path fds = "/proc/" + std::to_string(pid) + "/fd";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fds, ec)) {
        const std::string target = link_target(entry.path());
        if (is_terminal_path(target))
            found.push_back("fd " + entry.path().filename().string() + " (" + target + ")");
    }
    return found;
}

}  // namespace arena::check::inspect
