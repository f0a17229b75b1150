// Process and Session against small POSIX shell scripts standing in for bots,
// so these tests depend on no real bot. Timing checks are correctness bounds
// (a verdict may come at most a few ms after its deadline), never benchmarks.

#include "arena/session/session.hpp"

#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "arena/session/command_line.hpp"
#include "arena/session/process.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::session {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ReadStatus = Process::ReadStatus;
using arena::testing::scaled;

// Upper bound for how late a verdict may come after its deadline (scaled for
// slow builds, see timing.hpp).
const auto kVerdictSlack = scaled(25ms);
constexpr int kTimingAttempts = 3;

ProcessOptions sh_process(const std::string& script) {
    ProcessOptions options;
    options.argv = {"/bin/sh", "-c", script};
    return options;
}

// A bot that completes the handshake, then runs `script`.
BotSpec sh_bot(const std::string& script) {
    return BotSpec{"test-bot", {"/bin/sh", "-c", "read hello; echo ready; " + script}, {}};
}

SessionOptions test_options() {
    SessionOptions options;
    options.startup_limit = 2000ms;
    options.quit_grace = 300ms;
    return options;
}

protocol::Position position(std::vector<std::string> moves = {"4", "3"}) {
    return protocol::Position{std::move(moves)};
}

protocol::Go go(std::int64_t move_ms = 200) {
    protocol::Go g;
    g.move_ms = move_ms;
    return g;
}

std::unique_ptr<Session> started(BotHost& host, const std::string& script,
                                 SessionOptions options = test_options()) {
    auto session = std::make_unique<Session>(host, sh_bot(script), options);
    const auto handshake = session->handshake();
    EXPECT_EQ(handshake.fault, Fault::kNone) << handshake.detail;
    return session;
}

// Live (not zombie) processes whose process group is `pgid`. Zombies are
// ignored: orphans are reparented to pid 1, which may not reap them.
int live_group_members(pid_t pgid) {
    int live = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string stat = arena::testing::read_proc_file((entry.path() / "stat").string());
        if (stat.empty()) continue;
        const auto paren = stat.rfind(')');
        if (paren == std::string::npos) continue;
        std::istringstream fields(stat.substr(paren + 2));
        char state = 0;
        long ppid = 0, pgrp = 0;
        fields >> state >> ppid >> pgrp;
        if (pgrp == pgid && state != 'Z' && state != 'X') ++live;
    }
    return live;
}

