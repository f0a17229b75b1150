// A standing tournament that grows: schedules made of segments as pure
// values, what a changed config is accepted as (late entrants, more games,
// retired bots, new versions) or refused for, the store's record of it, and
// `arena run` end to end: a finished round-robin gains a fifth bot without a
// stored row changing, games_per_pair and rounds grow, a removed bot
// retires, `versions: keep` enters a changed bot as a new version, a late
// opponent of an SPRT gauntlet gets its own test, and kill -9 during an
// extension loses and repeats nothing.

#include "arena/tournament/growth.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/store/sqlite.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "run_control.hpp"
#include "temp_dir.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::bin;
using testing::query;
using testing::query_one;

// ---- schedules of segments --------------------------------------------------

// The schedule as make_schedule(config) made it before segments: round,
// then colour-swapped pair repetition, then meeting.
std::vector<Pairing> reference_schedule(const Config& c) {
    std::vector<std::pair<int, int>> meets;
    const int n = static_cast<int>(c.bots.size());
    if (c.schedule == ScheduleType::kGauntlet) {
        int challenger = 0;
        for (int i = 0; i < n; ++i)
            if (c.bots[static_cast<std::size_t>(i)].name == c.challenger) challenger = i;
        for (int i = 0; i < n; ++i)
            if (i != challenger) meets.emplace_back(challenger, i);
    } else {
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                meets.emplace_back(i, j);
    }
    std::vector<Pairing> s;
    int pair = 0;
    for (int round = 0; round < c.rounds; ++round) {
        for (int rep = 0; rep < c.games_per_pair / 2; ++rep) {
            for (const auto& [a, b] : meets) {
                for (int g = 0; g < 2; ++g) {
                    Pairing p;
                    p.index = static_cast<std::int64_t>(s.size());
                    p.round = round;
                    p.pair = pair;
                    p.game_in_pair = g;
                    p.first = g == 0 ? a : b;
                    p.second = g == 0 ? b : a;
                    s.push_back(p);
                }
                ++pair;
            }
        }
    }
    return s;
}

std::string text(const Pairing& p) {
    return std::to_string(p.index) + " r" + std::to_string(p.round) + " p" +
           std::to_string(p.pair) + " g" + std::to_string(p.game_in_pair) + " " +
           std::to_string(p.first) + "-" + std::to_string(p.second) + " s" +
           std::to_string(p.segment);
}

std::vector<std::string> texts(const std::vector<Pairing>& s) {
    std::vector<std::string> t;
    for (const auto& p : s)
        t.push_back(text(p));
    return t;
}

Segment segment(std::vector<int> active, int games_per_pair, int rounds = 1, int challenger = -1) {
    Segment s;
    s.active = std::move(active);
    s.games_per_pair = games_per_pair;
    s.rounds = rounds;
    s.gauntlet = challenger >= 0;
    s.challenger = challenger;
    return s;
}

// Pairs scheduled per meeting (lower entrant first).
std::map<std::pair<int, int>, int> pairs_per_meeting(const std::vector<Pairing>& s) {
    std::map<std::pair<int, int>, int> count;
    for (const auto& p : s)
        if (p.game_in_pair == 0)
            ++count[{std::min(p.first, p.second), std::max(p.first, p.second)}];
    return count;
}

TEST(Segments, OneSegmentOfEveryBotIsTheScheduleAsBefore) {
    for (const auto& c :
         {testing::bare_config(5, 4, 3), testing::bare_config(2, 2), testing::bare_config(7, 2, 2),
          testing::bare_config(4, 6, 2, ScheduleType::kGauntlet)}) {
        EXPECT_EQ(texts(make_schedule(c)), texts(reference_schedule(c)));
    }
}

TEST(Segments, ALateEntrantPlaysEveryActiveBotAfterTheStoredSchedule) {
    const auto before = make_schedule({segment({0, 1, 2, 3}, 2)});
    const auto after = make_schedule({segment({0, 1, 2, 3}, 2), segment({0, 1, 2, 3, 4}, 2)});
    ASSERT_EQ(before.size(), 12u);
    ASSERT_EQ(after.size(), 20u);
    for (std::size_t i = 0; i < before.size(); ++i)
        EXPECT_EQ(text(after[i]), text(before[i]));
    // Against 0, 1, 2, 3 in turn, a colour-swapped pair each, new pair numbers.
    for (int k = 0; k < 4; ++k) {
        const auto& a = after[12 + 2 * static_cast<std::size_t>(k)];
        const auto& b = after[13 + 2 * static_cast<std::size_t>(k)];
        EXPECT_EQ(text(a), std::to_string(12 + 2 * k) + " r0 p" + std::to_string(6 + k) + " g0 " +
                               std::to_string(k) + "-4 s1");
        EXPECT_EQ(text(b), std::to_string(13 + 2 * k) + " r0 p" + std::to_string(6 + k) + " g1 4-" +
                               std::to_string(k) + " s1");
    }
}

