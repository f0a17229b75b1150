// Tournament configs: a valid file parses to exactly what it says, defaults
// fill the rest, and every kind of mistake is one error that names the file,
// the line and column, and the problem.

#include "arena/tournament/config.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/run_setup.hpp"
#include "temp_dir.hpp"

namespace arena::tournament {
namespace {

using arena::testing::TempDir;

namespace fs = std::filesystem;
using match::Millis;

constexpr const char* kFile = "t.yaml";

Config parse(const std::string& yaml) {
    return parse_config(yaml, kFile);
}

// The message of the ConfigError that parsing throws, or a marker when it
// throws none.
std::string error_of(const std::string& yaml) {
    try {
        static_cast<void>(parse(yaml));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "<no error>";
}

// Two bots that exist everywhere, for configs that are about something else.
const std::string kBots = R"(bots:
  - { name: a, command: /bin/sh }
  - { name: b, command: /bin/sh }
)";

// A valid config with `extra` (whole lines) after the game line: line 3 is
// the first line of `extra`.
std::string with(const std::string& extra) {
    return "name: t\ngame: { name: connect4 }\n" + extra + kBots;
}

// Changes the working directory for one scope.
class ChangeDir {
  public:
    explicit ChangeDir(const fs::path& dir) : old_(fs::current_path()) { fs::current_path(dir); }
    ~ChangeDir() {
        std::error_code ec;
        fs::current_path(old_, ec);
    }
    ChangeDir(const ChangeDir&) = delete;
    ChangeDir& operator=(const ChangeDir&) = delete;