// Everything in the group is dead (SIGKILL delivery is asynchronous, so allow
// it a moment) and the child itself has been reaped.
void expect_group_gone(pid_t pgid) {
    const auto give_up = Clock::now() + 2s;
    for (;;) {
        const bool none =
            (::kill(-pgid, 0) != 0 && errno == ESRCH) || live_group_members(pgid) == 0;
        if (none) break;
        if (Clock::now() > give_up) {
            ADD_FAILURE() << "processes left in group " << pgid;
            break;
        }
        std::this_thread::sleep_for(1ms);
    }
    errno = 0;
    EXPECT_EQ(::waitpid(pgid, nullptr, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD);
}

std::int64_t micros(Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

// How late `verdict` came after `deadline`; a verdict before it is a bug.
Clock::duration lateness(Clock::time_point verdict, Clock::time_point deadline) {
    EXPECT_GE(verdict, deadline) << micros(deadline - verdict) << " us early";
    return verdict - deadline;
}

// Runs `attempt`, which returns how late its verdict was, until one is within
// kVerdictSlack. A verdict late on every attempt is a bug; a single late one
// is what the scheduler of a heavily loaded machine can do to any program.
template <class Attempt>
void expect_on_time(Attempt attempt) {
    Clock::duration best = Clock::duration::max();
    for (int i = 0; i < kTimingAttempts; ++i) {
        best = std::min(best, attempt());
        if (best < kVerdictSlack || ::testing::Test::HasFailure()) return;
    }
    ADD_FAILURE() << "verdict " << micros(best) << " us late on its best attempt";
}

// ---- Process ---------------------------------------------------------------

TEST(ExitStatus, Describe) {
    EXPECT_EQ((ExitStatus{true, 3, false, 0}).describe(), "exit 3");
    EXPECT_EQ((ExitStatus{false, 0, true, SIGSEGV}).describe(), "signal 11 (SIGSEGV)");
    EXPECT_EQ((ExitStatus{false, 0, true, SIGKILL}).describe(), "signal 9 (SIGKILL)");
}

TEST(Process, ReadsLinesStrippingCrAndKeepsOrder) {
    BotHost host;
    Process p(host, sh_process("printf 'one\\r\\ntwo\\n\\nthree\\npartial'"));
    const auto deadline = Clock::now() + 5s;
    for (const char* expected : {"one", "two", "", "three"}) {
        auto r = p.read_line(deadline);
        ASSERT_EQ(r.status, ReadStatus::kLine);
        EXPECT_EQ(r.line, expected);
    }
    EXPECT_EQ(p.read_line(deadline).status, ReadStatus::kEof);  // the partial line is dropped
    EXPECT_EQ(p.read_line(deadline).status, ReadStatus::kEof);
    const auto status = p.wait_exit(deadline);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(status->describe(), "exit 0");
}

TEST(Process, TimeoutAtTheDeadline) {
    BotHost host;
    Process p(host, sh_process("sleep 10"));
    expect_on_time([&] {
        const auto deadline = Clock::now() + 100ms;
        const auto r = p.read_line(deadline);
        EXPECT_EQ(r.status, ReadStatus::kTimeout);
        return lateness(r.at, deadline);
    });
    // A deadline in the past still returns at once.
    const auto past = p.read_line(Clock::now() - 1s);
    EXPECT_EQ(past.status, ReadStatus::kTimeout);
}

// A deadline in the past reads the pipe once: what the child wrote before the
// call comes back, and so does the end of its output. The child may take a
// while to answer on a loaded machine: the test reads again until it has.
TEST(Process, APastDeadlineCollectsWhatIsAlreadyInThePipe) {
    BotHost host;
    Process p(host, sh_process("read x; echo \"got $x\"; read y; exit 0"));
    const auto past = [] { return Clock::now() - 1s; };
    const auto read_once_there = [&] {
        const auto give_up = Clock::now() + 10s;
        for (;;) {
            auto r = p.read_line(past());
            if (r.status != ReadStatus::kTimeout || Clock::now() > give_up) return r;
            std::this_thread::sleep_for(10ms);
        }
    };
    EXPECT_EQ(p.read_line(past()).status, ReadStatus::kTimeout);
    ASSERT_TRUE(p.write_line("one", Clock::now() + 5s));
    const auto r = read_once_there();
    ASSERT_EQ(r.status, ReadStatus::kLine);
    EXPECT_EQ(r.line, "got one");
    EXPECT_EQ(p.read_line(past()).status, ReadStatus::kTimeout);
    ASSERT_TRUE(p.write_line("two", Clock::now() + 5s));
    EXPECT_EQ(read_once_there().status, ReadStatus::kEof);
}

TEST(Process, EchoesWhatItIsSent) {
    BotHost host;
    Process p(host, sh_process("while read line; do echo \"got $line\"; done"));
    const auto deadline = Clock::now() + 5s;
    for (int i = 0; i < 100; ++i) {
        ASSERT_TRUE(p.write_line("hello " + std::to_string(i), deadline));
        const auto r = p.read_line(deadline);
        ASSERT_EQ(r.status, ReadStatus::kLine);
        EXPECT_EQ(r.line, "got hello " + std::to_string(i));
    }
}

TEST(Process, TooLongLineIsReportedThenSkipped) {
    BotHost host;
    ProcessOptions options =
        sh_process("head -c 5000 /dev/zero | tr '\\0' x; echo; echo short; cat /dev/zero");
    options.max_line_bytes = 1000;
    Process p(host, options);
    const auto deadline = Clock::now() + 5s;
    EXPECT_EQ(p.read_line(deadline).status, ReadStatus::kTooLong);
    auto r = p.read_line(deadline);
    ASSERT_EQ(r.status, ReadStatus::kLine);
    EXPECT_EQ(r.line, "short");
    // An endless line: reported as soon as the limit is passed.
    EXPECT_EQ(p.read_line(deadline).status, ReadStatus::kTooLong);
}

TEST(Process, ChildGetsCleanEnvironment) {
    BotHost host;
    // Own process group, SIGPIPE at its default, only fds 0..2 inherited.
    Process p(host, sh_process("grep SigIgn /proc/$$/status; read wait"));
    EXPECT_EQ(::getpgid(p.pid()), p.pid());
    auto ignored = p.read_line(Clock::now() + 5s);
    ASSERT_EQ(ignored.status, ReadStatus::kLine);
    EXPECT_EQ(ignored.line, "SigIgn:\t0000000000000000");
    // The shell now waits in `read`: look at its descriptors from outside.
    std::vector<std::string> fds;
    for (const auto& entry : fs::directory_iterator("/proc/" + std::to_string(p.pid()) + "/fd")) {
        fds.push_back(entry.path().filename().string());
    }
    std::sort(fds.begin(), fds.end());
    EXPECT_EQ(fds, (std::vector<std::string>{"0", "1", "2"}));
}

TEST(Process, NiceLimitLowersTheBotsPriority) {
    BotHost host;
    ProcessOptions options = sh_process("cut -d' ' -f19 /proc/self/stat");
    options.limits.nice = 7;
    Process p(host, options);
    auto r = p.read_line(Clock::now() + 5s);
    ASSERT_EQ(r.status, ReadStatus::kLine);
    EXPECT_EQ(r.line, "7");
}

// Its own process group (freezing and killing use it), but the arena's
// session: a session of its own would be a scheduling group of its own.
// Seen from the arena: inside the bots' PID namespace (reaper.hpp) the bot
// sees other numbers.
TEST(Process, OwnProcessGroupInTheArenasSession) {
    BotHost host;
    Process p(host, sh_process("echo started; read wait"));
    auto r = p.read_line(Clock::now() + 5s);
    ASSERT_EQ(r.status, ReadStatus::kLine);
    EXPECT_EQ(::getpgid(p.pid()), p.pid());
    EXPECT_EQ(::getsid(p.pid()), ::getsid(0));
}

// Whether this process may use real-time priority at all (tried on a
// thread of its own).
bool realtime_permitted() {
    bool permitted = false;
    std::thread([&] {
        sched_param param{};
        param.sched_priority = 1;
        permitted = ::sched_setscheduler(0, SCHED_FIFO, &param) == 0;
    }).join();
    return permitted;
}

int policy_of_this_thread() {
    return ::sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
}

// Whether this process holds /dev/cpu_dma_latency open (a PM QoS request).
bool holds_idle_latency_request() {
    std::error_code ec;
    for (const auto& fd : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
        if (std::filesystem::read_symlink(fd.path(), ec) == "/dev/cpu_dma_latency") return true;
    }
    return false;
}

// A wait runs at real-time priority only in its last kRealtimeWindow: a reply
// long before the deadline leaves the thread as it was, a wait that reaches
// its deadline ends at real-time priority, and the next wait with a distant
// deadline goes back.
TEST(Process, OnlyTheEndOfAWaitRunsAtRealTimePriority) {
    BotHost host;
    if (!realtime_permitted()) GTEST_SKIP() << "real-time priority is not permitted here";
    std::thread([&] {
        Process p(host, sh_process("while read -r line; do echo \"$line\"; done"));
        ASSERT_TRUE(p.write_line("one", Clock::now() + 5s));
        ASSERT_EQ(p.read_line(Clock::now() + 5s).status, ReadStatus::kLine);
        EXPECT_EQ(policy_of_this_thread(), SCHED_OTHER);

        EXPECT_EQ(p.read_line(Clock::now() + 50ms).status, ReadStatus::kTimeout);
        EXPECT_EQ(policy_of_this_thread(), SCHED_FIFO);
        // Root may also keep the CPUs out of deep idle states meanwhile.
        if (::access("/dev/cpu_dma_latency", W_OK) == 0) {
            EXPECT_TRUE(holds_idle_latency_request());
        }

        ASSERT_TRUE(p.write_line("two", Clock::now() + 5s));
        const auto r = p.read_line(Clock::now() + 5s);
        ASSERT_EQ(r.status, ReadStatus::kLine);
        EXPECT_EQ(r.line, "two");
        EXPECT_EQ(policy_of_this_thread(), SCHED_OTHER);
    }).join();
}

TEST(Process, RealTimeDeadlinesCanBeTurnedOff) {
    BotHost host;
    std::thread([&] {
        ProcessOptions options = sh_process("sleep 5");
        options.realtime_deadlines = false;
        Process p(host, options);
        EXPECT_EQ(p.read_line(Clock::now() + 50ms).status, ReadStatus::kTimeout);
        EXPECT_EQ(policy_of_this_thread(), SCHED_OTHER);
    }).join();
}

// A wait sleeps in a few long stretches, not in short slices: up to
// kRealtimeWindow before its deadline, then to the deadline. Each sleep is
// one voluntary context switch of the waiting thread.
TEST(Process, AWaitWakesOnlyAtTheWindowAndTheDeadline) {
    BotHost host;
    for (const bool realtime : {true, false}) {
        std::thread([&host, realtime] {
            ProcessOptions options = sh_process("sleep 5");
            options.realtime_deadlines = realtime;
            Process p(host, options);
            const auto switches = [] {
                rusage usage{};
                ::getrusage(RUSAGE_THREAD, &usage);
                return usage.ru_nvcsw;
            };
            const long before = switches();
            EXPECT_EQ(p.read_line(Clock::now() + 600ms).status, ReadStatus::kTimeout);
            EXPECT_LE(switches() - before, 4) << "realtime " << realtime;
        }).join();
    }
}

// Real-time priority stays with the waiting thread: a thread or process it
// starts, and every bot, runs under the normal policy (bots at their
// niceness).
TEST(Process, RealTimePriorityIsNeverInherited) {
    BotHost host;
    if (!realtime_permitted()) GTEST_SKIP() << "real-time priority is not permitted here";
    std::thread([&] {
        Process waiter(host, sh_process("sleep 5"));
        EXPECT_EQ(waiter.read_line(Clock::now() + 30ms).status, ReadStatus::kTimeout);
        ASSERT_EQ(policy_of_this_thread(), SCHED_FIFO);

        int thread_policy = -1;
        std::thread([&] { thread_policy = policy_of_this_thread(); }).join();
        EXPECT_EQ(thread_policy, SCHED_OTHER);

        const pid_t child = ::fork();
        if (child == 0) ::_exit(policy_of_this_thread() == SCHED_OTHER ? 0 : 1);
        int status = -1;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;

        // Fields 19 and 41 of /proc/<pid>/stat: the niceness and the policy;
        // then the highest real-time priority it may ask for.
        ProcessOptions options = sh_process(
            "cut -d' ' -f19,41 /proc/self/stat; "
            "grep 'Max realtime priority' /proc/self/limits | tr -s ' ' | cut -d' ' -f4,5");
        Process bot(host, options);
        auto r = bot.read_line(Clock::now() + 5s);
        ASSERT_EQ(r.status, ReadStatus::kLine);
        EXPECT_EQ(r.line, std::to_string(options.limits.nice) + " " + std::to_string(SCHED_OTHER));
        r = bot.read_line(Clock::now() + 5s);
        ASSERT_EQ(r.status, ReadStatus::kLine);
        EXPECT_EQ(r.line, "0 0");  // soft and hard limit
    }).join();
}

TEST(Process, WorkingDirectory) {
    BotHost host;
    ProcessOptions options = sh_process("pwd");
    options.working_dir = "/tmp";
    Process p(host, options);
    auto r = p.read_line(Clock::now() + 5s);
    ASSERT_EQ(r.status, ReadStatus::kLine);
    EXPECT_EQ(r.line, "/tmp");

    options.working_dir = "/nonexistent-arena-dir";
    try {
        Process bad(host, options);
        FAIL() << "no SpawnError";
    } catch (const SpawnError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-arena-dir"), std::string::npos)
            << e.what();
    }
}

TEST(Process, SpawnErrorNotFound) {
    BotHost host;
    for (const std::string command : {"build/bots/nope", "arena-no-such-bot-xyz"}) {
        ProcessOptions options;
        options.argv = {command};
        try {
            Process p(host, options);
            FAIL() << "no SpawnError for " << command;
        } catch (const SpawnError& e) {
            // With the likely cause: a relative path, or a name not in PATH.
            const std::string hint =
                command.find('/') != std::string::npos
                    ? " (a relative path is taken from the bot's directory: its 'dir', else the "
                      "directory the arena was started in)"
                    : " (not found in PATH)";
            EXPECT_EQ(std::string(e.what()),
                      "cannot start '" + command + "': No such file or directory" + hint);
        }
    }
    // The failed child was reaped: no zombie is left. (The arena's keeper
    // process, reaper.hpp, may be a live child.)
    errno = 0;
    const pid_t zombie = ::waitpid(-1, nullptr, WNOHANG);
    EXPECT_TRUE(zombie == 0 || (zombie == -1 && errno == ECHILD)) << zombie;
}

TEST(Process, SpawnErrorNotExecutable) {
    BotHost host;
    const fs::path file =
        fs::temp_directory_path() / ("arena-not-exec-" + std::to_string(::getpid()));
    std::ofstream(file) << "#!/bin/sh\necho hi\n";
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    ProcessOptions options;
    options.argv = {file.string()};
    try {
        Process p(host, options);
        ADD_FAILURE() << "no SpawnError";
    } catch (const SpawnError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot start '" + file.string() +
                                             "': Permission denied (is it executable? chmod +x)");
    }
    fs::remove(file);
}

// A script without a '#!' line cannot be executed; the message says what to add.
TEST(Process, SpawnErrorExecFormatSaysWhatIsMissing) {
    BotHost host;
    const fs::path file =
        fs::temp_directory_path() / ("arena-no-shebang-" + std::to_string(::getpid()));
    std::ofstream(file) << "print('ready')\n";
    fs::permissions(file, fs::perms::owner_all);
    ProcessOptions options;
    options.argv = {file.string()};
    try {
        Process p(host, options);
        ADD_FAILURE() << "no SpawnError";
    } catch (const SpawnError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cannot start '" + file.string() +
                      "': Exec format error (a script needs a first line such as "
                      "'#!/usr/bin/env python3', or give its interpreter: 'python3 bot.py')");
    }
    fs::remove(file);
}

