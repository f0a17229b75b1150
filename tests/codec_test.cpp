// Protocol v1 codec: formatting, parsing and their round trips.

#include "protocol/codec.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace arena::protocol {
namespace {

using Kind = BotLine::Kind;

// Parses `line` and returns the command as T, failing the test when it is
// not one.
template <class T>
T parse_as(std::string_view line) {
    const auto parsed = parse_arena_command(line);
    if (!parsed) {
        ADD_FAILURE() << "did not parse: \"" << line << "\"";
        return T{};
    }
    const T* command = std::get_if<T>(&*parsed);
    if (command == nullptr) {
        ADD_FAILURE() << "parsed as another command: \"" << line << "\"";
        return T{};
    }
    return *command;
}

// format(parse(line)) == line for a canonical line.
void expect_canonical(std::string_view line) {
    const auto parsed = parse_arena_command(line);
    ASSERT_TRUE(parsed.has_value()) << line;
    EXPECT_EQ(format(*parsed), line);
}

// ---- helpers ----------------------------------------------------------------

TEST(SplitWords, SpacesAndTabs) {
    EXPECT_EQ(split_words("a b\tc  \t d"), (std::vector<std::string_view>{"a", "b", "c", "d"}));
    EXPECT_EQ(split_words("  lead and trail \t"),
              (std::vector<std::string_view>{"lead", "and", "trail"}));
    EXPECT_TRUE(split_words("").empty());
    EXPECT_TRUE(split_words(" \t ").empty());
}

TEST(SplitWords, OtherControlCharactersAreNotSeparators) {
    EXPECT_EQ(split_words("a\rb\nc"), (std::vector<std::string_view>{"a\rb\nc"}));
}

TEST(ParseInt, AcceptsPlainDecimal) {
    EXPECT_EQ(parse_int("0"), 0);
    EXPECT_EQ(parse_int("42"), 42);
    EXPECT_EQ(parse_int("-17"), -17);
    EXPECT_EQ(parse_int("-0"), 0);
    EXPECT_EQ(parse_int("007"), 7);
}

TEST(ParseInt, Limits) {
    EXPECT_EQ(parse_int("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(parse_int("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(parse_int("9223372036854775808"), std::nullopt);
    EXPECT_EQ(parse_int("-9223372036854775809"), std::nullopt);
    EXPECT_EQ(parse_int("99999999999999999999999999"), std::nullopt);
}

TEST(ParseInt, RejectsAnythingElse) {
    for (const std::string_view text :
         {"", "-", "+1", " 1", "1 ", "1a", "a1", "1.5", "0x10", "--1", "1-", "1e3", "\t1"}) {
        EXPECT_EQ(parse_int(text), std::nullopt) << '"' << text << '"';
    }
}

TEST(FindKey, FirstMatchOrNull) {
    const KeyValues kv{{"rows", "6"}, {"cols", "7"}, {"rows", "8"}};
    ASSERT_NE(find_key(kv, "rows"), nullptr);
    EXPECT_EQ(*find_key(kv, "rows"), "6");
    EXPECT_EQ(*find_key(kv, "cols"), "7");
    EXPECT_EQ(find_key(kv, "connect"), nullptr);
    EXPECT_EQ(find_key({}, "rows"), nullptr);
}

TEST(GameResultText, AllValues) {
    EXPECT_EQ(to_string(GameResult::kWin), "win");
    EXPECT_EQ(to_string(GameResult::kLoss), "loss");
    EXPECT_EQ(to_string(GameResult::kDraw), "draw");
}

// ---- arena -> bot: formatting -----------------------------------------------

TEST(FormatArena, EveryCommand) {
    EXPECT_EQ(format(Hello{}), "arena 1");
    EXPECT_EQ(format(GameStart{"connect4", 2, {{"rows", "6"}, {"cols", "7"}, {"move_ms", "100"}}}),
              "game connect4 player=2 rows=6 cols=7 move_ms=100");
    EXPECT_EQ(format(GameStart{"reversi", 1, {}}), "game reversi player=1");
    EXPECT_EQ(format(Position{}), "position");
    EXPECT_EQ(format(Position{{"4", "4", "3"}}), "position 4 4 3");
    EXPECT_EQ(format(Go{250, std::nullopt, std::nullopt, std::nullopt, std::nullopt}),
              "go move_ms=250");
    EXPECT_EQ(format(Go{250, 9000, 8000, std::nullopt, std::nullopt}),
              "go move_ms=250 clock_ms=9000 opp_clock_ms=8000");
    EXPECT_EQ(format(Go{250, 9000, std::nullopt, std::nullopt, std::nullopt}),
              "go move_ms=250 clock_ms=9000");
    EXPECT_EQ(format(End{GameResult::kWin, "normal"}), "end win reason=normal");
    EXPECT_EQ(format(End{GameResult::kLoss, "timeout"}), "end loss reason=timeout");
    EXPECT_EQ(format(End{GameResult::kDraw, ""}), "end draw");
    EXPECT_EQ(format(Quit{}), "quit");
}

// ---- arena -> bot: round trips ----------------------------------------------

TEST(RoundTripArena, CanonicalLinesSurvive) {
    for (const std::string_view line : {
             "arena 1",
             "arena 2",
             "arena -3",
             "game connect4 player=1 rows=6 cols=7 connect=4 move_ms=3000",
             "game connect4 player=2 rows=9 cols=9 connect=4 blocked=4:1,5:3 move_ms=100 "
             "game_ms=60000 inc_ms=500",
             "game gomoku player=1 size=15 rule=freestyle move_ms=1000",
             "game reversi player=2 move_ms=1000",
             "game reversi player=1",
             "position",
             "position 4",
             "position d3 c5 pass e6",
             "go move_ms=0",
             "go move_ms=3000",
             "go move_ms=3000 clock_ms=60000 opp_clock_ms=59000",
             "go move_ms=100 depth=8",
             "go move_ms=100 clock_ms=5 opp_clock_ms=6 depth=1 nodes=50000",
             "end win reason=normal",
             "end loss reason=illegal",
             "end draw reason=normal",
             "end draw",
             "quit",
         }) {
        expect_canonical(line);
    }
}

TEST(RoundTripArena, ValuesSurvive) {
    const std::vector<ArenaCommand> commands{
        Hello{7},
        GameStart{"gomoku", 2, {{"size", "15"}, {"rule", "exact5"}, {"move_ms", "5"}}},
        GameStart{"connect4", 1, {{"blocked", ""}}},
        Position{{"h8", "h9", "i9"}},
        Position{},
        Go{1, 2, 3, std::nullopt, std::nullopt},
        Go{std::numeric_limits<std::int64_t>::max(), std::nullopt, 0, std::nullopt, std::nullopt},
        End{GameResult::kLoss, "protocol"},
        End{GameResult::kWin, ""},
        Quit{},
    };
    for (const auto& command : commands) {
        const std::string line = format(command);
        const auto parsed = parse_arena_command(line);
        ASSERT_TRUE(parsed.has_value()) << line;
        EXPECT_EQ(parsed->index(), command.index()) << line;
        EXPECT_EQ(format(*parsed), line);
    }
}

// ---- arena -> bot: parsing details ------------------------------------------

TEST(ParseHello, AnyIntegerVersion) {
    EXPECT_EQ(parse_as<Hello>("arena 1").version, 1);
    EXPECT_EQ(parse_as<Hello>("arena 12").version, 12);
    EXPECT_EQ(parse_as<Hello>("arena 0").version, 0);
}

TEST(ParseHello, Malformed) {
    for (const std::string_view line : {"arena", "arena one", "arena 1.0", "arena 1 x",
                                        "arena 99999999999", "arena -99999999999", "ARENA 1"}) {
        EXPECT_EQ(parse_arena_command(line), std::nullopt) << line;
    }
}

TEST(ParseHello, ExtraKeysIgnored) {
    EXPECT_EQ(parse_as<Hello>("arena 1 future=yes").version, 1);
}

TEST(ParseGame, FieldsAndParamOrder) {
    const auto game = parse_as<GameStart>(
        "game connect4 player=2 rows=6 cols=7 connect=4 blocked=4:1 move_ms=3000");
    EXPECT_EQ(game.game, "connect4");
    EXPECT_EQ(game.player, 2);
    const KeyValues expected{
        {"rows", "6"}, {"cols", "7"}, {"connect", "4"}, {"blocked", "4:1"}, {"move_ms", "3000"}};
    EXPECT_EQ(game.params, expected);
}

TEST(ParseGame, PlayerMayAppearAnywhere) {
    const auto game = parse_as<GameStart>("game gomoku size=15 player=1 rule=exact5");
    EXPECT_EQ(game.player, 1);
    EXPECT_EQ(game.params, (KeyValues{{"size", "15"}, {"rule", "exact5"}}));
    EXPECT_EQ(format(game), "game gomoku player=1 size=15 rule=exact5");
}

TEST(ParseGame, UnknownKeysKeptInOrder) {
    const auto game = parse_as<GameStart>("game reversi player=1 zeta=1 alpha=2 zeta=3");
    EXPECT_EQ(game.params, (KeyValues{{"zeta", "1"}, {"alpha", "2"}, {"zeta", "3"}}));
}

TEST(ParseGame, EmptyValueAndEqualsInValue) {
    const auto game = parse_as<GameStart>("game connect4 player=1 blocked= note=a=b");
    EXPECT_EQ(game.params, (KeyValues{{"blocked", ""}, {"note", "a=b"}}));
}

TEST(ParseGame, Malformed) {
    for (const std::string_view line : {
             "game",                             // no game name
             "game connect4",                    // no player
             "game connect4 rows=6",             // no player
             "game player=1",                    // no game name
             "game connect4 player=0",           // bad side
             "game connect4 player=3",           // bad side
             "game connect4 player=-1",          // bad side
             "game connect4 player=one",         // not a number
             "game connect4 player=",            // empty
             "game connect4 player=1 player=1",  // duplicate
             "game connect4 player=1 rows",      // word without '='
             "game connect4 player=1 =6",        // empty key
             "game connect4 extra player=1",     // word without '='
             "game connect4 player=99999999999999999999",
         }) {
        EXPECT_EQ(parse_arena_command(line), std::nullopt) << line;
    }
}

TEST(ParsePosition, Moves) {
    EXPECT_TRUE(parse_as<Position>("position").moves.empty());
    EXPECT_EQ(parse_as<Position>("position 4 4 3").moves,
              (std::vector<std::string>{"4", "4", "3"}));
    EXPECT_EQ(parse_as<Position>("position d3 pass c5").moves,
              (std::vector<std::string>{"d3", "pass", "c5"}));
}

TEST(ParseGo, RequiredAndOptionalFields) {
    const auto plain = parse_as<Go>("go move_ms=3000");
    EXPECT_EQ(plain.move_ms, 3000);
    EXPECT_EQ(plain.clock_ms, std::nullopt);
    EXPECT_EQ(plain.opp_clock_ms, std::nullopt);

    const auto full = parse_as<Go>("go opp_clock_ms=5 clock_ms=6 move_ms=7");
    EXPECT_EQ(full.move_ms, 7);
    EXPECT_EQ(full.clock_ms, 6);
    EXPECT_EQ(full.opp_clock_ms, 5);
    EXPECT_EQ(format(full), "go move_ms=7 clock_ms=6 opp_clock_ms=5");
}

TEST(ParseGo, UnknownKeysIgnored) {
    const auto go = parse_as<Go>("go plies=100 move_ms=50 mate=");
    EXPECT_EQ(go.move_ms, 50);
    EXPECT_EQ(format(go), "go move_ms=50");
}

TEST(ParseGo, SearchLimits) {
    const auto both = parse_as<Go>("go nodes=100000 move_ms=50 depth=8");
    EXPECT_EQ(both.depth, 8);
    EXPECT_EQ(both.nodes, 100000);
    EXPECT_EQ(format(both), "go move_ms=50 depth=8 nodes=100000");
    Go go{100, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    go.depth = 2;
    EXPECT_EQ(format(go), "go move_ms=100 depth=2");
    EXPECT_EQ(parse_as<Go>(format(go)).depth, 2);
    EXPECT_EQ(parse_as<Go>(format(go)).nodes, std::nullopt);
}

TEST(ParseGo, BadSearchLimitsAreDroppedNotFatal) {
    // A limit the bot cannot read costs it nothing: it searches on its clock.
    for (const std::string_view line : {
             "go move_ms=50 depth=",
             "go move_ms=50 depth=0",
             "go move_ms=50 depth=-3",
             "go move_ms=50 depth=x",
             "go move_ms=50 depth=2 depth=3",
         }) {
        const auto go = parse_as<Go>(line);
        EXPECT_EQ(go.move_ms, 50) << line;
        EXPECT_EQ(go.depth, std::nullopt) << line;
    }
    const auto go = parse_as<Go>("go move_ms=50 nodes=0 depth=4");
    EXPECT_EQ(go.nodes, std::nullopt);
    EXPECT_EQ(go.depth, 4);
}

TEST(ParseGo, Malformed) {
    for (const std::string_view line : {
             "go",                                  // move_ms missing
             "go clock_ms=5",                       // move_ms missing
             "go move_ms=",                         // empty
             "go move_ms=-1",                       // negative
             "go move_ms=1.5",                      // not an integer
             "go move_ms=+5",                       // sign not allowed
             "go move_ms=9223372036854775808",      // overflow
             "go move_ms=5 move_ms=6",              // duplicate
             "go move_ms=5 clock_ms=-1",            // negative
             "go move_ms=5 opp_clock_ms=x",         // not a number
             "go move_ms=5 clock_ms=1 clock_ms=2",  // duplicate
             "go move_ms=5 infinite",               // word without '='
             "go MOVE_MS=5",                        // keys are case-sensitive
         }) {
        EXPECT_EQ(parse_arena_command(line), std::nullopt) << line;
    }
}

TEST(ParseEnd, ResultsAndReason) {
    const auto win = parse_as<End>("end win reason=normal");
    EXPECT_EQ(win.result, GameResult::kWin);
    EXPECT_EQ(win.reason, "normal");
    const auto loss = parse_as<End>("end loss reason=timeout");
    EXPECT_EQ(loss.result, GameResult::kLoss);
    EXPECT_EQ(loss.reason, "timeout");
    const auto draw = parse_as<End>("end draw");
    EXPECT_EQ(draw.result, GameResult::kDraw);
    EXPECT_EQ(draw.reason, "");
    EXPECT_EQ(parse_as<End>("end draw reason=").reason, "");
}

TEST(ParseEnd, UnknownKeysIgnored) {
    const auto end = parse_as<End>("end loss moves=31 reason=illegal score=0");
    EXPECT_EQ(end.result, GameResult::kLoss);
    EXPECT_EQ(end.reason, "illegal");
}

TEST(ParseEnd, Malformed) {
    for (const std::string_view line :
         {"end", "end won", "end WIN", "end reason=normal", "end win normal",
          "end win reason=a reason=b", "end win reason=normal extra"}) {
        EXPECT_EQ(parse_arena_command(line), std::nullopt) << line;
    }
}

TEST(ParseQuit, PlainAndWithKeys) {
    parse_as<Quit>("quit");
    parse_as<Quit>("quit later=1");
    EXPECT_EQ(parse_arena_command("quit now"), std::nullopt);
}

TEST(ParseArena, UnknownOrEmptyIsNullopt) {
    for (const std::string_view line : {"", " ", "\t", "\r", "\r\n", "hello", "ponder on",
                                        "Position 4", "gox move_ms=1", "isready", "move 4"}) {
        EXPECT_EQ(parse_arena_command(line), std::nullopt) << '"' << line << '"';
    }
}

TEST(ParseArena, CrlfAndExtraBlanks) {
    EXPECT_EQ(parse_as<Hello>("arena 1\r").version, 1);
    EXPECT_EQ(parse_as<Go>("go move_ms=10\r").move_ms, 10);
    EXPECT_EQ(parse_as<Go>("go move_ms=10\r\n").move_ms, 10);
    EXPECT_EQ(parse_as<Position>("position 4 3\r").moves, (std::vector<std::string>{"4", "3"}));
    EXPECT_EQ(parse_as<End>("end win reason=normal\r").reason, "normal");
    parse_as<Quit>("quit\r");

    EXPECT_EQ(format(*parse_arena_command("  game \t connect4   player=1\trows=6  \r")),
              "game connect4 player=1 rows=6");
    EXPECT_EQ(format(*parse_arena_command("\tposition  4 \t 4  ")), "position 4 4");
    EXPECT_EQ(format(*parse_arena_command("go   move_ms=5\t\tclock_ms=6 ")),
              "go move_ms=5 clock_ms=6");
}

TEST(ParseArena, OnlyOneTrailingCarriageReturnIsDropped) {
    // A '\r' inside the line is part of a word.
    EXPECT_EQ(parse_arena_command("go move_ms=10\r\r"), std::nullopt);
    EXPECT_EQ(parse_arena_command("quit\rx"), std::nullopt);
}

// ---- bot -> arena -------------------------------------------------------------

TEST(ParseBot, TextLines) {
    EXPECT_EQ(parse_bot_line("name My Bot 2.0").kind, Kind::kName);
    EXPECT_EQ(parse_bot_line("name My Bot 2.0").text, "My Bot 2.0");
    EXPECT_EQ(parse_bot_line("author  Ada  Lovelace ").text, "Ada  Lovelace");
    EXPECT_EQ(parse_bot_line("author  Ada  Lovelace ").kind, Kind::kAuthor);
    EXPECT_EQ(parse_bot_line("version 1.2.3-rc1").kind, Kind::kVersion);
    EXPECT_EQ(parse_bot_line("version 1.2.3-rc1").text, "1.2.3-rc1");
    EXPECT_EQ(parse_bot_line("name").kind, Kind::kName);
    EXPECT_EQ(parse_bot_line("name").text, "");
}

TEST(ParseBot, InfoAndDebugTakeTheRestOfTheLine) {
    const auto info = parse_bot_line("info depth 7 score +12  pv 4 4 3");
    EXPECT_EQ(info.kind, Kind::kInfo);
    EXPECT_EQ(info.text, "depth 7 score +12  pv 4 4 3");
    const auto debug = parse_bot_line("debug\tcache hit=3");
    EXPECT_EQ(debug.kind, Kind::kDebug);
    EXPECT_EQ(debug.text, "cache hit=3");
    EXPECT_EQ(parse_bot_line("info").kind, Kind::kInfo);
    EXPECT_EQ(parse_bot_line("info").text, "");
    EXPECT_EQ(parse_bot_line("debug   ").kind, Kind::kDebug);
    EXPECT_EQ(parse_bot_line("debug   ").text, "");
    EXPECT_EQ(parse_bot_line("info move 4").kind, Kind::kInfo);
}

TEST(ParseBot, Ready) {
    EXPECT_EQ(parse_bot_line("ready").kind, Kind::kReady);
    EXPECT_EQ(parse_bot_line("ready").text, "");
    EXPECT_EQ(parse_bot_line(" ready \r").kind, Kind::kReady);
    const auto extra = parse_bot_line("ready ok");
    EXPECT_EQ(extra.kind, Kind::kInvalid);
    EXPECT_EQ(extra.text, "ready ok");
}

TEST(ParseBot, MoveTakesExactlyOneWord) {
    const auto move = parse_bot_line("move 4");
    EXPECT_EQ(move.kind, Kind::kMove);
    EXPECT_EQ(move.text, "4");
    EXPECT_EQ(parse_bot_line("move\th8 \r").text, "h8");
    EXPECT_EQ(parse_bot_line("  move   pass  ").kind, Kind::kMove);

    for (const std::string_view line : {"move", "move ", "move 4 5", "move d3 # best"}) {
        const auto bad = parse_bot_line(line);
        EXPECT_EQ(bad.kind, Kind::kInvalid) << line;
        EXPECT_EQ(bad.text, line);
    }
}

TEST(ParseBot, MoveWordIsNotJudgedHere) {
    // Notation and legality belong to the game; the codec only splits words.
    const auto move = parse_bot_line("move zz99");
    EXPECT_EQ(move.kind, Kind::kMove);
    EXPECT_EQ(move.text, "zz99");
}

TEST(ParseBot, InvalidKeepsTheWholeLine) {
    for (const std::string_view line :
         {"", "   ", "4", "bestmove 4", "MOVE 4", "moves 4", "Name x", "ready?", "infox y"}) {
        const auto parsed = parse_bot_line(line);
        EXPECT_EQ(parsed.kind, Kind::kInvalid) << '"' << line << '"';
        EXPECT_EQ(parsed.text, line);
    }
}

TEST(ParseBot, InvalidDropsOnlyTheTerminator) {
    const auto parsed = parse_bot_line("  hello there \r");
    EXPECT_EQ(parsed.kind, Kind::kInvalid);
    EXPECT_EQ(parsed.text, "  hello there ");
}

TEST(ParseBot, CrlfAccepted) {
    EXPECT_EQ(parse_bot_line("move 4\r").text, "4");
    EXPECT_EQ(parse_bot_line("move 4\r\n").text, "4");
    EXPECT_EQ(parse_bot_line("name Bot\r").text, "Bot");
    EXPECT_EQ(parse_bot_line("info x \r").text, "x");
    EXPECT_EQ(parse_bot_line("ready\r").kind, Kind::kReady);
}

TEST(ParseBot, NonAsciiTextPassesThrough) {
    const auto name = parse_bot_line("name Ōkami \xE2\x9C\x93");
    EXPECT_EQ(name.kind, Kind::kName);
    EXPECT_EQ(name.text, "Ōkami \xE2\x9C\x93");
}

TEST(FormatBot, EveryKind) {
    EXPECT_EQ(format(BotLine{Kind::kName, "Bot"}), "name Bot");
    EXPECT_EQ(format(BotLine{Kind::kAuthor, "A B"}), "author A B");
    EXPECT_EQ(format(BotLine{Kind::kVersion, "1.0"}), "version 1.0");
    EXPECT_EQ(format(BotLine{Kind::kReady, ""}), "ready");
    EXPECT_EQ(format(BotLine{Kind::kInfo, "depth 3"}), "info depth 3");
    EXPECT_EQ(format(BotLine{Kind::kInfo, ""}), "info");
    EXPECT_EQ(format(BotLine{Kind::kDebug, "x"}), "debug x");
    EXPECT_EQ(format(BotLine{Kind::kMove, "d3"}), "move d3");
    EXPECT_EQ(format(BotLine{Kind::kInvalid, "garbage in"}), "garbage in");
}

TEST(RoundTripBot, EveryKind) {
    const std::vector<BotLine> lines{
        {Kind::kName, "Random Bot"},  {Kind::kAuthor, "arena"},  {Kind::kVersion, "0.1"},
        {Kind::kReady, ""},           {Kind::kInfo, "nodes 12"}, {Kind::kInfo, ""},
        {Kind::kDebug, "a  b"},       {Kind::kMove, "h8"},       {Kind::kMove, "pass"},
        {Kind::kInvalid, "nonsense"},
    };
    for (const auto& line : lines) {
        const std::string text = format(line);
        const auto parsed = parse_bot_line(text);
        EXPECT_EQ(parsed.kind, line.kind) << text;
        EXPECT_EQ(parsed.text, line.text) << text;
    }
}

TEST(Robustness, LongAndOddInputDoesNotThrow) {
    const std::string long_line = "position " + std::string(1 << 20, 'x');
    EXPECT_EQ(parse_as<Position>(long_line).moves.size(), 1U);
    const std::string many_moves = [] {
        std::string s = "position";
        for (int i = 0; i < 10000; ++i)
            s += " 4";
        return s;
    }();
    EXPECT_EQ(parse_as<Position>(many_moves).moves.size(), 10000U);

    const std::string binary("move \0x", 7);
    EXPECT_NO_THROW({
        const auto parsed = parse_bot_line(binary);
        EXPECT_EQ(parsed.kind, Kind::kMove);
        EXPECT_EQ(parsed.text, std::string("\0x", 2));
    });
    EXPECT_NO_THROW((void)parse_arena_command(binary));
    EXPECT_NO_THROW((void)parse_arena_command(std::string(1000, '=')));
    EXPECT_NO_THROW((void)parse_bot_line(std::string(1000, '\t')));
}

}  // namespace
}  // namespace arena::protocol
