// misbehave: a TEST FIXTURE. It plays random legal moves (the same choice as
// `random --seed N`) and misbehaves on command, so the arena's handling of
// every kind of broken bot can be tested against a real process.
//
//   misbehave [--mode M] [--at-ply N] [--sleep-ms N] [--flood-mb N] [--seed N] [--log FILE]
//
//   --mode M       what goes wrong (default none):
//     none              plays normally
//     crash             raises SIGSEGV
//     abort             calls abort() (SIGABRT)
//     exit              exits with code 3
//     sleep             sleeps --sleep-ms, then answers a legal move
//     hang              never answers (sleeps forever)
//     illegal           answers a move that parses but is illegal here: a full
//                       column, an occupied cell, a Reversi cell that flips
//                       nothing (tried first), or `pass` while moves exist.
//                       When no such move exists (an empty board), it answers
//                       one just off the board (connect4 column cols+1, or a
//                       gomoku/reversi row past the last) and says so on stderr.
//     garbage           prints the line `hello arena` instead of a move
//     bad-notation      answers `move zz99`
//     no-newline        writes `move <legal>` without the newline, then hangs
//     flood-info        prints `info ...` lines forever, never answers
//     flood-stderr      writes --flood-mb MiB to stderr, then answers legally
//     endless-line      writes one line that never ends (no newline, forever)
//     close-stdout      closes its stdout and sleeps forever
//     handshake-exit    on `arena 1`, exits with code 3 without `ready`
//     handshake-hang    on `arena 1`, never answers
//     crash-after-move  prints a legal move, then raises SIGSEGV at once
//     fork-child        forks a child that keeps stdout open and sleeps 600 s,
//                       then plays normally
//     ignore-quit       plays normally, ignores SIGTERM, and on `quit` (or end
//                       of input) keeps running forever (only SIGKILL ends it)
//     daemon            double-forks a grandchild that calls setsid(), closes
//                       its standard descriptors and sleeps 600 s, then plays
//                       normally
//     setsid            forks a child that calls setsid() and sleeps 600 s
//                       holding the pipes, then plays normally
//     close-stdin       sends its move, closes its stdin, and sleeps forever
//     stop-self         stops itself with SIGSTOP instead of answering
//     ponder            from --at-ply on: sends `info cpu_ms=N` (its CPU time
//                       so far), its move, then burns CPU until its input
//                       has something to read (the next `go`, `end`, `quit`);
//                       after `end` it burns CPU until the next line too
//     memory-hog        allocates and touches 64 MiB blocks without end
//                       (a safety stop at 8 GiB, then it hangs)
//     fork-bomb         forks children that sleep, without end (a safety
//                       stop at 4000, then it hangs)
//     big-file          writes big.bin in its scratch directory ($TMPDIR) without end
//                       (a safety stop at 4 GiB, then it hangs)
//     touch-memory      once per process: reserves --reserve-gb GiB of address
//                       space it never touches (PROT_NONE), allocates and
//                       touches --touch-mb MiB and keeps them, pauses
//                       --sleep-ms, then answers legally (later moves too)
//     touch-memory-child  the same touching in a forked child, which keeps
//                       the memory and sleeps; the bot answers legally once
//                       the child is done, and hangs if the child died
//     fork-count        forks children that sleep until a fork fails (a
//                       safety stop at 4000), writing `misbehave: fork N`
//                       on stderr after each, then `misbehave: N forks
//                       succeeded, then: <why>`, then hangs
//     tty               opens its controlling terminal (/dev/tty); if that
//                       works, writes `misbehave: took the terminal` to it
//                       and answers `hello arena` (a protocol fault), else
//                       plays normally
//     escape-move       writes a stderr line and answers a move line, both
//                       holding terminal escapes (ESC ]0;TITLE BEL ESC[1;31m):
//                       what an arena must never print raw
//     double-move       answers every go from --at-ply on with its move line
//                       twice, in two writes (one `move` too many: the second
//                       is stale by the time the arena reads it)
//     late-double-move  the same, with a pause of --sleep-ms before the second
//                       line and another before it reads its input again: the
//                       second line comes while the next `go` waits unread
//     no-keyword        answers its move without the keyword (`4`, not `move 4`)
//   --at-ply N     misbehave on the first `go` of each game whose position has
//                  at least N moves (default 0); earlier moves are normal. The
//                  handshake modes and ignore-quit do not use it.
//                  Exception: --mode sleep delays every move from then on, and
//                  the double-move modes double every move from then on.
//   --sleep-ms N   the delay of --mode sleep, the pauses of touch-memory and
//                  late-double-move (default 1000)
//   --touch-mb N   MiB touched by the touch-memory modes (default 100)
//   --reserve-gb N GiB reserved by --mode touch-memory (default 0)
//   --flood-mb N   MiB written by --mode flood-stderr (default 64)
//   --seed N       seed of the random moves (default 1)
//   --log FILE     append every line received from the arena to FILE
//
// Raw misbehaviour goes through write(2) so no stdio buffer can hide or delay
// it. "Forever" is pause() in a loop: the process blocks and SIGKILL ends it.

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "bots/common/bot_main.hpp"
#include "bots/common/position_seed.hpp"

