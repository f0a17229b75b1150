// `arena check-bot`: it passes the shipped reference bots of every game and
// protocol, and fails each kind of broken bot (the misbehave modes, the
// community fixtures, and small Python bots with one fault each) on the
// check that names the fault, showing what the bot did. Plus the pure parts
// (the plan, the time and memory verdicts, the report).

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arena/check/check.hpp"
#include "arena/check/plan.hpp"
#include "arena/check/report.hpp"
#include "arena/check/search_limits_note.hpp"
#include "arena/games/registry.hpp"
#include "arena/session/bot_host.hpp"
#include "arena_process.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace {

namespace fs = std::filesystem;
using arena::check::CheckResult;
using arena::check::Status;
using arena::testing::ArenaProcess;
using arena::testing::ArenaResult;
using arena::testing::bin;
using arena::testing::run_arena;
using arena::testing::scaled_ms;
using arena::testing::source;
using arena::testing::TempDir;
using std::chrono::microseconds;

// ---- running check-bot -----------------------------------------------------

struct Check {
    std::string status, detail, stderr_tail, expected;
    std::vector<std::string> sent, received;
    // Everything it shows, for a search.
    [[nodiscard]] std::string all() const {
        std::string text = detail + "\n" + stderr_tail + "\n" + expected;
        for (const auto& l : sent)
            text += "\n" + l;
        for (const auto& l : received)
            text += "\n" + l;
        return text;
    }
};

struct Report {
    ArenaResult run;
    std::vector<std::string> order;  // the checks' names, in order
    std::map<std::string, Check> checks;

    [[nodiscard]] std::string status(const std::string& name) const {
        const auto it = checks.find(name);
        return it == checks.end() ? "(missing)" : it->second.status;
    }
    // The checks that failed, for messages.
    [[nodiscard]] std::string failures() const {
        std::string text;
        for (const auto& name : order) {
            const Check& c = checks.at(name);
            if (c.status == "fail") text += name + ": " + c.detail + "\n";
        }
        return text.empty() ? "(none)" : text;
    }
};

Report parse(ArenaResult run) {
    Report report;
    report.run = std::move(run);
    const auto json = nlohmann::json::parse(report.run.out, nullptr, false);
    if (!json.is_array()) return report;
    for (const auto& j : json) {
        Check c;
        c.status = j.at("status").get<std::string>();
        c.detail = j.at("detail").get<std::string>();
        c.stderr_tail = j.at("stderr").get<std::string>();
        c.expected = j.at("expected").get<std::string>();
        c.sent = j.at("sent").get<std::vector<std::string>>();
        c.received = j.at("received").get<std::vector<std::string>>();
        const auto name = j.at("name").get<std::string>();
        report.order.push_back(name);
        report.checks[name] = std::move(c);
    }
    return report;
}

// `arena check-bot --json args...` for each of `runs`, several at once (most
// of the time a broken bot's checks wait for a deadline). A new one starts as
// soon as any of those running ends, so that one long wait holds up no other.
std::vector<Report> check_all(const TempDir& dir, const std::vector<std::vector<std::string>>& runs,
                              std::size_t at_once = 8) {
    std::vector<Report> reports(runs.size());
    std::vector<std::pair<std::size_t, std::unique_ptr<ArenaProcess>>> running;
    const auto finish_one = [&] {
        for (;;) {
            for (auto it = running.begin(); it != running.end(); ++it) {
                if (auto result = it->second->try_wait()) {
                    reports[it->first] = parse(std::move(*result));
                    running.erase(it);
                    return;
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    };
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (running.size() >= at_once) finish_one();
        std::vector<std::string> args = {"check-bot", "--json"};
        args.insert(args.end(), runs[i].begin(), runs[i].end());
        running.emplace_back(i, std::make_unique<ArenaProcess>(dir.path(), args));
    }
    while (!running.empty())
        finish_one();
    return reports;
}

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& w : words)
        text += (text.empty() ? "" : " ") + w;
    return text;
}

// ---- the reference bots pass -----------------------------------------------------

struct Passing {
    std::string label;
    std::vector<std::string> args;  // options, then the command
    std::string kind;               // arena1, gomocup, nboard, tsinghua-so
};

void PrintTo(const Passing& p, std::ostream* os) {
    *os << joined(p.args);
}

