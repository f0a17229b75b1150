// The bots /play offers and the server arena serve runs (serve/play_bots,
// serve/running_server, serve/play_store's bot_entry): --play-bot bots
// first, the served tournaments' bots each once with every game they play,
// a stored bot that cannot be read left out with a word on why, and the
// setups the server refuses.

#include "arena/serve/play_bots.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/serve/play_store.hpp"
#include "arena/serve/running_server.hpp"
#include "arena/serve/served_database.hpp"
#include "arena/store/results_store.hpp"
#include "temp_dir.hpp"

namespace arena::serve {
namespace {

store::BotEntry stored(const std::string& name, const std::string& command,
                       const std::string& protocol = "arena1") {
    return {name, command, protocol, ""};
}

store::TournamentSpec tournament(const std::string& name, const std::string& game) {
    store::TournamentSpec spec;
    spec.name = name;
    spec.game = game;
    return spec;
}

// A results database holding two tournaments, at `path`.
void make_database(const std::string& path) {
    store::ResultsStore store(path);
    (void)store.create_tournament(tournament("cup", "connect4"),
                                  {stored("a", "/bin/a"), stored("odd", "/bin/o", "weird")});
    (void)store.create_tournament(tournament("league", "gomoku"),
                                  {stored("a", "/bin/a"), stored("g", "/bin/g", "gomocup")});
}

TEST(PlayBots, TheGivenBotsThenEachStoredProgramOnceWithItsGames) {
    testing::TempDir dir;
    const auto path = (dir.path() / "r.db").string();
    make_database(path);
    ServedDatabase db(0, path);
    session::Isolation isolation;
    isolation.limits.memory_mb = 64;
    std::ostringstream err;
    const auto bots = play_bots({"mine=/bin/m --fast"}, {&db}, isolation, err);
    ASSERT_EQ(bots.size(), 3u);
    EXPECT_EQ(bots[0].label, "mine (--play-bot)");
    EXPECT_EQ(bots[0].entry.command, "/bin/m --fast");
    EXPECT_TRUE(bots[0].games.empty());
    EXPECT_EQ(bots[1].label, "a (cup, r.db)");
    EXPECT_EQ(bots[1].games, (std::vector<std::string>{"connect4", "gomoku"}));
    EXPECT_EQ(bots[1].spec.argv, (std::vector<std::string>{"/bin/a"}));
    EXPECT_EQ(bots[2].label, "g (league, r.db)");
    EXPECT_EQ(bots[2].spec.protocol, session::BotProtocol::kGomocup);
    EXPECT_EQ(bots[2].entry.protocol, "gomocup");
    for (const auto& bot : bots)
        EXPECT_EQ(bot.spec.isolation.limits.memory_mb, 64);
    EXPECT_EQ(err.str(), "arena serve: " + path +
                             ": bot 'odd' of tournament 'cup' is not offered on /play: unknown "
                             "protocol 'weird' (expected " +
                             session::bot_protocol_names() + ", or 'tsinghua-so')\n");
}

TEST(PlayBots, ABadPlayBotIsRefused) {
    std::ostringstream err;
    try {
        (void)play_bots({"ok=/bin/ok", "bad="}, {}, {}, err);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "empty command");
    }
}

TEST(PlayBots, TheBotsRowNamesTheCommandAsGivenAndTheProgramsDigest) {
    session::BotSpec spec;
    spec.name = "sh";
    spec.argv = {"/bin/sh", "-c", "exit"};
    spec.protocol = session::BotProtocol::kNboard;
    const auto entry = bot_entry(spec, "sh=/bin/sh -c exit");
    EXPECT_EQ(entry.name, "sh");
    EXPECT_EQ(entry.command, "sh=/bin/sh -c exit");
    EXPECT_EQ(entry.protocol, "nboard");
    EXPECT_EQ(entry.sha256.size(), 64u);
}

TEST(RunningServer, RefusesADatabaseTwiceAndABindThatIsNoAddress) {
    testing::TempDir dir;
    const auto path = (dir.path() / "r.db").string();
    make_database(path);
    std::ostringstream err;
    ServeSetup setup;
    setup.databases = {path, (dir.path() / "." / "r.db").string()};
    setup.play = false;
    session::BotHost host;
    EXPECT_THROW(RunningServer(host, setup, err), std::invalid_argument);
    setup.databases = {path};
    setup.server.bind = "localhost";
    try {
        RunningServer server(host, setup, err);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "--bind 'localhost' is not an IP address");
    }
}

TEST(RunningServer, DescribesWhatItServes) {
    testing::TempDir dir;
    const auto path = (dir.path() / "r.db").string();
    make_database(path);
    std::ostringstream err;
    ServeSetup setup;
    setup.databases = {path};
    setup.play_db = (dir.path() / "play.db").string();
    setup.server.port = 0;
    session::BotHost host;
    RunningServer server(host, setup, err);
    EXPECT_EQ(server.describe(), "serving http://127.0.0.1:" + std::to_string(server.port()) +
                                     "/ (2 databases, /play with 2 bots)");
    EXPECT_TRUE(std::filesystem::exists(setup.play_db));  // created, and served
}

TEST(RunningServer, TheSetupsProblemsNameTheOption) {
    ServeSetup setup;
    EXPECT_EQ(setup_problem(setup, 8080), "expected at least one DB (or --play-db)");
    setup.play_db = "p.db";
    EXPECT_EQ(setup_problem(setup, 8080), "");
    EXPECT_EQ(setup_problem(setup, 65536), "--port must be 0..65535");
    EXPECT_EQ(setup_problem(setup, -1), "--port must be 0..65535");
    setup.play_max = 65;
    EXPECT_EQ(setup_problem(setup, 0), "--play-max must be 1..64");
    setup.play_max = 64;
    setup.idle = std::chrono::seconds(4);
    EXPECT_EQ(setup_problem(setup, 0), "--play-idle-s must be at least 5");
    setup.idle = std::chrono::seconds(5);
    setup.max_move_ms = match::Millis(9);
    EXPECT_EQ(setup_problem(setup, 0), "--max-move-ms must be at least 10");
    setup.max_move_ms = match::Millis(10);
    EXPECT_EQ(setup_problem(setup, 0), "");
}

TEST(RunningServer, ARunServesItsDatabaseLiveWithoutPlay) {
    testing::TempDir dir;
    const auto path = (dir.path() / "r.db").string();
    make_database(path);
    LiveGames live;
    const ServeSetup setup = run_serve_setup(path, live, 0);
    EXPECT_EQ(setup.databases, std::vector<std::string>{path});
    EXPECT_FALSE(setup.play);
    EXPECT_EQ(setup.live, &live);
    std::ostringstream err;
    session::BotHost host;
    RunningServer server(host, setup, err);
    EXPECT_EQ(server.describe(),
              "serving http://127.0.0.1:" + std::to_string(server.port()) + "/ (1 database)");
    // Its connections and a quarter more, and a few.
    EXPECT_EQ(server.open_files(), ServerOptions{}.max_connections * 5 / 4 + 16);
}

}  // namespace
}  // namespace arena::serve
