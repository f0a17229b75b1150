#pragma once
// One bot process: started from an argv (no shell) in its own process group
// and working directory, with stdin/stdout as pipes and stderr captured into
// a bounded log. Every read has an absolute deadline: nothing here blocks
// past the deadline the caller gives, whatever the child does.

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arena/session/cgroup.hpp"
#include "arena/session/sandbox.hpp"
#include "arena/session/waiter.hpp"

namespace arena::session {

// The command could not be started (not found, not executable, ...). The
// message names the command and the OS error.
class SpawnError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The memory limit counts resident memory (plus swap) of the bot's whole
// process tree: in its cgroup, else polled from /proc. Sanitizer builds keep
// it too; they only lose the fallback's address-space safety net below.
inline constexpr std::uint64_t kDefaultMemoryMb = 1024;

// Without a cgroup, each process also gets an address-space limit of this
// many times the memory limit plus the machine's physical memory: a safety
// net against a runaway between two polls that still lets the JVM (whose
// heap reservation is a quarter of the machine's memory by default), Go and
// big tables reserve what they never touch. Not in sanitizer builds, whose
// programs reserve terabytes of shadow memory.
#ifdef ARENA_SANITIZE
inline constexpr std::uint64_t kAddressSpaceFactor = 0;
#else
inline constexpr std::uint64_t kAddressSpaceFactor = 16;
#endif

// Resource limits of one bot (docs/config.md). 0 means no limit.
struct Limits {
    std::uint64_t memory_mb = kDefaultMemoryMb;  // resident memory + swap of its process tree
    std::uint64_t file_size_mb = 256;            // RLIMIT_FSIZE: largest file it may write
    std::uint64_t open_files = 256;              // RLIMIT_NOFILE
    std::uint64_t processes = 256;               // processes + threads in its tree
    std::uint64_t cpu_seconds = 0;               // RLIMIT_CPU of each of its processes
    // Scheduling niceness added to its processes (0..19): the arena's own
    // threads, which read moves and judge the clock, then win the CPU from
    // bots that compute. All bots alike keeps them equal among themselves.
    int nice = 5;
    friend bool operator==(const Limits&, const Limits&) = default;
};

struct ProcessOptions {
    // argv[0] is the program: PATH is searched if it has no '/'; a relative
    // path is relative to working_dir, as are the arguments (the program
    // starts there).
    std::vector<std::string> argv;
    std::filesystem::path working_dir;  // empty: inherit the arena's
    // The bot's private writable directory (its HOME and TMPDIR, made and
    // removed by the caller); empty: none. In a sandbox it is the only
    // writable directory, and working_dir is read-only.
    std::filesystem::path scratch_dir;
    std::size_t max_line_bytes = 1 << 20;  // longer stdout lines are a protocol fault
    std::size_t stderr_log_bytes =
        64 << 10;  // stderr tail kept (earlier bytes are counted, then dropped)
    Limits limits;
    // The whole environment ("NAME=value"); nullopt: inherit the arena's.
    std::optional<std::vector<std::string>> environment;
    SandboxOptions sandbox;
    // The last kRealtimeWindow of every wait in read_line runs at real-time
    // priority, when the arena may use it (see set_waiting_thread_realtime).
    bool realtime_deadlines = true;
    // Keep every line written and read (take_transcript), up to this many
    // bytes until taken (later lines are counted, not kept); 0: keep none.
    std::size_t transcript_bytes = 0;
    // Confine the bot in a cgroup of its own where the machine allows it
    // (cgroup.hpp); false: rlimits and the reaper's /proc poll.
    bool cgroup = true;
};

// One line that passed between the arena and a bot (see Process::transcript).
struct TranscriptLine {
    Clock::time_point at;  // written (arena's lines) or read complete (the bot's)
    bool from_bot = false;
    std::string text;  // without the newline; one write may hold several lines
};

// How a child ended, as far as waitpid tells.
struct ExitStatus {
    bool exited = false;  // normal exit with `code`
    int code = 0;
    bool signaled = false;  // killed by `signal`
    int signal = 0;
    [[nodiscard]] std::string describe() const;  // "exit 3", "signal 11 (SIGSEGV)"
};

// A bot that is not on move, as a read waiting for the other bot sees it:
// its freeze may be deferred (Process::freeze_at), and the waiting thread
// carries it out when it falls due.
class IdleBot {
  public:
    // When the pending freeze falls due; nullopt: none pending.
    [[nodiscard]] virtual std::optional<Clock::time_point> freeze_due() const = 0;
    // Freezes now if a pending freeze is due at `now`.
    virtual void freeze_if_due(Clock::time_point now) = 0;

