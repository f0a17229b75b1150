#include "arena/check/inspect.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
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

std::string blocked_read(pid_t pid) {
    const fs::path proc = "/proc/" + std::to_string(pid);
    const std::string stdin_target = link_target(proc / "fd" / "0");
    std::error_code ec;
    for (const auto& task : fs::directory_iterator(proc / "task", ec)) {
        std::istringstream in(read_file(task.path() / "syscall"));
        long number = -1;
        std::string fd_text;
        if (!(in >> number >> fd_text) || !is_read_call(number)) continue;
        const long fd = std::strtol(fd_text.c_str(), nullptr, 0);
        const std::string target = link_target(proc / "fd" / std::to_string(fd));
        if (fd == 0 || (!stdin_target.empty() && target == stdin_target)) continue;
        return "fd " + std::to_string(fd) + " (" + (target.empty() ? "?" : target) + ")";
    }
    return {};
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

bool has_controlling_terminal(pid_t pid) {
    const auto fields = stat_fields(pid);
    // fields: state, ppid, pgrp, session, tty_nr
    return fields.size() > 4 && std::atol(fields[4].c_str()) != 0;
}

}  // namespace arena::check::inspect
