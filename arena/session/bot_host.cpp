#include "arena/session/bot_host.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "arena/session/process.hpp"

namespace arena::session {
namespace {

// Whether a BotHost is alive in this process: not the host's state (it
// holds none of that), only what makes a second one at once an error.
std::atomic<bool> host_alive{false};

}  // namespace

BotHost::Claim::Claim() {
    if (host_alive.exchange(true)) {
        throw std::logic_error(
            "session::BotHost: another host is alive in this process; one host runs every bot "
            "of a process at a time (its reaper would kill the other host's bots)");
    }
}

BotHost::Claim::~Claim() {
    host_alive.store(false);
}

BotHost::BotHost() = default;

BotHost::~BotHost() {
    if (const int alive = processes_.load(); alive != 0) {
        // Their Process objects would use this host once it is gone.
        std::fprintf(stderr,
                     "arena: session::BotHost destroyed while %d bot process(es) it started "
                     "are alive: the host must outlive them\n",
                     alive);
        std::abort();
    }
}

std::filesystem::path BotHost::make_scratch(const std::string& bot) {
    return run_dir_.make_scratch(bot);
}

std::filesystem::path BotHost::run_dir() const {
    return run_dir_.path();
}

BotHost::RunDir::~RunDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::filesystem::path BotHost::RunDir::make_scratch(const std::string& bot) {
    const std::lock_guard lock(mutex_);
    if (path_.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern =
            std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/arena-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw SpawnError("cannot create a temporary directory in '" + pattern +
                             "': " + std::strerror(errno));
        }
        path_ = pattern;
    }
    auto dir = path_ / (bot + "-" + std::to_string(++serial_));
    std::error_code ec;
    std::filesystem::create_directory(dir, ec);
    if (ec) {
        throw SpawnError("cannot create the working directory '" + dir.string() +
                         "': " + ec.message());
    }
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ec);
    return dir;
}

std::filesystem::path BotHost::RunDir::path() const {
    const std::lock_guard lock(mutex_);
    return path_;
}

}  // namespace arena::session