TEST(Segments, MoreGamesPerPairOrRoundsBringEveryMeetingUpToTheNewCount) {
    const auto first = segment({0, 1, 2}, 2);
    const auto more = segment({0, 1, 2}, 4);
    const auto rounds = segment({0, 1, 2}, 4, 2);
    const auto s = make_schedule({first, more, rounds});
    ASSERT_EQ(s.size(), 6u + 6u + 12u);
    for (const auto& [meeting, pairs] : pairs_per_meeting(s))
        EXPECT_EQ(pairs, 4) << meeting.first << "-" << meeting.second;
    // games_per_pair 4: the second pair is still round 0; rounds 2: pairs 3, 4 are round 1.
    for (std::size_t i = 6; i < 12; ++i)
        EXPECT_EQ(s[i].round, 0) << text(s[i]);
    for (std::size_t i = 12; i < 24; ++i)
        EXPECT_EQ(s[i].round, 1) << text(s[i]);
    EXPECT_EQ(s.back().pair, 11);
    // A segment that changes nothing adds nothing.
    EXPECT_EQ(make_schedule({first, more, rounds, rounds}).size(), s.size());
}

TEST(Segments, ARetiredBotPlaysNoMoreAndOnItsReturnCatchesUp) {
    // 2 retires while games_per_pair goes 2 -> 4; then 4 enters and 2 returns.
    const auto s = make_schedule(
        {segment({0, 1, 2, 3}, 2), segment({0, 1, 3}, 4), segment({0, 1, 2, 3, 4}, 4)});
    std::size_t in_second = 0;
    for (const auto& p : s) {
        if (p.segment != 1) continue;
        ++in_second;
        EXPECT_NE(p.first, 2) << text(p);
        EXPECT_NE(p.second, 2) << text(p);
    }
    EXPECT_EQ(in_second, 6u);  // (0,1), (0,3), (1,3): one more pair each
    EXPECT_EQ(s.size(), 12u + 6u + 22u);
    for (const auto& [meeting, pairs] : pairs_per_meeting(s))
        EXPECT_EQ(pairs, 2) << meeting.first << "-" << meeting.second;
}

TEST(Segments, AGauntletGainsAnOpponentAndANewVersionOfItsChallenger) {
    const auto s = make_schedule({segment({0, 1, 2}, 2, 1, 0), segment({0, 1, 2, 3}, 2, 1, 0),
                                  segment({1, 2, 3, 4}, 2, 1, 4)});
    ASSERT_EQ(s.size(), 4u + 2u + 6u);
    EXPECT_EQ(text(s[4]), "4 r0 p2 g0 0-3 s1");
    // The new challenger (entrant 4) moves first in each pair's first game.
    EXPECT_EQ(text(s[6]), "6 r0 p3 g0 4-1 s2");
    EXPECT_EQ(text(s[7]), "7 r0 p3 g1 1-4 s2");
    EXPECT_EQ(text(s[11]), "11 r0 p5 g1 3-4 s2");
}

// ---- what a changed config is accepted or refused as ------------------------

std::string yaml(const std::vector<std::string>& bots, int games_per_pair = 2,
                 const std::string& more = "", int rounds = 1, int move_ms = 2000,
                 const std::string& last_args = "") {
    std::string t =
        "name: g\ngame: { name: connect4 }\ntime: { move_ms: " + std::to_string(move_ms) +
        " }\nschedule: { type: round-robin, games_per_pair: " + std::to_string(games_per_pair) +
        ", rounds: " + std::to_string(rounds) + " }\nopenings: { random_plies: 2 }\nseed: 7\n" +
        more + "bots:\n";
    for (std::size_t i = 0; i < bots.size(); ++i) {
        // Each bot's seed from its name: the same bot has the same command in every config.
        t += "  - { name: " + bots[i] + ", command: " + bin("bots/random") + " --seed " +
             std::to_string(static_cast<int>(bots[i][0])) +
             (i + 1 == bots.size() ? last_args : "") + " }\n";
    }
    return t;
}

Config parsed(const std::string& text) {
    return parse_config(text, "g.yaml");
}

// A tournament stored from `config` (one segment; every bot `games` games
// and program "sha-<name>").
StoredTournament stored_from(const Config& config, std::int64_t games = 4) {
    StoredTournament s;
    s.fingerprint = fingerprint(config);
    StoredSegment first;
    first.games_per_pair = config.games_per_pair;
    first.rounds = config.rounds;
    first.fingerprint = s.fingerprint;
    for (std::size_t i = 0; i < config.bots.size(); ++i) {
        s.entrants.push_back({config.bots[i].name, "sha-" + config.bots[i].name, 1, true, games});
        first.active.push_back(static_cast<int>(i));
    }
    s.segments.push_back(first);
    return s;
}

std::vector<std::string> shas(const Config& config) {
    std::vector<std::string> s;
    for (const auto& b : config.bots)
        s.push_back("sha-" + b.name);
    return s;
}

