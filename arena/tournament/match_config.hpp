#pragma once
// `arena match` as a tournament of its own: the match's settings as its
// command line gives them, checked (the board, the openings, what each
// bot's protocol plays), made into the two-bot Config the runner plays (a
// round-robin, or with an SPRT a gauntlet of BOT1 against BOT2, one
// colour-swapped pair after another), and created in a results database.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/games/game.hpp"
#include "arena/match/time_control.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/session/session.hpp"
#include "arena/tournament/config.hpp"

namespace arena::tournament {

// The most games of a match with an SPRT when --games is not given.
inline constexpr int kSprtMaxGames = 20000;

// The options of `arena match` that each side has of its own: --move-ms1
// and --move-ms2, and so on; a bot's time keys override the match's
// (--move-ms, ...) for that bot, and its depth and nodes go on every `go`
// it is sent.
struct SideOption {
    std::string_view stem;  // "move-ms": --move-ms1, --move-ms2
    std::int64_t lo, hi;
    std::string_view help;  // with "BOT" for the side's bot
};
inline constexpr std::array<SideOption, 6> kSideOptions{{
    {"move-ms", 0, bounds::kMaxMillis, "BOT's time per move in ms (overrides --move-ms)"},
    {"tolerance-ms", 0, bounds::kMaxMillis, "BOT's tolerance in ms (overrides --tolerance-ms)"},
    {"game-ms", 0, bounds::kMaxMillis, "BOT's game clock in ms (overrides --game-ms)"},
    {"inc-ms", 0, bounds::kMaxMillis, "BOT's increment per move in ms (overrides --inc-ms)"},
    {"depth", 1, bounds::kMaxPlies, "search depth asked of BOT on every go (depth=N)"},
    {"nodes", 1, bounds::kMaxNodes, "nodes asked of BOT on every go (nodes=N)"},
}};
// An option's help for side 1 or 2 ("BOT" made "BOT1" or "BOT2").
[[nodiscard]] std::string side_option_help(const SideOption& option, int side);

struct MatchSettings {
    std::string game;
    games::Params params;  // game parameters, possibly a family (variant=tsinghua)
    int games = 2;
    match::TimeControl time;
    session::SessionOptions session;
    std::uint64_t seed = 1;
    int random_plies = 0;
    // The openings the pairs start from (an openings file, checked on the
    // board), shuffled by the seed; empty: random_plies.
    std::filesystem::path openings_file;
    std::vector<std::vector<std::string>> openings;
    session::Isolation isolation;  // for both bots
    std::vector<session::BotSpec> bots;
    std::vector<std::string> commands;        // each bot argument as typed
    std::string db;                           // results database to store the match in; "" for none
    std::string name;                         // the stored tournament's name ("" for a default)
    std::vector<std::string> args;            // the whole command line, for the stored record
    std::optional<rating::SprtOptions> sprt;  // with --sprt: the test to run
    bool count_repeats = false;               // --count-repeats (Config::count_repeats)
    // Per side (BOT1, BOT2): the values of the side options given
    // (set_side_option), by stem; then, checked, each bot's own time control
    // (nullopt: `time`) and search limits.
    std::array<std::vector<std::pair<std::string, std::int64_t>>, 2> side_values;
    std::array<std::optional<match::TimeControl>, 2> side_time;
    std::array<match::SearchLimits, 2> limits;
};

// Keeps the value of --<stem><side> (side 1 or 2), an option of kSideOptions.
void set_side_option(MatchSettings& m, std::string_view stem, int side, std::int64_t value);

// The settings' own checks once the options are read: --name and
// --transcript need --db; with `sprt` (--sprt's text) the test
// (rating::parse_sprt_options) and --games, kSprtMaxGames when
// `games_defaulted`, even; at least one game, no negative random plies and
// a valid time control, the match's and each side's of its own (the side
// options over `time`). Throws std::invalid_argument.
void check_match_settings(MatchSettings& m, const std::optional<std::string>& sprt,
                          bool games_defaulted);

// BOT1 and BOT2 from their arguments `bots`, as typed (parse_bot_argument;
// kept in m.commands), put in their folders (place_bots, `dirs` as there).
// Throws std::invalid_argument unless there are two, or for a bad one.
void read_match_bots(MatchSettings& m, const std::vector<std::string>& bots,
                     const std::array<std::string, 3>& dirs);

// Puts the two bots in their folders: `dirs` are --dir (both), --dir1 and
// --dir2 (each overriding --dir), "" where not given. Two bots of one name
// become NAME-1 and NAME-2. Throws std::invalid_argument for a folder that
// is not a directory.
void place_bots(MatchSettings& m, const std::array<std::string, 3>& dirs);

// Sets the protocol each bot speaks (set_bot_protocol): `protocols` are
// --protocol (both), --protocol1 and --protocol2 (each overriding
// --protocol), "" where not given. Throws std::invalid_argument.
void set_match_protocols(MatchSettings& m, const std::array<std::string, 3>& protocols);

// The openings of the pairs: `openings` is --openings (a FILE, "none", or
// "" for the default) and `plies_given` whether --random-plies was; by
// default the game's shipped suite for the board (else, with an SPRT, a few
// random plies). Throws std::invalid_argument naming the problem.
void choose_openings(MatchSettings& m, const std::string& openings, bool plies_given);

// Checks the game and its board before any bot starts, chooses the openings
// (choose_openings) and checks that each bot's protocol plays the game.
// Throws what the game's registry throws, or std::invalid_argument.
void check_match_game(MatchSettings& m, const std::string& openings, bool plies_given);

// The match as a tournament Config.
[[nodiscard]] Config match_config(const MatchSettings& m);

// The command line `args` (after "arena match") as one line, for the
// stored config's comment: each argument quoted as needed, line breaks
// made spaces.
[[nodiscard]] std::string command_comment(const std::vector<std::string>& args);

}  // namespace arena::tournament
