// `arena standings` as a user reads it: losses by every kind of fault, the
// first-mover advantage (or why there is none to give), games that repeat
// an earlier one move for move, the scale of the ratings (anchors from the
// command line or the stored config), the head-to-head of every pair
// (--pairs) and of the two bots of a two-bot tournament. Databases are written through the
// store, or by `arena run`; the printed figures are checked against the
// standings view of the reopened file.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena_process.hpp"
#include "proc_util.hpp"

namespace arena {
namespace {

using arena::testing::lines_of;

namespace fs = std::filesystem;
using games::Outcome;
using record::GameRecord;
using record::Termination;
using testing::ArenaResult;
using testing::bin;
using testing::run_arena;

class StandingsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "arena_standings_test_XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        db_ = dir_ / "results.db";
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    // A tournament "t" with these bots, in db_.
    std::int64_t create(store::ResultsStore& store, const std::vector<std::string>& bots,
                        std::int64_t total_games, const std::string& config = "name: t\n") {
        std::vector<store::BotEntry> entries;
        for (const auto& b : bots)
            entries.push_back({b, "./" + b, "arena1", ""});
        return store.create_tournament({"t", "connect4", config, "fp", 1, total_games}, entries);
    }

    // `arena standings` on db_; it must succeed.
    std::string standings() {
        const auto r = run_arena(dir_, {"standings", db_.string()});
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.err, "");
        return r.out;
    }

    // One column of the standings view for each bot.
    std::map<std::string, std::string> view(const std::string& column) {
        std::map<std::string, std::string> values;
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open_v2(db_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_stmt* stmt = nullptr;
        const std::string sql = "SELECT bot, " + column + " FROM standings";
        EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
            << sqlite3_errmsg(db);
        while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
            values[reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))] =
                reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
        }
        sqlite3_finalize(stmt);
        sqlite3_close(db);
        return values;
    }

    fs::path dir_, db_;
};

// A Connect-4 game of `plies` moves (columns 1, 2, 3, ...) that ended so.
GameRecord game(const std::string& first, const std::string& second, Outcome outcome,
                Termination termination = Termination::kNormal, int plies = 7) {
    GameRecord r;
    r.game = "connect4";
    r.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
    r.players[0] = first;
    r.players[1] = second;
    for (int i = 0; i < plies; ++i) {
        record::MoveRecord m;
        m.move = std::to_string(1 + i % 7);
        m.player = 1 + i % 2;
        r.moves.push_back(m);
    }
    r.outcome = outcome;
    r.termination = termination;
    r.started_at = std::chrono::system_clock::now();
    return r;
}

store::GameSlot slot(std::int64_t index) {
    return {index, 0, static_cast<int>(index / 2), static_cast<int>(index % 2), ""};
}

// The line of the table whose bot is `bot`, or "".
std::string row_of(const std::string& out, const std::string& bot) {
    for (const auto& line : lines_of(out)) {
        std::istringstream words(line);
        std::string rank, name;
        words >> rank >> name;
        if (name == bot && rank.find_first_not_of("0123456789") == std::string::npos) return line;
    }
    return "";
}