  private:
    fs::path old_;
};

// --- valid configs ----------------------------------------------------------

TEST(Config, FullConfigParsesToExactValues) {
    TempDir dir("config_test");
    const std::string openings =
        dir.write("open.txt", "# comment\n4 4\n\n  3 5 4   # trailing comment\n");
    const std::string yaml = R"(name: full-1.0
game: { name: connect4, rows: 7, cols: 8, connect: 4 }
time: { move_ms: 500, tolerance_ms: 20, game_ms: 60000, inc_ms: 100, startup_ms: 2000,
        realtime: false }
schedule: { type: gauntlet, challenger: mine, games_per_pair: 6, rounds: 3 }
openings: { file: )" + openings +
                             R"( }
concurrency: 3
seed: 18446744073709551615
database: out/full.db
bots:
  - { name: mine, command: "/bin/sh -c 'exit 0'", args: [--seed, "3", 4] }
  - name: other_2
    command: sh
    protocol: arena1
)";
    const Config c = parse(yaml);
    EXPECT_EQ(c.path, fs::path(kFile));
    EXPECT_EQ(c.text, yaml);
    EXPECT_EQ(c.name, "full-1.0");
    EXPECT_EQ(c.game, "connect4");
    const games::Params params{{"rows", "7"}, {"cols", "8"}, {"connect", "4"}};
    EXPECT_EQ(c.game_params, params);
    EXPECT_EQ(c.time.move, Millis{500});
    EXPECT_EQ(c.time.tolerance, Millis{20});
    EXPECT_EQ(c.time.game, Millis{60000});
    EXPECT_EQ(c.time.increment, Millis{100});
    EXPECT_EQ(c.startup_ms, 2000);
    EXPECT_FALSE(c.realtime_deadlines);
    EXPECT_FALSE(session_options(c, c.bots[0]).realtime_deadlines);
    EXPECT_EQ(c.schedule, ScheduleType::kGauntlet);
    EXPECT_EQ(c.challenger, "mine");
    EXPECT_EQ(c.games_per_pair, 6);
    EXPECT_EQ(c.rounds, 3);
    EXPECT_EQ(c.openings.random_plies, 0);
    EXPECT_EQ(c.openings.file, fs::path(openings));
    const std::vector<std::vector<std::string>> lines{{"4", "4"}, {"3", "5", "4"}};
    EXPECT_EQ(c.openings.lines, lines);
    EXPECT_EQ(c.concurrency, 3);
    EXPECT_EQ(c.seed, 18446744073709551615ULL);
    EXPECT_EQ(c.database, fs::path("out/full.db"));
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(c.bots[0].name, "mine");
    EXPECT_EQ(c.bots[0].command, "/bin/sh -c 'exit 0'");
    const std::vector<std::string> argv{"/bin/sh", "-c", "exit 0", "--seed", "3", "4"};
    EXPECT_EQ(c.bots[0].argv, argv);
    EXPECT_EQ(c.bots[0].protocol, "arena1");
    EXPECT_EQ(c.bots[0].executable, fs::path("/bin/sh"));
    EXPECT_EQ(c.bots[1].name, "other_2");
    EXPECT_EQ(c.bots[1].argv, std::vector<std::string>{"sh"});
    // Found in PATH.
    EXPECT_EQ(c.bots[1].executable.filename(), "sh");
    EXPECT_TRUE(c.bots[1].executable.is_absolute() ||
                c.bots[1].executable.string().find('/') != std::string::npos);
}

TEST(Config, Defaults) {
    const Config c = parse(with(""));
    EXPECT_EQ(c.name, "t");
    EXPECT_EQ(c.game, "connect4");
    EXPECT_TRUE(c.game_params.empty());
    EXPECT_EQ(c.time.move, Millis{3000});
    EXPECT_EQ(c.time.tolerance, match::kDefaultTolerance);
    EXPECT_EQ(c.time.game, Millis{0});
    EXPECT_EQ(c.time.increment, Millis{0});
    EXPECT_EQ(c.startup_ms, 10'000);
    EXPECT_TRUE(c.realtime_deadlines);
    EXPECT_EQ(c.schedule, ScheduleType::kRoundRobin);
    EXPECT_EQ(c.challenger, "");
    EXPECT_EQ(c.games_per_pair, 2);
    EXPECT_EQ(c.rounds, 1);
    EXPECT_EQ(c.openings.random_plies, 0);
    EXPECT_TRUE(c.openings.file.empty());
    EXPECT_TRUE(c.openings.lines.empty());
    EXPECT_EQ(c.concurrency, 0);
    EXPECT_EQ(c.seed, 1u);
    EXPECT_EQ(c.database, fs::path("results/t.db"));
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(c.bots[0].protocol, "arena1");
}

TEST(Config, JournalModeIsWalOrDelete) {
    EXPECT_EQ(parse(with("")).journal_mode, store::JournalMode::kWal);
    EXPECT_EQ(parse(with("journal_mode: wal\n")).journal_mode, store::JournalMode::kWal);
    EXPECT_EQ(parse(with("journal_mode: delete\n")).journal_mode, store::JournalMode::kDelete);
}

TEST(ConfigError, UnknownJournalMode) {
    const std::string known =
        " for 'journal_mode' (known: wal, the default, and delete, for a database on a network "
        "filesystem)";
    EXPECT_EQ(error_of(with("journal_mode: memory\n")),
              "t.yaml:3:15: unknown value 'memory'" + known);
    EXPECT_EQ(error_of(with("journal_mode: WAL\n")), "t.yaml:3:15: unknown value 'WAL'" + known);
    EXPECT_EQ(error_of(with("journal_mode: delet\n")),
              "t.yaml:3:15: unknown value 'delet'" + known + " (did you mean 'delete'?)");
    EXPECT_EQ(error_of(with("journal_mode:\n")), "t.yaml:3:1: missing value for 'journal_mode'");
    EXPECT_EQ(error_of(with("journal_mode: [wal]\n")).rfind("t.yaml:3:15: ", 0), 0u);
    EXPECT_EQ(error_of(with("journal_mod: delete\n")),
              "t.yaml:3:1: unknown key 'journal_mod' (did you mean 'journal_mode'?)");
}

// Like `database` and `concurrency`, the journal mode decides nothing of the
// games: a stored tournament goes on under a config that changes it, with
// no change said and nothing added to its schedule.
TEST(Config, JournalModeIsNotInTheFingerprint) {
    TempDir dir("config_test");
    const std::string database = "database: " + (dir.path() / "t.db").string() + "\n";
    const Config wal = parse(with(database));
    const Config rollback = parse(with(database + "journal_mode: delete\n"));
    ASSERT_NE(wal.journal_mode, rollback.journal_mode);
    EXPECT_EQ(fingerprint(wal), fingerprint(rollback));

    std::ostringstream err;
    std::int64_t id = 0;
    {
        store::ResultsStore store(wal.database, wal.journal_mode);
        const auto opened = open_tournament(store, wal, {}, err);
        ASSERT_TRUE(opened.has_value()) << err.str();
        id = opened->id;
    }
    store::ResultsStore store(rollback.database, rollback.journal_mode);
    const auto stored = store.find_tournament("t");
    ASSERT_TRUE(stored.has_value());
    const auto reopened = open_tournament(store, rollback, {}, err);
    ASSERT_TRUE(reopened.has_value()) << err.str();
    EXPECT_EQ(reopened->id, id);
    EXPECT_EQ(err.str(), "");  // no "changes: ..." line, no refusal
    EXPECT_EQ(store.find_tournament("t")->spec.fingerprint, stored->spec.fingerprint);
    EXPECT_EQ(store.segments(id).size(), 1u);
}

TEST(Config, GameClockAloneHasNoPerMoveLimit) {
    const Config c = parse(with("time: { game_ms: 60000, inc_ms: 500 }\n"));
    EXPECT_EQ(c.time.move, Millis{0});
    EXPECT_EQ(c.time.game, Millis{60000});
    EXPECT_EQ(c.time.increment, Millis{500});
}

TEST(Config, OtherGamesAndVariants) {
    Config c = parse("name: t\ngame: { name: connect4, variant: tsinghua }\n" + kBots);
    EXPECT_EQ(c.game_params, (games::Params{{"variant", "tsinghua"}}));
    c = parse("name: t\ngame: { name: gomoku, size: 15, rule: freestyle }\n" + kBots);
    EXPECT_EQ(c.game, "gomoku");
    EXPECT_EQ(c.game_params, (games::Params{{"size", "15"}, {"rule", "freestyle"}}));
    c = parse("name: t\ngame: { name: reversi }\nopenings: { random_plies: 4 }\n" + kBots);
    EXPECT_EQ(c.game, "reversi");
    EXPECT_EQ(c.openings.random_plies, 4);
}

TEST(Config, RandomPliesZeroAndConcurrencyZeroAreAllowed) {
    const Config c = parse(with("openings: { random_plies: 0 }\nconcurrency: 0\n"));
    EXPECT_EQ(c.openings.random_plies, 0);
    EXPECT_EQ(c.concurrency, 0);
}

TEST(Config, LoadConfigReadsTheFile) {
    TempDir dir("config_test");
    const std::string path = dir.write("c.yaml", with("seed: 9\n"));
    const Config c = load_config(path);
    EXPECT_EQ(c.path, fs::path(path));
    EXPECT_EQ(c.seed, 9u);
    EXPECT_EQ(c.text, with("seed: 9\n"));
}

TEST(Config, LoadConfigOrSayWhyNot) {
    TempDir dir("config_test");
    const std::string path = dir.write("c.yaml", with("seed: 9\n"));
    std::ostringstream err;
    const auto loaded = load_config(path, err);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->seed, 9u);
    EXPECT_EQ(err.str(), "");
    const std::string bad = dir.write("bad.yaml", "name: t\ngame: { name: connect4\n");
    EXPECT_FALSE(load_config(bad, err).has_value());
    EXPECT_EQ(err.str(), bad + ":3:1: YAML syntax error: end of map flow not found\n");
}

// --- errors: YAML and structure ------------------------------------------

TEST(ConfigError, YamlSyntax) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4\nbots: []\n"),
              "t.yaml:3:5: YAML syntax error: end of map flow not found");
    EXPECT_EQ(error_of("name: t\n  game: x\n"), "t.yaml:2:7: YAML syntax error: illegal map value");
}

