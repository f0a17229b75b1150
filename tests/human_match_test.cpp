// A person against a real bot process in the match layer: the person's moves
// come from a HumanInput, are checked by the rules, a refused one is asked
// for again (it does not lose), a move limit (when given) is judged like a
// bot's, and a person who leaves abandons the game and the bot is killed.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/match/human.hpp"
#include "arena/match/match.hpp"
#include "fixtures.hpp"
#include "proc_util.hpp"
#include "timing.hpp"

namespace arena::match {
namespace {

using namespace std::chrono_literals;
using arena::testing::bin;
using arena::testing::processes_with_arg;
using arena::testing::quick_options;
using arena::testing::random_bot;
using arena::testing::scaled;
using arena::testing::survivors;
using arena::testing::unique_marker;
using record::GameRecord;
using record::MoveRecord;
using record::Termination;

TimeControl per_move(std::chrono::milliseconds limit) {
    TimeControl tc;
    tc.move = limit;
    return tc;
}

// A person who first types some texts the rules must refuse, then plays
// the first legal move, and remembers what they were told.
class ScriptedHuman : public HumanInput {
  public:
    explicit ScriptedHuman(std::vector<std::string> bad_first) : bad_(std::move(bad_first)) {}

    std::optional<std::string> next_move(const games::State& state, std::string_view refused,
                                         std::optional<TimePoint> deadline,
                                         std::stop_token stop) override {
        (void)deadline;
        (void)stop;
        ++asked;
        if (!refused.empty()) refusals.emplace_back(refused);
        if (next_bad_ < bad_.size()) return bad_[next_bad_++];
        return state.format_move(state.legal_moves().front());
    }
    void moved(const games::State& state, const MoveRecord& move) override {
        seen.push_back(move.move);
        last_ply = state.ply();
    }

    int asked = 0;
    std::vector<std::string> refusals;
    std::vector<std::string> seen;  // every ply, both sides
    int last_ply = 0;

