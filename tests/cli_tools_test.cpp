// The command-line tools around a results database, end to end: `arena rate`
// reading the arena's own CSV export (from a file and from a pipe) and
// agreeing with `arena standings`; did-you-mean for mistyped commands and
// options; game ids in the user's terms; `arena games --termination`;
// `arena log`; and scripts/bench-solver's paths. Each case runs the built
// executables on a real tournament.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena_process.hpp"
#include "db_query.hpp"
#include "temp_dir.hpp"

namespace arena::cli {
namespace {

using arena::testing::slurp;

namespace fs = std::filesystem;
using testing::ArenaResult;
using testing::bin;
using testing::source;

constexpr int kOk = 0;
constexpr int kUsage = 2;

using testing::query;
using testing::Rows;

std::vector<std::string> words_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

// `name,elo,error` lines (arena rate --csv) as name -> elo.
std::map<std::string, double> rate_csv(const std::string& text) {
    std::map<std::string, double> elo;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "name,elo,error");
    while (std::getline(in, line)) {
        const auto c1 = line.find(','), c2 = line.rfind(',');
        EXPECT_NE(c1, c2) << line;
        if (c1 == c2) continue;
        elo[line.substr(0, c1)] = std::stod(line.substr(c1 + 1, c2 - c1 - 1));
    }
    return elo;
}

// The elo column of `arena standings`: the rows under the "# bot elo" header
// up to the first blank line.
std::map<std::string, double> standings_elo(const std::string& text) {
    std::map<std::string, double> elo;
    std::istringstream in(text);
    bool table = false;
    for (std::string line; std::getline(in, line);) {
        const auto w = words_of(line);
        if (!table) {
            table = w.size() >= 3 && w[0] == "#" && w[1] == "bot" && w[2] == "elo";
            continue;
        }
        if (w.size() < 3 || w[0].find_first_not_of("0123456789") != std::string::npos) break;
        elo[w[1]] = std::stod(w[2]);
    }
    return elo;
}

// A bot that writes two lines to stderr when it starts (a tab, ANSI colour
// escapes and a C1 control among them), then plays like the random bot.
constexpr std::string_view kNoisyStderr = "noisy starts\tok\n\x1b[31mred\x1b[0m \xc2\x9bx\n";
constexpr std::string_view kNoisyShown = "noisy starts\tok\n\\x1b[31mred\\x1b[0m \\xc2\\x9bx\n";

class CliToolsTest : public ::testing::Test {
  protected:
    ArenaResult arena(const std::vector<std::string>& args) {
        return testing::run_arena(dir_.path(), args);
    }

    // `command` run by /bin/sh in the test's directory, with stdin from
    // /dev/null unless the command redirects it.
    ArenaResult shell(const std::string& command) {
        const auto out = dir_.path() / "shell.out", err = dir_.path() / "shell.err";
        const std::string full = "cd '" + dir_.path().string() + "' && (timeout 300 sh -c '" +
                                 command + "' </dev/null >'" + out.string() + "' 2>'" +
                                 err.string() + "')";
        const int status = std::system(full.c_str());
        ArenaResult r;
        r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.out = slurp(out);
        r.err = slurp(err);
        return r;
    }

