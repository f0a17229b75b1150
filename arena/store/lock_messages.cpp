#include "arena/store/lock_messages.hpp"

#include <ostream>
#include <utility>

namespace arena::store {

std::string lock_wait_line(std::string_view who, const LockWait& wait) {
    const auto seconds =
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(wait.waited).count());
    if (wait.over)
        return std::string(who) + ": " + wait.file.string() + " is free again after " + seconds +
               " s; going on";
    return std::string(who) + ": " + wait.file.string() +
           " is locked by another program; still waiting (" + seconds + " s)";
}

LockWaiting waiting_as_long_as_locked(std::ostream& err, std::string who, std::stop_token stop) {
    LockWaiting waiting;
    waiting.limit = std::nullopt;
    waiting.stop = std::move(stop);
    waiting.report = [&err, who = std::move(who)](const LockWait& wait) {
        err << lock_wait_line(who, wait) << "\n";
    };
    return waiting;
}

}  // namespace arena::store
