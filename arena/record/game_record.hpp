#pragma once
// The plain record of one finished game: who played, every move with its
// time, and the verdict. It is what the match layer produces and what the
// reports and the results database consume; it holds no process or pipe.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::record {

// How a game ended. kNormal: by the rules (a win or a draw on the board);
// every other value is a loss for the player at fault.
enum class Termination : std::uint8_t {
    kNormal,
    kTimeout,
    kCrash,
    kIllegal,
    kProtocol,
    kStartup,
};
inline constexpr Termination kAllTerminations[] = {
    Termination::kNormal,  Termination::kTimeout,  Termination::kCrash,
    Termination::kIllegal, Termination::kProtocol, Termination::kStartup,
};

// The protocol's reason word: "normal", "timeout", "crash", ...
[[nodiscard]] std::string_view to_string(Termination t);

struct MoveRecord {
    std::string move;                  // protocol notation
    int player = 0;                    // 1 or 2
    std::chrono::microseconds time{};  // go written -> move read; 0 for moves the arena played
    bool by_arena = false;             // an opening move or a forced pass
    std::vector<std::string> info;     // the bot's `info` lines for this move
};

struct GameRecord {
    std::string game;               // registry name
    games::Params params;           // concrete game parameters
    std::string players[2];         // names of player 1 (moves first) and player 2
    std::vector<MoveRecord> moves;  // from the initial position, openings included
    int opening_plies = 0;          // the first moves played by the arena
    // Stopped from outside before it ended (e.g. Ctrl-C): not a result.
    bool abandoned = false;
    games::Outcome outcome = games::Outcome::kOngoing;
    Termination termination = Termination::kNormal;
    std::string detail;                                // for a fault: what happened, for people
    std::chrono::system_clock::time_point started_at;  // wall-clock start, for people
    std::chrono::microseconds duration{};              // wall time of the whole game
    // For a fault during a move: from `go` written to the verdict, so a report
    // can show how the verdict compares with the limit.
    std::chrono::microseconds fault_after{};
    // What each player wrote to stderr during this game (bounded by the session).
    std::string stderr_logs[2];
    // With transcripts on: every line between the arena and each player,
    // one per line as "<µs since the game started> -> text" (to the bot) or
    // "<µs> <- text" (from it); empty when off.
    std::string transcripts[2];
    // Peak memory of each player's process tree during this game, in bytes
    // (resident memory as its cgroup counts it, else the largest polled sum
    // of its processes' resident sets); nullopt: not known.
    std::optional<std::uint64_t> peak_memory[2];
    // What each player played under, as match::control_text writes it:
    // "move_ms=50 tolerance_ms=10 [game_ms=.. inc_ms=..] [depth=2] [nodes=..]";
    // empty when not known.
    std::string controls[2];

    [[nodiscard]] int winner() const { return games::winner_of(outcome); }
    // Which player (1 or 2) is at fault; 0 for a normal ending or when both
    // failed to start (a draw).
    [[nodiscard]] int offender() const {
        if (termination == Termination::kNormal || winner() == games::kNoPlayer) return 0;
        return games::opponent_of(winner());
    }
};

// "1-0", "0-1" or "1/2-1/2" from player 1's point of view.
[[nodiscard]] std::string_view score_text(games::Outcome o);

// The end of a bot's stderr log, for one line of a report: its last
// `max_lines` non-blank lines, at most `max_bytes` of them (cut at the
// front), joined by " | ", with control bytes escaped as \xNN. Empty when
// the log holds nothing but blanks.
[[nodiscard]] std::string stderr_tail(std::string_view log, std::size_t max_lines = 5,
                                      std::size_t max_bytes = 400);

// A fault's detail followed by the stderr tail of each player at fault
// ("p: no move within 100 ms; p's stderr: Traceback ... | ValueError: x");
// "" for a normal ending.
[[nodiscard]] std::string fault_description(const GameRecord& game);

}  // namespace arena::record
