// The course pattern: a folder of Tsinghua strategy submissions (bots_dir
// with `protocol: tsinghua-so` manifests) against fixed references, each
// played twice (once per colour), scored win 2 / draw 1 / loss 0 with every
// fault a loss, and `arena grade`'s table of it, checked against the results
// database: points per reference, totals, faults, missing games, failed
// checks with their reasons, a fixed submission entering late, escaping of
// what a bot controls, CSV and JSON, and bad arguments.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "proc_util.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::bin;
using testing::query;
using testing::query_one;

std::string strategy(const std::string& name) {
    return bin("bots/tsinghua/" + name);
}

class Grade : public ::testing::Test {
  protected:
    // A submission: `library` copied as <folder>/strategy.so and a bot.yaml
    // naming it, with `more` lines.
    fs::path submit(const std::string& folder, const std::string& library,
                    const std::string& more = "") const {
        const fs::path dir = dir_.path() / "submissions" / folder;
        fs::create_directories(dir);
        fs::copy_file(library, dir / "strategy.so", fs::copy_options::overwrite_existing);
        std::ofstream(dir / "bot.yaml", std::ios::trunc)
            << "protocol: tsinghua-so\nlibrary: strategy.so\n"
            << more;
        return dir;
    }

    [[nodiscard]] fs::path db() const { return dir_.path() / "results" / "course.db"; }

    // The course config over the submissions folder, written to course.yaml.
    // No strategy here thinks for long; the move time leaves a sanitizer
    // build's host the time to report a crashing library's SIGSEGV, which
    // would else be judged a timeout.
    [[nodiscard]] std::string config(bool check, const std::string& scoring = "") const {
        const std::string text =
            "name: course\n"
            "game: { name: connect4, variant: tsinghua }\n"
            "time: { move_ms: " +
            testing::scaled_ms(3000) +
            " }\n"
            "schedule: { type: gauntlet, challengers: bots_dir, games_per_pair: 2 }\n" +
            (scoring.empty() ? "scoring: { win: 2, draw: 1, loss: 0 }\n" : scoring) +
            "seed: 5\nconcurrency: 2\n"
            "database: " +
            db().string() + "\nbots_dir: " + (dir_.path() / "submissions").string() +
            "\ncheck: " + (check ? "true" : "false") +
            "\nbots:\n"
            "  - { name: ref-random, protocol: tsinghua-so, library: " +
            strategy("reference/random.so") +
            " }\n"
            "  - { name: ref-greedy, protocol: tsinghua-so, library: " +
            strategy("reference/greedy.so") + " }\n";
        return dir_.write("course.yaml", text);
    }

    [[nodiscard]] testing::ArenaResult arena(const std::vector<std::string>& args) const {
        return testing::run_arena(dir_.path(), args);
    }

    // The points `bot` scored against `ref` in the database (win, draw and
    // loss points given), and the games they played.
    [[nodiscard]] std::pair<int, int> stored_points(const std::string& bot, const std::string& ref,
                                                    int win = 2, int draw = 1, int loss = 0) const {
        const auto rows =
            query(db(),
                  "SELECT f.name, s.name, g.result FROM games g JOIN bots f ON f.id = g.first_bot "
                  "JOIN bots s ON s.id = g.second_bot WHERE (f.name = '" +
                      bot + "' AND s.name = '" + ref + "') OR (f.name = '" + ref +
                      "' AND s.name = '" + bot + "')");
        int points = 0;
        for (const auto& r : rows) {
            const bool first = r[0] == bot;
            if (r[2] == "1/2-1/2") {
                points += draw;
            } else {
                points += (r[2] == "1-0") == first ? win : loss;
            }
        }
        return {points, static_cast<int>(rows.size())};
    }

    // The games `bot` lost by `termination`.
    [[nodiscard]] int stored_faults(const std::string& bot, const std::string& termination) const {
        return std::stoi(query_one(
            db(),
            "SELECT count(*) FROM games g JOIN bots f ON f.id = g.first_bot JOIN bots s ON "
            "s.id = g.second_bot WHERE g.termination = '" +
                termination + "' AND ((f.name = '" + bot +
                "' AND g.result = '0-1') OR (s.name = '" + bot + "' AND g.result = '1-0'))"));
    }