// A config is one YAML document. Markers that open or close that one
// document are fine; content after a marker that ended it is refused where
// it starts. (yaml-cpp's LoadAll looped forever on the last input here,
// which fuzz_config found.)
TEST(ConfigError, OneYamlDocument) {
    EXPECT_EQ(error_of("%YAML 1.2\n---\n" + with("") + "...\n---\n# only a comment\n"),
              "<no error>");
    EXPECT_EQ(error_of("--- # the config\n" + with("")), "<no error>");
    EXPECT_EQ(error_of(with("") + "---\n\n  concurrency: 3\n"),
              "t.yaml:8:3: a second YAML document (after '---'), which the arena would not read: "
              "a config is one document (merge its settings into the first, or remove it)");
    EXPECT_NE(error_of(with("") + "...\nconcurrency: 3\n").find("t.yaml:7:1: a second YAML"),
              std::string::npos);
    EXPECT_NE(error_of(with("") + "--- {concurrency: 3}\n").find("t.yaml:6:5: a second YAML"),
              std::string::npos);
    const std::string looped =
        "# Gomoku on a 15x15 board\n,\n# with a game clock\ngame: { name: gomoku, size: 15 }\n"
        "te gomoku --seed 1 }\n  - { name: ra\n";
    EXPECT_NE(error_of(looped).find("t.yaml:"), std::string::npos);
}

TEST(ConfigError, MissingFile) {
    EXPECT_EQ(
        [] {
            try {
                static_cast<void>(load_config("/nonexistent/dir/c.yaml"));
            } catch (const ConfigError& e) {
                return std::string(e.what());
            }
            return std::string("<no error>");
        }(),
        "/nonexistent/dir/c.yaml: cannot read the config file (No such file or directory)");
}

TEST(ConfigError, EmptyOrNotAMap) {
    EXPECT_EQ(error_of(""), "t.yaml:1:1: the config is empty (expected a map of settings)");
    EXPECT_EQ(error_of("# nothing\n"),
              "t.yaml:1:1: the config is empty (expected a map of settings)");
    EXPECT_EQ(error_of("- a\n- b\n"),
              "t.yaml:1:1: expected a map of settings at the top level, got a list");
}

TEST(ConfigError, UnknownTopLevelKey) {
    EXPECT_EQ(error_of(with("concurency: 2\n")),
              "t.yaml:3:1: unknown key 'concurency' (did you mean 'concurrency'?)");
    EXPECT_EQ(error_of(with("sede: 2\n")), "t.yaml:3:1: unknown key 'sede' (did you mean 'seed'?)");
    // A prefix, however far in edits.
    EXPECT_EQ(error_of(with("conc: 2\n")),
              "t.yaml:3:1: unknown key 'conc' (did you mean 'concurrency'?)");
    EXPECT_EQ(error_of(with("colour: red\n")), "t.yaml:3:1: unknown key 'colour'");
}

TEST(ConfigError, UnknownNestedKeys) {
    EXPECT_EQ(error_of(with("time: { move_ms: 5, mvoe_ms: 3 }\n")),
              "t.yaml:3:21: unknown key 'mvoe_ms' in 'time' (did you mean 'move_ms'?)");
    EXPECT_EQ(error_of(with("schedule:\n  games_per_par: 4\n")),
              "t.yaml:4:3: unknown key 'games_per_par' in 'schedule' (did you mean "
              "'games_per_pair'?)");
    EXPECT_EQ(error_of(with("openings: { random: 2 }\n")),
              "t.yaml:3:13: unknown key 'random' in 'openings' (did you mean 'random_plies'?)");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, comand: /bin/sh }\n"),
              "t.yaml:4:16: unknown key 'comand' in bot #1 (did you mean 'command'?)");
}

TEST(ConfigError, DuplicateKey) {
    EXPECT_EQ(error_of("name: t\nseed: 1\ngame: { name: connect4 }\nseed: 2\n" + kBots),
              "t.yaml:4:1: duplicate key 'seed' (first at line 2)");
}

TEST(ConfigError, MissingRequiredKeys) {
    EXPECT_EQ(error_of("game: { name: connect4 }\n" + kBots),
              "t.yaml:1:1: missing required key 'name'");
    EXPECT_EQ(error_of("# header\nname: t\n" + kBots), "t.yaml:2:1: missing required key 'game'");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\n"),
              "t.yaml:1:1: missing required key 'bots'");
    EXPECT_EQ(error_of("name: t\ngame: { rows: 6 }\n" + kBots),
              "t.yaml:2:7: missing required key 'name' in 'game'");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { command: /bin/sh }\n  - { name: b, command: /bin/sh }\n"),
              "t.yaml:4:5: missing required key 'name' in bot #1");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh }\n  - name: b\n    args: [x]\n"),
              "t.yaml:5:5: missing required key 'command' in bot 'b'");
    EXPECT_EQ(error_of(with("schedule: { type: gauntlet }\n")),
              "t.yaml:3:11: missing required key 'challenger' in 'schedule' (a gauntlet needs "
              "one)");
}

TEST(ConfigError, MissingValue) {
    EXPECT_EQ(error_of("name:\ngame: { name: connect4 }\n" + kBots),
              "t.yaml:1:1: missing value for 'name'");
    EXPECT_EQ(error_of(with("concurrency:\n")), "t.yaml:3:1: missing value for 'concurrency'");
    EXPECT_EQ(error_of(with("time: { move_ms: }\n")), "t.yaml:3:9: missing value for 'move_ms'");
}

