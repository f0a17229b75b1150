#include "arena/tournament/program_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <system_error>

#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"

namespace arena::tournament {
namespace {

// Used when PATH is unset, as execvp does.
constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

ExecStatus check_executable(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return ExecStatus::kNotFound;
    if (!S_ISREG(st.st_mode) || ::access(path.c_str(), X_OK) != 0) {
        return ExecStatus::kNotExecutable;
    }
    return ExecStatus::kOk;
}

}  // namespace

std::pair<ExecStatus, std::filesystem::path> resolve_command(const std::string& word,
                                                             const std::filesystem::path& dir) {
    if (word.find('/') != std::string::npos) {
        const std::filesystem::path path =
            dir.empty() ? std::filesystem::path(word) : (dir / word).lexically_normal();
        return {check_executable(path.string()), path};
    }
    const char* env = std::getenv("PATH");
    const std::string path_list = env != nullptr ? env : std::string(kDefaultPath);
    ExecStatus status = ExecStatus::kNotFound;
    std::filesystem::path first_found;
    std::size_t start = 0;
    while (start <= path_list.size()) {
        const std::size_t colon = std::min(path_list.find(':', start), path_list.size());
        std::string entry = path_list.substr(start, colon - start);
        if (entry.empty()) entry = ".";  // an empty PATH entry is the current directory
        const std::string candidate = entry + "/" + word;
        const ExecStatus s = check_executable(candidate);
        if (s == ExecStatus::kOk) return {s, candidate};
        if (s == ExecStatus::kNotExecutable && status == ExecStatus::kNotFound) {
            status = s;
            first_found = candidate;
        }
        start = colon + 1;
    }
    return {status, first_found};
}

std::vector<std::filesystem::path> argument_files(const std::vector<std::string>& argv,
                                                  const std::filesystem::path& dir) {
    namespace fs = std::filesystem;
    const fs::path base = dir.empty() ? fs::path(".") : dir;
    std::vector<fs::path> files;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.empty() || arg.front() == '-' || arg.find('=') != std::string::npos) continue;
        const fs::path path = (base / arg).lexically_normal();
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) files.push_back(path);
    }
    return files;
}

ProgramFiles program_files(const std::vector<std::string>& argv, const std::filesystem::path& dir) {
    ProgramFiles program;
    if (argv.empty()) return program;
    if (const auto [status, path] = resolve_command(argv.front(), dir); status == ExecStatus::kOk)
        program.executable = path;
    program.files = argument_files(argv, dir);
    return program;
}

std::string program_sha256(const ProgramFiles& program) {
    const std::string sha = sha256_file(program.executable);
    if (program.files.empty() || sha.empty()) return sha;
    std::string listing = sha + "  " + program.executable.string() + "\n";
    for (const auto& file : program.files)
        listing += sha256_file(file) + "  " + file.string() + "\n";
    return sha256_text(listing);
}

std::string bot_sha256(const BotConfig& bot) {
    return program_sha256({bot.executable, bot.files});
}

}  // namespace arena::tournament