std::vector<Passing> reference_bots() {
    const std::string move = scaled_ms(1000);
    std::vector<Passing> bots = {
        {"random_connect4",
         {"--game", "connect4", "--move-ms", move, bin("bots/random")},
         "arena1"},
        {"random_gomoku", {"--game", "gomoku", "--move-ms", move, bin("bots/random")}, "arena1"},
        {"random_reversi", {"--game", "reversi", "--move-ms", move, bin("bots/random")}, "arena1"},
        // A fixed depth: the check is of the protocol, not of the search.
        {"c4_alphabeta",
         {"--game", "connect4", "--move-ms", move, bin("bots/c4-alphabeta"), "--depth", "4"},
         "arena1"},
        {"gomoku_alphabeta",
         {"--game", "gomoku", "--move-ms", move, bin("bots/gomoku-alphabeta"), "--depth", "2"},
         "arena1"},
        {"reversi_greedy",
         {"--game", "reversi", "--move-ms", move, bin("bots/reversi-greedy")},
         "arena1"},
        {"template_python",
         {"--game", "connect4", "--move-ms", move, "python3",
          source("bots/examples/random_bot.py")},
         "arena1"},
        {"template_cpp",
         {"--game", "connect4", "--move-ms", move, bin("bots/examples/random_bot_cpp")},
         "arena1"},
        {"pbrain_sample",
         {"--protocol", "gomocup", "--move-ms", move, bin("bots/pbrain-sample")},
         "gomocup"},
        {"nboard_sample",
         {"--protocol", "nboard", "--move-ms", move, bin("bots/nboard-sample")},
         "nboard"},
        {"tsinghua_sample", {"--move-ms", move, bin("bots/tsinghua/sample.so")}, "tsinghua-so"},
        {"tsinghua_greedy",
         {"--protocol", "tsinghua-so", "--move-ms", move, bin("bots/tsinghua/reference/greedy.so")},
         "tsinghua-so"},
    };
    // Built only where the Go toolchain is (templates_test says so).
    if (fs::exists(bin("bots/examples/random_bot_go"))) {
        bots.push_back(
            {"template_go",
             {"--game", "connect4", "--move-ms", move, bin("bots/examples/random_bot_go")},
             "arena1"});
    }
    return bots;
}

class ReferenceBot : public ::testing::TestWithParam<Passing> {};

TEST_P(ReferenceBot, PassesEveryCheck) {
    const TempDir dir("arena_check_bot");
    const Passing& p = GetParam();
    const Report r = check_all(dir, {p.args}).front();
    ASSERT_FALSE(r.order.empty()) << "exit " << r.run.status << "\n" << r.run.out << r.run.err;
    EXPECT_EQ(r.run.status, 0) << r.failures() << r.run.err;
    for (const auto& name : r.order)
        EXPECT_NE(r.checks.at(name).status, "fail") << name << ": " << r.checks.at(name).detail;
    // The checks that apply to every kind ran and passed.
    for (const char* name :
         {"start-up", "plays as player 1", "plays as player 2", "opening position", "stdin only"})
        EXPECT_EQ(r.status(name), "ok") << name << ": " << r.checks.at(name).detail;
    EXPECT_NE(r.status("time use"), "skip");
    EXPECT_NE(r.status("memory"), "fail");
    if (p.kind == "tsinghua-so") {
        EXPECT_EQ(r.status("several games in one process"), "skip");
    } else {
        EXPECT_EQ(r.status("several games in one process"), "ok");
        EXPECT_EQ(r.status("quit"), "ok") << r.checks.at("quit").detail;
    }
    if (p.kind == "arena1") {
        // Every check applies to a protocol v1 bot.
        for (const auto& name : r.order)
            EXPECT_NE(r.checks.at(name).status, "skip") << name << ": " << r.checks.at(name).detail;
        for (const char* name : {"unknown commands and keys", "one move per go", "stdout flushed"})
            EXPECT_EQ(r.status(name), "ok") << name;
    }
    // The search limits note: c4-alphabeta honours them (its `--depth 4`
    // gives way to the `go`'s), the random bots and the greedy ones do not
    // search; a Gomocup brain and a strategy library are not told them.
    const std::string limits =
        r.checks.count("search limits") != 0 ? r.checks.at("search limits").detail : "(missing)";
    if (p.kind == "gomocup" || p.kind == "tsinghua-so") {
        EXPECT_EQ(r.status("search limits"), "skip") << limits;
    } else {
        EXPECT_EQ(r.status("search limits"), "ok") << limits;
    }
    if (p.label == "c4_alphabeta") {
        EXPECT_TRUE(limits.starts_with("depth= honoured (its info lines report the depths asked"))
            << limits;
        EXPECT_NE(limits.find("nodes= honoured (the nodes or simulations it reports stay within "
                              "about 1000, past which depth=6 went"),
                  std::string::npos)
            << limits;
    }
    if (p.label.starts_with("random") || p.label == "reversi_greedy" ||
        p.label == "nboard_sample") {
        EXPECT_TRUE(limits.starts_with("no sign that depth= or nodes= are honoured")) << limits;
    }
}

INSTANTIATE_TEST_SUITE_P(CheckBot, ReferenceBot, ::testing::ValuesIn(reference_bots()),
                         [](const auto& param_info) { return param_info.param.label; });