namespace {

using arena::games::Move;

enum class Mode : std::uint8_t {
    kNone,
    kCrash,
    kAbort,
    kExit,
    kSleep,
    kHang,
    kIllegal,
    kGarbage,
    kBadNotation,
    kNoNewline,
    kFloodInfo,
    kFloodStderr,
    kEndlessLine,
    kCloseStdout,
    kHandshakeExit,
    kHandshakeHang,
    kCrashAfterMove,
    kForkChild,
    kIgnoreQuit,
    kDaemon,
    kSetsid,
    kCloseStdin,
    kStopSelf,
    kPonder,
    kMemoryHog,
    kForkBomb,
    kBigFile,
    kTouchMemory,
    kTouchMemoryChild,
    kForkCount,
    kTty,
    kEscapeMove,
    kDoubleMove,
    kLateDoubleMove,
    kNoKeyword,
};

constexpr std::pair<std::string_view, Mode> kModes[] = {
    {"none", Mode::kNone},
    {"crash", Mode::kCrash},
    {"abort", Mode::kAbort},
    {"exit", Mode::kExit},
    {"sleep", Mode::kSleep},
    {"hang", Mode::kHang},
    {"illegal", Mode::kIllegal},
    {"garbage", Mode::kGarbage},
    {"bad-notation", Mode::kBadNotation},
    {"no-newline", Mode::kNoNewline},
    {"flood-info", Mode::kFloodInfo},
    {"flood-stderr", Mode::kFloodStderr},
    {"endless-line", Mode::kEndlessLine},
    {"close-stdout", Mode::kCloseStdout},
    {"handshake-exit", Mode::kHandshakeExit},
    {"handshake-hang", Mode::kHandshakeHang},
    {"crash-after-move", Mode::kCrashAfterMove},
    {"fork-child", Mode::kForkChild},
    {"ignore-quit", Mode::kIgnoreQuit},
    {"daemon", Mode::kDaemon},
    {"setsid", Mode::kSetsid},
    {"close-stdin", Mode::kCloseStdin},
    {"stop-self", Mode::kStopSelf},
    {"ponder", Mode::kPonder},
    {"memory-hog", Mode::kMemoryHog},
    {"fork-bomb", Mode::kForkBomb},
    {"big-file", Mode::kBigFile},
    {"touch-memory", Mode::kTouchMemory},
    {"touch-memory-child", Mode::kTouchMemoryChild},
    {"fork-count", Mode::kForkCount},
    {"tty", Mode::kTty},
    {"escape-move", Mode::kEscapeMove},
    {"double-move", Mode::kDoubleMove},
    {"late-double-move", Mode::kLateDoubleMove},
    {"no-keyword", Mode::kNoKeyword},
};

struct Options {
    Mode mode = Mode::kNone;
    std::uint64_t at_ply = 0;
    std::uint64_t sleep_ms = 1000;
    std::uint64_t flood_mb = 64;
    std::uint64_t touch_mb = 100;
    std::uint64_t reserve_gb = 0;
    std::uint64_t seed = 1;
    std::string log_path;
};

// Writes all of `data` to `fd`; false on an error (a closed pipe, ...).
bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

[[noreturn]] void sleep_forever() {
    for (;;) {
        ::pause();
    }
}

// Crashing on purpose should not litter the tests' directories with cores.
void no_core_dump() {
    const rlimit none{0, 0};
    ::setrlimit(RLIMIT_CORE, &none);
}

[[noreturn]] void segfault() {
    no_core_dump();
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
    std::abort();  // not reached
}

// A move text that parses in `state` but is illegal there, or, when there is
// none, one just off the board (which does not parse). Tries columns and
// cells first (a full column, an occupied cell, a Reversi cell that flips
// nothing), then `pass`.
std::string illegal_move_text(const arena::games::State& state) {
    std::vector<std::string> numbers;
    std::vector<std::string> cells;
    for (int n = 1; n <= 26; ++n) {
        numbers.push_back(std::to_string(n));
    }
    for (char letter = 'a'; letter <= 'z'; ++letter) {
        for (int row = 1; row <= 26; ++row) {
            cells.push_back(letter + std::to_string(row));
        }
    }
    std::vector<std::string> candidates = numbers;
    candidates.insert(candidates.end(), cells.begin(), cells.end());
    candidates.emplace_back("pass");
    for (const auto& text : candidates) {
        const auto move = state.parse_move(text);
        if (move && !state.is_legal(*move)) return text;
    }
    // Nothing parseable is illegal: go one past the last column or row.
    const auto parses = [&](const std::string& text) { return state.parse_move(text).has_value(); };
    std::string off_board = "zz99";
    if (state.parse_move("1")) {
        const auto it = std::find_if_not(numbers.begin(), numbers.end(), parses);
        if (it != numbers.end()) off_board = *it;
    } else if (state.parse_move("a1")) {
        for (int row = 1; row <= 99; ++row) {
            if (!parses("a" + std::to_string(row))) {
                off_board = "a" + std::to_string(row);
                break;
            }
        }
    }
    std::cerr << "misbehave: no parseable illegal move at ply " << state.ply() << "; sending "
              << off_board << '\n';
    return off_board;
}

class MisbehaveEngine : public arena::bots::Engine {
  public:
    MisbehaveEngine(Options options, int log_fd) : options_(std::move(options)), log_fd_(log_fd) {}

