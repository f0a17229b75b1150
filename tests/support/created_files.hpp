#pragma once
// Test helper: the names of the files created in a folder, watched with
// inotify for as long as the watch lives (to see that no WAL ever appears
// beside a database, say).

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>

namespace arena::testing {

// The names of the files created in a folder (inotify), for as long as it lives.
class CreatedFiles {
  public:
    explicit CreatedFiles(const std::filesystem::path& dir) {
        fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (fd_ < 0 || inotify_add_watch(fd_, dir.c_str(), IN_CREATE | IN_MOVED_TO) < 0) {
            if (fd_ >= 0) ::close(fd_);
            throw std::runtime_error("cannot watch " + dir.string());
        }
        thread_ = std::jthread([this](std::stop_token stop) { watch(stop); });
    }
    ~CreatedFiles() {
        thread_ = {};
        ::close(fd_);
    }
    CreatedFiles(const CreatedFiles&) = delete;
    CreatedFiles& operator=(const CreatedFiles&) = delete;

    [[nodiscard]] std::set<std::string> names() {
        std::lock_guard lock(mutex_);
        return names_;
    }

  private:
    void watch(const std::stop_token& stop) {
        alignas(inotify_event) std::array<char, 4096> buffer{};
        for (;;) {
            pollfd p{fd_, POLLIN, 0};
            ::poll(&p, 1, 20);
            const auto n = ::read(fd_, buffer.data(), buffer.size());
            for (ssize_t at = 0; n > 0 && at < n;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buffer.data() + at);
                if (event->len > 0) {
                    std::lock_guard lock(mutex_);
                    names_.insert(event->name);
                }
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            }
            // Stopped: once more, for what came meanwhile.
            if (stop.stop_requested() && n <= 0) return;
        }
    }

    int fd_ = -1;
    std::mutex mutex_;
    std::set<std::string> names_;
    std::jthread thread_;
};

}  // namespace arena::testing
