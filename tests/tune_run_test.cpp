// `arena tune` end to end through the arena binary: every game stored with
// the values it was played with, a tune killed with SIGKILL and resumed
// that follows the same path as one never stopped, the JSON it ends with,
// a fixed opponent, and its help and refusals.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::bin;
using testing::query;
using testing::Rows;

// Every parameter row of a tune, with its game's result, in schedule order.
constexpr const char* kPath =
    "SELECT g.game_index, p.param, p.iteration, p.batch, p.theta, IFNULL(p.first, '-'), "
    "IFNULL(p.second, '-'), g.result FROM game_params AS p JOIN games AS g ON g.id = p.game "
    "ORDER BY g.game_index, p.rowid";

class Tune : public ::testing::Test {
  protected:
    // A tune of `random --seed {s}` (deterministic: its moves are a function
    // of the seed and the position), `pairs` iterations, stored in NAME.db.
    std::string config(const std::string& name, int pairs, const std::string& extra = "") {
        return dir_.write(
            name + ".yaml",
            "name: " + name +
                "\ngame: { name: connect4 }\ntime: { move_ms: 2000 }\nconcurrency: 2\n"
                "openings: { random_plies: 2 }\ndatabase: " +
                db(name).string() + "\ntune:\n  command: " + bin("bots/random") +
                " --seed {s}\n  params:\n    - { name: s, start: 500, min: 1, max: 1000, "
                "c_end: 20, r_end: 0.05, integer: true }\n  pairs: " +
                std::to_string(pairs) + "\n" + extra);
    }
    fs::path db(const std::string& name) const { return dir_.path() / (name + ".db"); }
    testing::ArenaResult arena(const std::vector<std::string>& args) const {
        testing::ArenaOptions options;
        options.cwd = dir_.path();
        return testing::run_arena(dir_.path(), args, options);
    }
    // Its games stored, or -1 while the arena holds the database locked.
    std::int64_t games(const std::string& name) const {
        if (!fs::exists(db(name))) return 0;
        try {
            return std::stoll(query(db(name), "SELECT count(*) FROM games").at(0).at(0));
        } catch (const std::exception&) {
            return -1;
        }
    }

    testing::TempDir dir_{"tune_run_test"};
};

