// The results database: what is written comes back exactly after the store
// is closed and reopened, the SQL views count what they should, a failed
// write leaves nothing behind, and files that are not ours (or are from a
// newer arena) are refused with a message naming them.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arena/store/league_users.hpp"
#include "arena/store/league_versions.hpp"
#include "arena/store/merge.hpp"
#include "arena/store/results_store.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using games::Outcome;
using record::GameRecord;
using record::MoveRecord;
using record::Termination;

// A fresh directory per test, removed afterwards.
class StoreTest : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "arena_store_test_XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        db_path_ = dir_ / "sub" / "results.db";  // the store creates "sub"
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    fs::path dir_;
    fs::path db_path_;
};

TournamentSpec spec(const std::string& name) {
    TournamentSpec s;
    s.name = name;
    s.game = "connect4";
    s.config_text = "[tournament]\nname = \"" + name + "\"\ngames = 2\n";
    s.fingerprint = "fp-" + name;
    s.seed = 18'000'000'000'000'000'000ULL;  // above INT64_MAX on purpose
    s.total_games = 12;
    return s;
}

std::vector<BotEntry> bot_entries(const std::vector<std::string>& names) {
    std::vector<BotEntry> bots;
    for (const auto& n : names)
        bots.push_back({n, "./bots/" + n + " --fast", "arena1", ""});
    return bots;
}

// 2024-05-01T12:34:56.789Z plus `offset`.
std::chrono::system_clock::time_point when(std::chrono::milliseconds offset = 0ms) {
    using namespace std::chrono;
    return sys_days{year{2024} / May / 1} + 12h + 34min + 56s + 789ms + offset;
}

GameRecord record(const std::string& first, const std::string& second, Outcome outcome,
                  Termination termination = Termination::kNormal, int plies = 4) {
    GameRecord r;
    r.game = "connect4";
    r.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
    r.players[0] = first;
    r.players[1] = second;
    for (int i = 0; i < plies; ++i) {
        MoveRecord m;
        m.move = std::to_string(1 + i % 7);
        m.player = 1 + i % 2;
        m.time = std::chrono::microseconds(1000 + i);
        m.by_arena = i == 0;
        if (i % 2 == 1) m.info = {"depth " + std::to_string(i), "score cp 12"};
        r.moves.push_back(m);
    }
    r.opening_plies = 1;
    r.outcome = outcome;
    r.termination = termination;
    if (termination != Termination::kNormal) {
        r.detail = "no move within 100 ms";
        r.fault_after = 100'250us;
    }
    r.started_at = when();
    r.duration = 1'234'567us;
    r.stderr_logs[0] = "first says hi\n";
    return r;
}

GameSlot slot(std::int64_t index, const std::string& opening = "") {
    GameSlot s;
    s.index = index;
    s.round = static_cast<int>(index / 4);
    s.pair = static_cast<int>(index / 2);
    s.game_in_pair = static_cast<int>(index % 2);
    s.opening = opening;
    return s;
}

std::int64_t count(Database& db, const std::string& table) {
    return db.query_int("SELECT count(*) FROM " + table);
}

// ------------------------------------------------------------------ round trip

TEST_F(StoreTest, EverythingComesBackAfterReopening) {
    std::int64_t tid = 0;
    std::int64_t timeout_game = 0;
    {
        ResultsStore store(db_path_);
        auto bots = bot_entries({"alpha", "beta"});
        bots[0].sha256 = std::string(64, 'a');
        tid = store.create_tournament(spec("cup"), bots);
        // Stored out of order: games() must still list them in schedule order.
        store.record_game(tid, slot(2, "4 4"), record("alpha", "beta", Outcome::kDraw));
        timeout_game = store.record_game(
            tid, slot(0, "3"), record("alpha", "beta", Outcome::kWin2, Termination::kTimeout, 5));
        store.record_game(tid, slot(1, "3"), record("beta", "alpha", Outcome::kWin1));
        store.set_status(tid, "finished");
        store.save_ratings(tid, {{"beta", 35.5, 20.25}, {"alpha", -35.5, 20.25}});
    }  // closed

    ResultsStore store(db_path_);
    const auto t = store.find_tournament("cup");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->id, tid);
    EXPECT_EQ(t->spec.name, "cup");
    EXPECT_EQ(t->spec.game, "connect4");
    EXPECT_EQ(t->spec.config_text, spec("cup").config_text);
    EXPECT_EQ(t->spec.fingerprint, "fp-cup");
    EXPECT_EQ(t->spec.seed, 18'000'000'000'000'000'000ULL);
    EXPECT_EQ(t->spec.total_games, 12);
    EXPECT_EQ(t->status, "finished");
    EXPECT_EQ(t->created_at.size(), 24u) << t->created_at;  // 2024-05-01T12:34:56.789Z
    EXPECT_EQ(t->created_at.back(), 'Z');
    EXPECT_EQ(t->finished_at.size(), 24u) << t->finished_at;
    EXPECT_FALSE(store.find_tournament("nope").has_value());
    ASSERT_EQ(store.tournaments().size(), 1u);
    EXPECT_EQ(store.tournaments()[0].spec.name, "cup");

    const auto bots = store.bots(tid);
    ASSERT_EQ(bots.size(), 2u);
    EXPECT_EQ(bots[0].name, "alpha");
    EXPECT_EQ(bots[0].command, "./bots/alpha --fast");
    EXPECT_EQ(bots[0].protocol, "arena1");
    EXPECT_EQ(bots[0].sha256, std::string(64, 'a'));
    EXPECT_EQ(bots[1].name, "beta");
    EXPECT_EQ(bots[1].sha256, "");

    EXPECT_EQ(store.recorded_indices(tid), (std::vector<std::int64_t>{0, 1, 2}));

    const auto list = store.games(tid);
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0].slot.index, 0);
    EXPECT_EQ(list[1].slot.index, 1);
    EXPECT_EQ(list[2].slot.index, 2);
    const auto& g = list[0];
    EXPECT_EQ(g.id, timeout_game);
    EXPECT_EQ(g.slot.round, 0);
    EXPECT_EQ(g.slot.pair, 0);
    EXPECT_EQ(g.slot.game_in_pair, 0);
    EXPECT_EQ(g.slot.opening, "3");
    EXPECT_EQ(g.first, "alpha");
    EXPECT_EQ(g.second, "beta");
    EXPECT_EQ(g.result, "0-1");
    EXPECT_EQ(g.termination, "timeout");
    EXPECT_EQ(g.detail, "no move within 100 ms");
    EXPECT_EQ(g.plies, 5);
    EXPECT_EQ(g.duration_us, 1'234'567);
    EXPECT_EQ(g.started_at, "2024-05-01T12:34:56.789Z");
    EXPECT_EQ(list[1].first, "beta");
    EXPECT_EQ(list[1].result, "1-0");
    EXPECT_EQ(list[2].result, "1/2-1/2");
    EXPECT_EQ(list[2].slot.opening, "4 4");
    EXPECT_EQ(store.games(tid, std::string("beta")).size(), 3u);
    EXPECT_TRUE(store.games(tid, std::string("gamma")).empty());

    const auto stored = store.load_game(timeout_game);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->summary.id, timeout_game);
    EXPECT_EQ(stored->summary.result, "0-1");
    EXPECT_EQ(stored->game, "connect4");
    EXPECT_EQ(stored->params, "rows=6 cols=7 connect=4");
    const auto original = record("alpha", "beta", Outcome::kWin2, Termination::kTimeout, 5);
    ASSERT_EQ(stored->moves.size(), original.moves.size());
    for (std::size_t i = 0; i < original.moves.size(); ++i) {
        const auto& m = stored->moves[i];
        EXPECT_EQ(m.ply, static_cast<int>(i) + 1);
        EXPECT_EQ(m.side, original.moves[i].player);
        EXPECT_EQ(m.move, original.moves[i].move);
        EXPECT_EQ(m.time_us, original.moves[i].time.count());
        EXPECT_EQ(m.by_arena, original.moves[i].by_arena);
        EXPECT_EQ(m.info, original.moves[i].info);
    }
    EXPECT_EQ(stored->stderr_logs[0], "first says hi\n");
    EXPECT_EQ(stored->stderr_logs[1], "");
    EXPECT_FALSE(store.load_game(timeout_game + 100).has_value());

    const auto ratings = store.ratings(tid);
    ASSERT_EQ(ratings.size(), 2u);
    EXPECT_EQ(ratings[0].bot, "beta");
    EXPECT_EQ(ratings[0].elo, 35.5);
    EXPECT_EQ(ratings[0].error, 20.25);
    EXPECT_EQ(ratings[1].bot, "alpha");
    EXPECT_EQ(ratings[1].elo, -35.5);

    // Columns the API does not return, read straight from the file.
    Database db(db_path_);
    auto stmt = db.prepare(
        "SELECT winner, ended_at, fault_after_us, opening_plies FROM games WHERE id = ?");
    auto q = stmt.use();
    q.bind(timeout_game);
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_int(0), 2);
    EXPECT_EQ(q.column_text(1), "2024-05-01T12:34:58.023Z");  // + 1.234567 s, floored
    EXPECT_EQ(q.column_int64(2), 100'250);
    EXPECT_EQ(q.column_int(3), 1);
}

