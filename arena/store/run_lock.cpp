#include "arena/store/run_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

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

// The byte of the database file a run locks (an open-file-description
// lock, fcntl F_OFD_SETLK): far past any byte SQLite locks (its locks lie
// at 1 GiB), so the two never meet, and unlike flock(2) such a lock works
// on NFS, where flock is emulated with byte-range locks of the whole file.
constexpr off_t kLockOffset = off_t{1} << 62;

struct flock lock_range(short type) {
    struct flock range {};
    range.l_type = type;
    range.l_whence = SEEK_SET;
    range.l_start = kLockOffset;
    range.l_len = 1;
    return range;
}

// The database files this process opened to lock, by device and inode, each
// opened once and never closed. Closing any descriptor of a file drops every
// POSIX lock the process holds on it (fcntl(2)), those of its SQLite
// connections among them: a connection of another process (the sqlite3
// shell, `arena league user add`) closing then finds the file unlocked and
// deletes its WAL and shared memory from under them (a league's server
// keeps its connections open from run to run, and takes this lock for each
// run). `held`: a RunLock of this process holds the file's byte, which an
// open-file-description lock on the one descriptor would not refuse it.
struct LockedFile {
    int fd = -1;
    bool held = false;
};

std::mutex& files_mutex() {
    static std::mutex m;
    return m;
}

std::map<std::pair<dev_t, ino_t>, LockedFile>& files() {
    static std::map<std::pair<dev_t, ino_t>, LockedFile> f;
    return f;
}

// The database's descriptor, its byte locked when `locked`; throws when it
// cannot be opened or locked for another reason than another's lock.
int lock_database_file(const std::filesystem::path& database, bool& locked) {
    const std::lock_guard guard(files_mutex());
    struct stat st {};
    auto it = files().end();
    if (::stat(database.c_str(), &st) == 0) it = files().find({st.st_dev, st.st_ino});
    if (it == files().end()) {
        const int fd = ::open(database.c_str(), O_RDWR | O_CLOEXEC);
        if (fd < 0 || ::fstat(fd, &st) != 0) fail(database, "cannot open it to lock it", errno);
        // Another name of a file opened before (replaced in between): the
        // new descriptor is kept too, never closed.
        it = files().insert_or_assign({st.st_dev, st.st_ino}, LockedFile{fd, false}).first;
    }
    LockedFile& file = it->second;
    locked = false;
    if (file.held) return file.fd;  // by another RunLock of this process
    struct flock range = lock_range(F_WRLCK);
    if (::fcntl(file.fd, F_OFD_SETLK, &range) == 0) {
        locked = file.held = true;
    } else if (errno != EAGAIN && errno != EACCES) {
        fail(database, "cannot lock", errno);
    }
    return file.fd;
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
    // The database file's own lock first: it holds through hard links too.
    db_fd_ = lock_database_file(database, file_locked_);
    const bool file_locked = file_locked_;
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0) {
        const int error = errno;
        release_database_file();
        fail(path, "cannot open the lock file", error);
    }
    if (!file_locked || flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int error = file_locked ? errno : EWOULDBLOCK;
        // Who holds it, as the holder wrote it: only when it holds this
        // name's lock file too. Else it reached the file by another name (a
        // hard link), and what this lock file says is stale.
        const bool holder_here = file_locked || flock(fd_, LOCK_SH | LOCK_NB) != 0;
        const std::string holder = holder_here ? read_holder(fd_) : std::string();
        ::close(fd_);
        fd_ = -1;
        release_database_file();
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
        release_database_file();
        fail(path, "cannot write the lock file", error);
    }
}

RunLock::~RunLock() {
    if (fd_ < 0) return;
    // Emptied before the unlock, so a reader never sees a dead holder's pid
    // after a clean exit (after a crash it may: the lock is what counts).
    static_cast<void>(ftruncate(fd_, 0));
    ::close(fd_);
    release_database_file();
}

void RunLock::release_database_file() {
    if (!file_locked_) return;
    file_locked_ = false;
    struct flock range = lock_range(F_UNLCK);
    static_cast<void>(::fcntl(db_fd_, F_OFD_SETLK, &range));
    const std::lock_guard guard(files_mutex());
    for (auto& [key, file] : files())
        if (file.fd == db_fd_) file.held = false;
}

}  // namespace arena::store
