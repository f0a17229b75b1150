// Opening suites and their order.
//
// The shipped balanced suites (configs/openings/*-balanced, gomoku-15-*) are
// loaded through the config loader, which checks that every line is legal and
// leaves the game unfinished; their lines must reach distinct positions, have
// the stated lengths, and a fixed sample of each must pass the criterion of
// docs/openings.md when judged again by the reference bots' own engines
// (bots/tools/opening_checks.hpp). The keys `order` and `start` are parsed and
// validated like their neighbours, and the pairs take the openings exactly as
// docs/config.md says.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "bots/tools/opening_checks.hpp"
#include "db_query.hpp"
#include "temp_dir.hpp"

namespace arena::tournament {
namespace {

using arena::testing::TempDir;
namespace fs = std::filesystem;

constexpr const char* kFile = "t.yaml";

const std::string kBots = R"(bots:
  - { name: a, command: /bin/sh }
  - { name: b, command: /bin/sh }
)";

std::string error_of(const std::string& yaml) {
    try {
        static_cast<void>(parse_config(yaml, kFile));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "<no error>";
}

// A connect4 config whose openings are `openings` (the text inside the braces).
std::string connect4_with(const std::string& openings, std::uint64_t seed = 1) {
    return "name: t\ngame: { name: connect4 }\nopenings: { " + openings +
           " }\nseed: " + std::to_string(seed) + "\n" + kBots;
}

// Seven one-move openings, "1" .. "7": line i (0-based) is column i + 1.
class OpeningOrderTest : public ::testing::Test {
  protected:
    TempDir dir_{"openings_test"};
    const std::string file_ = dir_.write("seven.txt", "# one move each\n1\n2\n\n3\n4\n5\n6\n7\n");
    static constexpr std::size_t kLines = 7;

    Config parse(const std::string& keys, std::uint64_t seed = 1) const {
        return parse_config(connect4_with("file: " + file_ + keys, seed), kFile);
    }
    // The first move of pair p's opening, as a line index (its line, and
    // from the second pass on kPassPlies more).
    static std::size_t line_of(const Config& c, int p) {
        const PairSetup setup = pair_setup(c, p);
        EXPECT_EQ(setup.opening.size(),
                  opening_pass(c, p) == 0 ? 1u : 1u + static_cast<std::size_t>(kPassPlies));
        return setup.opening.empty() ? 99 : static_cast<std::size_t>(setup.opening[0]);
    }
};

TEST_F(OpeningOrderTest, KeysParse) {
    Config c = parse("");
    EXPECT_EQ(c.openings.order, OpeningOrder::kSeededStart);
    EXPECT_EQ(c.openings.start, 1);
    c = parse(", order: sequential");
    EXPECT_EQ(c.openings.order, OpeningOrder::kSequential);
    EXPECT_EQ(c.openings.start, 1);
    c = parse(", order: random, start: 7");
    EXPECT_EQ(c.openings.order, OpeningOrder::kRandom);
    EXPECT_EQ(c.openings.start, 7);
    c = parse(", start: 4");  // start alone: sequential
    EXPECT_EQ(c.openings.order, OpeningOrder::kSequential);
    EXPECT_EQ(c.openings.start, 4);
}

TEST_F(OpeningOrderTest, SequentialFromStartWrapsAround) {
    const Config c = parse(", order: sequential, start: 3");
    for (int p = 0; p < 20; ++p) {
        const std::size_t expected = (2 + static_cast<std::size_t>(p)) % kLines;
        EXPECT_EQ(opening_line(c, p), expected) << "pair " << p;
        EXPECT_EQ(line_of(c, p), expected) << "pair " << p;  // column index = line index
    }
    // Default start: the first line goes to pair 0, whatever the seed.
    EXPECT_EQ(opening_line(parse(", order: sequential", 99), 0), 0u);
    EXPECT_EQ(opening_line(parse(", order: sequential", 99), 8), 1u);
}

// Once every line was used, each line comes back with kPassPlies more plies,
// a different continuation on each pass, so later pairs do not replay
// earlier ones; the first pass is the file's lines as they are.
TEST_F(OpeningOrderTest, LaterPassesExtendEachLineWithADifferentContinuation) {
    const Config c = parse(", order: sequential");
    std::set<std::vector<games::Move>> openings;
    for (int p = 0; p < 7 * 8; ++p) {
        const PairSetup setup = pair_setup(c, p);
        EXPECT_EQ(opening_pass(c, p), static_cast<std::size_t>(p) / kLines);
        EXPECT_EQ(setup.opening.front(), static_cast<games::Move>(p % 7));
        EXPECT_TRUE(openings.insert(setup.opening).second) << "pair " << p << " repeats";
        EXPECT_EQ(pair_setup(c, p).opening, setup.opening);  // a function of the pair
    }
    // Another seed, other continuations.
    const Config other = parse(", order: sequential", 2);
    int differ = 0;
    for (int p = 7; p < 7 * 8; ++p)
        differ += pair_setup(other, p).opening != pair_setup(c, p).opening;
    EXPECT_GT(differ, 40);
}

TEST_F(OpeningOrderTest, RandomIsASeededShuffleUsedOncePerPair) {
    const Config c = parse(", order: random");
    const std::vector<std::size_t> order = opening_order(c);
    ASSERT_EQ(order.size(), kLines);
    std::vector<std::size_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < kLines; ++i)
        EXPECT_EQ(sorted[i], i);  // a permutation
    // Every opening once in the first n pairs, then the same order again.
    std::set<std::size_t> used;
    for (int p = 0; p < static_cast<int>(kLines); ++p) {
        EXPECT_EQ(opening_line(c, p), order[static_cast<std::size_t>(p)]);
        EXPECT_EQ(line_of(c, p), order[static_cast<std::size_t>(p)]);
        used.insert(opening_line(c, p));
        EXPECT_EQ(opening_line(c, p + static_cast<int>(kLines)), opening_line(c, p));
    }
    EXPECT_EQ(used.size(), kLines);
    // The same config gives the same shuffle; start shifts along it.
    EXPECT_EQ(opening_order(parse(", order: random")), order);
    const Config shifted = parse(", order: random, start: 3");
    for (int p = 0; p < 10; ++p)
        EXPECT_EQ(opening_line(shifted, p), opening_line(c, p + 2));
    // Other seeds give other shuffles (of 7! orders, these four are distinct
    // for the seeds chosen, and none is the file order).
    std::set<std::vector<std::size_t>> orders;
    for (std::uint64_t seed : {1, 2, 3, 4}) {
        const auto o = opening_order(parse(", order: random", seed));
        EXPECT_NE(o, opening_order(parse(", order: sequential", seed)));
        orders.insert(o);
    }
    EXPECT_EQ(orders.size(), 4u);
}

TEST_F(OpeningOrderTest, WithoutOrderTheSeededStartIsKept) {
    // The behaviour of configs without the keys: consecutive lines from a
    // start drawn from the seed, and a fingerprint that does not mention them.
    for (std::uint64_t seed : {1, 5, 77}) {
        const Config c = parse("", seed);
        const std::size_t first = opening_line(c, 0);
        for (int p = 1; p < 10; ++p)
            EXPECT_EQ(opening_line(c, p), (first + static_cast<std::size_t>(p)) % kLines);
        EXPECT_EQ(fingerprint(c).find("order="), std::string::npos);
    }
}

TEST_F(OpeningOrderTest, OrderAndStartAreInTheFingerprint) {
    const std::string plain = fingerprint(parse(""));
    const std::string sequential = fingerprint(parse(", order: sequential"));
    const std::string random = fingerprint(parse(", order: random"));
    const std::string started = fingerprint(parse(", order: random, start: 2"));
    EXPECT_NE(plain, sequential);
    EXPECT_NE(sequential, random);
    EXPECT_NE(random, started);
    EXPECT_NE(started.find("order=random start=2"), std::string::npos);
}

// per_opponent: same: in a gauntlet, the k-th pair against every opponent
// starts from the same opening; by default the pairs take the file in turn.
TEST_F(OpeningOrderTest, PerOpponentSameGivesEveryOpponentTheSameOpenings) {
    const auto gauntlet = [&](const std::string& keys) {
        return parse_config(
            "name: t\ngame: { name: connect4 }\nschedule: { type: gauntlet, "
            "challenger: a, games_per_pair: 10 }\nopenings: { file: " +
                file_ + ", order: sequential" + keys + " }\n" + kBots +
                "  - { name: c, command: /bin/sh }\n",
            kFile);
    };
    for (const bool same : {true, false}) {
        const Config c = gauntlet(same ? ", per_opponent: same" : "");
        EXPECT_EQ(c.openings.same_per_opponent, same);
        // The openings of each meeting's pairs, in order.
        std::map<int, std::vector<std::vector<games::Move>>> by_opponent;
        for (const auto& p : make_schedule(c)) {
            if (p.game_in_pair != 0) continue;
            EXPECT_EQ(p.meeting_pair, static_cast<int>(by_opponent[p.second].size()));
            by_opponent[p.second].push_back(pair_setup(c, p).opening);
        }
        ASSERT_EQ(by_opponent.size(), 2u);
        EXPECT_EQ(by_opponent[1].size(), 5u);
        EXPECT_EQ(by_opponent[1] == by_opponent[2], same);
        if (same) {
            // The file's lines in order, from the first, for each opponent.
            for (std::size_t k = 0; k < 5; ++k)
                EXPECT_EQ(by_opponent[2][k].front(), static_cast<games::Move>(k));
        }
    }
    EXPECT_NE(fingerprint(gauntlet(", per_opponent: same")), fingerprint(gauntlet("")));
    EXPECT_EQ(fingerprint(gauntlet(", per_opponent: different")), fingerprint(gauntlet("")));
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nopenings: { file: " + file_ +
                       ", per_opponent: sam }\n" + kBots),
              "t.yaml:3:" +
                  std::to_string(
                      std::string("openings: { file: " + file_ + ", per_opponent: ").size() + 1) +
                  ": unknown per_opponent 'sam' (known: same, different) (did you mean 'same'?)");
}