// The boards of each game are all played.
TEST(CheckBot, PlaysEveryBoardOfTheGame) {
    const TempDir dir("arena_check_bot");
    const auto reports = check_all(dir, {{"--game", "connect4", bin("bots/random")},
                                         {"--game", "gomoku", bin("bots/random")},
                                         {"--game", "reversi", bin("bots/random")}});
    const std::vector<std::vector<std::string>> boards = {
        {"board 9x7 (odd size)", "board 4x4 (the smallest)", "board 16x16 (the largest)",
         "board 5x5, connect 3", "board 8x8, connect 5", "board 7x6 with blocked cells",
         "board tsinghua variant"},
        {"board 15x15 exact5", "board 19x19 freestyle", "board 19x19 exact5"},
        {"forced pass by the opponent", "forced pass by the bot"},
    };
    for (std::size_t i = 0; i < boards.size(); ++i) {
        for (const auto& name : boards[i]) {
            EXPECT_EQ(reports[i].status(name), "ok") << name;
        }
    }
    // The forced pass is in the position the bot is asked about.
    EXPECT_NE(reports[2].checks.at("forced pass by the opponent").detail.find("must pass"),
              std::string::npos);
}

// ---- broken bots fail the right check ----------------------------------------------------

// A Connect-4 bot with one fault, chosen by its first argument.
// A Connect-4 bot with one fault, named by its first argument. The faults
// that fire once per check-bot run (the first process that meets them)
// leave a marker file, its second argument.
constexpr std::string_view kFaultyBot = R"PY(import os
import random
import sys

fault = sys.argv[1]
random.seed(1)


def send(line):
    sys.stdout.write(line + "\n")
    if fault != "unflushed":
        sys.stdout.flush()


def once(name):
    """True the first time any process of this bot gets here with fault `name`."""
    if fault != name or os.path.exists(sys.argv[2]):
        return False
    open(sys.argv[2], "w").close()
    return True


rows = cols = 0
blocked = set()
moves = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command, args = words[0], words[1:]
    if command == "arena":
        send("name faulty")
        send("READY" if fault == "shout" else "ready")
    elif command == "game":
        keys = dict(w.split("=", 1) for w in args if "=" in w)
        rows, cols = int(keys["rows"]), int(keys["cols"])
        blocked = {tuple(map(int, c.split(":"))) for c in keys.get("blocked", "").split(",") if c}
    elif command == "position":
        moves = args
    elif command == "go":
        if fault == "strict-keys" and any(not w.startswith("move_ms=") for w in args):
            sys.exit("unknown key on go: " + " ".join(args))
        if once("fifo"):
            open(sys.argv[3]).read()  # waits for a writer that never comes
        if once("escape"):
            sys.stderr.write("\x1b]0;title\x07 red \x1b[31m\n")
            send("move 4\x1b[2J")
            continue
        taken = set(blocked)
        for m in moves:
            col = int(m)
            taken.add((col, min(r for r in range(1, rows + 1) if (col, r) not in taken)))
        playable = [c for c in range(1, cols + 1)
                    if any((c, r) not in taken for r in range(1, rows + 1))]
        choice = random.choice(playable)
        if once("double-move"):
            # Both in one write, so that they reach the arena together: the
            # second is there before the arena's next `go`.
            send("move %d\nmove %d" % (choice, choice))
            continue
        send("move %d" % choice)
    elif command == "end":
        if once("one-game"):
            sys.exit(0)
    elif command == "quit":
        break
    elif fault == "strict-commands":
        sys.exit("unknown command: " + command)
)PY";

struct Failure {
    std::string check;  // a check that must fail
    std::string shows;  // text it shows (detail, lines, stderr); "" for any
};

struct Broken {
    std::string label;
    std::vector<std::string> args;  // options, then the command
    std::vector<Failure> failures;
};

