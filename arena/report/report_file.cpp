#include "arena/report/report_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

namespace arena::report {
namespace {

namespace fs = std::filesystem;

// The temporary file, removed unless committed.
class WholeFile {
  public:
    explicit WholeFile(fs::path target) : target_(std::move(target)) {
        temporary_ = target_;
        temporary_ += ".tmp-" + std::to_string(::getpid());
        out_.open(temporary_, std::ios::binary | std::ios::trunc);
        if (!out_) problem_ = std::strerror(errno);
    }
    ~WholeFile() {
        if (!committed_) {
            std::error_code ec;
            fs::remove(temporary_, ec);
        }
    }
    WholeFile(const WholeFile&) = delete;
    WholeFile& operator=(const WholeFile&) = delete;

    [[nodiscard]] const std::string& problem() const { return problem_; }
    std::ostream& stream() { return out_; }

    // False, with problem() set, when the file could not be written whole.
    bool commit() {
        out_.flush();
        if (!out_) {
            problem_ = std::strerror(errno != 0 ? errno : EIO);
            return false;
        }
        out_.close();
        std::error_code ec;
        fs::rename(temporary_, target_, ec);
        if (ec) {
            problem_ = ec.message();
            return false;
        }
        committed_ = true;
        return true;
    }

  private:
    fs::path target_, temporary_;
    std::ofstream out_;
    std::string problem_;
    bool committed_ = false;
};

}  // namespace

std::string write_whole_file(const std::filesystem::path& target,
                             const std::function<void(std::ostream&)>& write) {
    WholeFile file(target);
    if (!file.problem().empty()) return file.problem();
    write(file.stream());
    if (!file.commit()) return file.problem();
    return "";
}

}  // namespace arena::report