    void on_line(std::string_view line) override {
        if (log_fd_ >= 0) write_all(log_fd_, std::string(line) + '\n');
        const auto command = arena::protocol::parse_arena_command(line);
        if (!command) return;
        if (std::holds_alternative<arena::protocol::Hello>(*command)) {
            if (options_.mode == Mode::kHandshakeExit) std::exit(3);
            if (options_.mode == Mode::kHandshakeHang) sleep_forever();
        }
        if (std::holds_alternative<arena::protocol::Quit>(*command) &&
            options_.mode == Mode::kIgnoreQuit) {
            sleep_forever();
        }
        if (std::holds_alternative<arena::protocol::End>(*command) &&
            options_.mode == Mode::kPonder) {
            ponder();  // between games
        }
    }

    void new_game(const arena::games::Game& /*game*/, int /*player*/) override { done_ = false; }

    [[nodiscard]] Move choose(const arena::games::State& state, const arena::protocol::Go& /*go*/,
                              const arena::bots::InfoSink& /*info*/) override {
        // The same choice as `random --seed N` in this position.
        const std::vector<Move> moves = state.legal_moves();
        std::mt19937_64 rng(arena::bots::position_seed(options_.seed, state));
        const Move move = moves[static_cast<std::size_t>(rng() % moves.size())];
        if (done_ || static_cast<std::uint64_t>(state.ply()) < options_.at_ply) return move;
        done_ = options_.mode != Mode::kSleep && options_.mode != Mode::kPonder &&
                options_.mode != Mode::kDoubleMove && options_.mode != Mode::kLateDoubleMove;
        return misbehave(state, move);
    }