TEST_F(OpeningOrderTest, BadKeysGetOneMessageWithFileLineAndColumn) {
    // Line 3 is the openings line; columns count from 1.
    const std::string prefix = "openings: { file: " + file_ + ", ";
    const auto col = [&](const std::string& rest) {
        return std::to_string(prefix.size() + rest.size() + 1);
    };
    EXPECT_EQ(error_of(connect4_with("file: " + file_ + ", order: shuffled")),
              "t.yaml:3:" + col("order: ") +
                  ": unknown openings order 'shuffled' (known: sequential, random)");
    EXPECT_EQ(error_of(connect4_with("file: " + file_ + ", order: randon")),
              "t.yaml:3:" + col("order: ") +
                  ": unknown openings order 'randon' (known: sequential, random) (did you mean "
                  "'random'?)");
    EXPECT_EQ(error_of(connect4_with("file: " + file_ + ", start: 0")),
              "t.yaml:3:" + col("start: ") + ": start must be positive, got 0");
    EXPECT_EQ(error_of(connect4_with("file: " + file_ + ", start: 8")),
              "t.yaml:3:" + col("start: ") + ": start 8 is past the last of the 7 openings in '" +
                  file_ + "'");
    EXPECT_EQ(error_of(connect4_with("file: " + file_ + ", start: x")),
              "t.yaml:3:" + col("start: ") + ": expected an integer for 'start', got 'x'");
    EXPECT_EQ(error_of(connect4_with("random_plies: 2, order: random")),
              "t.yaml:3:37: 'order' in 'openings' needs an openings 'file'");
    EXPECT_EQ(error_of(connect4_with("start: 2")),
              "t.yaml:3:20: 'start' in 'openings' needs an openings 'file'");
    EXPECT_NE(
        error_of(connect4_with("file: " + file_ + ", strat: 2")).find("(did you mean 'start'?)"),
        std::string::npos);
}

