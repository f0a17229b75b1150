#pragma once
// Protocol v1 messages (see PROTOCOL.md) and their text form.
//
// The arena formats ArenaCommands and parses BotLines; the C++ bots do the
// reverse. Parsing never throws: a line that is not a valid message comes
// back as nullopt (arena commands, which bots must ignore when unknown) or as
// BotLine::Kind::kInvalid (bot lines, which the arena judges).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace arena::protocol {

inline constexpr int kProtocolVersion = 1;

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// ---- arena -> bot ----------------------------------------------------------

struct Hello {  // "arena 1"
    int version = kProtocolVersion;
};

struct GameStart {  // "game connect4 player=1 rows=6 cols=7 connect=4 move_ms=3000"
    std::string game;
    int player = 1;
    KeyValues params;  // game parameters and time control, in order, player excluded
};

struct Position {  // "position 4 4 3"
    std::vector<std::string> moves;
};

struct Go {  // "go move_ms=3000 [clock_ms=.. opp_clock_ms=..] [depth=..] [nodes=..]"
    std::int64_t move_ms = 0;
    std::optional<std::int64_t> clock_ms;
    std::optional<std::int64_t> opp_clock_ms;
    // Search limits: stop at this depth (plies searched ahead, at least 1) or
    // after this many nodes (at least 1). The time limit still holds.
    std::optional<std::int64_t> depth;
    std::optional<std::int64_t> nodes;
};

enum class GameResult : std::uint8_t { kWin, kLoss, kDraw };

struct End {  // "end win reason=connect"
    GameResult result = GameResult::kDraw;
    std::string reason;
};

struct Quit {};

using ArenaCommand = std::variant<Hello, GameStart, Position, Go, End, Quit>;

// One line, without the trailing newline.
[[nodiscard]] std::string format(const ArenaCommand& command);

// nullopt for an unknown or malformed command (bots ignore those). Accepts a
// trailing '\r'. Unknown keys on known commands are kept (GameStart) or
// ignored (Go) for forward compatibility.
[[nodiscard]] std::optional<ArenaCommand> parse_arena_command(std::string_view line);

[[nodiscard]] std::string_view to_string(GameResult r);

// ---- bot -> arena ----------------------------------------------------------

// The number after the word `key` in the text of an `info` line ("depth 4
// score 12 nodes 900 pv 4 3"), if the word is there and an integer follows.
[[nodiscard]] std::optional<std::int64_t> info_value(std::string_view info, std::string_view key);

struct BotLine {
    enum class Kind : std::uint8_t {
        kName,     // "name <text>"
        kAuthor,   // "author <text>"
        kVersion,  // "version <text>"
        kReady,    // "ready"
        kInfo,     // "info <text>"
        kDebug,    // "debug <text>"
        kMove,     // "move <move>"
        kInvalid,  // anything else (text holds the whole line)
    };
    Kind kind = Kind::kInvalid;
    std::string text;  // the argument (the move for kMove), trimmed
};

// Accepts a trailing '\r'. Never throws.
[[nodiscard]] BotLine parse_bot_line(std::string_view line);

[[nodiscard]] std::string format(const BotLine& line);

// Helpers shared by both sides.
[[nodiscard]] std::vector<std::string_view> split_words(std::string_view line);
[[nodiscard]] std::optional<std::int64_t> parse_int(std::string_view text);
[[nodiscard]] const std::string* find_key(const KeyValues& kv, std::string_view key);

}  // namespace arena::protocol