  private:
    Move misbehave(const arena::games::State& state, Move move) {
        const std::string move_line = "move " + state.format_move(move);
        switch (options_.mode) {
            case Mode::kNone:
            case Mode::kHandshakeExit:
            case Mode::kHandshakeHang:
            case Mode::kIgnoreQuit:
                return move;
            case Mode::kCrash:
                segfault();
            case Mode::kAbort:
                no_core_dump();
                std::abort();
            case Mode::kExit:
                std::exit(3);
            case Mode::kSleep:
                std::this_thread::sleep_for(std::chrono::milliseconds(options_.sleep_ms));
                return move;
            case Mode::kHang:
                sleep_forever();
            case Mode::kIllegal:
                write_all(STDOUT_FILENO, "move " + illegal_move_text(state) + '\n');
                return arena::bots::kNoMove;
            case Mode::kGarbage:
                write_all(STDOUT_FILENO, "hello arena\n");
                return arena::bots::kNoMove;
            case Mode::kBadNotation:
                write_all(STDOUT_FILENO, "move zz99\n");
                return arena::bots::kNoMove;
            case Mode::kNoNewline:
                write_all(STDOUT_FILENO, move_line);
                sleep_forever();
            case Mode::kFloodInfo:
                flood_info();
            case Mode::kFloodStderr:
                flood_stderr();
                return move;
            case Mode::kEndlessLine:
                endless_line();
            case Mode::kCloseStdout:
                ::close(STDOUT_FILENO);
                sleep_forever();
            case Mode::kCrashAfterMove:
                write_all(STDOUT_FILENO, move_line + '\n');
                segfault();
            case Mode::kForkChild:
                fork_child();
                return move;
            case Mode::kDaemon:
                daemonize();
                return move;
            case Mode::kSetsid:
                setsid_child();
                return move;
            case Mode::kCloseStdin:
                // Closed before the move is sent, so the arena's next write
                // fails however soon it comes.
                ::close(STDIN_FILENO);
                write_all(STDOUT_FILENO, move_line + '\n');
                sleep_forever();
            case Mode::kStopSelf:
                std::raise(SIGSTOP);
                sleep_forever();  // after SIGCONT: still no answer
            case Mode::kPonder:
                write_all(STDOUT_FILENO,
                          "info cpu_ms=" + std::to_string(cpu_ms()) + '\n' + move_line + '\n');
                ponder();
                return arena::bots::kNoMove;
            case Mode::kMemoryHog:
                memory_hog();
            case Mode::kForkBomb:
                fork_bomb();
            case Mode::kBigFile:
                big_file();
            case Mode::kTouchMemory:
                touch_memory();
                return move;
            case Mode::kTouchMemoryChild:
                touch_memory_in_child();
                return move;
            case Mode::kForkCount:
                fork_count();
            case Mode::kTty:
                if (!take_terminal()) return move;
                write_all(STDOUT_FILENO, "hello arena\n");
                return arena::bots::kNoMove;
            case Mode::kEscapeMove:
                write_all(STDERR_FILENO, "misbehave: \x1b]0;TITLE\x07\x1b[1;31m\n");
                write_all(STDOUT_FILENO, "move \x1b]0;TITLE\x07\x1b[1;31m\n");
                return arena::bots::kNoMove;
            case Mode::kDoubleMove:
                write_all(STDOUT_FILENO, move_line + '\n');
                write_all(STDOUT_FILENO, move_line + '\n');
                return arena::bots::kNoMove;
            case Mode::kNoKeyword:
                write_all(STDOUT_FILENO, state.format_move(move) + '\n');
                return arena::bots::kNoMove;
            case Mode::kLateDoubleMove:
                write_all(STDOUT_FILENO, move_line + '\n');
                std::this_thread::sleep_for(std::chrono::milliseconds(options_.sleep_ms));
                write_all(STDOUT_FILENO, move_line + '\n');
                std::this_thread::sleep_for(std::chrono::milliseconds(options_.sleep_ms));
                return arena::bots::kNoMove;
        }
        return move;
    }

    // CPU time (user + system) of this process so far.
    static long long cpu_ms() {
        rusage usage{};
        ::getrusage(RUSAGE_SELF, &usage);
        const auto ms = [](const timeval& t) {
            return static_cast<long long>(t.tv_sec) * 1000 + t.tv_usec / 1000;
        };
        return ms(usage.ru_utime) + ms(usage.ru_stime);
    }

    // Busy until stdin has something to read: in the pipe, or already read
    // ahead into std::cin's buffer (several lines can arrive at once).
    static void ponder() {
        volatile std::uint64_t sink = 0;
        for (;;) {
            if (std::cin.rdbuf()->in_avail() > 0) return;
            pollfd fd{STDIN_FILENO, POLLIN, 0};
            if (::poll(&fd, 1, 0) != 0) return;
            for (int i = 0; i < 100'000; ++i)
                sink = sink * 6364136223846793005ULL + 1;
        }
    }

    static void daemonize() {
        const pid_t child = ::fork();
        if (child < 0) {
            std::cerr << "misbehave: fork: " << std::strerror(errno) << '\n';
            return;
        }
        if (child == 0) {
            if (::fork() == 0) {
                ::setsid();
                const int null = ::open("/dev/null", O_RDWR);
                for (int fd = 0; fd <= 2; ++fd)
                    ::dup2(null, fd);
                std::this_thread::sleep_for(std::chrono::seconds(600));
            }
            ::_exit(0);
        }
        while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
        }
    }