TEST(Growth, AcceptsALateEntrantMoreGamesAndARetiredBot) {
    const auto stored = stored_from(parsed(yaml({"a", "b", "c"})));

    const auto late = parsed(yaml({"a", "b", "c", "d"}));
    auto g = plan_growth(stored, late, shas(late));
    EXPECT_EQ(g.refusal, "");
    EXPECT_EQ(g.entering, std::vector<int>{3});
    EXPECT_EQ(g.changes, std::vector<std::string>{"bot 'd' enters"});
    ASSERT_TRUE(g.segment);
    EXPECT_EQ(g.segment->active, (std::vector<int>{0, 1, 2, 3}));
    const auto after = apply_growth(stored, g, late, shas(late));
    EXPECT_EQ(after.entrants.size(), 4u);
    EXPECT_EQ(make_lineup(after, late).schedule.size(), 6u + 6u);
    // Then nothing more changes.
    EXPECT_FALSE(plan_growth(after, late, shas(late)).changed());

    const auto more = parsed(yaml({"a", "b", "c"}, 4, "", 2));
    g = plan_growth(stored, more, shas(more));
    EXPECT_EQ(g.changes, (std::vector<std::string>{"games_per_pair 2 -> 4", "rounds 1 -> 2"}));
    ASSERT_TRUE(g.segment);
    EXPECT_EQ(g.segment->games_per_pair, 4);
    EXPECT_EQ(g.segment->rounds, 2);

    const auto fewer = parsed(yaml({"a", "c"}));
    g = plan_growth(stored, fewer, shas(fewer));
    EXPECT_EQ(g.changes, std::vector<std::string>{"bot 'b' retires"});
    ASSERT_TRUE(g.segment);
    EXPECT_EQ(g.segment->active, (std::vector<int>{0, 2}));
    const auto retired = apply_growth(stored, g, fewer, shas(fewer));
    const auto lineup = make_lineup(retired, fewer);
    EXPECT_EQ(lineup.bot_of, (std::vector<int>{0, -1, 1}));
    // And back.
    const auto back = parsed(yaml({"a", "b", "c"}));
    g = plan_growth(retired, back, shas(back));
    EXPECT_EQ(g.changes, std::vector<std::string>{"bot 'b' returns"});

    // The bots in another order change nothing.
    const auto shuffled = parsed(yaml({"c", "a", "b"}));
    EXPECT_FALSE(plan_growth(stored, shuffled, shas(shuffled)).changed());
}

TEST(Growth, RefusesWhatWouldChangeTheStoredGamesNamingIt) {
    const auto stored = stored_from(parsed(yaml({"a", "b", "c"}, 4)));
    const auto refusal = [&](const std::string& text) {
        const auto c = parsed(text);
        return plan_growth(stored, c, shas(c)).refusal;
    };
    EXPECT_EQ(refusal(yaml({"a", "b", "c"}, 4)), "");
    EXPECT_NE(refusal(yaml({"a", "b", "c"}, 4, "", 1, 3000)).find("now 'time: move_ms=3000"),
              std::string::npos);
    EXPECT_EQ(refusal(yaml({"a", "b", "c"}, 2)),
              "games_per_pair was 4, now 2: a stored tournament's games_per_pair and rounds may "
              "grow, not shrink (its stored games stay)");
    // An existing bot's command.
    const auto changed = refusal(yaml({"a", "b", "c"}, 4, "", 1, 2000, " --level 2"));
    EXPECT_NE(changed.find("was 'bot c: "), std::string::npos) << changed;
    EXPECT_NE(changed.find("now 'bot c: "), std::string::npos) << changed;
    EXPECT_NE(changed.find("--level 2"), std::string::npos) << changed;
    // Seed and game.
    auto text = yaml({"a", "b", "c"}, 4);
    text.replace(text.find("seed: 7"), 7, "seed: 8");
    EXPECT_EQ(refusal(text), "was 'seed: 7', now 'seed: 8'");
    text = yaml({"a", "b", "c"}, 4);
    text.replace(text.find("{ name: connect4 }"), 18, "{ name: connect4, rows: 7 }");
    EXPECT_NE(refusal(text).find("now 'game: connect4 rows=7"), std::string::npos);
}

TEST(Growth, AChangedProgramIsWarnedRefusedOrANewVersionAsVersionsSays) {
    const auto stored = stored_from(parsed(yaml({"a", "b", "c"})));
    const auto with = [](const std::string& versions) {
        return parsed(yaml({"a", "b", "c"}, 2, versions));
    };
    auto changed = shas(with(""));
    changed[1] = "sha-b-2";

    auto g = plan_growth(stored, with(""), changed);
    EXPECT_EQ(g.refusal, "");
    EXPECT_FALSE(g.changed());
    EXPECT_EQ(g.warnings, std::vector<std::string>{
                              "warning: bot 'b': its program (executable, or the files its "
                              "arguments name) has changed since the tournament started"});

    g = plan_growth(stored, with("versions: refuse\n"), changed);
    EXPECT_EQ(g.refusal,
              "bot 'b': its program (executable, or the files its arguments name) has changed "
              "since the tournament started (versions: keep enters the new program as a new "
              "version)");

    const auto keep = with("versions: keep\n");
    g = plan_growth(stored, keep, changed);
    EXPECT_EQ(g.refusal, "");
    EXPECT_EQ(g.renamed, (std::vector<std::pair<int, std::string>>{{1, "b@1"}}));
    EXPECT_EQ(g.entering, std::vector<int>{1});
    ASSERT_TRUE(g.segment);
    EXPECT_EQ(g.segment->active, (std::vector<int>{0, 2, 3}));
    const auto after = apply_growth(stored, g, keep, changed);
    ASSERT_EQ(after.entrants.size(), 4u);
    EXPECT_EQ(after.entrants[1].name, "b@1");
    EXPECT_FALSE(after.entrants[1].active);
    EXPECT_EQ(after.entrants[3].name, "b");
    EXPECT_EQ(after.entrants[3].version, 2);
    const auto lineup = make_lineup(after, keep);
    EXPECT_EQ(lineup.names, (std::vector<std::string>{"a", "b@1", "c", "b"}));
    EXPECT_EQ(lineup.bot_of, (std::vector<int>{0, -1, 2, 1}));
    // The new version meets a and c (not its earlier self, which cannot play).
    std::set<std::pair<int, int>> met;
    for (const auto& p : lineup.schedule)
        if (p.segment == 1) met.emplace(std::min(p.first, p.second), std::max(p.first, p.second));
    EXPECT_EQ(met, (std::set<std::pair<int, int>>{{0, 3}, {2, 3}}));
    // Its third program: version 3, the second kept as b@2.
    auto third = changed;
    third[1] = "sha-b-3";
    auto stored_after = after;
    stored_after.entrants[3].games = 4;
    g = plan_growth(stored_after, keep, third);
    EXPECT_EQ(g.renamed, (std::vector<std::pair<int, std::string>>{{3, "b@2"}}));
    EXPECT_EQ(apply_growth(stored_after, g, keep, third).entrants.back().version, 3);

    // Before its first game, a new program takes the old one's place.
    const auto fresh = stored_from(parsed(yaml({"a", "b", "c"})), 0);
    g = plan_growth(fresh, keep, changed);
    EXPECT_EQ(g.new_sha256, (std::vector<std::pair<int, std::string>>{{1, "sha-b-2"}}));
    EXPECT_TRUE(g.renamed.empty());
    EXPECT_FALSE(g.segment);
}

