#pragma once
// A bot session: one bot process spoken to in its protocol: the arena's own
// v1 (PROTOCOL.md) here, Gomocup and NBoard in gomocup_session.hpp and
// nboard_session.hpp. A session knows its protocol's message order and
// deadlines, and nothing of games' rules: moves pass through as text (the
// adapters translate notation) and the match layer judges them.
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

#include "arena/session/bot_host.hpp"
#include "arena/session/bot_protocol.hpp"
#include "arena/session/process.hpp"
#include "arena/session/session_hooks.hpp"
#include "protocol/codec.hpp"

namespace arena::session {

using Millis = std::chrono::milliseconds;

// How a bot is confined (docs/config.md, docs/security.md).
struct Isolation {
    Limits limits;
    // SIGSTOP the bot's process group while it is not on move, so it cannot
    // think on its opponent's time: once `freeze_grace` has passed after its
    // move, or at once when the game ends. A bot asked to move again within
    // the grace (fast games) is never stopped, which spares two signals and
    // two wake-ups a move. The default is longer than a scheduler tick (4 ms
    // at HZ=250): a shorter timer often has to reprogram the hardware timer,
    // which costs several microseconds a move in a virtual machine
    // (docs/performance.md). 0: at once.
    bool freeze_when_idle = true;
    Millis freeze_grace{5};
    bool sandbox = false;  // run it under bubblewrap
    // A cgroup of its own where the machine allows it (cgroup.hpp); false:
    // rlimits and a /proc poll, as where it does not.
    bool cgroup = true;
    std::vector<std::string> pass_env;  // variables passed on from the arena's environment
    // Use the arena's environment as it is, instead of the clean one (for
    // tests of the layer below).
    bool inherit_env = false;
};

struct BotSpec {
    std::string name;               // the arena's name for the bot (reports, results)
    std::vector<std::string> argv;  // command and arguments, already split
    // Where the bot starts, and what a relative program path or argument is
    // taken from; empty: the arena's current directory. Each process also
    // gets a fresh scratch directory of its own (HOME and TMPDIR), under the
    // run's temporary directory (BotHost::make_scratch), removed when the
    // process ends.
    std::filesystem::path working_dir;
    Isolation isolation{};
    BotProtocol protocol = BotProtocol::kArena1;  // what the bot speaks
};

// The clean environment of a bot whose scratch directory is `scratch`: PATH,
// HOME and TMPDIR (both `scratch`), LANG=C.UTF-8, and the variables named in
// `pass_env` that the arena has.
[[nodiscard]] std::vector<std::string> bot_environment(const std::filesystem::path& scratch,
                                                       const Isolation& isolation);

struct SessionOptions {
    Millis startup_limit{10'000};  // `arena 1` -> `ready`
    Millis quit_grace{1'000};      // `quit` -> exit, then SIGKILL
    std::size_t max_line_bytes = 1 << 20;
    std::size_t stderr_log_bytes = 64 << 10;
    std::size_t max_info_lines_per_move = 1000;  // more are counted, not kept
    // Real-time priority for the last moments of a wait (ProcessOptions).
    bool realtime_deadlines = true;
    // Keep a transcript of every line both ways (BotSession::take_transcript).
    bool transcript = false;
    // Under the sandbox: what the bot must not see (SandboxOptions::hidden).
    std::vector<std::filesystem::path> sandbox_hidden;
};

// The most transcript a session keeps between two take_transcript calls.
inline constexpr std::size_t kTranscriptBytes = 4 << 20;

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

// How a `quit` went (ProcessSession::quit_outcome), for `arena check-bot`.
struct QuitOutcome {
    bool written = false;     // the bot took the line
    bool exited = false;      // and exited within the grace period
    bool gone = false;        // not written: it had exited already
    Clock::duration after{};  // line written -> exit (or the end of the grace period)
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

// A bot process as the match layer drives it, whatever protocol it speaks.
// Every implementation keeps the same contract: each call that waits has an
// absolute deadline, faults are reported as the same Fault values with the
// same meaning, and a faulted session is dead (its process group killed and
// reaped).
class BotSession : public IdleBot {
  public:
    virtual ~BotSession() = default;
    BotSession() = default;
    BotSession(const BotSession&) = delete;
    BotSession& operator=(const BotSession&) = delete;

    // Start-up, within the start-up limit.
    [[nodiscard]] virtual HandshakeResult handshake() = 0;

    // A new game. False when the bot no longer reads (the session is then dead).
    [[nodiscard]] virtual bool start_game(const protocol::GameStart& game) = 0;

    // Asks for a move in `position` (every move of the game so far, in the
    // arena's notation), waiting at most until the moment the request was
    // written plus `limit` (the per-move time plus the tolerance). Lines
    // printed meanwhile never extend the deadline. The reply's move is in the
    // arena's notation (or the bot's raw text when it has none), for the
    // match layer to judge. `idle`, the other bot of the game (or null), is
    // frozen meanwhile when its deferred freeze falls due.
    [[nodiscard]] virtual MoveReply request_move(const protocol::Position& position,
                                                 const protocol::Go& go, Clock::duration limit,
                                                 IdleBot* idle = nullptr) = 0;

    // The game is over; best effort.
    virtual void end_game(const protocol::End& end) = 0;

    // Asks the bot to exit, waits up to the grace period, then kills the group.
    virtual void quit() = 0;

    // Kills the process group and reaps it; the session is dead afterwards.
    virtual void kill() = 0;

    [[nodiscard]] virtual bool alive() const = 0;
    [[nodiscard]] virtual const BotSpec& spec() const = 0;
    [[nodiscard]] virtual const Identity& identity() const = 0;
    [[nodiscard]] virtual pid_t pid() const = 0;
    // Where the bot runs (absolute).
    [[nodiscard]] virtual const std::filesystem::path& working_dir() const = 0;
    // Its private writable directory (HOME, TMPDIR), removed when it ends.
    [[nodiscard]] virtual const std::filesystem::path& scratch_dir() const = 0;
    [[nodiscard]] virtual const std::string& stderr_log() const = 0;
    // The stderr log so far (see Process::take_stderr_log); the next call
    // returns only what came after.
    [[nodiscard]] virtual std::string take_stderr_log() = 0;
    // The exit status once the process has ended, for crash reports.
    [[nodiscard]] virtual std::optional<ExitStatus> exit_status() const = 0;
    // Has the process exited between games (after `end`)? Lets it run for up
    // to `wait` to find out; see Process::exits_when_woken.
    [[nodiscard]] virtual bool exits_when_woken(Clock::duration wait) = 0;
    // Lets the bot run (thawed) until `until`, then freezes it, the freeze
    // carried out by freeze_if_due: time to read the `end` of its game and
    // exit, if it is a bot that does, while its next game is still to come.
    virtual void run_until(Clock::time_point until) = 0;
    // With SessionOptions::transcript: the lines that passed since the last
    // call (and how many more were not kept); else nothing.
    [[nodiscard]] virtual std::vector<TranscriptLine> take_transcript(
        std::uint64_t* dropped = nullptr) = 0;
    // Peak memory of the bot's process tree in bytes, since it started or
    // since the last reset_peak_memory (Process::peak_memory); nullopt: not
    // known. Also after the process has ended.
    [[nodiscard]] virtual std::optional<std::uint64_t> peak_memory() { return std::nullopt; }
    virtual void reset_peak_memory() {}
};

// A session of `spec.protocol`, its process started under `host` (which must
// outlive it). Throws SpawnError when the command cannot be started.
[[nodiscard]] std::unique_ptr<BotSession> make_session(BotHost& host, BotSpec spec,
                                                       SessionOptions options);

// What every protocol's session shares: the process with its working
// directory and isolation, its death (kill, quit, crash reports), its stderr
// log, freezing, and deadline-bounded reading of replies.
class ProcessSession : public BotSession {
  public:
    ~ProcessSession() override;  // kills what is left of the process group

    void kill() override;
    [[nodiscard]] bool alive() const override { return alive_; }
    [[nodiscard]] const BotSpec& spec() const override { return spec_; }
    [[nodiscard]] const Identity& identity() const override { return identity_; }
    [[nodiscard]] pid_t pid() const override;
    [[nodiscard]] const std::filesystem::path& working_dir() const override { return working_dir_; }
    [[nodiscard]] const std::filesystem::path& scratch_dir() const override { return scratch_dir_; }
    [[nodiscard]] const std::string& stderr_log() const override;
    [[nodiscard]] std::string take_stderr_log() override;
    [[nodiscard]] std::vector<TranscriptLine> take_transcript(
        std::uint64_t* dropped = nullptr) override {
        return process_->take_transcript(dropped);
    }
    [[nodiscard]] std::optional<ExitStatus> exit_status() const override { return exit_; }
    [[nodiscard]] bool exits_when_woken(Clock::duration wait) override {
        return process_->exits_when_woken(wait);
    }
    void run_until(Clock::time_point until) override;
    [[nodiscard]] std::optional<std::uint64_t> peak_memory() override {
        return process_->peak_memory();
    }
    void reset_peak_memory() override { process_->reset_peak_memory(); }
    [[nodiscard]] std::optional<Clock::time_point> freeze_due() const override;
    void freeze_if_due(Clock::time_point now) override;
    // How quit() went; nullopt when the bot was no longer running.
    [[nodiscard]] const std::optional<QuitOutcome>& quit_outcome() const { return quit_outcome_; }

  protected:
    // Starts the process under `host` (which must outlive it); throws
    // SpawnError when the command cannot be started.
    ProcessSession(BotHost& host, BotSpec spec, SessionOptions options);

    // One line of a reply, or the fault that ended the wait for it (the
    // caller decides what it means; nothing is killed here): kTimeout when `deadline` passed first
    // or the line was complete only after it, kCrash at end of output, kProtocol for a line over
    // the length limit. `when` qualifies crash details
    // (" during start-up").
    struct ReplyLine {
        Fault fault = Fault::kNone;
        std::string text;
        Clock::time_point at;
        std::string detail;  // for a fault
    };
    [[nodiscard]] ReplyLine read_reply_line(Clock::time_point deadline, std::string_view when = {});

    // Thaws the bot and writes `commands` (one or more lines, the last one
    // being the request to move), bounded by `limit`; the clock starts when
    // the bot can see them: reply.go_written. False when the bot did not take it
    // (reply then holds the timeout or crash verdict).
    [[nodiscard]] bool write_move_request(std::string_view commands, Clock::duration limit,
                                          MoveReply& reply);
    // Ends a move request with a fault: the verdict time, then the kill.
    void mark_failed(MoveReply& reply, Fault fault, std::string detail);
    // The same, returning the reply (moved out of `reply`).
    MoveReply fail_move(MoveReply& reply, Fault fault, std::string detail);
    // Keeps `text` as an info line of the move, within the per-move cap
    // (`chatter` counts the lines so far; `keep` false only counts it).
    void record_info(MoveReply& reply, std::size_t& chatter, std::string text, bool keep = true);
    // A move read at `at`: stops the clock and freezes the bot (soon).
    MoveReply accept_move(MoveReply& reply, std::string move, Clock::time_point at);

    // Thaws the bot, writes `line`, waits up to the grace period for the
    // exit, then kills the group; keeps the quit_outcome.
    void quit_with(std::string_view line);

    // Remembers what a move of the game looks like (move_form), for hints.
    void note_game(const protocol::GameStart& game);
    // The detail of a line on move that is not the protocol's: "invalid
    // line: '4'" with a hint (the `move` keyword and the move's form, or
    // where debug output goes).
    [[nodiscard]] std::string invalid_line(std::string_view line) const;

    // Crash detail after EOF: waits briefly for the exit status.
    // "exited<when>: signal 11 (SIGSEGV)" or "closed its stdout<when>".
    std::string describe_eof(std::string_view when = {});
    // The same after a failed write: "exited<when>: ..." or "stopped reading its input<when>".
    std::string describe_write_failure(std::string_view when = {});
    // " (file size limit ...)" when a limit ended the process, else "".
    std::string limit_note(const ExitStatus& status);
    void die();
    void freeze();       // now, when the bot is not on move (if configured)
    void freeze_soon();  // the same after isolation.freeze_grace (after a move)
    // A read of the reply that also keeps watch over the idle bot (see
    // IdleWatch): what every request_move uses.
    [[nodiscard]] Process::ReadResult read_line(Clock::time_point deadline) {
        return process_->read_line(deadline, idle_);
    }
    // The other bot of the game, for the duration of one request_move.
    class IdleWatch {
      public:
        IdleWatch(ProcessSession& session, IdleBot* idle) : session_(session) {
            session_.idle_ = idle;
        }
        ~IdleWatch() { session_.idle_ = nullptr; }
        IdleWatch(const IdleWatch&) = delete;
        IdleWatch& operator=(const IdleWatch&) = delete;

      private:
        ProcessSession& session_;
    };

    // A bot line for a report: at most 80 bytes, control bytes escaped, quoted.
    [[nodiscard]] static std::string quote(std::string_view line);
    // "250 ms".
    [[nodiscard]] static std::string millis(Clock::duration d);
    // Without blanks (spaces, tabs, '\r') at either end.
    [[nodiscard]] static std::string_view trim(std::string_view text);

    BotSpec spec_;
    SessionOptions options_;
    std::filesystem::path working_dir_;
    std::filesystem::path scratch_dir_;  // ours to remove
    std::unique_ptr<Process> process_;
    Identity identity_;
    bool alive_ = true;
    std::optional<ExitStatus> exit_;
    std::optional<QuitOutcome> quit_outcome_;
    IdleBot* idle_ = nullptr;                  // see IdleWatch
    std::string move_form_ = "`move <move>`";  // see note_game
};

// A bot that speaks the arena's protocol v1 (PROTOCOL.md).
class Session final : public ProcessSession {
  public:
    // Starts the process under `host` (which must outlive it); throws
    // SpawnError when the command cannot be started.
    Session(BotHost& host, BotSpec spec, SessionOptions options);

    // `arena 1`, then reads name/author/version lines until `ready`.
    [[nodiscard]] HandshakeResult handshake() override;

    // Sends `game ...`. False when the bot no longer reads (the session is then dead).
    [[nodiscard]] bool start_game(const protocol::GameStart& game) override;

    // Sends `position ...` and `go ...`, then waits for `move`, at most until
    // the moment `go` was written plus `limit` (the per-move time plus the
    // tolerance). Lines printed meanwhile never extend the deadline.
    // Lines already pending when it is called (printed while not on move) are
    // checked first: info/debug lines are discarded, anything else is a
    // kProtocol fault. So is a reply line read while the request is not yet
    // all read by the bot (Process::unread_input: it was written before the
    // `go`), and a line other than info/debug already there right behind the
    // move. Info and debug lines both count against
    // max_info_lines_per_move; only info lines are kept.
    [[nodiscard]] MoveReply request_move(const protocol::Position& position, const protocol::Go& go,
                                         Clock::duration limit, IdleBot* idle = nullptr) override;

    // Sends `end ...`; best effort.
    void end_game(const protocol::End& end) override;

    // Sends `quit`, waits up to the grace period, then kills the group.
    // (A frozen bot is thawed first.)
    void quit() override;

    // The hooks of `arena check-bot` (session_hooks.hpp), used until
    // replaced; null: none. They must outlive their use.
    void set_hooks(SessionHooks* hooks) { hooks_ = hooks; }

  private:
    // Right after a move is read, without waiting: the first line already
    // there that is neither info nor debug (a second `move`), or "".
    [[nodiscard]] std::string line_after_move();
    // `lines` as the hooks would have them written for `command`.
    [[nodiscard]] std::string outgoing(Command command, std::string lines);
    // After `game` or `end`, when the hooks ask for it: lets the bot run a
    // while and keeps the first line it sends that is neither info nor
    // debug (out_of_turn_), for the next request to fail.
    void watch_out_of_turn(Command command);
    // After `move` (the bot's line), when the hooks ask for it: the fault
    // detail of a line other than info/debug that follows within the watch,
    // or "".
    [[nodiscard]] std::string watch_after_move(std::string_view move);
    // The end of the detail of a reply awaited since `asked` that missed its
    // deadline: `note` (the session's hint), or what the hooks say instead.
    [[nodiscard]] std::string missed_deadline(Clock::time_point asked, Clock::duration limit,
                                              protocol::BotLine::Kind awaited, bool silent,
                                              std::string_view note);

    SessionHooks* hooks_ = nullptr;
    std::optional<std::string> out_of_turn_;  // quoted; see watch_out_of_turn
};

}  // namespace arena::session