    static void setsid_child() {
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::cerr << "misbehave: fork: " << std::strerror(errno) << '\n';
        } else if (pid == 0) {
            ::setsid();
            std::this_thread::sleep_for(std::chrono::seconds(600));
            ::_exit(0);
        }
    }

    [[noreturn]] static void memory_hog() {
        no_core_dump();
        constexpr std::size_t kBlock = std::size_t{64} << 20;
        std::vector<char*> blocks;
        for (std::size_t total = 0; total < (std::size_t{8} << 30); total += kBlock) {
            char* block = new char[kBlock];  // std::bad_alloc at the limit: abort
            std::memset(block, 1, kBlock);
            blocks.push_back(block);
        }
        std::cerr << "misbehave: memory-hog reached its safety stop\n";
        sleep_forever();
    }

    [[noreturn]] static void fork_bomb() {
        for (int i = 0; i < 4000; ++i) {
            const pid_t pid = ::fork();
            if (pid == 0) sleep_forever();
            if (pid < 0) {
                std::cerr << "misbehave: fork: " << std::strerror(errno) << '\n';
                break;
            }
        }
        sleep_forever();
    }

    // Touches --touch-mb MiB (kept for good), once per process.
    void touch_memory() {
        if (touched_) return;
        touched_ = true;
        if (options_.reserve_gb > 0) {
            const void* reserved = ::mmap(nullptr, options_.reserve_gb << 30, PROT_NONE,
                                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (reserved == MAP_FAILED)
                std::cerr << "misbehave: reserving " << options_.reserve_gb
                          << " GiB: " << std::strerror(errno) << '\n';
        }
        touch(options_.touch_mb);
        std::this_thread::sleep_for(std::chrono::milliseconds(options_.sleep_ms));
    }

    static void touch(std::uint64_t mb) {
        no_core_dump();
        const std::size_t bytes = mb << 20;
        void* block =
            ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (block == MAP_FAILED) {
            std::cerr << "misbehave: allocating " << mb << " MiB: " << std::strerror(errno) << '\n';
            std::abort();
        }
        std::memset(block, 1, bytes);
    }

    void touch_memory_in_child() {
        if (touched_) return;
        touched_ = true;
        int done[2];
        if (::pipe(done) != 0) return;
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::cerr << "misbehave: fork: " << std::strerror(errno) << '\n';
            return;
        }
        if (pid == 0) {
            ::close(done[0]);
            touch(options_.touch_mb);
            write_all(done[1], "y");
            sleep_forever();
        }
        ::close(done[1]);
        char byte = 0;
        ssize_t n = 0;
        while ((n = ::read(done[0], &byte, 1)) < 0 && errno == EINTR) {
        }
        ::close(done[0]);
        if (n != 1) {
            std::cerr << "misbehave: the child touching memory died\n";
            sleep_forever();
        }
    }

    [[noreturn]] static void fork_count() {
        int forks = 0;
        std::string why = "the safety stop";
        for (; forks < 4000; ++forks) {
            const pid_t pid = ::fork();
            if (pid == 0) sleep_forever();
            if (pid < 0) {
                why = std::strerror(errno);
                break;
            }
            // Each success at once: the arena may kill the bot as soon as a
            // fork fails, before the summary below is written.
            write_all(STDERR_FILENO, "misbehave: fork " + std::to_string(forks + 1) + "\n");
        }
        write_all(STDERR_FILENO,
                  "misbehave: " + std::to_string(forks) + " forks succeeded, then: " + why + "\n");
        sleep_forever();
    }

    // True if it could open and write to its controlling terminal.
    static bool take_terminal() {
        const int fd = ::open("/dev/tty", O_RDWR | O_CLOEXEC);
        if (fd < 0) return false;
        const bool wrote = write_all(fd, "misbehave: took the terminal\n");
        ::close(fd);
        return wrote;
    }

