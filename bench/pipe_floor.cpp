// pipe_floor: the physical floor of a move cycle. One parent and one child
// process exchange N line round trips over two pipes with plain read(2) and
// write(2): the parent writes a `go` line, the child answers a `move` line.
// Nothing else happens, so the wall time per round trip is what any arena
// must pay at least per move on this machine.
//
// With --poll the parent waits in ppoll(2) with a timeout before each read,
// as a judge with a deadline must.
//
//   pipe_floor [--round-trips N] [--poll]     prints one JSON object:
//   {"round_trips":N,"wall_us_per_round_trip":..,"parent_cpu_us_per_round_trip":..}

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

// Reads up to and including the next '\n' (lines here are short and never
// split across two answers). False at end of input.
bool read_line(int fd, char* buf, std::size_t size, bool poll_first) {
    std::size_t used = 0;
    while (used < size) {
        if (poll_first) {
            pollfd p{fd, POLLIN, 0};
            const timespec timeout{10, 0};
            if (ppoll(&p, 1, &timeout, nullptr) != 1) return false;
        }
        const ssize_t n = read(fd, buf + used, size - used);
        if (n <= 0) return false;
        used += static_cast<std::size_t>(n);
        if (buf[used - 1] == '\n') return true;
    }
    return false;
}

bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = write(fd, text.data(), text.size());
        if (n <= 0) return false;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

double cpu_us(const rusage& r) {
    return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 +
           static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

}  // namespace

int main(int argc, char** argv) {
    long round_trips = 100'000;
    bool poll_first = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--round-trips") == 0 && i + 1 < argc) {
            round_trips = std::strtol(argv[++i], nullptr, 10);
        } else if (std::strcmp(argv[i], "--poll") == 0) {
            poll_first = true;
        } else {
            std::fprintf(stderr, "usage: pipe_floor [--round-trips N] [--poll]\n");
            return 2;
        }
    }
    if (round_trips < 1) {
        std::fprintf(stderr, "pipe_floor: --round-trips must be at least 1\n");
        return 2;
    }
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) {
        std::perror("pipe_floor: pipe");
        return 1;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        std::perror("pipe_floor: fork");
        return 1;
    }
    char buf[256];
    if (pid == 0) {
        close(to_child[1]);
        close(from_child[0]);
        while (read_line(to_child[0], buf, sizeof buf, false)) {
            if (!write_all(from_child[1], "move 1\n")) break;
        }
        _exit(0);
    }
    close(to_child[0]);
    close(from_child[1]);
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < round_trips; ++i) {
        if (!write_all(to_child[1], "go move_ms=1000\n") ||
            !read_line(from_child[0], buf, sizeof buf, poll_first)) {
            std::fprintf(stderr, "pipe_floor: the child stopped answering\n");
            return 1;
        }
    }
    const auto wall = std::chrono::steady_clock::now() - start;
    getrusage(RUSAGE_SELF, &after);
    close(to_child[1]);
    waitpid(pid, nullptr, 0);
    const double wall_us = std::chrono::duration<double, std::micro>(wall).count();
    std::printf(
        "{\"round_trips\":%ld,\"wall_us_per_round_trip\":%.3f,"
        "\"parent_cpu_us_per_round_trip\":%.3f}\n",
        round_trips, wall_us / static_cast<double>(round_trips),
        (cpu_us(after) - cpu_us(before)) / static_cast<double>(round_trips));
    return 0;
}