TEST(ConfigError, WrongTypes) {
    EXPECT_EQ(error_of(with("concurrency: two\n")),
              "t.yaml:3:14: expected an integer for 'concurrency', got 'two'");
    EXPECT_EQ(error_of("name: t\ngame: connect4\n" + kBots),
              "t.yaml:2:7: expected a map for 'game', got 'connect4'");
    EXPECT_EQ(error_of(with("time: [1, 2]\n")),
              "t.yaml:3:7: expected a map for 'time', got a list");
    EXPECT_EQ(error_of(with("schedule: { games_per_pair: 2.5 }\n")),
              "t.yaml:3:29: expected an integer for 'games_per_pair', got '2.5'");
    EXPECT_EQ(error_of(with("seed: abc\n")),
              "t.yaml:3:7: expected an integer for 'seed', got 'abc'");
    EXPECT_EQ(error_of(with("seed: [1]\n")),
              "t.yaml:3:7: expected an integer for 'seed', got a list");
    EXPECT_EQ(error_of("name: [a]\ngame: { name: connect4 }\n" + kBots),
              "t.yaml:1:7: expected a string for 'name', got a list");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4, rows: [6] }\n" + kBots),
              "t.yaml:2:31: expected a scalar for game parameter 'rows', got a list");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots: { a: 1 }\n"),
              "t.yaml:3:7: expected a list for 'bots', got a map");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n  - /bin/sh\n"),
              "t.yaml:4:5: expected a map for bot #1, got '/bin/sh'");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh, args: --seed }\n"),
              "t.yaml:4:40: expected a list for 'args', got '--seed'");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh, args: [{ x: 1 }] }\n"),
              "t.yaml:4:41: expected a string in 'args', got a map");
}

TEST(ConfigError, NegativeOrZero) {
    EXPECT_EQ(error_of(with("concurrency: -1\n")),
              "t.yaml:3:14: concurrency must not be negative, got -1");
    EXPECT_EQ(error_of(with("schedule: { games_per_pair: 0 }\n")),
              "t.yaml:3:29: games_per_pair must be positive, got 0");
    EXPECT_EQ(error_of(with("schedule: { games_per_pair: -2 }\n")),
              "t.yaml:3:29: games_per_pair must be positive, got -2");
    EXPECT_EQ(error_of(with("schedule: { rounds: 0 }\n")),
              "t.yaml:3:21: rounds must be positive, got 0");
    EXPECT_EQ(error_of(with("openings: { random_plies: -1 }\n")),
              "t.yaml:3:27: random_plies must not be negative, got -1");
    EXPECT_EQ(error_of(with("time: { move_ms: -5 }\n")),
              "t.yaml:3:18: move_ms must not be negative, got -5");
    EXPECT_EQ(error_of(with("time: { startup_ms: 0 }\n")),
              "t.yaml:3:21: startup_ms must be positive, got 0");
    EXPECT_EQ(error_of(with("time: { realtime: yes }\n")),
              "t.yaml:3:19: expected true or false for 'realtime', got 'yes'");
    EXPECT_EQ(error_of(with("seed: -1\n")), "t.yaml:3:7: seed must not be negative, got -1");
    EXPECT_EQ(error_of(with("concurrency: 99999999999999999999\n")),
              "t.yaml:3:14: concurrency must be at most 4096, got 99999999999999999999");
}

TEST(ConfigError, TimeControlAsAWhole) {
    EXPECT_EQ(error_of(with("time: { move_ms: 0 }\n")),
              "t.yaml:3:7: no time limit: set a per-move limit (move_ms) or a game clock "
              "(game_ms)");
    EXPECT_EQ(error_of(with("time: { inc_ms: 100 }\n")),
              "t.yaml:3:7: an increment (inc_ms) needs a game clock (game_ms)");
}

TEST(ConfigError, InvalidNames) {
    EXPECT_EQ(error_of("name: my results\ngame: { name: connect4 }\n" + kBots),
              "t.yaml:1:7: name 'my results' is not valid: it names the results file (use only "
              "letters, digits and _ . + -)");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a/b, command: /bin/sh }\n"),
              "t.yaml:4:13: bot name 'a/b' is not valid (use only letters, digits and _ . + -)");
}

// --- errors: bots ------------------------------------------------------------

TEST(ConfigError, CommandPathNotFound) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh }\n"
                       "  - { name: mcts, command: build/bots/c4-mcts-nonexistent --x }\n"),
              "t.yaml:5:28: bot 'mcts': command 'build/bots/c4-mcts-nonexistent' not found");
}

TEST(ConfigError, CommandNotInPath) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: no-such-bot-xyz }\n"),
              "t.yaml:4:25: bot 'a': command 'no-such-bot-xyz' not found in PATH");
}

TEST(ConfigError, CommandNotExecutable) {
    TempDir dir("config_test");
    const std::string file = dir.write("bot.sh", "#!/bin/sh\n");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: " +
                       file + " }\n"),
              "t.yaml:4:25: bot 'a': command '" + file +
                  "' is not executable (chmod +x it, or name its interpreter first, e.g. "
                  "'python3 " +
                  file + "')");
    // A directory is not a program either.
    const std::string d = dir.path().string();
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: " +
                       d + " }\n"),
              "t.yaml:4:25: bot 'a': command '" + d + "' is not executable");
}

TEST(ConfigError, CommandRelativeToCurrentDirectory) {
    TempDir dir("config_test");
    static_cast<void>(dir.write("bot", "#!/bin/sh\n", fs::perms::owner_all));
    ChangeDir cd(dir.path());
    const Config c = parse(
        "name: t\ngame: { name: connect4 }\nbots:\n"
        "  - { name: a, command: ./bot --seed 1 }\n"
        "  - { name: b, command: ./bot --seed 2 }\n");
    EXPECT_EQ(c.bots[0].executable, fs::path("./bot"));
    EXPECT_EQ(c.bots[1].argv, (std::vector<std::string>{"./bot", "--seed", "2"}));
}

TEST(ConfigError, CommandCannotBeSplit) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: \"/bin/sh 'x\" }\n"),
              "t.yaml:4:25: bot 'a': unbalanced ' in command '/bin/sh 'x'");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: \"  \" }\n"),
              "t.yaml:4:25: bot 'a': empty command");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: \"''\" }\n"),
              "t.yaml:4:25: bot 'a': empty command");
}

// Found by tests/fuzz/fuzz_config: a backslash before a letter once escaped
// parse_config and terminated the arena. As in a shell, it now takes the
// letter literally; a backslash at the very end is an error.
TEST(ConfigError, CommandWithABackslash) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: no/such/\\bot --game connect4 }\n"),
              "t.yaml:4:25: bot 'a': command 'no/such/bot' not found");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: \"/bin/sh x\\\\\" }\n"),
              "t.yaml:4:25: bot 'a': cannot end with escape in command '/bin/sh x\\'");
}

