// What a newcomer runs in their first hour, end to end, with the built
// executables: every shipped config and every arena command shown in
// README.md and bots/README.md plays with no start-up, crash, protocol or
// illegal-move loss; a bot started from its own directory finds its files;
// a failing bot explains itself (stderr tail) in `run`, `match`, `show` and
// `log`; a bot that cannot start is started 3 times, not once per game, and
// the same command completes the tournament once it is fixed; `arena match`
// stores into --db and keeps every line when interrupted.
//
// The commands run from a scratch "checkout": a directory whose build/,
// bots/ and configs/ lead to this build and the sources, so that the paths
// written in configs and docs resolve as they do for a user.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "arena/session/command_line.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "fake_sbatch.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"
#include "terminal.hpp"

namespace {

using arena::testing::slurp;

namespace fs = std::filesystem;
using arena::testing::ArenaOptions;
using arena::testing::ArenaProcess;
using arena::testing::ArenaResult;
using arena::testing::bin;
using arena::testing::game_lines;
using arena::testing::lines_of;
using arena::testing::query;
using arena::testing::query_one;
using arena::testing::run_in_terminal;
using arena::testing::source;
using arena::testing::TempDir;

// Endings that show that a bot meant to play well did not really play.
const std::set<std::string> kBadEndings = {"startup", "crash", "protocol", "illegal"};

// A scratch checkout: build/ is this build, bots/ and configs/ the sources.
class Checkout {
  public:
    Checkout() : dir_("arena_first_hour") {
        fs::create_directory_symlink(ARENA_BINARY_DIR, root() / "build");
        fs::create_directory_symlink(source("bots"), root() / "bots");
        fs::create_directory_symlink(source("configs"), root() / "configs");
    }
    [[nodiscard]] const fs::path& root() const { return dir_.path(); }
    [[nodiscard]] const TempDir& dir() const { return dir_; }

    // `arena args...`, run from the checkout's root.
    [[nodiscard]] ArenaResult arena(const std::vector<std::string>& args,
                                    ArenaOptions options = {}) const {
        options.cwd = root();
        return arena::testing::run_arena(root(), args, options);
    }

  private:
    TempDir dir_;
};

// The ending word of a game line: "... 1-0  normal  25 plies ...".
std::string ending_of(const std::string& line) {
    for (const auto& e : {"normal", "timeout", "crash", "illegal", "protocol", "startup"}) {
        if (line.find(std::string("  ") + e + "  ") != std::string::npos) return e;
    }
    return "?";
}

// stderr without the detail lines of check-bot logs (indented by five
// spaces), which quote a bot's own stderr: with `check: true`, a submission
// that crashes in a sanitizer build's strategy host leaves its report there.
std::string without_check_details(const std::string& err) {
    std::string kept;
    for (const auto& line : lines_of(err))
        if (!line.starts_with("     ")) kept += line + "\n";
    return kept;
}

// ---- every shipped config -----------------------------------------------------

std::vector<std::string> shipped_configs() {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(source("configs"))) {
        if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

// The config as shipped, made short: two games per pair, one round (a
// tune: 10 pairs), short moves, its own database in the checkout. Everything
// else (bots, commands, openings, the game) is as written.
std::string shortened(const fs::path& config) {
    YAML::Node root = YAML::LoadFile(config.string());
    if (root["time"] && root["time"]["move_ms"]) root["time"]["move_ms"] = 40;
    if (root["time"] && root["time"]["game_ms"]) {
        root["time"]["game_ms"] = 4000;
        root["time"]["inc_ms"] = 40;
    }
    if (root["tune"]) {
        root["tune"]["pairs"] = 10;
    } else {
        root["schedule"]["games_per_pair"] = 2;
        root["schedule"]["rounds"] = 1;
    }
    root["concurrency"] = 2;
    root.remove("database");
    YAML::Emitter out;
    out << root;
    return out.c_str();
}

class ShippedConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedConfig, PlaysWithEveryBotReallyPlaying) {
    const Checkout checkout;
    const std::string name = GetParam();
    const std::string config =
        checkout.dir().write(name + ".yaml", shortened(source("configs/" + name + ".yaml")));
    const bool tune = YAML::LoadFile(config)["tune"].IsDefined();
    const auto r = checkout.arena({tune ? "tune" : "run", config});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_FALSE(arena::testing::looks_like_a_crash(without_check_details(r.err))) << r.err;
    // Nothing in a shipped config is worth a warning, but for close calls:
    // at the shortened 40 ms a move, a loaded machine makes them.
    for (const auto& line : lines_of(r.err)) {
        if (line.find("of its time limit") != std::string::npos) continue;
        // check: true prints arena check-bot's summaries, which count warnings
        // ("10 ok, 0 warnings, ..."); a check's own warnings are "warn" lines.
        if (line.find(" ok, ") != std::string::npos &&
            line.find(" warnings, ") != std::string::npos)
            continue;
        EXPECT_EQ(line.find("warning"), std::string::npos) << r.err;
    }
    const fs::path db = checkout.root() / "results" / (name + ".db");
    ASSERT_TRUE(fs::exists(db)) << r.out;
    const auto total = query_one(db, "SELECT total_games FROM tournaments");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), total);
    for (const auto& row : query(db,
                                 "SELECT termination, detail FROM games WHERE termination NOT IN "
                                 "('normal', 'timeout')")) {
        ADD_FAILURE() << name << ": a game ended by " << row[0] << ": " << row[1];
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, ShippedConfig, ::testing::ValuesIn(shipped_configs()),
                         [](const auto& param_info) {
                             std::string label = param_info.param;
                             std::replace(label.begin(), label.end(), '-', '_');
                             return label;
                         });