// Killed with SIGKILL in the middle and run again, a tune stores every game
// once and follows, value for value, the path of a tune never stopped.
TEST_F(Tune, ResumesAfterSigkillOnTheSamePath) {
    constexpr int kPairs = 150;
    const auto whole = arena({"tune", config("whole", kPairs)});
    ASSERT_EQ(whole.status, 0) << whole.err;
    const auto path = config("killed", kPairs);
    bool killed = false;
    for (int attempt = 0; attempt < 5 && !killed; ++attempt) {
        testing::ArenaOptions options;
        options.cwd = dir_.path();
        testing::ArenaProcess run(dir_.path(), {"tune", path}, options);
        const auto until = std::chrono::steady_clock::now() + 30s;
        const auto from = std::max<std::int64_t>(0, games("killed"));
        while (games("killed") < from + 40 && !run.try_wait() &&
               std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(5ms);
        if (::kill(run.pid(), SIGKILL) == 0 && run.wait().status == 128 + SIGKILL)
            killed = std::max<std::int64_t>(0, games("killed")) < 2 * kPairs;
    }
    ASSERT_TRUE(killed) << "the tune always finished before it could be killed";
    const auto resumed = arena({"tune", path});
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(query(db("killed"), "SELECT count(*), count(DISTINCT game_index) FROM games"),
              (Rows{{std::to_string(2 * kPairs), std::to_string(2 * kPairs)}}));
    const auto expected = query(db("whole"), kPath);
    ASSERT_EQ(expected.size(), static_cast<std::size_t>(2 * kPairs));
    EXPECT_EQ(query(db("killed"), kPath), expected);
    // The same final table, from the same stored games.
    EXPECT_EQ(resumed.out, whole.out);
}

// --stop-after N plays whole batches until N iterations are played, ends
// well, and the next run goes on along the path of one run to the end.
TEST_F(Tune, StopAfterPlaysPartAndTheNextRunGoesOn) {
    const auto whole = arena({"tune", config("straight", 40)});
    ASSERT_EQ(whole.status, 0) << whole.err;
    const auto path = config("parts", 40);
    const auto part = arena({"tune", path, "--stop-after", "15"});
    ASSERT_EQ(part.status, 0) << part.err;
    EXPECT_EQ(part.err,
              "arena tune: stopped as --stop-after 15 asked; the same command continues\n");
    EXPECT_EQ(games("parts"), 32);  // 8 batches of 2 iterations, 2 games each
    EXPECT_NE(part.out.find("tune: iteration 16 of 40\n"), std::string::npos) << part.out;
    const auto rest = arena({"tune", path});
    ASSERT_EQ(rest.status, 0) << rest.err;
    EXPECT_EQ(query(db("parts"), kPath), query(db("straight"), kPath));
    EXPECT_EQ(arena({"tune", path, "--stop-after", "0"}).err,
              "arena tune: --stop-after must be at least 1\n(arena tune --help for usage)\n");
}

// What each game was played with: theta, and theta+ and theta- one c_k either
// side of it, rounded; both games of a pair at the same point.
TEST_F(Tune, EachGameIsStoredWithItsValues) {
    const auto r = arena({"tune", config("values", 4)});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto rows = query(db("values"), kPath);
    ASSERT_EQ(rows.size(), 8u);
    for (std::size_t g = 0; g < rows.size(); ++g) {
        const auto& row = rows[g];
        EXPECT_EQ(row[1], "s");
        EXPECT_EQ(row[2], std::to_string(g / 2));  // the iteration
        EXPECT_EQ(row[3], "2");                    // the batch: the concurrency
        const double theta = std::stod(row[4]);
        const double first = std::stod(row[5]), second = std::stod(row[6]);
        // theta+ first in game 2k, theta- in 2k + 1.
        const double plus = g % 2 == 0 ? first : second, minus = g % 2 == 0 ? second : first;
        EXPECT_EQ(plus, std::round(plus));
        EXPECT_NEAR((plus + minus) / 2, theta, 1.0) << g;
        EXPECT_GT(std::abs(plus - minus), 20.0) << g;  // 2 c_k, c_k above c_end
    }
    EXPECT_EQ(rows[0][4], rows[2][4]);  // iterations 0 and 1: one batch, one theta
    EXPECT_EQ(query(db("values"), "SELECT name, command FROM bots ORDER BY id"),
              (Rows{{"theta+", bin("bots/random") + " --seed {s}"},
                    {"theta-", bin("bots/random") + " --seed {s}"}}));
}

TEST_F(Tune, JsonEndsWithTheValuesReached) {
    const auto r = arena({"tune", config("json", 20), "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["iterations"], 20);
    EXPECT_EQ(j["games"], 40);
    ASSERT_TRUE(j["params"]["s"].is_number());
    const double s = j["params"]["s"];
    EXPECT_GE(s, 1.0);
    EXPECT_LE(s, 1000.0);
    // The table went to stderr, and says where the tune stands.
    EXPECT_NE(r.err.find("tune: iteration 20 of 20\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("last 20 iterations: theta+ scored "), std::string::npos) << r.err;
    // Run again: nothing to play, the same values.
    const auto again = arena({"tune", config("json", 20), "--json"});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(again.out, r.out);
}

// Against a fixed opponent, theta+ and theta- each play a pair with it on
// the same opening; the opponent's side of each game has no value.
TEST_F(Tune, AgainstAFixedOpponent) {
    const auto r = arena({"tune", config("opp", 10,
                                         "  opponent: { name: ref, command: " + bin("bots/random") +
                                             " --seed 7 }\n")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(games("opp"), 40);
    EXPECT_EQ(query(db("opp"),
                    "SELECT count(*) FROM game_params AS p JOIN games AS g ON g.id = p.game JOIN "
                    "bots AS f ON f.id = g.first_bot WHERE (f.name = 'ref') <> (p.first IS NULL)"),
              (Rows{{"0"}}));
    EXPECT_EQ(query(db("opp"),
                    "SELECT count(DISTINCT opening) FROM games GROUP BY game_index / 4 "
                    "ORDER BY 1 DESC LIMIT 1"),
              (Rows{{"1"}}));
    EXPECT_NE(r.out.find("against ref, theta+ scored "), std::string::npos) << r.out;
}

// tune-target plays best at (70, 30) of [0, 100]^2, and worse the farther
// it is (bots/README.md): from the corner (0, 0), 76 away, the tune ends
// within 15 % of the range of the peak. A tune without a signal would
// wander about the corner. The path is a function of the results, and the
// games of this deterministic bot are too: the figures are the same on any
// machine, under any load.
TEST_F(Tune, MovesASyntheticBotToItsPeak) {
    const auto path =
        dir_.write("peak.yaml",
                   "name: peak\ngame: { name: connect4 }\ntime: { move_ms: 2000 }\n"
                   "concurrency: 2\ndatabase: " +
                       db("peak").string() + "\ntune:\n  command: " + bin("bots/tune-target") +
                       " --x {x} --y {y}\n  params:\n"
                       "    - { name: x, start: 0, min: 0, max: 100, c_end: 5, r_end: 0.1 }\n"
                       "    - { name: y, start: 0, min: 0, max: 100, c_end: 5, r_end: 0.1 }\n"
                       "  pairs: 600\n");
    const auto r = arena({"tune", path, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const double x = j["params"]["x"], y = j["params"]["y"];
    EXPECT_LT(std::hypot(x - 70.0, y - 30.0), 15.0) << x << ", " << y << "\n" << r.err;
}

TEST_F(Tune, HelpListsEveryKey) {
    const auto r = arena({"tune", "--help"});
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* key :
         {"command", "params", "pairs", "opponent", "alpha", "gamma", "A", "batch"})
        EXPECT_NE(r.out.find("\n  " + std::string(key) + " "), std::string::npos) << key << "\n"
                                                                                  << r.out;
    for (const char* key : {"name", "start", "min/max", "c_end", "r_end", "integer"})
        EXPECT_NE(r.out.find("\n              " + std::string(key) + " "), std::string::npos)
            << key;
    EXPECT_NE(r.out.find("--json"), std::string::npos);
}

TEST_F(Tune, RunAndTuneEachRefuseTheOthersConfig) {
    const auto tuning = config("refused", 2);
    const auto run = arena({"run", tuning});
    EXPECT_EQ(run.status, 2);
    EXPECT_EQ(run.err, "arena run: " + tuning + " is a tuning config: arena tune runs it\n");
    const auto plain = dir_.write("plain.yaml",
                                  "name: plain\ngame: { name: connect4 }\nbots:\n"
                                  "  - { name: a, command: " +
                                      bin("bots/random") +
                                      " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    const auto tune = arena({"tune", plain});
    EXPECT_EQ(tune.status, 2);
    EXPECT_EQ(tune.err, "arena tune: " + plain + " has no 'tune:' section (docs/tuning.md)\n");
    EXPECT_FALSE(fs::exists(db("refused")));
}

}  // namespace
}  // namespace arena
