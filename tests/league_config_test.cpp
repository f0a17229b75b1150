// A league's config (docs/config.md, "league"; docs/league.md): the keys of
// `league:` and every mistake in them named by file, line and column; what a
// league changes (bots_dir needed, fewer than two bots allowed, the bots of
// bots_dir always sandboxed, nothing of it in the fingerprint); and one
// submission folder read alone, as the league checks an upload, with what
// its sandbox lets it read.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "arena/session/sandbox.hpp"
#include "arena/session/session.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/config_league.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "temp_dir.hpp"

namespace arena::tournament {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using std::chrono::sys_days;
using std::chrono::system_clock;

constexpr const char* kFile = "l.yaml";

// Whether bubblewrap can make a sandbox here, asked once.
bool has_bwrap() {
    static const bool available = session::sandbox_available();
    return available;
}

class LeagueConfig : public ::testing::Test {
  protected:
    void SetUp() override { fs::create_directories(subs()); }

    fs::path subs() const { return dir_.path() / "subs"; }

    // A folder of subs/ with a bot.yaml.
    fs::path participant(const std::string& folder,
                         const std::string& manifest = "command: sh\n") const {
        fs::create_directories(subs() / folder);
        std::ofstream(subs() / folder / "bot.yaml") << manifest;
        return subs() / folder;
    }

    // A config over subs/: lines 1 to 3 are its name, game and bots_dir,
    // `rest` starts at line 4.
    std::string config(const std::string& rest) const {
        return "name: l\ngame: { name: connect4 }\nbots_dir: " + subs().string() + "\n" + rest;
    }

    static std::string error_of(const std::string& yaml) {
        try {
            static_cast<void>(parse_config(yaml, kFile));
        } catch (const ConfigError& e) {
            return e.what();
        }
        return "<no error>";
    }

    // The config written as a file, for submission_config.
    fs::path file(const std::string& yaml) const { return dir_.write("l.yaml", yaml); }

    testing::TempDir dir_{"league_config_test"};
};

const std::string kHouseBots = "bots:\n  - { name: house, command: /bin/sh }\n";

// --- the keys -----------------------------------------------------------------

TEST_F(LeagueConfig, EveryKeyParsesToWhatItSays) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    const Config c = parse_config(config("league:\n  closes: 2026-12-20T23:59:00Z\n"
                                         "  uploads_per_hour: 5\n  max_upload_mb: 32\n"
                                         "  checks_at_once: 4\n"),
                                  kFile);
    ASSERT_TRUE(c.league);
    ASSERT_TRUE(c.league->closes);
    EXPECT_EQ(*c.league->closes, sys_days{2026y / 12 / 20} + 23h + 59min);
    EXPECT_EQ(c.league->uploads_per_hour, 5);
    EXPECT_EQ(c.league->max_upload_mb, 32);
    EXPECT_EQ(c.league->checks_at_once, 4);
    EXPECT_TRUE(c.warnings.empty());
}

TEST_F(LeagueConfig, AnEmptySectionTakesTheDefaults) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    for (const std::string section : {"league: {}\n", "league:\n"}) {
        SCOPED_TRACE(section);
        const Config c = parse_config(config(section), kFile);
        ASSERT_TRUE(c.league);
        EXPECT_FALSE(c.league->closes);  // never closes
        EXPECT_EQ(c.league->uploads_per_hour, 20);
        EXPECT_EQ(c.league->max_upload_mb, 16);
        EXPECT_EQ(c.league->checks_at_once, 2);
    }
    // Without the section, no league.
    EXPECT_FALSE(
        parse_config(config(kHouseBots + "  - { name: h2, command: /bin/sh }\n"), kFile).league);
}