TEST(Process, WritingToAnExitedChildFailsWithoutSigpipe) {
    BotHost host;
    Process p(host, sh_process("exit 0"));
    const auto status = p.wait_exit(Clock::now() + 5s);
    ASSERT_TRUE(status.has_value());
    for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(p.write_line("anyone there?", Clock::now() + 1s));
    EXPECT_EQ(p.read_line(Clock::now() + 1s).status, ReadStatus::kEof);
}

TEST(Process, WriteTimesOutWhenChildDoesNotRead) {
    BotHost host;
    Process p(host, sh_process("sleep 10"));
    const std::string big(1 << 20, 'x');  // far more than a pipe holds
    expect_on_time([&] {
        const auto deadline = Clock::now() + 100ms;
        EXPECT_FALSE(p.write_line(big, deadline));
        return lateness(Clock::now(), deadline);
    });
}

TEST(Process, KillTakesTheWholeGroup) {
    BotHost host;
    Process p(host, sh_process("sleep 100 & sleep 100 & echo started; wait"));
    ASSERT_EQ(p.read_line(Clock::now() + 5s).status, ReadStatus::kLine);
    const pid_t pid = p.pid();
    const auto status = p.kill();
    EXPECT_EQ(status.describe(), "signal 9 (SIGKILL)");
    EXPECT_EQ(p.kill().describe(), "signal 9 (SIGKILL)");  // idempotent
    expect_group_gone(pid);
}