TEST(ConfigError, DuplicateBotName) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: x, command: /bin/sh }\n"
                       "  - { name: y, command: /bin/sh }\n"
                       "  - name: x\n"
                       "    command: /bin/sh\n"),
              "t.yaml:6:11: duplicate bot name 'x' (first defined at line 4)");
}

TEST(ConfigError, UnknownProtocol) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh, protocol: uci }\n"),
              "t.yaml:4:44: bot 'a': unknown protocol 'uci' (expected 'arena1', 'gomocup' or "
              "'nboard', or 'tsinghua-so' with a 'library')");
}

TEST(ConfigError, ProtocolThatCannotPlayTheGame) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh, protocol: gomocup }\n"
                       "  - { name: b, command: /bin/sh }\n"),
              "t.yaml:4:44: bot 'a': protocol 'gomocup' plays only gomoku");
    EXPECT_EQ(error_of("name: t\ngame: { name: gomoku }\nbots:\n"
                       "  - { name: a, command: /bin/sh }\n"
                       "  - { name: b, command: /bin/sh, protocol: nboard }\n"),
              "t.yaml:5:44: bot 'b': protocol 'nboard' plays only reversi");
}

TEST(Config, ForeignProtocols) {
    const Config c = parse(
        "name: t\ngame: { name: gomoku, size: 20, rule: exact5 }\nbots:\n"
        "  - { name: a, command: /bin/sh, protocol: gomocup }\n"
        "  - { name: b, command: /bin/sh, protocol: arena1 }\n");
    EXPECT_EQ(c.bots[0].protocol, "gomocup");
    EXPECT_EQ(bot_spec(c.bots[0]).protocol, session::BotProtocol::kGomocup);
    EXPECT_EQ(bot_spec(c.bots[1]).protocol, session::BotProtocol::kArena1);
    const Config r = parse(
        "name: t\ngame: { name: reversi }\nbots:\n"
        "  - { name: a, command: /bin/sh, protocol: nboard }\n"
        "  - { name: b, command: /bin/sh }\n");
    EXPECT_EQ(bot_spec(r.bots[0]).protocol, session::BotProtocol::kNboard);
}

TEST(Config, RestartPerGameFromDefaultsOrTheBot) {
    const Config c = parse(
        "name: t\ngame: { name: connect4 }\nbot_defaults: { restart: per-game }\nbots:\n"
        "  - { name: a, command: /bin/sh }\n"
        "  - { name: b, command: /bin/sh, restart: on-fault }\n");
    EXPECT_TRUE(c.bots[0].restart_each_game);
    EXPECT_FALSE(c.bots[1].restart_each_game);
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh, restart: always }\n"
                       "  - { name: b, command: /bin/sh }\n"),
              "t.yaml:4:43: expected per-game or on-fault for 'restart', got 'always'");
}

// A strategy library is loaded afresh for every game unless `restart` is
// written, for that bot or in bot_defaults; the fingerprint that decides
// whether a stored tournament resumes does not include `restart`, so a
// tournament stored before this default resumes.
TEST(Config, TsinghuaStrategiesRestartPerGameUnlessTold) {
    TempDir dir("config_test");
    const std::string library = dir.write("s.so", "not loaded by the config\n");
    const std::string game = "name: t\ngame: { name: connect4, variant: tsinghua }\n";
    const std::string bots = "  - { name: s, protocol: tsinghua-so, library: " + library +
                             " }\n  - { name: native, command: /bin/sh }\n";
    const Config plain = parse(game + "bots:\n" + bots);
    EXPECT_TRUE(plain.bots[0].restart_each_game);
    EXPECT_FALSE(plain.bots[1].restart_each_game);

    const Config own =
        parse(game + "bots:\n  - { name: s, protocol: tsinghua-so, library: " + library +
              ", restart: on-fault }\n  - { name: native, command: /bin/sh }\n");
    EXPECT_FALSE(own.bots[0].restart_each_game);

    const Config defaults = parse(game + "bot_defaults: { restart: on-fault }\nbots:\n" + bots);
    EXPECT_FALSE(defaults.bots[0].restart_each_game);
    EXPECT_FALSE(defaults.bots[1].restart_each_game);

    const Config dir_entry =
        parse(game + "bots:\n  - { protocol: tsinghua-so, library_dir: " + dir.path().string() +
              " }\n  - { name: n, command: /bin/sh }\n");
    EXPECT_TRUE(dir_entry.bots[0].restart_each_game);

    EXPECT_EQ(fingerprint(plain), fingerprint(own));
}

TEST(ConfigError, TooFewBots) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots:\n"
                       "  - { name: a, command: /bin/sh }\n"),
              "t.yaml:4:3: at least 2 bots are needed, got 1");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbots: []\n"),
              "t.yaml:3:7: at least 2 bots are needed, got 0");
}

// --- errors: schedule ---------------------------------------------------------

TEST(ConfigError, OddGamesPerPair) {
    EXPECT_EQ(error_of(with("schedule: { type: round-robin, games_per_pair: 3 }\n")),
              "t.yaml:3:48: games_per_pair must be even (games come in colour-swapped pairs), "
              "got 3");
}

TEST(ConfigError, UnknownScheduleType) {
    EXPECT_EQ(error_of(with("schedule: { type: round_robin }\n")),
              "t.yaml:3:19: unknown schedule type 'round_robin' (known: round-robin, gauntlet, "
              "ladder) (did you mean 'round-robin'?)");
    EXPECT_EQ(error_of(with("schedule: { type: swiss }\n")),
              "t.yaml:3:19: unknown schedule type 'swiss' (known: round-robin, gauntlet, ladder)");
}

