// A league's server killed with SIGKILL in the middle of its games
// (issue 45, docs/league.md "Play"), end to end with the arena binary:
// `arena serve --league` over six participants' folders, killed once some
// games are stored; no bot process outlives it, and once it is started
// again the league finishes its schedule with every game stored exactly
// once, the games stored before the kill unchanged, and uploads sent to
// the restarted server checked and played, one of them by a participant
// that `arena league user add` added while it ran.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "http_client.hpp"
#include "league_process.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArenaProcess;
using testing::bin;
using testing::query;
using testing::query_one;
using testing::Rows;

constexpr int kParticipants = 6;
constexpr int kGamesPerPair = 20;
constexpr int kPairs = kParticipants * (kParticipants - 1) / 2;
constexpr int kTotal = kPairs * kGamesPerPair;                            // 300
constexpr int kWithLateEntrant = kTotal + kParticipants * kGamesPerPair;  // 420
// And a second newcomer, added while the server runs: 7 x 20 more.
constexpr int kWithBoth = kWithLateEntrant + (kParticipants + 1) * kGamesPerPair;  // 560

class LeagueKill : public ::testing::Test {
  protected:
    void SetUp() override {
        fs::create_directories(subs());
        // Each participant's bot carries its own seed, unique to this run:
        // the processes of the league's bots are found by it (their sandbox
        // too, whose command line holds the bot's).
        const std::string base = testing::unique_marker().substr(0, 12);
        for (int i = 0; i < kParticipants; ++i) {
            const std::string name = "p" + std::to_string(i + 1);
            seeds_.push_back(base + std::to_string(i + 1));
            fs::create_directories(subs() / name);
            // Plays like `random --seed N`, 4 ms a move: a schedule of a few
            // tens of seconds, long enough to be killed in.
            fs::copy_file(bin("bots/misbehave"), subs() / name / "misbehave");
            (void)dir_.write(
                "subs/" + name + "/bot.yaml",
                "command: ./misbehave --seed " + seeds_.back() + " --mode sleep --sleep-ms 4\n");
        }
        config_ = dir_.write(
            "league.yaml",
            "name: killed\ngame: { name: connect4 }\ntime: { move_ms: " + testing::scaled_ms(2000) +
                " }\nopenings: { random_plies: 2 }\n"
                "schedule: { type: round-robin, games_per_pair: " +
                std::to_string(kGamesPerPair) + " }\nconcurrency: 2\nbots_dir: " + subs().string() +
                "\ndatabase: " + db().string() + "\nleague: {}\n");
    }
    void TearDown() override {
        for (const auto& seed : seeds_)
            for (const int pid : testing::processes_with_arg(seed))
                ::kill(pid, SIGKILL);
    }

    fs::path subs() const { return dir_.path() / "subs"; }
    fs::path db() const { return dir_.path() / "league.db"; }

    // The bot processes of the league still alive after a grace.
    std::vector<int> bot_survivors() const {
        std::vector<int> all;
        for (const auto& seed : seeds_)
            for (const int pid : testing::survivors(seed, testing::scaled(5s)))
                all.push_back(pid);
        return all;
    }

    std::string add_user(const std::string& name) {
        return testing::add_league_user(dir_.path(), config_, name);
    }
    bool wait_for(const std::string& sql, std::int64_t n, std::chrono::milliseconds limit) const {
        return testing::wait_for_count(db(), sql, n, limit);
    }
    static std::string upload(unsigned short port, const std::string& token) {
        return testing::league_upload(port, token, "random", testing::slurp(bin("bots/random")));
    }

    // Waits until the participant's version 1 passed its check.
    bool passed(const std::string& participant) const {
        return wait_for("SELECT count(*) FROM league_versions WHERE participant = '" + participant +
                            "' AND version = 1 AND status = 'passed'",
                        1, 120s);
    }

    // Every stored game: its id, index, players, result and moves.
    Rows games() const {
        return query(db(),
                     "SELECT g.id, g.game_index, g.first_bot, g.second_bot, g.result, g.plies, "
                     "(SELECT group_concat(move, ' ') FROM (SELECT move FROM moves WHERE game = "
                     "g.id ORDER BY ply)) FROM games AS g ORDER BY g.id");
    }

    testing::TempDir dir_{"league_kill_test"};
    std::vector<std::string> seeds_;
    std::string config_;
};