TEST(Process, DestructorKillsTheGroup) {
    BotHost host;
    pid_t pid = -1;
    {
        Process p(host, sh_process("sleep 100 & sleep 100"));
        pid = p.pid();
    }
    expect_group_gone(pid);
}

TEST(Process, ExitOfChildIsSeenEvenIfAGrandchildHoldsStdout) {
    BotHost host;
    Process p(host, sh_process("sleep 100 & echo bye; exit 4"));
    const auto start = Clock::now();
    auto r = p.read_line(start + scaled(5s));
    ASSERT_EQ(r.status, ReadStatus::kLine);
    EXPECT_EQ(r.line, "bye");
    EXPECT_EQ(p.read_line(start + scaled(5s)).status, ReadStatus::kEof);
    EXPECT_LT(Clock::now() - start, scaled(2s));
    const pid_t pid = p.pid();
    p.kill();
    expect_group_gone(pid);
}

TEST(Process, StderrKeepsABoundedTail) {
    BotHost host;
    ProcessOptions options =
        sh_process("head -c 3000000 /dev/zero >&2; printf 'last words' >&2; echo done");
    options.stderr_log_bytes = 1000;
    Process p(host, options);
    auto r = p.read_line(Clock::now() + 10s);
    ASSERT_EQ(r.status, ReadStatus::kLine);
    EXPECT_EQ(r.line, "done");
    EXPECT_LE(p.stderr_log().size(), 2000U);  // bounded while it runs
    const std::string log = p.take_stderr_log();
    EXPECT_TRUE(log.ends_with("last words")) << log.substr(log.size() - 20);
    const std::string header =
        "[" + std::to_string(3000000 + 10 - 1000) + " earlier bytes not kept]\n";
    EXPECT_EQ(log.substr(0, header.size()), header);
    EXPECT_EQ(log.size(), header.size() + 1000);
    EXPECT_EQ(p.take_stderr_log(), "");  // taken: the next log starts empty
}

// ---- Session: handshake ----------------------------------------------------

TEST(Session, HandshakeReadsIdentity) {
    BotHost host;
    // A long grace: the bot exits by itself on `quit` (exit 0, not SIGKILL)
    // however slowly the machine runs it.
    auto options = test_options();
    options.quit_grace = 10s;
    Session s(
        host,
        BotSpec{"t",
                {"/bin/sh", "-c",
                 "read hello; [ \"$hello\" = 'arena 1' ] || exit 9; echo 'name Deep Thought'; "
                 "echo 'author Ann Example'; echo 'version 1.2'; echo 'info warming up'; "
                 "echo 'debug x'; echo ready; read line; [ \"$line\" = quit ] && exit 0; "
                 "exit 5"},
                {}},
        options);
    const auto h = s.handshake();
    ASSERT_EQ(h.fault, Fault::kNone) << h.detail;
    EXPECT_EQ(s.identity().name, "Deep Thought");
    EXPECT_EQ(s.identity().author, "Ann Example");
    EXPECT_EQ(s.identity().version, "1.2");
    EXPECT_TRUE(s.alive());
    const auto start = Clock::now();
    s.quit();
    EXPECT_LT(Clock::now() - start, options.quit_grace);  // it exited by itself
    EXPECT_FALSE(s.alive());
    ASSERT_TRUE(s.exit_status().has_value());
    EXPECT_EQ(s.exit_status()->describe(), "exit 0");
}

TEST(Session, HandshakeExit) {
    BotHost host;
    Session s(host, BotSpec{"t", {"/bin/sh", "-c", "exit 3"}, {}}, test_options());
    const auto h = s.handshake();
    EXPECT_EQ(h.fault, Fault::kStartup);
    EXPECT_EQ(h.detail, "exited during start-up: exit 3");
    EXPECT_FALSE(s.alive());
}

TEST(Session, HandshakeSilence) {
    BotHost host;
    SessionOptions options = test_options();
    options.startup_limit = 300ms;
    expect_on_time([&] {
        Session s(host, BotSpec{"t", {"/bin/sh", "-c", "sleep 100"}, {}}, options);
        const pid_t pid = s.pid();
        const auto h = s.handshake();
        EXPECT_EQ(h.fault, Fault::kStartup);
        // It wrote nothing at all: the usual cause is an unflushed stdout.
        EXPECT_EQ(h.detail,
                  "no `ready` within 300 ms (nothing at all came on stdout: a bot must flush "
                  "stdout after each line, e.g. print(..., flush=True) in Python)");
        EXPECT_FALSE(s.alive());
        expect_group_gone(pid);
        EXPECT_GE(h.elapsed, 300ms);
        return h.elapsed - 300ms;
    });
}

TEST(Session, HandshakeUnexpectedLine) {
    BotHost host;
    Session s(host, BotSpec{"t", {"/bin/sh", "-c", "read hello; echo xyz; sleep 10"}, {}},
              test_options());
    const auto h = s.handshake();
    EXPECT_EQ(h.fault, Fault::kStartup);
    EXPECT_EQ(h.detail, "unexpected line during start-up: 'xyz'");
}

// ---- Session: moves --------------------------------------------------------