TEST_F(StoreTest, RatingsAreReplacedAsAWhole) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("cup"), bot_entries({"a", "b", "c"}));
    store.save_ratings(tid, {{"a", 10, 5}, {"b", -10, 5}});
    store.save_ratings(tid, {{"c", 1, 2}});
    const auto r = store.ratings(tid);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].bot, "c");
    EXPECT_THROW(store.save_ratings(tid, {{"zed", 1, 2}}), StoreError);
    EXPECT_THROW(store.save_ratings(tid, {{"a", 1, 2}, {"a", 3, 4}}), StoreError);
    EXPECT_EQ(store.ratings(tid).size(), 1u);  // the failed saves changed nothing
}

TEST_F(StoreTest, StatusAndFinishedAt) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    EXPECT_EQ(store.find_tournament("cup")->status, "running");
    EXPECT_EQ(store.find_tournament("cup")->finished_at, "");
    store.set_status(tid, "interrupted");
    EXPECT_EQ(store.find_tournament("cup")->status, "interrupted");
    EXPECT_EQ(store.find_tournament("cup")->finished_at, "");
    store.set_status(tid, "finished");
    EXPECT_NE(store.find_tournament("cup")->finished_at, "");
    EXPECT_THROW(store.set_status(tid + 1, "finished"), StoreError);
}

TEST_F(StoreTest, TournamentNamesAndBotNamesAreUnique) {
    ResultsStore store(db_path_);
    store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    try {
        store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        FAIL() << "duplicate tournament accepted";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("tournament 'cup' already exists"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(store.create_tournament(spec("other"), bot_entries({"a", "a"})), StoreError);
    EXPECT_FALSE(store.find_tournament("other").has_value());  // rolled back with its bots
    EXPECT_EQ(store.tournaments().size(), 1u);
}

// --------------------------------------------------------------------- views

// A: 2 W (one by a crash of C), 1 D, 1 L (timeout); B: 1 W (illegal move of C),
// 2 D, 1 L; C: 1 W, 1 D, 2 L (crash, illegal); D: no games; E, F in another tournament.
class ViewsTest : public StoreTest {
  protected:
    void SetUp() override {
        StoreTest::SetUp();
        ResultsStore store(db_path_);
        const auto t = store.create_tournament(spec("views"), bot_entries({"A", "B", "C", "D"}));
        store.record_game(t, slot(0), record("A", "B", Outcome::kWin1));
        store.record_game(t, slot(1), record("B", "A", Outcome::kDraw));
        store.record_game(t, slot(2), record("A", "C", Outcome::kWin2, Termination::kTimeout));
        store.record_game(t, slot(3), record("C", "A", Outcome::kWin2, Termination::kCrash));
        store.record_game(t, slot(4), record("B", "C", Outcome::kWin1, Termination::kIllegal));
        store.record_game(t, slot(5), record("C", "B", Outcome::kDraw));
        store.save_ratings(t, {{"A", 50, 10}, {"B", 0, 10}});
        // The same names in another tournament must not mix in.
        const auto other = store.create_tournament(spec("other"), bot_entries({"A", "B"}));
        store.record_game(other, slot(0), record("A", "B", Outcome::kWin2));
    }
};

TEST_F(ViewsTest, Standings) {
    Database db(db_path_);
    auto stmt = db.prepare(
        "SELECT bot, games, wins, draws, losses, points, score, win_rate, "
        "first_wins, first_draws, first_losses, second_wins, second_draws, second_losses, "
        "timeouts, crashes, faults, elo, error "
        "FROM standings WHERE tournament = ? ORDER BY bot");
    auto q = stmt.use();
    q.bind("views");
    struct Expected {
        std::string bot;
        int games, wins, draws, losses;
        double points;
        int fw, fd, fl, sw, sd, sl, timeouts, crashes, faults;
    };
    const Expected expected[] = {
        {"A", 4, 2, 1, 1, 2.5, 1, 0, 1, 1, 1, 0, 1, 0, 1},
        {"B", 4, 1, 2, 1, 2.0, 1, 1, 0, 0, 1, 1, 0, 0, 0},
        {"C", 4, 1, 1, 2, 1.5, 0, 1, 1, 1, 0, 1, 0, 1, 2},
        {"D", 0, 0, 0, 0, 0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    };
    for (const auto& e : expected) {
        ASSERT_TRUE(q.step()) << e.bot;
        SCOPED_TRACE(e.bot);
        EXPECT_EQ(q.column_text(0), e.bot);
        EXPECT_EQ(q.column_int(1), e.games);
        EXPECT_EQ(q.column_int(2), e.wins);
        EXPECT_EQ(q.column_int(3), e.draws);
        EXPECT_EQ(q.column_int(4), e.losses);
        EXPECT_DOUBLE_EQ(q.column_double(5), e.points);
        if (e.games > 0) {
            EXPECT_DOUBLE_EQ(q.column_double(6), e.points / e.games);
            EXPECT_DOUBLE_EQ(q.column_double(7), 1.0 * e.wins / e.games);
        } else {
            EXPECT_TRUE(q.is_null(6));  // no games, no score
            EXPECT_TRUE(q.is_null(7));
        }
        EXPECT_EQ(q.column_int(8), e.fw);
        EXPECT_EQ(q.column_int(9), e.fd);
        EXPECT_EQ(q.column_int(10), e.fl);
        EXPECT_EQ(q.column_int(11), e.sw);
        EXPECT_EQ(q.column_int(12), e.sd);
        EXPECT_EQ(q.column_int(13), e.sl);
        EXPECT_EQ(q.column_int(14), e.timeouts);
        EXPECT_EQ(q.column_int(15), e.crashes);
        EXPECT_EQ(q.column_int(16), e.faults);
    }
    EXPECT_FALSE(q.step());
}

TEST_F(ViewsTest, StandingsCarryRatingsWhenPresent) {
    Database db(db_path_);
    auto stmt =
        db.prepare("SELECT bot, elo, error FROM standings WHERE tournament = ? ORDER BY bot");
    auto q = stmt.use();
    q.bind("views");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_text(0), "A");
    EXPECT_EQ(q.column_double(1), 50.0);
    EXPECT_EQ(q.column_double(2), 10.0);
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_double(1), 0.0);
    EXPECT_FALSE(q.is_null(1));
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_text(0), "C");
    EXPECT_TRUE(q.is_null(1));  // not rated: still listed
    EXPECT_TRUE(q.is_null(2));
}

TEST_F(ViewsTest, StandingsOfTheOtherTournament) {
    Database db(db_path_);
    auto stmt = db.prepare(
        "SELECT bot, games, wins, losses FROM standings WHERE tournament = ? ORDER BY bot");
    auto q = stmt.use();
    q.bind("other");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_text(0), "A");
    EXPECT_EQ(q.column_int(1), 1);
    EXPECT_EQ(q.column_int(2), 0);
    EXPECT_EQ(q.column_int(3), 1);
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_text(0), "B");
    EXPECT_EQ(q.column_int(2), 1);
    EXPECT_FALSE(q.step());
}

TEST_F(ViewsTest, PairResults) {
    Database db(db_path_);
    auto stmt = db.prepare(
        "SELECT bot, opponent, games, wins, draws, losses, score, first_wins, first_draws, "
        "first_losses, second_wins, second_draws, second_losses "
        "FROM pair_results WHERE tournament = ? ORDER BY bot, opponent");
    auto q = stmt.use();
    q.bind("views");
    struct Expected {
        std::string bot, opponent;
        int games, wins, draws, losses;
        double score;
        int fw, fd, fl, sw, sd, sl;
    };
    const Expected expected[] = {
        {"A", "B", 2, 1, 1, 0, 0.75, 1, 0, 0, 0, 1, 0},
        {"A", "C", 2, 1, 0, 1, 0.5, 0, 0, 1, 1, 0, 0},
        {"B", "A", 2, 0, 1, 1, 0.25, 0, 1, 0, 0, 0, 1},
        {"B", "C", 2, 1, 1, 0, 0.75, 1, 0, 0, 0, 1, 0},
        {"C", "A", 2, 1, 0, 1, 0.5, 0, 0, 1, 1, 0, 0},
        {"C", "B", 2, 0, 1, 1, 0.25, 0, 1, 0, 0, 0, 1},
    };
    for (const auto& e : expected) {
        ASSERT_TRUE(q.step()) << e.bot << " vs " << e.opponent;
        SCOPED_TRACE(e.bot + " vs " + e.opponent);
        EXPECT_EQ(q.column_text(0), e.bot);
        EXPECT_EQ(q.column_text(1), e.opponent);
        EXPECT_EQ(q.column_int(2), e.games);
        EXPECT_EQ(q.column_int(3), e.wins);
        EXPECT_EQ(q.column_int(4), e.draws);
        EXPECT_EQ(q.column_int(5), e.losses);
        EXPECT_DOUBLE_EQ(q.column_double(6), e.score);
        EXPECT_EQ(q.column_int(7), e.fw);
        EXPECT_EQ(q.column_int(8), e.fd);
        EXPECT_EQ(q.column_int(9), e.fl);
        EXPECT_EQ(q.column_int(10), e.sw);
        EXPECT_EQ(q.column_int(11), e.sd);
        EXPECT_EQ(q.column_int(12), e.sl);
    }
    EXPECT_FALSE(q.step());
}

