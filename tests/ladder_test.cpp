// The ladder schedule (`schedule: { type: ladder }`): the opponent choice,
// the walk through the entrants' rounds as a function of results alone,
// real runs that place entrants (and a late one) with fewer games than a
// round-robin, a killed and resumed run that plays the same games, and
// config errors.

#include "arena/tournament/ladder.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "run_control.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::bin;
using testing::query;
using testing::query_one;
using testing::run_arena;
using testing::scaled_ms;
using testing::TempDir;
using tournament::Ladder;
using tournament::LadderOptions;
using tournament::LadderResults;
using tournament::LadderRound;

// ---- the opponent choice ----------------------------------------------------

rating::EloFit fit_of(std::vector<double> ratings, std::vector<double> errors) {
    rating::EloFit fit;
    for (std::size_t i = 0; i < ratings.size(); ++i)
        fit.names.push_back(std::to_string(i));
    fit.ratings = std::move(ratings);
    fit.errors = std::move(errors);
    return fit;
}

TEST(LadderChoice, NearTheEntrantWidestIntervalFirst) {
    // Entrant 6 at 0 with a narrow interval: the 4 nearest are 1, 2, 3, 4;
    // of those the widest intervals are 3 and 1.
    const auto fit = fit_of({500, 10, -20, 30, -40, -600, 0}, {300, 80, 50, 90, 60, 400, 30});
    EXPECT_EQ(tournament::choose_opponents(fit, 6, {0, 1, 2, 3, 4, 5}, 2),
              (std::vector<int>{3, 1}));
    // Only the candidates given, never the entrant itself.
    EXPECT_EQ(tournament::choose_opponents(fit, 6, {0, 2, 6}, 4), (std::vector<int>{0, 2}));
}

TEST(LadderChoice, AWideIntervalReachesFartherOpponents) {
    // The same field, the entrant unsure (interval 700): every candidate is
    // within reach, and the widest intervals (the far 5 and 0) come first.
    const auto fit = fit_of({500, 10, -20, 30, -40, -600, 0}, {300, 80, 50, 90, 60, 400, 700});
    EXPECT_EQ(tournament::choose_opponents(fit, 6, {0, 1, 2, 3, 4, 5}, 2),
              (std::vector<int>{5, 0}));
}

TEST(LadderChoice, TiesGoToTheNearerThenTheLowerEntrant) {
    const auto fit = fit_of({0, 100, -100, 50, 0}, {80, 80, 80, 80, 10});
    EXPECT_EQ(tournament::choose_opponents(fit, 4, {0, 1, 2, 3}, 3), (std::vector<int>{0, 3, 1}));
}

// ---- the walk -----------------------------------------------------------------

// A deterministic result: the higher entrant wins as first mover, draws
// otherwise; enough to make the fits move.
double result_of(const tournament::Pairing& p) {
    return p.first > p.second ? 1.0 : 0.5;
}

// Plays the walk to the end; the rounds in order.
std::vector<LadderRound> play_all(const LadderOptions& options, int entrants,
                                  LadderResults& results) {
    Ladder ladder(options, std::vector<bool>(static_cast<std::size_t>(entrants), true));
    std::vector<LadderRound> rounds;
    while (auto round = ladder.next_round(results)) {
        for (const auto& p : round->games)
            results[p.index] = {p.first, p.second, result_of(p)};
        rounds.push_back(*round);
    }
    return rounds;
}

LadderOptions small_options() {
    LadderOptions o;
    o.games_per_entrant = 8;
    o.target_error = 1.0;  // never reached: every entrant plays 8 games
    o.games_per_pair = 2;
    o.opponents_per_round = 2;
    return o;
}

