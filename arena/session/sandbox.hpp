#pragma once
// The bubblewrap sandbox a bot may run in (docs/security.md): whether the
// machine allows it, and the bwrap command line that decides what the bot
// sees of the host (the system read-only, its own program's files, its
// scratch directory writable) and what stays hidden.

#include <filesystem>
#include <string>
#include <vector>

namespace arena::session {

// Running under bubblewrap (docs/security.md).
struct SandboxOptions {
    bool enabled = false;
    std::string bwrap = "bwrap";  // the bubblewrap program
    // Extra directories visible read-only inside (the system directories, the
    // working directory, and those of the program and of arguments naming
    // existing files, always are).
    std::vector<std::filesystem::path> read_only;
    // What the bot must not see (absolute): other bots' folders and
    // programs, the results database, the config. A directory holding one of
    // them (or the arena's working directory) is never shown whole: only the
    // files the bot's command names are shown from it.
    std::vector<std::filesystem::path> hidden;
};

// True when bubblewrap can create a sandbox here. Each call runs it once:
// its callers (the checks of a config or a command line, before any bot
// starts) keep the answer.
[[nodiscard]] bool sandbox_available(const std::string& bwrap = "bwrap");

// The bwrap options that put `exe` (with `args`) in a sandbox that starts
// in `dir` (empty: the arena's working directory), sees it read-only and
// can write only `scratch` (empty: nothing), followed by "--", exe. The
// caller appends `args`.
[[nodiscard]] std::vector<std::string> sandbox_args(const SandboxOptions& sandbox,
                                                    const std::string& exe,
                                                    const std::vector<std::string>& args,
                                                    const std::filesystem::path& dir,
                                                    const std::filesystem::path& scratch);

}  // namespace arena::session