// Characters (UTF-8 code points) in `text`: what a terminal shows.
std::size_t shown_width(std::string_view text) {
    std::size_t n = 0;
    for (const char c : text)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

// The table's header line ("  #  bot  elo ..."), or "".
std::string header_of(const std::string& out) {
    for (const auto& line : lines_of(out))
        if (line.starts_with("  #  bot")) return line;
    return "";
}

// What the table's last column, `faults`, says for `bot`.
std::string faults_of(const std::string& out, const std::string& bot) {
    const auto header = header_of(out);
    const auto found = header.find("faults");
    EXPECT_NE(found, std::string::npos) << header;
    // The header has a "±"; rows are ASCII.
    const auto at = shown_width(std::string_view(header).substr(0, found));
    const auto row = row_of(out, bot);
    EXPECT_GT(row.size(), at) << out;
    return row.size() > at ? row.substr(at) : "";
}

// The line that starts with `prefix`, or "".
std::string line_starting(const std::string& out, const std::string& prefix) {
    for (const auto& line : lines_of(out))
        if (line.starts_with(prefix)) return line;
    return "";
}

TEST_F(StandingsTest, FaultsColumnCountsEveryKindOfLoss) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"clean", "crashy", "mixed", "slow"}, 100);
        std::int64_t i = 0;
        // crashy never starts: 20 start-up losses, moving first and second.
        for (int n = 0; n < 10; ++n) {
            store.record_game(t, slot(i++),
                              game("crashy", "clean", Outcome::kWin2, Termination::kStartup, 0));
            store.record_game(t, slot(i++),
                              game("clean", "crashy", Outcome::kWin1, Termination::kStartup, 0));
        }
        // slow loses twice on time and crashes once.
        store.record_game(t, slot(i++),
                          game("slow", "clean", Outcome::kWin2, Termination::kTimeout));
        store.record_game(t, slot(i++),
                          game("clean", "slow", Outcome::kWin1, Termination::kTimeout));
        store.record_game(t, slot(i++), game("slow", "clean", Outcome::kWin2, Termination::kCrash));
        // mixed loses by every kind of fault, n times the n-th kind.
        const Termination kinds[] = {Termination::kTimeout, Termination::kCrash,
                                     Termination::kIllegal, Termination::kProtocol,
                                     Termination::kStartup};
        for (int k = 0; k < 5; ++k) {
            for (int n = 0; n <= k; ++n)
                store.record_game(t, slot(i++), game("mixed", "slow", Outcome::kWin2, kinds[k]));
        }
        // Games decided on the board are no one's fault.
        store.record_game(t, slot(i++), game("clean", "mixed", Outcome::kWin1));
        store.record_game(t, slot(i++), game("mixed", "clean", Outcome::kWin1));
    }
    const auto out = standings();
    EXPECT_EQ(faults_of(out, "crashy"), "20 (startup 20)");
    EXPECT_EQ(faults_of(out, "slow"), "3 (timeout 2, crash 1)");
    EXPECT_EQ(faults_of(out, "mixed"), "15 (timeout 1, crash 2, illegal 3, protocol 4, startup 5)");
    EXPECT_EQ(faults_of(out, "clean"), "0");
    EXPECT_EQ(out.find("timeouts"), std::string::npos) << out;
    // About 100 columns, unless a bot has several kinds of fault.
    EXPECT_LE(shown_width(header_of(out)), 100u) << out;
    EXPECT_LE(row_of(out, "clean").size(), 100u) << out;
    EXPECT_LE(row_of(out, "crashy").size(), 105u) << out;

    // The standings view of the file says the same.
    const auto faults = view("faults"), startups = view("startup_failures");
    const auto timeouts = view("timeouts"), crashes = view("crashes");
    const auto illegal = view("illegal_moves"), protocol = view("protocol_errors");
    EXPECT_EQ(faults.at("crashy"), "20");
    EXPECT_EQ(startups.at("crashy"), "20");
    EXPECT_EQ(faults.at("slow"), "3");
    EXPECT_EQ(timeouts.at("slow"), "2");
    EXPECT_EQ(crashes.at("slow"), "1");
    EXPECT_EQ(faults.at("mixed"), "15");
    EXPECT_EQ(timeouts.at("mixed"), "1");
    EXPECT_EQ(crashes.at("mixed"), "2");
    EXPECT_EQ(illegal.at("mixed"), "3");
    EXPECT_EQ(protocol.at("mixed"), "4");
    EXPECT_EQ(startups.at("mixed"), "5");
    EXPECT_EQ(faults.at("clean"), "0");
}

TEST_F(StandingsTest, FirstMoverAdvantageIsNeverMinusZero) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 400);
        // Each bot wins exactly half of its games with either colour: no
        // advantage at all, to rounding.
        std::int64_t i = 0;
        for (int n = 0; n < 100; ++n) {
            // Each pair its own games (plies), or repeats would be set aside.
            store.record_game(t, slot(i++),
                              game("a", "b", n % 2 ? Outcome::kWin1 : Outcome::kWin2,
                                   Termination::kNormal, 7 + n));
            store.record_game(t, slot(i++),
                              game("b", "a", n % 2 ? Outcome::kWin2 : Outcome::kWin1,
                                   Termination::kNormal, 7 + n));
        }
    }
    const auto out = standings();
    const auto line = line_starting(out, "first-mover advantage: ");
    EXPECT_TRUE(line.starts_with("first-mover advantage: 0 ± ")) << out;
    EXPECT_TRUE(line.ends_with(" Elo")) << line;
    EXPECT_EQ(out.find("-0 "), std::string::npos) << out;
}