TEST(Growth, VersionsTakesWarnRefuseOrKeep) {
    EXPECT_EQ(parsed(yaml({"a", "b"})).versions, Versions::kWarn);
    EXPECT_EQ(parsed(yaml({"a", "b"}, 2, "versions: keep\n")).versions, Versions::kKeep);
    EXPECT_EQ(parsed(yaml({"a", "b"}, 2, "versions: refuse\n")).versions, Versions::kRefuse);
    try {
        static_cast<void>(parsed(yaml({"a", "b"}, 2, "versions: kep\n")));
        FAIL() << "versions: kep accepted";
    } catch (const ConfigError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "g.yaml:7:11: unknown value 'kep' for 'versions' (known: warn, refuse, keep) "
                  "(did you mean 'keep'?)");
    }
    // Not part of the fingerprint: it says what to do with a change, not what is played.
    EXPECT_EQ(fingerprint(parsed(yaml({"a", "b"}))),
              fingerprint(parsed(yaml({"a", "b"}, 2, "versions: keep\n"))));
}

// ---- the store's record ----------------------------------------------------

TEST(GrowthStore, SegmentsVersionsAndRetirementAreRecordedWithoutTouchingAGame) {
    testing::TempDir dir;
    const auto path = dir.path() / "s.db";
    store::ResultsStore store(path);
    store::SegmentRow first{0, 2, 1, 0, 2, "", "fp0", {0, 1}};
    const auto id =
        store.create_tournament({"t", "connect4", "name: t\n", "fp0", 1, 2},
                                {{"a", "x", "arena1", "s1"}, {"b", "y", "arena1", ""}}, first);
    record::GameRecord game;
    game.game = "connect4";
    game.players[0] = "a";
    game.players[1] = "b";
    game.outcome = games::Outcome::kWin1;
    store.record_game(id, {0, 0, 0, 0, ""}, game);
    const auto games_before = query(path, "SELECT * FROM games");

    store::TournamentChange change;
    change.renamed = {{"a", "a@1"}};
    change.entering = {{"a", "x", "arena1", "s2", 2}, {"c", "z", "arena1", "s3"}};
    change.segments = {{1, 2, 1, 2, 6, "a new a; c enters", "fp1", {1, 2, 3}}};
    change.config_text = "name: t # 2\n";
    change.fingerprint = "fp1";
    change.total_games = 7;
    store.change_tournament(id, change);

    const auto bots = store.bots(id);
    ASSERT_EQ(bots.size(), 4u);
    EXPECT_EQ(bots[0].name, "a@1");
    EXPECT_EQ(bots[0].version, 1);
    EXPECT_TRUE(bots[0].retired);
    EXPECT_EQ(bots[2].name, "a");
    EXPECT_EQ(bots[2].version, 2);
    EXPECT_EQ(bots[2].sha256, "s2");
    EXPECT_FALSE(bots[1].retired);
    const auto segments = store.segments(id);
    ASSERT_EQ(segments.size(), 2u);
    EXPECT_EQ(segments[0].active, (std::vector<int>{0, 1}));
    EXPECT_EQ(segments[1].active, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(segments[1].first_game, 2);
    EXPECT_EQ(segments[1].games, 6);
    EXPECT_EQ(segments[1].description, "a new a; c enters");
    const auto t = store.find_tournament("t");
    EXPECT_EQ(t->spec.fingerprint, "fp1");
    EXPECT_EQ(t->spec.total_games, 7);
    EXPECT_EQ(t->spec.config_text, "name: t # 2\n");
    EXPECT_EQ(query_one(path,
                        "SELECT group_concat(name || ':' || IFNULL(retired, '-'), ' ') "
                        "FROM (SELECT * FROM bots ORDER BY id)"),
              "a@1:1 b:- a:- c:-");
    // The game row is as it was; it names the earlier version now.
    EXPECT_EQ(query(path, "SELECT * FROM games"), games_before);
    EXPECT_EQ(query_one(path, "SELECT first FROM game_list"), "a@1");

    // A name taken: refused, nothing changed.
    store::TournamentChange clash;
    clash.renamed = {{"b", "c"}};
    clash.fingerprint = "fp2";
    EXPECT_THROW(store.change_tournament(id, clash), store::StoreError);
    EXPECT_EQ(store.find_tournament("t")->spec.fingerprint, "fp1");
}

// A file of schema 6 is upgraded: its bots are version 1 and playing, and
// its tournaments have no segments (arena run reads the first from the
// fingerprint when one grows).
TEST(GrowthStore, ASchemaSixFileIsUpgraded) {
    testing::TempDir dir;
    const auto path = dir.path() / "old.db";
    {
        store::ResultsStore store(path);
        static_cast<void>(store.create_tournament({"t", "connect4", "name: t\n", "fp", 1, 2},
                                                  {{"a", "x", "arena1", ""}}));
    }
    {
        store::Database db(path);
        db.exec(
            "DROP TABLE segment_bots; DROP TABLE segments; ALTER TABLE bots DROP COLUMN retired; "
            "DROP TABLE league_versions; DROP TABLE league_users; DROP TABLE game_params; "
            "ALTER TABLE bots DROP COLUMN version; ALTER TABLE games DROP COLUMN first_control; "
            "ALTER TABLE games DROP COLUMN second_control; PRAGMA user_version = 6");
    }
    store::ResultsStore store(path);
    const auto t = store.find_tournament("t");
    ASSERT_TRUE(t);
    EXPECT_TRUE(store.segments(t->id).empty());
    const auto bots = store.bots(t->id);
    ASSERT_EQ(bots.size(), 1u);
    EXPECT_EQ(bots[0].version, 1);
    EXPECT_FALSE(bots[0].retired);
    EXPECT_EQ(query_one(path, "PRAGMA user_version"), std::to_string(store::kSchemaVersion));
}

// ---- arena run ------------------------------------------------------------

// Every row of `sql`, each value with its type, byte for byte.
std::string dump(const fs::path& db, const std::string& sql) {
    sqlite3* handle = nullptr;
    std::string out;
    if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(handle);
        ADD_FAILURE() << "cannot open " << db;
        return out;
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << sqlite3_errmsg(handle) << " in " << sql;
    } else {
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
                const int type = sqlite3_column_type(stmt, i);
                const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, i));
                const int n = sqlite3_column_bytes(stmt, i);
                out += std::to_string(type) + ":" + std::to_string(n) + ":";
                if (bytes != nullptr) out.append(bytes, static_cast<std::size_t>(n));
                out += '|';
            }
            out += '\n';
        }
    }
    sqlite3_finalize(stmt);
    sqlite3_close(handle);
    return out;
}