std::vector<Broken> broken_bots(const TempDir& dir) {
    const std::string faulty = dir.write("faulty.py", std::string(kFaultyBot));
    const std::string fifo = (dir.path() / "input.fifo").string();
    ::mkfifo(fifo.c_str(), 0600);
    // Time enough for a bot that answers at once, wrongly, to be seen doing so
    // on a loaded machine; the bots that must run out of time get `late`.
    const std::string move = scaled_ms(1000);
    const std::string late = scaled_ms(100);
    // A move time of its own for a case that needs one.
    const auto misbehave = [&](const std::string& mode, std::vector<std::string> options = {},
                               std::vector<std::string> flags = {},
                               const std::string& move_ms = scaled_ms(1000)) {
        std::vector<std::string> args = {"--game", "connect4",     "--move-ms",
                                         move_ms,  "--startup-ms", scaled_ms(1000)};
        args.insert(args.end(), options.begin(), options.end());
        args.push_back(bin("bots/misbehave"));
        args.push_back("--mode");
        args.push_back(mode);
        args.insert(args.end(), flags.begin(), flags.end());
        return args;
    };
    // The interpreter may take its time to start (the default start-up limit)
    // and to answer on a loaded machine.
    int markers = 0;
    const auto python = [&](std::vector<std::string> fault, std::vector<std::string> options = {}) {
        std::vector<std::string> args = {"--game", "connect4", "--move-ms", scaled_ms(1000)};
        args.insert(args.end(), options.begin(), options.end());
        args.push_back("python3");
        args.push_back(faulty);
        args.push_back(fault.front());
        args.push_back((dir.path() / ("marker-" + std::to_string(++markers))).string());
        args.insert(args.end(), fault.begin() + 1, fault.end());
        return args;
    };
    const auto pbrain = [&](const std::string& mode) {
        return std::vector<std::string>{
            "--protocol", "gomocup", "--move-ms", move, bin("bots/pbrain-sample"), "--mode", mode};
    };
    const std::string p1 = "plays as player 1";
    return {
        // First, as it waits out the whole start-up limit. Its `ready` is seen
        // only if Python has started and written it to its buffer before the
        // limit: time enough for that beside the fork bomb and the memory hog,
        // on a loaded machine.
        {"unflushed",
         python({"unflushed"}, {"--startup-ms", scaled_ms(10000)}),
         {{"stdout flushed", "ready"}, {"start-up", "no `ready`"}}},
        // A sanitizer build's bot takes its time to report its own SIGSEGV.
        {"crash", misbehave("crash", {}, {}, scaled_ms(3000)), {{p1, "SIGSEGV"}}},
        {"abort", misbehave("abort"), {{p1, "SIGABRT"}}},
        // A sanitizer build's bot checks for leaks before it exits, which
        // takes its time beside the fork bomb and the memory hog.
        {"exit", misbehave("exit", {}, {}, scaled_ms(3000)), {{p1, "exit 3"}}},
        {"hang",
         misbehave("hang", {}, {}, late),
         {{p1, "no move within"}, {"time use", "ran out of time"}}},
        {"sleep",
         misbehave("sleep", {}, {"--sleep-ms", scaled_ms(250)}, late),
         {{p1, "no move within"}, {"time use", "ran out of time"}}},
        {"illegal", misbehave("illegal"), {{p1, "'8'"}}},
        {"garbage", misbehave("garbage"), {{p1, "hello arena"}}},
        {"bad_notation", misbehave("bad-notation"), {{p1, "zz99"}}},
        {"no_newline", misbehave("no-newline", {}, {}, late), {{p1, "no move within"}}},
        {"flood_info", misbehave("flood-info"), {{p1, "info flood"}}},
        {"endless_line", misbehave("endless-line"), {{p1, "line longer than"}}},
        {"close_stdout", misbehave("close-stdout"), {{p1, "closed its stdout"}}},
        {"close_stdin", misbehave("close-stdin"), {{p1, "stopped reading its input"}}},
        {"stop_self", misbehave("stop-self", {}, {}, late), {{p1, "no move within"}}},
        {"crash_after_move", misbehave("crash-after-move"), {{p1, "SIGSEGV"}}},
        {"handshake_exit", misbehave("handshake-exit"), {{"start-up", "exit 3"}}},
        {"handshake_hang", misbehave("handshake-hang"), {{"start-up", "no `ready`"}}},
        {"ignore_quit", misbehave("ignore-quit"), {{"quit", "still running"}}},
        // Time enough to fill the memory, whatever the machine's speed.
        {"memory_hog",
         misbehave("memory-hog", {"--memory-mb", "100"}, {}, scaled_ms(5000)),
         {{p1, "memory limit"}, {"memory", "memory limit"}}},
        {"big_file",
         misbehave("big-file", {"--file-size-mb", "10"}, {}, scaled_ms(5000)),
         {{p1, "file size limit"}}},
        {"fork_bomb", misbehave("fork-bomb", {"--processes", "32"}), {{p1, ""}}},
        {"unknown_commands",
         python({"strict-commands"}),
         {{"unknown commands and keys", "unknown command: checkbot-unknown-command"}}},
        {"unknown_keys",
         python({"strict-keys"}),
         {{"unknown commands and keys", "unknown key on go"}}},
        {"double_move", python({"double-move"}), {{"one move per go", "move"}}},
        {"one_game", python({"one-game"}), {{"several games in one process", "exit 0"}}},
        {"fifo", python({"fifo", fifo}), {{"stdin only", fifo}}},
        {"gomocup_twice", pbrain("twice"), {{"one move per go", "while not on move"}}},
        {"gomocup_crash", pbrain("crash"), {{p1, "SIGSEGV"}}},
        {"nboard_illegal",
         {"--protocol", "nboard", "--move-ms", move, bin("bots/nboard-sample"), "--mode",
          "illegal"},
         {{p1, "illegal move"}}},
        // A sanitizer build's host reports the library's SIGSEGV, which takes
        // its time, and exits 1.
        {"tsinghua_crash",
         {"--move-ms", scaled_ms(3000), bin("bots/tsinghua/fixtures/crash.so")},
         {{p1, "crash: exited"}}},
        {"tsinghua_illegal",
         {"--move-ms", move, bin("bots/tsinghua/fixtures/illegal.so")},
         {{p1, "not a legal point"}}},
    };
}

