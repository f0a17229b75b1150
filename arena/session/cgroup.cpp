#include "arena/session/cgroup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>

namespace arena::session::cgroup {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
// How long a removal waits for the processes of a killed group to be gone
// before leaving it to the periodic retry.
constexpr auto kRemoveWait = std::chrono::milliseconds(50);

// The whole of a small file (a cgroup file, a /proc file); nullopt when it
// cannot be read.
std::optional<std::string> read_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string text;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

// Writes `value` to a cgroup file; the OS error, or 0.
int write_file(const std::string& path, std::string_view value) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    const ssize_t n = ::write(fd, value.data(), value.size());
    const int err = n < 0 ? errno : 0;
    ::close(fd);
    return err;
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// The value after `key` on a line "key value" of a flat keyed file
// (memory.events, pids.events, memory.oom_control); 0 when absent.
std::uint64_t keyed_value(const std::optional<std::string>& text, std::string_view key) {
    if (!text) return 0;
    std::istringstream in(*text);
    std::string name;
    std::uint64_t value = 0;
    while (in >> name >> value)
        if (name == key) return value;
    return 0;
}

std::optional<std::uint64_t> number_in(const std::optional<std::string>& text) {
    if (!text || text->empty()) return std::nullopt;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text->c_str(), &end, 10);
    if (end == text->c_str()) return std::nullopt;
    return v;
}

std::vector<pid_t> pids_in(const std::string& dir) {
    std::vector<pid_t> out;
    std::istringstream in(read_file(dir + "/cgroup.procs").value_or(""));
    for (long pid = 0; in >> pid;)
        if (pid > 0) out.push_back(static_cast<pid_t>(pid));
    return out;
}

bool remove_dir(const std::string& dir) {
    return dir.empty() || ::rmdir(dir.c_str()) == 0 || errno == ENOENT;
}

// A mounted cgroup hierarchy.
struct Mount {
    std::string root;   // the hierarchy's directory mounted here
    std::string point;  // where
};

// Splits /proc/self/mountinfo into cgroup mounts: v2 ("cgroup2") under the
// key "", v1 under each controller named in its super options.
std::vector<std::pair<std::string, Mount>> cgroup_mounts() {
    std::vector<std::pair<std::string, Mount>> out;
    std::istringstream in(read_file("/proc/self/mountinfo").value_or(""));
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string id, parent, dev, root, point, options, field;
        fields >> id >> parent >> dev >> root >> point >> options;
        while (fields >> field && field != "-") {
        }
        std::string type, source, super;
        fields >> type >> source >> super;
        if (type == "cgroup2") {
            out.push_back({"", {root, point}});
        } else if (type == "cgroup") {
            std::istringstream opts(super);
            for (std::string opt; std::getline(opts, opt, ',');)
                out.push_back({opt, {root, point}});
        }
    }
    return out;
}

// This process's path in each hierarchy: "" for v2 (line "0::path"), else
// each controller of the line.
std::vector<std::pair<std::string, std::string>> own_paths() {
    std::vector<std::pair<std::string, std::string>> out;
    std::istringstream in(read_file("/proc/self/cgroup").value_or(""));
    for (std::string line; std::getline(in, line);) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (line.compare(0, first, "0") == 0 && controllers.empty()) {
            out.push_back({"", path});
            continue;
        }
        std::istringstream names(controllers);
        for (std::string name; std::getline(names, name, ',');)
            out.push_back({name, path});
    }
    return out;
}

// The directory of this process's own group in the hierarchy of
// `controller` ("": v2), from /proc/self/cgroup and /proc/self/mountinfo;
// "" when it is not mounted or not visible here.
std::string own_dir(const std::string& controller) {
    std::string path;
    bool found = false;
    for (const auto& [name, p] : own_paths()) {
        if (name == controller) {
            path = p;
            found = true;
        }
    }
    if (!found) return {};
    for (const auto& [name, mount] : cgroup_mounts()) {
        if (name != controller) continue;
        // The mount shows the hierarchy from mount.root down.
        if (mount.root == "/") return mount.point + (path == "/" ? "" : path);
        if (path == mount.root) return mount.point;
        if (path.starts_with(mount.root + "/")) return mount.point + path.substr(mount.root.size());
    }
    return {};
}

