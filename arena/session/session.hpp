#pragma once
// A bot session: one bot process spoken to in protocol v1 (PROTOCOL.md).
// It knows the protocol's message order and deadlines, and nothing of games'
// rules: moves pass through as text and the match layer judges them.
//
// Every call that waits takes or derives an absolute deadline. A session
// that has faulted (timeout, crash, protocol error) is dead: its process
// group has been killed and reaped, and the caller starts a fresh session.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/session/bot_protocol.hpp"
#include "arena/session/process.hpp"
#include "protocol/codec.hpp"

namespace arena::session {

using Millis = std::chrono::milliseconds;

// How a bot is confined (docs/config.md, docs/security.md).
struct Isolation {
    Limits limits;
    // SIGSTOP the bot's process group while it is not on move, so it cannot
    // think on its opponent's time.
    bool freeze_when_idle = true;
    bool sandbox = false;               // run it under bubblewrap
    std::vector<std::string> pass_env;  // variables passed on from the arena's environment
    // Use the arena's environment as it is, instead of the clean one (for
    // tests of the layer below).
    bool inherit_env = false;
};

struct BotSpec {
    std::string name;               // the arena's name for the bot (reports, results)
    std::vector<std::string> argv;  // command and arguments, already split
    // A persistent working directory; empty: a fresh scratch directory per
    // process, under the run's temporary directory, removed when it ends.
    std::filesystem::path working_dir;
    Isolation isolation{};
    BotProtocol protocol = BotProtocol::kArena1;  // what the bot speaks
};

// The clean environment of a bot whose working directory is `dir`: PATH,
// HOME=dir, TMPDIR (dir, or /tmp in a sandbox), LANG=C.UTF-8, and the
// variables named in `pass_env` that the arena has.
[[nodiscard]] std::vector<std::string> bot_environment(const std::filesystem::path& dir,
                                                       const Isolation& isolation);

struct SessionOptions {
    Millis startup_limit{10'000};  // `arena 1` -> `ready`
    Millis quit_grace{1'000};      // `quit` -> exit, then SIGKILL
    std::size_t max_line_bytes = 1 << 20;
    std::size_t stderr_log_bytes = 64 << 10;
    std::size_t max_info_lines_per_move = 1000;  // more are counted, not kept
};

// How a request ended when it did not produce what was asked for.
enum class Fault : std::uint8_t {
    kNone,
    kTimeout,   // no complete answer before the deadline
    kCrash,     // the process exited or closed its stdout
    kProtocol,  // a line that is not allowed here, or a line over the length limit
    kStartup,   // the handshake failed (any cause)
};
[[nodiscard]] std::string_view to_string(Fault f);

struct Identity {
    std::string name, author, version;  // as the bot announced them; may be empty
};

struct HandshakeResult {
    Fault fault = Fault::kNone;
    std::string detail;  // for a fault: what happened, for people
    Clock::duration elapsed{};
};

struct MoveReply {
    Fault fault = Fault::kNone;
    std::string move;                // the move text when fault == kNone
    std::vector<std::string> info;   // `info` lines (without the keyword) received for this move
    std::uint64_t info_dropped = 0;  // info/debug lines over the per-move cap
    Clock::time_point go_written;    // the clock starts here
    Clock::time_point answered;      // the full move line read, or the verdict reached
    std::string detail;              // for a fault: what happened, for people
    [[nodiscard]] Clock::duration elapsed() const { return answered - go_written; }
};

class Session {
  public:
    // Starts the process; throws SpawnError when the command cannot be started.
    Session(BotSpec spec, SessionOptions options);
    ~Session();  // kills what is left of the process group
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // `arena 1`, then reads name/author/version lines until `ready`.
    [[nodiscard]] HandshakeResult handshake();

    // Sends `game ...`. False when the bot no longer reads (the session is then dead).
    [[nodiscard]] bool start_game(const protocol::GameStart& game);

    // Sends `position ...` and `go ...`, then waits for `move`, at most until
    // the moment `go` was written plus `limit` (the per-move time plus the
    // tolerance). Lines printed meanwhile never extend the deadline.
    // Lines already pending when it is called (printed while not on move) are
    // checked first: info/debug lines are discarded, anything else is a
    // kProtocol fault. Info and debug lines both count against
    // max_info_lines_per_move; only info lines are kept.
    [[nodiscard]] MoveReply request_move(const protocol::Position& position, const protocol::Go& go,
                                         Clock::duration limit);

    // Sends `end ...`; best effort.
    void end_game(const protocol::End& end);

    // Sends `quit`, waits up to the grace period, then kills the group.
    // (A frozen bot is thawed first.)
    void quit();

    // Kills the process group and reaps it; the session is dead afterwards.
    void kill();

    [[nodiscard]] bool alive() const { return alive_; }
    [[nodiscard]] const BotSpec& spec() const { return spec_; }
    [[nodiscard]] const Identity& identity() const { return identity_; }
    [[nodiscard]] pid_t pid() const;
    // Where the bot runs.
    [[nodiscard]] const std::filesystem::path& working_dir() const { return working_dir_; }
    [[nodiscard]] const std::string& stderr_log() const;
    // The stderr log so far (see Process::take_stderr_log); the next call
    // returns only what came after.
    [[nodiscard]] std::string take_stderr_log();
    // The exit status once the process has ended, for crash reports.
    [[nodiscard]] std::optional<ExitStatus> exit_status() const { return exit_; }

  private:
    // Crash detail after EOF: waits briefly for the exit status.
    // "exited<when>: signal 11 (SIGSEGV)" or "closed its stdout<when>".
    std::string describe_eof(std::string_view when = {});
    // The same after a failed write: "exited<when>: ..." or "stopped reading its input<when>".
    std::string describe_write_failure(std::string_view when = {});
    // " (file size limit ...)" when a limit ended the process, else "".
    std::string limit_note(const ExitStatus& status);
    void die();
    void freeze();  // when the bot is not on move (if configured)

    BotSpec spec_;
    SessionOptions options_;
    std::filesystem::path working_dir_;
    bool scratch_ = false;  // working_dir_ is ours to remove
    std::unique_ptr<Process> process_;
    Identity identity_;
    bool alive_ = true;
    std::optional<ExitStatus> exit_;
};

}  // namespace arena::session
