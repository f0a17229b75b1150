#pragma once
// A bot's program: its command found as execvp would find it (and whether it
// can run), the files its arguments name, and the SHA-256 that identifies
// the build they make up. The config checks its bots' commands with these,
// and `arena match`, `arena play` and `arena serve` fingerprint theirs.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace arena::tournament {

enum class ExecStatus { kOk, kNotFound, kNotExecutable };

// argv[0] as execvp would find it from `dir`: a path (taken from `dir` when
// relative) when it contains '/', else the first executable regular file of
// that name in PATH. With kNotExecutable, the first file found that cannot run.
[[nodiscard]] std::pair<ExecStatus, std::filesystem::path> resolve_command(
    const std::string& word, const std::filesystem::path& dir);

// The arguments after argv[0] that name existing regular files from `dir`
// (options, and key=value words, excepted).
[[nodiscard]] std::vector<std::filesystem::path> argument_files(
    const std::vector<std::string>& argv, const std::filesystem::path& dir);

// A bot's program as found from `dir` (empty: the current directory): argv[0]
// resolved as execvp would (PATH searched when it has no '/'), and the
// arguments that name existing files there (a script, a jar, weights).
struct ProgramFiles {
    std::filesystem::path executable;  // empty when not found
    std::vector<std::filesystem::path> files;
};
[[nodiscard]] ProgramFiles program_files(const std::vector<std::string>& argv,
                                         const std::filesystem::path& dir);
// The SHA-256 of the executable alone when there are no files, else of the
// sha256sum-style listing of it and the files. Empty when it cannot be read.
[[nodiscard]] std::string program_sha256(const ProgramFiles& program);

}  // namespace arena::tournament