    testing::TempDir dir_{"grade_test"};
};

const json& row_of(const json& table, const std::string& name) {
    for (const auto& row : table.at("submissions"))
        if (row.at("name") == name) return row;
    static const json none;
    ADD_FAILURE() << "no row for " << name << " in " << table.dump(2);
    return none;
}

// ---- the config --------------------------------------------------------------

TEST_F(Grade, ATsinghuaManifestPlaysItsLibraryAndEverySubmissionMeetsEveryReferenceTwice) {
    const auto alice = submit("alice", strategy("sample.so"), "author: Alice Li\n");
    submit("bob", strategy("reference/greedy.so"));
    const Config c = load_config(config(false));
    ASSERT_EQ(c.bots.size(), 4u);
    EXPECT_EQ(c.bots[2].name, "alice");
    EXPECT_EQ(c.bots[2].author, "Alice Li");
    EXPECT_EQ(c.bots[2].protocol, "tsinghua-so");
    EXPECT_TRUE(c.bots[2].restart_each_game);
    ASSERT_EQ(c.bots[2].argv.size(), 2u);
    EXPECT_EQ(fs::path(c.bots[2].argv[0]).filename(), "arena-so-host");
    EXPECT_EQ(c.bots[2].argv[1], (alice / "strategy.so").string());
    EXPECT_TRUE(c.challengers_from_bots_dir);

    const auto schedule = make_schedule(c);
    ASSERT_EQ(schedule.size(), 2u * 2u * 2u);  // submissions x references x colours
    std::map<std::pair<int, int>, int> as_first;
    for (const auto& p : schedule) {
        const bool first_submits = p.first >= 2, second_submits = p.second >= 2;
        EXPECT_NE(first_submits, second_submits) << p.first << " vs " << p.second;
        ++as_first[{p.first, p.second}];
    }
    for (int s : {2, 3}) {
        for (int r : {0, 1}) {
            EXPECT_EQ((as_first[{s, r}]), 1) << s << " first against " << r;
            EXPECT_EQ((as_first[{r, s}]), 1) << r << " first against " << s;
        }
    }
}