// ---- the gauntlets that put a bot on a ladder's scale ------------------------

std::vector<std::string> gauntlet_ladder_configs() {
    std::vector<std::string> names;
    for (const auto& name : shipped_configs()) {
        if (name.starts_with("gauntlet-ladder-")) names.push_back(name);
    }
    return names;
}

class GauntletLadderConfig : public ::testing::TestWithParam<std::string> {};

// A configs/gauntlet-ladder-*.yaml played short (two games a pair, 40 ms a
// move): every opponent is printed at its anchor with no interval, and the
// challenger, who played every game, at a rating of its own with one.
TEST_P(GauntletLadderConfig, RatesTheChallengerAndKeepsEveryOpponentAtItsAnchor) {
    const Checkout checkout;
    const std::string name = GetParam();
    const YAML::Node yaml = YAML::LoadFile(source("configs/" + name + ".yaml"));
    const std::string challenger = yaml["schedule"]["challenger"].as<std::string>();
    std::vector<std::pair<std::string, std::string>> anchors;  // as written
    for (const auto& a : yaml["anchors"])
        anchors.emplace_back(a.first.as<std::string>(), a.second.as<std::string>());
    ASSERT_EQ(anchors.size() + 1, yaml["bots"].size()) << "every bot but the challenger";

    const std::string config =
        checkout.dir().write(name + ".yaml", shortened(source("configs/" + name + ".yaml")));
    const auto r = checkout.arena({"run", config});
    ASSERT_EQ(r.status, 0) << r.out << r.err;

    // The standings' rows by bot: "  3  my-bot  1343  106  60  23  0  37 ...".
    std::map<std::string, std::vector<std::string>> rows;
    std::string anchored;
    for (const auto& line : lines_of(r.out)) {
        if (line.starts_with("ratings anchored: ")) anchored = line;
        std::istringstream in(line);
        const std::vector<std::string> words{std::istream_iterator<std::string>(in), {}};
        if (words.size() >= 5 && std::all_of(words[0].begin(), words[0].end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c)) != 0;
            })) {
            rows[words[1]] = words;
        }
    }
    std::string expected = "ratings anchored:";
    for (const auto& [bot, elo] : anchors)
        expected += (expected.ends_with(":") ? " " : ", ") + bot + " " + elo;
    EXPECT_EQ(anchored, expected) << r.out;
    for (const auto& [bot, elo] : anchors) {
        ASSERT_TRUE(rows.contains(bot)) << bot << "\n" << r.out;
        EXPECT_EQ(rows[bot][2], elo) << bot << "\n" << r.out;
        EXPECT_EQ(rows[bot][3], "0") << bot << "\n" << r.out;
        EXPECT_EQ(rows[bot][4], "2") << bot << "\n" << r.out;
    }
    ASSERT_TRUE(rows.contains(challenger)) << r.out;
    EXPECT_NO_THROW(static_cast<void>(std::stoi(rows[challenger][2]))) << r.out;
    EXPECT_NE(rows[challenger][3], "0") << r.out;
    EXPECT_EQ(rows[challenger][4], std::to_string(2 * anchors.size())) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Configs, GauntletLadderConfig,
                         ::testing::ValuesIn(gauntlet_ladder_configs()),
                         [](const auto& param_info) {
                             std::string label = param_info.param;
                             std::replace(label.begin(), label.end(), '-', '_');
                             return label;
                         });

// ---- every command in the READMEs ---------------------------------------------

// The `build/bin/arena ...` commands of a Markdown file's code blocks, with
// continuation lines joined and comments dropped.
std::vector<std::string> readme_commands(const fs::path& file) {
    std::vector<std::string> commands;
    std::istringstream in(slurp(file));
    bool in_code = false;
    std::string pending;
    for (std::string line; std::getline(in, line);) {
        const auto first = line.find_first_not_of(' ');
        const std::string text = first == std::string::npos ? "" : line.substr(first);
        if (text.starts_with("```")) {
            in_code = !in_code;
            continue;
        }
        if (!in_code) continue;
        if (!pending.empty()) {
            while (pending.ends_with(' '))
                pending.pop_back();
            pending += " " + text;
        } else if (text.starts_with("build/bin/arena ")) {
            pending = text;
        } else {
            continue;
        }
        if (pending.ends_with("\\")) {
            pending.pop_back();
            continue;
        }
        if (const auto hash = pending.find(" #"); hash != std::string::npos) pending.resize(hash);
        while (pending.ends_with(' '))
            pending.pop_back();
        commands.push_back(pending);
        pending.clear();
    }
    return commands;
}