TEST_F(StandingsTest, AClearFirstMoverAdvantageIsGivenWithItsInterval) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 96);
        // With either colour, the first mover scores 75 %: +191 Elo
        // (400 log10 3) between equals.
        std::int64_t i = 0;
        for (int n = 0; n < 48; ++n) {
            const auto outcome = n % 4 == 0 ? Outcome::kWin2 : Outcome::kWin1;
            store.record_game(t, slot(i++), game("a", "b", outcome, Termination::kNormal, 7 + n));
            store.record_game(t, slot(i++), game("b", "a", outcome, Termination::kNormal, 7 + n));
        }
    }
    const auto line = line_starting(standings(), "first-mover advantage: ");
    int advantage = 0, error = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "first-mover advantage: %d ± %d Elo", &advantage, &error),
              2)
        << line;
    EXPECT_NEAR(advantage, 191, 1);
    EXPECT_GT(error, 30);
    EXPECT_LT(error, 400);
}

TEST_F(StandingsTest, TooFewGamesForAFirstMoverAdvantageAreSaidSo) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 2);
        store.record_game(t, slot(0), game("a", "b", Outcome::kWin1));
        store.record_game(t, slot(1), game("b", "a", Outcome::kDraw));
    }
    const auto line = line_starting(standings(), "first-mover advantage: ");
    EXPECT_TRUE(
        line.starts_with("first-mover advantage: too few games to tell (the 95 % "
                         "interval is ±"))
        << line;
}

TEST_F(StandingsTest, NoGameDecidedOnTheBoardHasNoFirstMoverAdvantage) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 20);
        for (std::int64_t i = 0; i < 20; ++i) {
            store.record_game(t, slot(i),
                              i % 2 ? game("b", "a", Outcome::kWin2, Termination::kStartup, 0)
                                    : game("a", "b", Outcome::kWin1, Termination::kStartup, 0));
        }
    }
    const auto out = standings();
    EXPECT_EQ(line_starting(out, "first-mover advantage: "),
              "first-mover advantage: unknown: no game was decided on the board")
        << out;
    EXPECT_EQ(faults_of(out, "b"), "20 (startup 20)");
}

TEST_F(StandingsTest, NoGamesYet) {
    {
        store::ResultsStore store(db_);
        create(store, {"a", "b"}, 2);
    }
    EXPECT_EQ(line_starting(standings(), "first-mover advantage: "),
              "first-mover advantage: no games yet");
}

// ---- repeats ------------------------------------------------------------------

// The note under the table, its two lines joined by "\n".
std::string repeats_note(int pairs, int games) {
    return "repeats: " + std::to_string(pairs) + (pairs == 1 ? " pair (" : " pairs (") +
           std::to_string(2 * pairs) + " of " + std::to_string(games) +
           " games) repeat earlier pairs move for move and are set aside:\n"
           "         the ratings count each pair once; vary the openings (docs/ratings.md)";
}

// The note on repeats in `out`, or "".
std::string repeats_in(const std::string& out) {
    const auto lines = lines_of(out);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
        if (lines[i].starts_with("repeats: ")) return lines[i] + "\n" + lines[i + 1];
    return "";
}

// The row of `bot` in the standings, split into words.
std::vector<std::string> row_words(const std::string& out, const std::string& bot) {
    std::istringstream line(row_of(out, bot));
    std::vector<std::string> row;
    for (std::string w; line >> w;)
        row.push_back(w);
    return row;
}

