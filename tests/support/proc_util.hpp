#pragma once
// Test helpers: finding processes by a marker argument, and paths to the
// built programs.

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace arena::testing {

// Built by appending: GCC 12 at -O1 warns of a bound it misreads (-Warray-bounds)
// in `std::string(dir) + "/" + relative`.
inline std::string under(const char* dir, const std::string& relative) {
    std::string path = dir;
    path += '/';
    path += relative;
    return path;
}
inline std::string bin(const std::string& relative) {
    return under(ARENA_BINARY_DIR, relative);
}
inline std::string source(const std::string& relative) {
    return under(ARENA_SOURCE_DIR, relative);
}

// A whole file, byte for byte; "" when it cannot be read.
inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// How a shell command ended: its exit code (-1 when it did not exit) and its
// stdout and stderr together.
struct ShellResult {
    int status = -1;
    std::string out;
};

// Runs `command` with /bin/sh, its stderr merged into stdout.
inline ShellResult run_shell(const std::string& command) {
    ShellResult r;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) return r;
    std::array<char, 4096> buffer{};
    for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;)
        r.out.append(buffer.data(), n);
    const int status = pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The lines of `text`, without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// A value to pass as a bot argument (e.g. its seed) so that the test can
// find every process that carries it, including forked grandchildren that
// left the arena's process tree.
inline std::string unique_marker() {
    std::random_device rd;
    return std::to_string((static_cast<unsigned long long>(rd()) << 20) ^ rd());
}

// The content of a /proc file, or "" when the process is gone (reading the
// file of a process that exits meanwhile fails with ESRCH; a stream would
// throw).
inline std::string read_proc_file(const std::string& path) {
    std::string content;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return content;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) break;
        content.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return content;
}

// Pids of live (non-zombie) processes with `marker` as one of their
// arguments. Zombies have an empty command line, so they never match.
inline std::vector<int> processes_with_arg(const std::string& marker) {
    std::vector<int> found;
    DIR* proc = opendir("/proc");
    if (proc == nullptr) return found;
    while (dirent* e = readdir(proc)) {
        const std::string name = e->d_name;
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string cmdline = read_proc_file("/proc/" + name + "/cmdline");
        std::size_t start = 0;
        while (start < cmdline.size()) {
            auto end = cmdline.find('\0', start);
            if (end == std::string::npos) end = cmdline.size();
            if (cmdline.compare(start, end - start, marker) == 0) {
                found.push_back(std::stoi(name));
                break;
            }
            start = end + 1;
        }
    }
    closedir(proc);
    return found;
}

// The processes with `marker` still alive after up to `grace`: a process
// sent SIGKILL goes away soon, but not at once.
inline std::vector<int> survivors(const std::string& marker,
                                  std::chrono::milliseconds grace = std::chrono::seconds(2)) {
    const auto until = std::chrono::steady_clock::now() + grace;
    auto found = processes_with_arg(marker);
    while (!found.empty() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        found = processes_with_arg(marker);
    }
    return found;
}

}  // namespace arena::testing
