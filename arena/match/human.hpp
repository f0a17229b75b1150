#pragma once
// A person playing one side of a game (arena play, the /play page of arena
// serve). The person's moves come from outside the match layer, through a
// HumanInput; the match layer checks each one with the game's rules. Unlike a
// bot's, a person's move that does not parse or is illegal does not lose the
// game: it is refused with the reason and the person is asked again. A
// person has no time limit unless one is given (Player's human constructor);
// with one, a move not made in time loses the game on time, as for a bot.
//
// Nothing here knows terminals or sockets: a HumanInput is a callback
// object, and HumanMoveQueue is the thread-safe one for a person on another
// thread.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "arena/games/game.hpp"
#include "arena/record/game_record.hpp"

namespace arena::match {

class HumanInput {
  public:
    using TimePoint = std::chrono::steady_clock::time_point;

    virtual ~HumanInput() = default;
    HumanInput() = default;
    HumanInput(const HumanInput&) = delete;
    HumanInput& operator=(const HumanInput&) = delete;

    // The person's next move in `state` (the person is to move), as text in
    // the game's notation. `refused` is empty on the first call for a move;
    // after a text that was refused it says why ("not a move of this game:
    // 'x'", "illegal move '3'"). Returns nullopt when the person left, when
    // `deadline` (if any) has passed, or once `stop` is requested; it must
    // return by then.
    [[nodiscard]] virtual std::optional<std::string> next_move(const games::State& state,
                                                               std::string_view refused,
                                                               std::optional<TimePoint> deadline,
                                                               std::stop_token stop) = 0;

    // Told of every ply once it is played, by either side or by the arena
    // (an opening move, a forced pass); `state` is the position after it.
    // Called on the game's thread.
    virtual void moved(const games::State& state, const record::MoveRecord& move) {
        (void)state;
        (void)move;
    }
};

// A HumanInput fed from another thread: offer() hands over a move while one
// is asked for; leave() ends the person's part (the game is then abandoned).
class HumanMoveQueue : public HumanInput {
  public:
    [[nodiscard]] std::optional<std::string> next_move(const games::State& state,
                                                       std::string_view refused,
                                                       std::optional<TimePoint> deadline,
                                                       std::stop_token stop) override;

    // Hands `move` to the game if it is waiting for the person's move (true);
    // false when it is not (the bot is thinking, the game is over, or a move
    // is already on its way), and the move is dropped.
    bool offer(std::string move);
    // The person has gone: a waiting or later next_move returns nullopt.
    void leave();
    [[nodiscard]] bool left() const;
    // True while a move is asked for and none has been offered yet.
    [[nodiscard]] bool waiting() const;

  protected:
    // Called by next_move, on the game's thread, before it waits: the person
    // is to move in `state`; `refused` as for next_move. For a display.
    virtual void asking(const games::State& state, std::string_view refused) {
        (void)state;
        (void)refused;
    }

  private:
    mutable std::mutex mutex_;
    std::condition_variable_any wake_;
    bool waiting_ = false;
    bool left_ = false;
    std::optional<std::string> offered_;
};

}  // namespace arena::match