TEST(Session, AnswersAMove) {
    BotHost host;
    auto s =
        started(host, "read game; read pos; read go; echo \"info $game|$pos|$go\"; echo 'move 4'");
    protocol::GameStart game;
    game.game = "connect4";
    ASSERT_TRUE(s->start_game(game));
    const auto reply = s->request_move(position(), go(), 2s);
    ASSERT_EQ(reply.fault, Fault::kNone) << reply.detail;
    EXPECT_EQ(reply.move, "4");
    ASSERT_EQ(reply.info.size(), 1U);
    EXPECT_EQ(reply.info[0], protocol::format(game) + "|" + protocol::format(position()) + "|" +
                                 protocol::format(go()));
    EXPECT_LE(reply.go_written, reply.answered);
    EXPECT_LT(reply.elapsed(), 2s);
    EXPECT_TRUE(s->alive());
}

TEST(Session, PlaysSeveralMoves) {
    BotHost host;
    auto s =
        started(host,
                "while read pos; do [ \"$pos\" = quit ] && exit 0; read go; echo 'info thinking'; "
                "echo 'move 1'; done");
    for (int i = 0; i < 50; ++i) {
        const auto reply = s->request_move(position(), go(), 2s);
        ASSERT_EQ(reply.fault, Fault::kNone) << reply.detail;
        EXPECT_EQ(reply.move, "1");
        EXPECT_EQ(reply.info, std::vector<std::string>{"thinking"});
    }
    s->quit();
    EXPECT_EQ(s->exit_status()->describe(), "exit 0");
}

TEST(Session, InfoLinesAreRecordedAndCapped) {
    BotHost host;
    SessionOptions options = test_options();
    options.max_info_lines_per_move = 3;
    auto s =
        started(host,
                "read pos; read go; echo 'info depth 1'; echo 'debug hmm'; echo 'info depth 2'; "
                "echo 'info depth 3'; echo 'info depth 4'; echo 'debug y'; echo 'move 2'",
                options);
    const auto reply = s->request_move(position(), go(), 2s);
    ASSERT_EQ(reply.fault, Fault::kNone) << reply.detail;
    EXPECT_EQ(reply.move, "2");
    EXPECT_EQ(reply.info, (std::vector<std::string>{"depth 1", "depth 2"}));
    EXPECT_EQ(reply.info_dropped, 3U);  // depth 3, depth 4 and the second debug line
}

TEST(Session, TimeoutWhenTheBotSleeps) {
    BotHost host;
    expect_on_time([&] {
        auto s = started(host, "read pos; read go; sleep 10; echo 'move 1'");
        const pid_t pid = s->pid();
        const auto reply = s->request_move(position(), go(), 200ms);
        EXPECT_EQ(reply.fault, Fault::kTimeout);
        EXPECT_EQ(reply.detail, "no move within 200 ms");
        EXPECT_FALSE(s->alive());
        expect_group_gone(pid);
        return lateness(reply.answered, reply.go_written + 200ms);
    });
}

TEST(Session, TalkingDoesNotExtendTheDeadline) {
    BotHost host;
    SessionOptions options = test_options();
    options.max_info_lines_per_move = 10;
    expect_on_time([&] {
        auto s = started(host, "read pos; read go; while :; do echo 'info still thinking'; done",
                         options);
        const auto reply = s->request_move(position(), go(), 200ms);
        EXPECT_EQ(reply.fault, Fault::kTimeout);
        EXPECT_EQ(reply.info.size(), 10U);
        EXPECT_GT(reply.info_dropped, 0U);
        return lateness(reply.answered, reply.go_written + 200ms);
    });
}

TEST(Session, MoveWithoutNewlineIsATimeout) {
    BotHost host;
    expect_on_time([&] {
        auto s = started(host, "read pos; read go; printf 'move 4'; sleep 10");
        const auto reply = s->request_move(position(), go(), 200ms);
        EXPECT_EQ(reply.fault, Fault::kTimeout);
        return lateness(reply.answered, reply.go_written + 200ms);
    });
}

TEST(Session, GarbageIsAProtocolFault) {
    BotHost host;
    auto s = started(host, "read pos; read go; echo 'hello there'; sleep 10");
    const auto reply = s->request_move(position(), go(), scaled(2s));
    EXPECT_EQ(reply.fault, Fault::kProtocol);
    EXPECT_NE(reply.detail.find("'hello there'"), std::string::npos) << reply.detail;
    EXPECT_LT(reply.elapsed(), scaled(1s));  // at once, not at the deadline
    EXPECT_FALSE(s->alive());
}

TEST(Session, LongGarbageIsQuotedShort) {
    BotHost host;
    auto s = started(host, "read pos; read go; head -c 500 /dev/zero | tr '\\0' y; echo; sleep 10");
    const auto reply = s->request_move(position(), go(), 2s);
    EXPECT_EQ(reply.fault, Fault::kProtocol);
    EXPECT_EQ(reply.detail.find(std::string(81, 'y')), std::string::npos) << reply.detail;
    EXPECT_NE(reply.detail.find("yyy'..."), std::string::npos) << reply.detail;
}

TEST(Session, CrashIsReportedWithTheSignal) {
    BotHost host;
    auto s = started(host, "read pos; read go; kill -SEGV $$");
    const auto reply = s->request_move(position(), go(), 2s);
    EXPECT_EQ(reply.fault, Fault::kCrash);
    EXPECT_EQ(reply.detail, "exited: signal 11 (SIGSEGV)");
    ASSERT_TRUE(s->exit_status().has_value());
    EXPECT_TRUE(s->exit_status()->signaled);
    EXPECT_EQ(s->exit_status()->signal, SIGSEGV);
}

TEST(Session, CrashIsSeenWhileAGrandchildHoldsStdout) {
    BotHost host;
    auto s = started(host, "sleep 100 & read pos; read go; kill -SEGV $$");
    const pid_t pid = s->pid();
    const auto reply = s->request_move(position(), go(), scaled(5s));
    EXPECT_EQ(reply.fault, Fault::kCrash);
    EXPECT_EQ(reply.detail, "exited: signal 11 (SIGSEGV)");
    EXPECT_LT(reply.elapsed(), scaled(2s));
    expect_group_gone(pid);
}