// A real run stores, for every game, the opening its pair was assigned; after
// games are lost (deleted from the database), the same command plays them
// again with the same openings, so the sequence continues exactly.
// arena match needs no per-opponent option: matches of one bot against
// different opponents with the same --seed play the same openings, pair for
// pair (docs/config.md).
TEST(OpeningsRun, MatchesWithTheSameSeedGiveEveryOpponentTheSameOpenings) {
    TempDir dir("openings_match");
    const std::string bots = std::string(ARENA_BINARY_DIR) + "/bots/";
    std::vector<std::vector<std::vector<std::string>>> openings;
    for (const std::string opponent : {"c4-features", "c4-alphabeta"}) {
        const fs::path db = dir.path() / (opponent + ".db");
        const auto r = arena::testing::run_arena(
            dir.path(), {"match", "--game", "connect4", "--games", "6", "--move-ms", "1000",
                         "--seed", "9", "--db", db.string(), bots + "random", bots + opponent});
        ASSERT_EQ(r.status, 0) << r.err;
        openings.push_back(arena::testing::query(
            db, "SELECT pair_index, game_in_pair, opening FROM games ORDER BY game_index"));
    }
    ASSERT_EQ(openings[0].size(), 6u);
    EXPECT_EQ(openings[0], openings[1]);
    EXPECT_NE(openings[0][0][2], openings[0][2][2]);  // each pair its own opening
}

