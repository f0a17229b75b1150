// A league played while its server runs (league/league_play.hpp): the
// schedule over bots_dir to its end, then again after each wake, a new
// submission entering as a late entrant; a wake in the middle of a run
// loses no finished game and stores none twice; a config that cannot be
// used waits for a fix.

#include "arena/league/league_play.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "arena/session/sandbox.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena::league {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::bin;
using testing::query;
using testing::Rows;

class League : public ::testing::Test {
  protected:
    // A round-robin league over subs/, `games` games a pair; `extra` (whole
    // lines) at the end.
    fs::path config(int games, const std::string& extra = "") {
        fs::create_directories(dir_.path() / "subs");
        return dir_.write("league.yaml",
                          "name: league\ngame: { name: connect4 }\ntime: { move_ms: 2000 }\n"
                          "openings: { random_plies: 4 }\n"
                          "schedule: { type: round-robin, games_per_pair: " +
                              std::to_string(games) +
                              " }\nconcurrency: 2\nbots_dir: " + (dir_.path() / "subs").string() +
                              "\ndatabase: " + db().string() + "\n" + extra);
    }
    // As an upload: the program in the folder.
    void upload(const std::string& name, int seed) {
        const fs::path folder = dir_.path() / "subs" / name;
        fs::create_directories(folder);
        fs::copy_file(bin("bots/random"), folder / "random");
        (void)dir_.write("subs/" + name + "/bot.yaml",
                         "command: ./random --seed " + std::to_string(seed) + "\n");
    }
    void submit(const std::string& name, int seed) {
        fs::create_directories(dir_.path() / "subs" / name);
        (void)dir_.write(
            "subs/" + name + "/bot.yaml",
            "command: " + bin("bots/random") + " --seed " + std::to_string(seed) + "\n");
    }
    fs::path db() const { return dir_.path() / "league.db"; }

    // Waits (at most 60 s) until `done` holds of the league's status.
    template <typename Done>
    LeagueStatus wait_until(const LeaguePlay& league, Done done) {
        const auto until = std::chrono::steady_clock::now() + 60s;
        auto s = league.status();
        while (!done(s) && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(10ms);
            s = league.status();
        }
        return s;
    }

    testing::TempDir dir_{"league_play_test"};
    session::BotHost host_;
    std::ostringstream log_;
};

TEST_F(League, PlaysItsScheduleThenEachNewSubmissionAsALateEntrant) {
    const auto path = config(2);
    submit("ann", 1);
    submit("bob", 2);
    LeaguePlay league(host_, path, {}, log_);
    std::jthread playing([&](std::stop_token stop) { league.run(stop); });
    auto s = wait_until(league, [](const LeagueStatus& t) { return t.idle; });
    ASSERT_TRUE(s.idle) << log_.str();
    EXPECT_EQ(s.stored, 2);
    EXPECT_EQ(s.total, 2);
    submit("cat", 3);
    league.wake();
    s = wait_until(league, [](const LeagueStatus& t) { return t.idle && t.stored == 6; });
    ASSERT_EQ(s.stored, 6) << log_.str();
    EXPECT_EQ(s.runs, 2);
    EXPECT_EQ(s.last_problem, "");
    playing.request_stop();
    playing.join();
    EXPECT_EQ(query(db(), "SELECT count(*), count(DISTINCT game_index) FROM games"),
              (Rows{{"6", "6"}}));
    EXPECT_EQ(query(db(), "SELECT name FROM bots ORDER BY id"), (Rows{{"ann"}, {"bob"}, {"cat"}}));
    // cat met both of the others, twice each.
    EXPECT_EQ(query(db(),
                    "SELECT count(*) FROM games AS g JOIN bots AS f ON f.id = g.first_bot JOIN "
                    "bots AS s ON s.id = g.second_bot WHERE 'cat' IN (f.name, s.name)"),
              (Rows{{"4"}}));
}

// Woken while it plays a long schedule, the league stops between games and
// starts again with the newcomer: every game that finished is stored once,
// and in the end the whole schedule is.
TEST_F(League, AWakeInTheMiddleLosesNoGameAndStoresNoneTwice) {
    const auto path = config(60);
    submit("ann", 1);
    submit("bob", 2);
    LeaguePlay league(host_, path, {}, log_);
    std::jthread playing([&](std::stop_token stop) { league.run(stop); });
    // A few games into the first run.
    const auto until = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < until) {
        try {
            if (fs::exists(db()) &&
                std::stoi(query(db(), "SELECT count(*) FROM games").at(0).at(0)) >= 6)
                break;
        } catch (const std::exception&) {
            // The league holds the database for a moment.
        }
        std::this_thread::sleep_for(5ms);
    }
    submit("cat", 3);
    league.wake();
    const auto s =
        wait_until(league, [](const LeagueStatus& t) { return t.idle && t.stored == 180; });
    ASSERT_EQ(s.stored, 180) << log_.str() << "runs " << s.runs << " total " << s.total << " idle "
                             << s.idle << " problem " << s.last_problem;
    EXPECT_GE(s.runs, 2);
    playing.request_stop();
    playing.join();
    EXPECT_EQ(query(db(), "SELECT count(*), count(DISTINCT game_index) FROM games"),
              (Rows{{"180", "180"}}));
    EXPECT_EQ(query(db(), "SELECT count(*) FROM games WHERE termination <> 'normal'"),
              (Rows{{"0"}}));
}

