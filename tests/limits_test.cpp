// The limits of a bot's whole process tree (docs/security.md): memory as
// resident memory, processes exactly, and the peak memory of each game, in a
// cgroup per bot where the machine gives one, and with the fallback (rlimits
// and the reaper's /proc poll), forced with `cgroup: false`.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/match/match.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/session/session.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using namespace std::chrono_literals;
using testing::bin;
using testing::survivors;
using testing::unique_marker;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

enum class Mechanism { kCgroup, kFallback };

std::string name_of(Mechanism m) {
    return m == Mechanism::kCgroup ? "Cgroup" : "Fallback";
}

session::SessionOptions options() {
    session::SessionOptions o;
    o.startup_limit = testing::scaled(5000ms);
    o.quit_grace = 300ms;
    return o;
}

// A misbehave bot with `args`, marked with `marker` (its seed) so that every
// process it starts can be found.
session::BotSpec bad_bot(const std::vector<std::string>& args, const std::string& marker,
                         Mechanism mechanism, session::Limits limits = {}) {
    session::BotSpec spec{"bad", {bin("bots/misbehave"), "--seed", marker}, {}};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.isolation.limits = limits;
    spec.isolation.cgroup = mechanism == Mechanism::kCgroup;
    return spec;
}

session::BotSpec good_bot(Mechanism mechanism) {
    session::BotSpec spec{"good", {bin("bots/random"), "--seed", "1"}, {}};
    spec.isolation.cgroup = mechanism == Mechanism::kCgroup;
    return spec;
}

// One Connect-4 game under `host`, the bad bot moving first.
record::GameRecord play(session::BotHost& host, const session::BotSpec& bad,
                        const session::BotSpec& good, std::chrono::milliseconds move = 10'000ms) {
    const auto game = games::make_game("connect4", {});
    match::Player a(host, bad, options());
    match::Player b(host, good, options());
    match::TimeControl tc;
    tc.move = testing::scaled(move);
    return match::play_game(*game, a, b, tc);
}

class Limits : public ::testing::TestWithParam<Mechanism> {
  protected:
    void SetUp() override {
        if (GetParam() == Mechanism::kCgroup && host.cgroup_support().version == 0) {
            GTEST_SKIP() << "no cgroup per bot here: " << host.cgroup_support().reason;
        }
    }
    session::BotHost host;
};

INSTANTIATE_TEST_SUITE_P(Mechanisms, Limits,
                         ::testing::Values(Mechanism::kCgroup, Mechanism::kFallback),
                         [](const auto& param_info) { return name_of(param_info.param); });

// A bot that touches more than memory_mb loses with the out-of-memory verdict,
// and nothing of it is left: whether the leader touches the memory or a child
// it forked does.
TEST_P(Limits, TouchingMoreThanTheMemoryLimitLosesAndLeavesNothing) {
    session::Limits limits;
    limits.memory_mb = 256;
    for (const std::string mode : {"touch-memory", "touch-memory-child"}) {
        SCOPED_TRACE(mode);
        const auto marker = unique_marker();
        const auto record = play(
            host,
            bad_bot({"--mode", mode, "--touch-mb", "700", "--sleep-ms", testing::scaled_ms(1000)},
                    marker, GetParam(), limits),
            good_bot(GetParam()));
        EXPECT_EQ(record.termination, record::Termination::kCrash) << record.detail;
        EXPECT_EQ(record.offender(), 1) << record.detail;
        EXPECT_NE(record.detail.find("(out of memory: memory limit 256 MB)"), std::string::npos)
            << record.detail;
        EXPECT_EQ(survivors(marker), std::vector<int>{}) << record.detail;
    }
}

// Address space reserved and never touched does not count: a bot that maps
// 8 GiB and touches 100 MiB plays its games under the default 1024 MB.
TEST_P(Limits, ReservedAddressSpaceDoesNotCount) {
    const auto marker = unique_marker();
    const auto bad = bad_bot(
        {"--mode", "touch-memory", "--reserve-gb", "8", "--touch-mb", "100", "--sleep-ms", "0"},
        marker, GetParam());
    ASSERT_EQ(bad.isolation.limits.memory_mb, 1024u);
    const auto record = play(host, bad, good_bot(GetParam()));
    EXPECT_EQ(record.termination, record::Termination::kNormal) << record.detail << "\n"
                                                                << record.stderr_logs[0];
    EXPECT_EQ(record.stderr_logs[0].find("reserving"), std::string::npos) << record.stderr_logs[0];
}

