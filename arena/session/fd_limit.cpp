#include "arena/session/fd_limit.hpp"

#include <sys/resource.h>

#include <fstream>

namespace arena::session {

OpenFileLimit raise_open_file_limit() {
    OpenFileLimit out;
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        out.unlimited = true;
        return out;
    }
    rlim_t target = limit.rlim_max;
    if (target == RLIM_INFINITY) {
        // setrlimit refuses more than fs.nr_open.
        std::uint64_t nr_open = 0;
        if (std::ifstream("/proc/sys/fs/nr_open") >> nr_open; nr_open > 0) target = nr_open;
    }
    if (target != RLIM_INFINITY && target > limit.rlim_cur) {
        rlimit raised = limit;
        raised.rlim_cur = target;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit.rlim_cur = target;
    }
    out.unlimited = limit.rlim_cur == RLIM_INFINITY;
    out.soft = static_cast<std::uint64_t>(limit.rlim_cur);
    out.hard = static_cast<std::uint64_t>(limit.rlim_max);
    return out;
}

}  // namespace arena::session