  protected:
    IdleBot() = default;
    ~IdleBot() = default;
    IdleBot(const IdleBot&) = default;
    IdleBot& operator=(const IdleBot&) = default;
};

class BotHost;

class Process final : public IdleBot {
  public:
    // Starts the process under `host` (its reaper, cgroups and keeper),
    // which must outlive it. Throws SpawnError.
    Process(BotHost& host, const ProcessOptions& options);
    ~Process();  // kills the whole process group and reaps the child
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    enum class ReadStatus : std::uint8_t {
        kLine,     // a complete line was read (without '\n' and a trailing '\r')
        kTimeout,  // the deadline passed first
        kEof,      // stdout closed, or the child exited (a grandchild may still hold stdout);
                   // a trailing partial line is dropped
        kTooLong,  // the line exceeded max_line_bytes (the rest of it is skipped)
    };
    struct ReadResult {
        ReadStatus status;
        std::string line;
        Clock::time_point at;  // when the line (or the verdict) was complete
    };

    // Reads one stdout line, waiting until `deadline` at most. Drains stderr
    // meanwhile so a chatty stderr cannot stall the child, and freezes `idle`
    // (the other bot of the game) when its deferred freeze falls due.
    [[nodiscard]] ReadResult read_line(Clock::time_point deadline, IdleBot* idle = nullptr);

    // Writes one line (appends '\n'). False when the child no longer reads
    // (closed stdin, exited) or does not take the data before `deadline`.
    [[nodiscard]] bool write_line(std::string_view line, Clock::time_point deadline);
    // The same for a frozen child, which is thawed once the line is in the
    // pipe (or the pipe is full): it wakes once, with its input already
    // there, instead of waking for the thaw and again for the line. Returns
    // when the child could first have seen the line (taken just before the
    // thaw, or before the first write if it was not frozen): the start of
    // its clock.
    [[nodiscard]] std::optional<Clock::time_point> write_line_and_thaw(std::string_view line,
                                                                       Clock::time_point deadline);

    // How many bytes written to the child's stdin it has not read yet (0
    // when stdin is closed). A line read while some of the last request is
    // still unread was written before the child read that request.
    [[nodiscard]] std::size_t unread_input() const;

    // Non-blocking: has the child exited? Reaps it if so.
    [[nodiscard]] std::optional<ExitStatus> poll_exit();
    // Waits for the child to exit until `deadline`; reaps it if so.
    [[nodiscard]] std::optional<ExitStatus> wait_exit(Clock::time_point deadline);

    // SIGKILL to every process of the bot (its cgroup, its process group
    // and all descendants; see reaper.hpp), then reap the child and remove
    // its cgroup. Idempotent.
    ExitStatus kill();

    // SIGSTOP / SIGCONT to the process group (or its cgroup's freezer,
    // see cgroup::kFreezeByGroup): a frozen bot uses no CPU. A thaw also
    // cancels a pending freeze.
    void freeze();
    void thaw();
    // Between games a bot is frozen with the `end` of its last game unread:
    // lets it run for up to `wait` and says whether it exited (seen, not
    // reaped); one that stays is frozen again as it was.
    [[nodiscard]] bool exits_when_woken(Clock::duration wait);
    // Freezes once `when` has passed, carried out by freeze_if_due (from a
    // read waiting on the other bot, see read_line): a bot that answers
    // again before then is never stopped, which spares two signals and two
    // wake-ups a move with fast bots.
    void freeze_at(Clock::time_point when);
    [[nodiscard]] std::optional<Clock::time_point> freeze_due() const override {
        return freeze_due_;
    }
    void freeze_if_due(Clock::time_point now) override;

    // When `status` shows that a limit ended the process, which one:
    // "file size limit 256 MB", "out of memory: memory limit 1024 MB", ...; else "".
    [[nodiscard]] std::string limit_hit(const ExitStatus& status);

