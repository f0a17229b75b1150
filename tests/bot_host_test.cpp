// session::BotHost owns what the arena keeps for its bots: a second host at
// once is refused, and what a host made (its keeper process, its scratch
// directory, its cgroups) goes when the host goes, so that hosts one after
// another (commands run in one process) each start afresh.

#include "arena/session/bot_host.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "arena/session/process.hpp"
#include "proc_util.hpp"

namespace arena::session {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

ProcessOptions sh_process(const std::string& script) {
    ProcessOptions options;
    options.argv = {"/bin/sh", "-c", script};
    return options;
}

// This process's children named arena-keeper (reaper.cpp), zombies too: a
// keeper that has exited but was not reaped is still listed.
std::vector<pid_t> keepers() {
    std::vector<pid_t> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string stat = arena::testing::read_proc_file((entry.path() / "stat").string());
        const auto open = stat.find('(');
        const auto close = stat.rfind(')');
        if (open == std::string::npos || close == std::string::npos) continue;
        std::istringstream fields(stat.substr(close + 2));
        char state = 0;
        long ppid = 0;
        fields >> state >> ppid;
        if (stat.substr(open + 1, close - open - 1) == "arena-keeper" && ppid == ::getpid())
            found.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return found;
}

// The keepers once one is there (it names itself once it runs, which may be
// after the first bot has answered), or none after `wait`.
std::vector<pid_t> keepers_after_start(std::chrono::milliseconds wait = 5s) {
    const auto until = std::chrono::steady_clock::now() + wait;
    auto found = keepers();
    while (found.empty() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(1ms);
        found = keepers();
    }
    return found;
}

TEST(BotHost, ASecondHostAtOnceIsRefused) {
    {
        BotHost first;
        EXPECT_THROW(BotHost second, std::logic_error);
    }
    BotHost later;  // the first is gone
}

TEST(BotHost, ItsKeeperScratchDirectoryAndCgroupsGoWithIt) {
    std::vector<pid_t> first_keepers;
    fs::path run_dir;
    std::vector<std::string> cgroup_dirs;
    {
        BotHost host;
        // Nothing is made before it is needed.
        EXPECT_TRUE(keepers().empty());
        EXPECT_TRUE(host.run_dir().empty());
        const fs::path scratch = host.make_scratch("bot");
        std::ofstream(scratch / "left.txt") << "a bot's file\n";
        {
            Process p(host, sh_process("echo started; read wait"));
            const auto r = p.read_line(Clock::now() + 10s);
            ASSERT_EQ(r.status, Process::ReadStatus::kLine);
            EXPECT_EQ(r.line, "started");
        }
        first_keepers = keepers_after_start();
        EXPECT_EQ(first_keepers.size(), 1u);
        run_dir = host.run_dir();
        EXPECT_EQ(scratch.parent_path(), run_dir);
        EXPECT_TRUE(fs::is_directory(run_dir));
        // None where the machine gives no cgroup per bot.
        cgroup_dirs = host.cgroups().arena_dirs();
        for (const auto& dir : cgroup_dirs)
            EXPECT_TRUE(fs::is_directory(dir)) << dir;
    }
    EXPECT_TRUE(keepers().empty());  // ended, and reaped
    EXPECT_FALSE(fs::exists(run_dir)) << run_dir;
    for (const auto& dir : cgroup_dirs)
        EXPECT_FALSE(fs::exists(dir)) << dir;

    // A later host starts afresh: a keeper of its own, and its bots run.
    BotHost next;
    Process p(next, sh_process("echo again; read wait"));
    const auto r = p.read_line(Clock::now() + 10s);
    ASSERT_EQ(r.status, Process::ReadStatus::kLine);
    EXPECT_EQ(r.line, "again");
    const auto now = keepers_after_start();
    ASSERT_EQ(now.size(), 1u);
    if (!first_keepers.empty()) {
        EXPECT_NE(now.front(), first_keepers.front());
    }
}

}  // namespace
}  // namespace arena::session