// The rows of the games with id <= `last`: the games, their moves, logs and
// transcripts.
std::string rows_of_games(const fs::path& db, std::int64_t last) {
    const std::string upto = std::to_string(last);
    return dump(db, "SELECT * FROM games WHERE id <= " + upto + " ORDER BY id") +
           dump(db, "SELECT * FROM moves WHERE game <= " + upto + " ORDER BY game, ply") +
           dump(db, "SELECT * FROM bot_logs WHERE game <= " + upto + " ORDER BY game, side") +
           dump(db, "SELECT * FROM transcripts WHERE game <= " + upto + " ORDER BY game, side");
}

class GrowthRun : public ::testing::Test {
  protected:
    struct Bot {
        std::string name, command;
    };

    // A tournament config in dir; `more` goes before `bots:`.
    std::string write(const std::string& name, const std::vector<Bot>& bots,
                      const std::string& schedule, const std::string& more = "") const {
        std::string t =
            "name: " + name + "\ngame: { name: connect4 }\ntime: { move_ms: 5000 }\n" +
            "schedule: " + schedule +
            "\nopenings: { file: " + (dir_.path() / "openings.txt").string() +
            ", order: sequential }\nseed: 7\nconcurrency: 2\ndatabase: " + db(name).string() +
            "\n" + more + "bots:\n";
        for (const auto& b : bots)
            t += "  - { name: " + b.name + ", command: '" + b.command + "' }\n";
        return dir_.write(name + ".yaml", t);
    }

    [[nodiscard]] fs::path db(const std::string& name) const {
        return dir_.path() / (name + ".db");
    }

    testing::ArenaResult arena(const std::vector<std::string>& args) const {
        testing::ArenaProcess p(dir_.path(), args);
        return p.wait();
    }

    static Bot random_bot(int i, const std::string& extra = "") {
        return {"bot" + std::to_string(i),
                bin("bots/misbehave") + " --seed " + std::to_string(i + 1) + extra};
    }
    static std::vector<Bot> random_bots(int n, const std::string& extra = "") {
        std::vector<Bot> bots;
        for (int i = 0; i < n; ++i)
            bots.push_back(random_bot(i, extra));
        return bots;
    }

    static std::int64_t count(const fs::path& db, const std::string& where = "1") {
        return std::stoll(query_one(db, "SELECT count(*) FROM game_list WHERE " + where));
    }

    void SetUp() override {
        // 49 distinct two-move openings, taken in file order.
        std::string lines;
        for (int a = 1; a <= 7; ++a)
            for (int b = 1; b <= 7; ++b)
                lines += std::to_string(a) + " " + std::to_string(b) + "\n";
        static_cast<void>(dir_.write("openings.txt", lines));
    }

    testing::TempDir dir_{"growth_test"};
};