TEST(ConfigError, GauntletChallenger) {
    EXPECT_EQ(error_of(with("schedule: { type: gauntlet, challenger: zed }\n")),
              "t.yaml:3:41: challenger 'zed' is not one of the bots");
    EXPECT_EQ(error_of(with("schedule: { challenger: a }\n")),
              "t.yaml:3:13: 'challenger' is only for a gauntlet schedule (type: gauntlet)");
    const Config c = parse(with("schedule: { type: gauntlet, challenger: b }\n"));
    EXPECT_EQ(c.schedule, ScheduleType::kGauntlet);
    EXPECT_EQ(c.challenger, "b");
}

// --- errors: openings -------------------------------------------------------

TEST(ConfigError, OpeningsFileNotFound) {
    EXPECT_EQ(error_of(with("openings: { file: /nonexistent/openings.txt }\n")),
              "t.yaml:3:19: openings file '/nonexistent/openings.txt' not found");
}

TEST(ConfigError, OpeningsBothKinds) {
    EXPECT_EQ(error_of(with("openings: { random_plies: 2, file: x.txt }\n")),
              "t.yaml:3:11: give either 'random_plies' or 'file' in 'openings', not both");
}

TEST(ConfigError, OpeningsIllegalMove) {
    TempDir dir("config_test");
    const std::string file = dir.write("o.txt", "# first\n4 4\n\n4 8 4\n");
    EXPECT_EQ(
        error_of(with("openings: { file: " + file + " }\n")),
        "t.yaml:3:19: openings file '" + file + "' line 4: move '8' is not legal in connect4");
    const std::string text = dir.write("p.txt", "4 x\n");
    EXPECT_EQ(
        error_of(with("openings: { file: " + text + " }\n")),
        "t.yaml:3:19: openings file '" + text + "' line 1: move 'x' is not legal in connect4");
    // Illegal on a full column (rows 4: a fifth piece does not fit).
    const std::string full = dir.write("q.txt", "1 1 1 1 1\n");
    EXPECT_EQ(
        error_of("name: t\ngame: { name: connect4, rows: 4 }\nopenings: { file: " + full + " }\n" +
                 kBots),
        "t.yaml:3:19: openings file '" + full + "' line 1: move '1' is not legal in connect4");
}

TEST(ConfigError, OpeningsEndingTheGame) {
    TempDir dir("config_test");
    const std::string ends = dir.write("o.txt", "1 2\n1 2 1\n");
    const std::string game = "name: t\ngame: { name: connect4, connect: 2 }\n";
    EXPECT_EQ(error_of(game + "openings: { file: " + ends + " }\n" + kBots),
              "t.yaml:3:19: openings file '" + ends + "' line 2: the opening ends the game");
    const std::string after = dir.write("p.txt", "1 2 1 3\n");
    EXPECT_EQ(
        error_of(game + "openings: { file: " + after + " }\n" + kBots),
        "t.yaml:3:19: openings file '" + after + "' line 1: the game is over before move '3'");
}

TEST(ConfigError, OpeningsFileEmpty) {
    TempDir dir("config_test");
    const std::string file = dir.write("o.txt", "# nothing here\n\n");
    EXPECT_EQ(error_of(with("openings: { file: " + file + " }\n")),
              "t.yaml:3:19: openings file '" + file + "' has no openings");
}

TEST(ConfigError, OpeningsCheckedAgainstTheGameWhateverTheOrder) {
    TempDir dir("config_test");
    const std::string file = dir.write("o.txt", "a1\n");
    // Openings before the game: still checked against reversi.
    EXPECT_EQ(
        error_of("name: t\nopenings: { file: " + file + " }\ngame: { name: reversi }\n" + kBots),
        "t.yaml:2:19: openings file '" + file + "' line 1: move 'a1' is not legal in reversi");
}

// --- errors: game -------------------------------------------------------------

TEST(ConfigError, UnknownGame) {
    EXPECT_EQ(error_of("name: t\ngame: { name: chess }\n" + kBots),
              "t.yaml:2:7: unknown game 'chess' (known: connect4, gomoku, reversi)");
}

TEST(ConfigError, BadGameParameters) {
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4, rows: 3 }\n" + kBots),
              "t.yaml:2:7: connect4: rows=3 is out of range (4..16)");
    EXPECT_EQ(error_of("name: t\ngame:\n  name: gomoku\n  rule: renju\n" + kBots),
              "t.yaml:3:3: gomoku: rule=renju is unknown (freestyle, exact5)");
    EXPECT_EQ(error_of("name: t\ngame: { name: reversi, size: 10 }\n" + kBots),
              "t.yaml:2:7: reversi: unknown parameter size=10 (it takes none)");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4, variant: tsinghua, rows: 9 }\n" + kBots),
              "t.yaml:2:7: connect4: variant=tsinghua chooses rows, cols, connect and blocked "
              "itself; rows=9 is not allowed with it");
}

TEST(ConfigError, FirstProblemWins) {
    // Two problems: the earlier one in the file is reported.
    EXPECT_EQ(error_of("name: t\nconcurrency: x\ngame: { name: chess }\n" + kBots),
              "t.yaml:2:14: expected an integer for 'concurrency', got 'x'");
    EXPECT_EQ(error_of("name: t\ngame: { name: chess }\nconcurrency: x\n" + kBots),
              "t.yaml:2:7: unknown game 'chess' (known: connect4, gomoku, reversi)");
}

// --- shipped files ------------------------------------------------------------

TEST(ShippedOpenings, Connect4LinesAreDistinctShortAndLegal) {
    const std::string file = std::string(ARENA_SOURCE_DIR) + "/configs/openings/connect4-7x6.txt";
    const Config c = parse(with("openings: { file: " + file + " }\n"));
    EXPECT_GE(c.openings.lines.size(), 24u);
    std::set<std::vector<std::string>> seen;
    for (const auto& line : c.openings.lines) {
        EXPECT_GE(line.size(), 2u);
        EXPECT_LE(line.size(), 4u);
        EXPECT_TRUE(seen.insert(line).second) << "repeated opening";
    }
}

