#include "arena/store/run_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "arena/store/results_store.hpp"

namespace arena::store {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what, int error) {
    throw StoreError(path.string() + ": " + std::string(what) + " (" + std::strerror(error) + ")");
}

// The holder's "pid tournament" line; empty when unreadable or not written yet.
std::string read_holder(int fd) {
    char buffer[512];
    const ssize_t n = pread(fd, buffer, sizeof buffer - 1, 0);
    if (n <= 0) return {};
    std::string text(buffer, static_cast<std::size_t>(n));
    if (const auto newline = text.find('\n'); newline != std::string::npos) text.resize(newline);
    return text;
}

}  // namespace

std::filesystem::path RunLock::lock_path(const std::filesystem::path& database) {
    // The file's one name: every symlink resolved and the path made
    // absolute, so that two runs that reach one file by different paths
    // (a symlink, "../x.db" from elsewhere) take the same lock.
    std::error_code ec;
    auto file = std::filesystem::canonical(database, ec);
    if (ec) file = std::filesystem::weakly_canonical(database, ec);
    if (ec) file = database;
    return file.string() + ".lock";
}

RunLock::RunLock(const std::filesystem::path& database, const std::string& tournament) {
    const auto path = lock_path(database);
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0) fail(path, "cannot open the lock file", errno);
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        const std::string holder = read_holder(fd_);
        ::close(fd_);
        fd_ = -1;
        if (error != EWOULDBLOCK) fail(path, "cannot lock", error);
        // "pid tournament" as written below; anything else is shown as is.
        const auto space = holder.find(' ');
        const std::string pid = holder.substr(0, space);
        const std::string other = space == std::string::npos ? "" : holder.substr(space + 1);
        std::string message;
        if (other == tournament) {
            message = "tournament '" + tournament + "' in " + database.string() +
                      " is being played by another arena process";
        } else if (!other.empty()) {
            message =
                database.string() + " is in use by another arena process playing '" + other + "'";
        } else {
            message = database.string() + " is in use by another arena process";
        }
        if (!pid.empty()) message += " (pid " + pid + ")";
        throw LockedError(message);
    }
    // Ours now: say who we are, for the message above.
    const std::string holder = std::to_string(getpid()) + " " + tournament + "\n";
    if (ftruncate(fd_, 0) != 0 ||
        pwrite(fd_, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size())) {
        const int error = errno;
        ::close(fd_);
        fd_ = -1;
        fail(path, "cannot write the lock file", error);
    }
}

RunLock::~RunLock() {
    if (fd_ < 0) return;
    // Emptied before the unlock, so a reader never sees a dead holder's pid
    // after a clean exit (after a crash it may: the lock is what counts).
    static_cast<void>(ftruncate(fd_, 0));
    ::close(fd_);
}

}  // namespace arena::store