// How each README command is run here: placeholders filled in, and for the
// ones that play, the endings to check. In the order they run (the demo
// first: the others read its results).
struct DocCommand {
    std::string as_written;
    std::string as_run;  // the same, or with its placeholders filled in
};

const std::vector<DocCommand> kDocCommands = {
    {"build/bin/arena run configs/demo.yaml [--db PATH] [--concurrency N]",
     "build/bin/arena run configs/demo.yaml --concurrency 2"},
    {"build/bin/arena standings results/demo.db", ""},
    {"build/bin/arena run configs/demo.yaml --shard 1/2", ""},
    {"build/bin/arena run configs/demo.yaml --shard 2/2", ""},
    {"build/bin/arena merge results/demo-all.db results/demo.shard-1-of-2.db "
     "results/demo.shard-2-of-2.db",
     ""},
    {"build/bin/arena standings results/demo-all.db", ""},
    {"build/bin/arena slurm configs/demo.yaml --shards 4 --time 1:00:00 --dry-run", ""},
    // With a stand-in sbatch on PATH, which runs each job at once (fake_sbatch.hpp).
    {"build/bin/arena slurm configs/demo.yaml --shards 4 --time 1:00:00 --db "
     "results/demo-cluster.db",
     ""},
    {"build/bin/arena slurm configs/demo.yaml --shards 4 --time 1:00:00 --db "
     "results/demo-cluster.db --tasks 3",
     ""},
    {"build/bin/arena standings results/demo-cluster.db", ""},
    // Four workers at once (the stand-in runs a workers' array together).
    {"build/bin/arena slurm configs/sprt-gauntlet.yaml --workers 4 --time 1:00:00 --db "
     "results/sprt-cluster.db",
     ""},
    {"build/bin/arena standings results/sprt-cluster.db", ""},
    {"build/bin/arena standings results/demo.db --anchor random-a=1000 --anchor random-b=1000", ""},
    {"build/bin/arena standings results/demo.db --pairs", ""},
    {"build/bin/arena standings results/demo.db --active", ""},
    {"build/bin/arena games results/demo.db --bot random-a", ""},
    {"build/bin/arena games results/demo.db --bot random-a --termination timeout", ""},
    {"build/bin/arena show results/demo.db 12", ""},
    {"build/bin/arena log results/demo.db 12 [--bot random-a]",
     "build/bin/arena log results/demo.db 12 --bot random-a"},
    {"build/bin/arena export results/demo.db -f pgn", ""},
    {"build/bin/arena report results/demo.db -o results/demo.html", ""},
    {"build/bin/arena sprt --elo0 0 --elo1 5 --penta 50,800,3000,1200,100", ""},
    {"build/bin/arena match --game connect4 --move-ms 1000 --sprt elo0=0,elo1=10 "
     "'build/bots/c4-alphabeta --depth 4' build/bots/random",
     ""},
    // Time odds, in fewer and quicker games.
    {"build/bin/arena match --game connect4 --games 20 --move-ms 500 --move-ms1 50 "
     "'a50=build/bots/c4-alphabeta' 'a500=build/bots/c4-alphabeta'",
     "build/bin/arena match --game connect4 --games 2 --move-ms 200 --move-ms1 100 "
     "'a50=build/bots/c4-alphabeta' 'a500=build/bots/c4-alphabeta'"},
    {"build/bin/arena rate games.csv [--csv]", "build/bin/arena rate games.csv --csv"},
    {"build/bin/arena export results/demo.db -f csv | build/bin/arena rate -", ""},
    {"build/bin/arena match --game connect4 --games 10 --move-ms 3000 build/bots/random "
     "'mine=python3 bots/examples/random_bot.py --seed 5'",
     ""},
    {"build/bin/arena match --game connect4 --games 10 build/bots/random 'mine=python3 "
     "bots/examples/random_bot.py'",
     ""},
    {"build/bin/arena check-bot --game connect4 python3 bots/examples/random_bot.py", ""},
    {"build/bin/arena check-bot build/bots/tsinghua/sample.so", ""},
    {"build/bin/arena grade configs/course-grading-folder.yaml", ""},
    {"build/bin/arena grade configs/course-grading-folder.yaml --csv", ""},
    // An SPSA tune of reversi-alphabeta's weights (docs/tuning.md), its first 50 iterations.
    {"build/bin/arena tune configs/tune-reversi.yaml",
     "build/bin/arena tune configs/tune-reversi.yaml --stop-after 50"},
    {"build/bin/arena tune configs/tune-reversi.yaml --json",
     "build/bin/arena tune configs/tune-reversi.yaml --json --stop-after 10"},
    {"build/bin/arena match --game reversi --move-ms 1000 --depth1 3 --depth2 3 --sprt "
     "elo0=0,elo1=20 'tuned=build/bots/reversi-alphabeta --corner 7 --mobility 10 --frontier 12 "
     "--steady 12' 'start=build/bots/reversi-alphabeta --corner 16 --mobility 2 --frontier 8'",
     ""},
    {"build/bin/arena match --game reversi --move-ms 1000 --depth1 3 --depth2 3 --sprt "
     "elo0=-20,elo1=0 'tuned=build/bots/reversi-alphabeta --corner 7 --mobility 10 --frontier "
     "12 --steady 12' 'default=build/bots/reversi-alphabeta'",
     ""},
    {"build/bin/arena match --game reversi --games 4000 --move-ms 1000 --depth1 3 --depth2 3 "
     "'tuned=build/bots/reversi-alphabeta --corner 7 --mobility 10 --frontier 12 --steady 12' "
     "'default=build/bots/reversi-alphabeta'",
     "build/bin/arena match --game reversi --games 200 --move-ms 1000 --depth1 3 --depth2 3 "
     "'tuned=build/bots/reversi-alphabeta --corner 7 --mobility 10 --frontier 12 --steady 12' "
     "'default=build/bots/reversi-alphabeta'"},
    // A league's first participant (README, "A league on the web").
    {"build/bin/arena league user add configs/league.yaml alice", ""},
    // gomoku-pro's tuning round (bots/README.md), one shard of its 900 games.
    {"build/bin/arena run configs/tune-gomoku-pro.yaml",
     "build/bin/arena run configs/tune-gomoku-pro.yaml --shard 1/300"},
    {"build/bin/arena export results/tune-gomoku-pro.db --format pgn -o "
     "results/tune-gomoku-pro.pgn",
     "build/bin/arena export results/tune-gomoku-pro.shard-1-of-300.db --format pgn -o "
     "results/tune-gomoku-pro.pgn"},
};

