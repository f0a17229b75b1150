#pragma once
// Test helper: a fresh tmpfs mounted at a new temporary folder for one test,
// as `mount -t tmpfs -o size=64m tmpfs DIR` would, unmounted and removed when
// the object goes (also when the test fails an assertion). A second mount
// point, of another filesystem than the one the test's other files are on:
// for what the arena does with a database on a file system of its own
// (journal modes, cluster workers' shared folders).
//
// Mounting needs root (CAP_SYS_ADMIN); tests skip without it:
//
//     std::string why;
//     const auto scratch = ScratchMount::make(why);
//     if (!scratch) GTEST_SKIP() << why;
//     const auto db = scratch->path() / "results.db";
//
// A test process that crashes leaves its mount behind (it is named
// /tmp/arena_scratch_mount_XXXXXX; `findmnt -t tmpfs` lists it and `umount`
// removes it).

#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace arena::testing {

class ScratchMount {
  public:
    // Mounts a tmpfs of `size` (tmpfs's size= option: "64m") at a new folder
    // under the system's temporary directory. Throws std::runtime_error,
    // saying why, when it cannot (the folder is then removed).
    explicit ScratchMount(const std::string& size = "64m",
                          const std::string& prefix = "arena_scratch_mount") {
        std::string pattern =
            (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("cannot create a directory like " + pattern);
        path_ = pattern;
        const std::string options = "size=" + size + ",mode=0755";
        if (::mount("tmpfs", path_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0) {
            const int error = errno;
            std::error_code ec;
            std::filesystem::remove(path_, ec);
            throw std::runtime_error("cannot mount a tmpfs (" + options + ") at " + path_.string() +
                                     ": " + std::strerror(error));
        }
    }

    // The mount, or nullptr with `why` saying why there is none: not root,
    // or mount(2) refused (a container without CAP_SYS_ADMIN).
    [[nodiscard]] static std::unique_ptr<ScratchMount> make(std::string& why,
                                                            const std::string& size = "64m") {
        if (::geteuid() != 0) {
            why = "mounting a tmpfs needs root (this test runs as uid " +
                  std::to_string(::geteuid()) + ")";
            return nullptr;
        }
        try {
            return std::make_unique<ScratchMount>(size);
        } catch (const std::runtime_error& e) {
            why = e.what();
            return nullptr;
        }
    }

    // Unmounts it, everything in it gone with it, and removes the folder. A
    // process that still has a file open there (a child the test could not
    // reap) makes the mount busy: after a few tries it is detached (lazily
    // unmounted: gone from the tree now, freed when the last file closes).
    ~ScratchMount() {
        bool unmounted = false;
        for (int attempt = 0; attempt < 20 && !unmounted; ++attempt) {
            unmounted = ::umount2(path_.c_str(), 0) == 0 || errno == EINVAL;  // EINVAL: not mounted
            if (!unmounted) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (!unmounted) ::umount2(path_.c_str(), MNT_DETACH);
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    ScratchMount(const ScratchMount&) = delete;
    ScratchMount& operator=(const ScratchMount&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace arena::testing