TEST(Session, ClosingStdoutIsACrash) {
    BotHost host;
    auto s = started(host, "read pos; read go; exec 1>&-; sleep 10");
    const auto reply = s->request_move(position(), go(), 2s);
    EXPECT_EQ(reply.fault, Fault::kCrash);
    EXPECT_EQ(reply.detail, "closed its stdout");
}

TEST(Session, EndlessLineIsAProtocolFault) {
    BotHost host;
    SessionOptions options = test_options();
    options.max_line_bytes = 4096;
    auto s = started(host, "read pos; read go; cat /dev/zero", options);
    const auto reply = s->request_move(position(), go(), scaled(5s));
    EXPECT_EQ(reply.fault, Fault::kProtocol);
    EXPECT_EQ(reply.detail, "line longer than 4096 bytes");
    EXPECT_LT(reply.elapsed(), scaled(2s));
}

TEST(Session, StderrFloodIsBoundedAndHarmless) {
    BotHost host;
    SessionOptions options = test_options();
    options.stderr_log_bytes = 64 << 10;
    auto s =
        started(host, "read pos; read go; head -c 50000000 /dev/zero >&2; echo 'move 3'", options);
    const auto reply = s->request_move(position(), go(), 10s);
    ASSERT_EQ(reply.fault, Fault::kNone) << reply.detail;
    EXPECT_EQ(reply.move, "3");
    EXPECT_LE(s->stderr_log().size(), std::size_t{128} << 10);
    const std::string log = s->take_stderr_log();
    EXPECT_TRUE(log.starts_with("[" + std::to_string(50000000 - (64 << 10)) + " earlier bytes"))
        << log.substr(0, 60);
}

// Two moves in one write: the second is already there when the first is
// read, and is judged with it (issue 41 item 8).
TEST(Session, ASecondMoveRightBehindTheMoveIsJudgedWithIt) {
    BotHost host;
    auto s = started(host, "read pos; read go; printf 'move 1\\nmove 2\\n'; sleep 10");
    const auto first = s->request_move(position(), go(), 2s);
    EXPECT_EQ(first.fault, Fault::kProtocol);
    EXPECT_EQ(first.detail,
              "a second line after its move '1': 'move 2' (exactly one `move` per `go`: a second "
              "one would be taken for the answer to the next `go`)");
    EXPECT_FALSE(s->alive());
}

TEST(Session, LineWhileNotOnMove) {
    BotHost host;
    auto s = started(host, "read pos; read go; echo 'move 1'; read x; echo 'move 2'; sleep 10");
    const auto first = s->request_move(position(), go(), 2s);
    ASSERT_EQ(first.fault, Fault::kNone) << first.detail;
    s->end_game(protocol::End{});  // read by `read x`
    std::this_thread::sleep_for(50ms);
    const auto second = s->request_move(position(), go(), 2s);
    EXPECT_EQ(second.fault, Fault::kProtocol);
    EXPECT_EQ(second.detail, "line while not on move: 'move 2'");
}

// A second `move` to the previous `go` that comes after the check before the
// next `go` (the bot was slow to write it), while that `go` still waits
// unread in the bot's input: stale, never the answer (issue 41 item 8; a
// stale move used to be taken, and judged against the next position).
TEST(Session, AMoveWrittenBeforeTheBotReadItsGoIsNotTheAnswer) {
    BotHost host;
    const std::string pause = std::to_string(static_cast<double>(scaled(300ms).count()) / 1000.0);
    auto s = started(host, "read pos; read go; echo 'move 1'; sleep " + pause +
                               "; echo 'move 1'; sleep " + pause +
                               "; read pos; read go; echo 'move 2'; sleep 10");
    const auto first = s->request_move(position(), go(), 2s);
    ASSERT_EQ(first.fault, Fault::kNone) << first.detail;
    const auto second = s->request_move(position(), go(), scaled(3s));
    EXPECT_EQ(second.fault, Fault::kProtocol) << "taken as the answer: " << second.move;
    EXPECT_EQ(second.detail,
              "line while not on move: 'move 1' (written before it had read its `go`: a late "
              "line, such as a second `move` to the `go` before, is never taken as the answer)");
    EXPECT_FALSE(s->alive());
}

// The out-of-turn line comes after the reply was read, in a later write.
// The shell then becomes `sleep 10` (exec): once it has, the line is written.
TEST(Session, LateLineWhileNotOnMove) {
    BotHost host;
    auto s =
        started(host, "read pos; read go; echo 'move 1'; sleep 0.05; echo 'move 2'; exec sleep 10");
    const auto first = s->request_move(position(), go(), 2s);
    ASSERT_EQ(first.fault, Fault::kNone) << first.detail;
    EXPECT_EQ(first.move, "1");
    const std::string comm = "/proc/" + std::to_string(s->pid()) + "/comm";
    const auto give_up = Clock::now() + 10s;
    while (arena::testing::read_proc_file(comm) != "sleep\n" && Clock::now() < give_up)
        std::this_thread::sleep_for(5ms);
    ASSERT_EQ(arena::testing::read_proc_file(comm), "sleep\n");
    const auto second = s->request_move(position(), go(), 2s);
    EXPECT_EQ(second.fault, Fault::kProtocol);
    EXPECT_EQ(second.detail, "line while not on move: 'move 2'");
}

TEST(Session, StrayInfoBetweenMovesIsDiscarded) {
    BotHost host;
    auto s = started(
        host,
        "read pos; read go; printf 'move 1\\ninfo late\\n'; read pos; read go; echo 'move 2'");
    ASSERT_EQ(s->request_move(position(), go(), 2s).fault, Fault::kNone);
    std::this_thread::sleep_for(50ms);
    const auto second = s->request_move(position(), go(), 2s);
    ASSERT_EQ(second.fault, Fault::kNone) << second.detail;
    EXPECT_EQ(second.move, "2");
    EXPECT_TRUE(second.info.empty());
}

TEST(Session, BotThatDoesNotReadTimesOut) {
    BotHost host;
    auto s = started(host, "sleep 10");
    const auto reply =
        s->request_move(position(std::vector<std::string>(100000, "a1")), go(), 200ms);
    EXPECT_EQ(reply.fault, Fault::kTimeout);
    EXPECT_EQ(reply.detail, "did not read its input within 200 ms");
}

// The state letter of a process ('T': stopped), from /proc/PID/stat.
char process_state(pid_t pid) {
    const std::string stat =
        arena::testing::read_proc_file("/proc/" + std::to_string(pid) + "/stat");
    const auto paren = stat.rfind(')');
    return paren == std::string::npos || paren + 2 >= stat.size() ? '?' : stat[paren + 2];
}