bool pid_alive(long pid) {
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

// Removes the empty arena-<pid> groups under `base` whose arena is gone (it
// was killed before it could remove them).
void remove_stale(const std::string& base) {
    DIR* dir = ::opendir(base.c_str());
    if (dir == nullptr) return;
    std::vector<std::string> stale;
    while (const dirent* e = ::readdir(dir)) {
        const std::string name = e->d_name;
        if (!name.starts_with("arena-")) continue;
        char* end = nullptr;
        const long pid = std::strtol(name.c_str() + 6, &end, 10);
        if (end == name.c_str() + 6 || *end != '\0' || pid <= 0) continue;
        if (pid != ::getpid() && !pid_alive(pid)) stale.push_back(base + "/" + name);
    }
    ::closedir(dir);
    for (const auto& group : stale) {
        // Whatever the killed arena's bots left running in its groups goes
        // first: a group with processes in it cannot be removed.
        for (int round = 0; round < 50 && kill_tree(group.c_str()); ++round)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (DIR* sub = ::opendir(group.c_str())) {
            std::vector<std::string> bots;
            while (const dirent* e = ::readdir(sub)) {
                if (std::string_view(e->d_name).starts_with("bot-"))
                    bots.push_back(group + "/" + e->d_name);
            }
            ::closedir(sub);
            for (const auto& bot : bots)
                ::rmdir(bot.c_str());  // fails while processes are in it: then it stays
        }
        ::rmdir(group.c_str());
    }
}

// ---- async-signal-safe helpers (kill_tree runs in a forked child) -----------

// `a` + "/" + `b` into `out` (of `size` bytes); false when it does not fit.
bool join_path(char* out, std::size_t size, const char* a, const char* b) {
    const std::size_t la = std::strlen(a), lb = std::strlen(b);
    if (la + 1 + lb + 1 > size) return false;
    std::memcpy(out, a, la);
    out[la] = '/';
    std::memcpy(out + la + 1, b, lb + 1);
    return true;
}

// SIGKILL to every pid listed in `dir`/cgroup.procs; true when any was listed.
bool kill_listed(const char* dir) {
    char path[4096];
    if (!join_path(path, sizeof path, dir, "cgroup.procs")) return false;
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool any = false;
    char buf[4096];
    long pid = 0;
    bool in_number = false;
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) break;
        for (ssize_t i = 0; i < n; ++i) {
            if (buf[i] >= '0' && buf[i] <= '9') {
                pid = pid * 10 + (buf[i] - '0');
                in_number = true;
            } else if (in_number) {
                if (pid > 0) ::kill(static_cast<pid_t>(pid), SIGKILL);
                any = true;
                pid = 0;
                in_number = false;
            }
        }
    }
    if (in_number && pid > 0) {
        ::kill(static_cast<pid_t>(pid), SIGKILL);
        any = true;
    }
    ::close(fd);
    return any;
}

// Freezes (v1 freezer.state, v2 cgroup.freeze) or thaws `dir`, best effort.
void set_frozen_at(const char* dir, bool frozen) {
    char path[4096];
    if (join_path(path, sizeof path, dir, "freezer.state")) {
        const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            (void)!::write(fd, frozen ? "FROZEN" : "THAWED", 6);
            ::close(fd);
        }
    }
}

std::string error_text(int err) {
    return std::strerror(err);
}

}  // namespace

// The arena's groups, made when the first support() detects what the
// machine allows, and removed with their ArenaGroups.
class ArenaGroups::State {
  public:
    State() { detect(); }
    ~State() {
        retry_pending(true);
        for (const auto& dir : arena_dirs_)
            ::rmdir(dir.c_str());
    }
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    [[nodiscard]] const Support& support() const { return support_; }
    [[nodiscard]] const std::string& memory_base() const { return memory_; }
    [[nodiscard]] const std::string& pids_base() const { return pids_; }
    [[nodiscard]] const std::string& freezer_base() const { return freezer_; }
    std::uint64_t next_id() { return ++counter_; }

    void defer(std::vector<std::string> dirs) {
        const std::lock_guard lock(mutex_);
        for (auto& d : dirs)
            pending_.push_back(std::move(d));
    }

    void retry_pending(bool kill_first) {
        const std::lock_guard lock(mutex_);
        std::vector<std::string> still;
        for (const auto& dir : pending_) {
            if (kill_first)
                for (const pid_t pid : pids_in(dir))
                    ::kill(pid, SIGKILL);
            if (!remove_dir(dir)) still.push_back(dir);
        }
        pending_ = std::move(still);
    }

