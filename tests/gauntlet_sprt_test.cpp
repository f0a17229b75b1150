// A gauntlet with a stopping rule (`schedule: { type: gauntlet, sprt: ... }`):
// one SPRT per opponent, each decided on its own from the pairs in schedule
// order; decided opponents play no more; a resumed run continues each test
// exactly; config errors.

#include "arena/tournament/gauntlet_sprt.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "arena/record/moves_hash.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/repeats.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "run_control.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"
#include "worker_runs.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::bin;
using testing::occurrences;
using testing::query;
using testing::query_one;
using testing::run_arena;
using testing::scaled_ms;
using testing::source;
using testing::sprt_blocks;
using testing::TempDir;
using tournament::GauntletSprt;
using tournament::Pairing;
using tournament::RepeatFilter;
using tournament::scored_game;
using tournament::ScoredGame;

// A gauntlet config of `challenger` against `opponents` (name, command).
// The database is `name`.db in `dir`.
std::string gauntlet_text(const std::string& name, int games_per_pair,
                          const std::vector<std::pair<std::string, std::string>>& bots,
                          const std::string& sprt = "{ elo0: 0, elo1: 10 }",
                          const fs::path& dir = ".") {
    std::string text = "name: " + name +
                       "\n"
                       "game: { name: connect4 }\n"
                       "time: { move_ms: " +
                       scaled_ms(2000) +
                       " }\n"
                       "schedule: { type: gauntlet, challenger: " +
                       bots.front().first + ", games_per_pair: " + std::to_string(games_per_pair) +
                       ", sprt: " + sprt +
                       " }\n"
                       "openings: { file: " +
                       source("configs/openings/connect4-7x6-balanced.txt") +
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

tournament::Config parse(const std::string& text) {
    return tournament::parse_config(text, "gauntlet.yaml");
}

std::string config_error(const std::string& text) {
    try {
        static_cast<void>(parse(text));
    } catch (const tournament::ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

// Plain Elo: pairs that all score 1 (the same game with colours swapped)
// then speak for H0; in normalized Elo they carry no information.
const std::string kLogistic = "{ elo0: 0, elo1: 10, model: logistic }";
// Decides in a few dozen pairs.
const std::string kWideLogistic = "{ elo0: 0, elo1: 50, model: logistic }";

const std::vector<std::pair<std::string, std::string>> kThreeRandoms = {
    {"a", bin("bots/random")}, {"b", bin("bots/random")}, {"c", bin("bots/random")}};

// ---- the tests' bookkeeping -------------------------------------------------

// Both games of each pair in `pairs` with the challenger scoring `score`
// in each (1, 1/2 or 0), in the given order.
void add_pairs(GauntletSprt& sprt, const std::vector<Pairing>& schedule,
               const std::vector<int>& pairs, double score) {
    for (const int pair : pairs) {
        for (const auto& p : schedule) {
            if (p.pair != pair) continue;
            const bool challenger_first = p.first == 0;
            sprt.add(p, ScoredGame{challenger_first ? score : 1.0 - score, std::nullopt});
        }
    }
}

// The schedule's pair numbers against opponent `bot`, in order.
std::vector<int> pairs_against(const std::vector<Pairing>& schedule, int bot) {
    std::vector<int> pairs;
    for (const auto& p : schedule)
        if (p.game_in_pair == 0 && (p.first == bot || p.second == bot)) pairs.push_back(p.pair);
    return pairs;
}

TEST(GauntletSprtState, DecidesEachOpponentOnItsOwnAndCountsOnlyPairsInOrder) {
    const auto config = parse(gauntlet_text("g", 200, kThreeRandoms, kWideLogistic));
    const auto schedule = tournament::make_schedule(config);
    GauntletSprt sprt(config, schedule);
    ASSERT_EQ(sprt.tests().size(), 2u);
    EXPECT_EQ(sprt.tests()[0].scheduled_pairs, 100);
    EXPECT_EQ(sprt.needed_games(), 400);

    // Against b, the challenger wins every game: H1 after a few pairs.
    const auto vs_b = pairs_against(schedule, 1);
    const auto vs_c = pairs_against(schedule, 2);
    add_pairs(sprt, schedule, {vs_b.begin(), vs_b.begin() + 30}, 1.0);
    const auto& b = sprt.tests()[0];
    ASSERT_TRUE(b.decided());
    EXPECT_EQ(b.result.decision, rating::SprtDecision::accept_h1);
    EXPECT_LT(b.counted_pairs, 30);
    EXPECT_EQ(b.late_pairs, 30 - b.counted_pairs);
    EXPECT_EQ(b.pairs.bins[4], b.counted_pairs);
    EXPECT_EQ(b.games.wins, 2 * b.counted_pairs);
    // c's test is untouched, and still needs all its games.
    EXPECT_FALSE(sprt.tests()[1].decided());
    EXPECT_EQ(sprt.tests()[1].counted_pairs, 0);
    EXPECT_EQ(sprt.needed_games(), 60 + 200);
    for (const auto& p : schedule) {
        const bool against_b = p.first == 1 || p.second == 1;
        EXPECT_EQ(sprt.finished(p), against_b) << p.index;
    }

    // Against c: a later pair complete before an earlier one waits for it.
    add_pairs(sprt, schedule, {vs_c[1], vs_c[2]}, 0.0);
    EXPECT_EQ(sprt.tests()[1].counted_pairs, 0);
    add_pairs(sprt, schedule, {vs_c[0]}, 0.0);
    EXPECT_EQ(sprt.tests()[1].counted_pairs, 3);
    EXPECT_EQ(sprt.tests()[1].pairs.bins[0], 3);
    // A game given twice counts once.
    add_pairs(sprt, schedule, {vs_c[0]}, 1.0);
    EXPECT_EQ(sprt.tests()[1].counted_pairs, 3);
    EXPECT_EQ(sprt.tests()[1].pairs.bins[0], 3);
    EXPECT_FALSE(sprt.all_finished());
}

// The decision does not depend on the order in which pairs finish.
TEST(GauntletSprtState, TheDecisionIsTheSameWhateverOrderThePairsFinishIn) {
    const auto config = parse(gauntlet_text("g", 400, kThreeRandoms, kWideLogistic));
    const auto schedule = tournament::make_schedule(config);
    const auto vs_b = pairs_against(schedule, 1);
    // A fixed mix of results: W W, W L, D D, L L, W D ... from the challenger's side.
    const std::vector<std::pair<double, double>> pattern = {{1, 1},   {1, 0}, {0.5, 0.5}, {0, 0},
                                                            {1, 0.5}, {1, 1}, {0.5, 1},   {1, 0}};
    const auto feed = [&](GauntletSprt& sprt, const std::vector<int>& order) {
        for (const int k : order) {
            const auto [s0, s1] = pattern[static_cast<std::size_t>(k) % pattern.size()];
            for (const auto& p : schedule) {
                if (p.pair != vs_b[static_cast<std::size_t>(k)]) continue;
                const double s = p.game_in_pair == 0 ? s0 : s1;
                sprt.add(p, ScoredGame{p.first == 0 ? s : 1.0 - s, std::nullopt});
            }
        }
    };
    std::vector<int> in_order(vs_b.size());
    for (std::size_t k = 0; k < in_order.size(); ++k)
        in_order[k] = static_cast<int>(k);
    std::vector<int> shuffled = in_order;
    for (std::size_t k = 0; k + 1 < shuffled.size(); k += 2)
        std::swap(shuffled[k], shuffled[k + 1]);
    std::reverse(shuffled.begin() + 50, shuffled.begin() + 90);

    GauntletSprt a(config, schedule), b(config, schedule);
    feed(a, in_order);
    feed(b, shuffled);
    const auto& ta = a.tests()[0];
    const auto& tb = b.tests()[0];
    ASSERT_TRUE(ta.decided());
    EXPECT_EQ(ta.result.decision, tb.result.decision);
    EXPECT_EQ(ta.counted_pairs, tb.counted_pairs);
    EXPECT_EQ(ta.pairs.bins, tb.pairs.bins);
    EXPECT_DOUBLE_EQ(ta.result.llr, tb.result.llr);
}

// ---- repeats ------------------------------------------------------------------

ScoredGame normal(double first_score, std::int64_t hash) {
    return ScoredGame{first_score, hash};
}

TEST(RepeatFilter, SetsAsideAPairThatRepeatsAnEarlierOneMoveForMove) {
    RepeatFilter f;
    EXPECT_TRUE(f.counts(normal(1, 10), normal(0, 20)));
    EXPECT_TRUE(f.counts(normal(1, 11), normal(0, 20)));  // one game differs
    EXPECT_FALSE(f.counts(normal(1, 10), normal(0, 20)));
    EXPECT_EQ(f.repeated(), 1);
    EXPECT_EQ(f.in_a_row(), 1);
    // The same two games, but each with the other bot moving first: new.
    EXPECT_TRUE(f.counts(normal(1, 20), normal(0, 10)));
    EXPECT_EQ(f.in_a_row(), 0);
    EXPECT_FALSE(f.counts(normal(1, 11), normal(0, 20)));
    EXPECT_FALSE(f.counts(normal(1, 10), normal(0, 20)));
    EXPECT_EQ(f.repeated(), 3);
    EXPECT_EQ(f.in_a_row(), 2);
    // A game that did not end normally (no hash) is never a repeat.
    EXPECT_TRUE(f.counts(ScoredGame{1, std::nullopt}, normal(0, 20)));
    EXPECT_TRUE(f.counts(ScoredGame{1, std::nullopt}, normal(0, 20)));
    EXPECT_EQ(f.in_a_row(), 0);

    RepeatFilter all(true);  // count_repeats
    EXPECT_TRUE(all.counts(normal(1, 10), normal(0, 20)));
    EXPECT_TRUE(all.counts(normal(1, 10), normal(0, 20)));
    EXPECT_EQ(all.repeated(), 0);
}

TEST(RepeatFilter, AGameRecordEndedNormallyHasTheStoredHashAndAFaultNone) {
    record::GameRecord g;
    g.game = "connect4";
    g.params = {{"rows", "6"}, {"cols", "7"}};
    g.moves.resize(2);
    g.moves[0].move = "4";
    g.moves[1].move = "3";
    g.outcome = games::Outcome::kWin2;
    const ScoredGame scored = scored_game(g);
    EXPECT_EQ(scored.first_score, 0.0);
    ASSERT_TRUE(scored.moves_hash.has_value());
    EXPECT_EQ(*scored.moves_hash, record::moves_hash(g));
    g.moves[1].move = "5";
    EXPECT_NE(*scored_game(g).moves_hash, *scored.moves_hash);
    g.termination = record::Termination::kTimeout;
    EXPECT_FALSE(scored_game(g).moves_hash.has_value());
}

// Pair k of the challenger against b plays game (k % distinct): with 5
// distinct games, 4 of every 5 pairs from the sixth on are set aside.
TEST(GauntletSprtState, CountsARepeatedPairOnceAndStopsWhenEveryPairRepeats) {
    const auto config = parse(gauntlet_text("g", 200, kThreeRandoms, kWideLogistic));
    const auto schedule = tournament::make_schedule(config);
    const auto vs_b = pairs_against(schedule, 1);
    GauntletSprt sprt(config, schedule);
    const auto feed = [&](std::size_t from, std::size_t to, int distinct) {
        for (std::size_t k = from; k < to; ++k) {
            for (const auto& p : schedule) {
                if (p.pair != vs_b[k]) continue;
                const bool challenger_first = p.first == 0;
                // Drawn games: no decision comes of them.
                const auto hash =
                    static_cast<std::int64_t>(k % static_cast<std::size_t>(distinct)) * 2 +
                    (challenger_first ? 0 : 1);
                sprt.add(p, normal(0.5, hash));
            }
        }
    };
    feed(0, 10, 10);
    EXPECT_EQ(sprt.tests()[0].counted_pairs, 10);
    EXPECT_EQ(sprt.tests()[0].repeated_pairs, 0);
    feed(10, 29, 10);  // pairs 10..28 repeat pairs 0..9, 19 in a row
    const auto& t = sprt.tests()[0];
    EXPECT_EQ(t.counted_pairs, 10);
    EXPECT_EQ(t.repeated_pairs, 19);
    EXPECT_EQ(t.pairs.bins[2], 10);
    EXPECT_FALSE(t.finished());
    feed(29, 30, 10);  // the 20th in a row
    EXPECT_TRUE(t.stopped_repeating);
    EXPECT_TRUE(t.finished());
    EXPECT_FALSE(t.decided());
    for (const auto& p : schedule) {
        if (p.first == 1 || p.second == 1) {
            EXPECT_TRUE(sprt.finished(p));
        }
    }
    // What the stopped test still needs: the games it stored.
    EXPECT_EQ(sprt.needed_games(), 60 + 200);
    feed(30, 32, 10);  // finished while it stopped: late
    EXPECT_EQ(t.late_pairs, 2);
    EXPECT_EQ(t.repeated_pairs, 20);

    // With count_repeats every pair counts.
    auto counting = config;
    counting.count_repeats = true;
    GauntletSprt all(counting, schedule);
    for (std::size_t k = 0; k < 10; ++k)
        for (const auto& p : schedule)
            if (p.pair == vs_b[k]) all.add(p, normal(0.5, p.first == 0 ? 0 : 1));
    EXPECT_EQ(all.tests()[0].counted_pairs, 10);
    EXPECT_EQ(all.tests()[0].repeated_pairs, 0);
}

// ---- the config ---------------------------------------------------------------

TEST(GauntletSprtConfig, ReadsTheTestAndNamesEveryMistake) {
    const auto config =
        parse(gauntlet_text("g", 100, kThreeRandoms,
                            "{ elo0: -1.75, elo1: 0.25, alpha: 0.1, beta: 0.2, model: logistic }"));
    ASSERT_TRUE(config.sprt.has_value());
    EXPECT_DOUBLE_EQ(config.sprt->elo0, -1.75);
    EXPECT_DOUBLE_EQ(config.sprt->elo1, 0.25);
    EXPECT_DOUBLE_EQ(config.sprt->alpha, 0.1);
    EXPECT_DOUBLE_EQ(config.sprt->beta, 0.2);
    EXPECT_EQ(config.sprt->model, rating::SprtModel::logistic);

    EXPECT_NE(config_error(gauntlet_text("g", 100, kThreeRandoms, "{ elo1: 5 }"))
                  .find("missing required key 'elo0' in 'sprt'"),
              std::string::npos)
        << config_error(gauntlet_text("g", 100, kThreeRandoms, "{ elo1: 5 }"));
    const std::string backwards =
        config_error(gauntlet_text("g", 100, kThreeRandoms, "{ elo0: 5, elo1: 1 }"));
    EXPECT_NE(backwards.find("gauntlet.yaml:4:"), std::string::npos) << backwards;
    EXPECT_NE(backwards.find("elo0"), std::string::npos) << backwards;
    const std::string word =
        config_error(gauntlet_text("g", 100, kThreeRandoms, "{ elo0: 0, elo1: ten }"));
    EXPECT_NE(word.find("expected a number for 'elo1', got 'ten'"), std::string::npos) << word;
    const std::string model = config_error(
        gauntlet_text("g", 100, kThreeRandoms, "{ elo0: 0, elo1: 5, model: logistc }"));
    EXPECT_NE(model.find("unknown SPRT model 'logistc'"), std::string::npos) << model;
    EXPECT_NE(model.find("did you mean 'logistic'"), std::string::npos) << model;
    const std::string typo =
        config_error(gauntlet_text("g", 100, kThreeRandoms, "{ elo0: 0, elo1: 5, alpah: 0.1 }"));
    EXPECT_NE(typo.find("unknown key 'alpah' in 'sprt'"), std::string::npos) << typo;

    std::string round_robin = gauntlet_text("g", 100, kThreeRandoms);
    round_robin = std::regex_replace(round_robin, std::regex("type: gauntlet, challenger: a, "),
                                     "type: round-robin, ");
    const std::string rr = config_error(round_robin);
    EXPECT_NE(rr.find("'sprt' is only for a gauntlet schedule"), std::string::npos) << rr;
}

TEST(AnchorsConfig, ReadsAnchorsAndNamesUnknownBots) {
    const auto config =
        parse(gauntlet_text("g", 2, kThreeRandoms) + "anchors: { b: 1500, c: -12.5 }\n");
    ASSERT_EQ(config.anchors.size(), 2u);
    EXPECT_EQ(config.anchors[0].name, "b");
    EXPECT_DOUBLE_EQ(config.anchors[0].elo, 1500);
    EXPECT_EQ(config.anchors[1].name, "c");
    EXPECT_DOUBLE_EQ(config.anchors[1].elo, -12.5);

    const std::string unknown =
        config_error(gauntlet_text("g", 2, kThreeRandoms) + "anchors: { bb: 1500 }\n");
    EXPECT_NE(unknown.find("anchor 'bb' is not one of the bots (did you mean 'b'?)"),
              std::string::npos)
        << unknown;
    const std::string word =
        config_error(gauntlet_text("g", 2, kThreeRandoms) + "anchors: { b: high }\n");
    EXPECT_NE(word.find("expected a number for 'b', got 'high'"), std::string::npos) << word;
    const std::string empty = config_error(gauntlet_text("g", 2, kThreeRandoms) + "anchors: {}\n");
    EXPECT_NE(empty.find("'anchors' is empty"), std::string::npos) << empty;
}

// Anchors change the scale of the standings, not which games are played.
TEST(AnchorsConfig, DoNotChangeTheFingerprint) {
    const auto plain = parse(gauntlet_text("g", 2, kThreeRandoms));
    const auto anchored = parse(gauntlet_text("g", 2, kThreeRandoms) + "anchors: { b: 1500 }\n");
    EXPECT_EQ(tournament::fingerprint(plain), tournament::fingerprint(anchored));
    const auto other_test = parse(gauntlet_text("g", 2, kThreeRandoms, "{ elo0: 0, elo1: 5 }"));
    EXPECT_NE(tournament::fingerprint(plain), tournament::fingerprint(other_test));
}

// ---- arena run -------------------------------------------------------------------

// The deterministic bots of the runs below: the same search at two depths.
std::vector<std::pair<std::string, std::string>> alphabeta_bots() {
    const std::string ab = bin("bots/c4-alphabeta");
    return {
        {"deep", ab + " --depth 5"}, {"shallow", ab + " --depth 1"}, {"twin", ab + " --depth 5"}};
}

TEST(GauntletSprtRun, StopsEachOpponentOnceDecidedAndPrintsEachTest) {
    TempDir dir;
    const auto config =
        dir.write("g.yaml", gauntlet_text("g", 400, alphabeta_bots(), kLogistic, dir.path()));
    const auto r = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto db = dir.path() / "g.db";
    // Fewer games than the 800 the schedule allows.
    const int games = std::stoi(query_one(db, "SELECT COUNT(*) FROM games"));
    EXPECT_LT(games, 700) << r.out;
    EXPECT_EQ(query_one(db, "SELECT COUNT(*) FROM games WHERE termination <> 'normal'"), "0");

    // One block per opponent, each with its decision: the shallow search is
    // weaker (H1), the twin plays the same games with colours swapped (H0).
    const std::string blocks = sprt_blocks(r.out);
    EXPECT_NE(blocks.find("Results of deep vs shallow (from deep's side)"), std::string::npos)
        << r.out;
    EXPECT_NE(blocks.find("Results of deep vs twin (from deep's side)"), std::string::npos)
        << r.out;
    EXPECT_TRUE(std::regex_search(
        blocks,
        std::regex(
            R"(deep vs shallow[^]*?Ptnml\(0-2\): \[\d+, \d+, \d+, \d+, \d+\]\nLLR: [0-9.]+ \(-2\.94, 2\.94\) \[0\.00, 10\.00\]\nSPRT: H1 accepted)")))
        << blocks;
    EXPECT_TRUE(std::regex_search(
        blocks,
        std::regex(
            R"(deep vs twin[^]*?Ptnml\(0-2\): \[0, 0, \d+, 0, 0\]\nLLR: -[0-9.]+ \(-2\.94, 2\.94\) \[0\.00, 10\.00\]\nSPRT: H0 accepted)")))
        << blocks;
    // The moment each test was decided, in the game lines.
    EXPECT_NE(r.out.find("sprt: deep vs shallow: H1 accepted after "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("sprt: deep vs twin: H0 accepted after "), std::string::npos) << r.out;

    // Run again: nothing is played, the same tests are printed.
    const auto again = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(std::stoi(query_one(db, "SELECT COUNT(*) FROM games")), games);
    EXPECT_EQ(sprt_blocks(again.out), blocks);
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
}

// From the empty board (no openings) two deterministic bots play one pair
// over and over: each test counts it once, sets the copies aside, stops after
// 20 in a row and says why; a second run reads the same from the database.
// A config of three deterministic random bots, one, two and three, from the
// empty board, stored in `dir`/r.db, with this schedule.
std::string three_random_bots(const TempDir& dir, const std::string& schedule) {
    std::string text = "name: r\ngame: { name: connect4 }\ntime: { move_ms: " + scaled_ms(2000) +
                       " }\nschedule: " + schedule +
                       "\nconcurrency: 2\ndatabase: " + (dir.path() / "r.db").string() +
                       "\nbots:\n";
    for (const auto& [name, seed] : std::vector<std::pair<std::string, std::string>>{
             {"one", "1"}, {"two", "2"}, {"three", "3"}})
        text += "  - { name: " + name + ", command: '" + bin("bots/random") + " --seed " + seed +
                "' }\n";
    return text;
}

TEST(GauntletSprtRun, RepeatedPairsAreSetAsideAndATestOfCopiesStops) {
    TempDir dir;
    const std::string text = three_random_bots(
        dir,
        "{ type: gauntlet, challenger: one, games_per_pair: 200, sprt: { elo0: 0, elo1: 10 } }");
    const auto config = dir.write("r.yaml", text);
    const auto r = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    for (const std::string opponent : {"two", "three"}) {
        EXPECT_NE(r.out.find("sprt: one vs " + opponent +
                             ": stopped after 1 counted pair: the last 20 pairs each repeated an "
                             "earlier pair move for move"),
                  std::string::npos)
            << r.out;
    }
    EXPECT_EQ(occurrences(r.out,
                          "SPRT: no decision after 1 of 100 pairs (stopped: the last 20 "
                          "pairs each repeated an earlier pair move for move)\n"),
              2)
        << r.out;
    EXPECT_EQ(occurrences(r.out,
                          "Repeats: 20 more pairs set aside, each a move-for-move copy of "
                          "an earlier pair\n"),
              2)
        << r.out;
    EXPECT_EQ(occurrences(r.out,
                          "20 pairs were set aside: each repeated an earlier pair move for "
                          "move (docs/ratings.md)\n"),
              2)
        << r.out;
    // 21 pairs against each opponent, and the games already handed out when
    // a test stopped (stored as late pairs: with instant bots under load, the
    // workers run ahead of the store by up to a few dozen games); not the
    // 400 the schedule holds.
    const int games = std::stoi(query_one(dir.path() / "r.db", "SELECT COUNT(*) FROM games"));
    EXPECT_GE(games, 84);
    EXPECT_LE(games, 150);
    const auto again = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(sprt_blocks(again.out), sprt_blocks(r.out));
    EXPECT_EQ(std::stoi(query_one(dir.path() / "r.db", "SELECT COUNT(*) FROM games")), games);
}

// Without an SPRT, a round-robin whose bots play the same games whatever
// the openings stops each such meeting too, and a second run adds nothing.
TEST(GauntletSprtRun, ARoundRobinOfCopiesStopsEachMeetingAfterTwentyRepeatedPairs) {
    TempDir dir;
    const std::string text = three_random_bots(dir, "{ type: round-robin, games_per_pair: 100 }");
    const auto config = dir.write("r.yaml", text);
    const auto r = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    for (const std::string meeting : {"one vs two", "one vs three", "two vs three"}) {
        EXPECT_NE(r.out.find("repeats: " + meeting +
                             ": stopped after 1 counted pair: the last 20 pairs each repeated an "
                             "earlier pair move for move"),
                  std::string::npos)
            << r.out;
    }
    // 21 pairs a meeting and the games already handed out when it stopped
    // (pairs count in schedule order, games finish in any, so how many
    // depends on the machine's load): far fewer than the schedule's 300.
    // The standings set the repeated pairs aside.
    const int games = std::stoi(query_one(dir.path() / "r.db", "SELECT COUNT(*) FROM games"));
    EXPECT_GE(games, 3 * 42);
    EXPECT_LE(games, 200);
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\nrepeats: \d+ pairs \(\d+ of )" + std::to_string(games) +
                          R"( games\) repeat earlier pairs move for move and are set aside:\n)")))
        << r.out;
    const auto again = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(std::stoi(query_one(dir.path() / "r.db", "SELECT COUNT(*) FROM games")), games);

    // count_repeats: true plays the whole schedule.
    const auto counted =
        dir.write("c.yaml", "count_repeats: true\n" + std::regex_replace(text, std::regex("r\\.db"),
                                                                         std::string("c.db")));
    ASSERT_EQ(run_arena(dir.path(), {"run", counted}).status, 0);
    EXPECT_EQ(query_one(dir.path() / "c.db", "SELECT COUNT(*) FROM games"), "300");
}

TEST(GauntletSprtRun, AKilledAndResumedRunReachesTheSameDecisionsAtTheSamePairs) {
    TempDir dir;
    const auto bots = alphabeta_bots();
    const auto reference =
        dir.write("ref.yaml", gauntlet_text("ref", 400, bots, kLogistic, dir.path()));
    const auto r = run_arena(dir.path(), {"run", reference});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string expected = sprt_blocks(r.out);
    ASSERT_FALSE(expected.empty()) << r.out;

    const auto config =
        dir.write("cut.yaml", gauntlet_text("cut", 400, bots, kLogistic, dir.path()));
    const auto db = dir.path() / "cut.db";
    {
        testing::ArenaProcess p(dir.path(), {"run", config});
        static_cast<void>(testing::stop_once_stored(p, db, 6));
    }
    ASSERT_LT(testing::games_stored_now(db), testing::games_stored_now(dir.path() / "ref.db"))
        << "the run finished before it could be killed";
    const auto resumed = run_arena(dir.path(), {"run", config});
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(sprt_blocks(resumed.out), expected);
}

}  // namespace
}  // namespace arena