    [[noreturn]] static void big_file() {
        const char* tmp = std::getenv("TMPDIR");
        const std::string path =
            std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/big.bin";
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) std::cerr << "misbehave: " << path << ": " << std::strerror(errno) << '\n';
        const std::string chunk(std::size_t{1} << 20, 'x');
        for (int i = 0; fd >= 0 && i < 4096; ++i) {
            if (!write_all(fd, chunk)) {
                std::cerr << "misbehave: write: " << std::strerror(errno) << '\n';
                break;
            }
        }
        sleep_forever();
    }

    [[noreturn]] static void flood_info() {
        std::string batch;
        for (std::uint64_t n = 0;; ++n) {
            batch += "info flood " + std::to_string(n) + '\n';
            if (batch.size() >= 4096) {
                if (!write_all(STDOUT_FILENO, batch)) sleep_forever();
                batch.clear();
            }
        }
    }

    void flood_stderr() const {
        // 1 MiB of 64-byte lines.
        std::string line = "misbehave: flooding stderr ";
        line.resize(63, '.');
        line += '\n';
        std::string chunk;
        while (chunk.size() < (std::size_t{1} << 20))
            chunk += line;
        for (std::uint64_t i = 0; i < options_.flood_mb; ++i) {
            if (!write_all(STDERR_FILENO, chunk)) break;
        }
    }

    [[noreturn]] static void endless_line() {
        write_all(STDOUT_FILENO, "info ");
        const std::string chunk(1 << 16, 'x');
        for (;;) {
            if (!write_all(STDOUT_FILENO, chunk)) sleep_forever();
        }
    }

    static void fork_child() {
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::cerr << "misbehave: fork: " << std::strerror(errno) << '\n';
        } else if (pid == 0) {
            // The child holds the inherited stdout open and leaves quietly.
            std::this_thread::sleep_for(std::chrono::seconds(600));
            ::_exit(0);
        }
    }

    Options options_;
    int log_fd_;
    bool done_ = false;     // misbehaved already in this game
    bool touched_ = false;  // touched its memory already (touch-memory modes)
};

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    Options options;
    std::string mode = "none";
    arena::bots::BotProgram program;
    program.info = {.name = "misbehave", .author = "", .version = "1"};
    program.summary =
        "Test fixture: plays like `random --seed N` and misbehaves on command (see the\n"
        "comment at the top of bots/misbehave.cpp for every mode).";
    // clang-format off
    program.flags.add_options()
        ("mode", po::value<std::string>(&mode)->default_value("none"),
         "none, crash, abort, exit, sleep, hang, illegal, garbage, bad-notation, no-newline, "
         "flood-info, flood-stderr, endless-line, close-stdout, handshake-exit, handshake-hang, "
         "crash-after-move, fork-child, ignore-quit, daemon, setsid, close-stdin, stop-self, "
         "ponder, memory-hog, fork-bomb, big-file, touch-memory, touch-memory-child, fork-count, "
         "tty, escape-move, double-move, late-double-move, no-keyword")
        ("at-ply", po::value<std::uint64_t>(&options.at_ply)->default_value(0),
         "misbehave on the first go of each game at ply >= N (sleep: every go from then on)")
        ("sleep-ms", po::value<std::uint64_t>(&options.sleep_ms)->default_value(1000), "delay of --mode sleep")
        ("flood-mb", po::value<std::uint64_t>(&options.flood_mb)->default_value(64), "MiB for --mode flood-stderr")
        ("touch-mb", po::value<std::uint64_t>(&options.touch_mb)->default_value(100), "MiB touched by the touch-memory modes")
        ("reserve-gb", po::value<std::uint64_t>(&options.reserve_gb)->default_value(0), "GiB of address space reserved by --mode touch-memory")
        ("log", po::value<std::string>(&options.log_path), "append every line received from the arena to FILE");
    // clang-format on
    program.make_engine = [&](const arena::bots::CommonFlags& flags) {
        const auto* it = std::find_if(std::begin(kModes), std::end(kModes),
                                      [&](const auto& m) { return m.first == mode; });
        if (it == std::end(kModes)) throw std::invalid_argument("unknown mode '" + mode + "'");
        options.mode = it->second;
        options.seed = flags.seed;
        int log_fd = -1;
        if (!options.log_path.empty()) {
            log_fd =
                ::open(options.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (log_fd < 0)
                throw std::runtime_error("cannot open log " + options.log_path + ": " +
                                         std::strerror(errno));
        }
        if (options.mode == Mode::kIgnoreQuit) std::signal(SIGTERM, SIG_IGN);
        return std::make_unique<MisbehaveEngine>(options, log_fd);
    };
    program.after_loop = [&](int code) {
        if (options.mode == Mode::kIgnoreQuit) sleep_forever();  // end of input is a quit too
        return code;
    };
    return arena::bots::bot_main(argc, argv, program);
}
