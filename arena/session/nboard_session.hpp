#pragma once
// An NBoard Othello engine run unmodified: the session translates between
// the arena's calls and the NBoard engine protocol (version 2), as
// protocol/NBOARD.md describes. The match layer sees an ordinary session:
// the same deadlines, the same faults, moves in the arena's notation. NBoard
// has no clock; the arena enforces its own.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arena/session/session.hpp"

namespace arena::session {

namespace nboard {

// The search depth asked for at start-up, before the engine's time is known,
// and for a move of kDepthReferenceMs.
inline constexpr int kDefaultDepth = 12;
inline constexpr std::int64_t kDepthReferenceMs = 3'000;

// The midgame depth (`set depth`) for a move of `move_ms`: NBoard has no
// clock, so the time is told as a depth. kDefaultDepth at kDepthReferenceMs,
// one ply more for each doubling of the time and one less for each halving
// (search time grows about twofold a ply), between 1 and 60.
[[nodiscard]] int depth_for(std::int64_t move_ms);

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
    // Starts the process under `host` (which must outlive it); throws
    // SpawnError when the command cannot be started.
    // `depth` > 0: that depth for every move, whatever the time; 0: the
    // depth follows the move's time (nboard::depth_for).
    NboardSession(BotHost& host, BotSpec spec, SessionOptions options, int depth = 0);

    // `nboard 2`, `set depth N` (kDefaultDepth, or the fixed depth), `ping 1`,
    // then waits for `pong 1` within the start-up limit. `set myname <name>`
    // becomes the identity.
    [[nodiscard]] HandshakeResult handshake() override;

    // Remembers the game; the engine hears of it with the first move request.
    [[nodiscard]] bool start_game(const protocol::GameStart& game) override;

    // `set depth N` when the `go`'s depth= (when given; 1..60) or the move's
    // time asks for another depth than the last one sent (NBOARD.md section
    // 3: nboard::depth_for, then one deeper after a move answered within a
    // sixteenth of its time, one shallower after one that took over a third
    // of it; not after a move of a given depth), `set game <GGF>` (or `move <mv>` for each move
    // since the last one the engine was told), `ping N` -> `pong N` (older lines discarded), then
    // `go`
    // -> `=== <move>`; the clock starts when `go` is written. Every other
    // line (status, nodestats, search, free-form search output) is kept as
    // info, never judged.
    [[nodiscard]] MoveReply request_move(const protocol::Position& position, const protocol::Go& go,
                                         Clock::duration limit, IdleBot* idle = nullptr) override;

    // NBoard has no result message: nothing is sent.
    void end_game(const protocol::End& end) override;

    // `quit`, the grace period, then the kill.
    void quit() override;

  private:
    int depth_;           // fixed depth, or 0
    int depth_sent_ = 0;  // the last `set depth` sent
    int depth_step_ = 0;  // added to depth_for(): follows the engine's measured times
    int player_ = 1;
    int ping_ = 0;                   // the last ping sent
    bool in_sync_ = false;           // told_ is the engine's current game
    std::vector<std::string> told_;  // the moves the engine has been told, in order
};

}  // namespace arena::session