TEST(CheckBot, FailsEachBrokenBotOnTheRightCheck) {
    const TempDir dir("arena_check_bot");
    const auto cases = broken_bots(dir);
    std::vector<std::vector<std::string>> runs;
    for (const auto& c : cases)
        runs.push_back(c.args);
    const auto reports = check_all(dir, runs);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Broken& c = cases[i];
        const Report& r = reports[i];
        SCOPED_TRACE(c.label + ": " + joined(c.args));
        ASSERT_FALSE(r.order.empty()) << r.run.out << r.run.err;
        EXPECT_EQ(r.run.status, 1) << r.failures();
        for (const auto& f : c.failures) {
            ASSERT_EQ(r.status(f.check), "fail") << f.check << "\n" << r.failures();
            const Check& check = r.checks.at(f.check);
            EXPECT_NE(check.all().find(f.shows), std::string::npos) << check.all();
            EXPECT_FALSE(check.detail.empty());
        }
    }
}

// Bots that misbehave where the arena does not let them: they pass.
TEST(CheckBot, PassesWhatTheArenaPrevents) {
    const TempDir dir("arena_check_bot");
    const auto reports =
        check_all(dir, {{"--game", "connect4", bin("bots/misbehave"), "--mode", "tty"},
                        {"--game", "connect4", bin("bots/misbehave"), "--mode", "ponder"}});
    // It has no controlling terminal to take, so it plays normally.
    EXPECT_EQ(reports[0].run.status, 0) << reports[0].failures();
    EXPECT_EQ(reports[0].status("stdin only"), "ok");
    EXPECT_NE(reports[0].checks.at("stdin only").detail.find("no controlling terminal"),
              std::string::npos);
    // It is frozen while not on move.
    EXPECT_EQ(reports[1].run.status, 0) << reports[1].failures();
}

// A slow bot's reply that comes after the deadline is timed, not taken for
// one stuck in its output buffer.
TEST(CheckBot, ALateReplyIsNotAnUnflushedOne) {
    const TempDir dir("arena_check_bot");
    const Report r =
        check_all(dir, {{"--game", "connect4", "--move-ms", scaled_ms(100), bin("bots/misbehave"),
                         "--mode", "sleep", "--sleep-ms", scaled_ms(250)}})
            .front();
    EXPECT_EQ(r.status("plays as player 1"), "fail");
    EXPECT_NE(r.checks.at("plays as player 1").detail.find("too late"), std::string::npos)
        << r.checks.at("plays as player 1").detail;
    EXPECT_NE(r.status("stdout flushed"), "fail") << r.checks.at("stdout flushed").detail;
    EXPECT_EQ(r.status("stdin only"), "ok");
}

// check-bot speaks through the arena's own session: a keyword in the wrong
// case gets the hint a real game gives.
TEST(CheckBot, AWrongKeywordGetsTheHintOfRealGames) {
    const TempDir dir("arena_check_bot");
    const std::string faulty = dir.write("faulty.py", std::string(kFaultyBot));
    const Report r = check_all(dir, {{"--game", "connect4", "python3", faulty, "shout",
                                      (dir.path() / "marker").string()}})
                         .front();
    ASSERT_EQ(r.status("start-up"), "fail") << r.run.out << r.run.err;
    EXPECT_EQ(r.checks.at("start-up").detail,
              "unexpected line during start-up: 'READY' (keywords are lower-case: 'ready')");
}