// A signalled process stops a moment after kill() returns.
char state_once_stopped(pid_t pid) {
    const auto give_up = Clock::now() + 5s;
    while (process_state(pid) != 'T' && Clock::now() < give_up)
        std::this_thread::sleep_for(1ms);
    return process_state(pid);
}

std::unique_ptr<Session> started_bot(BotHost& host, BotSpec spec) {
    auto session = std::make_unique<Session>(host, std::move(spec), test_options());
    const auto handshake = session->handshake();
    EXPECT_EQ(handshake.fault, Fault::kNone) << handshake.detail;
    return session;
}

// After its move a bot runs on for the grace; a read waiting for the other
// bot stops it when the grace is over. Nothing here depends on timing: with
// no such read, nothing stops it; the other bot's reply takes 40 grace
// periods.
TEST(Session, FreezeAfterAMoveIsDeferredToTheOtherBotsWait) {
    BotHost host;
    const std::string burn = "read pos; read go; echo 'move 1'; while :; do :; done";
    auto thinker = started_bot(host, sh_bot(burn));
    auto other = started(host, "read pos; read go; sleep 0.2; echo 'move 2'");
    ASSERT_EQ(thinker->request_move(position(), go(), 2s).fault, Fault::kNone);
    ASSERT_TRUE(thinker->freeze_due().has_value());
    EXPECT_NE(process_state(thinker->pid()), 'T');
    const auto reply = other->request_move(position(), go(), 2s, thinker.get());
    ASSERT_EQ(reply.fault, Fault::kNone) << reply.detail;
    EXPECT_EQ(state_once_stopped(thinker->pid()), 'T');
    EXPECT_FALSE(thinker->freeze_due().has_value());

    // Grace 0: stopped with the move.
    auto spec = sh_bot(burn);
    spec.isolation.freeze_grace = Millis{0};
    auto strict = started_bot(host, spec);
    ASSERT_EQ(strict->request_move(position(), go(), 2s).fault, Fault::kNone);
    EXPECT_EQ(state_once_stopped(strict->pid()), 'T');
    // The game is over: a pending freeze is carried out at once.
    auto last = started_bot(host, sh_bot(burn));
    ASSERT_EQ(last->request_move(position(), go(), 2s).fault, Fault::kNone);
    last->freeze_if_due(Clock::time_point::max());
    EXPECT_EQ(state_once_stopped(last->pid()), 'T');
}

TEST(Session, BotThatExitedBetweenMoves) {
    BotHost host;
    // Not frozen after its move, or it could not exit until its next turn.
    auto spec = sh_bot("read pos; read go; echo 'move 1'; exit 0");
    spec.isolation.freeze_when_idle = false;
    auto s = std::make_unique<Session>(host, spec, test_options());
    ASSERT_EQ(s->handshake().fault, Fault::kNone);
    ASSERT_EQ(s->request_move(position(), go(), 2s).fault, Fault::kNone);
    siginfo_t info{};  // wait for the exit without reaping it
    ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(s->pid()), &info, WEXITED | WNOWAIT), 0);
    const auto reply = s->request_move(position(), go(), 2s);
    EXPECT_EQ(reply.fault, Fault::kCrash);
    EXPECT_EQ(reply.detail, "exited: exit 0");
    // A dead session answers at once.
    const auto again = s->request_move(position(), go(), 2s);
    EXPECT_EQ(again.fault, Fault::kCrash);
    EXPECT_FALSE(s->start_game(protocol::GameStart{}));
}

TEST(Session, QuitIgnoredIsKilledAfterTheGrace) {
    BotHost host;
    auto s = started(host, "sleep 100 & while read line; do :; done");
    const pid_t pid = s->pid();
    s->end_game(protocol::End{});
    EXPECT_TRUE(s->alive());
    const auto start = Clock::now();
    s->quit();
    const auto took = Clock::now() - start;
    EXPECT_GE(took, 300ms);
    EXPECT_LT(took, scaled(2s));  // the grace, then SIGKILL: no further waiting
    EXPECT_FALSE(s->alive());
    EXPECT_EQ(s->exit_status()->describe(), "signal 9 (SIGKILL)");
    expect_group_gone(pid);
}

TEST(Session, QuitAlsoKillsLeftovers) {
    BotHost host;
    auto s = started(host, "sleep 100 & read line; exit 0");
    const pid_t pid = s->pid();
    s->quit();
    EXPECT_EQ(s->exit_status()->describe(), "exit 0");
    expect_group_gone(pid);
}

TEST(Session, DestructorKillsTheGroup) {
    BotHost host;
    pid_t pid = -1;
    {
        auto s = started(host, "sleep 100 & sleep 100");
        pid = s->pid();
    }
    expect_group_gone(pid);
}

// ---- Session: the hooks of check-bot ----------------------------------------

// Adds a line before `game` and `position`, a word to `end`, watches for
// `watch` after each command, and adds to the note of a missed deadline.
class TestHooks final : public SessionHooks {
  public:
    std::string outgoing(Command command, std::string lines) override {
        if (command == Command::kEnd) return lines + " extra=1";
        return "unknown-command\n" + lines;
    }
    std::chrono::milliseconds watch_after(Command /*command*/) override { return watch; }
    std::string deadline_missed(const MissedDeadline& missed, Process& /*process*/) override {
        ++missed_deadlines;
        silent = missed.silent;
        return std::string(missed.note) + "; seen by the hooks";
    }

    std::chrono::milliseconds watch{0};
    int missed_deadlines = 0;
    bool silent = false;
};

