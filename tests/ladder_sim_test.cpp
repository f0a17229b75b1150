// The ladder simulation (bench/ladder_sim) at a small size: its JSON holds
// the three leagues of every seed, the ladder plays fewer games than the
// round-robin and stays within games_per_entrant, its errors are finite and
// ordered as they must be, and bad options are named.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "proc_util.hpp"

namespace {

arena::testing::ShellResult run_sim(const std::string& args) {
    return arena::testing::run_shell(std::string(ARENA_BINARY_DIR) + "/bench/ladder_sim " + args);
}

TEST(LadderSim, ASmallLeagueGivesSensibleFigures) {
    const auto r = run_sim("--bots 20 --seeds 3 --late 5 --games-per-entrant 12");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["settings"]["bots"], 20);
    ASSERT_EQ(j["runs"].size(), 3u);
    for (const auto& run : j["runs"]) {
        // Every two of 20 bots, one colour-swapped pair.
        EXPECT_EQ(run["round_robin"]["games"], 380);
        const auto& s = run["scratch"];
        // At most 12 games for each of the 19 entrants after the first.
        EXPECT_LE(s["games"].get<int>(), 19 * 12);
        EXPECT_GT(s["games"].get<int>(), 0);
        EXPECT_LE(s["most_games_per_entrant"].get<int>(), 12);
        EXPECT_LT(s["games_share"].get<double>(), 1.0);
        for (const char* key : {"rr_rms", "truth_rms"}) {
            const double v = s[key].get<double>();
            EXPECT_GT(v, 0.0) << key;
            EXPECT_LT(v, 1000.0) << key;
        }
        EXPECT_LE(s["rr_rms"].get<double>(), s["rr_max"].get<double>());
        EXPECT_LE(s["truth_rms"].get<double>(), s["truth_max"].get<double>());
        EXPECT_GE(s["coverage"].get<double>(), 0.0);
        EXPECT_LE(s["coverage"].get<double>(), 1.0);
        const auto& l = run["league"];
        EXPECT_LE(l["entrant_games"].get<int>(), 12);
        EXPECT_GT(l["entrant_games"].get<int>(), 0);
        EXPECT_EQ(l["round_robin_entrant_games"], 38);
        EXPECT_GT(l["entrant_error"].get<double>(), 0.0);
        EXPECT_EQ(l["entrants"], 5);  // --late
        EXPECT_LE(l["entrant_rr_diff"].get<double>(), l["entrant_rr_diff_max"].get<double>());
        EXPECT_LE(run["round_robin"]["truth_rms"].get<double>(),
                  run["round_robin"]["truth_max"].get<double>());
    }
    // The medians are of the runs.
    EXPECT_EQ(j["median"]["round_robin"]["games"].get<double>(), 380.0);
    EXPECT_LE(j["median"]["scratch"]["games"].get<double>(), 19.0 * 12);
}

TEST(LadderSim, TheSameSeedGivesTheSameFigures) {
    const auto a = run_sim("--bots 12 --seeds 1 --seed 7");
    const auto b = run_sim("--bots 12 --seeds 1 --seed 7");
    ASSERT_EQ(a.status, 0) << a.out;
    auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    ja["runs"][0].erase("seconds");
    jb["runs"][0].erase("seconds");
    EXPECT_EQ(ja["runs"], jb["runs"]);
}

TEST(LadderSim, BadOptionsAreNamed) {
    const auto odd = run_sim("--games-per-entrant 7");
    EXPECT_EQ(odd.status, 2);
    EXPECT_NE(odd.out.find("--games-per-entrant"), std::string::npos) << odd.out;
    const auto late = run_sim("--bots 10 --late 11");
    EXPECT_EQ(late.status, 2);
    EXPECT_NE(late.out.find("--late must be between 1 and --bots"), std::string::npos) << late.out;
    const auto few = run_sim("--bots 2");
    EXPECT_EQ(few.status, 2);
    EXPECT_NE(few.out.find("--bots must be at least 3"), std::string::npos) << few.out;
    const auto unknown = run_sim("--no-such-option 5");
    EXPECT_NE(unknown.status, 0);
    EXPECT_NE(unknown.out.find("ladder_sim:"), std::string::npos) << unknown.out;
}

}  // namespace