// Everything a bot prints is shown with its control characters escaped.
TEST(CheckBot, EscapesWhatTheBotPrints) {
    const TempDir dir("arena_check_bot");
    const std::string faulty = dir.write("faulty.py", std::string(kFaultyBot));
    const auto result = run_arena(dir.path(), {"check-bot", "--game", "connect4", "python3", faulty,
                                               "escape", (dir.path() / "escaped").string()});
    EXPECT_EQ(result.status, 1);
    EXPECT_EQ(result.out.find('\x1b'), std::string::npos);
    EXPECT_EQ(result.out.find('\x07'), std::string::npos);
    EXPECT_NE(result.out.find("move 4\\x1b[2J"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\\x1b]0;title\\x07"), std::string::npos) << result.out;
}

// The text report: a line per check, and under a failure what was sent,
// received and expected.
TEST(CheckBot, TextReportShowsWhatWasSentAndReceived) {
    const TempDir dir("arena_check_bot");
    const auto result =
        run_arena(dir.path(), {"check-bot", "--game", "connect4", "--move-ms", scaled_ms(1000),
                               bin("bots/misbehave"), "--mode", "garbage", "--at-ply", "3"});
    EXPECT_EQ(result.status, 1);
    const auto lines = arena::testing::lines_of(result.out);
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines.front().find("checking "), std::string::npos);
    const auto fail = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.starts_with("FAIL plays as player 1: ");
    });
    ASSERT_NE(fail, lines.end()) << result.out;
    EXPECT_NE(fail->find("hello arena"), std::string::npos);
    std::string block;
    for (auto it = fail + 1; it != lines.end() && it->starts_with("     "); ++it)
        block += *it + "\n";
    EXPECT_NE(block.find("     sent:     "), std::string::npos) << block;
    EXPECT_NE(block.find("go move_ms="), std::string::npos) << block;
    EXPECT_NE(block.find("     received: "), std::string::npos) << block;
    EXPECT_NE(block.find("hello arena"), std::string::npos) << block;
    EXPECT_NE(block.find("     stderr:   "), std::string::npos) << block;
    EXPECT_NE(block.find("     expected: "), std::string::npos) << block;
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.starts_with("ok   start-up: ");
    })) << result.out;
    EXPECT_NE(lines.back().find("failed"), std::string::npos) << lines.back();
}

