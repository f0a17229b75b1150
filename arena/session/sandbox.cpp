#include "arena/session/sandbox.hpp"

#include <algorithm>
#include <boost/process/search_path.hpp>
#include <cstdlib>
#include <system_error>

namespace arena::session {

namespace {

// System directories a sandboxed bot sees read-only. A symlink (a merged-usr
// /bin -> usr/bin) is recreated as the same symlink inside.
constexpr const char* kSandboxSystemDirs[] = {"/usr",   "/bin",   "/sbin", "/lib",
                                              "/lib32", "/lib64", "/etc",  "/opt"};

}  // namespace

bool sandbox_available(const std::string& bwrap) {
    const std::string path = boost::process::search_path(bwrap).string();
    return !path.empty() &&
           std::system((path + " --ro-bind / / --unshare-net --unshare-pid --die-with-parent "
                               "true >/dev/null 2>&1")
                           .c_str()) == 0;
}

std::vector<std::string> sandbox_args(const SandboxOptions& sandbox, const std::string& exe,
                                      const std::vector<std::string>& args,
                                      const std::filesystem::path& dir,
                                      const std::filesystem::path& scratch) {
    namespace fs = std::filesystem;
    std::vector<std::string> out = {"--die-with-parent", "--unshare-net", "--unshare-pid",
                                    "--unshare-ipc",     "--unshare-uts", "--unshare-cgroup-try",
                                    "--hostname",        "arena-sandbox"};
    for (const char* system_dir : kSandboxSystemDirs) {
        std::error_code ec;
        if (fs::is_symlink(system_dir, ec)) {
            out.insert(out.end(),
                       {"--symlink", fs::read_symlink(system_dir, ec).string(), system_dir});
        } else if (fs::is_directory(system_dir, ec)) {
            out.insert(out.end(), {"--ro-bind", system_dir, system_dir});
        }
    }
    out.insert(out.end(), {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"});
    // What the bot may read of the host besides the system: its own
    // program's files. A directory is shown whole (read-only) unless it
    // holds the arena's working directory or something hidden (other bots'
    // folders and programs, the results, the config): from such a directory
    // only the file named (the program, a script, a weights file) is shown.
    const fs::path base = dir.empty() ? fs::current_path() : dir;
    const auto canonical = [](const fs::path& path) {
        std::error_code ec;
        return fs::weakly_canonical(path, ec).string();
    };
    std::vector<std::string> guarded = {canonical(fs::current_path())};
    for (const auto& path : sandbox.hidden)
        guarded.push_back(canonical(path));
    const auto holds_guarded = [&](const std::string& p) {
        if (p == "/") return true;
        return std::any_of(guarded.begin(), guarded.end(), [&](const std::string& g) {
            return !g.empty() && (g == p || g.starts_with(p + "/"));
        });
    };
    std::vector<std::string> binds;
    for (const auto& path : sandbox.read_only)  // named by the config: shown as asked
        binds.push_back(canonical(path));
    const auto show = [&](const fs::path& path) {
        std::error_code ec;
        const bool is_dir = fs::is_directory(path, ec);
        const std::string folder = canonical(is_dir ? path : path.parent_path());
        if (folder.empty()) return;
        if (!holds_guarded(folder)) {
            binds.push_back(folder);
        } else if (!is_dir) {
            binds.push_back(canonical(path));
        }
    };
    const std::string start_dir = canonical(base);
    const bool start_shown = !start_dir.empty() && !holds_guarded(start_dir);
    // The working directory itself, when it is not shown, exists inside as
    // an empty directory (holding only what is shown below it).
    if (!start_shown && !start_dir.empty() && start_dir != "/")
        out.insert(out.end(), {"--dir", start_dir});
    if (start_shown) binds.push_back(start_dir);
    show(fs::path(exe));
    for (const auto& arg : args) {
        std::error_code ec;
        if (arg.find('/') == std::string::npos) continue;
        const fs::path path = base / arg;  // an absolute arg replaces the base
        if (fs::exists(path, ec)) show(path);
    }
    for (const auto& p : binds) {
        if (!p.empty() && p != "/") out.insert(out.end(), {"--ro-bind-try", p, p});
    }
    if (!scratch.empty()) out.insert(out.end(), {"--bind", scratch.string(), scratch.string()});
    out.insert(out.end(), {"--chdir", start_dir.empty() ? base.string() : start_dir, "--", exe});
    return out;
}

}  // namespace arena::session
