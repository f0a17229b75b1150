// Hostile bots (issue 5): each misbehaviour run through `arena match`, with
// the ending the arena recorded, a generous bound on how long it took, and no
// process left behind (by marker argument, so daemons that left the tree are
// found too). Then freezing, the sandbox, and the config keys for all of it.
// The misbehaviours already covered by cli_test's MisbehavingMatch (crashes,
// hangs, floods, bad moves, handshake faults) are not repeated here.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/match/match.hpp"
#include "arena/session/session.hpp"
#include "arena/tournament/config.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "terminal.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using arena::testing::slurp;

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using arena::testing::bin;
using arena::testing::game_lines;
using arena::testing::quick_options;
using arena::testing::run_in_terminal;
using arena::testing::survivors;
using arena::testing::unique_marker;

// How long a match of two games may take: the arena never waits for a bot
// past its limits (scaled with the build, see timing.hpp).
const auto kFinishWithin = arena::testing::scaled(20s);

struct Run {
    int exit_code = -1;
    std::string out, err;
    std::chrono::steady_clock::duration took{};
};

Run arena_cli(const std::string& args) {
    const std::string base = ::testing::TempDir() + "hostile_" + unique_marker();
    const std::string cmd =
        "timeout 300 " + bin("bin/arena") + " " + args + " >" + base + ".out 2>" + base + ".err";
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(cmd.c_str());
    Run r;
    r.took = std::chrono::steady_clock::now() - start;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(base + ".out");
    r.err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    return r;
}

struct Case {
    std::string label;
    std::string mode_flags;   // misbehave flags after --mode
    std::string arena_flags;  // extra `arena match` flags
    std::string ending;       // the termination of both games
    std::string detail;       // a part of the detail of both games ("" for normal endings)
    bool needs_sandbox = false;
    bool needs_memory_limit = false;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.label;
}

class HostileMatch : public ::testing::TestWithParam<Case> {};

