#pragma once
// Test helpers: finding processes by a marker argument, and paths to the
// built programs.

#include <dirent.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace arena::testing {

inline std::string bin(const std::string& relative) {
    return std::string(ARENA_BINARY_DIR) + "/" + relative;
}
inline std::string source(const std::string& relative) {
    return std::string(ARENA_SOURCE_DIR) + "/" + relative;
}

// A value to pass as a bot argument (e.g. its seed) so that the test can
// find every process that carries it, including forked grandchildren that
// left the arena's process tree.
inline std::string unique_marker() {
    std::random_device rd;
    return std::to_string((static_cast<unsigned long long>(rd()) << 20) ^ rd());
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
        std::ifstream in("/proc/" + name + "/cmdline", std::ios::binary);
        const std::string cmdline{std::istreambuf_iterator<char>(in), {}};
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