TEST_F(ViewsTest, Endings) {
    Database db(db_path_);
    auto stmt = db.prepare(
        "SELECT bot, termination, games, wins, draws, losses FROM endings "
        "WHERE tournament = ? ORDER BY bot, termination");
    auto q = stmt.use();
    q.bind("views");
    struct Expected {
        std::string bot, termination;
        int games, wins, draws, losses;
    };
    const Expected expected[] = {
        {"A", "crash", 1, 1, 0, 0},   {"A", "normal", 2, 1, 1, 0}, {"A", "timeout", 1, 0, 0, 1},
        {"B", "illegal", 1, 1, 0, 0}, {"B", "normal", 3, 0, 2, 1}, {"C", "crash", 1, 0, 0, 1},
        {"C", "illegal", 1, 0, 0, 1}, {"C", "normal", 1, 0, 1, 0}, {"C", "timeout", 1, 1, 0, 0},
    };
    for (const auto& e : expected) {
        ASSERT_TRUE(q.step()) << e.bot << " " << e.termination;
        SCOPED_TRACE(e.bot + " " + e.termination);
        EXPECT_EQ(q.column_text(0), e.bot);
        EXPECT_EQ(q.column_text(1), e.termination);
        EXPECT_EQ(q.column_int(2), e.games);
        EXPECT_EQ(q.column_int(3), e.wins);
        EXPECT_EQ(q.column_int(4), e.draws);
        EXPECT_EQ(q.column_int(5), e.losses);
    }
    EXPECT_FALSE(q.step());
}

TEST_F(ViewsTest, GameListAndCascadingDelete) {
    Database db(db_path_);
    db.exec("PRAGMA foreign_keys = ON");
    EXPECT_EQ(db.query_text("SELECT first || '-' || second || ' ' || result FROM game_list "
                            "WHERE tournament = 'views' AND game_index = 3"),
              "C-A 0-1");
    // Deleting a tournament takes everything of it, and nothing else.
    const auto other_moves = db.query_int(
        "SELECT count(*) FROM moves JOIN games ON games.id = moves.game "
        "JOIN tournaments t ON t.id = games.tournament WHERE t.name = 'other'");
    db.exec("DELETE FROM tournaments WHERE name = 'views'");
    EXPECT_EQ(count(db, "games"), 1);
    EXPECT_EQ(count(db, "bots"), 2);
    EXPECT_EQ(count(db, "ratings"), 0);
    EXPECT_EQ(count(db, "moves"), other_moves);
    EXPECT_EQ(count(db, "bot_logs"), 1);
}

// -------------------------------------------------------- failed writes roll back

TEST_F(StoreTest, DuplicateSlotRefusedAndNothingChanges) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("Spring 'Cup'"), bot_entries({"a", "b"}));
    store.record_game(tid, slot(3), record("a", "b", Outcome::kWin1, Termination::kNormal, 6));
    try {
        store.record_game(tid, slot(3), record("b", "a", Outcome::kDraw, Termination::kNormal, 9));
        FAIL() << "duplicate slot accepted";
    } catch (const StoreError& e) {
        EXPECT_NE(
            std::string(e.what()).find("game 3 of tournament 'Spring 'Cup'' is already stored"),
            std::string::npos)
            << e.what();
    }
    Database db(db_path_);
    EXPECT_EQ(count(db, "games"), 1);
    EXPECT_EQ(count(db, "moves"), 6);
    EXPECT_EQ(count(db, "bot_logs"), 1);
    ASSERT_EQ(store.games(tid).size(), 1u);
    EXPECT_EQ(store.games(tid)[0].result, "1-0");
    // The store is still usable afterwards.
    store.record_game(tid, slot(4), record("b", "a", Outcome::kDraw));
    EXPECT_EQ(store.recorded_indices(tid), (std::vector<std::int64_t>{3, 4}));
}

TEST_F(StoreTest, AFailingMoveInsertLeavesNoPartialGame) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    auto bad = record("a", "b", Outcome::kWin1, Termination::kNormal, 6);
    bad.moves[4].player = 3;  // the game row and four moves go in, then a CHECK fails
    EXPECT_THROW(store.record_game(tid, slot(0), bad), StoreError);
    Database db(db_path_);
    EXPECT_EQ(count(db, "games"), 0);
    EXPECT_EQ(count(db, "moves"), 0);
    EXPECT_EQ(count(db, "bot_logs"), 0);
    EXPECT_TRUE(store.recorded_indices(tid).empty());
    // The slot is free for the real game.
    store.record_game(tid, slot(0), record("a", "b", Outcome::kWin1));
    EXPECT_EQ(count(db, "games"), 1);
}

// Moves are inserted many rows per statement: every count, around and past
// one statement's rows, comes back whole and in order.
TEST_F(StoreTest, GamesOfAnyLengthComeBackMoveForMove) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("long"), bot_entries({"a", "b"}));
    const std::vector<int> lengths = {0, 1, 2, 31, 32, 33, 64, 70, 225};
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        auto r = record("a", "b", Outcome::kDraw, Termination::kNormal, lengths[i]);
        for (int ply = 0; ply < lengths[i]; ++ply)
            r.moves[ply].move = "m" + std::to_string(i) + "-" + std::to_string(ply);
        store.record_game(tid, slot(static_cast<std::int64_t>(i)), r);
    }
    const auto list = store.games(tid);
    ASSERT_EQ(list.size(), lengths.size());
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        const auto g = store.load_game(list[i].id);
        ASSERT_TRUE(g.has_value());
        ASSERT_EQ(g->moves.size(), static_cast<std::size_t>(lengths[i])) << "game " << i;
        for (int ply = 0; ply < lengths[i]; ++ply) {
            const auto& m = g->moves[ply];
            EXPECT_EQ(m.ply, ply + 1);
            EXPECT_EQ(m.move, "m" + std::to_string(i) + "-" + std::to_string(ply));
            EXPECT_EQ(m.side, 1 + ply % 2);
            EXPECT_EQ(m.time_us, 1000 + ply);
            EXPECT_EQ(m.by_arena, ply == 0);
            if (ply % 2 == 1) {
                EXPECT_EQ(m.info, (std::vector<std::string>{"depth " + std::to_string(ply),
                                                            "score cp 12"}));
            } else {
                EXPECT_TRUE(m.info.empty());
            }
        }
    }
    Database db(db_path_);
    EXPECT_EQ(count(db, "moves"), 0 + 1 + 2 + 31 + 32 + 33 + 64 + 70 + 225);
}

// A constraint that fails in a later statement of a long game still takes
// the whole game back.
TEST_F(StoreTest, AFailingMoveInALaterInsertLeavesNoPartialGame) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    auto bad = record("a", "b", Outcome::kWin1, Termination::kNormal, 80);
    bad.moves[70].player = 3;
    EXPECT_THROW(store.record_game(tid, slot(0), bad), StoreError);
    Database db(db_path_);
    EXPECT_EQ(count(db, "games"), 0);
    EXPECT_EQ(count(db, "moves"), 0);
}

TEST_F(StoreTest, UnknownBotOrMissingResultRefused) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    try {
        store.record_game(tid, slot(0), record("a", "zed", Outcome::kWin1));
        FAIL() << "unknown bot accepted";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("has no bot 'zed'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(store.record_game(tid, slot(0), record("a", "b", Outcome::kOngoing)), StoreError);
    EXPECT_TRUE(store.recorded_indices(tid).empty());
}

// ------------------------------------------------------------ opening files

TEST_F(StoreTest, ResultCountsGroupGamesByPairResultAndEnding) {
    ResultsStore store(db_path_);
    const auto t = store.create_tournament(spec("cup"), bot_entries({"a", "b", "c"}));
    const auto other = store.create_tournament(spec("other"), bot_entries({"b", "a"}));
    store.record_game(t, slot(0), record("a", "b", Outcome::kWin1));
    store.record_game(t, slot(1), record("a", "b", Outcome::kWin1));
    store.record_game(t, slot(2), record("b", "a", Outcome::kDraw));
    store.record_game(t, slot(3), record("c", "a", Outcome::kWin2, Termination::kTimeout));
    store.record_game(other, slot(0), record("b", "a", Outcome::kWin1));
    auto counts = store.result_counts(t);
    std::sort(counts.begin(), counts.end(), [](const ResultCount& x, const ResultCount& y) {
        return std::tie(x.first, x.second) < std::tie(y.first, y.second);
    });
    ASSERT_EQ(counts.size(), 3u);
    // Positions in bots(): a = 0, b = 1, c = 2.
    EXPECT_EQ(counts[0].first, 0);
    EXPECT_EQ(counts[0].second, 1);
    EXPECT_EQ(counts[0].outcome, Outcome::kWin1);
    EXPECT_EQ(counts[0].games, 2);
    EXPECT_EQ(counts[1].first, 1);
    EXPECT_EQ(counts[1].outcome, Outcome::kDraw);
    EXPECT_EQ(counts[1].games, 1);
    EXPECT_EQ(counts[2].first, 2);
    EXPECT_EQ(counts[2].second, 0);
    EXPECT_EQ(counts[2].outcome, Outcome::kWin2);
    EXPECT_EQ(counts[2].termination, Termination::kTimeout);
    ASSERT_EQ(store.result_counts(other).size(), 1u);
    EXPECT_EQ(store.result_counts(other)[0].first, 0);  // b is the other's first bot
}

// The standings view as schemas 1 to 3 defined it.
constexpr const char* kStandingsViewV1 = R"sql(
CREATE VIEW standings AS
SELECT s.tournament_id, s.tournament, s.bot_id, s.bot,
       COUNT(s.game) AS games,
       IFNULL(SUM(s.won), 0) AS wins,
       IFNULL(SUM(s.drawn), 0) AS draws,
       IFNULL(SUM(s.lost), 0) AS losses,
       IFNULL(SUM(s.won), 0) + 0.5 * IFNULL(SUM(s.drawn), 0) AS points,
       (IFNULL(SUM(s.won), 0) + 0.5 * IFNULL(SUM(s.drawn), 0)) / COUNT(s.game) AS score,
       1.0 * SUM(s.won) / COUNT(s.game) AS win_rate,
       IFNULL(SUM(s.side = 1 AND s.won), 0) AS first_wins,
       IFNULL(SUM(s.side = 1 AND s.drawn), 0) AS first_draws,
       IFNULL(SUM(s.side = 1 AND s.lost), 0) AS first_losses,
       IFNULL(SUM(s.side = 2 AND s.won), 0) AS second_wins,
       IFNULL(SUM(s.side = 2 AND s.drawn), 0) AS second_draws,
       IFNULL(SUM(s.side = 2 AND s.lost), 0) AS second_losses,
       IFNULL(SUM(s.lost AND s.termination = 'timeout'), 0) AS timeouts,
       IFNULL(SUM(s.lost AND s.termination = 'crash'), 0) AS crashes,
       IFNULL(SUM(s.lost AND s.termination <> 'normal'), 0) AS faults,
       r.elo, r.error
  FROM bot_games AS s
  LEFT JOIN ratings AS r ON r.bot = s.bot_id
 GROUP BY s.tournament_id, s.tournament, s.bot_id;
)sql";