TEST(ZonedTime, TheZoneAndTheFractionCount) {
    const auto utc = sys_days{2026y / 12 / 20} + 23h + 59min;
    EXPECT_EQ(parse_zoned_time("2026-12-20T23:59:00Z"), utc);
    EXPECT_EQ(parse_zoned_time("2026-12-20t23:59:00z"), utc);
    EXPECT_EQ(parse_zoned_time("2026-12-21T00:59:00+01:00"), utc);
    EXPECT_EQ(parse_zoned_time("2026-12-21T00:59:00+0100"), utc);
    EXPECT_EQ(parse_zoned_time("2026-12-21T00:59:00+01"), utc);
    EXPECT_EQ(parse_zoned_time("2026-12-20T18:29:00-05:30"), utc);
    EXPECT_EQ(parse_zoned_time("2026-12-20T23:59:00.25Z"), utc + 250ms);
    EXPECT_EQ(parse_zoned_time("2026-12-20T23:59:00,000000001Z"), utc + 1ns);
    EXPECT_EQ(parse_zoned_time("2028-02-29T00:00:00Z"),
              system_clock::time_point{sys_days{2028y / 2 / 29}});  // a leap day
}

TEST(ZonedTime, AnythingElseIsNone) {
    for (const char* text : {"2026-12-20T23:59:00",              // no zone
                             "2026-12-20 23:59:00Z",             // a space for the T
                             "2026-12-20T23:59Z",                // no seconds
                             "2026-12-20",                       // a day
                             "2026-13-01T00:00:00Z",             // month 13
                             "2026-02-29T00:00:00Z",             // not a leap year
                             "2026-12-20T24:00:00Z",             // hour 24
                             "2026-12-20T23:60:00Z",             // minute 60
                             "2026-12-20T23:59:60Z",             // a leap second
                             "2026-12-20T23:59:00+1:00",         // a one-digit offset
                             "2026-12-20T23:59:00+24:00",        // an offset of a day
                             "2026-12-20T23:59:00+01:",          // half an offset
                             "2026-12-20T23:59:00.Z",            // a point without digits
                             "2026-12-20T23:59:00.1234567890Z",  // beyond nanoseconds
                             "9999-12-31T23:59:59Z",             // beyond the clock
                             "1066-10-14T09:00:00Z",             // before it
                             "2026-12-20T23:59:00Z trailing", "", "tomorrow"}) {
        EXPECT_FALSE(parse_zoned_time(text)) << text;
    }
}

// --- the mistakes ---------------------------------------------------------------

TEST_F(LeagueConfig, EachMistakeIsNamedWithItsLineAndColumn) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    const std::string form =
        "an ISO 8601 time with its zone, such as 2026-12-20T23:59:00Z or 2026-12-20T23:59:00+01:00";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"league:\n  upload_per_hour: 3\n",
         "l.yaml:5:3: unknown key 'upload_per_hour' in 'league' (did you mean "
         "'uploads_per_hour'?)"},
        {"league: { closes: 2026-12-20T23:59:00 }\n",
         "l.yaml:4:19: closes '2026-12-20T23:59:00' has no zone, so its instant would depend on "
         "where it is read: write it in UTC (2026-12-20T23:59:00Z) or with its offset "
         "(2026-12-20T23:59:00+01:00)"},
        {"league: { closes: 2026-02-30T10:00:00Z }\n",
         "l.yaml:4:19: closes '2026-02-30T10:00:00Z' is not " + form},
        {"league: { closes: next friday }\n", "l.yaml:4:19: closes 'next friday' is not " + form},
        {"league: { closes: [1] }\n", "l.yaml:4:19: expected a string for 'closes', got a list"},
        {"league: { uploads_per_hour: 0 }\n",
         "l.yaml:4:29: uploads_per_hour must be positive, got 0"},
        {"league: { uploads_per_hour: 10001 }\n",
         "l.yaml:4:29: uploads_per_hour must be at most 10000, got 10001"},
        {"league: { max_upload_mb: 1025 }\n",
         "l.yaml:4:26: max_upload_mb must be at most 1024, got 1025"},
        {"league: { max_upload_mb: -1 }\n", "l.yaml:4:26: max_upload_mb must be positive, got -1"},
        {"league: { checks_at_once: 65 }\n",
         "l.yaml:4:27: checks_at_once must be at most 64, got 65"},
        {"league: { checks_at_once: two }\n",
         "l.yaml:4:27: expected an integer for 'checks_at_once', got 'two'"},
        {"league: 3\n", "l.yaml:4:9: expected a map for 'league', got '3'"},
        {"league: { checks_at_once: 1, checks_at_once: 2 }\n",
         "l.yaml:4:30: duplicate key 'checks_at_once' in 'league' (first at line 4)"},
        {"leage: {}\n", "l.yaml:4:1: unknown key 'leage' (did you mean 'league'?)"},
    };
    for (const auto& [rest, message] : cases) {
        EXPECT_EQ(error_of(config(rest)), message) << rest;
    }
}