std::string error_of(const std::string& path) {
    try {
        static_cast<void>(load_config(path));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST_F(Grade, ConfigAndManifestMistakesGetOneMessage) {
    const auto a = submit("a", strategy("sample.so"));
    std::string text;
    {
        std::ifstream in(config(false));
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto with = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        t.replace(t.find(from), from.size(), to);
        return error_of(dir_.write("bad.yaml", t));
    };
    EXPECT_NE(with("challengers: bots_dir", "challengers: everyone")
                  .find("unknown value 'everyone' for 'challengers' (known: bots_dir"),
              std::string::npos);
    EXPECT_NE(with("type: gauntlet, challengers", "type: round-robin, challengers")
                  .find("'challengers' is only for a gauntlet schedule"),
              std::string::npos);
    EXPECT_NE(with("challengers: bots_dir", "challengers: bots_dir, challenger: a")
                  .find("give either 'challenger' (one bot) or 'challengers'"),
              std::string::npos);
    EXPECT_NE(with("bots_dir: ", "# bots_dir: ").find("there is no 'bots_dir'"), std::string::npos);

    const std::string manifest = (a / "bot.yaml").string();
    std::ofstream(a / "bot.yaml", std::ios::trunc) << "library: strategy.so\n";
    EXPECT_EQ(error_of(config(false)),
              manifest +
                  ":1:1: bot 'a': 'library' needs 'protocol: tsinghua-so' (a Tsinghua "
                  "strategy library)");
    std::ofstream(a / "bot.yaml", std::ios::trunc) << "protocol: tsinghua-so\nlibrary: mine.so\n";
    EXPECT_EQ(error_of(config(false)),
              manifest + ":2:10: bot 'a': library 'mine.so' not found in '" + a.string() + "'");
    std::ofstream(a / "bot.yaml", std::ios::trunc) << "protocol: tsinghua-so\n";
    EXPECT_NE(error_of(config(false)).find(manifest + ":1:11: bot 'a': missing 'library'"),
              std::string::npos)
        << error_of(config(false));
    std::ofstream(a / "bot.yaml", std::ios::trunc)
        << "protocol: tsinghua-so\nlibrary: strategy.so\ncommand: ./run\n";
    EXPECT_NE(error_of(config(false)).find(manifest + ":3:1: bot 'a': 'command' is not for"),
              std::string::npos)
        << error_of(config(false));
}

// ---- the grade table against the database --------------------------------------

TEST_F(Grade, TheTableIsTheDatabasesPointsWithEveryFaultALoss) {
    submit("alice", strategy("sample.so"), "author: Alice Li\n");
    submit("carol", strategy("fixtures/crash.so"));
    submit("dave", strategy("fixtures/illegal.so"));
    submit("erin", strategy("fixtures/no_clear_point.so"));
    const std::string path = config(false);
    const auto r = arena({"grade", path, "--json"});
    // erin's library does not load: given up after its failed start-ups,
    // its games are missing, which the exit status says; the table is printed.
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    // (The crashing strategy's host may write a sanitizer's report on stderr:
    // the arena's own health is its exit status and its table.)
    const json table = json::parse(r.out);
    EXPECT_EQ(table.at("references"), json({"ref-random", "ref-greedy"}));
    EXPECT_EQ(table.at("games_per_reference"), 2);
    ASSERT_EQ(table.at("submissions").size(), 4u);
    std::vector<std::string> names;
    for (const auto& row : table.at("submissions"))
        names.push_back(row.at("name"));
    EXPECT_EQ(names, (std::vector<std::string>{"alice", "carol", "dave", "erin"}));

    for (const std::string bot : {"alice", "carol", "dave", "erin"}) {
        SCOPED_TRACE(bot);
        const json& row = row_of(table, bot);
        int total = 0, games = 0;
        for (const std::string ref : {"ref-random", "ref-greedy"}) {
            const auto [points, played] = stored_points(bot, ref);
            EXPECT_EQ(row.at("points").at(ref), points) << ref;
            total += points;
            games += played;
        }
        EXPECT_EQ(row.at("total"), total);
        EXPECT_EQ(row.at("games"), games);
        EXPECT_EQ(row.at("missing"), 4 - games);
        EXPECT_EQ(row.at("max"), 8);
        EXPECT_EQ(row.at("check"), "-");
        for (const std::string kind : {"crash", "timeout", "illegal", "protocol", "startup"})
            EXPECT_EQ(row.at("faults").at(kind), stored_faults(bot, kind)) << kind;
    }
    EXPECT_EQ(row_of(table, "alice").at("author"), "Alice Li");
    EXPECT_EQ(row_of(table, "alice").at("missing"), 0);
    EXPECT_GT(row_of(table, "alice").at("total"), 0);
    // A crash and an illegal point lose every game: 0 points of 8.
    EXPECT_EQ(row_of(table, "carol").at("faults").at("crash"), 4);
    EXPECT_EQ(row_of(table, "carol").at("total"), 0);
    EXPECT_EQ(row_of(table, "dave").at("faults").at("illegal"), 4);
    EXPECT_EQ(row_of(table, "dave").at("total"), 0);
    // A library that fails to load is given up after its failed start-ups:
    // none of its games is played, each scores nothing, and the note says why.
    const json& erin = row_of(table, "erin");
    EXPECT_EQ(erin.at("total"), 0);
    EXPECT_EQ(erin.at("missing"), 4);
    EXPECT_EQ(erin.at("note").get<std::string>().substr(0, 60),
              "4 games not played: failed to start 3 times in a row (exited");
    EXPECT_NE(erin.at("note").get<std::string>().find("does not export clearPoint"),
              std::string::npos)
        << erin.at("note");

    // The same figures as text and CSV, from the stored games alone.
    const auto text = arena({"grade", path, "--stored"});
    EXPECT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("submission  author    ref-random  ref-greedy  total  max"),
              std::string::npos)
        << text.out;
    EXPECT_NE(
        text.out.find("carol       -                  0           0      0    8  4 (crash 4)"),
        std::string::npos)
        << text.out;
    const auto csv = arena({"grade", path, "--stored", "--csv"});
    EXPECT_EQ(csv.status, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::string header, line;
    std::getline(lines, header);
    EXPECT_EQ(header,
              "submission,author,ref-random,ref-greedy,total,max,games,missing,crash,timeout,"
              "illegal,protocol,startup,check,note");
    std::vector<std::string> rows;
    while (std::getline(lines, line))
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[1], "carol,,0,0,0,8,4,0,4,0,0,0,0,-,");
    EXPECT_EQ(rows[2], "dave,,0,0,0,8,4,0,0,0,4,0,0,-,");
    const auto [a_random, a_random_games] = stored_points("alice", "ref-random");
    const auto [a_greedy, a_greedy_games] = stored_points("alice", "ref-greedy");
    EXPECT_EQ(rows[0], "alice,Alice Li," + std::to_string(a_random) + "," +
                           std::to_string(a_greedy) + "," + std::to_string(a_random + a_greedy) +
                           ",8,4,0,0,0,0,0,0,-,");
    static_cast<void>(a_random_games);
    static_cast<void>(a_greedy_games);
}

TEST_F(Grade, OtherPointsAreTheConfigsScoring) {
    submit("alice", strategy("sample.so"));
    submit("carol", strategy("fixtures/crash.so"));
    const std::string path = config(false, "scoring: { win: 3, draw: 1, loss: 0 }\n");
    const auto r = arena({"grade", path, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json table = json::parse(r.out);
    EXPECT_EQ(table.at("scoring"), json({{"win", 3}, {"draw", 1}, {"loss", 0}}));
    for (const std::string bot : {"alice", "carol"}) {
        const json& row = row_of(table, bot);
        EXPECT_EQ(row.at("max"), 12);
        for (const std::string ref : {"ref-random", "ref-greedy"})
            EXPECT_EQ(row.at("points").at(ref), stored_points(bot, ref, 3, 1, 0).first);
    }
    EXPECT_EQ(row_of(table, "carol").at("total"), 0);  // four losses by a crash
    EXPECT_EQ(row_of(table, "alice").at("total"),
              row_of(table, "alice").at("points").at("ref-random").get<int>() +
                  row_of(table, "alice").at("points").at("ref-greedy").get<int>());
}

TEST_F(Grade, ASubmissionThatFailsItsCheckScoresNothingWithTheReasonAndEntersOnceFixed) {
    submit("alice", strategy("sample.so"));
    const auto carol = submit("carol", strategy("fixtures/crash.so"));
    submit("erin", strategy("fixtures/no_clear_point.so"));
    const std::string path = config(true);
    const auto r = arena({"grade", path});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("arena run: bot 'carol' FAILS the checks"), std::string::npos) << r.err;
    const auto line_of = [](const std::string& out, const std::string& name) {
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);)
            if (line.starts_with(name + " ")) return line;
        return std::string("(no line for " + name + ")");
    };
    EXPECT_NE(line_of(r.out, "alice").find("  ok"), std::string::npos) << r.out;
    const std::string carol_line = line_of(r.out, "carol");
    EXPECT_NE(carol_line.find("0           0      0    8  0       FAIL   check failed: plays as "
                              "player 1: "),
              std::string::npos)
        << r.out;
    // A signal, or a sanitizer build's host reporting it.
    EXPECT_NE(carol_line.find("as player 1: crash: exited: "), std::string::npos) << r.out;
    // The library that does not load: why, from what the host wrote.
    EXPECT_NE(line_of(r.out, "erin").find("FAIL   check failed: start-up: exited during start-up"),
              std::string::npos)
        << r.out;
    EXPECT_NE(line_of(r.out, "erin").find("does not export clearPoint"), std::string::npos)
        << r.out;
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM bots WHERE name IN ('carol', 'erin')"), "0");
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM games"), "4");
    const auto alice_games =
        query(db(), "SELECT g.id, g.result, g.termination FROM games g ORDER BY g.id");

    // Fixed: carol is checked again, plays its 4 games, and nobody else's
    // games are played again.
    fs::copy_file(strategy("reference/greedy.so"), carol / "strategy.so",
                  fs::copy_options::overwrite_existing);
    const auto again = arena({"grade", path, "--json"});
    ASSERT_EQ(again.status, 0) << again.out << again.err;
    const json table = json::parse(again.out);
    EXPECT_EQ(row_of(table, "carol").at("check"), "ok");
    EXPECT_EQ(row_of(table, "carol").at("games"), 4);
    EXPECT_EQ(row_of(table, "carol").at("note"), "");
    EXPECT_EQ(row_of(table, "erin").at("check"), "FAIL");
    EXPECT_EQ(row_of(table, "erin").at("total"), 0);
    EXPECT_EQ(row_of(table, "erin").at("missing"), 4);
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM games"), "8");
    EXPECT_EQ(query(db(),
                    "SELECT g.id, g.result, g.termination FROM games g JOIN bots b ON b.id IN "
                    "(g.first_bot, g.second_bot) WHERE b.name = 'alice' ORDER BY g.id"),
              alice_games);
    int total = 0;
    for (const std::string ref : {"ref-random", "ref-greedy"})
        total += stored_points("carol", ref).first;
    EXPECT_EQ(row_of(table, "carol").at("total"), total);
}

