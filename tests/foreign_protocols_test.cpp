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
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/session/gomocup_session.hpp"
#include "arena/session/nboard_session.hpp"
#include "arena_process.hpp"
#include "temp_dir.hpp"
#include "timing.hpp"

namespace arena {
namespace {

using arena::testing::TempDir;

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using session::gomocup::Point;
using testing::bin;
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

// Rows of a query, each column as text ("" for NULL).
std::vector<std::vector<std::string>> query(const fs::path& db, const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    sqlite3* handle = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(handle, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
        << sqlite3_errmsg(handle) << "\n"
        << sql;
    while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
            const auto* text = sqlite3_column_text(stmt, i);
            row.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(handle);
    return rows;
}

std::string scalar(const fs::path& db, const std::string& sql) {
    const auto rows = query(db, sql);
    return rows.empty() || rows[0].empty() ? std::string("<none>") : rows[0][0];
}

session::SessionOptions quick_options() {
    session::SessionOptions o;
    o.startup_limit = 3000ms;
    o.quit_grace = 300ms;
    return o;
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

TEST(GomocupSession, SpeaksTheProtocolAndReusesTheProcess) {
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "brain.log";
    session::BotSpec spec{"brain", {bin("bots/pbrain-sample"), "--log", log.string()}, {}};
    spec.protocol = session::BotProtocol::kGomocup;
    auto s = session::make_session(spec, quick_options());
    const auto hs = s->handshake();
    ASSERT_EQ(hs.fault, session::Fault::kNone) << hs.detail;
    EXPECT_EQ(s->identity().name, "pbrain-sample");
    EXPECT_EQ(s->identity().version, "1.0");
    EXPECT_EQ(s->identity().author, "arena tests");

    // Game 1: the engine plays second, 100 ms per move, exact five.
    ASSERT_TRUE(
        s->start_game({"gomoku", 2, {{"size", "15"}, {"rule", "exact5"}, {"move_ms", "100"}}}));
    const protocol::Go go{.move_ms = 100, .clock_ms = {}, .opp_clock_ms = {}};
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
    const protocol::Go clock_go{.move_ms = 5000, .clock_ms = 60000, .opp_clock_ms = 59000};
    r = s->request_move({{"a1", "b2", "c3", "d4"}}, clock_go, 5010ms);
    ASSERT_EQ(r.fault, session::Fault::kNone) << r.detail;
    const int pid = s->pid();
    s->quit();
    EXPECT_FALSE(s->alive());
    EXPECT_NE(::kill(pid, 0), 0);

    const std::string memory = std::to_string(session::kDefaultMemoryMb * 1024 * 1024);
    const std::vector<std::string> expected = {
        "ABOUT\\r",
        "START 15\\r",
        "INFO timeout_turn 100\\r",
        "INFO timeout_match 2147483647\\r",
        "INFO max_memory " + memory + "\\r",
        "INFO game_type 1\\r",
        "INFO rule 1\\r",
        "INFO timeout_turn 100\\r",
        "INFO time_left 2147483647\\r",
        "TURN 7,7\\r",
        "INFO timeout_turn 100\\r",
        "INFO time_left 2147483647\\r",
        "TURN 0,0\\r",
        "RESTART\\r",
        "INFO timeout_turn 60000\\r",
        "INFO timeout_match 60000\\r",
        "INFO max_memory " + memory + "\\r",
        "INFO game_type 1\\r",
        "INFO rule 0\\r",
        "INFO timeout_turn 5000\\r",
        "INFO time_left 60000\\r",
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
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "brain.log";
    for (const char* mode : {"no-restart", "silent-about"}) {
        fs::remove(log);
        session::BotSpec spec{
            "brain", {bin("bots/pbrain-sample"), "--mode", mode, "--log", log.string()}, {}};
        spec.protocol = session::BotProtocol::kGomocup;
        auto options = quick_options();
        options.startup_limit = scaled(400ms);  // also how long ABOUT is waited for
        auto s = session::make_session(spec, options);
        ASSERT_EQ(s->handshake().fault, session::Fault::kNone) << mode;
        EXPECT_EQ(s->identity().name, mode == std::string("no-restart") ? "pbrain-sample" : "");
        const protocol::Go go{.move_ms = 100, .clock_ms = {}, .opp_clock_ms = {}};
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
    TempDir dir("foreign_test");
    const fs::path log = dir.path() / "engine.log";
    session::BotSpec spec{"engine", {bin("bots/nboard-sample"), "--log", log.string()}, {}};
    spec.protocol = session::BotProtocol::kNboard;
    auto s = session::make_session(spec, quick_options());
    const auto hs = s->handshake();
    ASSERT_EQ(hs.fault, session::Fault::kNone) << hs.detail;
    EXPECT_EQ(s->identity().name, "nboard-sample");
    ASSERT_TRUE(s->start_game({"reversi", 2, {{"move_ms", "200"}}}));

    const auto game = games::make_game("reversi", {});
    auto state = game->new_initial_state();
    for (const auto& m : kReversiWithPass)
        state->apply(*state->parse_move(m));
    const protocol::Go go{.move_ms = 200, .clock_ms = {}, .opp_clock_ms = {}};
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
    const std::vector<std::string> expected = {
        "nboard 2",
        "set depth 12",
        "ping 1",
        "set game (;GM[Othello]PC[arena]PB[arena]PW[engine]TY[8]BO[8 " + start +
            " *]B[C4]W[C3]B[E6]W[B4]B[A4]W[A5]B[B2]W[A3]B[PA]W[F4]B[G3];)",
        "ping 2",
        "go",
        "move " + session::nboard::to_nboard(moves[11]),
        "move " + session::nboard::to_nboard(moves[12]),
        "ping 3",
        "go",
        "quit",
    };
    EXPECT_EQ(lines_of(log), expected);
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
                      Case{"gomocup_garbage", "gomocup", "garbage", 200, "protocol",
                           "invalid line: 'hello arena'"},
                      Case{"gomocup_move_while_not_on_move", "gomocup", "twice --at-ply 2", 200,
                           "protocol", "line while not on move: '"},
                      Case{"gomocup_no_restart", "gomocup", "no-restart", 200, "normal", ""},
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
                      Case{"nboard_garbage", "nboard", "garbage", 200, "protocol",
                           "invalid line: 'hello arena'"},
                      Case{"nboard_spaced_answers", "nboard", "spaced", 200, "normal", ""}),
    [](const auto& param_info) { return param_info.param.label; });

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