  private:
    void detect() {
        if (detect_v2()) return;
        const std::string v2_reason = support_.reason;
        if (detect_v1()) return;
        if (!v2_reason.empty()) support_.reason = v2_reason + "; " + support_.reason;
    }

    // Makes <base>/arena-<pid>; the error, or 0.
    int make_arena_dir(const std::string& base, std::string& made) {
        remove_stale(base);
        made = base + "/arena-" + std::to_string(::getpid());
        if (::mkdir(made.c_str(), 0755) != 0 && errno != EEXIST) return errno;
        arena_dirs_.push_back(made);
        return 0;
    }

    bool detect_v2() {
        const std::string own = own_dir("");
        if (own.empty()) return false;
        const std::string controllers = read_file(own + "/cgroup.controllers").value_or("");
        std::istringstream in(controllers);
        bool memory = false, pids = false;
        for (std::string c; in >> c;) {
            memory |= c == "memory";
            pids |= c == "pids";
        }
        if (!memory || !pids) {
            support_.reason = "cgroup v2 at " + own + " offers no memory and pids controllers";
            return false;
        }
        if (const int err = write_file(own + "/cgroup.subtree_control", "+memory +pids")) {
            support_.reason = "cgroup v2: cannot give sub-groups of " + own +
                              " the memory and pids controllers (" + error_text(err) + ")";
            return false;
        }
        std::string dir;
        if (const int err = make_arena_dir(own, dir)) {
            support_.reason = "cannot create " + dir + ": " + error_text(err);
            return false;
        }
        if (const int err = write_file(dir + "/cgroup.subtree_control", "+memory +pids")) {
            support_.reason = "cgroup v2: cannot give sub-groups of " + dir +
                              " the memory and pids controllers (" + error_text(err) + ")";
            ::rmdir(dir.c_str());
            arena_dirs_.pop_back();
            return false;
        }
        memory_ = dir;
        support_.version = 2;
        support_.freezer = exists(dir + "/cgroup.freeze");
        support_.swap = exists(dir + "/memory.swap.max");
        support_.reason.clear();
        return true;
    }

    bool detect_v1() {
        const std::string memory = own_dir("memory");
        const std::string pids = own_dir("pids");
        if (memory.empty() || pids.empty()) {
            support_.reason = std::string("no cgroup v1 ") + (memory.empty() ? "memory" : "pids") +
                              " hierarchy mounted";
            return false;
        }
        for (const auto* base : {&memory, &pids}) {
            std::string dir;
            if (const int err = make_arena_dir(*base, dir)) {
                support_.reason = "cannot create " + dir + ": " + error_text(err);
                for (const auto& made : arena_dirs_)
                    ::rmdir(made.c_str());
                arena_dirs_.clear();
                return false;
            }
            (base == &memory ? memory_ : pids_) = dir;
        }
        if (const std::string freezer = own_dir("freezer"); !freezer.empty()) {
            std::string dir;
            if (make_arena_dir(freezer, dir) == 0) freezer_ = dir;
        }
        support_.version = 1;
        support_.freezer = !freezer_.empty();
        support_.swap = exists(memory_ + "/memory.memsw.limit_in_bytes");
        support_.reason.clear();
        return true;
    }

    Support support_;
    std::string memory_, pids_, freezer_;  // the arena's groups (v2: memory_ only)
    std::vector<std::string> arena_dirs_;
    std::atomic<std::uint64_t> counter_{0};
    std::mutex mutex_;
    std::vector<std::string> pending_;  // bot groups not yet removed
};

ArenaGroups::ArenaGroups() = default;

ArenaGroups::~ArenaGroups() = default;

ArenaGroups::State& ArenaGroups::state() {
    const std::lock_guard lock(mutex_);
    if (!state_) state_ = std::make_unique<State>();
    return *state_;
}

const Support& ArenaGroups::support() {
    return state().support();
}

std::vector<std::string> ArenaGroups::arena_dirs() const {
    std::vector<std::string> dirs;
    const std::lock_guard lock(mutex_);
    if (!state_) return dirs;  // none made: no detection for this
    for (const auto* dir : {&state_->memory_base(), &state_->pids_base(), &state_->freezer_base()})
        if (!dir->empty()) dirs.push_back(*dir);
    return dirs;
}

void ArenaGroups::remove_pending() {
    State* st = nullptr;
    {
        const std::lock_guard lock(mutex_);
        st = state_.get();  // once made, kept until this goes
    }
    if (st != nullptr) st->retry_pending(false);
}