TEST(LadderWalk, EachEntrantPlaysTheEntrantsBeforeItInColourSwappedPairs) {
    LadderResults results;
    const auto rounds = play_all(small_options(), 5, results);
    ASSERT_FALSE(rounds.empty());
    // Entrant 0 has no one to play; 1 plays 0 only, one pair.
    EXPECT_EQ(rounds.front().entrant, 1);
    EXPECT_EQ(rounds.front().games.size(), 2u);
    std::vector<std::int64_t> games_of(5, 0);
    std::int64_t index = 0;
    int pair = 0;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
        const auto& round = rounds[r];
        EXPECT_EQ(round.number, static_cast<int>(r));
        for (std::size_t g = 0; g < round.games.size(); ++g) {
            const auto& p = round.games[g];
            EXPECT_EQ(p.index, index++);  // consecutive across rounds
            EXPECT_EQ(p.round, round.number);
            const int opponent = p.first == round.entrant ? p.second : p.first;
            EXPECT_LT(opponent, round.entrant);
            EXPECT_EQ(p.game_in_pair, static_cast<int>(g % 2));
            if (g % 2 == 0) {
                EXPECT_EQ(p.first, round.entrant);
                EXPECT_EQ(p.pair, pair);
            } else {
                // The same two, colours swapped, same pair (same opening).
                EXPECT_EQ(p.first, round.games[g - 1].second);
                EXPECT_EQ(p.second, round.games[g - 1].first);
                EXPECT_EQ(p.pair, pair++);
            }
        }
        games_of[static_cast<std::size_t>(round.entrant)] +=
            static_cast<std::int64_t>(round.games.size());
    }
    // Each opponent once (a pair): entrant k plays at most 2 x k games,
    // at most games_per_entrant.
    EXPECT_EQ(games_of, (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
    EXPECT_EQ(results.size(), 20u);
}

TEST(LadderWalk, ResumesFromAnyCutAtTheSameRound) {
    LadderResults all;
    const auto rounds = play_all(small_options(), 5, all);
    // Every cut of the stored games after a whole number of rounds plus
    // part of the next: a new walk over them asks for that round, whole.
    std::size_t before = 0;
    for (const auto& round : rounds) {
        for (std::size_t part = 0; part < round.games.size(); ++part) {
            LadderResults cut;
            for (const auto& [index, g] : all) {
                if (index < static_cast<std::int64_t>(before + part)) cut[index] = g;
            }
            Ladder fresh(small_options(), std::vector<bool>(5, true));
            const auto next = fresh.next_round(cut);
            ASSERT_TRUE(next.has_value());
            EXPECT_EQ(next->number, round.number);
            ASSERT_EQ(next->games.size(), round.games.size());
            for (std::size_t g = 0; g < round.games.size(); ++g) {
                EXPECT_EQ(next->games[g].index, round.games[g].index);
                EXPECT_EQ(next->games[g].first, round.games[g].first);
                EXPECT_EQ(next->games[g].second, round.games[g].second);
                EXPECT_EQ(next->games[g].pair, round.games[g].pair);
            }
        }
        before += round.games.size();
    }
    Ladder done(small_options(), std::vector<bool>(5, true));
    EXPECT_FALSE(done.next_round(all).has_value());
    ASSERT_EQ(done.placements().size(), 5u);
    EXPECT_EQ(done.placements()[4].games, 8);
    EXPECT_EQ(done.placements()[4].rounds, 2);  // two opponents a round
}

TEST(LadderWalk, AnEntrantWithinTheTargetStopsAfterItsRound) {
    auto options = small_options();
    options.target_error = 1e6;  // any interval will do
    LadderResults results;
    const auto rounds = play_all(options, 6, results);
    ASSERT_EQ(rounds.size(), 5u);  // one round for each entrant but the first
    for (const auto& r : rounds)
        EXPECT_EQ(r.games.size(), r.entrant == 1 ? 2u : 4u);
}

TEST(LadderWalk, AnEntrantWhoPlaysNoMoreIsNeitherPlacedNorChosen) {
    const std::vector<bool> playable = {true, false, true, true};
    Ladder ladder(small_options(), playable);
    LadderResults results;
    while (auto round = ladder.next_round(results)) {
        EXPECT_NE(round->entrant, 1);
        for (const auto& p : round->games) {
            EXPECT_NE(p.first, 1);
            EXPECT_NE(p.second, 1);
            results[p.index] = {p.first, p.second, result_of(p)};
        }
    }
    std::vector<int> placed;
    for (const auto& p : ladder.placements())
        placed.push_back(p.entrant);
    EXPECT_EQ(placed, (std::vector<int>{0, 2, 3}));
}

TEST(LadderWalk, AStoredGameOfOtherEntrantsMovesTheRoundPastTheStoredGames) {
    // Index 1 holds a game of entrants 2 and 0 (the config changed since):
    // the first round moves past it.
    LadderResults results;
    results[1] = {2, 0, 1.0};
    Ladder ladder(small_options(), std::vector<bool>(3, true));
    const auto round = ladder.next_round(results);
    ASSERT_TRUE(round.has_value());
    EXPECT_EQ(round->entrant, 1);
    EXPECT_EQ(round->games.front().index, 2);
}

TEST(LadderWalk, NoGameBeyondGamesPerEntrant) {
    auto options = small_options();
    options.games_per_entrant = 6;
    options.opponents_per_round = 4;
    LadderResults results;
    const auto rounds = play_all(options, 6, results);
    std::vector<std::int64_t> games(6, 0);
    for (const auto& r : rounds)
        games[static_cast<std::size_t>(r.entrant)] += static_cast<std::int64_t>(r.games.size());
    // Entrant 1 and 2 meet every entrant before them once; the later ones
    // a round of 3 opponents (6 games), not 4.
    EXPECT_EQ(games, (std::vector<std::int64_t>{0, 2, 4, 6, 6, 6}));
}

// ---- config -------------------------------------------------------------------

std::string ladder_text(const std::string& name, const std::string& schedule_extra,
                        const std::vector<std::pair<std::string, std::string>>& bots,
                        const fs::path& dir = ".") {
    std::string text = "name: " + name +
                       "\n"
                       "game: { name: connect4 }\n"
                       "time: { move_ms: " +
                       scaled_ms(2000) +
                       " }\n"
                       "schedule: { type: ladder" +
                       schedule_extra +
                       " }\n"
                       "openings: { file: " +
                       testing::source("configs/openings/connect4-7x6-balanced.txt") +
                       ", order: sequential }\n"
                       "concurrency: 2\n"
                       "database: " +
                       (dir / (name + ".db")).string() +
                       "\n"
                       "bots:\n";
    for (const auto& [bot, command] : bots)
        text += "  - { name: " + bot + ", command: '" + command + "' }\n";
    return text;
}

const std::vector<std::pair<std::string, std::string>> kThreeRandoms = {
    {"a", bin("bots/random")}, {"b", bin("bots/random")}, {"c", bin("bots/random")}};

std::string config_error(const std::string& text) {
    try {
        static_cast<void>(tournament::parse_config(text, "ladder.yaml"));
    } catch (const tournament::ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(LadderConfig, ReadsItsKeysWithDefaults) {
    const auto plain = tournament::parse_config(ladder_text("l", "", kThreeRandoms), "l.yaml");
    EXPECT_EQ(plain.schedule, tournament::ScheduleType::kLadder);
    EXPECT_EQ(plain.games_per_entrant, 60);
    EXPECT_DOUBLE_EQ(plain.target_error, 75.0);
    EXPECT_EQ(plain.opponents_per_round, 4);
    EXPECT_EQ(plain.games_per_pair, 2);
    // A ladder has no fixed schedule.
    EXPECT_TRUE(tournament::make_schedule(plain).empty());

    const auto set = tournament::parse_config(
        ladder_text("l",
                    ", games_per_entrant: 12, target_error: 50.5, opponents_per_round: 3, "
                    "games_per_pair: 4",
                    kThreeRandoms),
        "l.yaml");
    EXPECT_EQ(set.games_per_entrant, 12);
    EXPECT_DOUBLE_EQ(set.target_error, 50.5);
    EXPECT_EQ(set.opponents_per_round, 3);
    EXPECT_EQ(set.games_per_pair, 4);
    const auto options = tournament::ladder_options(set);
    EXPECT_EQ(options.games_per_entrant, 12);
    EXPECT_EQ(options.games_per_pair, 4);
    // Every key that decides the games is in the fingerprint.
    EXPECT_NE(tournament::fingerprint(plain), tournament::fingerprint(set));
    for (const std::string extra :
         {", games_per_entrant: 58", ", target_error: 70", ", opponents_per_round: 5"}) {
        const auto other =
            tournament::parse_config(ladder_text("l", extra, kThreeRandoms), "l.yaml");
        EXPECT_NE(tournament::fingerprint(plain), tournament::fingerprint(other)) << extra;
    }
    // A round-robin's games_per_pair may grow in a stored tournament (it is
    // cut out of what is compared); a ladder's may not.
    const auto four =
        tournament::parse_config(ladder_text("l", ", games_per_pair: 4", kThreeRandoms), "l.yaml");
    const auto parts_two = tournament::split_fingerprint(tournament::fingerprint(plain));
    const auto parts_four = tournament::split_fingerprint(tournament::fingerprint(four));
    ASSERT_TRUE(parts_two && parts_four);
    EXPECT_NE(parts_two->fixed, parts_four->fixed);
    const auto rr = tournament::parse_config(
        std::regex_replace(ladder_text("l", "", kThreeRandoms), std::regex("type: ladder"),
                           "type: round-robin"),
        "l.yaml");
    EXPECT_NE(tournament::fingerprint(plain), tournament::fingerprint(rr));
}

TEST(LadderConfig, ErrorsNameTheFileLineAndKey) {
    // The schedule is on line 4 of the config.
    const auto err = [](const std::string& extra) {
        return config_error(ladder_text("l", extra, kThreeRandoms));
    };
    const std::string zero = err(", target_error: 0");
    EXPECT_NE(zero.find("ladder.yaml:4:"), std::string::npos) << zero;
    EXPECT_NE(zero.find("target_error must be positive"), std::string::npos) << zero;
    const std::string word = err(", target_error: wide");
    EXPECT_NE(word.find("expected a number for 'target_error', got 'wide'"), std::string::npos)
        << word;
    const std::string odd = err(", games_per_entrant: 7");
    EXPECT_NE(odd.find("ladder.yaml:4:"), std::string::npos) << odd;
    EXPECT_NE(odd.find("games_per_entrant must be a multiple of games_per_pair (2), got 7"),
              std::string::npos)
        << odd;
    const std::string none = err(", games_per_entrant: 0");
    EXPECT_NE(none.find("games_per_entrant must be positive, got 0"), std::string::npos) << none;
    const std::string opponents = err(", opponents_per_round: -1");
    EXPECT_NE(opponents.find("opponents_per_round"), std::string::npos) << opponents;
    const std::string rounds = err(", rounds: 2");
    EXPECT_NE(rounds.find("ladder.yaml:4:"), std::string::npos) << rounds;
    EXPECT_NE(rounds.find("'rounds' is not for a ladder schedule"), std::string::npos) << rounds;
    EXPECT_EQ(err(", rounds: 1"), "(no error)");
    const std::string challenger = err(", challenger: a");
    EXPECT_NE(challenger.find("'challenger'"), std::string::npos) << challenger;

    const std::string typo = config_error(std::regex_replace(
        ladder_text("l", "", kThreeRandoms), std::regex("type: ladder"), "type: ladderr"));
    EXPECT_NE(typo.find("ladder.yaml:4:"), std::string::npos) << typo;
    EXPECT_NE(typo.find("unknown schedule type 'ladderr'"), std::string::npos) << typo;
    EXPECT_NE(typo.find("'ladder'"), std::string::npos) << typo;

    const std::string elsewhere =
        config_error(std::regex_replace(ladder_text("l", ", games_per_entrant: 10", kThreeRandoms),
                                        std::regex("type: ladder"), "type: round-robin"));
    EXPECT_NE(elsewhere.find("ladder.yaml:4:"), std::string::npos) << elsewhere;
    EXPECT_NE(elsewhere.find("'games_per_entrant' is only for a ladder schedule"),
              std::string::npos)
        << elsewhere;
}

// ---- arena run ------------------------------------------------------------------

// Each stored game: index, the bots by name, result.
std::vector<std::string> game_rows(const fs::path& db) {
    std::vector<std::string> rows;
    for (const auto& r :
         query(db,
               "SELECT g.game_index || ' ' || g.round || ' ' || g.pair_index || ' ' || f.name || "
               "' ' || s.name || ' ' || g.result || ' ' || g.opening FROM games g "
               "JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
               "ORDER BY g.game_index"))
        rows.push_back(r.at(0));
    return rows;
}

// Reference bots: the random mover and the alpha-beta search at low depths.
std::vector<std::pair<std::string, std::string>> league_bots() {
    const std::string ab = bin("bots/c4-alphabeta");
    return {{"random", bin("bots/random")}, {"ab1", ab + " --depth 1"}, {"ab2", ab + " --depth 2"},
            {"ab3", ab + " --depth 3"},     {"ab4", ab + " --depth 4"}, {"ab5", ab + " --depth 5"}};
}

TEST(LadderRun, PlacesEntrantsWithFewerGamesThanARoundRobinAndALateEntrantToo) {
    TempDir dir;
    const std::string schedule = ", games_per_entrant: 4, opponents_per_round: 2";
    auto bots = league_bots();
    const auto config = dir.write("l.yaml", ladder_text("l", schedule, bots, dir.path()));
    const auto r = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto db = dir.path() / "l.db";
    // 2 + 4 x 4 games, where a round-robin of 6 plays 30.
    EXPECT_EQ(query_one(db, "SELECT COUNT(*) FROM games"), "18");
    // Each bot played 4 games against bots that entered before it (the
    // bots' ids are in entry order; the second has only the first to play)
    // and colours alternate within a pair.
    for (int k = 2; k <= 6; ++k) {
        const std::string id = std::to_string(k);
        EXPECT_EQ(query_one(db, "SELECT COUNT(*) FROM games WHERE (first_bot = " + id +
                                    " AND second_bot < " + id + ") OR (second_bot = " + id +
                                    " AND first_bot < " + id + ")"),
                  k == 2 ? "2" : "4")
            << "bot " << k;
    }
    EXPECT_EQ(query_one(db,
                        "SELECT COUNT(*) FROM games a JOIN games b ON a.pair_index = "
                        "b.pair_index AND a.game_in_pair = 0 AND b.game_in_pair = 1 WHERE "
                        "a.first_bot = b.second_bot AND a.second_bot = b.first_bot AND "
                        "a.opening = b.opening"),
              "9");
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
    // A line per entrant placed, and the standings with every bot.
    for (const auto& [name, command] : bots) {
        if (name == "random") continue;  // entered first: nobody to play
        const std::string games = name == "ab1" ? "2" : "4";
        EXPECT_TRUE(std::regex_search(r.out, std::regex("ladder: " + name + " placed after " +
                                                        games + R"( games \(\d rounds?\): -?\d+)")))
            << name << "\n"
            << r.out;
        EXPECT_NE(r.out.find(name), std::string::npos);
    }

    // The second bot had only the first to meet.
    EXPECT_TRUE(std::regex_search(
        r.out,
        std::regex(R"(ladder: ab1 placed after 2 games \(1 round\): .* \(every opponent met\))")))
        << r.out;

    // Run again: nothing to play.
    const auto again = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(testing::games_stored_now(db), 18);

    // A late entrant: it alone plays, 4 games where a round-robin adds 12,
    // and the games stored stay as they were.
    const auto before = game_rows(db);
    bots.emplace_back("late", bin("bots/c4-alphabeta") + " --depth 2");
    static_cast<void>(dir.write("l.yaml", ladder_text("l", schedule, bots, dir.path())));
    const auto grown = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(grown.status, 0) << grown.out << grown.err;
    EXPECT_NE(
        grown.err.find("changes: bot 'late' enters. The ladder places 1 entrant round by round\n"),
        std::string::npos)
        << grown.err;
    const auto after = game_rows(db);
    ASSERT_EQ(after.size(), 22u);
    EXPECT_EQ(std::vector<std::string>(after.begin(), after.begin() + 18), before);
    EXPECT_EQ(query_one(db,
                        "SELECT COUNT(*) FROM games g JOIN bots b ON b.name = 'late' WHERE "
                        "g.game_index >= 18 AND (g.first_bot = b.id OR g.second_bot = b.id)"),
              "4");
    EXPECT_NE(grown.out.find("ladder: late placed after 4 games"), std::string::npos) << grown.out;
    // The standings rate it with its 4 games; the total is what was played.
    EXPECT_TRUE(std::regex_search(grown.out, std::regex(R"(\n +\d+ +late +-?\d+ +\d+ +4 )")))
        << grown.out;
    EXPECT_EQ(query_one(db, "SELECT total_games FROM tournaments"), "22");

    // What decides the games may not change: refused, naming it, nothing played.
    static_cast<void>(dir.write(
        "l.yaml",
        ladder_text("l", ", games_per_entrant: 6, opponents_per_round: 2", bots, dir.path())));
    const auto changed = run_arena(dir.path(), {"run", config});
    EXPECT_NE(changed.status, 0);
    EXPECT_NE(changed.err.find("no longer matches"), std::string::npos) << changed.err;
    EXPECT_NE(changed.err.find("games_per_entrant=4"), std::string::npos) << changed.err;
    EXPECT_EQ(testing::games_stored_now(db), 22);
}

TEST(LadderRun, AKilledAndResumedRunPlaysTheSameGames) {
    TempDir dir;
    // Deterministic bots only (the search at fixed depths): the same games
    // give the same results, so the same rounds.
    const std::string ab = bin("bots/c4-alphabeta");
    const std::vector<std::pair<std::string, std::string>> bots = {
        {"d1", ab + " --depth 1"}, {"d3", ab + " --depth 3"}, {"d2", ab + " --depth 2"},
        {"d5", ab + " --depth 5"}, {"d4", ab + " --depth 4"}, {"e1", ab + " --depth 1"}};
    // The target is never reached: each entrant meets every one before it,
    // 2 + 4 + 6 + 8 + 10 games, in rounds of two opponents.
    const std::string schedule = ", games_per_entrant: 10, opponents_per_round: 2, target_error: 1";
    const auto reference = dir.write("ref.yaml", ladder_text("ref", schedule, bots, dir.path()));
    const auto r = run_arena(dir.path(), {"run", reference});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto expected = game_rows(dir.path() / "ref.db");
    ASSERT_EQ(expected.size(), 30u);

    const auto config = dir.write("cut.yaml", ladder_text("cut", schedule, bots, dir.path()));
    const auto db = dir.path() / "cut.db";
    {
        testing::ArenaProcess p(dir.path(), {"run", config});
        static_cast<void>(testing::stop_once_stored(p, db, 11));
    }
    ASSERT_LT(testing::games_stored_now(db), 30) << "the run finished before it could be killed";
    const auto resumed = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(resumed.status, 0) << resumed.out << resumed.err;
    EXPECT_EQ(game_rows(db), expected);
}

}  // namespace
}  // namespace arena