TEST(Session, HooksAddToWhatIsSentAndToAMissedDeadline) {
    BotHost host;
    SessionOptions options = test_options();
    options.transcript = true;
    auto s = started(host, "while read line; do :; done", options);
    TestHooks hooks;
    s->set_hooks(&hooks);
    protocol::GameStart game;
    game.game = "connect4";
    ASSERT_TRUE(s->start_game(game));
    s->end_game(protocol::End{});
    ASSERT_TRUE(s->start_game(game));
    const auto reply = s->request_move(position(), go(), 200ms);
    EXPECT_EQ(reply.fault, Fault::kTimeout);
    EXPECT_EQ(reply.detail, "no move within 200 ms; seen by the hooks");
    EXPECT_EQ(hooks.missed_deadlines, 1);
    EXPECT_TRUE(hooks.silent);
    std::vector<std::string> sent;
    for (const auto& line : s->take_transcript())
        if (!line.from_bot) sent.push_back(line.text);
    const std::vector<std::string> expected = {
        protocol::format(protocol::Hello{}),
        "unknown-command\n" + protocol::format(game),
        protocol::format(protocol::End{}) + " extra=1",
        "unknown-command\n" + protocol::format(game),
        "unknown-command\n" + protocol::format(position()) + "\n" + protocol::format(go()),
    };
    EXPECT_EQ(sent, expected);
}

// A line sent out of turn within the watch after `game` fails the next
// request; one within the watch after a move fails that move.
TEST(Session, HooksWatchForLinesOutOfTurn) {
    BotHost host;
    TestHooks hooks;
    hooks.watch = scaled(300ms);
    {
        auto s = started(host, "read unknown; read game; echo 'move 9'; sleep 10");
        s->set_hooks(&hooks);
        ASSERT_TRUE(s->start_game(protocol::GameStart{}));
        const auto reply = s->request_move(position(), go(), 2s);
        EXPECT_EQ(reply.fault, Fault::kProtocol);
        EXPECT_EQ(reply.detail, "line while not on move: 'move 9'");
    }
    {
        auto s = started(
            host,
            "read unknown; read pos; read go; echo 'move 1'; sleep 0.05; echo 'move 2'; sleep 10");
        s->set_hooks(&hooks);
        const auto reply = s->request_move(position(), go(), 2s);
        EXPECT_EQ(reply.fault, Fault::kProtocol);
        EXPECT_EQ(reply.detail, "a second line after its move 'move 1', without a `go`: 'move 2'");
    }
}

TEST(Session, QuitOutcomeSaysHowTheQuitWent) {
    BotHost host;
    {
        auto s = started(host, "read line; exit 0");
        s->quit();
        ASSERT_TRUE(s->quit_outcome());
        EXPECT_TRUE(s->quit_outcome()->written);
        EXPECT_TRUE(s->quit_outcome()->exited);
        EXPECT_FALSE(s->quit_outcome()->gone);
    }
    {
        auto s = started(host, "exit 0");
        ASSERT_TRUE(s->exits_when_woken(scaled(2s)));
        s->quit();
        ASSERT_TRUE(s->quit_outcome());
        EXPECT_FALSE(s->quit_outcome()->written);
        EXPECT_TRUE(s->quit_outcome()->gone);
        s->quit();  // no longer running: the outcome stays that of the first
        EXPECT_TRUE(s->quit_outcome()->gone);
    }
}

TEST(Session, SpawnError) {
    BotHost host;
    try {
        Session s(host, BotSpec{"nope", {"build/bots/nope"}, {}}, test_options());
        FAIL() << "no SpawnError";
    } catch (const SpawnError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cannot start 'build/bots/nope': No such file or directory (a relative path is "
                  "taken from the bot's directory: its 'dir', else the directory the arena was "
                  "started in)");
    }
}

// A bot that says something before it stalls gets no hint about flushing,
// and protocol keywords in another case are pointed out.
TEST(Session, HandshakeHints) {
    BotHost host;
    SessionOptions options = test_options();
    options.startup_limit = 300ms;
    {
        Session s(host, BotSpec{"t", {"/bin/sh", "-c", "echo 'name x'; sleep 100"}, {}}, options);
        EXPECT_EQ(s.handshake().detail, "no `ready` within 300 ms");
    }
    {
        Session s(host, BotSpec{"t", {"/bin/sh", "-c", "read hello; echo READY; sleep 100"}, {}},
                  options);
        EXPECT_EQ(s.handshake().detail,
                  "unexpected line during start-up: 'READY' (keywords are lower-case: 'ready')");
    }
}

TEST(Session, ConcurrentSessions) {
    BotHost host;
    // Many bots started and stopped from several threads: no pipe may leak into
    // another bot (EOF and exits must still be seen everywhere).
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&host, &ok] {
            for (int i = 0; i < 5; ++i) {
                Session s(host, sh_bot("read pos; read go; echo 'move 5'; read x; exit 7"),
                          test_options());
                if (s.handshake().fault != Fault::kNone) continue;
                const auto reply = s.request_move(position(), go(), 2s);
                if (reply.fault != Fault::kNone || reply.move != "5") continue;
                s.quit();
                if (s.exit_status() && s.exit_status()->describe() == "exit 7") ++ok;
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(ok.load(), 20);
}

TEST(Session, FaultNames) {
    EXPECT_EQ(to_string(Fault::kNone), "none");
    EXPECT_EQ(to_string(Fault::kTimeout), "timeout");
    EXPECT_EQ(to_string(Fault::kCrash), "crash");
    EXPECT_EQ(to_string(Fault::kProtocol), "protocol");
    EXPECT_EQ(to_string(Fault::kStartup), "startup");
}

// ---- command lines ---------------------------------------------------------------

// Words as a POSIX shell splits them: each quote kind keeps the other inside.
TEST(CommandLine, SplitsLikeAShell) {
    using V = std::vector<std::string>;
    EXPECT_EQ(split_command("  a  b\tc "), (V{"a", "b", "c"}));
    EXPECT_EQ(split_command("python3 -c 'print(\"x y\")'"), (V{"python3", "-c", "print(\"x y\")"}));
    EXPECT_EQ(split_command("sh -c \"echo 'a b'\""), (V{"sh", "-c", "echo 'a b'"}));
    EXPECT_EQ(split_command("a\\ b c"), (V{"a b", "c"}));
    EXPECT_EQ(split_command("\"a\\\"b\\n\""), (V{"a\"b\\n"}));
    EXPECT_EQ(split_command("x'' ''"), (V{"x", ""}));
    EXPECT_EQ(split_command("a'b c'd"), (V{"ab cd"}));
    EXPECT_THROW((void)split_command("a 'b"), std::invalid_argument);
    EXPECT_THROW((void)split_command("a \"b"), std::invalid_argument);
    EXPECT_THROW((void)split_command("a b\\"), std::invalid_argument);
    EXPECT_THROW((void)split_command("   "), std::invalid_argument);
}

}  // namespace
}  // namespace arena::session