std::string ArenaGroups::describe_limits(bool wanted) {
    const std::string fallback = "limits: rlimits and a 100 ms /proc poll (no cgroup: ";
    if (!wanted) return fallback + "turned off by 'cgroup: false')";
    const Support& s = support();
    if (s.version == 0) return fallback + s.reason + ")";
    std::string line = "limits: cgroup v" + std::to_string(s.version) + " per bot (memory";
    if (s.swap) line += "+swap";
    line += ", pids";
    if (s.freezer && kFreezeByGroup) line += ", freezer";
    return line + ")";
}

std::unique_ptr<Group> Group::create(ArenaGroups& arena, std::uint64_t memory_mb,
                                     std::uint64_t max_tasks, std::string* why) {
    ArenaGroups::State& st = arena.state();
    const Support& s = st.support();
    const auto fail = [&](std::string reason) -> std::unique_ptr<Group> {
        if (why != nullptr) *why = std::move(reason);
        return nullptr;
    };
    if (s.version == 0) return fail(s.reason);
    std::unique_ptr<Group> group(new Group(arena));
    group->version_ = s.version;
    const std::string name = "/bot-" + std::to_string(st.next_id());
    const std::string memory_limit = std::to_string(memory_mb * kMiB);
    const std::string task_limit = max_tasks > 0 ? std::to_string(max_tasks) : "max";
    const auto make = [&](const std::string& base, std::string& dir) -> std::string {
        if (base.empty()) return {};
        const std::string path = base + name;
        if (::mkdir(path.c_str(), 0755) != 0)
            return "cannot create " + path + ": " + error_text(errno);
        dir = path;
        return {};
    };
    const auto set = [&](const std::string& dir, const char* file,
                         const std::string& value) -> std::string {
        if (const int err = write_file(dir + "/" + file, value))
            return "cannot set " + dir + "/" + file + ": " + error_text(err);
        return {};
    };
    std::string error;
    if (s.version == 2) {
        error = make(st.memory_base(), group->memory_);
        if (error.empty() && memory_mb > 0) error = set(group->memory_, "memory.max", memory_limit);
        if (error.empty() && memory_mb > 0 && s.swap)
            error = set(group->memory_, "memory.swap.max", "0");
        if (error.empty()) error = set(group->memory_, "pids.max", task_limit);
    } else {
        error = make(st.memory_base(), group->memory_);
        if (error.empty()) error = make(st.pids_base(), group->pids_);
        if (error.empty()) error = make(st.freezer_base(), group->freezer_);
        if (error.empty() && memory_mb > 0) {
            error = set(group->memory_, "memory.limit_in_bytes", memory_limit);
            if (error.empty() && s.swap)
                error = set(group->memory_, "memory.memsw.limit_in_bytes", memory_limit);
        }
        if (error.empty()) error = set(group->pids_, "pids.max", task_limit);
    }
    if (error.empty()) {
        for (const auto* dir : {&group->memory_, &group->pids_, &group->freezer_}) {
            if (dir->empty()) continue;
            const int fd = ::open((*dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
            if (fd < 0) {
                error = "cannot open " + *dir + "/cgroup.procs: " + error_text(errno);
                break;
            }
            group->join_fds_.push_back(fd);
        }
    }
    if (error.empty() && s.version == 2) {
        group->peak_fd_ = ::open((group->memory_ + "/memory.peak").c_str(), O_RDWR | O_CLOEXEC);
        if (group->peak_fd_ < 0)
            group->peak_fd_ =
                ::open((group->memory_ + "/memory.peak").c_str(), O_RDONLY | O_CLOEXEC);
    }
    if (!error.empty()) return fail(error);  // the destructor removes what was made
    return group;
}

Group::~Group() {
    close_join_fds();
    if (peak_fd_ >= 0) ::close(peak_fd_);
    kill_all();
    std::vector<std::string> left;
    const auto until = std::chrono::steady_clock::now() + kRemoveWait;
    for (const auto* dir : {&memory_, &pids_, &freezer_}) {
        if (dir->empty()) continue;
        // The processes just killed leave the group as they exit.
        while (!remove_dir(*dir) && errno == EBUSY && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (exists(*dir)) left.push_back(*dir);
    }
    if (!left.empty()) arena_.state().defer(std::move(left));
}

void Group::close_join_fds() {
    for (const int fd : join_fds_)
        ::close(fd);
    join_fds_.clear();
}

bool Group::set_frozen(bool frozen) {
    if (version_ == 2) {
        if (write_file(memory_ + "/cgroup.freeze", frozen ? "1" : "0") != 0) return false;
    } else {
        if (freezer_.empty()) return false;
        if (write_file(freezer_ + "/freezer.state", frozen ? "FROZEN" : "THAWED") != 0)
            return false;
    }
    frozen_ = frozen;
    return true;
}

std::vector<pid_t> Group::members() const {
    return pids_in(version_ == 2 ? memory_ : pids_);
}

void Group::kill_all() {
    if (version_ == 2 && write_file(memory_ + "/cgroup.kill", "1") == 0) return;
    if (members().empty()) return;  // the common case: a bot that quit, or was reaped whole
    // One by one: frozen meanwhile (if it can be), so nothing forks between
    // the listing and the kill; a frozen process dies only once thawed.
    const bool froze = set_frozen(true);
    for (int round = 0; round < 3; ++round) {
        const auto pids = members();
        if (pids.empty()) break;
        for (const pid_t pid : pids)
            ::kill(pid, SIGKILL);
        if (froze) break;
    }
    if (froze || frozen_) set_frozen(false);
}

bool Group::oom_killed() const {
    if (version_ == 2) return keyed_value(read_file(memory_ + "/memory.events"), "oom_kill") > 0;
    return keyed_value(read_file(memory_ + "/memory.oom_control"), "oom_kill") > 0;
}

bool Group::fork_refused() const {
    const std::string& dir = version_ == 2 ? memory_ : pids_;
    return keyed_value(read_file(dir + "/pids.events"), "max") > 0;
}

std::optional<std::uint64_t> Group::peak_bytes() const {
    if (version_ == 1) return number_in(read_file(memory_ + "/memory.max_usage_in_bytes"));
    if (peak_fd_ < 0) return std::nullopt;
    char buf[64];
    const ssize_t n = ::pread(peak_fd_, buf, sizeof buf - 1, 0);
    if (n <= 0) return std::nullopt;
    buf[n] = '\0';
    return number_in(std::string(buf));
}

void Group::reset_peak() {
    if (version_ == 1) {
        write_file(memory_ + "/memory.max_usage_in_bytes", "0");
    } else if (peak_fd_ >= 0) {
        // Kernels >= 6.12: the peak read through this descriptor starts
        // again from the current usage. Older ones refuse the write.
        (void)::pwrite(peak_fd_, "reset", 5, 0);
    }
}

namespace {

// Calls `f` with the path of each bot-<n> group under `dir`. Allocates
// nothing: kill_tree runs in a forked child of a threaded process.
template <typename F>
void for_each_bot_group(const char* dir, F&& f) {
    const int d = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d < 0) return;
    char entries[4096];
    for (;;) {
        const long n = ::syscall(SYS_getdents64, d, entries, sizeof entries);
        if (n <= 0) break;
        for (long at = 0; at < n;) {
            const auto* e = reinterpret_cast<const dirent64*>(entries + at);
            at += e->d_reclen;
            if (std::strncmp(e->d_name, "bot-", 4) != 0) continue;
            char sub[4096];
            if (join_path(sub, sizeof sub, dir, e->d_name)) f(static_cast<const char*>(sub));
        }
    }
    ::close(d);
}

}  // namespace

bool kill_tree(const char* dir) {
    // v2: one write kills the whole tree, the kernel's way (Linux >= 5.14).
    char path[4096];
    if (join_path(path, sizeof path, dir, "cgroup.kill")) {
        const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            const bool done = ::write(fd, "1", 1) == 1;
            ::close(fd);
            if (done) {
                // Dying processes leave the groups' lists shortly.
                bool any = false;
                for_each_bot_group(dir, [&](const char* sub) {
                    char procs[4096];
                    if (!join_path(procs, sizeof procs, sub, "cgroup.procs")) return;
                    const int p = ::open(procs, O_RDONLY | O_CLOEXEC);
                    if (p < 0) return;
                    char c = 0;
                    if (::read(p, &c, 1) == 1) any = true;
                    ::close(p);
                });
                return any;
            }
        }
    }
    // v1 (or v2 without cgroup.kill): each bot's group, frozen meanwhile
    // where it has a freezer, so that nothing forks between list and kill.
    bool any = false;
    for_each_bot_group(dir, [&](const char* sub) {
        set_frozen_at(sub, true);
        if (kill_listed(sub)) any = true;
        set_frozen_at(sub, false);
    });
    return any;
}

}  // namespace arena::session::cgroup
