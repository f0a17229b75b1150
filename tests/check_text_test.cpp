// What `arena check-bot` says around its checks (check/report, check/
// bot_kind): the kind of bot a protocol makes, the game it implies (set on
// the options), the heading, the verdict and the JSON line.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "arena/check/bot_kind.hpp"
#include "arena/check/check.hpp"
#include "arena/check/report.hpp"

namespace arena::check {
namespace {

CheckResult result(std::string name, Status status, std::string detail = "") {
    CheckResult r;
    r.name = std::move(name);
    r.status = status;
    r.detail = std::move(detail);
    return r;
}

TEST(CheckBotKind, FromTheProtocolUnlessAStrategyLibrary) {
    using session::BotProtocol;
    EXPECT_EQ(bot_kind(BotProtocol::kArena1, false), BotKind::kArena1);
    EXPECT_EQ(bot_kind(BotProtocol::kGomocup, false), BotKind::kGomocup);
    EXPECT_EQ(bot_kind(BotProtocol::kNboard, false), BotKind::kNboard);
    EXPECT_EQ(bot_kind(BotProtocol::kArena1, true), BotKind::kTsinghuaSo);
    EXPECT_EQ(bot_kind(BotProtocol::kGomocup, true), BotKind::kTsinghuaSo);
}

TEST(CheckBotKind, ImpliedGamesAndNames) {
    EXPECT_EQ(implied_game(BotKind::kGomocup), "gomoku");
    EXPECT_EQ(implied_game(BotKind::kNboard), "reversi");
    EXPECT_EQ(implied_game(BotKind::kTsinghuaSo), "connect4");
    EXPECT_FALSE(implied_game(BotKind::kArena1).has_value());
    EXPECT_EQ(kind_name(BotKind::kArena1), "arena1");
    EXPECT_EQ(kind_name(BotKind::kGomocup), "gomocup");
    EXPECT_EQ(kind_name(BotKind::kNboard), "nboard");
    EXPECT_EQ(kind_name(BotKind::kTsinghuaSo), "tsinghua-so");
}

TEST(CheckBotKind, SetsTheKindAndTheGameItImplies) {
    CheckOptions o;
    o.bot.protocol = session::BotProtocol::kNboard;
    set_kind_and_game(o, false);
    EXPECT_EQ(o.kind, BotKind::kNboard);
    EXPECT_EQ(o.game, "reversi");
    // A game given stays, also one the kind does not play (the plan refuses it).
    o.game = "gomoku";
    set_kind_and_game(o, true);
    EXPECT_EQ(o.kind, BotKind::kTsinghuaSo);
    EXPECT_EQ(o.game, "gomoku");
    CheckOptions v1;
    try {
        set_kind_and_game(v1, false);
        ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(),
                     "--game is required for a protocol v1 bot (connect4, gomoku or reversi)");
    }
}

TEST(CheckBotText, HeadingEscapesTheCommand) {
    CheckOptions options;
    options.game = "gomoku";
    options.kind = BotKind::kGomocup;
    options.time.move = match::Millis{250};
    EXPECT_EQ(heading_text("pbrain\x1b[2J -x", options),
              "checking pbrain\\x1b[2J -x (gomocup, gomoku, 250 ms a move)\n");
}

TEST(CheckBotText, VerdictPassesWithWarningsAndSkipsOnly) {
    const auto ok = result("quit", Status::kOk);
    const auto warn = result("time use", Status::kWarn, "close to the limit");
    const auto skip = result("stdout flushed", Status::kSkip);
    EXPECT_EQ(verdict_text({ok, warn, skip}),
              "\n1 ok, 1 warning, 1 skipped, 0 failed: the bot passes\n");
    EXPECT_EQ(verdict_text({ok, result("start-up", Status::kFail, "no answer")}),
              "\n1 ok, 0 warnings, 0 skipped, 1 failed: the bot FAILS the checks marked FAIL\n");
}

TEST(CheckBotText, JsonIsOneLineAndReplacesBadUtf8) {
    const auto text = json_text({result("quit", Status::kOk, "bad \xff byte")});
    EXPECT_EQ(text.find('\n'), std::string::npos);
    EXPECT_EQ(text,
              "[{\"detail\":\"bad \xef\xbf\xbd byte\",\"expected\":\"\",\"name\":\"quit\","
              "\"received\":[],\"sent\":[],\"status\":\"ok\",\"stderr\":\"\"}]");
}

}  // namespace
}  // namespace arena::check
