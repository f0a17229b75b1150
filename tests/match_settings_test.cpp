// `arena match` as a tournament of its own (tournament/match_config,
// match_run) and the lines it prints (tournament/match_lines): the settings
// checked and made into a two-bot config, the stored tournament's name, and
// the game lines and summary byte for byte; and a bot given on a command
// line (tournament/bot_argument).

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/tournament/bot_argument.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/match_config.hpp"
#include "arena/tournament/match_lines.hpp"
#include "arena/tournament/match_run.hpp"
#include "temp_dir.hpp"
#include "thrown.hpp"

namespace arena::tournament {
namespace {

using arena::testing::message_of;
using arena::testing::TempDir;

// Two bots running /bin/sh, on connect4.
MatchSettings two_bots(const std::string& a = "a", const std::string& b = "b") {
    MatchSettings m;
    m.game = "connect4";
    m.bots.resize(2);
    m.bots[0].name = a;
    m.bots[1].name = b;
    for (auto& bot : m.bots)
        bot.argv = {"/bin/sh"};
    m.commands = {a + "=/bin/sh", b + "=/bin/sh"};
    m.args = {"--game", "connect4", m.commands[0], m.commands[1]};
    return m;
}

record::GameRecord game(const std::string& first, const std::string& second, games::Outcome o,
                        record::Termination t = record::Termination::kNormal) {
    record::GameRecord g;
    g.game = "connect4";
    g.players[0] = first;
    g.players[1] = second;
    g.moves.resize(7);
    g.outcome = o;
    g.termination = t;
    g.duration = std::chrono::milliseconds(1250);
    return g;
}

TEST(MatchSettings, ChecksTheSettingsInTheOptionsOrder) {
    auto m = two_bots();
    m.name = "n";
    EXPECT_EQ(
        message_of<std::invalid_argument>([&] { check_match_settings(m, std::nullopt, true); }),
        "--name needs --db");
    m = two_bots();
    m.session.transcript = true;
    EXPECT_EQ(
        message_of<std::invalid_argument>([&] { check_match_settings(m, std::nullopt, true); }),
        "--transcript needs --db (the transcript is stored there)");
    m = two_bots();
    EXPECT_EQ(message_of<std::invalid_argument>(
                  [&] { check_match_settings(m, std::string("elo0=0"), true); }),
              "--sprt: elo1 is missing (expected "
              "elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic])");
    m = two_bots();
    m.games = 7;
    EXPECT_EQ(message_of<std::invalid_argument>(
                  [&] { check_match_settings(m, std::string("elo0=0,elo1=5"), false); }),
              "--games must be an even number of at least 2 with --sprt (the games come in "
              "colour-swapped pairs)");
    m = two_bots();
    m.random_plies = -1;
    EXPECT_EQ(
        message_of<std::invalid_argument>([&] { check_match_settings(m, std::nullopt, true); }),
        "--random-plies must not be negative");
}

TEST(MatchSettings, AnSprtPlaysUpToTwentyThousandGamesByDefault) {
    auto m = two_bots();
    check_match_settings(m, std::string("elo0=0,elo1=5,model=logistic"), true);
    ASSERT_TRUE(m.sprt);
    EXPECT_EQ(m.sprt->model, rating::SprtModel::logistic);
    EXPECT_EQ(m.games, kSprtMaxGames);
    m = two_bots();
    m.games = 10;
    check_match_settings(m, std::string("elo0=0,elo1=5"), false);
    EXPECT_EQ(m.games, 10);
}

TEST(MatchSettings, PlacesBotsAndTellsTwinsApart) {
    TempDir dir;
    auto m = two_bots("x", "x");
    place_bots(m, {dir.path().string(), "", ""});
    EXPECT_EQ(m.bots[0].name, "x-1");
    EXPECT_EQ(m.bots[1].name, "x-2");
    EXPECT_EQ(m.bots[0].working_dir, dir.path());
    EXPECT_EQ(m.bots[1].working_dir, dir.path());
    m = two_bots();
    const std::string missing = (dir.path() / "nope").string();
    EXPECT_EQ(message_of<std::invalid_argument>([&] {
                  place_bots(m, {"", "", missing});
              }),
              "--dir2 '" + missing + "' is not a directory");
    EXPECT_EQ(message_of<std::invalid_argument>([&] {
                  place_bots(m, {missing, "", ""});
              }),
              "--dir '" + missing + "' is not a directory");
}

TEST(MatchSettings, ReadsTwoBotsAsTypedIntoTheirFolders) {
    TempDir dir;
    MatchSettings m;
    read_match_bots(m, {"x=/bin/sh -c 'exit 0'", "/bin/sh"}, {"", "", dir.path().string()});
    ASSERT_EQ(m.bots.size(), 2u);
    EXPECT_EQ(m.bots[0].name, "x");
    EXPECT_EQ(m.bots[0].argv, (std::vector<std::string>{"/bin/sh", "-c", "exit 0"}));
    EXPECT_EQ(m.bots[1].name, "sh");
    EXPECT_EQ(m.bots[1].working_dir, dir.path());
    EXPECT_EQ(m.commands, (std::vector<std::string>{"x=/bin/sh -c 'exit 0'", "/bin/sh"}));
    MatchSettings one;
    EXPECT_EQ(message_of<std::invalid_argument>([&] {
                  read_match_bots(one, {"/bin/sh"}, {"", "", ""});
              }),
              "expected two bots, got 1");
}

TEST(MatchSettings, EachBotSpeaksItsProtocolOrTheCommonOne) {
    auto m = two_bots();
    set_match_protocols(m, {"gomocup", "", "nboard"});
    EXPECT_EQ(m.bots[0].protocol, session::BotProtocol::kGomocup);
    EXPECT_EQ(m.bots[1].protocol, session::BotProtocol::kNboard);
    set_match_protocols(m, {"arena1", "", ""});
    EXPECT_EQ(m.bots[1].protocol, session::BotProtocol::kArena1);
    EXPECT_NE(message_of<std::invalid_argument>([&] {
                  set_match_protocols(m, {"arena1", "uci", ""});
              }).find("unknown protocol 'uci'"),
              std::string::npos);
}

TEST(BotArgument, ABotFromItsCommandsWordsAndItsFolder) {
    auto bot = bot_from_words({"n=/bin/sh -c 'exit 0'"});
    EXPECT_EQ(bot.name, "n");
    EXPECT_EQ(bot.argv, (std::vector<std::string>{"/bin/sh", "-c", "exit 0"}));
    // Several words are the command as it is: no name, no splitting.
    bot = bot_from_words({"/bin/sh", "-c", "exit 0"});
    EXPECT_EQ(bot.name, "sh");
    EXPECT_EQ(bot.argv, (std::vector<std::string>{"/bin/sh", "-c", "exit 0"}));
    EXPECT_EQ(message_of<std::invalid_argument>([] { (void)bot_from_words({}); }),
              "no bot command given");

    TempDir dir;
    set_bot_dir(bot, "");
    EXPECT_EQ(bot.working_dir, "");
    set_bot_dir(bot, dir.path().string());
    EXPECT_EQ(bot.working_dir, dir.path());
    const std::string missing = (dir.path() / "nope").string();
    EXPECT_EQ(message_of<std::invalid_argument>([&] { set_bot_dir(bot, missing); }),
              "--dir '" + missing + "' is not a directory");
}

TEST(MatchSettings, OpeningsComeFromTheSuiteAFileOrNowhere) {
    auto m = two_bots();
    choose_openings(m, "", false);  // connect4 7x6 has a shipped suite
    EXPECT_EQ(m.openings_file.filename(), "connect4-7x6-balanced.txt");
    EXPECT_FALSE(m.openings.empty());

    m = two_bots();
    choose_openings(m, "none", false);
    EXPECT_TRUE(m.openings.empty());
    EXPECT_EQ(m.random_plies, 0);

    m = two_bots();
    m.params = {{"rows", "5"}};  // no suite for 7x5: an SPRT starts from random plies
    m.sprt = rating::SprtOptions{};
    choose_openings(m, "", false);
    EXPECT_TRUE(m.openings.empty());
    EXPECT_EQ(m.random_plies, 4);

    m = two_bots();
    EXPECT_EQ(message_of<std::invalid_argument>([&] { choose_openings(m, "f.txt", true); }),
              "give either --openings FILE or --random-plies, not both (the openings come from "
              "one or the other)");
    TempDir dir;
    const std::string file = dir.write("o.txt", "4 4\n9\n");
    EXPECT_EQ(message_of<std::invalid_argument>([&] { choose_openings(m, file, false); }),
              "--openings: openings file '" + file + "' line 2: move '9' is not legal in connect4");
}

TEST(MatchSettings, CheckMatchGameRefusesABoardOrProtocolThatCannotPlay) {
    auto m = two_bots();
    m.bots[1].protocol = session::BotProtocol::kNboard;
    EXPECT_EQ(message_of<std::invalid_argument>([&] {
                  check_match_game(m, "none", false);
              }).rfind("bot 'b': ", 0),
              0u);
}

TEST(MatchSettings, MakesATwoBotConfig) {
    auto m = two_bots();
    m.games = 5;
    m.seed = 9;
    m.random_plies = 3;
    m.session.max_line_bytes = 4096;
    Config c = match_config(m);
    EXPECT_EQ(c.game, "connect4");
    EXPECT_EQ(c.games_per_pair, 6);  // an odd match plays half of the last pair
    EXPECT_EQ(c.seed, 9u);
    EXPECT_EQ(c.concurrency, 1);
    EXPECT_EQ(c.openings.random_plies, 3);
    EXPECT_FALSE(c.sprt);
    ASSERT_EQ(c.bots.size(), 2u);
    EXPECT_EQ(c.bots[0].name, "a");
    EXPECT_EQ(c.bots[1].command, "b=/bin/sh");
    EXPECT_EQ(c.bots[0].protocol, "arena1");
    EXPECT_EQ(c.bots[0].executable, "/bin/sh");
    EXPECT_EQ(c.bots[0].max_line_bytes, 4096u);

    m.sprt = rating::SprtOptions{};
    c = match_config(m);
    EXPECT_EQ(c.schedule, ScheduleType::kGauntlet);
    EXPECT_EQ(c.challenger, "a");
    EXPECT_TRUE(c.sprt);
}

// --move-ms1, --depth2, ...: each side's own time control over the match's,
// and its search limits, in the two-bot config; a bad time names the side.
TEST(MatchSettings, EachSideHasItsOwnTimeAndLimits) {
    auto m = two_bots();
    m.time.move = match::Millis{1000};
    set_side_option(m, "move-ms", 2, 700);
    set_side_option(m, "depth", 1, 2);
    set_side_option(m, "depth", 2, 8);
    set_side_option(m, "nodes", 2, 5000);
    check_match_settings(m, std::nullopt, true);
    Config c = match_config(m);
    EXPECT_FALSE(c.bots[0].time);
    ASSERT_TRUE(c.bots[1].time);
    EXPECT_EQ(c.bots[1].time->move, match::Millis{700});
    EXPECT_EQ(c.bots[1].time->tolerance, match::kDefaultTolerance);
    EXPECT_EQ(c.bots[0].limits.depth, 2);
    EXPECT_FALSE(c.bots[0].limits.nodes);
    EXPECT_EQ(c.bots[1].limits.depth, 8);
    EXPECT_EQ(c.bots[1].limits.nodes, 5000);
    EXPECT_EQ(side_control(c, c.bots[0]).time.move, match::Millis{1000});

    m = two_bots();
    set_side_option(m, "move-ms", 1, 0);
    EXPECT_EQ(
        message_of<std::invalid_argument>([&] { check_match_settings(m, std::nullopt, true); }),
        "BOT1's time (--move-ms1, ...): no time limit: set a per-move limit (move_ms) or a game "
        "clock (game_ms)");
    EXPECT_EQ(side_option_help(kSideOptions[0], 2),
              "BOT2's time per move in ms (overrides --move-ms)");
}

TEST(MatchSettings, CommandCommentQuotesAndFlattens) {
    EXPECT_EQ(command_comment({"--game", "connect4", "a=/bin/sh -c 'x'", "two\nlines"}),
              "arena match --game connect4 'a=/bin/sh -c '\\''x'\\''' 'two lines'");
}

TEST(MatchRun, NamesTheStoredTournamentAfterItsBots) {
    store::ResultsStore store(":memory:");
    const auto m = two_bots();
    Config c1 = match_config(m), c2 = match_config(m);
    const auto id1 = create_match_tournament(store, m, c1);
    const auto id2 = create_match_tournament(store, m, c2);
    EXPECT_NE(id1, id2);
    EXPECT_EQ(c1.name, "a-vs-b");
    EXPECT_EQ(c2.name, "a-vs-b-2");
    EXPECT_EQ(c1.text.rfind("# arena match --game connect4", 0), 0u) << c1.text;
    EXPECT_EQ(store.find_tournament("a-vs-b")->status, "running");

    auto named = two_bots();
    named.name = "a-vs-b";
    named.db = "x.db";
    Config c3 = match_config(named);
    try {
        (void)create_match_tournament(store, named, c3);
        ADD_FAILURE() << "no error";
    } catch (const store::StoreError& e) {
        EXPECT_STREQ(e.what(),
                     "x.db already holds a tournament named 'a-vs-b' (choose another --name)");
    }
}

TEST(MatchRun, TheEndSaysWhereTheMatchIsStoredAndWhatStoppedIt) {
    TempDir dir;
    auto m = two_bots();
    m.db = (dir.path() / "m.db").string();
    m.games = 4;
    MatchRun run(m, match_config(m), {}, std::cerr);
    std::ostringstream out, err;
    EXPECT_EQ(run.finish(false, true, "", out, err), MatchEnd::kInterrupted);
    std::ostringstream table;
    print_summary(table, run.lines().tally());
    EXPECT_EQ(out.str(), table.str());
    EXPECT_EQ(err.str(), "arena match: stored as tournament 'a-vs-b' in " + m.db +
                             "\narena match: interrupted after 0 of 4 games\n");
    std::ostringstream failed_out, failed;
    EXPECT_EQ(run.finish(false, false, "bot 'b\x1b' failed", failed_out, failed),
              MatchEnd::kFailed);
    EXPECT_EQ(failed.str(), "arena match: stored as tournament 'a-vs-b' in " + m.db +
                                "\narena match: bot 'b\\x1b' failed\n");
    EXPECT_EQ(store::ResultsStore(m.db).find_tournament("a-vs-b")->status, "interrupted");

    auto in_memory = two_bots();
    MatchRun played(in_memory, match_config(in_memory), {}, std::cerr);
    std::ostringstream json, nothing;
    EXPECT_EQ(played.finish(true, false, "", json, nothing), MatchEnd::kPlayed);
    // The summary, and the verdict of the pairs (none counted).
    auto expected = summary_json("connect4", played.lines().tally());
    expected["head_to_head"] = head_to_head_json(played.lines().test());
    EXPECT_EQ(json.str(), expected.dump() + "\n");
    EXPECT_EQ(expected["head_to_head"]["pairs_counted"], 0);
    EXPECT_TRUE(expected["head_to_head"]["elo"].is_null());
    EXPECT_EQ(nothing.str(), "");
}

TEST(MatchLines, PrintsALinePerGame) {
    std::ostringstream out;
    print_game(out, 3, 10, 0, game("a", "b", games::Outcome::kWin1), "");
    print_game(out, 4, 10, 42, game("b", "a", games::Outcome::kDraw), "  tail");
    auto faulty = game("a", "b\x1b", games::Outcome::kWin2, record::Termination::kTimeout);
    faulty.detail = "a: no move within 100 ms";
    faulty.fault_after = std::chrono::microseconds(101'250);
    print_game(out, 5, 10, 0, faulty, "");
    EXPECT_EQ(out.str(),
              "game 3/10: a vs b  1-0  normal  7 plies  1.25 s\n"
              "game #42 (4/10 stored): b vs a  1/2-1/2  normal  7 plies  1.25 s  tail\n"
              "game 5/10: a vs b\\x1b  0-1  timeout  7 plies  1.25 s  (a: no move within 100 "
              "ms; verdict 101.2 ms after go)\n");
}

TEST(MatchLines, CountsTheGamesAndSaysWhenNoTestDecided) {
    const auto m = two_bots();
    const Config config = match_config(m);
    const auto schedule = base_lineup(config).schedule;
    std::ostringstream out;
    MatchLines lines(config, schedule, 2, false, {}, out);
    lines.game_stored(0, 1, game("a", "b", games::Outcome::kWin1));
    lines.game_stored(1, 2, game("b", "a", games::Outcome::kWin2, record::Termination::kCrash));
    EXPECT_EQ(out.str(),
              "game 1/2: a vs b  1-0  normal  7 plies  1.25 s\n"
              "game 2/2: b vs a  0-1  crash  7 plies  1.25 s\n");
    EXPECT_FALSE(lines.has_sprt());
    EXPECT_EQ(lines.tally().games(), 2);
    EXPECT_EQ(lines.undecided(false), "SPRT: no decision after 2 games (the most --games allows)");
    EXPECT_EQ(lines.undecided(true), "SPRT: no decision after 2 games");
}

TEST(MatchLines, WritesTheSprtTextItIsGiven) {
    auto m = two_bots();
    m.sprt = rating::SprtOptions{};
    m.games = 4;
    const Config config = match_config(m);
    const auto schedule = base_lineup(config).schedule;
    std::ostringstream out;
    SprtText text{
        [](const rating::SprtResult&) { return std::string("  <llr>"); },
        [](std::ostream& o, const OpponentTest& t) { o << "<block " << t.counted_pairs << ">\n"; }};
    MatchLines lines(config, schedule, 4, false, text, out);
    lines.game_stored(0, 1,
                      game(schedule[0].first == 0 ? "a" : "b", schedule[0].first == 0 ? "b" : "a",
                           games::Outcome::kWin1));
    EXPECT_EQ(out.str().substr(out.str().size() - 8), "  <llr>\n");
    ASSERT_TRUE(lines.has_sprt());
    std::ostringstream block;
    lines.print_block(block);
    EXPECT_EQ(block.str(), "<block 0>\n");
}

TEST(MatchLines, TheEndIsTheSummaryAndTheTestsBlockAndDecision) {
    auto m = two_bots();
    const Config plain = match_config(m);
    const auto plain_schedule = base_lineup(plain).schedule;
    std::ostringstream lines_out;
    MatchLines lines(plain, plain_schedule, 2, false, {}, lines_out);
    lines.game_stored(0, 1, game("a", "b", games::Outcome::kWin1));
    std::ostringstream text, table;
    lines.print_end(text, false, false);
    print_summary(table, lines.tally());
    EXPECT_EQ(text.str(), table.str());
    std::ostringstream json;
    lines.print_end(json, true, false);
    auto expected = summary_json("connect4", lines.tally());
    expected["head_to_head"] = head_to_head_json(lines.test());
    EXPECT_EQ(json.str(), expected.dump() + "\n");

    m.sprt = rating::SprtOptions{};
    m.games = 4;
    const Config config = match_config(m);
    const auto schedule = base_lineup(config).schedule;
    SprtText sprt_text{
        [](const rating::SprtResult&) { return std::string(); },
        [](std::ostream& o, const OpponentTest& t) { o << "<block " << t.counted_pairs << ">\n"; },
        [](const OpponentTest& t) {
            return nlohmann::json{{"pairs", t.counted_pairs}};
        },
        [](std::ostream& o, rating::SprtDecision, const std::string& undecided) {
            o << "<decision> " << undecided << "\n";
        }};
    MatchLines tested(config, schedule, 4, false, sprt_text, lines_out);
    std::ostringstream end, empty_table;
    tested.print_end(end, false, true);
    print_summary(empty_table, tested.tally());
    EXPECT_EQ(end.str(),
              empty_table.str() + "\n<block 0>\n<decision> SPRT: no decision after 0 games\n");
    std::ostringstream end_json;
    tested.print_end(end_json, true, false);
    const auto j = nlohmann::json::parse(end_json.str());
    EXPECT_EQ(j["sprt"], (nlohmann::json{{"pairs", 0}}));
    EXPECT_EQ(j["max_games"], 4);
    EXPECT_EQ(j["games"], 0);
}

TEST(MatchLines, SummaryAsATableAndAsJson) {
    match::Tally tally({"alpha", "b"});
    tally.add(game("alpha", "b", games::Outcome::kWin1));
    tally.add(game("b", "alpha", games::Outcome::kWin1, record::Termination::kTimeout));
    std::ostringstream out;
    print_summary(out, tally);
    EXPECT_EQ(out.str(),
              "\nbot    games   wins  draws losses   score  timeout    crash  illegal protocol  "
              "startup\n"
              "alpha      2      1      0      1   50.0%        1        0        0        0    "
              "    0\n"
              "b          2      1      0      1   50.0%        0        0        0        0    "
              "    0\n");
    const auto j = summary_json("connect4", tally);
    EXPECT_EQ(j["game"], "connect4");
    EXPECT_EQ(j["games"], 2);
    EXPECT_EQ(j["bots"][0]["name"], "alpha");
    EXPECT_EQ(j["bots"][0]["timeout"], 1);
    EXPECT_EQ(j["bots"][1]["losses"], 1);
    EXPECT_DOUBLE_EQ(j["bots"][1]["score"].get<double>(), 0.5);
}

}  // namespace
}  // namespace arena::tournament