TEST_F(GrowthRun, AFinishedRoundRobinGainsAFifthBotAndPlaysOnlyItsGames) {
    const auto path = write("rr", random_bots(4), "{ type: round-robin, games_per_pair: 2 }");
    auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto file = db("rr");
    ASSERT_EQ(count(file), 12);
    const std::string old_rows = rows_of_games(file, 12);
    const auto old_ids = query(file, "SELECT id, game_index FROM games ORDER BY id");

    static_cast<void>(write("rr", random_bots(5), "{ type: round-robin, games_per_pair: 2 }"));
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("arena run: tournament 'rr' changes: bot 'bot4' enters. 8 new games in "
                         "the schedule"),
              std::string::npos)
        << r.err;
    // Exactly 4 x games_per_pair new games, all of bot4, one colour-swapped
    // pair against each other bot, with the next openings of the file.
    EXPECT_EQ(count(file), 20);
    EXPECT_EQ(count(file, "game_index >= 12 AND (first = 'bot4' OR second = 'bot4')"), 8);
    EXPECT_EQ(count(file, "first = 'bot4' OR second = 'bot4'"), 8);
    const auto fresh = query(file,
                             "SELECT game_index, pair_index, game_in_pair, first, second, opening "
                             "FROM game_list WHERE game_index >= 12 ORDER BY game_index");
    ASSERT_EQ(fresh.size(), 8u);
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        const auto k = i / 2;
        const std::string other = "bot" + std::to_string(k);
        const std::string pair = std::to_string(6 + k);
        // Pairs 6..9 take lines 7..10 of the file: "1 7", "2 1", "2 2", "2 3".
        const std::string opening =
            std::to_string((6 + k) / 7 + 1) + " " + std::to_string((6 + k) % 7 + 1);
        EXPECT_EQ(fresh[i],
                  (std::vector<std::string>{std::to_string(12 + i), pair, std::to_string(i % 2),
                                            i % 2 == 0 ? other : "bot4",
                                            i % 2 == 0 ? "bot4" : other, opening}));
    }
    // The stored games are byte for byte what they were, with their ids and indices.
    EXPECT_EQ(rows_of_games(file, 12), old_rows);
    EXPECT_EQ(query(file, "SELECT id, game_index FROM games WHERE id <= 12 ORDER BY id"), old_ids);
    EXPECT_EQ(query_one(file, "SELECT total_games || ' ' || status FROM tournaments"),
              "20 finished");
    EXPECT_EQ(query(file,
                    "SELECT segment, first_game, games, description FROM segments "
                    "ORDER BY segment"),
              (testing::Rows{{"0", "0", "12", ""}, {"1", "12", "8", "bot 'bot4' enters"}}));

    // The standings include the new bot, with its 8 games.
    EXPECT_NE(r.out.find("rr: 20 of 20 games"), std::string::npos) << r.out;
    const auto standings = arena({"standings", file.string()});
    ASSERT_EQ(standings.status, 0) << standings.err;
    EXPECT_NE(standings.out.find("bot4"), std::string::npos) << standings.out;
    EXPECT_EQ(query_one(file, "SELECT games FROM standings WHERE bot = 'bot4'"), "8");
    EXPECT_EQ(query_one(file, "SELECT count(*) FROM ratings"), "5");

    // Run again: nothing changes, nothing is played.
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("changes:"), std::string::npos) << r.err;
    EXPECT_EQ(count(file), 20);
}

// A tournament stored before segments were recorded (schema 6, upgraded)
// grows too: its first segment is read from its fingerprint and written
// with the change.
TEST_F(GrowthRun, ATournamentStoredWithoutSegmentsGrows) {
    const auto path = write("legacy", random_bots(3), "{ type: round-robin, games_per_pair: 4 }");
    ASSERT_EQ(arena({"run", path}).status, 0);
    const auto file = db("legacy");
    {
        store::Database db(file, store::Database::Mode::kReadWrite);
        db.exec("DELETE FROM segment_bots; DELETE FROM segments");
    }
    ASSERT_EQ(count(file), 12);
    const std::string old_rows = rows_of_games(file, 12);
    // Unchanged, it runs as it is, and nothing is written.
    auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(query_one(file, "SELECT count(*) FROM segments"), "0");

    static_cast<void>(write("legacy", random_bots(4), "{ type: round-robin, games_per_pair: 4 }"));
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("changes: bot 'bot3' enters. 12 new games"), std::string::npos) << r.err;
    EXPECT_EQ(count(file), 24);
    EXPECT_EQ(rows_of_games(file, 12), old_rows);
    EXPECT_EQ(query(file,
                    "SELECT segment, games_per_pair, first_game, games FROM segments "
                    "ORDER BY segment"),
              (testing::Rows{{"0", "4", "0", "12"}, {"1", "4", "12", "12"}}));
    EXPECT_EQ(query_one(file, "SELECT group_concat(bot, ' ') FROM segment_bots WHERE segment = 0"),
              "1 2 3");
}

