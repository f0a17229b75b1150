#include "arena/tournament/tsinghua_so.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;

bool is_executable_file(const fs::path& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<fs::path> find_so_host() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // Next to us (build/bin/), or in ../bin from a test of the same build
        // tree (build/tests/).
        for (const fs::path& dir : {self.parent_path(), self.parent_path().parent_path() / "bin"}) {
            const fs::path candidate = dir / kSoHostName;
            if (is_executable_file(candidate)) return candidate;
        }
    }
    const char* env = std::getenv("PATH");
    const std::string list = env != nullptr ? env : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t colon = std::min(list.find(':', start), list.size());
        const std::string dir = list.substr(start, colon - start);
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / kSoHostName;
        if (is_executable_file(candidate)) return fs::absolute(candidate, ec);
        start = colon + 1;
    }
    return std::nullopt;
}

bool runs_so_host(const std::vector<std::string>& argv) {
    return !argv.empty() && fs::path(argv.front()).filename() == kSoHostName;
}

std::vector<std::string> so_host_argv(const fs::path& host, const fs::path& library) {
    std::error_code ec;
    // Absolute: the bot runs in a scratch directory of its own.
    const fs::path absolute = fs::absolute(library, ec);
    return {host.string(), (ec ? library : absolute).lexically_normal().string()};
}

std::vector<fs::path> strategy_libraries(const fs::path& dir) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        std::error_code type_ec;
        if (entry.path().extension() == ".so" && entry.is_regular_file(type_ec))
            found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
        return a.filename().string() < b.filename().string();
    });
    return found;
}

std::string tsinghua_game_problem(std::string_view game, const games::Params& params) {
    if (game != "connect4") {
        return "protocol 'tsinghua-so' plays only connect4, not " + std::string(game);
    }
    for (const auto& [key, value] : params) {
        if (key == "connect" && value != "4") {
            return "protocol 'tsinghua-so' plays four in a row, not connect=" + value;
        }
        if (key == "blocked" && value.find(',') != std::string::npos) {
            return "protocol 'tsinghua-so' knows one blocked cell, not blocked=" + value;
        }
    }
    return {};
}

}  // namespace arena::tournament
