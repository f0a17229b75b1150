#pragma once
// Writing an upload's files (internal to arena_upload): every folder and
// file is made relative to an open folder, one name at a time, never
// following a symbolic link (O_NOFOLLOW) and never opening what exists
// (O_EXCL), so nothing can be written outside the temporary folder even
// if something else put a link into it.

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace arena::upload::detail {

// An open file descriptor, closed with the object.
class Fd {
  public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd();
    Fd(Fd&& other) noexcept : fd_(other.release()) {}
    Fd& operator=(Fd&& other) noexcept;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;

    [[nodiscard]] int get() const { return fd_; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

  private:
    int fd_ = -1;
};

// The folder `parts` under `root` (creating each missing one, mode 0755),
// open. Throws Refusal, naming `entry`, when a part is not a folder (a file,
// or a link someone else made), and Failure when a system call fails.
[[nodiscard]] Fd open_folder(int root, std::span<const std::string> parts, std::string_view entry);

// The new file `name` in the open folder `folder`, open for writing (mode
// 0600 until finish_file). Throws Refusal, naming `entry`, when something
// of that name exists, and Failure when the system call fails.
[[nodiscard]] Fd create_file(int folder, const std::string& name, std::string_view entry);

// Writes all of `data` to `fd`; throws Failure.
void write_all(int fd, std::span<const std::byte> data);

// Gives the written file its mode: 0755 when `executable`, else 0644.
// Throws Failure.
void finish_file(int fd, bool executable);

// A new temporary folder beside `dest` (".upload-<dest's name, cut>-XXXXXX",
// mode 0700), removed with everything in it when the object goes, unless it
// was kept. Throws Failure.
class TempFolder {
  public:
    explicit TempFolder(const std::filesystem::path& dest);
    ~TempFolder();
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    void keep() { kept_ = true; }

  private:
    std::filesystem::path path_;
    bool kept_ = false;
};

// Renames the folder `from` to `to`, which must not exist (renameat2 with
// RENAME_NOREPLACE, so that a `to` made meanwhile is never replaced).
// Throws Failure.
void rename_new(const std::filesystem::path& from, const std::filesystem::path& to);

// "what: strerror(errno)", for a Failure.
[[nodiscard]] std::string system_problem(const std::string& what, int error);

}  // namespace arena::upload::detail