// Turns a file this arena made into the file an arena of schema 10 made: no
// league_versions table (schema 11).
void back_to_version_10(Database& db) {
    db.exec("DROP TABLE league_versions; PRAGMA user_version = 10");
}

// Turns a file this arena made into the file an arena of schema 9 made: no
// league_users table (schema 10).
void back_to_version_9(Database& db) {
    back_to_version_10(db);
    db.exec("DROP TABLE league_users; PRAGMA user_version = 9");
}

// Turns a file this arena made into the file an arena of schema 8 made: no
// game_params table (schema 9).
void back_to_version_8(Database& db) {
    back_to_version_9(db);
    db.exec("DROP TABLE game_params; PRAGMA user_version = 8");
}

// Turns a file this arena made into the file an arena of schema 7 made: no
// control columns (schema 8).
void back_to_version_7(Database& db) {
    back_to_version_8(db);
    db.exec(
        "ALTER TABLE games DROP COLUMN first_control;"
        "ALTER TABLE games DROP COLUMN second_control;"
        "PRAGMA user_version = 7");
}

// Turns a file this arena made into the file an arena of schema 3 made: no
// peak memory columns (schema 6), no transcripts table (schema 5), no
// moves_hash column, the standings index without it, the old standings view.
void back_to_version_3(Database& db) {
    back_to_version_7(db);
    db.exec(
        "DROP TABLE segment_bots;"
        "DROP TABLE segments;"
        "ALTER TABLE bots DROP COLUMN retired;"
        "ALTER TABLE bots DROP COLUMN version;"
        "ALTER TABLE games DROP COLUMN first_peak_memory;"
        "ALTER TABLE games DROP COLUMN second_peak_memory;"
        "DROP TABLE transcripts;"
        "DROP INDEX games_by_result;"
        "CREATE INDEX games_by_result ON games (tournament, first_bot, second_bot, result, "
        "termination);"
        "ALTER TABLE games DROP COLUMN moves_hash;"
        "DROP VIEW standings;");
    db.exec(kStandingsViewV1);
    db.exec("PRAGMA user_version = 3");
}

// A schema-9 file (before league users) is upgraded in place: its games
// stay, and the league_users table is there, empty, and takes users.
TEST_F(StoreTest, VersionNineDatabaseIsUpgradedKeepingItsGames) {
    {
        ResultsStore store(db_path_);
        const auto t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        store.record_game(t, slot(0), record("a", "b", Outcome::kWin1));
        store.record_game(t, slot(1), record("b", "a", Outcome::kDraw));
    }
    {
        Database db(db_path_);
        back_to_version_9(db);
        EXPECT_EQ(db.query_int("SELECT count(*) FROM sqlite_schema WHERE name = 'league_users'"),
                  0);
    }
    EXPECT_EQ(stored_schema_version(db_path_), 9);
    {
        ResultsStore store(db_path_);
        const auto t = store.find_tournament("cup");
        ASSERT_TRUE(t.has_value());
        const auto games = store.games(t->id);
        ASSERT_EQ(games.size(), 2u);
        EXPECT_EQ(games[0].result, "1-0");
        EXPECT_EQ(games[1].result, "1/2-1/2");
    }
    Database db(db_path_);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("SELECT count(*) FROM league_users"), 0);
    db.exec("INSERT INTO league_users (league, name, token_hash) VALUES ('cup', 'ann', 'h')");
    EXPECT_EQ(db.query_text("SELECT organiser || ' ' || (disabled_at IS NULL) || ' ' || "
                            "(created_at LIKE '20%Z') FROM league_users"),
              "0 1 1");
}

// A schema-10 file (before league versions) is upgraded in place: its users
// stay, and league_versions is there and numbers each participant's uploads.
TEST_F(StoreTest, VersionTenDatabaseIsUpgradedAndNumbersLeagueVersions) {
    {
        LeagueUsers users(db_path_, "cup");
        ASSERT_TRUE(users.add("ann", "h", false));
    }
    {
        Database db(db_path_);
        back_to_version_10(db);
    }
    EXPECT_EQ(stored_schema_version(db_path_), 10);
    LeagueVersions versions(db_path_, "cup");
    EXPECT_EQ(stored_schema_version(db_path_), kSchemaVersion);
    EXPECT_EQ(LeagueUsers(db_path_, "cup").list().size(), 1u);
    const auto v1 = versions.add("ann", "bot.py", "script", 120);
    const auto v2 = versions.add("ann", "bot.zip", "archive", 900);
    const auto other = versions.add("bob", "bot", "binary", 10);
    EXPECT_EQ(v1.version, 1);
    EXPECT_EQ(v2.version, 2);
    EXPECT_EQ(other.version, 1);
    EXPECT_EQ(v1.status, "checking");
    EXPECT_EQ(versions.checking().size(), 3u);
    versions.set_checked(v1.id, false, "failed: start-up", "the log");
    versions.set_checked(v2.id, true, "passes", "ok log");
    const auto found = versions.find("ann", 1);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->status, "failed");
    EXPECT_EQ(found->check_log, "the log");
    EXPECT_FALSE(found->checked_at.empty());
    EXPECT_FALSE(versions.find("bob", 2));
    const auto anns = versions.list("ann");
    ASSERT_EQ(anns.size(), 2u);
    EXPECT_EQ(anns[0].version, 2);  // newest first
    EXPECT_EQ(versions.list().size(), 3u);
    EXPECT_EQ(versions.count_since("ann", "2000-01-01T00:00:00Z"), 2);
    EXPECT_EQ(versions.count_since("ann", "2999-01-01T00:00:00Z"), 0);
    // Another league in the same file has its own numbers.
    EXPECT_EQ(LeagueVersions(db_path_, "other").add("ann", "bot.py", "script", 1).version, 1);
}

// A schema-7 file (before each side's control was kept) is upgraded: its
// games read with no control known, and a new game keeps its sides'; a bot
// is shown with what its latest game says.
TEST_F(StoreTest, VersionSevenDatabaseIsUpgradedAndKeepsEachSidesControlFromThenOn) {
    {
        ResultsStore store(db_path_);
        const auto t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        store.record_game(t, slot(0), record("a", "b", Outcome::kWin1));
    }
    {
        Database db(db_path_);
        back_to_version_7(db);
    }
    ResultsStore store(db_path_);
    const auto t = store.find_tournament("cup");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(store.bot_controls(t->id), (std::vector<std::string>{"", ""}));
    auto r = record("b", "a", Outcome::kDraw);
    r.controls[0] = "move_ms=500 tolerance_ms=10 depth=8";
    r.controls[1] = "move_ms=50 tolerance_ms=10";
    store.record_game(t->id, slot(1), r);
    const auto games = store.games(t->id);
    ASSERT_EQ(games.size(), 2u);
    const auto old_game = store.load_game(games[0].id);
    const auto new_game = store.load_game(games[1].id);
    ASSERT_TRUE(old_game && new_game);
    EXPECT_EQ(old_game->controls[0], "");
    EXPECT_EQ(new_game->controls[0], "move_ms=500 tolerance_ms=10 depth=8");
    EXPECT_EQ(new_game->controls[1], "move_ms=50 tolerance_ms=10");
    // In the order of bots(): a, then b.
    EXPECT_EQ(store.bot_controls(t->id),
              (std::vector<std::string>{"move_ms=50 tolerance_ms=10",
                                        "move_ms=500 tolerance_ms=10 depth=8"}));
    Database db(db_path_);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
}