// Two games (the bad bot moves first, then second): the ending and its
// detail, on time, and nothing alive afterwards. The limits, and the sleep of
// the bot that answers late, scale with the build (timing.hpp).
TEST_P(HostileMatch, EndsAsExpectedOnTimeLeavingNothingBehind) {
    const Case& c = GetParam();
    if (c.needs_sandbox && !session::sandbox_available()) {
        GTEST_SKIP() << "bubblewrap cannot create a sandbox here (bwrap missing or not permitted)";
    }
    if (c.needs_memory_limit && session::kDefaultMemoryMb == 0) {
        GTEST_SKIP() << "a sanitizer build: its bots reserve terabytes of address space, so an "
                        "address-space limit cannot be tested with them";
    }
    const auto marker = unique_marker();
    const auto r =
        arena_cli("match --game connect4 --games 2 --openings none --startup-ms 3000 " +
                  arena::testing::scaled_flags(c.arena_flags) + " 'bad=" + bin("bots/misbehave") +
                  " --seed " + marker + " --mode " + arena::testing::scaled_flags(c.mode_flags) +
                  "' 'good=" + bin("bots/random") + " --seed 1'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(r.took, kFinishWithin);
    const auto lines = game_lines(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out;
    for (const auto& line : lines) {
        EXPECT_NE(line.find("  " + c.ending + "  "), std::string::npos) << line;
        if (c.ending != "normal") {
            // The bad bot lost: "bad vs good  0-1" or "good vs bad  1-0".
            const bool first = line.find(": bad vs") != std::string::npos;
            EXPECT_NE(line.find(first ? "  0-1  " : "  1-0  "), std::string::npos) << line;
            EXPECT_NE(line.find("(bad: "), std::string::npos) << line;
        }
        if (!c.detail.empty()) {
            EXPECT_NE(line.find(c.detail), std::string::npos) << line;
        }
    }
    EXPECT_EQ(survivors(marker), std::vector<int>{}) << r.out;
    std::cout << "[ ending   ] " << c.label << ": " << lines[0] << "\n";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HostileMatch,
    ::testing::Values(
        // At ply 5 or 6: no game of Connect-4 ends before ply 7, whatever the
        // bots play (the bad bot's moves follow its random --seed).
        Case{"crash_mid_game", "crash --at-ply 4", "--move-ms 2000", "crash",
             "signal 11 (SIGSEGV)"},
        Case{"answers_late", "sleep --sleep-ms 600", "--move-ms 200", "timeout", "no move within"},
        Case{"flood_stderr_1GB", "flood-stderr --flood-mb 1024", "--move-ms 15000", "normal", ""},
        Case{"close_stdin", "close-stdin", "--move-ms 300", "crash", "stopped reading its input"},
        Case{"stop_self", "stop-self", "--move-ms 300", "timeout", "no move within"},
        Case{"daemon", "daemon", "--move-ms 500", "normal", ""},
        Case{"setsid_child", "setsid", "--move-ms 500", "normal", ""},
        Case{"ponder", "ponder", "--move-ms 500", "normal", ""},
        Case{"memory_hog", "memory-hog", "--move-ms 10000 --memory-mb 256", "crash",
             "out of memory: memory limit 256 MB", false, true},
        Case{"fork_bomb", "fork-bomb", "--move-ms 5000 --processes 32", "crash",
             "process limit 32"},
        Case{"big_file", "big-file", "--move-ms 5000 --file-size-mb 16", "crash",
             "signal 25 (SIGXFSZ) (file size limit 16 MB)"},
        Case{"sandboxed_daemon", "daemon", "--move-ms 1000 --sandbox", "normal", "", true},
        Case{"sandboxed_setsid_child", "setsid", "--move-ms 1000 --sandbox", "normal", "", true},
        Case{"sandboxed_crash", "crash", "--move-ms 1000 --sandbox", "crash", "signal 11 (SIGSEGV)",
             true},
        Case{"sandboxed_fork_bomb", "fork-bomb", "--move-ms 5000 --processes 32 --sandbox", "crash",
             "process limit 32", true},
        Case{"sandboxed_big_file", "big-file", "--move-ms 5000 --file-size-mb 16 --sandbox",
             "crash", "signal 25 (SIGXFSZ) (file size limit 16 MB)", true}),
    [](const auto& param_info) { return param_info.param.label; });

// ---- freezing ----------------------------------------------------------------

// The pondering bot's CPU time (ms) at its last move, from its own
// `info cpu_ms=N` lines, over one game against an opponent that sleeps
// 300 ms per move. When frozen, it is frozen with its move (no grace): the
// CPU of a 5 ms grace after each move does not shrink with the machine's
// load as the CPU of a bot running on through the other's moves does (a
// niced bot gets a far smaller share over a long stretch than right after
// it wakes), so with the grace the comparison below would depend on the load.
long long ponder_cpu_ms(bool freeze) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    session::BotSpec ponder{"ponder", {bin("bots/misbehave"), "--mode", "ponder"}, {}};
    ponder.isolation.freeze_when_idle = freeze;
    ponder.isolation.freeze_grace = session::Millis{0};
    session::BotSpec sleeper{
        "sleeper", {bin("bots/misbehave"), "--mode", "sleep", "--sleep-ms", "300"}, {}};
    match::Player a(host, ponder, quick_options());
    match::Player b(host, sleeper, quick_options());
    match::TimeControl tc;
    tc.move = match::Millis{2000};
    const auto record = match::play_game(*game, a, b, tc);
    EXPECT_EQ(record.termination, record::Termination::kNormal) << record.detail;
    long long last = -1;
    for (const auto& m : record.moves) {
        if (m.player != 1) continue;
        for (const auto& info : m.info)
            if (info.starts_with("cpu_ms=")) last = std::stoll(info.substr(7));
    }
    return last;
}

// A bot that burns CPU after its move gets (almost) none while frozen, and
// plenty when freezing is off. No timing is asserted, only where the CPU went.
TEST(Freeze, APonderingBotGetsNoCpuWhileNotOnMove) {
    const long long frozen = ponder_cpu_ms(true);
    const long long running = ponder_cpu_ms(false);
    ASSERT_GE(frozen, 0);
    ASSERT_GE(running, 0);
    std::cout << "[ cpu      ] pondering bot: " << frozen << " ms frozen, " << running
              << " ms not frozen\n";
    EXPECT_GE(running, 200);
    EXPECT_LT(frozen * 4, running);
}

// ---- the sandbox ---------------------------------------------------------------

// A shell "bot" whose handshake announces the result of `probe` as its name:
// "name ok" when the probe command succeeded, "name denied" when it failed.
session::BotSpec probe_bot(const std::string& probe, bool sandbox) {
    const std::string script = "read hello; if (" + probe +
                               ") >/dev/null 2>&1; then echo 'name ok'; else echo 'name denied'; "
                               "fi; echo ready; read rest";
    session::BotSpec spec{"probe", {"/bin/sh", "-c", script}, {}};
    spec.isolation.sandbox = sandbox;
    return spec;
}

std::string probe(session::BotHost& host, const std::string& command, bool sandbox) {
    session::Session s(host, probe_bot(command, sandbox), quick_options());
    const auto hs = s.handshake();
    EXPECT_EQ(hs.fault, session::Fault::kNone) << hs.detail << "\n" << s.stderr_log();
    return s.identity().name;
}

class Sandbox : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!session::sandbox_available())
            GTEST_SKIP() << "bubblewrap cannot create a sandbox here (bwrap missing or not "
                            "permitted)";
    }
};