TEST(CheckBot, BadUsageExitsWithTwo) {
    const TempDir dir("arena_check_bot");
    const auto one_line = [&](const std::vector<std::string>& args) {
        std::vector<std::string> all = {"check-bot"};
        all.insert(all.end(), args.begin(), args.end());
        const auto r = run_arena(dir.path(), all);
        EXPECT_EQ(r.status, 2) << joined(args) << "\n" << r.out << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        return arena::testing::lines_of(r.err).empty() ? std::string()
                                                       : arena::testing::lines_of(r.err).front();
    };
    EXPECT_EQ(one_line({bin("bots/random")}),
              "arena check-bot: --game is required for a protocol v1 bot (connect4, gomoku or "
              "reversi)");
    EXPECT_EQ(one_line({"--game", "connect4"}), "arena check-bot: no bot command given");
    EXPECT_EQ(one_line({"--game", "chess", bin("bots/random")}),
              "arena check-bot: unknown game 'chess' (expected connect4, gomoku or reversi)");
    EXPECT_EQ(one_line({"--protocol", "nboard", "--game", "gomoku", bin("bots/random")}),
              "arena check-bot: protocol 'nboard' plays only reversi, not gomoku");
    EXPECT_EQ(one_line({"--gmae", "connect4", bin("bots/random")}),
              "arena check-bot: unknown option '--gmae' (did you mean '--game'?)");
    EXPECT_EQ(one_line({"--protocol", "uci", "--game", "connect4", bin("bots/random")}),
              "arena check-bot: unknown protocol 'uci' (expected 'arena1', 'gomocup' or 'nboard', "
              "or 'tsinghua-so')");
    // The bot's own options come after its command.
    const auto r = run_arena(dir.path(), {"check-bot", "--game", "reversi", bin("bots/random"),
                                          "--game", "reversi", "--seed", "3"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
}

// ---- the pure parts ----------------------------------------------------

TEST(CheckBotPlan, EveryGameIsPlayableAndTheReversiPassIsForced) {
    using arena::check::BotKind;
    const std::vector<std::pair<std::string, BotKind>> kinds = {
        {"connect4", BotKind::kArena1}, {"gomoku", BotKind::kArena1},
        {"reversi", BotKind::kArena1},  {"gomoku", BotKind::kGomocup},
        {"reversi", BotKind::kNboard},  {"connect4", BotKind::kTsinghuaSo},
    };
    for (const auto& [game, kind] : kinds) {
        const auto plan = arena::check::make_plan(game, kind, 7);
        ASSERT_GE(plan.games.size(), 5u) << game;
        EXPECT_EQ(plan.games[0].check, "plays as player 1");
        EXPECT_EQ(plan.games[1].check, "plays as player 2");
        for (const auto& g : plan.games) {
            SCOPED_TRACE(game + ": " + g.check);
            const auto rules = arena::games::make_game(game, g.params);
            auto state = rules->new_initial_state();
            for (const auto& text : g.opening) {
                const auto move = state->parse_move(text);
                ASSERT_TRUE(move && state->is_legal(*move)) << text;
                state->apply(*move);
            }
            EXPECT_FALSE(state->is_over());
            if (g.check.starts_with("forced pass")) {
                EXPECT_EQ(state->legal_moves(),
                          std::vector<arena::games::Move>{arena::games::kPass});
                EXPECT_EQ(state->current_player(), 1);
            }
        }
    }
    EXPECT_THROW((void)arena::check::make_plan("connect4", BotKind::kGomocup, 1),
                 arena::games::GameError);
    EXPECT_THROW((void)arena::check::make_plan("gomoku", BotKind::kNboard, 1),
                 arena::games::GameError);
    EXPECT_THROW((void)arena::check::make_plan("reversi", BotKind::kTsinghuaSo, 1),
                 arena::games::GameError);
}

TEST(CheckBotVerdicts, TimeUse) {
    using arena::check::judge_time_use;
    using arena::check::MoveTime;
    const auto move = [](int took_ms, int limit_ms = 100) {
        return MoveTime{microseconds(took_ms * 1000), arena::match::Millis{limit_ms}};
    };
    auto r = judge_time_use({move(10), move(30), move(20)}, 0);
    EXPECT_EQ(r.status, Status::kOk);
    EXPECT_EQ(r.detail, "median 20 ms, max 30 ms over 3 moves (limit 100 ms)");
    r = judge_time_use({move(10), move(85)}, 0);
    EXPECT_EQ(r.status, Status::kWarn);
    EXPECT_NE(r.detail.find("a move used 85 % of its limit"), std::string::npos) << r.detail;
    EXPECT_EQ(judge_time_use({move(10), move(80)}, 0).status, Status::kOk);
    // Under a game clock each move has its own limit.
    r = judge_time_use({move(300, 1000), move(90, 100)}, 0);
    EXPECT_EQ(r.status, Status::kWarn);
    EXPECT_NE(r.detail.find("(limit 100 ms to 1000 ms)"), std::string::npos) << r.detail;
    EXPECT_NE(r.detail.find("90 %"), std::string::npos) << r.detail;
    r = judge_time_use({move(10)}, 2);
    EXPECT_EQ(r.status, Status::kFail);
    EXPECT_NE(r.detail.find("2 moves ran out of time"), std::string::npos) << r.detail;
    EXPECT_EQ(judge_time_use({}, 1).status, Status::kFail);
    EXPECT_EQ(judge_time_use({}, 0).status, Status::kSkip);
}

TEST(CheckBotVerdicts, SearchLimits) {
    using arena::check::judge_search_limits;
    using arena::check::LimitAnswer;
    const auto answer = [](std::string move, double ms, std::optional<std::int64_t> depth,
                           std::optional<std::int64_t> nodes) {
        return LimitAnswer{.answered = true,
                           .problem = {},
                           .move = std::move(move),
                           .ms = ms,
                           .depth = depth,
                           .nodes = nodes,
                           .simulations = {}};
    };
    auto r = judge_search_limits(answer("4", 2, 1, 7), answer("5", 30, 6, 2500),
                                 answer("5", 3, 5, 1000), 1000);
    EXPECT_EQ(r.status, Status::kOk);
    EXPECT_EQ(r.detail,
              "depth= honoured (its info lines report the depths asked; the move changes with "
              "depth (4 at depth=1, 5 at depth=6); depth=1 answers faster than depth=6), nodes= "
              "honoured (the nodes or simulations it reports stay within about 1000, past which "
              "depth=6 went; nodes=1000 answers faster than depth=6): depth=1 in 2.0 ms (move 4, "
              "info depth 1, info nodes "
              "7), depth=6 in 30 ms (move 5, info depth 6, info nodes 2500), nodes=1000 in 3.0 ms "
              "(move 5, info depth 5, info nodes 1000)");
    // A Monte Carlo bot by time that honours nodes= only.
    auto mcts = answer("f3", 3.9, 13, 55992);
    mcts.simulations = 1000;
    auto by_time = answer("f3", 744, 16, 6915320);
    by_time.simulations = 176112;
    r = judge_search_limits(answer("g3", 747, 14, 6517181), by_time, mcts, 1000);
    EXPECT_TRUE(r.detail.starts_with(
        "depth= no sign it is honoured, nodes= honoured (the nodes or simulations it reports stay "
        "within about 1000, past which depth=6 went; nodes=1000 answers faster than depth=6): "))
        << r.detail;
    // A bot that counts a few nodes whatever it is asked (reversi-greedy): no sign.
    r = judge_search_limits(answer("f3", 0.1, 1, 5), answer("f3", 0.03, 1, 5),
                            answer("f3", 0.02, 1, 5), 1000);
    EXPECT_TRUE(r.detail.starts_with("no sign")) << r.detail;
    // A bot that prints nothing and plays the same move as fast: no sign.
    r = judge_search_limits(answer("c3", 1, {}, {}), answer("c3", 1, {}, {}),
                            answer("c3", 1, {}, {}), 1000);
    EXPECT_EQ(r.status, Status::kOk);
    EXPECT_TRUE(
        r.detail.starts_with("no sign that depth= or nodes= are honoured (the same move "
                             "c3 at depth=1 and depth=6"))
        << r.detail;
    EXPECT_NE(r.detail.find("fine if the bot does not search"), std::string::npos) << r.detail;
    // One searching by time and printing its depth: same move, no sign either.
    r = judge_search_limits(answer("c3", 900, 9, 50000), answer("c3", 900, 9, 50000),
                            answer("c3", 900, 9, 50000), 1000);
    EXPECT_TRUE(r.detail.starts_with("no sign")) << r.detail;
    // Not answered: skipped, never a failure.
    LimitAnswer lost;
    lost.problem = "timeout: no move within 1000 ms";
    r = judge_search_limits(answer("c3", 1, {}, {}), lost, lost, 1000);
    EXPECT_EQ(r.status, Status::kSkip);
    EXPECT_EQ(r.detail, "could not be probed: timeout: no move within 1000 ms");
    EXPECT_EQ(arena::protocol::info_value("depth 4 score -3 nodes 120 pv 4", "nodes"), 120);
    EXPECT_EQ(arena::protocol::info_value("score 3", "depth"), std::nullopt);
}

TEST(CheckBotVerdicts, Memory) {
    using arena::check::judge_memory;
    EXPECT_EQ(judge_memory(std::uint64_t{10} << 20, 100, "").status, Status::kOk);
    const auto warn = judge_memory(std::uint64_t{90} << 20, 100, "");
    EXPECT_EQ(warn.status, Status::kWarn);
    EXPECT_NE(warn.detail.find("peak 90.0 MiB (limit 100 MiB)"), std::string::npos) << warn.detail;
    EXPECT_EQ(judge_memory(std::uint64_t{900} << 20, 0, "").status, Status::kOk);
    EXPECT_EQ(judge_memory(std::nullopt, 100, "").status, Status::kSkip);
    EXPECT_EQ(judge_memory(std::uint64_t{10} << 20, 100, "plays as player 1: out of memory").status,
              Status::kFail);
}

TEST(CheckBotReport, PrintsEachCheckAsItIsDecidedOrAllAsJson) {
    arena::check::CheckOptions o;
    o.game = "connect4";
    o.bot.name = "gone";
    o.bot.argv = {"/nonexistent/arena-check-bot"};  // fails to start: the rest is skipped
    arena::session::BotHost host;
    std::ostringstream text;
    const auto results = arena::check::print_checks(host, o, "gone --x", false, text);
    ASSERT_FALSE(results.empty());
    std::string expected = arena::check::heading_text("gone --x", o);
    for (const auto& r : results)
        expected += arena::check::format_text(r);
    EXPECT_EQ(text.str(), expected + arena::check::verdict_text(results));
    std::ostringstream json;
    const auto again = arena::check::print_checks(host, o, "gone --x", true, json);
    EXPECT_EQ(json.str(), arena::check::json_text(again) + "\n");
}

TEST(CheckBotReport, TextAndJson) {
    CheckResult ok;
    ok.name = "quit";
    ok.detail = "exited 1 ms after `quit`";
    EXPECT_EQ(arena::check::format_text(ok), "ok   quit: exited 1 ms after `quit`\n");
    CheckResult fail;
    fail.name = "plays as player 1";
    fail.status = Status::kFail;
    fail.detail = "connect4 7x6: protocol: invalid line: 'x'";
    fail.sent = {"position", "go move_ms=100"};
    fail.received = {"x"};
    fail.expected = "one `move`";
    EXPECT_EQ(arena::check::format_text(fail),
              "FAIL plays as player 1: connect4 7x6: protocol: invalid line: 'x'\n"
              "     sent:     position\n"
              "               go move_ms=100\n"
              "     received: x\n"
              "     stderr:   (nothing)\n"
              "     expected: one `move`\n");
    CheckResult skip;
    skip.name = "stdout flushed";
    skip.status = Status::kSkip;
    skip.detail = "why";
    const std::vector<CheckResult> all = {ok, fail, skip};
    EXPECT_FALSE(arena::check::all_passed(all));
    EXPECT_TRUE(arena::check::all_passed({ok, skip}));
    EXPECT_EQ(arena::check::summary_text(all), "1 ok, 0 warnings, 1 skipped, 1 failed");
    const auto json = arena::check::to_json(all);
    ASSERT_EQ(json.size(), 3u);
    EXPECT_EQ(json[1]["status"], "fail");
    EXPECT_EQ(json[1]["sent"].size(), 2u);
    for (const auto& j : json)
        for (const char* key :
             {"name", "status", "detail", "sent", "received", "stderr", "expected"})
            EXPECT_TRUE(j.contains(key)) << key;
}

}  // namespace