// Wakes that come faster than a run starts (installs under a crowd of
// uploads) do not stop every run before it stores a game: a woken run plays
// on for a while first (kLeastRun, 2 s), so a storm of wakes, one every
// 10 ms for 4 s, begins a handful of runs, not hundreds, and games are
// stored all along.
TEST_F(League, AStormOfWakesStillPlays) {
    const auto path = config(100);
    // Bots of 5 ms a move: a game takes a tenth of a second or so.
    for (const auto& [name, seed] : {std::pair{"ann", 1}, std::pair{"bob", 2}}) {
        fs::create_directories(dir_.path() / "subs" / name);
        (void)dir_.write("subs/" + std::string(name) + "/bot.yaml",
                         "command: " + bin("bots/misbehave") + " --seed " + std::to_string(seed) +
                             " --mode sleep --sleep-ms 5\n");
    }
    LeaguePlay league(host_, path, {}, log_);
    std::jthread playing([&](std::stop_token stop) { league.run(stop); });
    const auto stored = [&] {
        try {
            return fs::exists(db())
                       ? std::stoi(query(db(), "SELECT count(*) FROM games").at(0).at(0))
                       : 0;
        } catch (const std::exception&) {
            return -1;  // the league holds the database for a moment
        }
    };
    const auto playing_by = std::chrono::steady_clock::now() + 60s;
    while (stored() < 2 && std::chrono::steady_clock::now() < playing_by)
        std::this_thread::sleep_for(5ms);
    const int before = stored();
    ASSERT_GE(before, 2) << log_.str();
    const auto runs_before = league.status().runs;
    const auto until = std::chrono::steady_clock::now() + 4s;
    while (std::chrono::steady_clock::now() < until) {
        league.wake();
        std::this_thread::sleep_for(10ms);
    }
    int after = stored();
    for (int i = 0; i < 100 && after < 0; ++i)
        after = stored();
    EXPECT_LE(league.status().runs - runs_before, 5);
    EXPECT_GT(after, before) << "no game was stored during the wakes";
    EXPECT_LT(after, 100) << "the schedule was played before the wakes ended: nothing was tested";
    const auto s = wait_until(league, [](const LeagueStatus& t) { return t.idle; });
    EXPECT_EQ(s.stored, 100) << log_.str();
    playing.request_stop();
    playing.join();
    EXPECT_EQ(query(db(), "SELECT count(*), count(DISTINCT game_index) FROM games"),
              (Rows{{"100", "100"}}));
}

// A config that cannot be used says why and waits; fixed, a wake plays it.
TEST_F(League, AConfigThatCannotBeUsedWaitsForAFix) {
    const auto path = dir_.write("league.yaml", "name: league\ngame: { name: connect4 }\n");
    LeaguePlay league(host_, path, {}, log_);
    std::jthread playing([&](std::stop_token stop) { league.run(stop); });
    auto s = wait_until(league, [](const LeagueStatus& t) { return !t.last_problem.empty(); });
    EXPECT_EQ(s.last_problem, path + " cannot be used (above); fix it and upload again");
    EXPECT_NE(log_.str().find("league.yaml:1:1: missing required key 'bots'"), std::string::npos)
        << log_.str();
    (void)config(2);
    submit("ann", 1);
    submit("bob", 2);
    league.wake();
    s = wait_until(league, [](const LeagueStatus& t) { return t.idle && t.stored == 2; });
    EXPECT_EQ(s.stored, 2) << log_.str();
    EXPECT_EQ(s.last_problem, "");
    // A stop returns at once.
    const auto before = std::chrono::steady_clock::now();
    playing.request_stop();
    playing.join();
    EXPECT_LT(std::chrono::steady_clock::now() - before, 5s);
}

// A league nobody has uploaded to, then with one upload: nothing to play,
// which is no problem; it waits, idle, saying so. The second upload starts
// its games.
TEST_F(League, WithFewerThanTwoBotsItWaitsForUploads) {
    if (!session::sandbox_available())
        GTEST_SKIP() << "a league runs its uploads sandboxed, and bubblewrap cannot here";
    const auto path = config(2, "league: {}\n");
    LeaguePlay league(host_, path, {}, log_);
    std::jthread playing([&](std::stop_token stop) { league.run(stop); });
    auto s = wait_until(league, [](const LeagueStatus& t) { return t.idle; });
    ASSERT_TRUE(s.idle) << log_.str();
    EXPECT_EQ(s.waiting, "waiting for uploads: the league has 0 bots");
    EXPECT_EQ(s.last_problem, "");
    EXPECT_EQ(s.runs, 1);
    upload("ann", 1);
    league.wake();
    s = wait_until(league, [](const LeagueStatus& t) { return t.idle && t.runs == 2; });
    ASSERT_TRUE(s.idle) << log_.str();
    EXPECT_EQ(s.waiting, "waiting for uploads: the league has 1 bot");
    EXPECT_EQ(s.last_problem, "");
    EXPECT_FALSE(fs::exists(db()));  // nothing was opened, nor played
    EXPECT_NE(log_.str().find("arena serve --league: waiting for uploads: the league has 1 bot\n"),
              std::string::npos)
        << log_.str();
    upload("bob", 2);
    league.wake();
    s = wait_until(league, [](const LeagueStatus& t) { return t.idle && t.stored == 2; });
    ASSERT_EQ(s.stored, 2) << log_.str() << s.last_problem;
    EXPECT_EQ(s.waiting, "");
    EXPECT_EQ(s.last_problem, "");
    playing.request_stop();
    playing.join();
    EXPECT_EQ(query(db(), "SELECT name FROM bots ORDER BY id"), (Rows{{"ann"}, {"bob"}}));
}

}  // namespace
}  // namespace arena::league