// A fork beyond `processes` fails in the bot (with a cgroup the bot never has
// more tasks than that: 1 + its successful forks), and the bot loses with
// the process-limit verdict.
TEST_P(Limits, AForkBombIsStoppedAtTheProcessLimit) {
    session::Limits limits;
    limits.processes = 16;
    const auto marker = unique_marker();
    const auto record = play(host, bad_bot({"--mode", "fork-count"}, marker, GetParam(), limits),
                             good_bot(GetParam()));
    EXPECT_EQ(record.termination, record::Termination::kCrash) << record.detail;
    EXPECT_EQ(record.offender(), 1) << record.detail;
    EXPECT_NE(record.detail.find("(process limit 16 (processes + threads))"), std::string::npos)
        << record.detail;
    if (GetParam() == Mechanism::kCgroup) {
        // The bot writes a line after each fork that succeeded (it may be
        // killed before its summary line).
        const std::string& log = record.stderr_logs[0];
        const std::regex fork_line("misbehave: fork ([0-9]+)\n");
        int forks = 0;
        for (std::sregex_iterator it(log.begin(), log.end(), fork_line), end; it != end; ++it)
            forks = std::max(forks, std::stoi((*it)[1].str()));
        // The bot itself is the 16th task.
        EXPECT_EQ(forks, 15) << log;
    }
    EXPECT_EQ(survivors(marker), std::vector<int>{}) << record.detail;
}

// The peak memory of each side is in the game's record: at least what a bot
// touched, and less than that for a small bot.
TEST_P(Limits, PeakMemoryOfEachSideIsRecorded) {
    const auto marker = unique_marker();
    // The pause lets the fallback's poll (every 100 ms) see the memory.
    const auto record = play(host,
                             bad_bot({"--mode", "touch-memory", "--touch-mb", "100", "--sleep-ms",
                                      testing::scaled_ms(400)},
                                     marker, GetParam()),
                             good_bot(GetParam()));
    ASSERT_EQ(record.termination, record::Termination::kNormal) << record.detail;
    ASSERT_TRUE(record.peak_memory[0].has_value());
    EXPECT_GE(*record.peak_memory[0], 100 * kMiB);
    EXPECT_LT(*record.peak_memory[0], 1024 * kMiB);
    if (record.peak_memory[1]) {  // the poll may miss a bot that lived less than 100 ms
        EXPECT_GT(*record.peak_memory[1], 0u);
        EXPECT_LT(*record.peak_memory[1], 100 * kMiB);
    } else {
        EXPECT_EQ(GetParam(), Mechanism::kFallback);
    }
}

// `arena match --db` stores each side's peak memory (schema 6), `arena show`
// prints it, and the run starts by saying which mechanism is in force.
TEST(PeakMemory, IsStoredPerSideAndShown) {
    testing::TempDir dir("limits_test");
    const auto db = dir.path() / "m.db";
    const auto r = testing::run_arena(
        dir.path(), {"match", "--game", "connect4", "--games", "2", "--move-ms",
                     testing::scaled_ms(5000), "--db", db.string(),
                     "big=" + bin("bots/misbehave") + " --mode touch-memory --touch-mb 100 " +
                         "--sleep-ms " + testing::scaled_ms(400),
                     "small=" + bin("bots/random")});
    ASSERT_EQ(r.status, 0) << r.err;
    session::BotHost host;  // what this machine allows, as the arena found it
    EXPECT_EQ(r.limits_line, host.describe_limits()) << r.err;
    const auto rows = testing::query(
        db,
        "SELECT g.id, f.name, g.first_peak_memory, g.second_peak_memory FROM games AS g "
        "JOIN bots AS f ON f.id = g.first_bot ORDER BY g.id");
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& row : rows) {
        const bool big_first = row[1] == "big";
        const std::string& big = row[big_first ? 2 : 3];
        const std::string& small = row[big_first ? 3 : 2];
        ASSERT_FALSE(big.empty()) << row[0];
        // The same process plays both games: the second game's peak still
        // holds the memory it kept.
        EXPECT_GE(std::stoull(big), 100 * kMiB) << row[0];
        if (!small.empty()) {
            EXPECT_LT(std::stoull(small), 100 * kMiB) << row[0];
        }
    }
    const auto shown = testing::run_arena(dir.path(), {"show", db.string(), rows[0][0]});
    ASSERT_EQ(shown.status, 0) << shown.err;
    EXPECT_TRUE(std::regex_search(
        shown.out, std::regex("\npeak memory \\(as the memory limit counts it\\): (big|small) "
                              "([0-9]+\\.[0-9] MiB|not known), "
                              "(big|small) ([0-9]+\\.[0-9] MiB|not known)\n")))
        << shown.out;
}

// The line said once per run names the mechanism.
TEST(LimitsDescription, NamesTheMechanismInForce) {
    session::BotHost host;
    const auto& s = host.cgroup_support();
    const std::string line = host.describe_limits();
    if (s.version == 0) {
        EXPECT_EQ(line, "limits: rlimits and a 100 ms /proc poll (no cgroup: " + s.reason + ")");
    } else {
        EXPECT_TRUE(
            line.starts_with("limits: cgroup v" + std::to_string(s.version) + " per bot (memory"))
            << line;
    }
    EXPECT_EQ(host.describe_limits(false),
              "limits: rlimits and a 100 ms /proc poll (no cgroup: turned off by 'cgroup: false')");
}

}  // namespace
}  // namespace arena
