// arena-so-host: plays a Tsinghua course strategy library (a .so exporting
// getPoint and clearPoint, see strategy.hpp and protocol/TSINGHUA.md) as an
// arena protocol v1 bot.
//
//   arena-so-host LIBRARY.so
//
// The library is loaded once, at start-up, and stays loaded for every game of
// the process, so a strategy's global state lives on from game to game; the
// arena starts a fresh host for every game unless told otherwise (restart:
// on-fault), since course strategies expect one game per load. A library that cannot be loaded, or
// lacks one of the two functions, is reported on stderr and the host exits 3
// before `ready` (the arena judges a start-up failure).
//
// For each `go` the host rebuilds M, N, top, board, lastX/lastY and noX/noY
// from the `game` line and the `position` moves, calls getPoint, answers the
// returned point as a column (strategy_input.hpp: a point that is not where a
// piece would land is sent in a form the arena judges illegal, after three
// lines on stderr with what the strategy was given and why its point is not
// legal), and hands the point back to clearPoint. It checks nothing else and times nothing: a
// slow strategy loses on time, a crashing one crashes this process.
//
// Course strategies are often built without linking the C++ runtime
// (`gcc -shared`), expecting the program that loads them to provide it: the
// host makes libstdc++, libm and libgcc_s global before loading the library.
//
// Strategies often print to standard output. Only protocol lines may go
// there, so the host keeps the real stdout for itself and points file
// descriptor 1 (printf, std::cout) at stderr, the bot's log.

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>

#include "arena/games/connect4.hpp"
#include "bots/common/bot_loop.hpp"
#include "bots/tsinghua/strategy.hpp"
#include "bots/tsinghua/strategy_input.hpp"

namespace {

constexpr int kUsageExit = 2;
constexpr int kLoadExit = 3;
constexpr int kStrategyFailExit = 3;
constexpr std::string_view kUsage =
    "usage: arena-so-host LIBRARY.so\n"
    "Plays a Tsinghua Connect-4 strategy library (extern \"C\" getPoint and\n"
    "clearPoint) as an arena protocol v1 bot on stdin/stdout. See\n"
    "protocol/TSINGHUA.md. Whatever the library prints on stdout goes to stderr.\n";

// An output stream buffer over a file descriptor: the protocol's stdout.
class FdBuf : public std::streambuf {
  public:
    explicit FdBuf(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }
    ~FdBuf() override { static_cast<void>(sync()); }
    FdBuf(const FdBuf&) = delete;
    FdBuf& operator=(const FdBuf&) = delete;

  protected:
    int_type overflow(int_type ch) override {
        if (sync() != 0) return traits_type::eof();
        if (!traits_type::eq_int_type(ch, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(ch);
            pbump(1);
        }
        return traits_type::not_eof(ch);
    }
    int sync() override {
        const char* at = pbase();
        while (at < pptr()) {
            const ssize_t n = ::write(fd_, at, static_cast<std::size_t>(pptr() - at));
            if (n < 0) return -1;
            at += n;
        }
        setp(buffer_, buffer_ + sizeof buffer_);
        return 0;
    }

  private:
    int fd_;
    char buffer_[4096];
};

[[noreturn]] void strategy_failed(const std::string& why) {
    std::cerr << "arena-so-host: " << why << std::endl;
    std::fflush(nullptr);
    std::cout.flush();
    std::_Exit(kStrategyFailExit);  // no destructors of a library in an unknown state
}

class StrategyEngine : public arena::bots::Engine {
  public:
    StrategyEngine(GetPointFn get_point, ClearPointFn clear_point, std::ostream& out)
        : get_point_(get_point), clear_point_(clear_point), out_(out) {}

    void on_line(std::string_view line) override {
        // The last move of the position, for lastX/lastY.
        if (line.substr(0, line.find_first_of(" \t")) != "position") return;
        const auto end = line.find_last_not_of(" \t\r");
        const auto start = line.find_last_of(" \t", end);
        const auto word = line.substr(start + 1, end - start);
        last_word_ = word == "position" ? std::string() : std::string(word);
    }

    void new_game(const arena::games::Game& game, int /*player*/) override {
        const auto* connect4 = dynamic_cast<const arena::games::Connect4Game*>(&game);
        if (connect4 == nullptr) {
            throw arena::games::GameError("a Tsinghua strategy plays connect4 only, not " +
                                          game.name());
        }
        arena::tsinghua::check_game(connect4->config());
    }

