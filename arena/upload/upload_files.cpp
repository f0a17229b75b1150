#include "arena/upload/upload_files.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "arena/upload/upload_names.hpp"

namespace arena::upload::detail {
namespace {

constexpr std::size_t kTempNameBytes = 32;  // of dest's name in the temporary folder's

std::string joined(std::span<const std::string> parts, std::size_t count) {
    std::string path;
    for (std::size_t i = 0; i < count; ++i)
        path += (i == 0 ? "" : "/") + parts[i];
    return path;
}

}  // namespace

Fd::~Fd() {
    if (fd_ >= 0) ::close(fd_);
}

Fd& Fd::operator=(Fd&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.release();
    }
    return *this;
}

std::string system_problem(const std::string& what, int error) {
    return what + ": " + std::strerror(error);
}

Fd open_folder(int root, std::span<const std::string> parts, std::string_view entry) {
    Fd current;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const int at = i == 0 ? root : current.get();
        const bool made = ::mkdirat(at, parts[i].c_str(), 0755) == 0;
        if (!made && errno != EEXIST) {
            throw Failure(system_problem("cannot make the folder of " + entry_text(entry), errno));
        }
        Fd next(::openat(at, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next.get() < 0) {
            if (errno == ENOTDIR || errno == ELOOP) {
                throw Refusal(entry_text(entry) + ": its folder " + shown(joined(parts, i + 1)) +
                              " is not a folder");
            }
            throw Failure(system_problem("cannot open the folder of " + entry_text(entry), errno));
        }
        // Not left to the umask: a bot's folders are readable by whoever runs it.
        if (made && ::fchmod(next.get(), 0755) != 0) {
            throw Failure(system_problem("cannot set the mode of a folder", errno));
        }
        current = std::move(next);
    }
    if (parts.empty()) {
        Fd same(::fcntl(root, F_DUPFD_CLOEXEC, 0));
        if (same.get() < 0) throw Failure(system_problem("cannot duplicate a descriptor", errno));
        return same;
    }
    return current;
}

Fd create_file(int folder, const std::string& name, std::string_view entry) {
    Fd fd(
        ::openat(folder, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() < 0) {
        if (errno == EEXIST) {
            throw Refusal(entry_text(entry) + ": something of that name is already there");
        }
        throw Failure(system_problem("cannot create the file of " + entry_text(entry), errno));
    }
    return fd;
}

void write_all(int fd, std::span<const std::byte> data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw Failure(system_problem("cannot write a file", n < 0 ? errno : EIO));
        data = data.subspan(static_cast<std::size_t>(n));
    }
}

void finish_file(int fd, bool executable) {
    if (::fchmod(fd, executable ? 0755 : 0644) != 0) {
        throw Failure(system_problem("cannot set the mode of a file", errno));
    }
}

TempFolder::TempFolder(const std::filesystem::path& dest) {
    const std::string leaf = dest.filename().string().substr(0, kTempNameBytes);
    const std::filesystem::path parent =
        dest.has_parent_path() ? dest.parent_path() : std::filesystem::path(".");
    std::string pattern = (parent / (".upload-" + leaf + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw Failure(
            system_problem("cannot make a temporary folder like " + shown(pattern), errno));
    }
    path_ = pattern;
}

TempFolder::~TempFolder() {
    if (kept_) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

void rename_new(const std::filesystem::path& from, const std::filesystem::path& to) {
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return;
    const int error = errno;
    if (error == EEXIST)
        throw Failure(shown(to.string()) + " appeared while the upload was unpacked");
    throw Failure(system_problem(
        "cannot rename " + shown(from.string()) + " to " + shown(to.string()), error));
}

}  // namespace arena::upload::detail