// Commands the README shows that run until a person stops them (a server, a
// game typed in a terminal), and the tests that run them: in a pseudo-terminal,
// or against the live server over sockets and in headless Chromium.
const std::vector<std::pair<std::string, std::string>> kInteractiveDocCommands = {
    {"build/bin/arena serve results/demo.db [more.db ...] [--port 8080] [--play-bot "
     "'alphabeta=build/bots/c4-alphabeta']",
     "tests/serve_test.cpp, tests/browser/serve_test.js"},
    {"build/bin/arena serve --league configs/league.yaml",
     "tests/league_cli_test.cpp, tests/browser/league_test.js"},
    {"build/bin/arena play --game connect4 --move-ms 500 build/bots/c4-alphabeta",
     "tests/play_command_test.cpp"},
    {"build/bin/arena play --game gomoku --size 9 --color second --db results/me.db "
     "'random=build/bots/random'",
     "tests/play_command_test.cpp"},
};

TEST(ReadmeCommands, EveryOneIsRunHereAndPlaysWithoutFaults) {
    // Every command the READMEs show is one of the commands run below, or an
    // interactive one that its own tests run.
    std::set<std::string> known;
    for (const auto& c : kDocCommands)
        known.insert(c.as_written);
    for (const auto& [command, tests] : kInteractiveDocCommands) {
        known.insert(command);
        const std::string first_test = tests.substr(0, tests.find(','));
        EXPECT_TRUE(fs::exists(source(first_test))) << command << ": no " << first_test;
    }
    for (const auto& file : {"README.md", "bots/README.md", "docs/tuning.md"}) {
        for (const auto& command : readme_commands(source(file))) {
            EXPECT_TRUE(known.contains(command))
                << file << " shows a command this test does not run; add it to kDocCommands:\n"
                << command;
        }
    }

    const Checkout checkout;
    // `arena slurm` submits with a stand-in sbatch (fake_sbatch.hpp), first on PATH.
    arena::testing::install_fake_sbatch(checkout.root() / "fake-slurm");
    const std::string path_before = getenv("PATH") == nullptr ? "" : getenv("PATH");
    setenv("PATH", ((checkout.root() / "fake-slurm").string() + ":" + path_before).c_str(), 1);
    // games.csv for `arena rate`: white,black,result lines from anywhere.
    (void)checkout.dir().write("games.csv", "white,black,result\na,b,1-0\nb,a,1/2-1/2\na,b,0-1\n");
    for (const auto& c : kDocCommands) {
        const std::string line = c.as_run.empty() ? c.as_written : c.as_run;
        // `a | b`: b reads what a printed.
        std::string piped;
        ArenaResult r;
        std::size_t start = 0;
        while (start < line.size()) {
            const std::size_t bar = std::min(line.find(" | ", start), line.size());
            auto words = arena::session::split_command(line.substr(start, bar - start));
            start = bar + 3;
            EXPECT_EQ(words.front(), "build/bin/arena") << line;
            words.erase(words.begin());
            ArenaOptions options;
            options.stdin_text = piped;
            r = checkout.arena(words, options);
            EXPECT_EQ(r.status, 0) << line << "\n" << r.out << r.err;
            EXPECT_FALSE(arena::testing::looks_like_a_crash(without_check_details(r.err)))
                << line << "\n"
                << r.err;
            piped = r.out;
        }
        for (const auto& game : game_lines(r.out)) {
            EXPECT_FALSE(kBadEndings.contains(ending_of(game))) << line << "\n" << game;
        }
        if (line.starts_with("build/bin/arena run") || line.starts_with("build/bin/arena match")) {
            EXPECT_FALSE(game_lines(r.out).empty()) << line << "\n" << r.out;
        }
    }
    setenv("PATH", path_before.c_str(), 1);
    // The shards submitted to "Slurm" were merged, and played by the rules.
    // The four workers decided every test, and the merge job said so.
    EXPECT_EQ(
        query_one(checkout.root() / "results/sprt-cluster.db", "SELECT status FROM tournaments"),
        "finished");
    const auto workers_merge =
        slurp((checkout.root() / "results/sprt-gauntlet.slurm/logs/merge.out").string());
    EXPECT_NE(workers_merge.find(", complete"), std::string::npos) << workers_merge;
    EXPECT_NE(workers_merge.find("SPRT: H0 accepted"), std::string::npos) << workers_merge;
    EXPECT_NE(workers_merge.find("SPRT: H1 accepted"), std::string::npos) << workers_merge;
    const fs::path cluster_db = checkout.root() / "results/demo-cluster.db";
    EXPECT_EQ(query_one(cluster_db, "SELECT count(*) FROM games WHERE termination = 'normal'"),
              "30");
    EXPECT_NE(slurp((checkout.root() / "fake-slurm/calls.txt").string()).find("--array=3 "),
              std::string::npos);
    // The tuning round's games, exported, are what gomoku-pro-tune fits on.
    const auto tune = arena::testing::run_shell(
        "cd '" + checkout.root().string() +
        "' && build/bots/gomoku-pro-tune results/tune-gomoku-pro.pgn --holdout 0 --cpp "
        "results/pro_weights.cpp");
    EXPECT_EQ(tune.status, 0) << tune.out;
    EXPECT_TRUE(fs::exists(checkout.root() / "results/pro_weights.cpp")) << tune.out;
    // The demo's Python bot played all of its games by the rules.
    const fs::path db = checkout.root() / "results/demo.db";
    EXPECT_EQ(query_one(db,
                        "SELECT count(*) FROM games g JOIN bots b ON b.id IN (g.first_bot, "
                        "g.second_bot) WHERE b.name = 'python-example' AND g.termination = "
                        "'normal'"),
              "20");
}

