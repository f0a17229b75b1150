#pragma once
// A Gomocup / Piskvork brain (pbrain-*) run unmodified: the session
// translates between the arena's calls and the Gomocup AI protocol, as
// protocol/GOMOCUP.md describes. The match layer sees an ordinary session:
// the same deadlines, the same faults, moves in the arena's notation.
//
// Coordinates: the arena's gomoku move a1 is Gomocup's 0,0; x is the column
// (letter a = 0), y is the row number minus 1.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/session/session.hpp"

namespace arena::session {

namespace gomocup {

struct Point {
    int x = 0, y = 0;
    friend bool operator==(const Point&, const Point&) = default;
};

// "h8" -> {7, 7}; nullopt when `move` is not a cell of a size x size board.
[[nodiscard]] std::optional<Point> to_point(std::string_view move, int size);
// {7, 7} -> "h8"; "" when the point is off a size x size board.
[[nodiscard]] std::string to_move(Point p, int size);
// An engine's move line, "x,y" (blanks allowed around the numbers); nullopt
// when it is not two integers separated by a comma.
[[nodiscard]] std::optional<Point> parse_point(std::string_view line);

// The BOARD command for an engine playing `player` (1 moves first) whose
// turn it is after `moves` (every move of the game, arena notation): the
// lines "BOARD", "x,y,who" in the order the moves were played (who: 1 = the
// engine's stone, 2 = the opponent's, so the last one listed is the
// opponent's), "DONE". Throws std::invalid_argument for a move that is not
// a cell of the board.
[[nodiscard]] std::vector<std::string> board_command(const std::vector<std::string>& moves,
                                                     int player, int size);

// `INFO rule` for the arena's gomoku rule: 0 (freestyle) or 1 (exactly
// five); nullopt for a rule Gomocup cannot express.
[[nodiscard]] std::optional<int> rule_bitmask(std::string_view rule);

// The values of an ABOUT answer: name="x", version="1.0", author="y", ...
[[nodiscard]] Identity parse_about(std::string_view line);

// What the value sent for no limit at all (`INFO time_left` without a game
// clock) is: 2^31 - 1, as the protocol says.
inline constexpr std::int64_t kNoLimitMs = 2'147'483'647;
// The most the announced time falls short of the arena's limit: the
// tolerance of Piskvork and of the Gomocup judge (protocol/GOMOCUP.md).
inline constexpr std::int64_t kCommunityToleranceMs = 1'000;

// The time an engine is told it has (`INFO timeout_turn`, `INFO time_left`,
// `INFO timeout_match`) when the arena's limit is `limit_ms` (its hard
// deadline is that plus tolerance_ms): the limit less 10 %, and less at most
// kCommunityToleranceMs, so an engine that budgets as Gomocup engines do, up
// to the announced time and a little over, still answers before the
// deadline. kNoLimitMs and 0 stay as they are.
[[nodiscard]] std::int64_t announced_ms(std::int64_t limit_ms);

// The memory an engine is told it has (`INFO max_memory`, bytes) when the
// bot's limit is `memory_mb` (the hard limit of its whole process tree):
// the limit less a quarter, and less at least 64 MiB while that leaves
// half, so that an engine that sizes its hash table to all it is told still
// has room for its program, its stack, its other tables and its threads.
// 0 (no limit) stays 0.
[[nodiscard]] std::uint64_t announced_memory_bytes(std::uint64_t memory_mb);

// A name usable as one directory name: characters other than letters,
// digits and `_ . + -` become `_`; "" becomes "bot".
[[nodiscard]] std::string folder_name(std::string_view bot);

}  // namespace gomocup

class GomocupSession final : public ProcessSession {
  public:
    // Starts the process under `host` (which must outlive it); throws
    // SpawnError when the command cannot be started.
    GomocupSession(BotHost& host, BotSpec spec, SessionOptions options);

    // `ABOUT`, waiting a short while for the answer (its name, version and
    // author become the identity). An engine that does not answer is fine;
    // one that exits is a start-up fault.
    [[nodiscard]] HandshakeResult handshake() override;

    // `START <size>` (or `RESTART` when the process already played on this
    // board size) -> `OK`, then the INFO lines. A failure is a start-up fault,
    // reported by the next request_move (the match layer judges faults there).
    [[nodiscard]] bool start_game(const protocol::GameStart& game) override;

    // `INFO time_left`, then `BEGIN`, `TURN x,y` or `BOARD ... DONE`; the
    // reply `x,y` comes back in the arena's notation. Every other line the
    // engine prints meanwhile (MESSAGE, DEBUG, status lines of its own) is
    // kept as info, never judged; `SUGGEST x,y` is answered `PLAY x,y`.
    [[nodiscard]] MoveReply request_move(const protocol::Position& position, const protocol::Go& go,
                                         Clock::duration limit, IdleBot* idle = nullptr) override;

    // Gomocup has no result message: nothing is sent.
    void end_game(const protocol::End& end) override;

    // `END`, the grace period, then the kill.
    void quit() override;

    // Kills what is left and, for a sandboxed engine, copies its folder back
    // to the run's copy for its next process.
    ~GomocupSession() override;

    GomocupSession(const GomocupSession&) = delete;
    GomocupSession& operator=(const GomocupSession&) = delete;

    // The folder announced by `INFO folder` (as the engine sees it).
    [[nodiscard]] const std::filesystem::path& folder() const { return folder_; }

  private:
    // Sends `command` and waits for `OK` until `deadline`. On failure `problem`
    // says what happened; `unknown` is set when the engine answered UNKNOWN or
    // ERROR (it may not know RESTART).
    bool command_ok(const std::string& command, Clock::time_point deadline, std::string& problem,
                    bool& unknown);
    // Makes the engine's persistent folder (see protocol/GOMOCUP.md).
    void prepare_folder();

    int size_ = 15;
    int player_ = 1;
    std::optional<int> started_size_;  // the board size the process last started on
    std::vector<std::string> told_;    // the moves on the engine's board, in order
    bool board_fresh_ = true;          // nothing told since START/RESTART
    bool about_pending_ = false;       // ABOUT went unanswered: its late answer is tolerated
    std::optional<std::pair<Fault, std::string>> pending_;  // a start_game fault, not yet reported
    std::filesystem::path folder_;                          // INFO folder
    // The run's copy of the folder when the engine is sandboxed (folder_ is
    // then inside its scratch directory); empty otherwise.
    std::filesystem::path folder_store_;
};

}  // namespace arena::session