// A version-1 file (as the first released arena wrote it) is upgraded in
// place: its games stay, and the standings index is added.
TEST_F(StoreTest, VersionOneDatabaseIsUpgradedKeepingItsGames) {
    {
        ResultsStore store(db_path_);
        const auto t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        store.record_game(t, slot(0), record("a", "b", Outcome::kWin1));
    }
    {
        Database db(db_path_);
        back_to_version_3(db);
        db.exec("DROP INDEX games_by_result");
        db.exec("PRAGMA user_version = 1");
    }
    ResultsStore store(db_path_);
    const auto t = store.find_tournament("cup");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(store.games(t->id).size(), 1u);
    ASSERT_EQ(store.result_counts(t->id).size(), 1u);
    Database db(db_path_);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("SELECT count(*) FROM sqlite_schema WHERE name = 'games_by_result'"), 1);
    // The standings query reads the index, not the games.
    auto plan = db.prepare(
        "EXPLAIN QUERY PLAN SELECT first_bot, second_bot, result, termination, COUNT(*) "
        "FROM games WHERE tournament = 1 GROUP BY first_bot, second_bot, result, termination");
    auto q = plan.use();
    std::string steps;
    while (q.step())
        steps += q.column_text(3) + "\n";
    EXPECT_NE(steps.find("COVERING INDEX games_by_result"), std::string::npos) << steps;
}

// arena upgrade: an older file is upgraded once, then left as it is; an
// empty one is refused.
TEST_F(StoreTest, UpgradeSaysWhatItDid) {
    {
        ResultsStore store(db_path_);
        (void)store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    }
    {
        Database db(db_path_);
        back_to_version_3(db);
    }
    const std::string path = db_path_.string();
    EXPECT_EQ(upgrade_database(db_path_),
              path + ": upgraded from schema version 3 to " + std::to_string(kSchemaVersion));
    EXPECT_EQ(stored_schema_version(db_path_), kSchemaVersion);
    EXPECT_EQ(upgrade_database(db_path_), path + ": schema version " +
                                              std::to_string(kSchemaVersion) +
                                              ", this arena's: left as it is");
    const fs::path empty = dir_ / "empty.db";
    std::ofstream{empty};
    try {
        (void)upgrade_database(empty);
        ADD_FAILURE() << "no error";
    } catch (const StoreError& e) {
        EXPECT_EQ(std::string(e.what()),
                  empty.string() +
                      ": an empty database, not a results database: nothing to "
                      "upgrade");
    }
}

TEST(MergeText, WhatArenaMergeSaysOfAnInputAndOfATournament) {
    MergedInput input;
    input.file = "s1.db";
    input.added = 1;
    EXPECT_EQ(merged_text(input, "out.db"), "s1.db: 1 game added\n");
    input.added = 3;
    input.present = 2;
    input.new_tournaments = {"t", "u"};
    EXPECT_EQ(merged_text(input, "out.db"),
              "s1.db: 3 games added, 2 already in out.db (tournament 't' is new) (tournament 'u' "
              "is new)\n");
    EXPECT_EQ(merged_text(MergedTournament{"t", 5, 6}, "out.db"),
              "out.db: tournament 't': 5 of 6 games\n");
    EXPECT_EQ(merged_text(MergedTournament{"t", 6, 6}, "out.db"),
              "out.db: tournament 't': 6 of 6 games, complete\n");
}

namespace {

// The VDBE program of a statement, one opcode per line.
std::string opcodes(Database& db, const std::string& sql) {
    auto explain = db.prepare("EXPLAIN " + sql);
    auto q = explain.use();
    std::string program;
    while (q.step())
        program += q.column_text(1) + "\n";
    return program;
}

const char* const kInsertGame =
    "INSERT INTO games (tournament, game_index, round, pair_index, game_in_pair, first_bot, "
    "second_bot, opening, game, params, result, winner, termination, detail, plies, "
    "opening_plies, started_at, ended_at, duration_us) "
    "VALUES (1, ?, 0, 0, 0, 1, 2, '', 'connect4', '', ?, ?, 'normal', '', 0, 0, '', '', 0)";

// Inserts a game row with this result and winner; false when a CHECK refuses it.
bool insert_game_row(Database& db, std::int64_t index, const std::string& result,
                     std::int64_t winner) {
    auto stmt = db.prepare(kInsertGame);
    auto q = stmt.use();
    q.bind(index).bind(result).bind(winner);
    try {
        q.exec();
        return true;
    } catch (const SqliteError& e) {
        EXPECT_EQ(e.code(), SQLITE_CONSTRAINT_CHECK) << e.what();
        return false;
    }
}

}  // namespace

// Version 2 checked result and winner with IN lists, which SQLite evaluates
// through a temporary b-tree on every insert. A version-2 file is upgraded in
// place to comparisons that accept exactly the same values.
TEST_F(StoreTest, VersionTwoDatabaseIsUpgradedToChecksWithoutTemporaryTables) {
    {
        ResultsStore store(db_path_);
        const auto t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        store.record_game(t, slot(0), record("a", "b", Outcome::kWin1));
    }
    {
        // Back to the version-2 text of the table, as an arena of schema 2 wrote it.
        Database db(db_path_);
        back_to_version_3(db);
        db.exec(
            "PRAGMA writable_schema = ON;"
            "UPDATE sqlite_schema SET sql = replace(replace(sql,"
            " 'CHECK (result = ''1-0'' OR result = ''0-1'' OR result = ''1/2-1/2'')',"
            " 'CHECK (result IN (''1-0'', ''0-1'', ''1/2-1/2''))'),"
            " 'CHECK (winner = 0 OR winner = 1 OR winner = 2)', 'CHECK (winner IN (0, 1, 2))')"
            " WHERE name = 'games';"
            "PRAGMA writable_schema = OFF;");
        db.exec("PRAGMA schema_version = " +
                std::to_string(db.query_int("PRAGMA schema_version") + 1));
        db.exec("PRAGMA user_version = 2");
    }
    {
        Database db(db_path_);
        EXPECT_NE(opcodes(db, kInsertGame).find("OpenEphemeral"), std::string::npos)
            << "the version-2 table is not what this test means to upgrade";
    }
    ResultsStore store(db_path_);
    const auto t = store.find_tournament("cup");
    ASSERT_TRUE(t.has_value());
    store.record_game(t->id, slot(1), record("b", "a", Outcome::kDraw));
    EXPECT_EQ(store.games(t->id).size(), 2u);

    Database db(db_path_);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(opcodes(db, kInsertGame).find("OpenEphemeral"), std::string::npos);
    EXPECT_EQ(db.query_text("PRAGMA integrity_check"), "ok");
    // The same values pass and fail as before.
    db.exec("BEGIN");
    std::int64_t index = 100;
    for (const char* result : {"1-0", "0-1", "1/2-1/2"})
        EXPECT_TRUE(insert_game_row(db, index++, result, 1)) << result;
    for (const char* result : {"", "1-1", "1/2", "1-0 ", "draw"})
        EXPECT_FALSE(insert_game_row(db, index++, result, 1)) << result;
    for (const std::int64_t winner : {0, 1, 2})
        EXPECT_TRUE(insert_game_row(db, index++, "1-0", winner)) << winner;
    for (const std::int64_t winner : {-1, 3, 12})
        EXPECT_FALSE(insert_game_row(db, index++, "1-0", winner)) << winner;
    db.exec("ROLLBACK");
}

// A new file gets the same checks as an upgraded one.
TEST_F(StoreTest, StoringAGameBuildsNoTemporaryTable) {
    { ResultsStore store(db_path_); }
    Database db(db_path_);
    for (const char* insert : {kInsertGame,
                               "INSERT INTO moves (game, ply, side, move, time_us, by_arena, info) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?)",
                               "INSERT INTO bot_logs (game, side, stderr) VALUES (?, ?, ?)"})
        EXPECT_EQ(opcodes(db, insert).find("OpenEphemeral"), std::string::npos) << insert;
}

TEST_F(StoreTest, ReopeningAnExistingDatabaseKeepsItAndItsSettings) {
    { ResultsStore store(db_path_); }
    {
        ResultsStore store(db_path_);
        store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    }
    ResultsStore store(db_path_);
    EXPECT_TRUE(store.find_tournament("cup").has_value());
    Database db(db_path_);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_int("PRAGMA application_id"), 0x4152454E);
    EXPECT_EQ(db.query_text("PRAGMA journal_mode"), "wal");  // persistent in the file
    EXPECT_EQ(db.query_int("PRAGMA page_size"), 2048);
    for (const char* name : {"tournaments", "bots", "games", "moves", "bot_logs", "ratings",
                             "standings", "pair_results", "endings", "game_list", "bot_games"}) {
        auto stmt = db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = ?");
        auto q = stmt.use();
        q.bind(name);
        ASSERT_TRUE(q.step());
        EXPECT_EQ(q.column_int(0), 1) << name;
    }
}