// bots/README.md's step 3: the example bot by hand, through a pipe.
TEST(ReadmeCommands, TheExampleBotAnswersByHand) {
    const std::string command =
        "cd '" + source("") +
        "' && printf 'arena 1\\ngame connect4 player=1 rows=6 cols=7 connect=4 "
        "move_ms=100\\nposition 4 4\\ngo move_ms=100\\nquit\\n' | bots/examples/random_bot.py "
        "--seed 1";
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[256];
    while (std::fgets(buf, sizeof buf, pipe) != nullptr)
        out += buf;
    EXPECT_EQ(::pclose(pipe), 0);
    EXPECT_NE(out.find("ready\n"), std::string::npos) << out;
    EXPECT_NE(out.find("\nmove "), std::string::npos) << out;
}

// ---- a bot in its own directory -------------------------------------------------

// A Python bot that reads ./weights.txt (it must start in its own folder)
// and plays the first legal column of Connect-4, naming itself after the
// weights it read.
constexpr std::string_view kWeightsBot = R"(import sys
weights = open("weights.txt").read().strip()
rows = cols = 0
heights = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "arena":
        print("name weights-" + weights, flush=True)
        print("ready", flush=True)
    elif words[0] == "game":
        keys = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        rows, cols = int(keys["rows"]), int(keys["cols"])
    elif words[0] == "position":
        heights = [0] * cols
        for m in words[1:]:
            heights[int(m) - 1] += 1
    elif words[0] == "go":
        column = next(c for c in range(cols) if heights[c] < rows)
        print("info weights " + weights, flush=True)
        print("move %d" % (column + 1), flush=True)
    elif words[0] == "quit":
        break
)";

TEST(BotDirectory, ABotStartedInItsFolderReadsItsOwnFiles) {
    const Checkout checkout;
    const fs::path folder = checkout.root() / "x";
    fs::create_directory(folder);
    std::ofstream(folder / "bot.py") << kWeightsBot;
    std::ofstream(folder / "weights.txt") << "w7\n";
    const std::string config = checkout.dir().write(
        "dir.yaml",
        "name: dir\ngame: { name: connect4 }\ntime: { move_ms: 2000 }\n"
        "schedule: { type: round-robin, games_per_pair: 2 }\nopenings: { random_plies: 2 }\n"
        "bots:\n"
        "  - { name: mine, command: python3 bot.py, dir: " +
            folder.string() +
            " }\n"
            "  - { name: random, command: build/bots/random --game connect4 }\n");
    const auto r = checkout.arena({"run", config});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const fs::path db = checkout.root() / "results/dir.db";
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games WHERE termination = 'normal'"), "2");
    // It read its weights: its info lines say so.
    EXPECT_NE(query_one(db, "SELECT count(*) FROM moves WHERE info = 'weights w7'"), "0");
    // The same bot on the command line, with --dir1.
    const auto m =
        checkout.arena({"match", "--game", "connect4", "--games", "2", "--move-ms", "2000",
                        "--dir1", folder.string(), "mine=python3 bot.py", "build/bots/random"});
    ASSERT_EQ(m.status, 0) << m.out << m.err;
    for (const auto& line : game_lines(m.out))
        EXPECT_EQ(ending_of(line), "normal") << line;
    // Started from elsewhere without its dir, it cannot find its weights,
    // and the game line says why.
    const auto lost =
        checkout.arena({"match", "--game", "connect4", "--games", "2", "--dir1",
                        checkout.root().string(), "mine=python3 x/bot.py", "build/bots/random"});
    EXPECT_NE(lost.out.find("FileNotFoundError"), std::string::npos) << lost.out << lost.err;
}

