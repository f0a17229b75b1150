#pragma once
// Test helper: runs the built `arena` executable as a child process with its
// output captured, optionally under a file size limit (RLIMIT_FSIZE), and
// reports how it ended.

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "proc_util.hpp"

namespace arena::testing {

struct ArenaResult {
    int status = -1;  // exit code, or 128 + signal
    std::string out, err;
    // The line naming the limits in force ("limits: ..."), which `arena run`
    // and `arena match` print first on stderr; kept apart from `err`, so
    // that tests compare what else was said. Empty when there was none.
    std::string limits_line;

    // The lines of stderr, without their newlines.
    [[nodiscard]] std::vector<std::string> err_lines() const {
        std::vector<std::string> lines;
        std::istringstream in(err);
        for (std::string line; std::getline(in, line);)
            lines.push_back(line);
        return lines;
    }
};

struct ArenaOptions {
    // Limits the files the arena writes to `bytes`.
    [[nodiscard]] static ArenaOptions file_size(rlim_t bytes) {
        ArenaOptions o;
        o.file_size_limit = bytes;
        return o;
    }
    // As nobody (see drop_root).
    [[nodiscard]] static ArenaOptions unprivileged() {
        ArenaOptions o;
        o.drop_root = true;
        return o;
    }

    std::optional<rlim_t> file_size_limit;  // bytes, for every file the arena writes
    std::optional<rlim_t> open_files;       // the arena's open-file limit, soft and hard
    // When the test runs as root: run the arena as nobody (uid and gid
    // 65534), for whom file permissions count. Root reads any file.
    bool drop_root = false;
    std::filesystem::path cwd;  // the arena's working directory; empty: the test's
    std::string stdin_text;     // what the arena reads on stdin (else /dev/null)
};

class ArenaProcess {
  public:
    // Starts `arena args...` with stdout and stderr going to files in `dir`
    // and stdin from /dev/null (or options.stdin_text).
    ArenaProcess(const std::filesystem::path& dir, const std::vector<std::string>& args,
                 const ArenaOptions& options = {})
        : out_(dir / ("arena-out-" + std::to_string(++count()) + ".txt")),
          err_(dir / ("arena-err-" + std::to_string(count()) + ".txt")) {
        std::vector<std::string> argv{bin("bin/arena")};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char*> cargv;
        for (auto& a : argv)
            cargv.push_back(a.data());
        cargv.push_back(nullptr);
        const std::string out = out_.string(), err = err_.string();
        const std::string cwd = options.cwd.string();
        std::string in = "/dev/null";
        if (!options.stdin_text.empty()) {
            in = (dir / ("arena-in-" + std::to_string(count()) + ".txt")).string();
            std::ofstream(in) << options.stdin_text;
        }
        pid_ = fork();
        if (pid_ == 0) {
            // Only async-signal-safe calls between fork and exec.
            if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
            const int in_fd = open(in.c_str(), O_RDONLY);
            const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (in_fd < 0 || out_fd < 0 || err_fd < 0) _exit(126);
            dup2(in_fd, 0);
            dup2(out_fd, 1);
            dup2(err_fd, 2);
            if (options.file_size_limit) {
                // The soft limit only: the arena may set its own limits on bots.
                const rlimit limit{*options.file_size_limit, RLIM_INFINITY};
                if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(126);
            }
            if (options.open_files) {
                const rlimit limit{*options.open_files, *options.open_files};
                if (setrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(126);
            }
            if (options.drop_root && geteuid() == 0) {
                if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
                    _exit(126);
            }
            execv(cargv[0], cargv.data());
            _exit(127);
        }
    }
    ArenaProcess(const ArenaProcess&) = delete;
    ArenaProcess& operator=(const ArenaProcess&) = delete;
    ~ArenaProcess() {
        if (pid_ > 0 && !waited_) {
            kill(pid_, SIGKILL);
            static_cast<void>(wait());
        }
    }

    [[nodiscard]] pid_t pid() const { return pid_; }
    // Where its stdout goes, to watch it while it runs.
    [[nodiscard]] const std::filesystem::path& out_path() const { return out_; }
    [[nodiscard]] const std::filesystem::path& err_path() const { return err_; }

    ArenaResult wait() {
        int status = 0;
        waitpid(pid_, &status, 0);
        return result(status);
    }

    // Its result if it has ended, without waiting.
    std::optional<ArenaResult> try_wait() {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
        return result(status);
    }

  private:
    ArenaResult result(int status) {
        waited_ = true;
        ArenaResult r;
        r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.out = slurp(out_);
        r.err = slurp(err_);
        if (r.err.starts_with("limits: ")) {
            const auto end = r.err.find('\n');
            r.limits_line = r.err.substr(0, end);
            r.err.erase(0, end == std::string::npos ? end : end + 1);
        }
        return r;
    }

    static int& count() {
        static int n = 0;
        return n;
    }
    static std::string slurp(const std::filesystem::path& p) {
        std::ifstream in(p);
        return {std::istreambuf_iterator<char>(in), {}};
    }

    std::filesystem::path out_, err_;
    pid_t pid_ = -1;
    bool waited_ = false;
};

// Runs `arena args...` to the end.
inline ArenaResult run_arena(const std::filesystem::path& dir, const std::vector<std::string>& args,
                             const ArenaOptions& options = {}) {
    return ArenaProcess(dir, args, options).wait();
}

// Text a crash, an abort or a sanitizer leaves on stderr.
inline bool looks_like_a_crash(const std::string& err) {
    for (const char* marker :
         {"terminate called", "Sanitizer", "runtime error:", "Aborted", "core dumped", "what():"}) {
        if (err.find(marker) != std::string::npos) return true;
    }
    return false;
}

}  // namespace arena::testing