TEST_F(LeagueConfig, ALeagueNeedsBotsDir) {
    EXPECT_EQ(error_of("name: l\ngame: { name: connect4 }\nleague: {}\n" + kHouseBots),
              "l.yaml:3:1: 'league' needs 'bots_dir', the folder the participants' uploads go "
              "to (one folder each, named after them)");
    // Even without `bots:`, the league's problem is the one named.
    EXPECT_EQ(error_of("name: l\ngame: { name: connect4 }\nleague: {}\n"),
              "l.yaml:3:1: 'league' needs 'bots_dir', the folder the participants' uploads go "
              "to (one folder each, named after them)");
}

TEST_F(LeagueConfig, ATuningConfigIsNoLeague) {
    const std::string tune =
        "name: t\ngame: { name: connect4 }\nleague: {}\n"
        "tune:\n  command: /bin/echo {x}\n  params:\n"
        "    - { name: x, start: 5, min: 0, max: 10, c_end: 1, r_end: 0.1 }\n"
        "  pairs: 2\n";
    EXPECT_EQ(error_of(tune).rfind("l.yaml:3:1: 'league' is not for a tuning config", 0), 0u)
        << error_of(tune);
}

// --- what a league changes -------------------------------------------------------

TEST_F(LeagueConfig, ALeagueMayHaveFewerThanTwoBots) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    // None yet: nobody has uploaded.
    Config c = parse_config(config("league: {}\n"), kFile);
    EXPECT_TRUE(c.bots.empty());
    EXPECT_EQ(too_few_bots(c),
              "league 'l' has 0 bots; at least 2 are needed to play; uploads add more");
    // One.
    (void)participant("alice");
    c = parse_config(config("league: {}\n"), kFile);
    ASSERT_EQ(c.bots.size(), 1u);
    EXPECT_EQ(too_few_bots(c),
              "league 'l' has 1 bot; at least 2 are needed to play; uploads add more");
    // Two: enough.
    c = parse_config(config("league: {}\n" + kHouseBots), kFile);
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(too_few_bots(c), "");
}

TEST_F(LeagueConfig, WithoutALeagueTwoBotsAreStillNeeded) {
    (void)participant("alice");
    EXPECT_EQ(error_of(config("")),
              "l.yaml:3:11: at least 2 bots are needed, got 1 (with those of 'bots_dir')");
}

TEST_F(LeagueConfig, TheBotsOfBotsDirRunSandboxedWhateverBotDefaultsSays) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    (void)participant("alice");
    // Without a league, bot_defaults holds for every bot.
    Config plain = parse_config(config(kHouseBots), kFile);
    ASSERT_EQ(plain.bots.size(), 2u);
    EXPECT_FALSE(plain.bots[0].isolation.sandbox);
    EXPECT_FALSE(plain.bots[1].isolation.sandbox);
    // Under a league the upload is sandboxed, the house bot keeps its word;
    // no warning, as bot_defaults says nothing of the sandbox.
    Config c = parse_config(config("league: {}\n" + kHouseBots), kFile);
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(c.bots[0].name, "house");
    EXPECT_FALSE(c.bots[0].isolation.sandbox);
    EXPECT_EQ(c.bots[1].name, "alice");
    EXPECT_TRUE(c.bots[1].isolation.sandbox);
    EXPECT_TRUE(c.warnings.empty());
    // bot_defaults saying `sandbox: false` gets a warning, and holds for the
    // house bot only.
    c = parse_config(
        config("bot_defaults: { sandbox: false, memory_mb: 64 }\nleague: {}\n" + kHouseBots),
        kFile);
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_FALSE(c.bots[0].isolation.sandbox);
    EXPECT_TRUE(c.bots[1].isolation.sandbox);
    EXPECT_EQ(c.bots[1].isolation.limits.memory_mb, 64u);  // the other defaults hold
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_EQ(c.warnings[0],
              "l.yaml:4:26: warning: bot_defaults says 'sandbox: false', but under 'league' the "
              "bots of bots_dir (the participants' uploads) always run sandboxed; it holds for "
              "the bots of 'bots' only");
    // And `sandbox: true` there needs no warning.
    c = parse_config(config("bot_defaults: { sandbox: true }\nleague: {}\n"), kFile);
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_TRUE(c.bots.at(0).isolation.sandbox);
}