// A relative path that names no file, in a bot's command, is worth a warning.
TEST(BotDirectory, AMissingScriptIsWarnedAboutBeforeTheRun) {
    const Checkout checkout;
    const std::string config =
        checkout.dir().write("missing.yaml",
                             "name: missing\ngame: { name: connect4 }\n"
                             "schedule: { type: round-robin, games_per_pair: 2 }\n"
                             "bots:\n"
                             "  - { name: mine, command: python3 bots/no_such_bot.py }\n"
                             "  - { name: random, command: build/bots/random --game connect4 }\n");
    const auto r = checkout.arena({"run", config});
    EXPECT_NE(r.err.find(config + ":5:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(": warning: bot 'mine': argument 'bots/no_such_bot.py' names no file in "
                         "the current directory, where the bot starts"),
              std::string::npos)
        << r.err;
}

// ---- failures explain themselves ------------------------------------------------

constexpr std::string_view kTracebackBot = R"(import sys
print("ready", flush=True) if False else None
def load():
    raise ValueError("weights file is corrupt")
load()
)";

TEST(Failures, ATracebacksLastLineIsInRunMatchShowAndLog) {
    const Checkout checkout;
    (void)checkout.dir().write("tb.py", std::string(kTracebackBot));
    const std::string last_line = "ValueError: weights file is corrupt";

    const auto m = checkout.arena({"match", "--game", "connect4", "--games", "2", "--db", "m.db",
                                   "tb=python3 tb.py", "build/bots/random"});
    const auto lines = game_lines(m.out);
    ASSERT_FALSE(lines.empty()) << m.out << m.err;
    EXPECT_NE(lines.front().find("tb's stderr: "), std::string::npos) << lines.front();
    EXPECT_NE(lines.front().find(last_line), std::string::npos) << lines.front();

    const auto show = checkout.arena({"show", "m.db", "1"});
    EXPECT_EQ(show.status, 0) << show.err;
    EXPECT_NE(show.out.find(last_line), std::string::npos) << show.out;
    const auto log = checkout.arena({"log", "m.db", "1", "--bot", "tb"});
    EXPECT_EQ(log.status, 0) << log.err;
    EXPECT_NE(log.out.find("Traceback (most recent call last)"), std::string::npos) << log.out;
    EXPECT_NE(log.out.find(last_line), std::string::npos) << log.out;

    const std::string config = checkout.dir().write(
        "tb.yaml",
        "name: tb\ngame: { name: connect4 }\n"
        "schedule: { type: round-robin, games_per_pair: 2 }\nopenings: { random_plies: 2 }\n"
        "concurrency: 1\nbots:\n"
        "  - { name: tb, command: python3 tb.py }\n"
        "  - { name: random, command: build/bots/random --game connect4 }\n");
    // Two failed starts are not yet a bot given up: both games are stored as
    // start-up losses, and each line says why.
    const auto run = checkout.arena({"run", config});
    EXPECT_EQ(run.status, 0) << run.out << run.err;
    const auto run_lines = game_lines(run.out);
    ASSERT_EQ(run_lines.size(), 2u) << run.out;
    for (const auto& line : run_lines) {
        EXPECT_EQ(ending_of(line), "startup") << line;
        EXPECT_NE(line.find("tb's stderr: "), std::string::npos) << line;
        EXPECT_NE(line.find(last_line), std::string::npos) << line;
    }
}