    // Peak memory of the bot's process tree (bytes) since it started or
    // since reset_peak_memory: the kernel's figure in a cgroup, else the
    // largest sum of its processes' resident sets seen by the reaper's
    // poll. nullopt: not known.
    [[nodiscard]] std::optional<std::uint64_t> peak_memory();
    void reset_peak_memory();
    // Is the bot in a cgroup of its own (else rlimits and the /proc poll)?
    [[nodiscard]] bool in_cgroup() const { return group_ != nullptr; }

    [[nodiscard]] pid_t pid() const { return pid_; }
    [[nodiscard]] const std::string& stderr_log() const { return stderr_log_; }
    [[nodiscard]] std::uint64_t stderr_dropped_bytes() const { return stderr_dropped_; }
    // Reads what stderr holds now (without waiting), returns the log with a
    // note of any dropped bytes, and starts a new, empty log.
    [[nodiscard]] std::string take_stderr_log();
    // The lines kept since the last call (ProcessOptions::transcript_bytes),
    // and how many more were not kept; starts a new transcript.
    [[nodiscard]] std::vector<TranscriptLine> take_transcript(std::uint64_t* dropped = nullptr);

  private:
    std::optional<Clock::time_point> write_line_then(std::string_view line,
                                                     Clock::time_point deadline, bool thaw_it);
    bool wait_writable(Clock::time_point deadline);  // POLLOUT on stdin until `deadline`
    // A complete (or too long) line from buffer_, without reading.
    std::optional<ReadResult> take_line();
    void read_stdout();  // one non-blocking read of up to 64 KiB
    void drain_stderr();
    void keep(Clock::time_point at, bool from_bot, std::string_view text);  // in the transcript
    [[nodiscard]] ExitStatus decode(int status) const;  // waitpid status, bwrap's translated
    void forget();             // after reaping: no longer a bot for the reaper
    void note_group_limits();  // what the cgroup says of its limits, kept

    BotHost& host_;
    pid_t pid_ = -1;
    int stdin_fd_ = -1;
    int stdout_fd_ = -1;
    int stderr_fd_ = -1;  // -1 once stderr reached EOF
    int pid_fd_ = -1;     // pidfd: readable when the child exits (-1 if unsupported)
    std::size_t max_line_bytes_;
    std::size_t stderr_log_bytes_;
    std::string buffer_;  // stdout bytes read; [head_, end) not yet returned as lines
    std::size_t head_ = 0;
    std::size_t scan_ = 0;   // [head_, scan_) is known to hold no '\n'
    bool skipping_ = false;  // discarding the rest of a too-long line
    bool stdout_eof_ = false;
    bool child_exited_ = false;
    bool group_killed_ = false;
    bool reaped_ = false;               // and removed from the reaper
    bool lost_pid_ = false;             // reaped: pid_ may name another process now
    bool swept_ = false;                // the sweep after the kill is done
    Clock::time_point last_read_at_{};  // when the newest buffered bytes were read
    std::string stderr_log_;
    std::uint64_t stderr_dropped_ = 0;
    std::size_t transcript_limit_ = 0;
    std::size_t transcript_size_ = 0;
    std::uint64_t transcript_dropped_ = 0;
    std::vector<TranscriptLine> transcript_;
    std::optional<ExitStatus> exit_;
    Limits limits_;
    bool sandboxed_ = false;
    bool realtime_deadlines_ = true;
    bool frozen_ = false;
    std::optional<Clock::time_point> freeze_due_;  // a deferred freeze
    std::atomic<bool> over_task_limit_{false};     // set by the reaper's sweep
    std::atomic<bool> over_memory_limit_{false};   // set by the reaper's sweep
    // The reaper's poll of the tree's resident memory (without a cgroup).
    std::atomic<std::uint64_t> polled_rss_{0};
    std::atomic<std::uint64_t> polled_peak_{0};
    std::unique_ptr<cgroup::Group> group_;     // null: rlimits and the poll
    std::optional<std::uint64_t> final_peak_;  // the group's, read before it went
    bool oom_killed_ = false;                  // in the group, seen
    bool fork_refused_ = false;                // in the group, seen
};

}  // namespace arena::session
