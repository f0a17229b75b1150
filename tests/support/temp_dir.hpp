#pragma once
// A fresh directory under the system's temporary directory for one test,
// removed with everything in it when the object goes.

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace arena::testing {

class TempDir {
  public:
    explicit TempDir(const std::string& prefix = "arena_test") {
        std::string pattern =
            (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("cannot create a directory like " + pattern);
        }
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    // Writes `content` to the file `name` in the directory; returns its path.
    [[nodiscard]] std::string write(
        const std::string& name, const std::string& content,
        std::filesystem::perms perms = std::filesystem::perms::owner_read |
                                       std::filesystem::perms::owner_write) const {
        const std::filesystem::path p = path_ / name;
        std::ofstream(p) << content;
        std::filesystem::permissions(p, perms);
        return p.string();
    }

  private:
    std::filesystem::path path_;
};

}  // namespace arena::testing