// A bot whose command fails at start-up, in a 40-game round-robin: started
// 3 times, not 40; the run names it and exits non-zero; once fixed, the same
// command plays exactly the missing games.
TEST(Failures, ABrokenBotIsStartedThreeTimesAndTheFixedRunCompletes) {
    const Checkout checkout;
    const fs::path starts = checkout.root() / "starts.log";
    const std::string broken = checkout.dir().write(
        "broken.py", "open('" + starts.string() +
                         "', 'a').write('start\\n')\nraise SystemExit('no model file')\n");
    std::string config_text =
        "name: rr\ngame: { name: connect4 }\ntime: { move_ms: 2000 }\n"
        "schedule: { type: round-robin, games_per_pair: 4 }\nopenings: { random_plies: 2 }\n"
        "concurrency: 2\nbots:\n";
    for (int i = 1; i <= 4; ++i) {
        config_text += "  - { name: r" + std::to_string(i) +
                       ", command: build/bots/random --game connect4 --seed " + std::to_string(i) +
                       " }\n";
    }
    config_text += "  - { name: broken, command: python3 broken.py }\n";
    const std::string config = checkout.dir().write("rr.yaml", config_text);

    const auto r = checkout.arena({"run", config});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(slurp(starts), "start\nstart\nstart\n");
    EXPECT_NE(r.err.find("arena run: bot 'broken' failed to start 3 times in a row (exited "
                         "during start-up: exit 1; its stderr: no model file), so its 16 "
                         "remaining games were not played: fix it and run the same command "
                         "again"),
              std::string::npos)
        << r.err;
    const fs::path db = checkout.root() / "results/rr.db";
    // The other bots' 24 games, and no invented result for the broken one.
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "24");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games WHERE termination != 'normal'"), "0");

    std::ofstream(broken) << slurp(source("bots/examples/random_bot.py"));
    const auto fixed = checkout.arena({"run", config});
    EXPECT_EQ(fixed.status, 0) << fixed.out << fixed.err;
    EXPECT_EQ(game_lines(fixed.out).size(), 16u) << fixed.out;
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "40");
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games WHERE termination != 'normal'"), "0");
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
}

// A 2000-game match whose bot cannot start stops after its third failed
// start instead of starting it 2000 times. As in `arena run`, the failed
// starts of a bot given up are not results: no game line, nothing stored.
TEST(Failures, AMatchStopsAfterThreeFailedStarts) {
    const Checkout checkout;
    const auto r = checkout.arena({"match", "--game", "connect4", "--games", "2000", "--db", "m.db",
                                   "dead=python3 -c 'import sys; sys.exit(\"cannot load\")'",
                                   "build/bots/random"});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(game_lines(r.out).size(), 0u) << r.out;
    EXPECT_NE(r.err.find("arena match: bot 'dead' failed to start 3 times in a row (exited during "
                         "start-up: exit 1; its stderr: cannot load), so the match stopped after 0 "
                         "of 2000 games (failed starts are not results): fix it and run it again"),
              std::string::npos)
        << r.err;
    const fs::path db = checkout.root() / "m.db";
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "0");
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "interrupted");
}

// ---- arena match saves and flushes ------------------------------------------------

TEST(Match, StoresIntoADatabaseThatTheOtherCommandsRead) {
    const Checkout checkout;
    const auto m = checkout.arena({"match", "--game", "connect4", "--games", "4", "--db", "m.db",
                                   "build/bots/random", "other=build/bots/random --seed 9"});
    ASSERT_EQ(m.status, 0) << m.out << m.err;
    EXPECT_NE(m.err.find("stored as tournament 'random-vs-other' in m.db"), std::string::npos)
        << m.err;
    const fs::path db = checkout.root() / "m.db";
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "4");
    EXPECT_EQ(query_one(db, "SELECT status FROM tournaments"), "finished");
    const auto show = checkout.arena({"show", "m.db", "1"});
    EXPECT_EQ(show.status, 0) << show.err;
    EXPECT_NE(show.out.find("random"), std::string::npos) << show.out;
    EXPECT_EQ(checkout.arena({"standings", "m.db"}).status, 0);
    EXPECT_EQ(checkout.arena({"export", "m.db", "-f", "pgn"}).status, 0);
    // A second match goes into the same file under a name of its own.
    const auto again =
        checkout.arena({"match", "--game", "connect4", "--games", "2", "--db", "m.db",
                        "build/bots/random", "other=build/bots/random --seed 9"});
    EXPECT_NE(again.err.find("stored as tournament 'random-vs-other-2'"), std::string::npos)
        << again.err;
    EXPECT_EQ(query_one(db, "SELECT count(*) FROM games"), "6");
}

// With --transcript, every line both ways is kept with its time, and
// `arena log --transcript` shows it; without, it says how to keep one.
TEST(Match, KeepsATranscriptOfEveryLine) {
    const Checkout checkout;
    const auto m =
        checkout.arena({"match", "--game", "connect4", "--games", "2", "--db", "t.db",
                        "--transcript", "build/bots/random", "other=build/bots/random --seed 9"});
    ASSERT_EQ(m.status, 0) << m.out << m.err;
    const auto log = checkout.arena({"log", "t.db", "2", "--bot", "other", "--transcript"});
    ASSERT_EQ(log.status, 0) << log.err;
    // The first game of the pair started the processes; the second reuses them.
    for (const std::string line : {"--- other (first): transcript ---", " -> game connect4 ",
                                   " -> go ", " <- move ", " -> end "}) {
        EXPECT_NE(log.out.find(line), std::string::npos) << line << "\n" << log.out;
    }
    const auto first = checkout.arena({"log", "t.db", "1", "--transcript"});
    EXPECT_NE(first.out.find(" -> arena 1\n"), std::string::npos) << first.out;
    EXPECT_NE(first.out.find(" <- ready\n"), std::string::npos) << first.out;
    // Times are microseconds since the game started, in order.
    long previous = -1;
    std::istringstream lines(first.out);
    int timed = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("--- ")) previous = -1;  // the other bot's transcript
        if (line.find(" -> ") == std::string::npos && line.find(" <- ") == std::string::npos)
            continue;
        const long us = std::stol(line);
        EXPECT_GE(us, previous) << line;
        previous = us;
        ++timed;
    }
    EXPECT_GT(timed, 10);
    EXPECT_EQ(query_one(checkout.root() / "t.db", "SELECT count(*) FROM transcripts"), "4");

    const auto none = checkout.arena({"match", "--game", "connect4", "--games", "2", "--db", "n.db",
                                      "build/bots/random", "build/bots/random"});
    ASSERT_EQ(none.status, 0) << none.err;
    const auto missing = checkout.arena({"log", "n.db", "1", "--transcript"});
    EXPECT_NE(missing.out.find("(no transcript kept: run with transcript: true or --transcript)"),
              std::string::npos)
        << missing.out;
}