TEST(ShippedConfigs, EveryConfigParses) {
    const fs::path root(ARENA_SOURCE_DIR);
    if (!fs::exists(root / "build/bots/random")) {
        GTEST_SKIP() << "build/bots/random is not built in " << root;
    }
    ChangeDir cd(root);
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator("configs")) {
        if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    }
    EXPECT_GE(files.size(), 5u);
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.string());
        EXPECT_NO_THROW(static_cast<void>(load_config(file)));
    }
}

TEST(ShippedConfigs, Connect4ThreeSeconds) {
    const fs::path root(ARENA_SOURCE_DIR);
    if (!fs::exists(root / "build/bots/random")) {
        GTEST_SKIP() << "build/bots/random is not built in " << root;
    }
    ChangeDir cd(root);
    const Config c = load_config("configs/connect4-3s.yaml");
    EXPECT_EQ(c.name, "connect4-3s");
    EXPECT_EQ(c.game, "connect4");
    EXPECT_EQ(c.time.move, Millis{3000});
    EXPECT_EQ(c.games_per_pair, 10);
    EXPECT_EQ(c.concurrency, 2);
    EXPECT_EQ(c.database, fs::path("results/connect4-3s.db"));
    EXPECT_FALSE(c.openings.lines.empty());
    EXPECT_GE(c.bots.size(), 2u);

    const Config g = load_config("configs/gauntlet-example.yaml");
    EXPECT_EQ(g.schedule, ScheduleType::kGauntlet);
    EXPECT_EQ(g.challenger, "mybot");
}