TEST_F(Grade, AResubmissionUnderVersionsKeepPlaysEveryReferenceAgain) {
    submit("alice", strategy("sample.so"));
    const auto bob = submit("bob", strategy("reference/random.so"));
    const std::string plain = config(false);
    std::string text;
    {
        std::ifstream in(plain);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string path = dir_.write("keep.yaml", text + "versions: keep\n");
    ASSERT_EQ(arena({"grade", path}).status, 0);
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM games"), "8");
    fs::copy_file(strategy("reference/greedy.so"), bob / "strategy.so",
                  fs::copy_options::overwrite_existing);
    const auto r = arena({"grade", path, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("bot 'bob' has a new program: version 2 enters"), std::string::npos)
        << r.err;
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM games"), "12");
    const json table = json::parse(r.out);
    ASSERT_EQ(table.at("submissions").size(), 2u);
    const json& row = row_of(table, "bob");
    EXPECT_EQ(row.at("games"), 4);
    int total = 0;
    for (const std::string ref : {"ref-random", "ref-greedy"}) {
        const auto [points, games] = stored_points("bob", ref);
        EXPECT_EQ(row.at("points").at(ref), points);
        EXPECT_EQ(games, 2);
        total += points;
    }
    EXPECT_EQ(row.at("total"), total);
    EXPECT_EQ(stored_points("bob@1", "ref-random").second, 2);  // the first version's games stay
}

TEST_F(Grade, WhatABotControlsIsEscaped) {
    submit("alice", strategy("sample.so"),
           "author: \"=HYPERLINK(\\\"x\\\"),\\e[31mred\\e[0m \\\"q\\\" <b>\"\n");
    const std::string path = config(false);
    const auto r = arena({"grade", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("=HYPERLINK(\"x\"),\\x1b[31mred\\x1b[0m \"q\" <b>"), std::string::npos)
        << r.out;
    const auto csv = arena({"grade", path, "--stored", "--csv"});
    EXPECT_EQ(csv.out.find('\x1b'), std::string::npos) << csv.out;
    // Quoted (a comma and quotes), and never a formula.
    EXPECT_NE(
        csv.out.find("\nalice,\"'=HYPERLINK(\"\"x\"\"),\\x1b[31mred\\x1b[0m \"\"q\"\" <b>\","),
        std::string::npos)
        << csv.out;
    const auto j = arena({"grade", path, "--stored", "--json"});
    EXPECT_EQ(j.out.find('\x1b'), std::string::npos) << j.out;
    EXPECT_EQ(row_of(json::parse(j.out), "alice").at("author"),
              "=HYPERLINK(\"x\"),\x1b[31mred\x1b[0m \"q\" <b>");
}

TEST_F(Grade, BadArgumentsGetOneClearMessage) {
    submit("alice", strategy("sample.so"));
    const std::string path = config(false);
    // The one line of stderr.
    const auto first_line = [](const testing::ArenaResult& r) {
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        return r.err.substr(0, r.err.find('\n'));
    };
    auto r = arena({"grade"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              std::string("arena grade: missing CONFIG") + "\n(arena grade --help for usage)\n");
    r = arena({"grade", path, "--csv", "--json"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, std::string("arena grade: give either --csv or --json, not both") +
                         "\n(arena grade --help for usage)\n");
    r = arena({"grade", path, "--jsn"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, std::string("arena grade: unknown option '--jsn' (did you mean '--json'?)") +
                         "\n(arena grade --help for usage)\n");
    r = arena({"grade", path, "--concurrency", "0"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, std::string("arena grade: --concurrency must be at least 1") +
                         "\n(arena grade --help for usage)\n");
    r = arena({"grade", (dir_.path() / "nothing.yaml").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(first_line(r).find("nothing.yaml"), std::string::npos) << r.err;
    r = arena({"grade", path, "--stored"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(first_line(r), "arena grade: " + db().string() +
                                 ": no such file (nothing played yet; run without --stored)");
    EXPECT_FALSE(fs::exists(db()));
    const std::string round_robin = dir_.write(
        "rr.yaml",
        "name: rr\ngame: { name: connect4 }\nbots:\n  - { name: a, command: " + bin("bots/random") +
            " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    r = arena({"grade", round_robin});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(first_line(r).substr(0, 13 + round_robin.size() + 17),
              "arena grade: " + round_robin + ": not a gauntlet;")
        << r.err;
    EXPECT_TRUE(r.out.empty());
}

// ---- the shipped config on the sample submissions ------------------------------

TEST(GradeShipped, TheSampleFolderGradesWithTheBrokenSubmissionsFailingTheirChecks) {
    testing::TempDir dir("grade_shipped");
    // Paths in the config are relative to a checkout: build/ and configs/.
    fs::create_directory_symlink(ARENA_BINARY_DIR, dir.path() / "build");
    // The config as shipped, its move time scaled on a slow machine.
    std::string text;
    {
        std::ifstream in(testing::source("configs/course-grading-folder.yaml"));
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string move = "move_ms: 200,";
    ASSERT_NE(text.find(move), std::string::npos) << text;
    text.replace(text.find(move), move.size(), "move_ms: " + testing::scaled_ms(200) + ",");
    fs::create_directory(dir.path() / "configs");
    static_cast<void>(dir.write("configs/course-grading-folder.yaml", text));
    testing::ArenaOptions options;
    options.cwd = dir.path();
    const auto r = testing::run_arena(
        dir.path(), {"grade", "configs/course-grading-folder.yaml", "--json"}, options);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const json table = json::parse(r.out);
    EXPECT_EQ(table.at("submissions").size(), 6u);
    for (const std::string good : {"alice", "bob"}) {
        const json& row = row_of(table, good);
        EXPECT_EQ(row.at("check"), "ok") << good;
        EXPECT_EQ(row.at("games"), 4) << good;
        EXPECT_EQ(row.at("max"), 8) << good;
        for (const auto& [kind, count] : row.at("faults").items())
            EXPECT_EQ(count, 0) << good << " " << kind;
    }
    // (At 200 ms a move, a sanitizer build's host may still be reporting
    // carol's SIGSEGV when the move's time is up: a timeout then.)
    const std::vector<std::pair<std::string, std::vector<std::string>>> broken = {
        {"carol", {"crash", "timeout"}},
        {"dave", {"illegal"}},
        {"erin", {"start-up"}},
        {"frank", {"timeout"}}};
    for (const auto& [name, why] : broken) {
        const json& row = row_of(table, name);
        EXPECT_EQ(row.at("check"), "FAIL") << name;
        EXPECT_EQ(row.at("total"), 0) << name;
        EXPECT_EQ(row.at("missing"), 4) << name;
        const std::string note = row.at("note");
        EXPECT_TRUE(std::any_of(why.begin(), why.end(),
                                [&](const std::string& w) {
                                    return note.find("as player 1: " + w) != std::string::npos ||
                                           note.find(w + ": ") != std::string::npos;
                                }))
            << name << ": " << note;
        EXPECT_TRUE(
            fs::exists(dir.path() / "results" / ("course-grading-folder." + name + ".check.txt")))
            << name;
    }
}

}  // namespace
}  // namespace arena::tournament