// Interrupted with SIGINT while its output goes to a file, `arena match`
// leaves the line of every finished game and the summary, and exits 130.
TEST(Match, InterruptedItKeepsEveryFinishedGameAndTheSummary) {
    const Checkout checkout;
    ArenaOptions options;
    options.cwd = checkout.root();
    ArenaProcess p(checkout.root(),
                   {"match", "--game", "connect4", "--games", "2000", "--move-ms", "1000",
                    "slow=build/bots/misbehave --mode sleep --sleep-ms 30", "build/bots/random"},
                   options);
    // Wait for a few finished games, then interrupt.
    const fs::path out = p.out_path();
    for (int i = 0; i < 600; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (game_lines(slurp(out)).size() >= 3) break;
    }
    ::kill(p.pid(), SIGINT);
    const auto r = p.wait();
    EXPECT_EQ(r.status, 130) << r.out << r.err;
    const auto lines = game_lines(r.out);
    ASSERT_GE(lines.size(), 3u) << r.out;
    // The summary counts exactly the games whose lines were printed.
    const std::string games = std::to_string(lines.size());
    const std::string row = "slow  " + std::string(7 - games.size(), ' ') + games;
    EXPECT_NE(r.out.find(row), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("interrupted after " + std::to_string(lines.size()) + " of 2000 games"),
              std::string::npos)
        << r.err;
}

// ---- the live line ------------------------------------------------------------------

// On a terminal narrower than the live line, each update is cut to fit, so
// it overwrites the last one instead of leaving a new line behind.
TEST(LiveLine, FitsTheTerminalsWidth) {
    const Checkout checkout;
    std::string bots;
    for (const char* name : {"a-bot-with-a-long-name", "another-bot-with-a-long-name"})
        bots += "  - { name: " + std::string(name) + ", command: build/bots/random }\n";
    const std::string config =
        checkout.dir().write("live.yaml",
                             "name: live\ngame: { name: connect4 }\n"
                             "schedule: { type: round-robin, games_per_pair: 40 }\n"
                             "openings: { random_plies: 2 }\nbots:\n" +
                                 bots);
    const std::string out = run_in_terminal(
        "cd '" + checkout.root().string() + "' && timeout 120 build/bin/arena run " + config, 40);
    int updates = 0;
    std::size_t start = 0;
    while (start < out.size()) {
        const std::size_t end = std::min(out.find_first_of("\r\n", start), out.size());
        std::string segment = out.substr(start, end - start);
        start = end + 1;
        if (segment.find(" games") == std::string::npos ||
            segment.find("/40 games") == std::string::npos)
            continue;
        if (const auto erase = segment.find("\x1b[K"); erase != std::string::npos)
            segment.resize(erase);
        ++updates;
        EXPECT_LE(segment.size(), 39u) << segment;
    }
    EXPECT_GT(updates, 0) << out;
}

// ---- round trips -----------------------------------------------------------------

// An interpreted bot's identity covers its script: editing the script is
// reported when the tournament resumes.
TEST(Identity, AnEditedScriptIsReportedOnResume) {
    const Checkout checkout;
    const std::string script =
        checkout.dir().write("mine.py", slurp(source("bots/examples/random_bot.py")));
    const std::string config = checkout.dir().write(
        "id.yaml",
        "name: id\ngame: { name: connect4 }\nschedule: { type: round-robin, games_per_pair: 2 }\n"
        "openings: { random_plies: 2 }\nbots:\n"
        "  - { name: mine, command: python3 mine.py }\n"
        "  - { name: random, command: build/bots/random --game connect4 }\n");
    ASSERT_EQ(checkout.arena({"run", config}).status, 0);
    const auto unchanged = checkout.arena({"run", config});
    EXPECT_EQ(unchanged.err.find("has changed"), std::string::npos) << unchanged.err;
    std::ofstream(script, std::ios::app) << "# tuned\n";
    const auto edited = checkout.arena({"run", config});
    EXPECT_NE(edited.err.find("warning: bot 'mine': its program (executable, or the files its "
                              "arguments name) has changed since the tournament started"),
              std::string::npos)
        << edited.err;
}

}  // namespace