// The configs/gauntlet-ladder-*.yaml files, each with its ladder config.
std::vector<std::pair<fs::path, fs::path>> gauntlet_ladders() {
    std::vector<std::pair<fs::path, fs::path>> pairs;
    const std::string prefix = "gauntlet-ladder-";
    for (const auto& entry : fs::directory_iterator("configs")) {
        const std::string file = entry.path().filename().string();
        if (!file.starts_with(prefix) || entry.path().extension() != ".yaml") continue;
        pairs.emplace_back(entry.path(),
                           fs::path("configs") / ("ladder-" + file.substr(prefix.size())));
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

// The standings docs/ladder.md prints for a ladder config: the rows of the
// code block after the paragraph that starts with "`configs/<name>.yaml`,",
// as bot name and rating.
std::map<std::string, int> published_ratings(const std::string& ladder_name) {
    std::ifstream in(std::string(ARENA_SOURCE_DIR) + "/docs/ladder.md");
    const std::string paragraph = "`configs/" + ladder_name + ".yaml`,";
    const std::regex row(R"(^\s+\d+\s+(\S+)\s+(-?\d+)\s+\d+\s+\d+\s.*)");
    std::map<std::string, int> ratings;
    bool found = false;
    bool in_block = false;
    for (std::string line; std::getline(in, line);) {
        if (!found) {
            found = line.starts_with(paragraph);
            continue;
        }
        if (line.starts_with("```")) {
            if (in_block) break;
            in_block = true;
            continue;
        }
        std::smatch m;
        if (in_block && std::regex_match(line, m, row)) ratings[m[1]] = std::stoi(m[2]);
    }
    return ratings;
}

// Each gauntlet-ladder config plays its ladder's game, time control and
// openings, and anchors every bot but the challenger, each with its ladder
// command, at the rating docs/ladder.md publishes for it; every published
// bot but random (whose rating is the prior's) is there.
TEST(ShippedConfigs, GauntletLaddersAnchorEveryOpponentAtItsPublishedRating) {
    const fs::path root(ARENA_SOURCE_DIR);
    if (!fs::exists(root / "build/bots/random")) {
        GTEST_SKIP() << "build/bots/random is not built in " << root;
    }
    ChangeDir cd(root);
    const auto pairs = gauntlet_ladders();
    EXPECT_GE(pairs.size(), 3u);
    for (const auto& [gauntlet_file, ladder_file] : pairs) {
        SCOPED_TRACE(gauntlet_file.string());
        ASSERT_TRUE(fs::exists(ladder_file)) << ladder_file;
        const Config g = load_config(gauntlet_file);
        const Config ladder = load_config(ladder_file);
        EXPECT_EQ(g.schedule, ScheduleType::kGauntlet);
        EXPECT_EQ(g.game, ladder.game);
        EXPECT_EQ(g.game_params, ladder.game_params);
        EXPECT_EQ(g.time.move, ladder.time.move);
        EXPECT_EQ(g.time.tolerance, ladder.time.tolerance);
        EXPECT_EQ(g.time.game, ladder.time.game);
        EXPECT_EQ(g.time.increment, ladder.time.increment);
        EXPECT_EQ(g.openings.file, ladder.openings.file);
        EXPECT_EQ(g.openings.order, ladder.openings.order);
        EXPECT_EQ(g.openings.random_plies, ladder.openings.random_plies);

        const auto published = published_ratings(ladder.name);
        EXPECT_GE(published.size(), 3u)
            << "no standings for " << ladder.name << " in docs/ladder.md";
        std::map<std::string, double> anchors;
        for (const auto& a : g.anchors)
            anchors[a.name] = a.elo;
        for (const auto& bot : g.bots) {
            SCOPED_TRACE(bot.name);
            if (bot.name == g.challenger) {
                EXPECT_FALSE(anchors.contains(bot.name)) << "the challenger is anchored";
                continue;
            }
            ASSERT_TRUE(anchors.contains(bot.name)) << "an opponent is not anchored";
            ASSERT_TRUE(published.contains(bot.name)) << "no published rating";
            EXPECT_EQ(anchors[bot.name], published.at(bot.name));
            const auto on_ladder =
                std::find_if(ladder.bots.begin(), ladder.bots.end(),
                             [&](const BotConfig& b) { return b.name == bot.name; });
            ASSERT_NE(on_ladder, ladder.bots.end()) << "not on " << ladder_file;
            EXPECT_EQ(bot.argv, on_ladder->argv);
        }
        EXPECT_EQ(anchors.size(), g.bots.size() - 1);
        for (const auto& [name, elo] : published) {
            if (name != "random") {
                EXPECT_TRUE(anchors.contains(name))
                    << name << " (" << elo << ") is not an opponent";
            }
        }
    }
}

// --- time odds and search limits -------------------------------------------

// A bot's own `time:` overrides the tournament's keys it gives, wherever the
// tournament's is written; `depth:` and `nodes:` are its search limits, and
// bot_defaults gives them to every bot.
TEST(Config, ABotsOwnTimeAndLimitsOverrideTheTournaments) {
    const auto c = parse(R"(name: t
game: { name: connect4 }
bot_defaults: { nodes: 5000 }
bots:
  - { name: a, command: /bin/sh, time: { move_ms: 50 }, depth: 2 }
  - { name: b, command: /bin/sh, time: { move_ms: 500, tolerance_ms: 30 }, nodes: 7 }
  - { name: c, command: /bin/sh, time: { game_ms: 60000, inc_ms: 100 } }
  - { name: d, command: /bin/sh }
time: { move_ms: 200, tolerance_ms: 20 }
)");
    ASSERT_EQ(c.bots.size(), 4u);
    const auto& a = c.bots[0];
    ASSERT_TRUE(a.time);
    EXPECT_EQ(a.time->move, Millis{50});
    EXPECT_EQ(a.time->tolerance, Millis{20});  // the tournament's
    EXPECT_EQ(a.limits.depth, 2);
    EXPECT_EQ(a.limits.nodes, 5000);  // bot_defaults
    const auto& b = c.bots[1];
    EXPECT_EQ(b.time->move, Millis{500});
    EXPECT_EQ(b.time->tolerance, Millis{30});
    EXPECT_FALSE(b.limits.depth);
    EXPECT_EQ(b.limits.nodes, 7);
    // A game clock alone: no per-move limit beyond it, as in the tournament's.
    const auto& clock = c.bots[2];
    EXPECT_EQ(clock.time->move, Millis{0});
    EXPECT_EQ(clock.time->game, Millis{60000});
    EXPECT_EQ(clock.time->increment, Millis{100});
    // Without its own: the tournament's.
    EXPECT_FALSE(c.bots[3].time);
    EXPECT_EQ(side_control(c, c.bots[3]).time.move, Millis{200});
    EXPECT_EQ(side_control(c, a).time.move, Millis{50});
    EXPECT_EQ(side_control(c, a).limits.depth, 2);
}

// Each bad value is one error naming the file, the line, the bot and the key.
TEST(Config, BadTimeOddsAndLimitsNameTheBotAndLine) {
    const auto bot = [](const std::string& keys) {
        return "name: t\ngame: { name: connect4 }\nbots:\n  - { name: a, command: /bin/sh }\n"
               "  - { name: b, command: /bin/sh, " +
               keys + " }\n";
    };
    EXPECT_EQ(error_of(bot("depth: 0")), "t.yaml:5:41: bot 'b': depth must be positive, got 0");
    EXPECT_EQ(error_of(bot("nodes: -3")), "t.yaml:5:41: bot 'b': nodes must be positive, got -3");
    EXPECT_EQ(error_of(bot("depth: deep")),
              "t.yaml:5:41: bot 'b': expected an integer for 'depth', got 'deep'");
    EXPECT_EQ(error_of(bot("depth: [1]")),
              "t.yaml:5:41: bot 'b': expected an integer for 'depth', got a list");
    EXPECT_EQ(error_of(bot("time: { move_ms: -5 }")),
              "t.yaml:5:51: bot 'b': move_ms must not be negative, got -5");
    EXPECT_EQ(error_of(bot("time: { move_ms: fast }")),
              "t.yaml:5:51: bot 'b': expected an integer for 'move_ms', got 'fast'");
    EXPECT_EQ(error_of(bot("time: { moves_ms: 5 }")),
              "t.yaml:5:42: unknown key 'moves_ms' in 'time' of bot 'b' (did you mean "
              "'move_ms'?)");
    EXPECT_EQ(error_of(bot("time: { startup_ms: 5 }"))
                  .find("t.yaml:5:42: unknown key 'startup_ms' in 'time' of bot 'b'"),
              0u);
    EXPECT_EQ(error_of(bot("time: { move_ms: 0 }")),
              "t.yaml:5:40: bot 'b': time: no time limit: set a per-move limit (move_ms) or a "
              "game clock (game_ms)");
    EXPECT_EQ(error_of(bot("time: 50")),
              "t.yaml:5:40: bot 'b': expected a map for 'time' (move_ms, tolerance_ms, game_ms, "
              "inc_ms), got '50'");
    EXPECT_EQ(error_of("name: t\ngame: { name: connect4 }\nbot_defaults: { depth: 0 }\n" + kBots),
              "t.yaml:3:24: bot_defaults: depth must be positive, got 0");
}

// A bot's own time and limits are part of the fingerprint (so a resumed run
// or a merge that changes them is refused); a config without them keeps its
// fingerprint, and a bot's time equal to the tournament's changes nothing.
TEST(Config, TimeOddsAndLimitsAreInTheFingerprint) {
    const auto config = [](const std::string& a_keys) {
        return parse(
            "name: t\ngame: { name: connect4 }\ntime: { move_ms: 100 }\nbots:\n"
            "  - { name: a, command: /bin/sh" +
            a_keys + " }\n  - { name: b, command: /bin/sh }\n");
    };
    const auto plain = fingerprint(config(""));
    EXPECT_EQ(fingerprint(config(", time: { move_ms: 100 }")), plain);
    const auto odds = fingerprint(config(", time: { move_ms: 50 }"));
    EXPECT_NE(odds, plain);
    EXPECT_NE(odds.find(" time: move_ms=50 tolerance_ms=10 game_ms=0 inc_ms=0\n"),
              std::string::npos)
        << odds;
    const auto deep = fingerprint(config(", depth: 4, nodes: 9"));
    EXPECT_NE(deep.find("bot a:"), std::string::npos);
    EXPECT_NE(deep.find(" depth=4 nodes=9\n"), std::string::npos) << deep;
    EXPECT_NE(deep, fingerprint(config(", depth: 5, nodes: 9")));
}

}  // namespace
}  // namespace arena::tournament
