#pragma once
// An NBoard Othello engine run unmodified: the session translates between
// the arena's calls and the NBoard engine protocol (version 2), as
// protocol/NBOARD.md describes. The match layer sees an ordinary session:
// the same deadlines, the same faults, moves in the arena's notation. NBoard
// has no clock; the arena enforces its own.

#include <string>
#include <string_view>
#include <vector>

#include "arena/session/session.hpp"

namespace arena::session {

namespace nboard {

// The search depth the arena asks for (`set depth`), unless configured.
inline constexpr int kDefaultDepth = 12;

// The GGF game record of the standard start followed by `moves` (arena
// notation, passes included; black moves first):
// (;GM[Othello]PC[arena]PB[black]PW[white]TY[8]BO[8 <64 cells> *]B[D3]W[C5]...;)
// Throws std::invalid_argument for a move that is not a Reversi cell or pass.
[[nodiscard]] std::string ggf(const std::vector<std::string>& moves, std::string_view black,
                              std::string_view white);
// An arena move in NBoard's notation: "d3" -> "D3", "pass" -> "PA".
[[nodiscard]] std::string to_nboard(std::string_view move);
// The move of an engine's `=== <move>[/eval/time]` line (or `=== <move> eval time`) in the
// arena's notation: "F5" -> "f5", "PA" or "pass" -> "pass"; "" when the line has no move.
[[nodiscard]] std::string parse_answer(std::string_view line);

}  // namespace nboard

class NboardSession final : public ProcessSession {
  public:
    // Starts the process; throws SpawnError when the command cannot be started.
    NboardSession(BotSpec spec, SessionOptions options, int depth = nboard::kDefaultDepth);

    // `nboard 2`, `set depth N`, `ping 1`, then waits for `pong 1` within the
    // start-up limit. `set myname <name>` becomes the identity.
    [[nodiscard]] HandshakeResult handshake() override;

    // Remembers the game; the engine hears of it with the first move request.
    [[nodiscard]] bool start_game(const protocol::GameStart& game) override;

    // `set game <GGF>` (or `move <mv>` for each move since the last one the
    // engine was told), `ping N` -> `pong N` (older lines discarded), then `go`
    // -> `=== <move>`; the clock starts when `go` is written. status,
    // nodestats and search lines are kept as info.
    [[nodiscard]] MoveReply request_move(const protocol::Position& position, const protocol::Go& go,
                                         Clock::duration limit, IdleBot* idle = nullptr) override;

    // NBoard has no result message: nothing is sent.
    void end_game(const protocol::End& end) override;

    // `quit`, the grace period, then the kill.
    void quit() override;

  private:
    int depth_;
    int player_ = 1;
    int ping_ = 0;                   // the last ping sent
    bool in_sync_ = false;           // told_ is the engine's current game
    std::vector<std::string> told_;  // the moves the engine has been told, in order
};

}  // namespace arena::session
