// `arena play` at a terminal without a terminal (terminal/): the notation
// help, the person's input over a pipe (commands, refusals, leaving, time
// running out), each ply as printed, the lines before and after a game, and
// a bot refused for the game it was asked to play.

#include "arena/terminal/terminal_play.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/terminal/terminal_person.hpp"
#include "arena/tournament/bot_argument.hpp"

namespace arena::terminal {
namespace {

// A pipe whose read end a TerminalPerson reads.
class Pipe {
  public:
    Pipe() {
        if (::pipe(fds_) != 0) throw std::runtime_error("pipe");
    }
    ~Pipe() {
        ::close(fds_[0]);
        close_input();
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    [[nodiscard]] int read_end() const { return fds_[0]; }
    void type(const std::string& text) {
        ASSERT_EQ(::write(fds_[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
    }
    void close_input() {
        if (fds_[1] >= 0) ::close(fds_[1]);
        fds_[1] = -1;
    }

  private:
    int fds_[2] = {-1, -1};
};

std::string error_of(const session::BotSpec& bot, const std::string& game,
                     const games::Params& params) {
    try {
        tournament::check_bot_game(bot, game, params);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

record::MoveRecord ply(std::string move, int player, std::chrono::microseconds time = {},
                       std::vector<std::string> info = {}) {
    record::MoveRecord m;
    m.move = std::move(move);
    m.player = player;
    m.time = time;
    m.info = std::move(info);
    return m;
}

PlaySetup connect4_setup() {
    PlaySetup setup;
    setup.game = "connect4";
    setup.params = games::realize("connect4", {}, 1);
    setup.time.move = std::chrono::milliseconds{500};
    setup.bot.name = "c4\x1b";
    setup.bot.argv = {"/bin/c4"};
    setup.person = "ann";
    return setup;
}

TEST(TerminalPlay, NotationHelpOfEachGame) {
    const auto c4 = games::make_game("connect4", {{"cols", "9"}});
    EXPECT_EQ(notation_help("connect4", *c4->new_initial_state()),
              "type a column number, 1 (left) to 9");
    const auto gomoku = games::make_game("gomoku", {});
    EXPECT_EQ(notation_help("gomoku", *gomoku->new_initial_state()),
              "type a cell as column letter and row number, a1 at the bottom left (e.g. c3)");
    const auto reversi = games::make_game("reversi", {});
    EXPECT_EQ(notation_help("reversi", *reversi->new_initial_state()),
              "type a cell as column letter and row number, a1 at the top left (e.g. d3)");
}

// A person at the start of a connect4 game, typing into a pipe.
class TerminalInput : public ::testing::Test {
  protected:
    const std::unique_ptr<games::Game> game_ = games::make_game("connect4", {});
    const std::unique_ptr<games::State> state_ = game_->new_initial_state();
    Pipe pipe_;
    std::ostringstream out_;
};

TEST_F(TerminalInput, ThePersonTypesCommandsThenAMove) {
    TerminalPerson person(out_, "connect4", 2, "bot", pipe_.read_end());
    pipe_.type("\n  help \nboard\n 4 \n");
    EXPECT_EQ(person.next_move(*state_, "", std::nullopt, {}), "4");
    const std::string board = state_->render();
    EXPECT_EQ(out_.str(), "\n" + board +
                              "your move (O): your move (O): type a column number, 1 (left) to 7; "
                              "'board' shows the board, 'quit' leaves the game\n"
                              "your move (O): " +
                              board + "your move (O): ");
    out_.str("");
    pipe_.type("quit\n");
    EXPECT_EQ(person.next_move(*state_, "illegal move '9'", std::nullopt, {}), std::nullopt);
    EXPECT_EQ(out_.str(),
              "refused: illegal move '9' (type a column number, 1 (left) to 7)\n"
              "your move (O): ");
    EXPECT_TRUE(person.left());
}

TEST_F(TerminalInput, TheEndOfInputLeavesAndADeadlineDoesNot) {
    TerminalPerson person(out_, "connect4", 1, "bot", pipe_.read_end());
    const auto soon = std::chrono::steady_clock::now() + std::chrono::milliseconds{30};
    EXPECT_EQ(person.next_move(*state_, "", soon, {}), std::nullopt);
    EXPECT_FALSE(person.left());
    pipe_.type("5");  // a last line without a newline
    pipe_.close_input();
    EXPECT_EQ(person.next_move(*state_, "", std::nullopt, {}), "5");
    EXPECT_EQ(person.next_move(*state_, "", std::nullopt, {}), std::nullopt);
    EXPECT_TRUE(person.left());
}

TEST(TerminalPlay, EachPlyIsPrintedWithTheBotsInfoEscaped) {
    const auto game = games::make_game("connect4", {});
    auto state = game->new_initial_state();
    std::ostringstream out;
    TerminalPerson person(out, "connect4", 1, "b\x07", STDIN_FILENO);
    state->apply(*state->parse_move("4"));
    person.moved(*state, ply("4", 1, std::chrono::microseconds{900}));
    state->apply(*state->parse_move("3"));
    person.moved(*state, ply("3", 2, std::chrono::microseconds{1250}, {"depth 3", "pv\x1b"}));
    auto pass = ply("pass", 1);
    pass.by_arena = true;
    person.moved(*state, pass);
    EXPECT_EQ(out.str(),
              "1. you: 4\n"
              "2. b\\x07: 3  1.2 ms\n   info depth 3\n   info pv\\x1b\n"
              "2. you: pass  (played by the arena)\n");
}

TEST(TerminalPlay, IntroSaysWhoPlaysWhatUnderWhichClocks) {
    auto setup = connect4_setup();
    const auto game = games::make_game(setup.game, setup.params);
    EXPECT_EQ(intro_text(setup, *game),
              "arena play: you (ann) play X, first, against c4\\x1b at connect4 "
              "rows=6 cols=7 connect=4; c4\\x1b has 500 ms a move, you have no limit.\n"
              "type a column number, 1 (left) to 7; 'help' for help, 'quit' to leave.\n");
    setup.human_side = 2;
    setup.human_limit = std::chrono::milliseconds{9000};
    EXPECT_NE(intro_text(setup, *game).find("play O, second, against"), std::string::npos);
    EXPECT_NE(intro_text(setup, *game).find("you have 9000 ms."), std::string::npos);
}

TEST(TerminalPlay, ResultFromThePersonsSideWithTheBotsStderrAfterItsFault) {
    const auto setup = connect4_setup();
    const auto game = games::make_game(setup.game, setup.params);
    record::GameRecord won;
    for (const char* m : {"1", "2", "1", "2", "1", "2", "1"})
        won.moves.push_back(ply(m, 0));
    won.outcome = games::Outcome::kWin1;
    auto state = game->new_initial_state();
    for (const auto& m : won.moves)
        state->apply(*state->parse_move(m.move));
    EXPECT_EQ(result_text(setup, *game, won),
              "\n" + state->render() + "result 1-0: you win (normal)\n");

    record::GameRecord crashed;
    crashed.outcome = games::Outcome::kWin1;
    crashed.termination = record::Termination::kCrash;
    crashed.detail = "exit 3";
    crashed.stderr_logs[1] = "boom\n";
    EXPECT_EQ(result_text(setup, *game, crashed),
              "\n" + game->new_initial_state()->render() +
                  "result 1-0: you win (crash: exit 3)\nc4\\x1b's stderr: boom\n");
    crashed.outcome = games::Outcome::kWin2;
    crashed.stderr_logs[0] = "mine\n";
    EXPECT_EQ(result_text(setup, *game, crashed), "\n" + game->new_initial_state()->render() +
                                                      "result 0-1: c4\\x1b wins (crash: exit 3)\n");
}

// What a setup step throws; "" when nothing.
template <class Step>
std::string problem_of(const Step& step) {
    try {
        step();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

TEST(TerminalPlay, TheSetupSeatsThePersonSetsTheClocksAndDrawsTheBoard) {
    PlaySetup setup = connect4_setup();
    seat_person(setup, "second");
    EXPECT_EQ(setup.human_side, 2);
    seat_person(setup, "first");
    EXPECT_EQ(setup.human_side, 1);
    EXPECT_EQ(problem_of([&] { seat_person(setup, "red"); }),
              "--color must be first or second, not 'red'");
    setup.person = "";
    EXPECT_EQ(problem_of([&] { seat_person(setup, "first"); }), "--name must not be empty");
    setup.person = "c4\x1b";
    EXPECT_EQ(problem_of([&] { seat_person(setup, "first"); }),
              "the bot is also called 'c4\x1b': choose another --name, or name the bot "
              "(name=command)");

    using std::chrono::milliseconds;
    set_clocks(setup, milliseconds{300}, milliseconds{20}, milliseconds{5000});
    EXPECT_EQ(setup.time.move, milliseconds{300});
    EXPECT_EQ(setup.time.tolerance, milliseconds{20});
    EXPECT_EQ(setup.human_limit, milliseconds{5000});
    EXPECT_EQ(
        problem_of([&] { set_clocks(setup, milliseconds{0}, milliseconds{0}, milliseconds{0}); }),
        "--move-ms must be positive");
    EXPECT_EQ(
        problem_of([&] { set_clocks(setup, milliseconds{1}, milliseconds{0}, milliseconds{-1}); }),
        "--human-ms must not be negative");

    // A family of boards is drawn from the seed; a board the bot cannot play is refused.
    setup.params = {{"variant", "tsinghua"}};
    settle_board(setup, 7);
    EXPECT_EQ(setup.params, games::realize("connect4", {{"variant", "tsinghua"}}, 7));
    setup.bot.protocol = session::BotProtocol::kGomocup;
    setup.bot.name = "brain";
    setup.params = {};
    EXPECT_EQ(problem_of([&] { settle_board(setup, 1); }),
              "bot 'brain': protocol 'gomocup' plays only gomoku");
}

TEST(TerminalPlay, ABotIsRefusedAGameItsProtocolDoesNotPlay) {
    session::BotSpec bot;
    bot.name = "brain";
    bot.argv = {"/bin/brain"};
    bot.protocol = session::BotProtocol::kGomocup;
    EXPECT_EQ(error_of(bot, "connect4", games::realize("connect4", {}, 1)),
              "bot 'brain': protocol 'gomocup' plays only gomoku");
    EXPECT_EQ(error_of(bot, "gomoku", games::realize("gomoku", {}, 1)), "");
    session::BotSpec library;
    library.name = "lib";
    library.argv = {"/opt/arena-so-host", "lib.so"};
    EXPECT_EQ(error_of(library, "connect4", {{"rows", "6"}, {"connect", "5"}}),
              "bot 'lib': protocol 'tsinghua-so' plays four in a row, not connect=5");
    EXPECT_EQ(error_of(library, "connect4", {{"rows", "6"}}), "");
}

}  // namespace
}  // namespace arena::terminal