TEST_F(StandingsTest, APairThatRepeatsAnEarlierPairIsCountedOnce) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 10);
        const auto both = [&](std::int64_t pair, int plies, Outcome first, Outcome second) {
            store.record_game(t, slot(2 * pair),
                              game("a", "b", first, Termination::kNormal, plies));
            store.record_game(t, slot(2 * pair + 1),
                              game("b", "a", second, Termination::kNormal, plies));
        };
        both(0, 7, Outcome::kWin1, Outcome::kWin2);  // a wins both
        both(1, 7, Outcome::kWin1, Outcome::kWin2);  // the same pair again: set aside
        both(2, 9, Outcome::kWin1, Outcome::kWin1);  // a new pair: one win each
        both(3, 7, Outcome::kWin1, Outcome::kWin2);  // a copy of the first again
        // One game repeats the first pair's, the other is new: not a repeat.
        store.record_game(t, slot(8), game("a", "b", Outcome::kWin1, Termination::kNormal, 7));
        store.record_game(t, slot(9), game("b", "a", Outcome::kDraw, Termination::kNormal, 7));
    }
    const auto out = standings();
    EXPECT_EQ(repeats_in(out), repeats_note(2, 10)) << out;
    for (const auto& line : lines_of(repeats_in(out)))
        EXPECT_LE(line.size(), 100u) << line;
    EXPECT_NE(out.find("t: 10 of 10 games"), std::string::npos) << out;
    // a: W W (pair 0), W L (pair 2), W D (pair 4) counted; 6 games.
    const auto a = row_words(out, "a");
    ASSERT_GE(a.size(), 8u) << out;
    EXPECT_EQ(a[4], "6") << out;  // games
    EXPECT_EQ(a[5], "4") << out;  // W
    EXPECT_EQ(a[6], "1") << out;  // D
    EXPECT_EQ(a[7], "1") << out;  // L
    // So do the head-to-head block and the crosstable.
    EXPECT_NE(out.find("2 pairs (4 games) set aside: each repeated an earlier pair move for move"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("a vs b (from a's side): 6 games, 3 colour-swapped pairs"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("4-1-1"), std::string::npos) << out;
}

TEST_F(StandingsTest, CountRepeatsInTheStoredConfigCountsEveryPair) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 6, "name: t\ncount_repeats: true\n");
        for (std::int64_t pair = 0; pair < 3; ++pair) {
            store.record_game(t, slot(2 * pair), game("a", "b", Outcome::kWin1));
            store.record_game(t, slot(2 * pair + 1), game("b", "a", Outcome::kWin2));
        }
    }
    const auto out = standings();
    EXPECT_EQ(repeats_in(out),
              "repeats: 2 pairs (4 of 6 games) repeat earlier pairs move for move and count, as "
              "the\n         config's count_repeats says: the bots are taken as "
              "non-deterministic")
        << out;
    EXPECT_EQ(row_words(out, "a").at(4), "6") << out;
}

// `config` for a tournament of two deterministic random bots, 20 games.
std::string two_random_bots(const fs::path& db, const std::string& openings) {
    return "name: t\n"
           "game: { name: connect4 }\n"
           "schedule: { type: round-robin, games_per_pair: 20 }\n" +
           openings + "concurrency: 2\nseed: 5\ndatabase: " + db.string() +
           "\nbots:\n"
           "  - { name: one, command: " +
           bin("bots/random") + " --seed 1 }\n  - { name: two, command: " + bin("bots/random") +
           " --seed 2 }\n";
}

// Deterministic bots without openings replay one game per colour, over and
// over: `arena run` says so at the end, and the file agrees.
TEST_F(StandingsTest, DeterministicBotsWithoutOpeningsRepeatTheirGames) {
    const auto config = dir_ / "t.yaml";
    std::ofstream(config) << two_random_bots(db_, "");
    const auto r = run_arena(dir_, {"run", config.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(repeats_in(r.out), repeats_note(9, 20)) << r.out;
    EXPECT_EQ(repeats_in(standings()), repeats_note(9, 20));

    // Two different games, each stored ten times.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(db_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT count(*) FROM games GROUP BY first_bot, second_bot, "
                                 "moves_hash ORDER BY 1",
                                 -1, &stmt, nullptr),
              SQLITE_OK);
    std::vector<int> copies;
    while (sqlite3_step(stmt) == SQLITE_ROW)
        copies.push_back(sqlite3_column_int(stmt, 0));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    EXPECT_EQ(copies, (std::vector<int>{10, 10}));
}