// PATH without bubblewrap for one scope.
class NoBwrapInPath {
  public:
    explicit NoBwrapInPath(const fs::path& empty) : old_(::getenv("PATH")) {
        ::setenv("PATH", empty.c_str(), 1);
    }
    ~NoBwrapInPath() { ::setenv("PATH", old_.c_str(), 1); }
    NoBwrapInPath(const NoBwrapInPath&) = delete;
    NoBwrapInPath& operator=(const NoBwrapInPath&) = delete;

  private:
    std::string old_;
};

TEST_F(LeagueConfig, WithoutBubblewrapALeagueIsRefused) {
    (void)participant("alice", "command: /bin/sh\n");
    fs::create_directories(dir_.path() / "empty");
    const NoBwrapInPath no_bwrap(dir_.path() / "empty");
    const std::string needs =
        "sandbox: true needs bubblewrap ('bwrap'), which is not installed or cannot create a "
        "sandbox here";
    // Even a league with no upload yet: its first one could not run.
    fs::remove_all(subs() / "alice");
    EXPECT_EQ(error_of(config("league: {}\n")),
              "l.yaml:4:1: under 'league' the bots of bots_dir (the participants' uploads) run "
              "with " +
                  needs);
    (void)participant("alice", "command: /bin/sh\n");
    EXPECT_EQ(error_of(config("bot_defaults: { sandbox: false }\nleague: {}\n" + kHouseBots)),
              "l.yaml:5:1: under 'league' the bots of bots_dir (the participants' uploads) run "
              "with " +
                  needs);
    // bot_defaults' sandbox, which the bots of bots_dir take, is checked
    // too, league or not: at bot_defaults, or at the first bot of `bots:`
    // that takes it.
    EXPECT_EQ(error_of(config("bot_defaults: { sandbox: true }\n")),
              "l.yaml:4:26: bot_defaults: " + needs + " (the bots of bots_dir run with it)");
    EXPECT_EQ(error_of(config("bot_defaults: { sandbox: true }\n" + kHouseBots)),
              "l.yaml:6:5: bot 'house': " + needs);
    // Without either, nothing needs bubblewrap.
    EXPECT_EQ(error_of(config(kHouseBots)), "<no error>");
}

// The sandbox shows a bot what its command names: an upload names nothing
// but its own files (and programs of the system by their names).
TEST_F(LeagueConfig, AnUploadNamesOnlyItsOwnFiles) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    const fs::path bob = participant("bob");
    std::ofstream(bob / "secret.txt") << "bob's opening book\n";
    std::ofstream(bob / "bot") << "#!/bin/sh\n";
    fs::permissions(bob / "bot", fs::perms::owner_all);
    const fs::path alice = participant("alice");
    std::ofstream(alice / "bot") << "#!/bin/sh\n";
    fs::permissions(alice / "bot", fs::perms::owner_all);
    fs::create_directories(alice / "data");
    std::ofstream(alice / "data" / "w.txt") << "alice's weights\n";
    const auto error = [&](const std::string& manifest) {
        std::ofstream(alice / "bot.yaml", std::ios::trunc) << manifest;
        return error_of(config("league: {}\n"));
    };
    const std::string where = (alice / "bot.yaml").string() + ":1:10: bot 'alice': ";
    const std::string outside =
        " is outside the bot's folder: under 'league' an upload names only its own files, and a "
        "program of the system by its name alone (such as 'python3')";
    EXPECT_EQ(error("command: ./bot ../bob/secret.txt\n"), where + "'../bob/secret.txt'" + outside);
    EXPECT_EQ(error("command: ./bot " + (bob / "secret.txt").string() + "\n"),
              where + "'" + (bob / "secret.txt").string() + "'" + outside);
    EXPECT_EQ(error("command: ../bob/bot\n"), where + "'../bob/bot'" + outside);
    EXPECT_EQ(error("command: /bin/sh bot\n"), where + "'/bin/sh'" + outside);
    EXPECT_EQ(error("protocol: tsinghua-so\nlibrary: ../bob/x.so\n"),
              (alice / "bot.yaml").string() + ":2:10: bot 'alice': '../bob/x.so'" + outside);
    EXPECT_EQ(error("command: ./bot ./data/../../alice/data/w.txt\n"), "<no error>");
    EXPECT_EQ(error("command: sh ./bot data/w.txt --depth=3\n"), "<no error>");
    // Without a league, the organiser's folders may share files.
    std::ofstream(alice / "bot.yaml", std::ios::trunc) << "command: ./bot ../bob/secret.txt\n";
    EXPECT_EQ(error_of(config("")), "<no error>");
}