  private:
    std::vector<std::string> bad_;
    std::size_t next_bad_ = 0;
};

void expect_replays(const games::Game& game, const GameRecord& r) {
    auto state = game.new_initial_state();
    for (const auto& m : r.moves) {
        ASSERT_EQ(state->current_player(), m.player);
        const auto move = state->parse_move(m.move);
        ASSERT_TRUE(move && state->is_legal(*move)) << m.move;
        state->apply(*move);
    }
    EXPECT_TRUE(state->is_over());
    EXPECT_EQ(state->outcome(), r.outcome);
}

TEST(HumanMatch, RefusedMovesAreAskedAgainAndTheGameEndsByTheRules) {
    session::BotHost host;
    const auto game = games::make_game("connect4", {});
    for (int human_side = 1; human_side <= 2; ++human_side) {
        // "x" does not parse, "9" is off the 7-column board: both refused.
        ScriptedHuman person({"x", "9"});
        Player human("human", person);
        Player bot(host, random_bot("random", std::to_string(human_side)), quick_options(5000ms));
        auto record = human_side == 1 ? play_game(*game, human, bot, per_move(scaled(2000ms)))
                                      : play_game(*game, bot, human, per_move(scaled(2000ms)));
        SCOPED_TRACE(human_side);
        EXPECT_FALSE(record.abandoned);
        EXPECT_EQ(record.termination, Termination::kNormal) << record.detail;
        EXPECT_EQ(record.players[human_side - 1], "human");
        EXPECT_EQ(record.players[2 - human_side], "random");
        expect_replays(*game, record);
        ASSERT_EQ(person.refusals.size(), 2u);
        EXPECT_EQ(person.refusals[0], "not a move of this game: 'x'");
        EXPECT_EQ(person.refusals[1], "not a move of this game: '9'");
        // The person saw every ply of the game, the bot's included.
        ASSERT_EQ(person.seen.size(), record.moves.size());
        for (std::size_t i = 0; i < record.moves.size(); ++i)
            EXPECT_EQ(person.seen[i], record.moves[i].move);
        EXPECT_EQ(person.last_ply, static_cast<int>(record.moves.size()));
        for (const auto& m : record.moves) {
            EXPECT_FALSE(m.by_arena);
            if (m.player == human_side) {
                EXPECT_TRUE(m.info.empty());
            }
        }
        EXPECT_TRUE(record.stderr_logs[human_side - 1].empty());
    }
}

TEST(HumanMatch, AnIllegalMoveIsRefusedNotLost) {
    session::BotHost host;
    // The person always plays column 1 first, and the first legal column
    // after a refusal; on a 4x4 board column 1 fills after four stones.
    class ColumnOne : public HumanInput {
      public:
        std::optional<std::string> next_move(const games::State& state, std::string_view refused,
                                             std::optional<TimePoint>, std::stop_token) override {
            if (!refused.empty()) {
                refusals.emplace_back(refused);
                return state.format_move(state.legal_moves().front());
            }
            return std::string("1");
        }
        std::vector<std::string> refusals;
    };
    const auto game = games::make_game("connect4", {{"rows", "4"}, {"cols", "4"}});
    std::size_t refused_in_all = 0;
    for (int seed = 1; seed <= 6; ++seed) {
        ColumnOne person;
        Player human("me", person);
        Player bot(host, random_bot("random", std::to_string(seed)), quick_options(5000ms));
        const auto record = play_game(*game, human, bot, per_move(scaled(2000ms)));
        EXPECT_EQ(record.termination, Termination::kNormal) << record.detail;
        EXPECT_EQ(record.players[0], "me");
        expect_replays(*game, record);
        // Every move of the person made while column 1 was full came after
        // exactly one refusal of "1".
        auto state = game->new_initial_state();
        std::size_t expected = 0;
        for (const auto& m : record.moves) {
            if (m.player == 1 && !state->is_legal(0)) ++expected;
            state->apply(*state->parse_move(m.move));
        }
        EXPECT_EQ(person.refusals.size(), expected);
        for (const auto& r : person.refusals)
            EXPECT_EQ(r, "illegal move '1'");
        refused_in_all += expected;
    }
    EXPECT_GT(refused_in_all, 0u);
}

TEST(HumanMatch, AQueueFedFromAnotherThreadPlaysAWholeGame) {
    session::BotHost host;
    // The page's side of a web game: a thread that offers the first legal
    // column whenever the game waits for the person.
    class Page : public HumanMoveQueue {
      public:
        std::mutex mutex;
        std::string legal;  // the move to offer next
      protected:
        void asking(const games::State& state, std::string_view) override {
            std::lock_guard lock(mutex);
            legal = state.format_move(state.legal_moves().front());
        }
    } page;
    const auto game = games::make_game("connect4", {});
    Player human("human", page);
    Player bot(host, random_bot("random", "5"), quick_options(5000ms));
    std::atomic<bool> over{false};
    int refused_offers = 0;
    std::thread clicker([&] {
        while (!over) {
            if (page.waiting()) {
                std::string move;
                {
                    std::lock_guard lock(page.mutex);
                    move = page.legal;
                }
                EXPECT_TRUE(page.offer(move));
            } else if (!page.offer("1")) {
                ++refused_offers;  // not the person's turn: dropped
            }
            std::this_thread::sleep_for(1ms);
        }
    });
    const auto record = play_game(*game, bot, human, per_move(scaled(2000ms)));
    over = true;
    clicker.join();
    EXPECT_FALSE(record.abandoned);
    EXPECT_EQ(record.termination, Termination::kNormal) << record.detail;
    EXPECT_EQ(record.players[1], "human");
    expect_replays(*game, record);
    EXPECT_FALSE(page.waiting());
}

TEST(HumanMatch, APersonWithAMoveLimitLosesOnTime) {
    session::BotHost host;
    HumanMoveQueue silent;  // never offers a move
    const auto game = games::make_game("connect4", {});
    Player human("human", silent, 200ms);
    Player bot(host, random_bot("random", "1"), quick_options(5000ms));
    const auto started = std::chrono::steady_clock::now();
    const auto record = play_game(*game, human, bot, per_move(scaled(2000ms)));
    EXPECT_GE(std::chrono::steady_clock::now() - started, 200ms);
    EXPECT_EQ(record.termination, Termination::kTimeout);
    EXPECT_EQ(record.outcome, games::Outcome::kWin2);
    EXPECT_EQ(record.detail, "human: no move within 200 ms");
    EXPECT_GE(record.fault_after, 200ms);
    EXPECT_TRUE(record.moves.empty());
}

TEST(HumanMatch, APersonWhoLeavesAbandonsTheGameAndTheBotIsKilled) {
    session::BotHost host;
    const std::string marker = unique_marker();
    HumanMoveQueue page;
    const auto game = games::make_game("connect4", {});
    Player human("human", page);
    Player bot(host, random_bot("random", marker), quick_options(5000ms));
    std::thread leaver([&] {
        // Leave once the game waits for the person's first move.
        while (!page.waiting())
            std::this_thread::sleep_for(1ms);
        EXPECT_FALSE(processes_with_arg(marker).empty());
        page.leave();
    });
    const auto record = play_game(*game, human, bot, per_move(scaled(2000ms)));
    leaver.join();
    EXPECT_TRUE(record.abandoned);
    EXPECT_TRUE(page.left());
    EXPECT_FALSE(page.offer("1"));
    EXPECT_TRUE(survivors(marker).empty());
}

TEST(HumanMatch, AStopRequestEndsTheWaitForAPerson) {
    session::BotHost host;
    HumanMoveQueue page;
    const auto game = games::make_game("connect4", {});
    Player human("human", page);
    Player bot(host, random_bot("random", "2"), quick_options(5000ms));
    std::stop_source stop;
    std::thread stopper([&] {
        while (!page.waiting())
            std::this_thread::sleep_for(1ms);
        stop.request_stop();
    });
    const auto record =
        play_game(*game, bot, human, per_move(scaled(2000ms)), {}, stop.get_token());
    stopper.join();
    EXPECT_TRUE(record.abandoned);
    EXPECT_EQ(record.moves.size(), 1u);  // the bot's first move
}

}  // namespace
}  // namespace arena::match