TEST_F(Sandbox, NoNetwork) {
    session::BotHost host;
    // A server of the host's, on its loopback interface.
    const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(server, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    ASSERT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(server, 4), 0);
    ASSERT_EQ(::getsockname(server, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    const std::string connect_host =
        "/usr/bin/python3 -c \"import socket; socket.create_connection(('127.0.0.1', " +
        std::to_string(ntohs(addr.sin_port)) + "), 1)\"";
    EXPECT_EQ(probe(host, connect_host, false), "ok");  // the probe itself works
    EXPECT_EQ(probe(host, connect_host, true), "denied");
    ::close(server);
    const std::string connect =
        "/usr/bin/python3 -c \"import socket; socket.create_connection(('1.1.1.1', 53), 1)\"";
    EXPECT_EQ(probe(host, connect, true), "denied");
}

TEST_F(Sandbox, CannotReadAnotherBotsDirectoryOrTheResults) {
    session::BotHost host;
    // Another bot's working directory, with a file in it.
    session::Session other(host, probe_bot("true", false), quick_options());
    ASSERT_EQ(other.handshake().fault, session::Fault::kNone);
    const fs::path secret = other.scratch_dir() / "secret.txt";
    std::ofstream(secret) << "the other bot's opening book\n";
    const std::string read_other = "cat " + secret.string();
    EXPECT_EQ(probe(host, read_other, false), "ok");
    EXPECT_EQ(probe(host, read_other, true), "denied");
    // A results database next to the test.
    const fs::path db = fs::path(::testing::TempDir()) / ("results_" + unique_marker() + ".db");
    std::ofstream(db) << "SQLite format 3";
    EXPECT_EQ(probe(host, "cat " + db.string(), true), "denied");
    fs::remove(db);
}

// It starts in its working directory, which it can read but not write.
TEST_F(Sandbox, ReadsItsWorkingDirectoryButCannotWriteIt) {
    session::BotHost host;
    const fs::path dir = fs::path(::testing::TempDir()) / ("botdir_" + unique_marker());
    fs::create_directories(dir);
    std::ofstream(dir / "weights.txt") << "0.5 0.25\n";
    const auto probe_in = [&](const std::string& command) {
        auto spec = probe_bot(command, true);
        spec.working_dir = dir;
        session::Session s(host, spec, quick_options());
        const auto hs = s.handshake();
        EXPECT_EQ(hs.fault, session::Fault::kNone) << hs.detail << "\n" << s.stderr_log();
        return s.identity().name;
    };
    EXPECT_EQ(probe_in("test \"$(pwd)\" = '" + dir.string() + "'"), "ok");
    EXPECT_EQ(probe_in("grep -q 0.25 ./weights.txt"), "ok");
    EXPECT_EQ(probe_in("echo x > ./new.txt"), "denied");
    EXPECT_EQ(probe_in("echo x >> ./weights.txt"), "denied");
    EXPECT_EQ(probe_in("echo x > \"$HOME/new.txt\""), "ok");
    EXPECT_FALSE(fs::exists(dir / "new.txt"));
    std::ifstream in(dir / "weights.txt");
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(content, "0.5 0.25\n");
    fs::remove_all(dir);
}

TEST_F(Sandbox, WritesOnlyItsOwnDirectory) {
    session::BotHost host;
    const fs::path outside =
        fs::path(::testing::TempDir()) / ("outside_" + unique_marker() + ".txt");
    const fs::path source_dir = arena::testing::source("tests");
    const fs::path in_source = source_dir / ("probe_" + unique_marker() + ".txt");
    EXPECT_EQ(probe(host, "echo x > " + in_source.string(), true), "denied");
    EXPECT_FALSE(fs::exists(in_source));
    // The test's temporary directory is under /tmp, which is private inside.
    (void)probe(host, "echo x > " + outside.string(), true);
    EXPECT_FALSE(fs::exists(outside));
    EXPECT_EQ(probe(host, "echo x > /usr/arena-probe", true), "denied");
    // Its scratch directory (HOME, TMPDIR) is the one it may write.
    EXPECT_EQ(probe(host, "echo x > \"$HOME/mine.txt\" && cat \"$TMPDIR/mine.txt\"", true), "ok");
    // Its /tmp is private: what it writes there is not on the host.
    const std::string name = "arena_private_" + unique_marker();
    EXPECT_EQ(probe(host, "echo x > /tmp/" + name, true), "ok");
    EXPECT_FALSE(fs::exists("/tmp/" + name));
}

// ---- the controlling terminal ----------------------------------------------------

// The arena runs in a terminal; its bots do not have it: the `tty` bot, which
// takes the terminal when it can (and then answers garbage), plays a normal
// game. The same command outside the arena does reach the terminal.
TEST(Terminal, BotsHaveNoControllingTerminal) {
    const std::string reach = run_in_terminal("echo 'misbehave: took the terminal' >/dev/tty");
    ASSERT_NE(reach.find("took the terminal"), std::string::npos)
        << "no controlling terminal in forkpty: " << reach;
    for (const std::string flags : {"", " --sandbox"}) {
        if (!flags.empty() && !session::sandbox_available()) continue;
        const std::string out = run_in_terminal(
            "timeout 60 " + bin("bin/arena") + " match --game connect4 --games 2" + flags +
            " 'tty=" + bin("bots/misbehave") + " --mode tty' 'good=" + bin("bots/random") + "'");
        EXPECT_EQ(out.find("took the terminal"), std::string::npos) << flags << "\n" << out;
        const auto lines = game_lines(out);
        ASSERT_EQ(lines.size(), 2u) << flags << "\n" << out;
        for (const auto& line : lines)
            EXPECT_NE(line.find("  normal"), std::string::npos) << flags << "\n" << line;
    }
}

// ---- working directory and environment ---------------------------------------

TEST(Isolation, StartsInTheArenasDirectoryWithAScratchHomeAndCleanEnvironment) {
    session::BotHost host;
    ::setenv("ARENA_TEST_SECRET", "s3cret", 1);
    ::setenv("ARENA_TEST_PASSED", "passed", 1);
    session::BotSpec spec{"envbot",
                          {"/bin/sh", "-c",
                           "read hello; echo \"name $(pwd)|$HOME|$TMPDIR|$LANG|"
                           "${ARENA_TEST_SECRET:-none}|${ARENA_TEST_PASSED:-none}\"; echo ready; "
                           "read rest"},
                          {}};
    spec.isolation.pass_env = {"ARENA_TEST_PASSED"};
    fs::path scratch;
    {
        session::Session s(host, spec, quick_options());
        ASSERT_EQ(s.handshake().fault, session::Fault::kNone);
        scratch = s.scratch_dir();
        EXPECT_TRUE(fs::is_directory(scratch));
        EXPECT_EQ(s.working_dir(), fs::current_path());
        EXPECT_EQ(s.identity().name, fs::current_path().string() + "|" + scratch.string() + "|" +
                                         scratch.string() + "|C.UTF-8|none|passed");
    }
    EXPECT_FALSE(fs::exists(scratch));  // removed with its process
}

// With a working directory, the bot starts there, and a relative program
// path and its arguments are taken from there.
TEST(Isolation, RelativeCommandAndArgumentsAreTakenFromItsDirectory) {
    session::BotHost host;
    const fs::path dir = fs::path(::testing::TempDir()) / ("cmddir_" + unique_marker());
    fs::create_directories(dir / "sub");
    {
        std::ofstream script(dir / "sub" / "bot.sh");
        script << "#!/bin/sh\nread hello\necho \"name $(cat \"$1\")\"\necho ready\nread rest\n";
    }
    fs::permissions(dir / "sub" / "bot.sh", fs::perms::owner_all);
    std::ofstream(dir / "weights.txt") << "w42\n";
    session::BotSpec spec{"dirbot", {"sub/bot.sh", "weights.txt"}, dir};
    session::Session s(host, spec, quick_options());
    const auto hs = s.handshake();
    ASSERT_EQ(hs.fault, session::Fault::kNone) << hs.detail << "\n" << s.stderr_log();
    EXPECT_EQ(s.identity().name, "w42");
    EXPECT_EQ(s.working_dir(), dir);
    fs::remove_all(dir);
}

// ---- config keys ----------------------------------------------------------------

TEST(IsolationConfig, DefaultsAndPerBotKeys) {
    const std::string random = bin("bots/random");
    const auto c = tournament::parse_config(
        "name: t\ngame: { name: connect4 }\n"
        "bot_defaults: { memory_mb: 512, processes: 16, freeze_when_idle: false, pass_env: [A] }\n"
        "bots:\n"
        "  - { name: a, command: " +
            random +
            " }\n"
            "  - { name: b, command: " +
            random +
            ", memory_mb: 0, file_size_mb: 8, open_files: 32,"
            " cpu_seconds: 5, max_line_bytes: 4096, freeze_when_idle: true, dir: /tmp,"
            " nice: 9, freeze_grace_ms: 0 }\n",
        "x.yaml");
    const auto& a = c.bots[0];
    EXPECT_EQ(a.isolation.limits.memory_mb, 512u);
    EXPECT_EQ(a.isolation.limits.processes, 16u);
    EXPECT_FALSE(a.isolation.freeze_when_idle);
    EXPECT_EQ(a.isolation.pass_env, std::vector<std::string>{"A"});
    EXPECT_TRUE(a.dir.empty());
    const auto& b = c.bots[1];
    EXPECT_EQ(b.isolation.limits.memory_mb, 0u);
    EXPECT_EQ(b.isolation.limits.processes, 16u);  // from the defaults
    EXPECT_EQ(b.isolation.limits.file_size_mb, 8u);
    EXPECT_EQ(b.isolation.limits.open_files, 32u);
    EXPECT_EQ(b.isolation.limits.cpu_seconds, 5u);
    EXPECT_EQ(b.isolation.limits.nice, 9);
    EXPECT_EQ(a.isolation.limits.nice, 5);  // the default
    EXPECT_EQ(b.max_line_bytes, 4096u);
    EXPECT_TRUE(b.isolation.freeze_when_idle);
    EXPECT_EQ(b.isolation.freeze_grace, session::Millis{0});
    EXPECT_EQ(a.isolation.freeze_grace, session::Millis{5});  // the default
    EXPECT_EQ(b.dir, "/tmp");
    EXPECT_EQ(tournament::bot_spec(b).working_dir, "/tmp");
    EXPECT_EQ(tournament::session_options(c, b).max_line_bytes, 4096u);
}

TEST(IsolationConfig, BadValuesNameTheLine) {
    const std::string random = bin("bots/random");
    struct Bad {
        std::string bot_keys, message;
    };
    for (const auto& bad : std::vector<Bad>{
             {"memory_mb: -1", "x.yaml:4:"},
             {"sandbox: maybe", "expected true or false for 'sandbox'"},
             {"memry_mb: 5", "did you mean 'memory_mb'"},
             {"workdir: /nonexistent-arena-dir", "is not a directory"},
             {"pass_env: A", "expected a list of variable names"},
             {"max_line_bytes: 10", "max_line_bytes"},
             {"nice: 20", "x.yaml:4:"},
             {"freeze_grace_ms: -1", "freeze_grace_ms"},
         }) {
        try {
            (void)tournament::parse_config(
                "name: t\ngame: { name: connect4 }\nbots:\n"
                "  - { name: a, command: " +
                    random + ", " + bad.bot_keys + " }\n  - { name: b, command: " + random + " }\n",
                "x.yaml");
            ADD_FAILURE() << "accepted " << bad.bot_keys;
        } catch (const tournament::ConfigError& e) {
            EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos)
                << bad.bot_keys << ": " << e.what();
        }
    }
}

}  // namespace
}  // namespace arena