TEST_F(GrowthRun, GamesPerPairAndRoundsGrowButNeverShrink) {
    const auto bots = random_bots(3);
    const auto path = write("more", bots, "{ type: round-robin, games_per_pair: 2 }");
    ASSERT_EQ(arena({"run", path}).status, 0);
    const auto file = db("more");
    ASSERT_EQ(count(file), 6);
    const std::string old_rows = rows_of_games(file, 6);

    static_cast<void>(write("more", bots, "{ type: round-robin, games_per_pair: 4 }"));
    auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("changes: games_per_pair 2 -> 4. 6 new games"), std::string::npos)
        << r.err;
    EXPECT_EQ(count(file), 12);
    for (const auto& [a, b] : {std::pair("bot0", "bot1"), {"bot0", "bot2"}, {"bot1", "bot2"}}) {
        EXPECT_EQ(query_one(file, std::string("SELECT games FROM pair_results WHERE bot = '") + a +
                                      "' AND opponent = '" + b + "'"),
                  "4");
    }
    static_cast<void>(write("more", bots, "{ type: round-robin, games_per_pair: 4, rounds: 2 }"));
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count(file), 24);
    EXPECT_EQ(count(file, "round = 1"), 12);
    EXPECT_EQ(rows_of_games(file, 6), old_rows);

    // Fewer: refused, naming the change; nothing is written.
    static_cast<void>(write("more", bots, "{ type: round-robin, games_per_pair: 2, rounds: 2 }"));
    r = arena({"run", path});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no longer matches tournament 'more'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("games_per_pair was 4, now 2: a stored tournament's games_per_pair and "
                         "rounds may grow, not shrink"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(count(file), 24);
    EXPECT_EQ(query_one(file, "SELECT count(*) FROM segments"), "3");
    // So is another time control, naming it.
    auto text = testing::slurp(path);
    text.replace(text.find("move_ms: 5000"), 13, "move_ms: 4000");
    text.replace(text.find("games_per_pair: 2"), 17, "games_per_pair: 4");
    static_cast<void>(dir_.write("more.yaml", text));
    r = arena({"run", path});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("was 'time: move_ms=5000"), std::string::npos) << r.err;
}

TEST_F(GrowthRun, ARemovedBotRetiresAndStandingsActiveLeaveItOut) {
    const auto bots = random_bots(4, " --mode sleep --sleep-ms 10");
    const auto path = write("ret", bots, "{ type: round-robin, games_per_pair: 10 }");
    const auto file = db("ret");
    {
        testing::ArenaProcess p(dir_.path(), {"run", path});
        EXPECT_EQ(testing::stop_once_stored(p, file, 3, SIGINT).status, 130);
    }
    const auto bot3_games = count(file, "first = 'bot3' OR second = 'bot3'");
    ASSERT_LT(bot3_games, 30) << "bot3 played all its games before the run was stopped";
    const auto stored = count(file);
    const std::string old_rows = rows_of_games(file, stored);

    static_cast<void>(
        write("ret", {bots[0], bots[1], bots[2]}, "{ type: round-robin, games_per_pair: 10 }"));
    const auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("changes: bot 'bot3' retires. 0 new games in the schedule, " +
                         std::to_string(30 - bot3_games) +
                         " unplayed games of bots that play no more left out"),
              std::string::npos)
        << r.err;
    // bot3 played nothing more; every game among the others is there.
    EXPECT_EQ(count(file, "first = 'bot3' OR second = 'bot3'"), bot3_games);
    EXPECT_EQ(count(file, "first <> 'bot3' AND second <> 'bot3'"), 30);
    EXPECT_EQ(rows_of_games(file, stored), old_rows);
    EXPECT_EQ(query_one(file, "SELECT status || ' ' || total_games FROM tournaments"),
              "finished " + std::to_string(30 + bot3_games));
    EXPECT_EQ(query_one(file, "SELECT retired FROM bots WHERE name = 'bot3'"), "1");
    EXPECT_EQ(query_one(file, "SELECT count(*) FROM bots WHERE retired IS NULL"), "3");

    // Its games stay in the ratings, unless --active.
    auto all = arena({"standings", file.string()});
    ASSERT_EQ(all.status, 0) << all.err;
    EXPECT_NE(all.out.find("retired: bot3 (play no more; arena standings --active leaves them "
                           "out)"),
              std::string::npos)
        << all.out;
    EXPECT_NE(all.out.find("ret: " + std::to_string(30 + bot3_games) + " of"), std::string::npos)
        << all.out;
    const auto ratings = query_one(file, "SELECT count(*) FROM ratings");
    auto active = arena({"standings", file.string(), "--active"});
    ASSERT_EQ(active.status, 0) << active.err;
    EXPECT_EQ(active.out.find("bot3"), std::string::npos) << active.out;
    EXPECT_NE(active.out.find("ret: 30 of " + std::to_string(30 + bot3_games) +
                              " games, connect4, the games between bots that still play"),
              std::string::npos)
        << active.out;
    EXPECT_EQ(query_one(file, "SELECT count(*) FROM ratings"), ratings);  // left as they were
    const auto vs = arena({"standings", file.string(), "--active", "--vs", "bot0", "bot1"});
    EXPECT_EQ(vs.status, 2);
    EXPECT_NE(vs.err.find("--active and --vs cannot be combined"), std::string::npos) << vs.err;
}