// The page size is chosen for new files only: a database made with SQLite's
// default keeps it, and takes new games as before.
TEST_F(StoreTest, AnExistingDatabaseKeepsItsPageSize) {
    {
        ResultsStore store(db_path_);
        store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    }
    // The same file as an arena that left SQLite's default page size made it.
    const auto old_path = db_path_.parent_path() / "default-pages.db";
    {
        Database db(db_path_);
        db.exec("VACUUM INTO '" + old_path.string() + "'");
    }
    {
        Database db(old_path);
        db.exec("PRAGMA journal_mode = DELETE");
        db.exec("PRAGMA page_size = 4096");
        db.exec("VACUUM");
        db.exec("PRAGMA journal_mode = WAL");
        ASSERT_EQ(db.query_int("PRAGMA page_size"), 4096);
    }
    ResultsStore store(old_path);
    const auto t = store.find_tournament("cup");
    ASSERT_TRUE(t.has_value());
    store.record_game(t->id, slot(0), record("a", "b", Outcome::kWin1, Termination::kNormal, 40));
    EXPECT_EQ(store.load_game(store.games(t->id)[0].id)->moves.size(), 40u);
    Database db(old_path);
    EXPECT_EQ(db.query_int("PRAGMA page_size"), 4096);
    EXPECT_EQ(db.query_text("PRAGMA integrity_check"), "ok");
}

TEST_F(StoreTest, NewerSchemaVersionRefused) {
    { ResultsStore store(db_path_); }
    {
        Database db(db_path_);
        db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1));
    }
    try {
        ResultsStore store(db_path_);
        FAIL() << "newer schema accepted";
    } catch (const StoreError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(db_path_.string()), std::string::npos) << message;
        EXPECT_NE(message.find("version " + std::to_string(kSchemaVersion + 1)), std::string::npos)
            << message;
        EXPECT_NE(message.find("version " + std::to_string(kSchemaVersion)), std::string::npos)
            << message;
    }
    Database db(db_path_);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion + 1);  // left alone
}

TEST_F(StoreTest, FileThatIsNotADatabaseRefused) {
    fs::create_directories(db_path_.parent_path());
    const std::string garbage(4096, 'x');
    std::ofstream(db_path_) << garbage;
    try {
        ResultsStore store(db_path_);
        FAIL() << "garbage accepted";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find(db_path_.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("not a database"), std::string::npos) << e.what();
    }
    std::ifstream in(db_path_);
    const std::string content{std::istreambuf_iterator<char>(in), {}};
    EXPECT_EQ(content, garbage);  // untouched
}

TEST_F(StoreTest, ForeignSqliteDatabaseRefused) {
    fs::create_directories(db_path_.parent_path());
    {
        Database db(db_path_);
        db.exec("CREATE TABLE games (x)");
    }
    try {
        ResultsStore store(db_path_);
        FAIL() << "foreign database accepted";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("not an arena results database"), std::string::npos)
            << e.what();
    }
}

TEST_F(StoreTest, MovedStoreKeepsWorking) {
    ResultsStore first(db_path_);
    const auto tid = first.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    ResultsStore second(std::move(first));
    second.record_game(tid, slot(0), record("a", "b", Outcome::kWin1));
    EXPECT_EQ(second.recorded_indices(tid).size(), 1u);
    EXPECT_THROW((void)first.tournaments(), StoreError);  // NOLINT(bugprone-use-after-move)
}

// ------------------------------------------------------------- concurrency

TEST_F(StoreTest, ReaderIsNotBlockedByAWritersOpenTransaction) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    store.record_game(tid, slot(0), record("a", "b", Outcome::kWin1));

    Database writer(db_path_);
    writer.set_busy_timeout(0ms);
    Transaction txn(writer);
    writer.exec("UPDATE tournaments SET status = 'finished'");
    writer.exec("DELETE FROM moves");

    // Another connection reads the last committed state at once.
    Database reader(db_path_);
    reader.set_busy_timeout(0ms);
    EXPECT_EQ(reader.query_text("SELECT status FROM tournaments"), "running");
    EXPECT_EQ(count(reader, "moves"), 4);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(store.find_tournament("cup")->status, "running");
    EXPECT_EQ(store.load_game(store.games(tid)[0].id)->moves.size(), 4u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);  // no busy wait

    // A second writer is refused with BusyError while the first holds the lock.
    Database other(db_path_);
    other.set_busy_timeout(0ms);
    EXPECT_THROW(Transaction{other}, BusyError);

    txn.commit();
    EXPECT_EQ(reader.query_text("SELECT status FROM tournaments"), "finished");
    EXPECT_EQ(store.find_tournament("cup")->status, "finished");
}

// ------------------------------------------------------------ text survives

TEST_F(StoreTest, UnicodeQuotesAndOddTextSurvive) {
    const std::string tname = "Coupe d'été \"2024\" — 日本語 🎲; DROP TABLE games; --";
    const std::string bot1 = "O'Brien \"the bot\" ♞";
    const std::string bot2 = "Ünïcödé\tbot";
    std::int64_t id = 0;
    auto r = record(bot1, bot2, Outcome::kWin1);
    r.moves[1].info = {"pv 'a' \"b\" ü", "", "'); DELETE FROM moves; --"};
    r.moves[2].info = {""};  // a single empty line is not "no lines"
    r.detail = "said \"bye\" — then ✗";
    r.stderr_logs[0] = std::string("line 1\nnul\0byte\n", 16);
    r.stderr_logs[1] = "\xff\xfe not UTF-8";
    r.transcripts[1] = std::string("12 -> go move_ms=100\n40 <- move \x01'x'\0\n", 38);
    r.peak_memory[1] = std::uint64_t{5} << 40;  // 5 TiB: a 64-bit value survives
    {
        ResultsStore store(db_path_);
        const auto tid = store.create_tournament(spec(tname), bot_entries({bot1, bot2}));
        id = store.record_game(tid, slot(0, "d'3"), r);
    }
    ResultsStore store(db_path_);
    const auto t = store.find_tournament(tname);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->spec.config_text, spec(tname).config_text);
    EXPECT_EQ(store.bots(t->id)[0].name, bot1);
    EXPECT_EQ(store.bots(t->id)[1].name, bot2);
    const auto g = store.load_game(id);
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->summary.first, bot1);
    EXPECT_EQ(g->summary.second, bot2);
    EXPECT_EQ(g->summary.detail, r.detail);
    EXPECT_EQ(g->summary.slot.opening, "d'3");
    EXPECT_EQ(g->transcripts[0], "");  // none kept for it: no row
    EXPECT_EQ(g->transcripts[1], r.transcripts[1]);
    EXPECT_EQ(g->peak_memory[0], std::nullopt);  // not known: NULL
    EXPECT_EQ(g->peak_memory[1], r.peak_memory[1]);
    EXPECT_EQ(g->moves[0].info, std::vector<std::string>{});
    EXPECT_EQ(g->moves[1].info, r.moves[1].info);
    EXPECT_EQ(g->moves[2].info, std::vector<std::string>{""});
    EXPECT_EQ(g->stderr_logs[0], r.stderr_logs[0]);
    EXPECT_EQ(g->stderr_logs[0].size(), 16u);
    EXPECT_EQ(g->stderr_logs[1], r.stderr_logs[1]);
    EXPECT_EQ(store.games(t->id, bot1).size(), 1u);
}

// --------------------------------------------------------- the SQLite layer