TEST_F(LeagueConfig, TheLeaguesSettingsAreNotInTheFingerprint) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    (void)participant("alice");
    const Config a = parse_config(config("league: {}\n" + kHouseBots), kFile);
    const Config b = parse_config(
        config("league: { closes: 2026-12-20T23:59:00Z, uploads_per_hour: 3, max_upload_mb: 1, "
               "checks_at_once: 9 }\n" +
               kHouseBots),
        kFile);
    EXPECT_EQ(fingerprint(a), fingerprint(b));
    // The sandbox it forces is: the bots' line says how they run.
    const Config plain = parse_config(config(kHouseBots), kFile);
    EXPECT_NE(fingerprint(a), fingerprint(plain));
}

// --- one submission read alone ----------------------------------------------------

TEST_F(LeagueConfig, ASubmissionIsReadAloneUnderTheParticipantsName) {
    if (!has_bwrap()) GTEST_SKIP() << "a league needs bubblewrap, which cannot run here";
    // Another participant's folder, broken: not read.
    (void)participant("bob", "comand: ./bot\n");
    const fs::path staging = participant(".install-alice-x1Y2z3", "command: sh run.sh\n");
    std::ofstream(staging / "run.sh") << "echo hi\n";
    const fs::path path =
        file(config("bot_defaults: { memory_mb: 64, sandbox: false }\nleague: {}\n" + kHouseBots));
    EXPECT_NE(error_of(config("league: {}\n" + kHouseBots)), "<no error>");  // bob's
    const BotConfig bot = submission_bot(path, staging, "alice");
    EXPECT_EQ(bot.name, "alice");
    EXPECT_EQ(bot.dir, staging);
    EXPECT_EQ(bot.manifest, staging / "bot.yaml");
    EXPECT_EQ(bot.command, "sh run.sh");
    EXPECT_EQ(bot.argv, (std::vector<std::string>{"sh", "run.sh"}));
    EXPECT_EQ(bot.files, (std::vector<fs::path>{staging / "run.sh"}));
    EXPECT_TRUE(bot.isolation.sandbox);              // the league's
    EXPECT_EQ(bot.isolation.limits.memory_mb, 64u);  // bot_defaults'
    // The config of the check: the house bot, then the submission.
    const Config c = submission_config(path, staging, "alice");
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(c.bots[0].name, "house");
    EXPECT_EQ(c.bots[1].name, "alice");
    EXPECT_EQ(c.bots_dir, subs());
    // A manifest that names the participant is as good.
    std::ofstream(staging / "bot.yaml") << "command: sh run.sh\nname: alice\nauthor: Alice\n";
    EXPECT_EQ(submission_bot(path, staging, "alice").author, "Alice");
}

