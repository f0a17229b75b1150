// A league's server under a crowd of uploads (issue 45; scripts/bench
// --only league measures the same with 200 participants): `arena serve
// --league` on a ladder, playing, while 30 participants upload their bots
// from several clients at once and six of them a second version after;
// every version passes its check, every participant's current version is
// rated, and nothing is lost or stored twice.

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "http_client.hpp"
#include "league_process.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ArenaProcess;
using testing::bin;
using testing::query;
using testing::query_one;
using testing::Rows;

constexpr int kParticipants = 30;
constexpr int kClients = 6;
constexpr int kSecondEvery = 5;  // p000, p005, ...: a second version

std::string participant(int i) {
    return "p" + std::string(i < 10 ? "00" : "0") + std::to_string(i);
}

class LeagueLoad : public ::testing::Test {
  protected:
    void SetUp() override {
        fs::create_directories(dir_.path() / "subs");
        // Two house bots, so that the league plays before the first upload;
        // a ladder, so that each newcomer is placed in a few games.
        config_ =
            dir_.write("league.yaml",
                       "name: crowd\ngame: { name: connect4 }\ntime: { move_ms: 1000 }\n"
                       "openings: { random_plies: 2 }\n"
                       "schedule: { type: ladder, games_per_entrant: 6 }\nconcurrency: 2\n"
                       "versions: keep\nbots_dir: " +
                           (dir_.path() / "subs").string() + "\ndatabase: " + db().string() +
                           "\nleague: { checks_at_once: 2 }\nbots:\n"
                           "  - { name: house1, command: " +
                           bin("bots/instant") + " --seed 1 }\n  - { name: house2, command: " +
                           bin("bots/instant") + " --seed 2 }\n");
    }

    fs::path db() const { return dir_.path() / "league.db"; }

    // Sends each upload (participant, bytes) from kClients clients at once:
    // the HTTP status of each, by participant.
    std::map<std::string, int> upload_all(
        unsigned short port, const std::vector<std::pair<std::string, std::string>>& uploads) {
        std::vector<std::future<std::vector<std::pair<std::string, int>>>> clients;
        for (int c = 0; c < kClients; ++c) {
            clients.push_back(std::async(std::launch::async, [&, c] {
                std::vector<std::pair<std::string, int>> statuses;
                for (std::size_t i = static_cast<std::size_t>(c); i < uploads.size();
                     i += kClients) {
                    const auto& [name, bytes] = uploads[i];
                    const auto r = testing::league_upload(port, tokens_.at(name), "instant", bytes);
                    statuses.emplace_back(name, testing::status_of(r));
                }
                return statuses;
            }));
        }
        std::map<std::string, int> all;
        for (auto& client : clients)
            for (const auto& [name, status] : client.get())
                all[name] = status;
        return all;
    }

    // Versions still being checked, and participants whose current bot has
    // no stored game; -1 while the database cannot be read.
    std::int64_t unfinished() const {
        const auto checking = testing::db_count(
            db(), "SELECT count(*) FROM league_versions WHERE status = 'checking'");
        const auto rated = testing::db_count(
            db(),
            "SELECT count(*) FROM bots AS b WHERE b.retired IS NULL AND b.name LIKE 'p%' "
            "AND EXISTS (SELECT 1 FROM games AS g WHERE b.id IN (g.first_bot, g.second_bot))");
        if (checking < 0 || rated < 0) return -1;
        return checking + (kParticipants - rated);
    }

    testing::TempDir dir_{"league_load_test"};
    std::string config_;
    std::map<std::string, std::string> tokens_;
};

TEST_F(LeagueLoad, ThirtyParticipantsUploadingWhileItPlaysAreAllRated) {
    std::vector<std::pair<std::string, std::string>> firsts, seconds;
    const std::string instant = testing::slurp(bin("bots/instant"));
    ASSERT_FALSE(instant.empty());
    for (int i = 0; i < kParticipants; ++i) {
        const auto name = participant(i);
        tokens_[name] = testing::add_league_user(dir_.path(), config_, name);
        ASSERT_FALSE(tokens_[name].empty()) << name;
        firsts.emplace_back(name, instant);
        // Another program: the same ELF with bytes after it.
        if (i % kSecondEvery == 0) seconds.emplace_back(name, instant + "\nversion 2\n");
    }
    ArenaProcess server(dir_.path(), {"serve", "--league", config_, "--port", "0"});
    const auto port = testing::league_port(server);
    ASSERT_NE(port, 0) << testing::slurp(server.err_path().string());
    // The house bots play: the uploads arrive while the league plays.
    ASSERT_TRUE(testing::wait_for_count(db(), "SELECT count(*) FROM games", 1, 60s));
    for (const auto& uploads : {firsts, seconds})
        for (const auto& [name, status] : upload_all(port, uploads))
            EXPECT_EQ(status, 202) << name;
    const auto until = std::chrono::steady_clock::now() + testing::scaled(600s);
    while (unfinished() != 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(200ms);
    // And the league plays its schedule to the end.
    const bool finished = testing::wait_for_count(
        db(),
        "SELECT (SELECT count(*) FROM games) = (SELECT total_games FROM tournaments WHERE name = "
        "'crowd') AND (SELECT count(*) FROM games) > 0",
        1, 300s);
    const auto err = testing::slurp(server.err_path().string());
    ASSERT_EQ(::kill(server.pid(), SIGINT), 0);
    const auto stopped = server.wait();
    EXPECT_EQ(stopped.status, 0) << stopped.err;
    EXPECT_EQ(unfinished(), 0) << err;
    EXPECT_TRUE(finished) << err;

    // Every version passed: none left 'checking', none failed.
    const int versions = kParticipants + static_cast<int>(seconds.size());
    EXPECT_EQ(query(db(), "SELECT status, count(*) FROM league_versions GROUP BY status"),
              (Rows{{"passed", std::to_string(versions)}}))
        << err;
    EXPECT_EQ(err.find("FAILED its check"), std::string::npos) << err;
    EXPECT_EQ(err.find("cannot"), std::string::npos) << err;
    // Every participant's bot that plays is its last version's program:
    // the first version's for most, another for those that sent a second.
    const auto first_sha = query_one(db(), "SELECT sha256 FROM bots WHERE name = 'p001'");
    ASSERT_EQ(first_sha.size(), 64u);
    for (int i = 0; i < kParticipants; ++i) {
        const auto sha =
            query_one(db(), "SELECT sha256 FROM bots WHERE retired IS NULL AND name = '" +
                                participant(i) + "'");
        if (i % kSecondEvery == 0) {
            EXPECT_NE(sha, first_sha) << participant(i);
            EXPECT_EQ(sha.size(), 64u) << participant(i);
        } else {
            EXPECT_EQ(sha, first_sha) << participant(i);
        }
    }
    // Nothing stored twice, no game lost to a fault.
    EXPECT_EQ(query_one(db(), "SELECT count(*) = count(DISTINCT game_index) FROM games"), "1");
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM games WHERE termination <> 'normal'"), "0");
}

}  // namespace
}  // namespace arena