TEST_F(StandingsTest, OpeningsMakeTheSameBotsPlayDifferentGames) {
    const auto config = dir_ / "t.yaml";
    std::ofstream(config) << two_random_bots(db_, "openings: { random_plies: 4 }\n");
    const auto r = run_arena(dir_, {"run", config.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(line_starting(r.out, "first-mover advantage: "), "") << r.out;
    EXPECT_EQ(repeats_in(r.out), "") << r.out;
    // A two-bot run ends with the difference and its interval.
    EXPECT_NE(line_starting(r.out, "Elo: "), "") << r.out;
    EXPECT_NE(line_starting(r.out, "Ptnml(0-2): "), "") << r.out;
}

// ---- anchors ------------------------------------------------------------------

using Shown = std::pair<std::string, std::string>;

// The elo and ±95% columns of `bot`'s row, as printed.
Shown elo_of(const std::string& out, const std::string& bot) {
    std::istringstream words(row_of(out, bot));
    std::string rank, name, elo, error;
    words >> rank >> name >> elo >> error;
    return {elo, error};
}

// A round-robin of three random bots a, b and c, 4 games a pair, with
// `extra` config lines.
std::string three_random_bots(const fs::path& db, const std::string& extra) {
    std::string text =
        "name: t\ngame: { name: connect4 }\n"
        "schedule: { type: round-robin, games_per_pair: 4 }\n"
        "openings: { random_plies: 2 }\nconcurrency: 2\nseed: 9\ndatabase: " +
        db.string() + "\n" + extra + "bots:\n";
    for (const char* b : {"a", "b", "c"})
        text += std::string("  - { name: ") + b + ", command: " + bin("bots/random") + " --seed " +
                std::to_string(b[0]) + " }\n";
    return text;
}

// `arena run` stores the ratings it shows; `arena standings` only shows
// them, whatever its anchors (it opens the database read-only).
TEST_F(StandingsTest, AnchorsFromTheConfigAndFromTheCommandLineAreExactAndSaved) {
    const auto config = dir_ / "t.yaml";
    std::ofstream(config) << three_random_bots(db_, "anchors: { a: 1500, c: -12.5 }\n");
    const auto run = run_arena(dir_, {"run", config.string()});
    ASSERT_EQ(run.status, 0) << run.err;
    // The run's standings, and later ones without --anchor, use the config's anchors.
    for (const auto& out : {run.out, standings()}) {
        EXPECT_EQ(line_starting(out, "ratings"), "ratings anchored: a 1500, c -12.5") << out;
        EXPECT_EQ(elo_of(out, "a"), Shown("1500", "0")) << out;
        EXPECT_EQ(elo_of(out, "c"), Shown("-12", "0")) << out;
    }
    EXPECT_EQ(std::stod(view("elo").at("a")), 1500.0);
    EXPECT_EQ(std::stod(view("elo").at("c")), -12.5);
    EXPECT_EQ(std::stod(view("error").at("a")), 0.0);
    EXPECT_GT(std::stod(view("error").at("b")), 0.0);

    // --anchor replaces them in what is shown; the database keeps the run's.
    auto r = run_arena(dir_, {"standings", db_.string(), "--anchor", "a=1500", "--anchor", "b=0"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(line_starting(r.out, "ratings"), "ratings anchored: a 1500, b 0") << r.out;
    EXPECT_EQ(elo_of(r.out, "a").first, "1500") << r.out;
    EXPECT_EQ(elo_of(r.out, "b"), Shown("0", "0")) << r.out;
    const auto stored_by_the_run = [&] {
        EXPECT_EQ(std::stod(view("elo").at("a")), 1500.0);
        EXPECT_EQ(std::stod(view("elo").at("c")), -12.5);
        EXPECT_EQ(std::stod(view("error").at("a")), 0.0);
        EXPECT_GT(std::stod(view("error").at("b")), 0.0);
    };
    stored_by_the_run();

    // A bare name is that bot at 0.
    r = run_arena(dir_, {"standings", db_.string(), "--anchor", "c"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(line_starting(r.out, "ratings"), "ratings anchored: c 0") << r.out;
    EXPECT_EQ(elo_of(r.out, "c"), Shown("0", "0")) << r.out;
    stored_by_the_run();
}

TEST_F(StandingsTest, WithoutAnchorsTheRatingsHaveMeanZeroAndSaySo) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b", "c"}, 6);
        store.record_game(t, slot(0), game("a", "b", Outcome::kWin1));
        store.record_game(t, slot(1), game("b", "a", Outcome::kDraw));
        store.record_game(t, slot(2), game("b", "c", Outcome::kWin1));
        store.record_game(t, slot(3), game("c", "b", Outcome::kWin1));
    }
    const auto out = standings();
    EXPECT_EQ(lines_of(out).at(2), "ratings: mean 0") << out;
    // Shown as whole numbers: each within half a point of the fit.
    double sum = 0.0;
    for (const std::string bot : {"a", "b", "c"})
        sum += std::stod(elo_of(out, bot).first);
    EXPECT_NEAR(sum, 0.0, 1.5) << out;
    // Shown, not stored.
    EXPECT_EQ(view("elo IS NULL").at("a"), "1") << out;
}

TEST_F(StandingsTest, BadAnchorsAreOneUsageErrorNamingTheOption) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 2);
        store.record_game(t, slot(0), game("a", "b", Outcome::kWin1));
        store.record_game(t, slot(1), game("b", "a", Outcome::kDraw));
    }
    const std::string usage = "\n(arena standings --help for usage)\n";
    const struct {
        std::vector<std::string> args;
        std::string err;
    } cases[] = {
        {{"--anchor", "a=abc"},
         "arena standings: --anchor 'a=abc': the rating after '=' must be a number from -100000 "
         "to 100000 (BOT=ELO, e.g. --anchor random=0)" +
             usage},
        {{"--anchor", "a=inf"},
         "arena standings: --anchor 'a=inf': the rating after '=' must be a number from -100000 "
         "to 100000 (BOT=ELO, e.g. --anchor random=0)" +
             usage},
        {{"--anchor", "a="},
         "arena standings: --anchor 'a=': the rating after '=' must be a number from -100000 "
         "to 100000 (BOT=ELO, e.g. --anchor random=0)" +
             usage},
        {{"--anchor", "=5"}, "arena standings: --anchor '=5': no bot name before '='" + usage},
        {{"--anchor", "a=1", "--anchor", "a=2"},
         "arena standings: --anchor: bot 'a' is anchored twice" + usage},
        {{"--anchor", "zed=100"},
         "arena standings: --anchor zed: tournament 't' in " + db_.string() +
             " has no bot 'zed'\n"},
        {{"--pairs", "--vs", "a", "b"},
         "arena standings: --pairs and --vs cannot be combined (--pairs prints every pair)" +
             usage},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args = {"standings", db_.string()};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto r = run_arena(dir_, args);
        EXPECT_EQ(r.status, 2) << c.args.front() << " " << c.args.back();
        EXPECT_EQ(r.err, c.err);
        EXPECT_EQ(r.out, "");
    }
}

TEST_F(StandingsTest, StoredConfigAnchorsMustBeTheTournamentsBots) {
    const auto with_config = [&](const std::string& config_text) {
        fs::remove(db_);
        store::ResultsStore store(db_);
        const auto t =
            store.create_tournament({"t", "connect4", config_text, "fp", 1, 2},
                                    {{"a", "./a", "arena1", ""}, {"b", "./b", "arena1", ""}});
        store.record_game(t, slot(0), game("a", "b", Outcome::kWin1));
        store.record_game(t, slot(1), game("b", "a", Outcome::kDraw));
    };
    const std::string prefix = "arena standings: tournament 't' in " + db_.string() + ": ";
    const std::string hint = " (give the anchors with --anchor BOT=ELO instead)\n";
    const struct {
        std::string config, err;
    } cases[] = {
        {"name: t\nanchors: { a: 0, zed: 100 }\n",
         prefix + "its config anchors 'zed', which is not one of its bots" + hint},
        {"name: t\nanchors: [a, b]\n",
         prefix + "the config's 'anchors': not a map of bot: rating" + hint},
        {"name: t\nanchors: { a: high }\n",
         prefix +
             "the config's 'anchors': the rating of 'a' is not a number from -100000 to 100000" +
             hint},
    };
    for (const auto& c : cases) {
        with_config(c.config);
        const auto r = run_arena(dir_, {"standings", db_.string()});
        EXPECT_EQ(r.status, 2) << c.config;
        EXPECT_EQ(r.err, c.err);
        // --anchor does not read them.
        const auto given = run_arena(dir_, {"standings", db_.string(), "--anchor", "b=7"});
        EXPECT_EQ(given.status, 0) << given.err;
        EXPECT_EQ(line_starting(given.out, "ratings"), "ratings anchored: b 7") << given.out;
    }
    // Only the key is read: the rest of the config may name bots that are gone.
    with_config("name: t\nbots:\n  - { name: a, command: /nonexistent/a }\nanchors: { b: 200 }\n");
    const auto out = standings();
    EXPECT_EQ(line_starting(out, "ratings"), "ratings anchored: b 200") << out;
    EXPECT_EQ(elo_of(out, "b").first, "200") << out;
}

// ---- head-to-head blocks --------------------------------------------------------

// `arena standings --vs a b` on db_.
std::string versus(const fs::path& dir, const fs::path& db, const std::string& a,
                   const std::string& b) {
    const auto r = run_arena(dir, {"standings", db.string(), "--vs", a, b});
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
}

TEST_F(StandingsTest, PairsPrintsTheHeadToHeadOfEveryPairThatMet) {
    {
        store::ResultsStore store(db_);
        // d never plays; a beats b and c, b beats c, all in colour-swapped pairs.
        const auto t = create(store, {"c", "d", "b", "a"}, 40);
        std::int64_t i = 0;
        const auto pair = [&](const std::string& x, const std::string& y, Outcome first,
                              Outcome second) {
            // Each pair its own games (plies), or repeats would be set aside.
            const int plies = 7 + static_cast<int>(i);
            store.record_game(t, slot(i++), game(x, y, first, Termination::kNormal, plies));
            store.record_game(t, slot(i++), game(y, x, second, Termination::kNormal, plies));
        };
        for (int k = 0; k < 3; ++k) {
            pair("a", "b", Outcome::kWin1, Outcome::kWin2);
            pair("b", "a", Outcome::kDraw, Outcome::kWin1);
            pair("a", "c", Outcome::kWin1, Outcome::kDraw);
            pair("c", "b", Outcome::kWin2, Outcome::kWin1);
            pair("b", "c", Outcome::kWin1, Outcome::kDraw);
        }
    }
    const auto r = run_arena(dir_, {"standings", db_.string(), "--pairs"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    // A title, then one block per pair that met, higher-rated bot first,
    // each the same as --vs prints.
    const std::string expected =
        "t: 30 of 40 games, connect4; 3 pairs of bots that met, in the "
        "standings' order (ratings: mean 0)\n\n" +
        versus(dir_, db_, "a", "b") + "\n" + versus(dir_, db_, "a", "c") + "\n" +
        versus(dir_, db_, "b", "c");
    EXPECT_EQ(r.out, expected);
    EXPECT_NE(r.out.find("a vs b (from a's side): 12 games, 6 colour-swapped pairs\n"),
              std::string::npos);
    EXPECT_EQ(r.out.find(" d "), std::string::npos) << r.out;

    // Anchors that turn the order round turn the blocks round too.
    const auto anchored = run_arena(
        dir_, {"standings", db_.string(), "--pairs", "--anchor", "c=1000", "--anchor", "a=0"});
    ASSERT_EQ(anchored.status, 0) << anchored.err;
    EXPECT_NE(
        anchored.out.find("(ratings anchored: c 1000, a 0)\n\n" + versus(dir_, db_, "c", "b")),
        std::string::npos)
        << anchored.out;
}

TEST_F(StandingsTest, TwoBotsEndWithTheirHeadToHead) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"weak", "strong"}, 20);
        std::int64_t i = 0;
        for (int k = 0; k < 5; ++k) {
            // Each pair its own games (plies), or repeats would be set aside.
            store.record_game(t, slot(i++),
                              game("strong", "weak", Outcome::kWin1, Termination::kNormal, 7 + k));
            store.record_game(t, slot(i++),
                              game("weak", "strong", k < 2 ? Outcome::kWin1 : Outcome::kDraw,
                                   Termination::kNormal, 7 + k));
        }
    }
    const auto out = standings();
    const auto block = versus(dir_, db_, "strong", "weak");
    EXPECT_TRUE(
        block.starts_with("strong vs weak (from strong's side): 10 games, "
                          "5 colour-swapped pairs\nElo: "))
        << block;
    EXPECT_NE(block.find("\nPtnml(0-2): "), std::string::npos) << block;
    ASSERT_GT(out.size(), block.size());
    EXPECT_EQ(out.substr(out.size() - block.size() - 1), "\n" + block) << out;
    EXPECT_NE(row_of(out, "strong"), "") << out;  // the table is still there
}

TEST_F(StandingsTest, TwoBotsWithoutCompletePairsGetTheTrinomialBlock) {
    {
        store::ResultsStore store(db_);
        const auto t = create(store, {"a", "b"}, 20);
        // Every game in a pair of its own: no pair is complete.
        for (std::int64_t i = 0; i < 6; ++i) {
            store.record_game(t, {i, 0, static_cast<int>(i), 0, ""},
                              game("a", "b", i < 4 ? Outcome::kWin1 : Outcome::kWin2));
        }
    }
    const auto out = standings();
    EXPECT_NE(out.find("\na vs b (from a's side): 6 games, 0 colour-swapped pairs\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("no complete colour-swapped pair: from the games (trinomial)\nElo: "),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("Games: 6, Wins: 4, Losses: 2, Draws: 0"), std::string::npos) << out;
}

}  // namespace
}  // namespace arena