TEST_F(LeagueConfig, ASubmissionsMistakesNameItsManifest) {
    const fs::path staging = participant(".install-alice-1");
    const fs::path path = file(config(kHouseBots + "  - { name: carol, command: /bin/sh }\n"));
    const auto error = [&](const std::string& manifest, const std::string& name = "alice") {
        std::ofstream(staging / "bot.yaml", std::ios::trunc) << manifest;
        try {
            static_cast<void>(submission_bot(path, staging, name));
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("<no error>");
    };
    const std::string manifest = (staging / "bot.yaml").string();
    EXPECT_EQ(error("author: A\ncomand: ./bot\n"),
              manifest + ":2:1: unknown key 'comand' (did you mean 'command'?)");
    EXPECT_EQ(error("command: ./missing\n"),
              manifest + ":1:10: bot 'alice': command './missing' not found in dir '" +
                  staging.string() + "'");
    EXPECT_EQ(error("command: /bin/sh\nname: bob\n"),
              manifest +
                  ":2:7: name 'bob' is not the participant's, 'alice': a participant's bot is "
                  "named after them (leave 'name' out)");
    EXPECT_EQ(error("command: /bin/sh\n", "carol"),
              manifest + ":1:1: duplicate bot name 'carol' (first defined at line 6 of " +
                  path.string() + ")");
    EXPECT_EQ(error("command: /bin/sh\n", "no/slash"),
              manifest +
                  ":1:1: bot name 'no/slash' (given) is not valid (use only letters, digits and "
                  "_ . + -)");
    EXPECT_EQ(error("command: /bin/sh\n"), "<no error>");
    // A folder without bot.yaml, and a config without bots_dir.
    fs::remove(staging / "bot.yaml");
    try {
        static_cast<void>(submission_bot(path, staging, "alice"));
        ADD_FAILURE() << "no error";
    } catch (const ConfigError& e) {
        EXPECT_EQ(std::string(e.what()),
                  staging.string() +
                      ": no bot.yaml in this folder (a submission is a folder with its bot.yaml)");
    }
    const fs::path other =
        dir_.write("other.yaml", "name: o\ngame: { name: connect4 }\n" + kHouseBots +
                                     "  - { name: h2, command: /bin/sh }\n");
    try {
        static_cast<void>(submission_bot(other, staging, "alice"));
        ADD_FAILURE() << "no error";
    } catch (const ConfigError& e) {
        EXPECT_EQ(std::string(e.what()), other.string() + ":1:1: there is no 'bots_dir', so '" +
                                             staging.string() +
                                             "' cannot be read as one of its submissions");
    }
}

// --- its sandbox (starts a process) --------------------------------------------------

// A staged upload inside bots_dir, started as the league's checker starts it
// (submission_config, then sandbox_hidden through session_options): it reads
// its own files, and no other participant's, by any path.
TEST_F(LeagueConfig, AStagedUploadReadsItsOwnFolderAndNoOtherParticipants) {
    if (!has_bwrap()) GTEST_SKIP() << "bubblewrap cannot create a sandbox here";
    const fs::path bob = participant("bob");
    std::ofstream(bob / "secret.txt") << "bob's opening book\n";
    const fs::path staging = participant(".install-alice-Q7x", "command: ./bot\n");
    std::ofstream(staging / "own.txt") << "alice's weights\n";
    // A v1 bot whose name says what it could read.
    const std::string probe =
        "read hello\n"
        "own=denied; bob=denied; listing=denied\n"
        "cat own.txt >/dev/null 2>&1 && own=ok\n"
        "cat ../bob/secret.txt >/dev/null 2>&1 && bob=ok\n"
        "cat " +
        (bob / "secret.txt").string() + " >/dev/null 2>&1 && bob=ok\n" + "ls " + subs().string() +
        " 2>/dev/null | grep -q bob && listing=ok\n"
        "echo \"name own-$own-bob-$bob-listing-$listing\"\n"
        "echo ready\nread rest\n";
    std::ofstream(staging / "bot") << "#!/bin/sh\n" << probe;
    fs::permissions(staging / "bot", fs::perms::owner_all);
    const fs::path path = file(config("league: {}\n" + kHouseBots));
    const Config c = submission_config(path, staging, "alice");
    const BotConfig& bot = c.bots.back();
    ASSERT_TRUE(bot.isolation.sandbox);
    const auto hidden = sandbox_hidden(c, bot);
    EXPECT_NE(std::find(hidden.begin(), hidden.end(), fs::absolute(subs()).lexically_normal()),
              hidden.end());
    session::BotHost host;
    const auto name_of = [&](const BotConfig& b) {
        session::Session s(host, bot_spec(b), session_options(c, b));
        const auto hs = s.handshake();
        EXPECT_EQ(hs.fault, session::Fault::kNone) << hs.detail << "\n" << s.stderr_log();
        return s.identity().name;
    };
    EXPECT_EQ(name_of(bot), "own-ok-bob-denied-listing-denied");
    // The probe itself can read bob's, outside the sandbox.
    BotConfig unsandboxed = bot;
    unsandboxed.isolation.sandbox = false;
    EXPECT_EQ(name_of(unsandboxed), "own-ok-bob-ok-listing-ok");
}

}  // namespace
}  // namespace arena::tournament