TEST_F(GrowthRun, VersionsKeepEntersAChangedBotAsANewVersionAgainstEveryone) {
    // A bot whose executable is a file of the test's: its content changes.
    const auto mine = dir_.path() / "mine";
    fs::copy_file(bin("bots/random"), mine);
    const std::vector<Bot> bots = {
        {"mine", mine.string() + " --seed 5"}, random_bot(1), random_bot(2)};
    const std::string schedule = "{ type: round-robin, games_per_pair: 2 }";
    const auto path = write("ver", bots, schedule);
    auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto file = db("ver");
    ASSERT_EQ(count(file), 6);
    const std::string old_rows = rows_of_games(file, 6);
    std::ofstream(mine, std::ios::app) << "\nversion 2\n";  // the program still runs

    // The default: warned, as before, and nothing more is played.
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("warning: bot 'mine': its program (executable, or the files its "
                         "arguments name) has changed since the tournament started"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(count(file), 6);
    // versions: refuse
    static_cast<void>(write("ver", bots, schedule, "versions: refuse\n"));
    r = arena({"run", path});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("no longer matches tournament 'ver'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bot 'mine': its program"), std::string::npos) << r.err;
    EXPECT_EQ(count(file), 6);

    // versions: keep
    static_cast<void>(write("ver", bots, schedule, "versions: keep\n"));
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("changes: bot 'mine' has a new program: version 2 enters, and the 4 "
                         "games of version 1 stay under 'mine@1'. 4 new games in the schedule"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(count(file), 10);
    // The new version met everyone that still plays: bot1 and bot2, a pair each.
    EXPECT_EQ(count(file, "game_index >= 6 AND (first = 'mine' OR second = 'mine')"), 4);
    EXPECT_EQ(count(file, "first = 'mine@1' OR second = 'mine@1'"), 4);
    EXPECT_EQ(
        query(file, "SELECT name, version, IFNULL(retired, '-') FROM bots ORDER BY id"),
        (testing::Rows{
            {"mine@1", "1", "1"}, {"bot1", "1", "-"}, {"bot2", "1", "-"}, {"mine", "2", "-"}}));
    EXPECT_EQ(rows_of_games(file, 6), old_rows);
    // Both versions are rated, each on its own.
    EXPECT_NE(r.out.find("mine@1"), std::string::npos) << r.out;
    EXPECT_EQ(query_one(file, "SELECT count(*) FROM ratings"), "4");
    EXPECT_EQ(query_one(file, "SELECT games FROM standings WHERE bot = 'mine'"), "4");
    EXPECT_EQ(query_one(file, "SELECT games FROM standings WHERE bot = 'mine@1'"), "4");

    // The same program again: no new version.
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("changes:"), std::string::npos) << r.err;
    EXPECT_EQ(count(file), 10);
}

TEST_F(GrowthRun, ALateOpponentOfAnSprtGauntletGetsATestOfItsOwn) {
    const std::vector<Bot> bots = {random_bot(0), random_bot(1), random_bot(2), random_bot(3)};
    const std::string schedule =
        "{ type: gauntlet, challenger: bot0, games_per_pair: 8, sprt: { elo0: 0, elo1: 50, "
        "model: logistic } }";
    const auto path = write("gs", {bots[0], bots[1], bots[2]}, schedule);
    auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto file = db("gs");
    const auto before = count(file);
    EXPECT_EQ(r.out.find("Results of bot0 vs bot3"), std::string::npos);

    static_cast<void>(write("gs", bots, schedule));
    r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("changes: bot 'bot3' enters. 8 new games"), std::string::npos) << r.err;
    // Only the newcomer played; each opponent has its test, the new one too.
    EXPECT_EQ(count(file, "first <> 'bot3' AND second <> 'bot3'"), before);
    const auto late = count(file, "first = 'bot3' OR second = 'bot3'");
    EXPECT_GE(late, 2);
    EXPECT_LE(late, 8);
    for (const char* opponent : {"bot1", "bot2", "bot3"}) {
        EXPECT_NE(r.out.find(std::string("Results of bot0 vs ") + opponent + " (from bot0's side)"),
                  std::string::npos)
            << r.out;
    }
    EXPECT_EQ(query_one(file, "SELECT status FROM tournaments"), "finished");
}

// kill -9 while the extension is played: the next run plays each missing
// game once, and the results are those of a run that was never killed.
TEST_F(GrowthRun, KillNineDuringAnExtensionThenResumePlaysEachGameOnce) {
    const auto marker = testing::unique_marker();
    auto bots = random_bots(4);
    // A slow newcomer, marked so that its processes can be found (--flood-mb
    // is not used in this mode).
    const Bot slow{"bot4", bin("bots/misbehave") +
                               " --seed 5 --mode sleep --sleep-ms 40 --flood-mb " + marker};
    const std::string schedule = "{ type: round-robin, games_per_pair: 2 }";

    const auto reference = write("ref", bots, schedule);
    ASSERT_EQ(arena({"run", reference}).status, 0);
    auto all = bots;
    all.push_back(slow);
    static_cast<void>(write("ref", all, schedule));
    ASSERT_EQ(arena({"run", reference}).status, 0);
    const auto expected = query(db("ref"),
                                "SELECT game_index, first, second, result, opening FROM game_list "
                                "ORDER BY game_index");
    ASSERT_EQ(expected.size(), 20u);

    const auto path = write("cut", bots, schedule);
    ASSERT_EQ(arena({"run", path}).status, 0);
    static_cast<void>(write("cut", all, schedule));
    const auto file = db("cut");
    {
        testing::ArenaProcess p(dir_.path(), {"run", path});
        EXPECT_EQ(testing::stop_once_stored(p, file, 14).status, 128 + SIGKILL);
    }
    const auto partial = count(file);
    ASSERT_LT(partial, 20) << "the extension finished before it could be killed";
    EXPECT_EQ(query_one(file, "SELECT count(*) FROM segments"), "2");

    const auto r = arena({"run", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("changes:"), std::string::npos) << r.err;  // recorded by the killed run
    EXPECT_EQ(query(file,
                    "SELECT game_index, first, second, result, opening FROM game_list "
                    "ORDER BY game_index"),
              expected);
    EXPECT_EQ(query_one(file, "SELECT count(DISTINCT game_index) FROM games"), "20");
    EXPECT_EQ(testing::survivors(marker), std::vector<int>{});
}

}  // namespace
}  // namespace arena::tournament