    [[nodiscard]] arena::games::Move choose(const arena::games::State& state,
                                            const arena::protocol::Go& /*go*/,
                                            const arena::bots::InfoSink& info) override {
        const auto& board = dynamic_cast<const arena::games::Connect4State&>(state);
        std::optional<int> last_col;
        if (!last_word_.empty()) {
            if (const auto move = state.parse_move(last_word_)) last_col = *move;
        }
        const auto in = arena::tsinghua::strategy_input(board, last_col);
        Point* point = nullptr;
        try {
            point = get_point_(in.rows, in.cols, in.top.data(), in.board.data(), in.last_x,
                               in.last_y, in.no_x, in.no_y);
        } catch (...) {
            strategy_failed("getPoint threw an exception");
        }
        if (point == nullptr) strategy_failed("getPoint returned a null pointer");
        const int x = point->x;
        const int y = point->y;
        try {
            clear_point_(point);
        } catch (...) {
            strategy_failed("clearPoint threw an exception");
        }
        info("point x=" + std::to_string(x) + " y=" + std::to_string(y));
        if (const auto problem = arena::tsinghua::point_problem(in, x, y); !problem.empty()) {
            // What the strategy was given, then its point, last: the arena
            // shows the last 400 bytes of stderr with the verdict, which
            // hold all three lines up to the course's largest board.
            std::cerr << "arena-so-host: getPoint(" << arena::tsinghua::describe_arguments(in)
                      << ")\n  " << arena::tsinghua::describe_board(in)
                      << "\narena-so-host: getPoint returned (" << x << "," << y
                      << "), not a legal point: " << problem << std::endl;
        }
        out_ << "move " << arena::tsinghua::move_word(in, x, y) << '\n' << std::flush;
        return arena::bots::kNoMove;
    }

  private:
    GetPointFn get_point_;
    ClearPointFn clear_point_;
    std::ostream& out_;
    std::string last_word_;
};

}  // namespace

int main(int argc, char** argv) {
    const std::string_view first = argc > 1 ? argv[1] : "";
    if (first == "--help" || first == "-h") {
        std::cout << kUsage;
        return 0;
    }
    if (argc != 2 || first.empty() || first.front() == '-') {
        std::cerr << "arena-so-host: expected one argument, the strategy library\n" << kUsage;
        return kUsageExit;
    }
    // The protocol keeps the real stdout; fd 1 becomes stderr before the
    // library is loaded, since its constructors may print already.
    const int protocol_fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (protocol_fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        std::perror("arena-so-host: cannot set up standard output");
        return kLoadExit;
    }
    // Line by line, so the log keeps what a strategy printed before it crashed.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const std::string library(first);
    // The C++ runtime, global: a library that does not link it itself finds
    // operator new, std::vector's helpers and the math functions here. The
    // host is a C++ program, so these are already loaded; this only makes
    // sure they are in the global scope whatever way the host was linked.
    for (const char* runtime : {"libstdc++.so.6", "libm.so.6", "libgcc_s.so.1"})
        static_cast<void>(::dlopen(runtime, RTLD_NOW | RTLD_GLOBAL));
    void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* error = ::dlerror();
        std::cerr << "arena-so-host: cannot load the strategy library '" << library
                  << "': " << (error != nullptr ? error : "unknown error") << std::endl;
        return kLoadExit;
    }
    // Never closed: the strategy's state must outlive every game.
    auto* get_point = reinterpret_cast<GetPointFn>(::dlsym(handle, kGetPointSymbol));
    auto* clear_point = reinterpret_cast<ClearPointFn>(::dlsym(handle, kClearPointSymbol));
    const char* missing = get_point == nullptr     ? kGetPointSymbol
                          : clear_point == nullptr ? kClearPointSymbol
                                                   : nullptr;
    if (missing != nullptr) {
        std::cerr << "arena-so-host: the strategy library '" << library << "' does not export "
                  << missing << " (a strategy exports extern \"C\" getPoint and clearPoint)"
                  << std::endl;
        return kLoadExit;
    }
    FdBuf protocol_buf(protocol_fd);
    std::ostream protocol_out(&protocol_buf);
    StrategyEngine engine(get_point, clear_point, protocol_out);
    const std::string name = library.substr(library.find_last_of('/') + 1);
    const arena::bots::BotInfo info{.name = name, .author = "", .version = "tsinghua-so"};
    const int code = arena::bots::run_bot(info, engine, std::cin, protocol_out);
    protocol_out.flush();
    std::cout.flush();
    std::fflush(nullptr);
    // Skip the library's static destructors: some course strategies crash in
    // them, and the games are over.
    std::_Exit(code);
}