TEST(OpeningsRun, EachPairPlaysItsOpeningAndAResumeContinuesTheSequence) {
    TempDir dir("openings_run");
    const std::string file = dir.write("seven.txt", "1\n2\n3\n4\n5\n6\n7\n");
    const std::string random = std::string(ARENA_BINARY_DIR) + "/bots/random --game connect4";
    const std::string yaml =
        "name: seq\ngame: { name: connect4 }\ntime: { move_ms: 2000 }\n"
        "schedule: { type: round-robin, games_per_pair: 4 }\n"
        "openings: { file: " +
        file +
        ", order: random, start: 2 }\n"
        "concurrency: 2\nseed: 5\ndatabase: " +
        (dir.path() / "seq.db").string() +
        "\nbots:\n"
        "  - { name: r1, command: " +
        random + " --seed 1 }\n  - { name: r2, command: " + random +
        " --seed 2 }\n  - { name: r3, command: " + random + " --seed 3 }\n";
    const std::string config = dir.write("seq.yaml", yaml);
    const Config parsed = parse_config(yaml, config);
    const fs::path db = dir.path() / "seq.db";

    // 3 pairings x 2 colour-swapped pairs: pairs 0..5 take entries 2..7 of the shuffle.
    const auto check = [&] {
        const auto rows =
            arena::testing::query(db, "SELECT pair_index, opening FROM games ORDER BY game_index");
        EXPECT_EQ(rows.size(), 12u);
        std::set<std::string> openings;
        for (const auto& row : rows) {
            const int pair = std::stoi(row[0]);
            EXPECT_EQ(row[1], parsed.openings.lines[opening_line(parsed, pair)][0])
                << "pair " << pair;
            openings.insert(row[1]);
        }
        EXPECT_EQ(openings.size(), 6u);  // no opening served two pairs
    };
    auto r = arena::testing::run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.err;
    check();

    sqlite3* handle = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(handle, "PRAGMA foreign_keys = ON; DELETE FROM games WHERE pair_index >= 3",
                     nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(handle);
    ASSERT_EQ(arena::testing::query_one(db, "SELECT count(*) FROM games"), "6");
    r = arena::testing::run_arena(dir.path(), {"run", config});
    ASSERT_EQ(r.status, 0) << r.err;
    check();
}

// scripts/import-openings: community formats into openings files that the
// config loader accepts.
struct Imported {
    int status = -1;
    std::string out, err;
};

Imported import_openings(const TempDir& dir, const std::string& format, const std::string& input) {
    const std::string in = dir.write("in.txt", input);
    const fs::path out = dir.path() / "out.txt", err = dir.path() / "err.txt";
    const std::string command = "python3 " + std::string(ARENA_SOURCE_DIR) +
                                "/scripts/import-openings " + format + " < " + in + " > " +
                                out.string() + " 2> " + err.string();
    const int status = std::system(command.c_str());
    Imported r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const auto slurp = [](const fs::path& p) {
        std::ifstream f(p);
        return std::string(std::istreambuf_iterator<char>(f), {});
    };
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

// The imported file's openings as the config loader reads them for `game`.
std::vector<std::vector<std::string>> load_imported(const TempDir& dir, const std::string& text,
                                                    const std::string& game) {
    const std::string file = dir.write("imported.txt", text);
    return parse_config("name: t\ngame: " + game + "\nopenings: { file: " + file + " }\n" + kBots,
                        kFile)
        .openings.lines;
}

TEST(Import, CommunityFormatsBecomeLegalOpenings) {
    if (std::system("python3 -c pass 2>/dev/null") != 0) GTEST_SKIP() << "no python3";
    TempDir dir("openings_import");
    auto r = import_openings(dir, "gomocup", "# sure-win test\n0,0, 1,1, -1,1\n 0, 0, 1, 0 \n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "# sure-win test\nh8 i7 g7\nh8 i8\n");  // y grows downwards
    using Lines = std::vector<std::vector<std::string>>;
    EXPECT_EQ(load_imported(dir, r.out, "{ name: gomoku, size: 15 }"),
              (Lines{{"h8", "i7", "g7"}, {"h8", "i8"}}));

    r = import_openings(dir, "othello", "f5d6c3d3\nF5F6\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "f5 d6 c3 d3\nf5 f6\n");
    EXPECT_EQ(load_imported(dir, r.out, "{ name: reversi }").size(), 2u);

    r = import_openings(dir, "connect4", "4453\n44 # centre\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "4 4 5 3\n4 4  # centre\n");
    EXPECT_EQ(load_imported(dir, r.out, "{ name: connect4 }"),
              (Lines{{"4", "4", "5", "3"}, {"4", "4"}}));

    r = import_openings(dir, "arena", "4, 4,3\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "4 4 3\n");
}

TEST(Import, AnUnreadableLineIsNamedAndNothingIsWritten) {
    if (std::system("python3 -c pass 2>/dev/null") != 0) GTEST_SKIP() << "no python3";
    TempDir dir("openings_import");
    auto r = import_openings(dir, "connect4", "44\n4x3\n");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "import-openings: line 2: not a string of column digits 1-9: 4x3\n");
    r = import_openings(dir, "gomocup", "0,0,9,0\n");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "import-openings: line 1: offset 9,0 is off the 15x15 board\n");
    r = import_openings(dir, "othello", "f5d\n");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "import-openings: line 1: an odd number of characters\n");
    r = import_openings(dir, "chess", "");
    EXPECT_EQ(r.status, 2);
}

// --- the shipped suites -----------------------------------------------------

struct Suite {
    std::string file;  // under configs/openings/
    std::string game;  // the config's game map
    std::size_t min_lines;
    std::size_t min_moves, max_moves;
};

// The suite's openings, loaded and checked by the config loader.
std::vector<std::vector<std::string>> load_suite(const Suite& s) {
    const fs::path path = fs::path(ARENA_SOURCE_DIR) / "configs/openings" / s.file;
    const Config c = parse_config(
        "name: t\ngame: " + s.game + "\nopenings: { file: " + path.string() + " }\n" + kBots,
        kFile);
    return c.openings.lines;
}

// The position each line reaches, rendered, must be new.
void expect_suite_shape(const Suite& s, const std::vector<std::vector<std::string>>& lines,
                        const std::string& game, const games::Params& params) {
    EXPECT_GE(lines.size(), s.min_lines) << s.file;
    const auto g = games::make_game(game, params);
    std::set<std::string> positions;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& line = lines[i];
        EXPECT_GE(line.size(), s.min_moves) << s.file << " opening " << i + 1;
        EXPECT_LE(line.size(), s.max_moves) << s.file << " opening " << i + 1;
        auto state = g->new_initial_state();
        for (const auto& text : line)
            state->apply(*state->parse_move(text));  // legal: the loader checked it
        EXPECT_TRUE(positions.insert(state->render()).second)
            << s.file << " opening " << i + 1 << " repeats a position";
    }
}

// A fixed sample: `count` lines spread evenly over the file.
std::vector<std::size_t> sample(std::size_t lines, std::size_t count) {
    std::vector<std::size_t> picks;
    for (std::size_t k = 0; k < count; ++k)
        picks.push_back(k * lines / count);
    return picks;
}

// Under a sanitizer every search runs several times slower: a smaller sample,
// enough to look for memory errors in the judges (the release build's larger
// one checks the balance).
std::size_t sample_size() {
#ifdef ARENA_SANITIZE
    return 2;
#else
    return 8;
#endif
}

const Suite kConnect4{"connect4-7x6-balanced.txt", "{ name: connect4, rows: 6, cols: 7 }", 1000, 4,
                      8};

TEST(Suites, Connect4IsLegalAndDistinct) {
    const auto lines = load_suite(kConnect4);
    expect_suite_shape(kConnect4, lines, "connect4", {{"rows", "6"}, {"cols", "7"}});
}

// Each proof takes a second or more: the sample is judged in two halves, two
// tests, so that neither comes near a test's time limit on a loaded machine.
void check_connect4_sample(std::size_t half) {
    const auto lines = load_suite(kConnect4);
    openings::C4Judge judge(22);
    const auto picks = sample(lines.size(), sample_size());
    for (std::size_t k = half; k < picks.size(); k += 2) {
        const std::size_t i = picks[k];
        const auto v = judge.judge(lines[i], 2);
        ASSERT_TRUE(v.has_value()) << "opening " << i + 1;
        EXPECT_FALSE(v->immediate_win) << "opening " << i + 1;
        EXPECT_TRUE(v->within) << "opening " << i + 1 << ": exact score beyond -2..2";
    }
}

TEST(Suites, Connect4SampleIsBalancedFirstHalf) {
    check_connect4_sample(0);
}

TEST(Suites, Connect4SampleIsBalancedSecondHalf) {
    check_connect4_sample(1);
}

TEST(Suites, Connect4JudgeRejectsUnbalancedLines) {
    openings::C4Judge judge(20);
    // Three in a row on the bottom with the fourth cell free: a win at once.
    auto v = judge.judge({"1", "1", "2", "2", "3", "3"}, 2);
    ASSERT_TRUE(v.has_value());
    EXPECT_TRUE(v->immediate_win);
    // A line that ends the game is not an opening.
    EXPECT_FALSE(judge.judge({"1", "2", "1", "2", "1", "2", "1"}, 2).has_value());
    EXPECT_FALSE(judge.judge({"8"}, 2).has_value());
    // Exact scores: the threshold is the solver's.
    const auto score = judge.score({"4", "4", "4", "4", "4", "4", "3", "3"});
    ASSERT_TRUE(score.has_value());
    v = judge.judge({"4", "4", "4", "4", "4", "4", "3", "3"}, std::abs(*score));
    ASSERT_TRUE(v.has_value());
    EXPECT_TRUE(v->within);
    if (std::abs(*score) > 0) {
        v = judge.judge({"4", "4", "4", "4", "4", "4", "3", "3"}, std::abs(*score) - 1);
        ASSERT_TRUE(v.has_value());
        EXPECT_FALSE(v->within);
    }
}

void check_gomoku(const std::string& rule) {
    const Suite s{"gomoku-15-" + rule + ".txt", "{ name: gomoku, size: 15, rule: " + rule + " }",
                  500, 3, 5};
    const auto lines = load_suite(s);
    expect_suite_shape(s, lines, "gomoku", {{"size", "15"}, {"rule", rule}});
    for (const auto& line : lines)
        for (const auto& m : line) {
            // Within two steps (king moves) of h8.
            const int col = m[0] - 'a', row = std::stoi(m.substr(1)) - 1;
            EXPECT_LE(std::abs(col - 7), 2) << m;
            EXPECT_LE(std::abs(row - 7), 2) << m;
        }
    for (const std::size_t i : sample(lines.size(), sample_size())) {
        const auto v = openings::judge_gomoku(rule, lines[i]);
        ASSERT_TRUE(v.has_value()) << "opening " << i + 1;
        EXPECT_FALSE(v->vcf_to_move) << "opening " << i + 1;
        EXPECT_FALSE(v->vcf_other) << "opening " << i + 1;
        EXPECT_FALSE(v->undecided) << "opening " << i + 1;
        EXPECT_LE(std::abs(v->score), 400) << "opening " << i + 1;
        EXPECT_LE(std::abs(v->score_before), 400) << "opening " << i + 1;
    }
}

TEST(Suites, GomokuFreestyleIsLegalDistinctAndBalanced) {
    check_gomoku("freestyle");
}

TEST(Suites, GomokuExact5IsLegalDistinctAndBalanced) {
    check_gomoku("exact5");
}

TEST(Suites, GomokuJudgeSeesVcfAndLopsidedScores) {
    // White (to move) faces black's VCF after black's open lines.
    auto v = openings::judge_gomoku("freestyle", {"i9", "i10", "g9", "j6", "h9"});
    ASSERT_TRUE(v.has_value());
    EXPECT_TRUE(v->vcf_other);
    v = openings::judge_gomoku("freestyle", {"i6", "g7", "i8", "j8", "h7"});
    ASSERT_TRUE(v.has_value());
    EXPECT_GT(std::max(std::abs(v->score), std::abs(v->score_before)), 400);
    // Four stones that a two-ply search rates even (the reply to the side to
    // move is the last ply) and the last two iterations of depth 8 do not:
    // the side to move, black, is well ahead.
    const std::vector<std::string> tempo = {"j8", "f7", "g9", "h9"};
    v = openings::judge_gomoku("freestyle", tempo, {.search_depth = 2});
    ASSERT_TRUE(v.has_value());
    EXPECT_LE(std::abs(v->score), 300);
    v = openings::judge_gomoku("freestyle", tempo);
    ASSERT_TRUE(v.has_value());
    EXPECT_GT(v->score, 400);
    EXPECT_GT(v->score_before, 400);
    EXPECT_FALSE(openings::judge_gomoku("freestyle", {"h8", "h8"}).has_value());
    EXPECT_FALSE(openings::judge_gomoku("renju", {"h8"}).has_value());
}

TEST(Suites, ReversiIsLegalDistinctAndBalanced) {
    const Suite s{"reversi-8ply-balanced.txt", "{ name: reversi }", 1000, 8, 8};
    const auto lines = load_suite(s);
    expect_suite_shape(s, lines, "reversi", {});
    for (const std::size_t i : sample(lines.size(), sample_size())) {
        const auto v = openings::reversi_value(lines[i], 10);
        ASSERT_TRUE(v.has_value()) << "opening " << i + 1;
        EXPECT_LE(std::abs(*v), 16) << "opening " << i + 1;
    }
}

TEST(Suites, ReversiValueSeesLopsidedLines) {
    const auto v = openings::reversi_value({"d3", "c3", "b3", "b2", "f5", "e3", "b1", "e6"}, 10);
    ASSERT_TRUE(v.has_value());
    EXPECT_GT(std::abs(*v), 16);
    EXPECT_FALSE(openings::reversi_value({"a1"}, 4).has_value());
}

}  // namespace
}  // namespace arena::tournament
