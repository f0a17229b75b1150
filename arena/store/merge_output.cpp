#include "arena/store/merge_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#include "arena/store/merge.hpp"
#include "arena/store/results_store.hpp"

namespace arena::store {

NewOutput::NewOutput(std::filesystem::path out)
    : out_(std::move(out)), path_(out_.string() + ".merging") {
    if (out_.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(out_.parent_path(), ec);
        if (ec) {
            throw StoreError("cannot create the directory of " + out_.string() + ": " +
                             ec.message());
        }
    }
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) fail("cannot create " + path_.string());
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        ::close(fd_);
        fd_ = -1;
        if (error == EWOULDBLOCK) {
            throw MergeError(out_.string() + ": another arena merge is writing it (as " +
                             path_.string() + ")");
        }
        errno = error;
        fail("cannot lock " + path_.string());
    }
    // What a merge that was killed left: started again from nothing.
    if (::ftruncate(fd_, 0) != 0) fail("cannot truncate " + path_.string());
    std::error_code ec;
    for (const char* suffix : {"-journal", "-wal", "-shm"})
        std::filesystem::remove(path_.string() + suffix, ec);
}

NewOutput::~NewOutput() {
    if (fd_ < 0) return;
    std::error_code ec;
    std::filesystem::remove(path_, ec);
    ::close(fd_);
}

bool NewOutput::publish() {
    if (::fsync(fd_) != 0) fail("cannot write " + path_.string());
    if (::link(path_.c_str(), out_.c_str()) != 0) {
        if (errno == EEXIST) return false;
        // A file system without hard links: renamed, unless OUT.db is there.
        std::error_code ec;
        if (std::filesystem::exists(out_, ec)) return false;
        std::filesystem::rename(path_, out_, ec);
        if (ec)
            throw StoreError("cannot name " + path_.string() + " " + out_.string() + ": " +
                             ec.message());
    }
    // The name, durable too.
    const auto dir = out_.has_parent_path() ? out_.parent_path() : std::filesystem::path(".");
    if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
        (void)::fsync(d);
        ::close(d);
    }
    return true;
}

void NewOutput::fail(const std::string& what) {
    throw StoreError(what + ": " + std::strerror(errno));
}

}  // namespace arena::store
