#pragma once
// The protocol v1 loop shared by the C++ bots: it answers the handshake,
// builds the game from the `game` line through the games registry, replays
// each `position`, and asks the Engine for a move on `go`. An engine only
// chooses moves.

#include <functional>
#include <iosfwd>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "arena/games/game.hpp"
#include "protocol/codec.hpp"

namespace arena::bots {

struct BotInfo {
    std::string name;
    std::string author;
    std::string version;
};

// Prints an `info` line for the arena to record.
using InfoSink = std::function<void(std::string_view)>;

// Returned by Engine::choose to send no `move` line at all (the misbehave
// test fixture writes its own answers).
inline constexpr games::Move kNoMove = std::numeric_limits<games::Move>::min();

class Engine {
  public:
    virtual ~Engine() = default;
    // Called with every line received from the arena (without the newline),
    // before it is handled. The misbehave fixture logs and misbehaves here.
    virtual void on_line(std::string_view line) { (void)line; }
    // A new game starts; `player` is the side this bot plays (1 moves first).
    // May throw GameError to refuse the game (the bot then exits 2).
    virtual void new_game(const games::Game& game, int player) {
        (void)game;
        (void)player;
    }
    // `state` is the current position with this bot to move; never over.
    // Must return one of state.legal_moves() (or kNoMove, see above).
    [[nodiscard]] virtual games::Move choose(const games::State& state, const protocol::Go& go,
                                             const InfoSink& info) = 0;
};

// Runs the protocol on `in`/`out` until `quit` or end of input. Returns the
// process exit code. A `game` line for a game this bot cannot play, or a
// `position` it cannot replay, is reported on stderr and the bot exits 2.
int run_bot(const BotInfo& info, Engine& engine, std::istream& in, std::ostream& out);

}  // namespace arena::bots