TEST_F(StoreTest, TransactionRollsBackUnlessCommitted) {
    fs::create_directories(dir_);
    Database db(dir_ / "plain.db");
    db.exec("CREATE TABLE t (x INTEGER)");
    auto insert = db.prepare("INSERT INTO t (x) VALUES (?)");
    {
        Transaction txn(db);
        insert.use().bind(1).exec();
        EXPECT_EQ(count(db, "t"), 1);  // visible inside
    }
    EXPECT_EQ(count(db, "t"), 0);
    EXPECT_TRUE(db.autocommit());
    try {
        Transaction txn(db);
        insert.use().bind(2).exec();
        throw std::runtime_error("abandon");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(count(db, "t"), 0);
    {
        Transaction txn(db, Transaction::Mode::kDeferred);
        insert.use().bind(3).exec();
        txn.commit();
    }
    EXPECT_EQ(db.query_int("SELECT x FROM t"), 3);
}

TEST_F(StoreTest, StatementErrorsNameFileAndSql) {
    Database db(dir_ / "plain.db");
    db.exec("CREATE TABLE t (x INTEGER UNIQUE)");
    try {
        (void)db.prepare("SELECT nope FROM t");
        FAIL();
    } catch (const SqliteError& e) {
        EXPECT_NE(std::string(e.what()).find("no such column: nope"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("SELECT nope FROM t"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("plain.db"), std::string::npos);
    }
    auto insert = db.prepare("INSERT INTO t (x) VALUES (?)");
    insert.use().bind(1).exec();
    try {
        insert.use().bind(1).exec();
        FAIL();
    } catch (const SqliteError& e) {
        EXPECT_EQ(e.code(), SQLITE_CONSTRAINT_UNIQUE);
        EXPECT_EQ(e.primary_code(), SQLITE_CONSTRAINT);
        EXPECT_NE(std::string(e.what()).find("INSERT INTO t (x) VALUES (?)"), std::string::npos);
    }
    EXPECT_THROW((void)db.prepare("SELECT 1; SELECT 2"), SqliteError);
}

TEST_F(StoreTest, StatementIsReusedAndBindsEveryType) {
    Database db(dir_ / "plain.db");
    auto echo = db.prepare("SELECT ?, ?, ?, ?, ?, typeof(?)");
    for (int round = 0; round < 3; ++round) {
        auto q = echo.use();
        q.bind(std::int64_t{1} << 40)
            .bind(round)
            .bind(2.5)
            .bind(std::string_view{})  // empty, not NULL
            .bind(std::optional<std::string>{"x"})
            .bind(std::nullopt);
        ASSERT_TRUE(q.step());
        EXPECT_EQ(q.column_int64(0), std::int64_t{1} << 40);
        EXPECT_EQ(q.column_int(1), round);
        EXPECT_EQ(q.column_double(2), 2.5);
        EXPECT_FALSE(q.is_null(3));
        EXPECT_EQ(q.column_text(3), "");
        EXPECT_EQ(q.column_text(4), "x");
        EXPECT_EQ(q.column_text(5), "null");
        EXPECT_FALSE(q.step());
    }
    Database moved(std::move(db));
    EXPECT_FALSE(db.is_open());  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(moved.query_int("SELECT 41 + 1"), 42);
}

// ------------------------------------------------------ faults and duplicates

TEST_F(StoreTest, StandingsViewCountsEveryKindOfFault) {
    {
        ResultsStore store(db_path_);
        const auto t = store.create_tournament(spec("faults"), bot_entries({"bad", "good"}));
        std::int64_t index = 0;
        // "bad" loses n games by the n-th kind of fault, moving first and second in turn.
        const Termination kinds[] = {Termination::kTimeout, Termination::kCrash,
                                     Termination::kIllegal, Termination::kProtocol,
                                     Termination::kStartup};
        for (int k = 0; k < 5; ++k) {
            for (int n = 0; n <= k; ++n) {
                const bool first = n % 2 == 0;
                store.record_game(t, slot(index++),
                                  first ? record("bad", "good", Outcome::kWin2, kinds[k])
                                        : record("good", "bad", Outcome::kWin1, kinds[k]));
            }
        }
        // "good" fails to start once; both failing to start is a draw, no one's loss.
        store.record_game(t, slot(index++),
                          record("good", "bad", Outcome::kWin2, Termination::kStartup, 0));
        store.record_game(t, slot(index++),
                          record("bad", "good", Outcome::kDraw, Termination::kStartup, 0));
        store.record_game(t, slot(index++), record("bad", "good", Outcome::kWin1));
    }
    Database db(db_path_);
    auto stmt = db.prepare(
        "SELECT bot, games, losses, timeouts, crashes, illegal_moves, protocol_errors, "
        "startup_failures, faults FROM standings WHERE tournament = 'faults' ORDER BY bot");
    auto q = stmt.use();
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_text(0), "bad");
    EXPECT_EQ(q.column_int(1), 18);
    EXPECT_EQ(q.column_int(2), 15);
    EXPECT_EQ(q.column_int(3), 1);
    EXPECT_EQ(q.column_int(4), 2);
    EXPECT_EQ(q.column_int(5), 3);
    EXPECT_EQ(q.column_int(6), 4);
    EXPECT_EQ(q.column_int(7), 5);
    EXPECT_EQ(q.column_int(8), 15);
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_text(0), "good");
    EXPECT_EQ(q.column_int(1), 18);
    EXPECT_EQ(q.column_int(2), 2);  // a start-up failure and a loss on the board
    for (int column = 3; column <= 6; ++column)
        EXPECT_EQ(q.column_int(column), 0) << column;
    EXPECT_EQ(q.column_int(7), 1);
    EXPECT_EQ(q.column_int(8), 1);
    EXPECT_FALSE(q.step());
}

std::int64_t duplicates(ResultsStore& store, std::int64_t tournament) {
    std::int64_t n = 0;
    for (const auto& c : store.result_counts(tournament))
        n += c.duplicates;
    return n;
}

TEST_F(StoreTest, GamesThatRepeatAnotherMoveForMoveAreCounted) {
    std::int64_t t = 0, other = 0;
    {
        ResultsStore store(db_path_);
        t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        other = store.create_tournament(spec("other"), bot_entries({"a", "b"}));
        std::int64_t index = 0;
        const auto add = [&](std::int64_t tournament, const GameRecord& r) {
            store.record_game(tournament, slot(index++), r);
        };
        const auto base = record("a", "b", Outcome::kWin1);
        add(t, base);
        add(t, base);                              // a duplicate
        add(t, base);                              // and another
        add(t, record("b", "a", Outcome::kWin1));  // the same moves, colours swapped
        add(t, record("b", "a", Outcome::kWin1));  // its duplicate
        auto changed = base;
        changed.moves[2].move = "7";
        add(t, changed);  // one move differs
        changed = base;
        changed.opening_plies = 2;
        add(t, changed);  // the same moves, a longer opening
        changed = base;
        changed.params = {{"rows", "7"}, {"cols", "7"}, {"connect", "4"}};
        add(t, changed);  // another board
        changed = base;
        changed.outcome = Outcome::kDraw;
        add(t, changed);  // another result
        changed = base;
        changed.moves.pop_back();
        add(t, changed);  // shorter
        changed = base;
        changed.moves[1].info = {"other thoughts"};
        changed.moves[1].time = 77us;
        changed.stderr_logs[1] = "different log";
        changed.started_at = when(1h);
        add(t, changed);   // the same game, thought about differently: a duplicate
        add(other, base);  // other tournaments don't count
        add(other, base);
    }
    ResultsStore store(db_path_);
    EXPECT_EQ(duplicates(store, t), 4);
    EXPECT_EQ(duplicates(store, other), 1);
    EXPECT_EQ(duplicates(store, other + 1), 0);
    // By count: the three copies of `base` are in one, the colour-swapped pair in another.
    std::vector<std::pair<std::int64_t, std::int64_t>> by_count;  // games, duplicates
    for (const auto& c : store.result_counts(t))
        if (c.duplicates > 0) by_count.emplace_back(c.games, c.duplicates);
    std::sort(by_count.begin(), by_count.end());
    EXPECT_EQ(by_count, (std::vector<std::pair<std::int64_t, std::int64_t>>{{2, 1}, {8, 3}}));

    // Equal games are neighbours in the standings index, read without the
    // table and without sorting.
    Database db(db_path_);
    auto plan = db.prepare(
        "EXPLAIN QUERY PLAN SELECT first_bot, second_bot, result, termination, moves_hash "
        "FROM games WHERE tournament = 1 "
        "ORDER BY first_bot, second_bot, result, termination, moves_hash");
    auto q = plan.use();
    std::string steps;
    while (q.step())
        steps += q.column_text(3) + "\n";
    EXPECT_NE(steps.find("COVERING INDEX games_by_result"), std::string::npos) << steps;
    EXPECT_EQ(steps.find("TEMP B-TREE"), std::string::npos) << steps;
}

// A version-3 file gets the moves_hash of its games, the same as storing
// them now would give, and the standings view with every kind of fault.
TEST_F(StoreTest, VersionThreeDatabaseIsUpgradedWithHashesOfItsGames) {
    std::int64_t t = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> hashes;  // game id, moves_hash
    {
        ResultsStore store(db_path_);
        t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        // More games than one batch of the upgrade, of several lengths.
        for (std::int64_t i = 0; i < 10'050; ++i) {
            const auto plies = static_cast<int>(i % 7) * 9;
            store.record_game(t, slot(i),
                              i % 3 == 0
                                  ? record("a", "b", Outcome::kWin1, Termination::kNormal, plies)
                                  : record("b", "a", Outcome::kWin2, Termination::kStartup, plies));
        }
    }
    {
        Database db(db_path_);
        auto stmt = db.prepare("SELECT id, moves_hash FROM games ORDER BY id");
        auto q = stmt.use();
        while (q.step())
            hashes.emplace_back(q.column_int64(0), q.column_int64(1));
        back_to_version_3(db);
        EXPECT_THROW((void)db.query_int("SELECT moves_hash FROM games"), SqliteError);
    }
    ResultsStore store(db_path_);
    // 7 lengths, 2 pairings and endings: 14 different games.
    EXPECT_EQ(duplicates(store, t), 10'050 - 14);

    Database db(db_path_);
    EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(db.query_text("PRAGMA integrity_check"), "ok");
    auto stmt = db.prepare("SELECT id, moves_hash FROM games ORDER BY id");
    auto q = stmt.use();
    for (const auto& [id, hash] : hashes) {
        ASSERT_TRUE(q.step());
        ASSERT_EQ(q.column_int64(0), id);
        ASSERT_FALSE(q.is_null(1)) << id;
        ASSERT_EQ(q.column_int64(1), hash) << id;
    }
    EXPECT_FALSE(q.step());
    EXPECT_EQ(db.query_int("SELECT count(*) FROM pragma_index_info('games_by_result') "
                           "WHERE name = 'moves_hash'"),
              1);
    EXPECT_EQ(db.query_int("SELECT startup_failures FROM standings WHERE bot = 'b'"), 6'700);

    // The same columns, types and constraints as a file made new.
    const auto fresh_path = dir_ / "fresh.db";
    { ResultsStore fresh(fresh_path); }
    Database fresh(fresh_path);
    const auto columns = [](Database& d) {
        auto info = d.prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info('games')");
        auto row = info.use();
        std::vector<std::string> list;
        while (row.step()) {
            list.push_back(row.column_text(0) + " " + row.column_text(1) + " " +
                           row.column_text(2) + " " + row.column_text(3));
        }
        return list;
    };
    const auto upgraded = columns(db);
    EXPECT_EQ(upgraded, columns(fresh));
    EXPECT_NE(std::find(upgraded.begin(), upgraded.end(), "duration_us INTEGER 1 0"),
              upgraded.end());
    EXPECT_NE(std::find(upgraded.begin(), upgraded.end(), "moves_hash INTEGER 0 0"),
              upgraded.end());
    EXPECT_NE(std::find(upgraded.begin(), upgraded.end(), "second_peak_memory INTEGER 0 0"),
              upgraded.end());                              // schema 6
    EXPECT_EQ(upgraded.back(), "second_control TEXT 0 0");  // schema 8
}

// ------------------------------------------------------------ a locked file

// Another program's connection that holds the write lock (BEGIN IMMEDIATE)
// from construction until release().
class LockHolder {
  public:
    explicit LockHolder(const fs::path& path) : db_(path) {
        db_.set_busy_timeout(5s);
        db_.exec("BEGIN IMMEDIATE");
    }
    ~LockHolder() {
        try {
            release();
        } catch (const SqliteError&) {
            // The test has failed already.
        }
    }
    LockHolder(const LockHolder&) = delete;
    LockHolder& operator=(const LockHolder&) = delete;

    void release() {
        if (held_.exchange(false)) db_.exec("COMMIT");
    }

  private:
    Database db_;
    std::atomic<bool> held_{true};
};

// Waits that never end on their own, reported every `every`.
LockWaiting patient(std::vector<LockWait>& reports, std::chrono::milliseconds every) {
    LockWaiting waiting;
    waiting.limit = std::nullopt;
    waiting.report_every = every;
    waiting.report = [&reports](const LockWait& w) { reports.push_back(w); };
    return waiting;
}

TEST_F(StoreTest, AGameWaitsForAnotherProgramsLockAndIsStoredWhenItEnds) {
    std::vector<LockWait> reports;
    std::int64_t t = 0;
    std::chrono::steady_clock::duration took{};
    {
        ResultsStore store(db_path_, patient(reports, 200ms));
        t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
        LockHolder other(db_path_);
        std::jthread release([&] {
            std::this_thread::sleep_for(1200ms);
            other.release();
        });
        const auto start = std::chrono::steady_clock::now();
        store.record_game(t, slot(0), record("a", "b", Outcome::kWin1, Termination::kNormal, 9));
        took = std::chrono::steady_clock::now() - start;
    }
    EXPECT_GE(took, 1s);  // it did wait for the lock

    // Reports at 200 ms, 400 ms, ... (a slow attempt on a busy machine skips
    // some), then one when the game went through.
    ASSERT_GE(reports.size(), 2u);
    for (std::size_t i = 0; i + 1 < reports.size(); ++i) {
        EXPECT_EQ(reports[i].file, db_path_);
        EXPECT_FALSE(reports[i].over) << i;
        EXPECT_EQ(reports[i].waited.count() % 200, 0) << reports[i].waited.count();
        if (i > 0) {
            EXPECT_GT(reports[i].waited, reports[i - 1].waited);
        }
    }
    EXPECT_EQ(reports.front().waited, 200ms);
    EXPECT_TRUE(reports.back().over);
    EXPECT_GE(reports.back().waited, 1s);

    ResultsStore store(db_path_);
    const auto games = store.games(t);
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(store.load_game(games[0].id)->moves.size(), 9u);
}

// Every write a run makes waits, each through its own transaction.
TEST_F(StoreTest, EveryWriteWaitsForTheLock) {
    std::vector<LockWait> reports;
    ResultsStore store(db_path_, patient(reports, 100ms));
    std::int64_t t = 0;
    const auto while_locked = [&](const char* what, const std::function<void()>& write) {
        SCOPED_TRACE(what);
        reports.clear();
        LockHolder other(db_path_);
        std::jthread release([&] {
            std::this_thread::sleep_for(500ms);
            other.release();
        });
        write();
        release.join();
        ASSERT_GE(reports.size(), 2u);
        EXPECT_FALSE(reports.front().over);
        EXPECT_TRUE(reports.back().over);
    };
    while_locked("create_tournament", [&] {
        t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    });
    while_locked("set_status", [&] { store.set_status(t, "finished"); });
    while_locked("record_game",
                 [&] { store.record_game(t, slot(0), record("a", "b", Outcome::kDraw)); });
    while_locked("save_ratings", [&] { store.save_ratings(t, {{"a", 1, 2}, {"b", -1, 2}}); });

    Database db(db_path_);
    EXPECT_EQ(db.query_text("SELECT status FROM tournaments"), "finished");
    EXPECT_EQ(count(db, "bots"), 2);
    EXPECT_EQ(count(db, "games"), 1);
    EXPECT_EQ(count(db, "moves"), 4);
    EXPECT_EQ(count(db, "ratings"), 2);
}

// Creating the schema, and upgrading an older one, write too.
TEST_F(StoreTest, OpeningWaitsToCreateOrUpgradeTheSchema) {
    std::vector<LockWait> reports;
    const auto open_while_locked = [&](const fs::path& path) {
        reports.clear();
        LockHolder other(path);
        std::jthread release([&] {
            std::this_thread::sleep_for(600ms);
            other.release();
        });
        ResultsStore store(path, patient(reports, 100ms));
        release.join();
        EXPECT_GE(reports.size(), 2u);
        Database db(path);
        EXPECT_EQ(db.query_int("PRAGMA user_version"), kSchemaVersion);
        EXPECT_EQ(db.query_text("PRAGMA journal_mode"), "wal");
    };
    {
        SCOPED_TRACE("a new file, empty, locked by a connection in rollback mode");
        fs::create_directories(db_path_.parent_path());
        open_while_locked(db_path_);
    }
    {
        SCOPED_TRACE("a version-3 file");
        const auto old = dir_ / "old.db";
        {
            ResultsStore store(old);
            const auto t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
            store.record_game(t, slot(0), record("a", "b", Outcome::kWin1));
        }
        {
            Database db(old);
            back_to_version_3(db);
        }
        open_while_locked(old);
        ResultsStore store(old);
        EXPECT_EQ(duplicates(store, store.find_tournament("cup")->id), 0);
    }
}

TEST_F(StoreTest, AWaitGivesUpAfterItsLimitAndStoresNothing) {
    std::int64_t t = 0;
    {
        ResultsStore store(db_path_);
        t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    }
    {
        LockWaiting waiting;
        waiting.limit = 600ms;
        ResultsStore store(db_path_, waiting);
        LockHolder other(db_path_);
        const auto start = std::chrono::steady_clock::now();
        try {
            store.record_game(t, slot(0), record("a", "b", Outcome::kWin1));
            ADD_FAILURE() << "stored under another program's lock";
        } catch (const StoreError& e) {
            const std::string message = e.what();
            const std::string expected =
                db_path_.string() + ": the database is locked by another program; gave up after ";
            EXPECT_TRUE(message.starts_with(expected)) << message;
            EXPECT_TRUE(message.ends_with(" s")) << message;
        }
        const auto took = std::chrono::steady_clock::now() - start;
        EXPECT_GE(took, 600ms);
        EXPECT_LT(took, 30s);
    }
    ResultsStore store(db_path_);
    EXPECT_TRUE(store.games(t).empty());
}

TEST_F(StoreTest, AStopRequestEndsAWait) {
    std::int64_t t = 0;
    {
        ResultsStore store(db_path_);
        t = store.create_tournament(spec("cup"), bot_entries({"a", "b"}));
    }
    std::stop_source stop;
    std::vector<LockWait> reports;
    auto waiting = patient(reports, 10s);
    waiting.stop = stop.get_token();
    {
        ResultsStore store(db_path_, waiting);
        LockHolder other(db_path_);
        std::jthread stopper([&] {
            std::this_thread::sleep_for(300ms);
            stop.request_stop();
        });
        const auto start = std::chrono::steady_clock::now();
        try {
            store.set_status(t, "finished");
            ADD_FAILURE() << "written under another program's lock";
        } catch (const StoreError& e) {
            EXPECT_NE(std::string(e.what()).find(
                          ": the database is locked by another program; stopped waiting for it"),
                      std::string::npos)
                << e.what();
        }
        EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);
    }
    EXPECT_TRUE(reports.empty());
    ResultsStore store(db_path_);
    EXPECT_EQ(store.find_tournament("cup")->status, "running");
}

// -------------------------------------------------------------- throughput

// Not a pass/fail test: prints how many 40-move games record_game stores per
// second, for the docs and for noticing regressions by eye.
TEST_F(StoreTest, ThroughputOfRecordGame) {
    ResultsStore store(db_path_);
    const auto tid = store.create_tournament(spec("speed"), bot_entries({"a", "b"}));
    auto r = record("a", "b", Outcome::kWin1, Termination::kNormal, 40);
    r.stderr_logs[1] = "second bot log\n";
    constexpr int kGames = 2000;
    const auto start = std::chrono::steady_clock::now();
    const auto cpu_start = std::clock();
    for (int i = 0; i < kGames; ++i)
        store.record_game(tid, slot(i), r);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    // Wall time includes the fsyncs of WAL checkpoints and whatever else the
    // machine is doing; CPU time is what the store itself costs.
    std::cout << "[ perf     ] record_game, " << kGames
              << " games of 40 moves: " << static_cast<long>(kGames / wall.count())
              << " games/s wall, " << static_cast<long>(kGames / cpu) << " games/s of CPU time\n";
    RecordProperty("games_per_second", static_cast<int>(kGames / wall.count()));
    EXPECT_EQ(store.recorded_indices(tid).size(), static_cast<std::size_t>(kGames));
}

}  // namespace
}  // namespace arena::store