    fs::path write(const std::string& name, std::string_view content) {
        const auto path = dir_.path() / name;
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

    // Plays a round-robin of three Connect-4 bots, two games a pair, into
    // t.db: alpha (random), noisy (writes kNoisyStderr as each game's fresh
    // process starts), gamma (plays an illegal move from ply 7 on).
    fs::path tournament() {
        const auto noisy = write("noisy.sh",
                                 "#!/bin/sh\nprintf 'noisy starts\\tok\\n"
                                 "\\033[31mred\\033[0m \\302\\233x\\n' >&2\nexec " +
                                     bin("bots/random") + " \"$@\"\n");
        fs::permissions(noisy, fs::perms::owner_all);
        const auto db = dir_.path() / "t.db";
        const auto config =
            write("t.yaml",
                  "name: t\ngame: { name: connect4 }\ntime: { move_ms: 5000 }\n"
                  "schedule: { type: round-robin, games_per_pair: 2 }\n"
                  "concurrency: 2\nseed: 5\ndatabase: " +
                      db.string() + "\nbots:\n  - { name: alpha, command: " + bin("bots/random") +
                      " --seed 1 }\n  - { name: noisy, command: " + noisy.string() +
                      " --seed 2, restart: per-game }\n"
                      "  - { name: gamma, command: " +
                      bin("bots/misbehave") + " --seed 3 --mode illegal --at-ply 7 }\n");
        const auto r = arena({"run", config.string()});
        EXPECT_EQ(r.status, kOk) << r.err;
        EXPECT_EQ(query(db, "SELECT COUNT(*) FROM games"), Rows{{"6"}});
        return db;
    }

    testing::TempDir dir_{"arena_cli_tools"};
};

// The usage error of a subcommand: the problem, then the usage hint.
void usage_error(const ArenaResult& r, const std::string& first, const std::string& command) {
    EXPECT_EQ(r.status, kUsage) << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    EXPECT_EQ(r.err, first + "\n(arena " + command + " --help for usage)\n");
    EXPECT_EQ(r.out, "");
}

// ---- 1. arena rate reads the arena's CSV export -------------------------------

// A tournament exported as CSV and rated, through a pipe and from the file,
// gives the ratings of `arena standings` on the same database.
TEST_F(CliToolsTest, RateOfTheCsvExportAgreesWithStandings) {
    const auto db = tournament();
    const auto standings = arena({"standings", db.string()});
    ASSERT_EQ(standings.status, kOk) << standings.err;
    const auto shown = standings_elo(standings.out);
    ASSERT_EQ(shown.size(), 3u) << standings.out;
    // The standings stored the fit to full precision.
    std::map<std::string, double> stored;
    for (const auto& row : query(db,
                                 "SELECT b.name, r.elo FROM ratings r "
                                 "JOIN bots b ON b.id = r.bot"))
        stored[row[0]] = std::stod(row[1]);
    ASSERT_EQ(stored.size(), 3u);

    const auto csv = dir_.path() / "t.csv";
    const auto exported =
        shell(bin("bin/arena") + " export " + db.string() + " -f csv >" + csv.string());
    ASSERT_EQ(exported.status, kOk) << exported.err;
    const auto piped = shell(bin("bin/arena") + " export " + db.string() + " -f csv | " +
                             bin("bin/arena") + " rate - --csv");
    ASSERT_EQ(piped.status, kOk) << piped.err;
    EXPECT_EQ(piped.err, "");
    const auto from_file = arena({"rate", csv.string(), "--csv"});
    ASSERT_EQ(from_file.status, kOk) << from_file.err;
    EXPECT_EQ(from_file.out, piped.out);

    const auto rated = rate_csv(piped.out);
    ASSERT_EQ(rated.size(), 3u) << piped.out;
    for (const auto& [name, elo] : stored) {
        ASSERT_TRUE(rated.count(name)) << name << "\n" << piped.out;
        // rate prints one decimal, standings none.
        EXPECT_NEAR(rated.at(name), elo, 0.051) << name;
        EXPECT_NEAR(rated.at(name), shown.at(name), 0.551) << name;
    }
    // The table counts every game once.
    const auto table = arena({"rate", csv.string()});
    ASSERT_EQ(table.status, kOk) << table.err;
    EXPECT_NE(table.out.find("(6 games)"), std::string::npos) << table.out;
}

// `arena rate --anchor` takes the anchors `arena standings --anchor` takes,
// and the two agree on the constrained fit.
TEST_F(CliToolsTest, RateAndStandingsTakeTheSameAnchors) {
    const auto db = tournament();
    const auto csv = dir_.path() / "t.csv";
    ASSERT_EQ(
        shell(bin("bin/arena") + " export " + db.string() + " -f csv >" + csv.string()).status,
        kOk);
    const auto rated =
        arena({"rate", csv.string(), "--csv", "--anchor", "alpha=1500", "--anchor", "gamma=-40"});
    ASSERT_EQ(rated.status, kOk) << rated.err;
    const auto elo = rate_csv(rated.out);
    ASSERT_EQ(elo.size(), 3u) << rated.out;
    EXPECT_EQ(elo.at("alpha"), 1500.0);
    EXPECT_EQ(elo.at("gamma"), -40.0);
    EXPECT_NE(rated.out.find("alpha,1500.0,0.0\n"), std::string::npos) << rated.out;

    const auto standings =
        arena({"standings", db.string(), "--anchor", "alpha=1500", "--anchor", "gamma=-40"});
    ASSERT_EQ(standings.status, kOk) << standings.err;
    EXPECT_NE(standings.out.find("\nratings anchored: alpha 1500, gamma -40\n"), std::string::npos)
        << standings.out;
    // Standings prints whole numbers (and stores nothing: it only reads).
    const auto shown = standings_elo(standings.out);
    ASSERT_EQ(shown.size(), 3u) << standings.out;
    for (const auto& [name, elo_shown] : shown)
        EXPECT_NEAR(elo.at(name), elo_shown, 0.551) << name;

    usage_error(arena({"rate", csv.string(), "--anchor", "alpha=x"}),
                "arena rate: --anchor 'alpha=x': the rating after '=' must be a number from "
                "-100000 to 100000 (BOT=ELO, e.g. --anchor random=0)",
                "rate");
    usage_error(arena({"rate", csv.string(), "--anchor", "alpha", "--anchor", "alpha=3"}),
                "arena rate: --anchor: bot 'alpha' is anchored twice", "rate");
}

// Columns are found by their names in the header, in any order, and quoted
// fields (commas, quotes and line breaks inside) are read as RFC 4180 says:
// the ratings equal those of the same games as white,black,result lines.
TEST_F(CliToolsTest, RateFindsColumnsByHeaderName) {
    const auto plain = write("plain.csv",
                             "white,black,result\nann,bob,1-0\nbob,ann,1/2-1/2\n"
                             "cid,ann,0-1\nann,cid,1-0\nbob,cid,1-0\ncid,bob,1-0\n");
    const auto shuffled = write("shuffled.csv",
                                "result,detail,second,first\r\n"
                                "1-0,\"a, b\",bob,ann\r\n"
                                "1/2-1/2,\"said \"\"hi\"\"\nover two lines\",ann,bob\r\n"
                                "\r\n"
                                "0-1,,ann,cid\r\n"
                                "1-0,,cid,ann\r\n"
                                "1-0,,cid,bob\r\n"
                                "1-0,\"\",bob,cid\r\n");
    const auto expected = arena({"rate", plain.string(), "--csv"});
    ASSERT_EQ(expected.status, kOk) << expected.err;
    const auto r = arena({"rate", shuffled.string(), "--csv"});
    ASSERT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, expected.out);
    EXPECT_EQ(rate_csv(r.out).size(), 3u);
}

// A bad row names the file (or <stdin>) and the line where the record starts.
TEST_F(CliToolsTest, RateBadExportRowsNameTheSourceAndLine) {
    const std::string header = "first,second,result,detail\n";
    const struct {
        std::string csv, problem;
    } cases[] = {
        {header + "a,b,1-0,\nb,a,2-0,\n",
         "line 3: unknown result '2-0' (expected 1-0, 0-1 or "
         "1/2-1/2)"},
        {header + "a,b,1-0,\"two\nlines\"\nb,a,1-0\n",
         "line 4: expected 4 comma-separated fields as in the header, got 3"},
        {header + "a,b,1-0,\"never closed\n", "line 2: a quoted field is not closed"},
        {header + "a,b,1-0,\"x\"y\n", "line 2: text after the closing quote of a field"},
        {header + "a,a,1-0,\n", "line 2: 'a' cannot play itself"},
        {header + ",b,1-0,\n", "line 2: empty player name"},
        {header + "a,b,\x1b[2J,\n",
         "line 2: unknown result '\\x1b[2J' (expected 1-0, 0-1 or "
         "1/2-1/2)"},
        {"first,second,result,first\na,b,1-0,c\n",
         "line 1: the header names the column 'first' twice"},
        {header, "no games"},
        {"\ntournament,number,id,ply,side,player,move\nt,1,1,1,1,a,4\n",
         "line 2: a header without the columns first, second and result (rate reads arena "
         "export -f csv, or white,black,result lines)"},
    };
    for (const auto& c : cases) {
        const auto path = write("bad.csv", c.csv);
        const auto file = arena({"rate", path.string()});
        EXPECT_EQ(file.status, kUsage) << c.csv;
        EXPECT_EQ(file.err, "arena rate: " + path.string() + ": " + c.problem + "\n") << c.csv;
        const auto piped = shell(bin("bin/arena") + " rate - <" + path.string());
        EXPECT_EQ(piped.status, kUsage) << c.csv;
        EXPECT_EQ(piped.err, "arena rate: <stdin>: " + c.problem + "\n") << c.csv;
        EXPECT_EQ(piped.out, "");
    }
    const auto empty = arena({"rate", "-"});  // stdin is /dev/null
    EXPECT_EQ(empty.status, kUsage);
    EXPECT_EQ(empty.err, "arena rate: <stdin>: no games\n");
}

// ---- 2. did you mean ----------------------------------------------------------

TEST_F(CliToolsTest, UnknownCommandSuggestsTheClosest) {
    const struct {
        std::string typed, closest;
    } cases[] = {{"rn", "run"},      {"mtach", "match"},  {"standing", "standings"},
                 {"gmaes", "games"}, {"sho", "show"},     {"logs", "log"},
                 {"rat", "rate"},    {"exprot", "export"}};
    for (const auto& c : cases) {
        const auto r = arena({c.typed, "x"});
        EXPECT_EQ(r.status, kUsage);
        EXPECT_EQ(r.err, "arena: unknown command '" + c.typed + "' (did you mean '" + c.closest +
                             "'?)\n(arena help lists the commands)\n");
        EXPECT_EQ(r.out, "");
    }
    // Nothing close: the list of commands instead.
    const auto r = arena({"frobnicate"});
    EXPECT_EQ(r.status, kUsage);
    EXPECT_TRUE(r.err.starts_with("arena: unknown command 'frobnicate'\n\nusage: arena")) << r.err;
    EXPECT_NE(r.err.find("\n  log "), std::string::npos) << r.err;
}

TEST_F(CliToolsTest, UnknownOptionOfEverySubcommandSuggestsTheClosest) {
    const auto db = write("empty.db", "").string();
    const struct {
        std::vector<std::string> args;
        std::string command, problem;
    } cases[] = {
        {{"run", "x.yaml", "--concurency", "2"},
         "run",
         "'--concurency' (did you mean '--concurrency'?)"},
        {{"run", "x.yaml", "--sttas"}, "run", "'--sttas' (did you mean '--stats'?)"},
        {{"match", "--gmae", "connect4", "a", "b"}, "match", "'--gmae' (did you mean '--game'?)"},
        {{"match", "--game", "connect4", "--mvoe-ms=20", "a", "b"},
         "match",
         "'--mvoe-ms' (did you mean '--move-ms'?)"},
        {{"match", "-gmae", "connect4", "a", "b"}, "match", "'-gmae' (did you mean '--game'?)"},
        {{"standings", db, "--ancor", "a"}, "standings", "'--ancor' (did you mean '--anchor'?)"},
        {{"games", db, "--bto", "a"}, "games", "'--bto' (did you mean '--bot'?)"},
        {{"games", db, "--terminaton", "crash"},
         "games",
         "'--terminaton' (did you mean '--termination'?)"},
        {{"show", db, "1", "--hlep"}, "show", "'--hlep' (did you mean '--help'?)"},
        {{"log", db, "1", "--bots", "a"}, "log", "'--bots' (did you mean '--bot'?)"},
        {{"rate", "g.csv", "--cvs"}, "rate", "'--cvs' (did you mean '--csv'?)"},
        {{"export", db, "--fromat", "pgn"}, "export", "'--fromat' (did you mean '--format'?)"},
        {{"rate", "g.csv", "--zzzzzzz"}, "rate", "'--zzzzzzz'"},
    };
    for (const auto& c : cases)
        usage_error(arena(c.args), "arena " + c.command + ": unknown option " + c.problem,
                    c.command);
}

// Config keys keep their suggestions (the same helper as the command line's).
TEST_F(CliToolsTest, ConfigTypoStillSuggests) {
    const auto config = write("typo.yaml",
                              "name: t\ngame: { name: connect4 }\nconcurency: 2\n"
                              "bots:\n  - { name: a, command: " +
                                  bin("bots/random") +
                                  " }\n  - { name: b, command: " + bin("bots/random") + " }\n");
    const auto r = arena({"run", config.string()});
    EXPECT_EQ(r.status, kUsage);
    EXPECT_EQ(r.err,
              config.string() + ":3:1: unknown key 'concurency' (did you mean 'concurrency'?)\n");
}

// ---- 3. GAME in the user's terms ----------------------------------------------

TEST_F(CliToolsTest, GameIdErrorsSpeakOfGame) {
    const auto db = tournament().string();
    for (const std::string command : {"show", "log"}) {
        for (const std::string bad : {"abc", "0", "-5", "1.5", "12x", "99999999999999999999"}) {
            usage_error(arena({command, db, bad}),
                        "arena " + command +
                            ": GAME must be a game id (a positive whole number), got '" + bad + "'",
                        command);
        }
        usage_error(arena({command, db}), "arena " + command + ": missing GAME", command);
        const auto missing = arena({command, db, "9999"});
        EXPECT_EQ(missing.status, kUsage);
        EXPECT_EQ(missing.err, "arena " + command + ": no game 9999 in " + db + "\n");
        const auto good = arena({command, db, "1"});
        EXPECT_EQ(good.status, kOk) << good.err;
        EXPECT_TRUE(good.out.starts_with("game 1: ")) << good.out;
    }
}

// ---- 4. arena games --termination ---------------------------------------------

TEST_F(CliToolsTest, GamesFilterByTermination) {
    const auto db = tournament();
    // The ids `arena games` lists (first column of every row but the header).
    const auto listed = [&](const std::vector<std::string>& filters) {
        std::vector<std::string> args{"games", db.string()};
        args.insert(args.end(), filters.begin(), filters.end());
        const auto r = arena(args);
        EXPECT_EQ(r.status, kOk) << r.err;
        std::vector<std::string> ids;
        std::istringstream in(r.out);
        std::string line;
        std::getline(in, line);
        EXPECT_EQ(words_of(line).at(0), "id") << r.out;
        while (std::getline(in, line))
            ids.push_back(words_of(line).at(0));
        return ids;
    };
    const auto expected = [&](const std::string& where) {
        std::vector<std::string> ids;
        for (const auto& row : query(db,
                                     "SELECT g.id FROM games g JOIN bots f ON f.id = "
                                     "g.first_bot JOIN bots s ON s.id = g.second_bot WHERE " +
                                         where + " ORDER BY g.game_index"))
            ids.push_back(row[0]);
        return ids;
    };
    const auto illegal = listed({"--termination", "illegal"});
    // gamma's illegal moves end at least one game of each of its four.
    EXPECT_GE(illegal.size(), 1u);
    EXPECT_EQ(illegal, expected("g.termination = 'illegal'"));
    EXPECT_EQ(listed({"--termination", "normal"}), expected("g.termination = 'normal'"));
    EXPECT_EQ(listed({"--termination", "timeout"}), std::vector<std::string>{});
    EXPECT_EQ(listed({"--termination", "illegal", "--bot", "alpha"}),
              expected("g.termination = 'illegal' AND 'alpha' IN (f.name, s.name)"));
    EXPECT_EQ(listed({"--bot", "noisy", "--termination", "normal"}),
              expected("g.termination = 'normal' AND 'noisy' IN (f.name, s.name)"));
    EXPECT_EQ(listed({}).size(), 6u);

    usage_error(arena({"games", db.string(), "--termination", "timout"}),
                "arena games: --termination: unknown ending 'timout' (did you mean 'timeout'?); "
                "endings: normal, timeout, crash, illegal, protocol, startup",
                "games");
    usage_error(arena({"games", db.string(), "--termination", "resigned"}),
                "arena games: --termination: unknown ending 'resigned'; "
                "endings: normal, timeout, crash, illegal, protocol, startup",
                "games");
    const auto bad_bot = arena({"games", db.string(), "--termination", "normal", "--bot", "zed"});
    EXPECT_EQ(bad_bot.status, kUsage);
    EXPECT_EQ(bad_bot.err, "arena games: tournament 't' in " + db.string() + " has no bot 'zed'\n");
}

// ---- 5. arena log -------------------------------------------------------------

TEST_F(CliToolsTest, LogPrintsEachBotsStderrEscaped) {
    const auto db = tournament();
    const auto rows = query(db,
                            "SELECT g.id, g.game, g.params, g.result, g.termination FROM games g "
                            "JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
                            "WHERE f.name = 'noisy' AND s.name = 'alpha'");
    ASSERT_EQ(rows.size(), 1u);
    const auto& g = rows.front();
    const std::string heading = "game " + g[0] + ": noisy (first) vs alpha, " + g[1] + " " + g[2] +
                                ", result " + g[3] + " (" + g[4] + ")\n";
    // The stored stderr is the raw bytes; the log shows them escaped.
    EXPECT_EQ(query(db, "SELECT stderr FROM bot_logs WHERE game = " + g[0] + " AND side = 1"),
              Rows{{std::string(kNoisyStderr)}});

    const auto both = arena({"log", db.string(), g[0]});
    EXPECT_EQ(both.status, kOk) << both.err;
    EXPECT_EQ(both.err, "");
    EXPECT_EQ(both.out, heading + "\n--- noisy (first) ---\n" + std::string(kNoisyShown) +
                            "\n--- alpha (second) ---\n(nothing on stderr)\n");

    const auto one = arena({"log", db.string(), g[0], "--bot", "noisy"});
    EXPECT_EQ(one.status, kOk) << one.err;
    EXPECT_EQ(one.out, heading + "\n--- noisy (first) ---\n" + std::string(kNoisyShown));
    const auto quiet = arena({"log", db.string(), "--bot", "alpha", g[0]});
    EXPECT_EQ(quiet.status, kOk) << quiet.err;
    EXPECT_EQ(quiet.out, heading + "\n--- alpha (second) ---\n(nothing on stderr)\n");

    const auto unknown = arena({"log", db.string(), g[0], "--bot", "gamma"});
    EXPECT_EQ(unknown.status, kUsage);
    EXPECT_EQ(unknown.out, "");
    EXPECT_EQ(unknown.err, "arena log: game " + g[0] +
                               " has no bot 'gamma'; its bots: noisy (first), alpha (second)\n");
    const auto help = arena({"log", "--help"});
    EXPECT_EQ(help.status, kOk);
    EXPECT_TRUE(help.out.starts_with("usage: arena log DB GAME [--bot NAME] [--transcript]\n"))
        << help.out;
}

// ---- 6. scripts/bench-solver --------------------------------------------------

// Paths given to the script are taken from the caller's directory, and a
// directory without the benchmark files is one clear error.
TEST_F(CliToolsTest, BenchSolverTakesPathsFromTheCallersDirectory) {
    const auto script = source("scripts/bench-solver");
    write("solver.sh",
          "#!/bin/sh\ncat >/dev/null\necho '3 positions, 3 checked, 0 wrong, mean 0.25 ms, "
          "mean nodes 7' >&2\n");
    fs::permissions(dir_.path() / "solver.sh", fs::perms::owner_all);
    fs::create_directories(dir_.path() / "data");
    write("data/Test_L1_R1", "1 0\n");
    const auto r = shell(script + " ./solver.sh data");
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_NE(r.out.find("Test_L1_R1"), std::string::npos) << r.out;
    EXPECT_EQ(words_of(r.out.substr(r.out.find("Test_L1_R1"))),
              (std::vector<std::string>{"Test_L1_R1", "3", "0", "0.2500", "7"}))
        << r.out;
    fs::create_directories(dir_.path() / "none");
    const auto missing = shell(script + " ./solver.sh none");
    EXPECT_EQ(missing.status, kUsage);
    EXPECT_EQ(missing.err, "bench-solver: no Test_* files in " +
                               fs::canonical(dir_.path() / "none").string() + "\n");
}

}  // namespace
}  // namespace arena::cli
