// Foreign protocols: Gomocup brains and NBoard engines run unmodified through
// adapter sessions (protocol/GOMOCUP.md, protocol/NBOARD.md) and are judged
// exactly like native bots. The engines are bots/foreign/pbrain-sample and
// nboard-sample, which share no code with the arena.
//
// 1. the adapters' translation (coordinates, BOARD order, GGF, answers);
// 2. what an engine receives from a session, from the engine's own log;
// 3. full `arena run` tournaments against native bots, checked in the database;
// 4. crashes, hangs, start-up failures, illegal moves and garbage, judged as
//    for native bots, with no process left behind.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/match/close_calls.hpp"
#include "arena/session/gomocup_session.hpp"
#include "arena/session/nboard_session.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using arena::testing::TempDir;

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using session::gomocup::Point;
using testing::bin;
using testing::quick_options;
using testing::scaled;
using testing::scaled_ms;
using testing::survivors;
using testing::unique_marker;

std::vector<std::string> lines_of(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

using testing::query;

std::string scalar(const fs::path& db, const std::string& sql) {
    const auto rows = query(db, sql);
    return rows.empty() || rows[0].empty() ? std::string("<none>") : rows[0][0];
}

// The limit on the sample engines' answers in the session tests: they answer
// at once, and what they are told (`go`) does not depend on it.
const auto kAnswerLimit = scaled(2s);

// ---- 1. translation ------------------------------------------------------------

TEST(GomocupTranslation, CoordinatesFollowTheSharedConvention) {
    using session::gomocup::parse_point;
    using session::gomocup::to_move;
    using session::gomocup::to_point;
    EXPECT_EQ(to_point("a1", 15), (Point{0, 0}));
    EXPECT_EQ(to_point("h8", 15), (Point{7, 7}));
    EXPECT_EQ(to_point("o15", 15), (Point{14, 14}));
    EXPECT_EQ(to_point("C12", 15), (Point{2, 11}));
    EXPECT_EQ(to_point("t20", 20), (Point{19, 19}));
    EXPECT_EQ(to_point("p1", 15), std::nullopt);
    EXPECT_EQ(to_point("a16", 15), std::nullopt);
    EXPECT_EQ(to_point("a0", 15), std::nullopt);
    EXPECT_EQ(to_point("pass", 15), std::nullopt);
    EXPECT_EQ(to_move({0, 0}, 15), "a1");
    EXPECT_EQ(to_move({7, 7}, 15), "h8");
    EXPECT_EQ(to_move({14, 14}, 15), "o15");
    EXPECT_EQ(to_move({15, 0}, 15), "");
    EXPECT_EQ(to_move({0, -1}, 15), "");
    // Every cell goes there and back.
    for (int x = 0; x < 26; ++x)
        for (int y = 0; y < 26; ++y)
            ASSERT_EQ(to_point(to_move({x, y}, 26), 26), (Point{x, y}));
    EXPECT_EQ(parse_point("7,8"), (Point{7, 8}));
    EXPECT_EQ(parse_point(" 7 , 8 "), (Point{7, 8}));
    EXPECT_EQ(parse_point("99,99"), (Point{99, 99}));
    EXPECT_EQ(parse_point("-1,3"), (Point{-1, 3}));
    EXPECT_EQ(parse_point("7,8,1"), std::nullopt);
    EXPECT_EQ(parse_point("7 8"), std::nullopt);
    EXPECT_EQ(parse_point("hello arena"), std::nullopt);
    EXPECT_EQ(parse_point(","), std::nullopt);
}

TEST(GomocupTranslation, BoardListsTheMovesInOrderEndingWithTheOpponents) {
    using session::gomocup::board_command;
    // The engine plays second, three moves made: its stone is the middle one.
    EXPECT_EQ(board_command({"h8", "i9", "h9"}, 2, 15),
              (std::vector<std::string>{"BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE"}));
    // The engine plays first after a four-ply opening.
    EXPECT_EQ(board_command({"a1", "b2", "c3", "d4"}, 1, 15),
              (std::vector<std::string>{"BOARD", "0,0,1", "1,1,2", "2,2,1", "3,3,2", "DONE"}));
    EXPECT_THROW((void)board_command({"h8", "z99"}, 1, 15), std::invalid_argument);
}

TEST(GomocupTranslation, RulesAndAbout) {
    using session::gomocup::rule_bitmask;
    EXPECT_EQ(rule_bitmask("freestyle"), 0);
    EXPECT_EQ(rule_bitmask(""), 0);
    EXPECT_EQ(rule_bitmask("exact5"), 1);
    EXPECT_EQ(rule_bitmask("renju"), std::nullopt);
    const auto id = session::gomocup::parse_about(
        R"(name="Embryo", version="21.2", author="Kai Sun, et al.", country="China")");
    EXPECT_EQ(id.name, "Embryo");
    EXPECT_EQ(id.version, "21.2");
    EXPECT_EQ(id.author, "Kai Sun, et al.");
    EXPECT_EQ(session::gomocup::parse_about("UNKNOWN ABOUT").name, "");
    // Blanks around `=`, as AIWine writes its answer (issue 41 item 21).
    const auto wine = session::gomocup::parse_about(R"(name = "Wine", version ="2.1")");
    EXPECT_EQ(wine.name, "Wine");
    EXPECT_EQ(wine.version, "2.1");
    EXPECT_EQ(session::gomocup::parse_about(R"(x=1, name= "a=b", author	=	"c")").author, "c");
    // What protocol_problem refuses, with a clear message.
    EXPECT_EQ(session::protocol_problem(session::BotProtocol::kGomocup, "gomoku",
                                        {{"size", "20"}, {"rule", "exact5"}}),
              "");
    EXPECT_EQ(
        session::protocol_problem(session::BotProtocol::kGomocup, "gomoku", {{"rule", "renju"}}),
        "protocol 'gomocup' cannot express the gomoku parameter rule=renju");
    EXPECT_EQ(session::protocol_problem(session::BotProtocol::kGomocup, "reversi", {}),
              "protocol 'gomocup' plays only gomoku");
}

TEST(GomocupTranslation, AnnouncedTimeFallsShortOfTheLimitByTheCommunitysTolerance) {
    using session::gomocup::announced_ms;
    EXPECT_EQ(announced_ms(100), 90);  // 10 %
    EXPECT_EQ(announced_ms(1000), 900);
    EXPECT_EQ(announced_ms(3000), 2700);   // the default move_ms
    EXPECT_EQ(announced_ms(10000), 9000);  // from here on, the judge's 1 s
    EXPECT_EQ(announced_ms(30000), 29000);
    EXPECT_EQ(announced_ms(180000), 179000);
    EXPECT_EQ(announced_ms(5), 5);  // 10 % of 5 ms rounds to nothing
    EXPECT_EQ(announced_ms(0), 0);  // no limit stays no limit
    EXPECT_EQ(announced_ms(session::gomocup::kNoLimitMs), session::gomocup::kNoLimitMs);
    EXPECT_EQ(session::gomocup::folder_name("rapfi-1.2"), "rapfi-1.2");
    EXPECT_EQ(session::gomocup::folder_name("a/b c"), "a_b_c");
    EXPECT_EQ(session::gomocup::folder_name(".."), "bot");
    EXPECT_EQ(session::gomocup::folder_name(""), "bot");
}

TEST(NboardTranslation, DepthFollowsTheMoveTime) {
    using session::nboard::depth_for;
    EXPECT_EQ(depth_for(3000), 12);  // the reference
    EXPECT_EQ(depth_for(5999), 12);
    EXPECT_EQ(depth_for(6000), 13);
    EXPECT_EQ(depth_for(24000), 15);
    EXPECT_EQ(depth_for(1500), 11);
    EXPECT_EQ(depth_for(1000), 10);
    EXPECT_EQ(depth_for(200), 8);
    EXPECT_EQ(depth_for(1), 1);
    EXPECT_EQ(depth_for(0), 1);
    EXPECT_EQ(depth_for(std::int64_t{1} << 50), 50);
    EXPECT_EQ(depth_for(INT64_MAX), 60);  // the most, without overflow on the way
}

// The game of PROTOCOL.md 10.2: black passes after white's a3.
const std::vector<std::string> kReversiWithPass = {"c4", "c3", "e6",   "b4", "a4", "a5",
                                                   "b2", "a3", "pass", "f4", "g3"};

TEST(NboardTranslation, GgfOfTheStartAndOfAGameWithAPass) {
    using session::nboard::ggf;
    const std::string start = "---------------------------O*------*O---------------------------";
    ASSERT_EQ(start.size(), 64u);
    EXPECT_EQ(ggf({}, "me", "you"),
              "(;GM[Othello]PC[arena]PB[me]PW[you]TY[8]BO[8 " + start + " *];)");
    EXPECT_EQ(ggf(kReversiWithPass, "b", "w"),
              "(;GM[Othello]PC[arena]PB[b]PW[w]TY[8]BO[8 " + start +
                  " *]B[C4]W[C3]B[E6]W[B4]B[A4]W[A5]B[B2]W[A3]B[PA]W[F4]B[G3];)");
    EXPECT_THROW((void)ggf({"d3", "x9"}, "b", "w"), std::invalid_argument);

    // The arena's own rules agree: the start is the one BO describes, and the
    // pass is black's only move where it is listed.
    const auto game = games::make_game("reversi", {});
    auto state = game->new_initial_state();
    const auto rendered = state->render();
    for (const auto& move : kReversiWithPass) {
        const auto m = state->parse_move(move);
        ASSERT_TRUE(m && state->is_legal(*m)) << move;
        if (move == "pass") {
            EXPECT_EQ(state->legal_moves().size(), 1u);
        }
        state->apply(*m);
    }
    EXPECT_EQ(state->current_player(), 2);
}

TEST(NboardTranslation, AnswersInEveryForm) {
    using session::nboard::parse_answer;
    using session::nboard::to_nboard;
    EXPECT_EQ(parse_answer("=== F5/0.00/0.01"), "f5");
    EXPECT_EQ(parse_answer("=== D3 1.23 0.5"), "d3");
    EXPECT_EQ(parse_answer("===   c4"), "c4");
    EXPECT_EQ(parse_answer("=== PA"), "pass");
    EXPECT_EQ(parse_answer("=== pass/0/0"), "pass");
    EXPECT_EQ(parse_answer("=== Z9"), "z9");  // the game judges it
    EXPECT_EQ(parse_answer("==="), "");
    EXPECT_EQ(parse_answer("status x"), "");
    EXPECT_EQ(to_nboard("d3"), "D3");
    EXPECT_EQ(to_nboard("pass"), "PA");
}

// ---- 2. sessions, as the engine sees them --------------------------------------

// A session of the sample program `program` (bots/), speaking `protocol`,
// which logs what it receives to `log`.
std::unique_ptr<session::BotSession> logged_sample(session::BotHost& host,
                                                   const std::string& program,
                                                   session::BotProtocol protocol,
                                                   const fs::path& log) {
    session::BotSpec spec{program == "pbrain-sample" ? "brain" : "engine",
                          {bin("bots/" + program), "--log", log.string()},
                          {}};
    spec.protocol = protocol;
    return session::make_session(host, spec, quick_options());
}

TEST(GomocupSession, SpeaksTheProtocolAndReusesTheProcess) {
    session::BotHost host;
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "brain.log";
    auto s = logged_sample(host, "pbrain-sample", session::BotProtocol::kGomocup, log);
    const auto hs = s->handshake();
    ASSERT_EQ(hs.fault, session::Fault::kNone) << hs.detail;
    EXPECT_EQ(s->identity().name, "pbrain-sample");
    EXPECT_EQ(s->identity().version, "1.0");
    EXPECT_EQ(s->identity().author, "arena tests");

    // Game 1: the engine plays second, 100 ms per move, exact five.
    ASSERT_TRUE(
        s->start_game({"gomoku", 2, {{"size", "15"}, {"rule", "exact5"}, {"move_ms", "100"}}}));
    const protocol::Go go{
        .move_ms = 100, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
    auto r = s->request_move({{"h8"}}, go, kAnswerLimit);
    ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    ASSERT_TRUE(session::gomocup::to_point(r.move, 15)) << r.move;
    EXPECT_NE(r.move, "h8");
    ASSERT_EQ(r.info.size(), 2u);
    EXPECT_TRUE(r.info[0].starts_with("MESSAGE sample: ")) << r.info[0];
    EXPECT_EQ(r.info[1], "DEBUG stones 1");
    const auto second = s->request_move({{"h8", r.move, "a1"}}, go, kAnswerLimit);
    ASSERT_EQ(second.fault, session::Fault::kNone) << second.detail;
    s->end_game({protocol::GameResult::kDraw, "normal"});

    // Game 2, same process: a game clock, freestyle, the engine first after a
    // four-ply opening.
    ASSERT_TRUE(s->start_game({"gomoku",
                               1,
                               {{"size", "15"},
                                {"rule", "freestyle"},
                                {"move_ms", "0"},
                                {"game_ms", "60000"},
                                {"inc_ms", "0"}}}));
    const protocol::Go clock_go{
        .move_ms = 5000, .clock_ms = 60000, .opp_clock_ms = 59000, .depth = {}, .nodes = {}};
    r = s->request_move({{"a1", "b2", "c3", "d4"}}, clock_go, 5010ms);
    ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    const int pid = s->pid();
    const auto* gomocup = dynamic_cast<const session::GomocupSession*>(s.get());
    ASSERT_NE(gomocup, nullptr);
    const fs::path folder = gomocup->folder();
    EXPECT_TRUE(fs::is_directory(folder)) << folder;
    s->quit();
    EXPECT_FALSE(s->alive());
    EXPECT_NE(::kill(pid, 0), 0);

    // Times are announced short of the limit (90 of 100 ms, 59 of 60 s); no
    // game clock is timeout_match 0 and time_left 2^31 - 1.
    // Memory too: 768 MiB of the default 1024 MB (protocol/GOMOCUP.md).
    const std::string memory =
        std::to_string(session::gomocup::announced_memory_bytes(session::kDefaultMemoryMb));
    EXPECT_EQ(memory, "805306368");
    const std::vector<std::string> expected = {
        "ABOUT\\r",
        "START 15\\r",
        "INFO timeout_turn 90\\r",
        "INFO timeout_match 0\\r",
        "INFO max_memory " + memory + "\\r",
        "INFO game_type 1\\r",
        "INFO rule 1\\r",
        "INFO folder " + folder.string() + "\\r",
        "INFO time_left 2147483647\\r",
        "TURN 7,7\\r",
        "INFO time_left 2147483647\\r",
        "TURN 0,0\\r",
        "RESTART\\r",
        "INFO timeout_turn 59000\\r",
        "INFO timeout_match 59000\\r",
        "INFO max_memory " + memory + "\\r",
        "INFO game_type 1\\r",
        "INFO rule 0\\r",
        "INFO folder " + folder.string() + "\\r",
        "INFO time_left 59000\\r",
        "BOARD\\r",
        "0,0,1\\r",
        "1,1,2\\r",
        "2,2,1\\r",
        "3,3,2\\r",
        "DONE\\r",
        "END\\r",
    };
    EXPECT_EQ(lines_of(log), expected);
}

TEST(GomocupSession, AnEngineWithoutRestartOrAboutGetsAFreshStart) {
    session::BotHost host;
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "brain.log";
    for (const char* mode : {"no-restart", "silent-about"}) {
        fs::remove(log);
        session::BotSpec spec{
            "brain", {bin("bots/pbrain-sample"), "--mode", mode, "--log", log.string()}, {}};
        spec.protocol = session::BotProtocol::kGomocup;
        auto options = quick_options();
        options.startup_limit = scaled(400ms);  // also how long ABOUT is waited for
        auto s = session::make_session(host, spec, options);
        ASSERT_EQ(s->handshake().fault, session::Fault::kNone) << mode;
        EXPECT_EQ(s->identity().name, mode == std::string("no-restart") ? "pbrain-sample" : "");
        const protocol::Go go{
            .move_ms = 100, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
        for (int game = 0; game < 2; ++game) {
            ASSERT_TRUE(s->start_game({"gomoku", 1, {{"size", "15"}, {"move_ms", "100"}}}));
            const auto r = s->request_move({}, go, kAnswerLimit);
            ASSERT_EQ(r.fault, session::Fault::kNone) << mode << ": " << r.detail;
            EXPECT_EQ(r.move, "h8");
        }
        s->quit();
        const auto lines = lines_of(log);
        const auto starts = std::count(lines.begin(), lines.end(), "START 15\\r");
        EXPECT_EQ(starts, mode == std::string("no-restart") ? 2 : 1) << mode;
    }
}

TEST(NboardSession, SetGameThenIncrementalMovesWithPings) {
    session::BotHost host;
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "engine.log";
    auto s = logged_sample(host, "nboard-sample", session::BotProtocol::kNboard, log);
    const auto hs = s->handshake();
    ASSERT_EQ(hs.fault, session::Fault::kNone) << hs.detail;
    EXPECT_EQ(s->identity().name, "nboard-sample");
    ASSERT_TRUE(s->start_game({"reversi", 2, {{"move_ms", "200"}}}));

    const auto game = games::make_game("reversi", {});
    auto state = game->new_initial_state();
    for (const auto& m : kReversiWithPass)
        state->apply(*state->parse_move(m));
    const protocol::Go go{
        .move_ms = 200, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
    auto r = s->request_move({kReversiWithPass}, go, kAnswerLimit);
    ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    const auto mine = state->parse_move(r.move);
    ASSERT_TRUE(mine && state->is_legal(*mine)) << r.move;
    EXPECT_EQ(r.info, (std::vector<std::string>{"status thinking", "nodestats 64 0.001"}));
    state->apply(*mine);
    const std::string reply = state->format_move(state->legal_moves().front());
    auto moves = kReversiWithPass;
    moves.push_back(r.move);
    moves.push_back(reply);
    r = s->request_move({moves}, go, kAnswerLimit);
    ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    s->quit();

    const std::string start = "---------------------------O*------*O---------------------------";
    // The depth follows the move time: 12 at start-up, 8 for 200 ms; then 9,
    // as the engine answered within a sixteenth of the time.
    const std::vector<std::string> expected = {
        "nboard 2",
        "set depth 12",
        "ping 1",
        "set depth 8",
        "set game (;GM[Othello]PC[arena]PB[arena]PW[engine]TY[8]BO[8 " + start +
            " *]B[C4]W[C3]B[E6]W[B4]B[A4]W[A5]B[B2]W[A3]B[PA]W[F4]B[G3];)",
        "ping 2",
        "go",
        "set depth 9",
        "move " + session::nboard::to_nboard(moves[11]),
        "move " + session::nboard::to_nboard(moves[12]),
        "ping 3",
        "go",
        "quit",
    };
    EXPECT_EQ(lines_of(log), expected);
}

// `go depth=` is sent as NBoard's `set depth`; without it nothing is added
// (3 s a move asks for depth 12, the start-up depth).
TEST(NboardSession, GoDepthIsSentAsSetDepth) {
    session::BotHost host;
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "engine.log";
    auto s = logged_sample(host, "nboard-sample", session::BotProtocol::kNboard, log);
    ASSERT_EQ(s->handshake().fault, session::Fault::kNone);
    ASSERT_TRUE(s->start_game({"reversi", 1, {{"move_ms", "3000"}}}));
    const protocol::Go plain{
        .move_ms = 3000, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
    auto r = s->request_move({{}}, plain, kAnswerLimit);
    ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    const protocol::Go deep{
        .move_ms = 3000, .clock_ms = {}, .opp_clock_ms = {}, .depth = 3, .nodes = 5000};
    const auto game = games::make_game("reversi", {});
    auto state = game->new_initial_state();
    state->apply(*state->parse_move(r.move));
    const std::string reply = state->format_move(state->legal_moves().front());
    r = s->request_move({{r.move, reply}}, deep, kAnswerLimit);
    ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    s->quit();
    std::vector<std::string> requests;  // from the first ping on
    for (const auto& line : lines_of(log))
        if (!requests.empty() || line == "ping 1") requests.push_back(line);
    ASSERT_GE(requests.size(), 8u);
    EXPECT_EQ(requests[0], "ping 1");
    EXPECT_TRUE(requests[1].starts_with("set game ")) << requests[1];  // no `set depth`
    EXPECT_EQ(requests[2], "ping 2");
    EXPECT_EQ(requests[3], "go");
    EXPECT_EQ(requests[4], "set depth 3");  // and nothing for nodes=
    EXPECT_TRUE(requests[5].starts_with("move ")) << requests[5];
    EXPECT_TRUE(requests[6].starts_with("move ")) << requests[6];
    EXPECT_EQ(requests[7], "ping 3");
}

// NBoard has no clock: an engine that answers far inside its time is asked
// one ply deeper at its next move, and one that takes over a third of it one
// shallower. nboard-sample --mode deepening thinks 2^(depth - 8) ms: at 1 s
// a move it starts at depth 10 (4 ms) and settles where a move takes a
// sixteenth to a third of the time (depth 14: 64 ms; 13 takes 32 ms, under
// 62.5 ms).
TEST(NboardSession, TheDepthFollowsTheEngineSMeasuredTimes) {
    session::BotHost host;
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "engine.log";
    session::BotSpec spec{
        "engine", {bin("bots/nboard-sample"), "--mode", "deepening", "--log", log.string()}, {}};
    spec.protocol = session::BotProtocol::kNboard;
    auto s = session::make_session(host, spec, quick_options());
    ASSERT_EQ(s->handshake().fault, session::Fault::kNone);
    ASSERT_TRUE(s->start_game({"reversi", 1, {{"move_ms", "1000"}}}));
    const protocol::Go go{
        .move_ms = 1000, .clock_ms = {}, .opp_clock_ms = {}, .depth = {}, .nodes = {}};
    for (int i = 0; i < 8; ++i) {
        const auto r = s->request_move({{}}, go, std::chrono::milliseconds(1000) + kAnswerLimit);
        ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    }
    s->quit();
    std::vector<std::string> depths;
    for (const auto& line : lines_of(log))
        if (line.starts_with("set depth ")) depths.push_back(line.substr(10));
    // On a loaded machine a move may take longer than it thinks, which can
    // only hold the depth back: the first steps are certain, the end is not.
    ASSERT_GE(depths.size(), 4U);
    EXPECT_EQ(depths[0], "12");  // start-up
    EXPECT_EQ(depths[1], "10");  // depth_for(1000)
    EXPECT_EQ(depths[2], "11");
    EXPECT_EQ(depths[3], "12");
    EXPECT_LE(std::stoi(depths.back()), 14);
}

// ---- 3. tournaments --------------------------------------------------------------

struct TournamentCase {
    std::string game, engine, protocol, natives, info_prefix;
};

// Three bots, round robin, two games per pair: every game ends by the rules,
// every move is stored, and each of the engine's moves carries its chatter.
// The tolerance is wide (and scaled, see timing.hpp): this checks the rules
// and the translation, not the timing.
void run_tournament(const TournamentCase& c) {
    TempDir dir("foreign_test");
    const fs::path db = dir.path() / "results.db";
    const fs::path config = dir.write(
        "t.yaml", "name: foreign-" + c.game + "\ngame: { name: " + c.game +
                      " }\ntime: { move_ms: 80, tolerance_ms: " + scaled_ms(500) +
                      " }\nschedule: { type: round-robin, games_per_pair: "
                      "2 }\nconcurrency: 2\ndatabase: " +
                      db.string() + "\nbots:\n  - { name: engine, command: " + bin(c.engine) +
                      ", protocol: " + c.protocol + " }\n" + c.natives);
    const auto start = std::chrono::steady_clock::now();
    const auto r = testing::run_arena(dir.path(), {"run", config.string()});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    std::cout << "[ time     ] " << c.game << " tournament: "
              << std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count()
              << " ms\n";

    EXPECT_EQ(scalar(db, "SELECT count(*) FROM games"), "6");
    EXPECT_EQ(query(db, "SELECT termination, detail FROM games WHERE termination != 'normal'"),
              std::vector<std::vector<std::string>>{});
    EXPECT_EQ(query(db,
                    "SELECT g.id, g.plies, count(m.ply) FROM games g LEFT JOIN moves m ON "
                    "m.game = g.id GROUP BY g.id HAVING g.plies != count(m.ply) OR g.plies < 5"),
              std::vector<std::vector<std::string>>{});
    EXPECT_EQ(scalar(db, "SELECT protocol FROM bots WHERE name = 'engine'"), c.protocol);
    // The engine's own moves (not the arena's forced passes) and their info lines.
    const std::string engine_moves =
        "SELECT m.info FROM moves m JOIN games g ON g.id = m.game JOIN bots b ON b.id = "
        "CASE m.side WHEN 1 THEN g.first_bot ELSE g.second_bot END WHERE b.name = 'engine' AND "
        "m.by_arena = 0";
    const auto infos = query(db, engine_moves);
    EXPECT_GE(infos.size(), 6u);
    for (const auto& row : infos)
        EXPECT_TRUE(row[0].starts_with(c.info_prefix)) << row[0];
}

TEST(ForeignTournament, GomocupBrainAgainstNativeBots) {
    run_tournament({"gomoku", "bots/pbrain-sample", "gomocup",
                    "  - { name: random, command: " + bin("bots/random") +
                        " --game gomoku }\n  - { name: minimax, command: " +
                        bin("bots/gomoku-minimax") + " }\n",
                    "MESSAGE sample: "});
}

TEST(ForeignTournament, NboardEngineAgainstNativeBots) {
    run_tournament({"reversi", "bots/nboard-sample", "nboard",
                    "  - { name: random, command: " + bin("bots/random") +
                        " --game reversi }\n  - { name: greedy, command: " +
                        bin("bots/reversi-greedy") + " }\n",
                    "status thinking\nnodestats "});
}

// ---- 4. misbehaving engines ------------------------------------------------------

struct Case {
    std::string label;
    std::string protocol;  // gomocup or nboard
    std::string mode;      // the engine's --mode and flags
    int move_ms = 0;       // arena match --move-ms, before scaling (timing.hpp)
    std::string ending;    // the termination of both games
    // A part of the detail of both games; "@MOVE@" stands for the move limit
    // with its 10 ms tolerance, "@STARTUP@" for the start-up limit (in ms).
    std::string detail;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.label;
}

class MisbehavingEngine : public ::testing::TestWithParam<Case> {};

// Two games (the engine first, then second) against the random bot. The
// limits scale with the build (timing.hpp), and so do the details that name
// them.
TEST_P(MisbehavingEngine, IsJudgedLikeANativeBotLeavingNothingBehind) {
    const Case& c = GetParam();
    const bool gomocup = c.protocol == "gomocup";
    const std::string game = gomocup ? "gomoku" : "reversi";
    const std::string engine = bin(gomocup ? "bots/pbrain-sample" : "bots/nboard-sample");
    const auto move_ms = scaled(std::chrono::milliseconds{c.move_ms}).count();
    const auto startup_ms = scaled(500ms).count();
    std::string detail = c.detail;
    for (const auto& [name, value] : {std::pair<std::string, std::int64_t>{"@MOVE@", move_ms + 10},
                                      {"@STARTUP@", startup_ms}}) {
        if (const auto at = detail.find(name); at != std::string::npos)
            detail.replace(at, name.size(), std::to_string(value));
    }
    const auto marker = unique_marker();
    TempDir dir("foreign_test");
    const auto start = std::chrono::steady_clock::now();
    const auto r = testing::run_arena(
        dir.path(), {"match", "--game", game, "--games", "2", "--move-ms", std::to_string(move_ms),
                     "--startup-ms", std::to_string(startup_ms), "--protocol1", c.protocol,
                     "bad=" + engine + " --tag " + marker + " --mode " + c.mode,
                     "good=" + bin("bots/random") + " --game " + game});
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_LT(took, scaled(10s));
    std::vector<std::string> games;
    std::istringstream out(r.out);
    for (std::string line; std::getline(out, line);)
        if (line.starts_with("game ")) games.push_back(line);
    ASSERT_EQ(games.size(), 2u) << r.out;
    for (const auto& line : games) {
        EXPECT_NE(line.find("  " + c.ending + "  "), std::string::npos) << line;
        if (c.ending != "normal") {
            const bool first = line.find(": bad vs") != std::string::npos;
            EXPECT_NE(line.find(first ? "  0-1  " : "  1-0  "), std::string::npos) << line;
            EXPECT_NE(line.find("(bad: " + detail), std::string::npos) << line;
        }
    }
    EXPECT_EQ(survivors(marker), std::vector<int>{}) << r.out;
    std::cout << "[ ending   ] " << c.label << ": " << games[0] << "\n";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MisbehavingEngine,
    ::testing::Values(Case{"gomocup_crash", "gomocup", "crash --at-ply 4", 1000, "crash",
                           "exited: signal 11 (SIGSEGV)"},
                      Case{"gomocup_hang", "gomocup", "hang --at-ply 4", 150, "timeout",
                           "no move within @MOVE@ ms"},
                      Case{"gomocup_exit_at_start", "gomocup", "start-exit", 200, "startup",
                           "exited during start-up: exit 3"},
                      Case{"gomocup_hang_at_start", "gomocup", "start-hang", 200, "startup",
                           "no OK to START 15 within @STARTUP@ ms"},
                      Case{"gomocup_start_error", "gomocup", "start-error", 200, "startup",
                           "answered 'ERROR unsupported size or other error' to START 15"},
                      Case{"gomocup_occupied_cell", "gomocup", "illegal --at-ply 2", 200, "illegal",
                           "illegal move '"},
                      Case{"gomocup_off_board", "gomocup", "off-board", 200, "illegal",
                           "not a move of this game: '99,99'"},
                      // An unknown line is recorded, not judged: the move
                      // is still awaited.
                      Case{"gomocup_garbage", "gomocup", "garbage", 200, "timeout",
                           "no move within @MOVE@ ms (its last line was not a move: 'hello "
                           "arena')"},
                      Case{"gomocup_move_while_not_on_move", "gomocup", "twice --at-ply 2", 200,
                           "protocol", "line while not on move: '"},
                      Case{"gomocup_no_restart", "gomocup", "no-restart", 200, "normal", ""},
                      // SUGGEST x,y is answered PLAY x,y, as Gomocup does.
                      Case{"gomocup_suggest", "gomocup", "suggest", 200, "normal", ""},
                      Case{"nboard_crash", "nboard", "crash --at-ply 4", 1000, "crash",
                           "exited: signal 11 (SIGSEGV)"},
                      Case{"nboard_hang", "nboard", "hang --at-ply 4", 150, "timeout",
                           "no move within @MOVE@ ms"},
                      Case{"nboard_exit_at_start", "nboard", "start-exit", 200, "startup",
                           "exited during start-up: exit 3"},
                      Case{"nboard_hang_at_start", "nboard", "start-hang", 200, "startup",
                           "no `pong 1` within @STARTUP@ ms"},
                      Case{"nboard_occupied_cell", "nboard", "illegal --at-ply 2", 200, "illegal",
                           "illegal move '"},
                      Case{"nboard_pass_with_moves", "nboard", "pass --at-ply 3", 200, "illegal",
                           "illegal move 'pass'"},
                      // As for Gomocup: recorded, not judged (NBOARD.md).
                      Case{"nboard_garbage", "nboard", "garbage", 200, "timeout",
                           "no move within @MOVE@ ms (its last line was not a move: 'hello "
                           "arena')"},
                      Case{"nboard_spaced_answers", "nboard", "spaced", 200, "normal", ""}),
    [](const auto& param_info) { return param_info.param.label; });

// ---- 5. engines that behave like the community's ------------------------------

// The address space pbrain-community reserves at start, as real engines do:
// the default memory limit counts memory in use, not address space, so the
// reservation must not keep it from starting.
constexpr const char* kReserveMb = "4096";

// pbrain-community budgets each move as Rapfi does (up to timeout_turn less
// 30 ms, from the moment it reads the request), thinks until the budget is
// used and prints status lines that are not part of the protocol. Under the
// default time settings (move_ms 3000, tolerance_ms 10) every game ends by
// the rules, the status lines are stored with the moves, no move comes close
// enough to the limit to be warned about, and the config file the engine
// keeps in its INFO folder outlives its processes (restart: per-game gives
// each game a fresh one).
TEST(CommunityEngine, PlaysCleanGamesUnderTheDefaultTimeSettings) {
    TempDir dir("foreign_test");
    const fs::path db = dir.path() / "results.db";
    const fs::path config = dir.write(
        "t.yaml",
        "name: community\ngame: { name: gomoku }\nconcurrency: 1\ndatabase: " + db.string() +
            "\nbots:\n  - { name: engine, command: " + bin("bots/pbrain-community") +
            " --reserve-mb " + kReserveMb +
            ", protocol: gomocup, restart: per-game }\n  - { name: random, command: " +
            bin("bots/random") + " --game gomoku }\n");
    const auto r = testing::run_arena(dir.path(), {"run", config.string()});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.err.find("warning: engine"), std::string::npos) << r.err;

    EXPECT_EQ(scalar(db, "SELECT count(*) FROM games"), "2");
    EXPECT_EQ(query(db, "SELECT termination, detail FROM games WHERE termination != 'normal'"),
              testing::Rows{});
    // The engine's moves, in order: it used its budget (2700 - 30 ms) and
    // stayed under the limit of 3000 ms.
    const auto moves = query(db,
                             "SELECT m.game, m.time_us, m.info FROM moves m JOIN games g ON g.id = "
                             "m.game JOIN bots b ON b.id = CASE m.side WHEN 1 THEN g.first_bot "
                             "ELSE g.second_bot END WHERE b.name = 'engine' AND m.by_arena = 0 "
                             "ORDER BY m.game, m.ply");
    ASSERT_GE(moves.size(), 6u);
    std::string first_game;
    int game_index = 0;
    for (const auto& row : moves) {
        const auto us = std::stoll(row[1]);
        EXPECT_GE(us, 2'600'000) << row[2];
        EXPECT_LT(us, 3'000'000) << row[2];
        EXPECT_NE(row[2].find("ev +v13 nd "), std::string::npos) << row[2];
        if (row[0] != first_game) {
            // The first move of each game (each a fresh process) reports the config file.
            first_game = row[0];
            ++game_index;
            EXPECT_TRUE(row[2].starts_with(game_index == 1 ? "MESSAGE config created starts=1"
                                                           : "MESSAGE config read starts=2"))
                << row[2];
        } else {
            EXPECT_EQ(row[2].find("MESSAGE config"), std::string::npos) << row[2];
        }
    }
    EXPECT_EQ(game_index, 2);
}

// The engine's status lines at a short move time: a line that is neither a
// move nor a known message never ends a game; it is stored with the move.
TEST(CommunityEngine, StatusLinesAreRecordedNotJudged) {
    TempDir dir("foreign_test");
    const auto r = testing::run_arena(
        dir.path(),
        {"match", "--game", "gomoku", "--games", "2", "--move-ms", scaled_ms(300), "--protocol1",
         "gomocup", "engine=" + bin("bots/pbrain-community") + " --reserve-mb " + kReserveMb,
         "random=" + bin("bots/random") + " --game gomoku", "--db",
         (dir.path() / "m.db").string()});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const fs::path db = dir.path() / "m.db";
    EXPECT_EQ(query(db, "SELECT termination, detail FROM games WHERE termination != 'normal'"),
              testing::Rows{});
    EXPECT_NE(scalar(db, "SELECT count(*) FROM moves WHERE info LIKE '%ev +v13 nd %'"), "0");
}

// An NBoard engine that prints free-form lines while it searches, as NTest
// does (` 12 (52 empty)\tB5/-7.60\t...`), which NBoard's GUI ignores: they
// are stored with the move, never judged (issue 41 item 21).
TEST(CommunityEngine, NboardFreeFormSearchLinesAreRecordedNotJudged) {
    TempDir dir("foreign_test");
    const auto r =
        testing::run_arena(dir.path(), {"match", "--game", "reversi", "--games", "2", "--move-ms",
                                        scaled_ms(300), "--protocol1", "nboard",
                                        "engine=" + bin("bots/nboard-sample") + " --mode chatty",
                                        "random=" + bin("bots/random") + " --game reversi", "--db",
                                        (dir.path() / "m.db").string()});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const fs::path db = dir.path() / "m.db";
    EXPECT_EQ(query(db, "SELECT termination, detail FROM games WHERE termination != 'normal'"),
              testing::Rows{});
    EXPECT_NE(scalar(db, "SELECT count(*) FROM moves WHERE info LIKE '%empty)%elapsed%'"), "0");
}

// ---- 6. close calls ---------------------------------------------------------------

TEST(CloseCalls, CountsMovesWithinAFewMillisecondsOfTheirBudget) {
    using match::is_close_call;
    using std::chrono::microseconds;
    EXPECT_FALSE(is_close_call(microseconds{2'850'000}, 3000ms));  // the reference bots' budget
    EXPECT_FALSE(is_close_call(microseconds{2'975'000}, 3000ms));
    EXPECT_TRUE(is_close_call(microseconds{2'976'000}, 3000ms));
    EXPECT_TRUE(is_close_call(microseconds{3'005'000}, 3000ms));
    EXPECT_TRUE(is_close_call(microseconds{39'000}, 40ms));
    EXPECT_FALSE(is_close_call(microseconds{32'000}, 40ms));  // the reference bots' budget
    EXPECT_FALSE(is_close_call(microseconds{5'000}, 0ms));

    match::TimeControl tc;
    tc.move = 1000ms;
    match::CloseCallCounter counter(tc);
    const auto ms = [](int n) { return std::chrono::microseconds{n * 1000}; };
    // "slow" takes 990 ms each move, "fast" 10 ms; the opening move is the arena's.
    counter.add("slow", "fast",
                {{1, ms(0), true},
                 {2, ms(10), false},
                 {1, ms(990), false},
                 {2, ms(10), false},
                 {1, ms(990), false},
                 {2, ms(10), false},
                 {1, ms(500), false}});
    EXPECT_EQ(counter.counts().at("slow").moves, 3);
    EXPECT_EQ(counter.counts().at("slow").close, 2);
    EXPECT_EQ(counter.counts().at("fast").close, 0);
    const auto warnings = counter.warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].first, "slow");
    EXPECT_EQ(match::close_call_warning("sl\x1bow", warnings[0].second, "hint"),
              "warning: sl\\x1bow answered within 5 % (at most 25 ms) of its time limit on 2 of 3 "
              "moves; on a "
              "busy machine it will lose on time (hint)");

    // With a game clock the budget is what is left on it.
    match::TimeControl clock;
    clock.move = 0ms;
    clock.game = 1000ms;
    match::CloseCallCounter on_clock(clock);
    on_clock.add("a", "b", {{1, ms(500), false}, {2, ms(1), false}, {1, ms(480), false}});
    EXPECT_EQ(on_clock.counts().at("a").close, 1);  // 480 of the 500 ms left
    EXPECT_EQ(on_clock.counts().at("a").moves, 2);
    EXPECT_TRUE(on_clock.warnings().empty());  // one close call is not a habit
}

// Time odds: a bot with its own time control is judged against its own
// budget, whichever side it plays.
TEST(CloseCalls, ABotWithItsOwnTimeIsJudgedByIt) {
    match::TimeControl tc;
    tc.move = 1000ms;
    match::CloseCallCounter counter(tc);
    match::TimeControl quick;
    quick.move = 50ms;
    counter.set_time("quick", quick);
    const auto ms = [](int n) { return std::chrono::microseconds{n * 1000}; };
    // 49 ms of 50 ms is a close call; of 1000 ms it is not.
    counter.add("other", "quick", {{1, ms(49), false}, {2, ms(49), false}});
    counter.add("quick", "other", {{1, ms(49), false}, {2, ms(49), false}});
    EXPECT_EQ(counter.counts().at("quick").close, 2);
    EXPECT_EQ(counter.counts().at("other").close, 0);
}

TEST(CloseCalls, ArenaMatchAndRunWarnAboutABotThatUsesItsWholeTime) {
    TempDir dir("foreign_test");
    const auto move_ms = scaled(200ms).count();
    const std::string slow =
        bin("bots/misbehave") + " --mode sleep --sleep-ms " + std::to_string(move_ms * 99 / 100);
    const auto r = testing::run_arena(
        // A small board: the slow bot takes nearly its whole limit on every move.
        dir.path(), {"match", "--game", "connect4", "--rows", "4", "--cols", "5", "--games", "2",
                     "--move-ms", std::to_string(move_ms), "--tolerance-ms", scaled_ms(300),
                     "slow=" + slow, "fast=" + bin("bots/random") + " --game connect4"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("warning: slow answered within 5 % (at most 25 ms) of its time limit on "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("raise --tolerance-ms"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("warning: fast"), std::string::npos) << r.err;

    const fs::path config = dir.write(
        "t.yaml", "name: close\ngame: { name: connect4, rows: 4, cols: 5 }\ntime: { move_ms: " +
                      std::to_string(move_ms) + ", tolerance_ms: " + scaled_ms(300) +
                      " }\nconcurrency: 1\ndatabase: " + (dir.path() / "r.db").string() +
                      "\nbots:\n  - { name: slow, command: " + slow +
                      " }\n  - { name: fast, command: " + bin("bots/random") +
                      " --game connect4 }\n");
    const auto run = testing::run_arena(dir.path(), {"run", config.string()});
    ASSERT_EQ(run.status, 0) << run.out << run.err;
    EXPECT_NE(
        run.err.find("warning: slow answered within 5 % (at most 25 ms) of its time limit on "),
        std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("raise tolerance_ms"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("warning: fast"), std::string::npos) << run.err;
}

// A reply that is not a move gets the hint `arena check-bot` gives, in the
// game lines of `arena match` and `arena run` (issue 41 item 18): the `move`
// keyword, what a move of the game looks like, where debug output goes.
TEST(MoveHints, ArenaMatchAndRunSayWhatAMoveLooksLike) {
    TempDir dir("foreign_test");
    const std::string misbehave = bin("bots/misbehave");
    const std::string move_ms = scaled_ms(500);
    const std::string keyword =
        "': the `move` keyword is missing; a move is `move <column>` (1..9, "
        "not full)";
    const std::string notation =
        "not a move of this game: 'zz99'; a move is `move <column>` (1..9, not full)";
    const std::string debug =
        "invalid line: 'hello arena': only `info`, `debug` and `move` lines may come on stdout; "
        "write debug output to stderr, or start such lines with `debug`";
    const auto match = testing::run_arena(
        dir.path(), {"match", "--game", "connect4", "--cols", "9", "--games", "2", "--move-ms",
                     move_ms, "nokw=" + misbehave + " --mode no-keyword",
                     "notation=" + misbehave + " --mode bad-notation"});
    ASSERT_EQ(match.status, 0) << match.out << match.err;
    EXPECT_NE(match.out.find("(nokw: invalid line: '"), std::string::npos) << match.out;
    EXPECT_NE(match.out.find(keyword), std::string::npos) << match.out;
    EXPECT_NE(match.out.find("(notation: " + notation + ")"), std::string::npos) << match.out;

    const fs::path config = dir.write(
        "t.yaml", "name: hints\ngame: { name: connect4, cols: 9 }\ntime: { move_ms: " + move_ms +
                      " }\nconcurrency: 1\ndatabase: " + (dir.path() / "r.db").string() +
                      "\nbots:\n  - { name: notation, "
                      "command: " +
                      misbehave +
                      " --mode bad-notation }\n  - { name: "
                      "chatty, command: " +
                      misbehave + " --mode garbage }\n");
    const auto run = testing::run_arena(dir.path(), {"run", config.string()});
    ASSERT_EQ(run.status, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("(notation: " + notation + ")"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("(chatty: " + debug), std::string::npos) << run.out;
}

// A foreign protocol that cannot play the game is refused before anything runs.
TEST(ForeignCli, ProtocolForTheWrongGameIsAUsageError) {
    TempDir dir("foreign_test");
    const auto r =
        testing::run_arena(dir.path(), {"match", "--game", "connect4", "--protocol2", "gomocup",
                                        bin("bots/random"), bin("bots/pbrain-sample")});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("bot 'pbrain-sample': protocol 'gomocup' plays only gomoku"),
              std::string::npos)
        << r.err;
    const auto bad = testing::run_arena(
        dir.path(),
        {"match", "--game", "gomoku", "--protocol", "uci", bin("bots/random"), bin("bots/random")});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("unknown protocol 'uci'"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace arena