TEST_F(LeagueKill, KilledMidPlayTheRestartedLeagueStoresEveryGameOnceAndTakesUploads) {
    const std::string late = add_user("late");
    ASSERT_FALSE(late.empty());
    const std::vector<std::string> serve = {"serve", "--league", config_, "--port", "0"};
    std::size_t stored_before_kill = 0;
    Rows before;
    {
        ArenaProcess server(dir_.path(), serve);
        ASSERT_NE(testing::league_port(server), 0) << testing::slurp(server.err_path().string());
        ASSERT_TRUE(wait_for("SELECT count(*) FROM games", 30, 120s))
            << testing::slurp(server.err_path().string());
        // Bots are playing (so that their end is worth checking).
        std::size_t alive = 0;
        for (const auto& seed : seeds_)
            alive += testing::processes_with_arg(seed).size();
        EXPECT_GT(alive, 0u);
        ASSERT_EQ(::kill(server.pid(), SIGKILL), 0);
        EXPECT_EQ(server.wait().status, 128 + SIGKILL);
        // The bots' processes, their sandboxes included, die with it.
        EXPECT_EQ(bot_survivors(), std::vector<int>{});
        before = games();
        stored_before_kill = before.size();
        ASSERT_GE(stored_before_kill, 30u);
        ASSERT_LT(stored_before_kill, static_cast<std::size_t>(kTotal))
            << "the schedule was played before the kill: nothing was tested";
    }
    ArenaProcess server(dir_.path(), serve);
    const auto port = testing::league_port(server);
    ASSERT_NE(port, 0) << testing::slurp(server.err_path().string());
    // The restarted league goes on; a new participant's upload is taken,
    // checked and enters as a late entrant.
    auto r = upload(port, late);
    ASSERT_EQ(testing::status_of(r), 202) << r;
    EXPECT_EQ(nlohmann::json::parse(testing::body_of(r))["version"], 1);
    EXPECT_TRUE(passed("late")) << testing::slurp(server.err_path().string());
    // A participant added while the server runs, by another process that
    // writes to the database and closes it: the server's connections keep
    // their WAL (a run's lock, released, once took their locks with it, and
    // the closing connection deleted the WAL from under them).
    const std::string later = add_user("later");
    ASSERT_FALSE(later.empty());
    r = upload(port, later);
    ASSERT_EQ(testing::status_of(r), 202) << r;
    EXPECT_TRUE(passed("later")) << testing::slurp(server.err_path().string());
    const bool finished = wait_for("SELECT count(*) FROM games", kWithBoth, 300s);
    const auto err = testing::slurp(server.err_path().string());
    // Stopped as with Ctrl-C, before the checks on the database.
    ASSERT_EQ(::kill(server.pid(), SIGINT), 0);
    const auto stopped = server.wait();
    EXPECT_EQ(stopped.status, 0) << stopped.err;
    ASSERT_TRUE(finished) << err;
    EXPECT_EQ(err.find("cannot open results database"), std::string::npos) << err;
    EXPECT_EQ(bot_survivors(), std::vector<int>{});

    // Every game of the schedule, each once: indices 0 .. 559.
    EXPECT_EQ(query(db(),
                    "SELECT count(*), count(DISTINCT game_index), min(game_index), "
                    "max(game_index) FROM games"),
              (Rows{{std::to_string(kWithBoth), std::to_string(kWithBoth), "0",
                     std::to_string(kWithBoth - 1)}}));
    EXPECT_EQ(query_one(db(), "SELECT total_games FROM tournaments WHERE name = 'killed'"),
              std::to_string(kWithBoth));
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM games WHERE termination <> 'normal'"), "0");
    // Each newcomer met each of the seven others, 20 games each.
    for (const std::string name : {"late", "later"}) {
        EXPECT_EQ(query(db(), "SELECT count(*), count(DISTINCT CASE WHEN f.name = '" + name +
                                  "' THEN s.name ELSE f.name END) FROM games AS g JOIN bots AS f "
                                  "ON f.id = g.first_bot JOIN bots AS s ON s.id = g.second_bot "
                                  "WHERE '" +
                                  name + "' IN (f.name, s.name)"),
                  (Rows{{std::to_string((kParticipants + 1) * kGamesPerPair),
                         std::to_string(kParticipants + 1)}}))
            << name;
    }
    // The games stored before the kill are there as they were: same ids,
    // indices, players, results and moves.
    const auto after = games();
    ASSERT_GE(after.size(), before.size());
    for (std::size_t i = 0; i < before.size(); ++i)
        EXPECT_EQ(after[i], before[i]) << "game " << i;
}

}  // namespace
}  // namespace arena
