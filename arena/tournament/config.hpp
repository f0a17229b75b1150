#pragma once
// A tournament config (YAML), parsed and fully validated before anything
// runs. Every problem is reported as one ConfigError whose message names the
// file, the line and column, and what is wrong, e.g.
//   configs/x.yaml:7:3: unknown key 'concurency' (did you mean 'concurrency'?)
// See docs/config.md for every key. The loader's parts: config_fields.hpp
// reads the YAML, config_bots.hpp the bots, and program_files.hpp finds and
// fingerprints their programs.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/games/game.hpp"
#include "arena/match/time_control.hpp"
#include "arena/rating/elo.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/session/session.hpp"
#include "arena/store/journal_mode.hpp"
#include "arena/tournament/program_files.hpp"
#include "arena/tournament/scoring.hpp"
#include "arena/tune/spsa.hpp"

namespace arena::tournament {

class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The ranges of the numbers a config or a command line gives, in one place:
// `load_config` and the command-line options (arena/cli/bot_options.hpp)
// check against these. Generous ceilings: they only stop typos (an extra
// digit or three) and overflow further down (milliseconds become
// nanoseconds in the clock).
namespace bounds {
inline constexpr std::int64_t kMaxMillis = 1'000'000'000;  // any *_ms
inline constexpr std::int64_t kMaxMegabytes = std::int64_t{1} << 30;
inline constexpr std::int64_t kMaxCount = 1 << 24;  // open files, processes, CPU seconds
inline constexpr std::int64_t kMinLineBytes = 64;
inline constexpr std::int64_t kMaxLineBytes = kMaxMegabytes;
inline constexpr std::int64_t kMaxFreezeGraceMs = 60'000;
inline constexpr std::int64_t kMaxNice = 19;
inline constexpr std::int64_t kMaxConcurrency = 4096;
inline constexpr std::int64_t kMaxGames = 1'000'000;
inline constexpr std::int64_t kMaxPlies = 10'000;
// A bot's `nodes:` (search limit): a generous ceiling, typos only.
inline constexpr std::int64_t kMaxNodes = std::int64_t{1} << 50;
// Bot and tournament names: a bot's name becomes part of file names (its
// logs, its scratch directory), which the file system limits to 255 bytes.
inline constexpr std::size_t kMaxNameLength = 100;
}  // namespace bounds

// `text`, a decimal integer that `name` must have in [lo, hi]. Otherwise
// throws std::invalid_argument with the message configs and command lines
// share: "<name> must be at most <hi>, got <text>" ("must be at least",
// "must not be negative", "must be positive"), or "expected an integer for
// <name>, got '<text>'".
[[nodiscard]] std::int64_t parse_bounded_integer(const std::string& name, const std::string& text,
                                                 std::int64_t lo, std::int64_t hi);

enum class ScheduleType { kRoundRobin, kGauntlet, kLadder };

struct BotConfig {
    std::string name;
    std::string command;               // as written (a string, split like a shell)
    std::vector<std::string> argv;     // command split into words, then `args` appended
    std::string protocol = "arena1";   // as written; see session::parse_bot_protocol
    std::filesystem::path executable;  // argv[0] resolved (PATH searched when it has no '/')
    // Files named by the arguments (a script, a jar, weights) that exist:
    // with the executable, what identifies the bot's build (bot_sha256).
    std::vector<std::filesystem::path> files;
    // Limits, freezing, sandbox and environment: `bot_defaults`, then the bot's own keys.
    session::Isolation isolation;
    std::size_t max_line_bytes = 1 << 20;
    // Where the bot starts (`dir`, alias `workdir`), as written; its command
    // and arguments are taken from there. Empty: the arena's current directory.
    std::filesystem::path dir;
    // A fresh process for every game (restart: per-game); by default a
    // process plays game after game until it faults (restart: on-fault),
    // except a tsinghua-so bot's, whose default is per-game.
    bool restart_each_game = false;
    // A bot from `bots_dir`: its manifest (`<folder>/bot.yaml`) and the
    // manifest's `author`. Empty for a bot of the `bots:` list.
    std::filesystem::path manifest;
    std::string author;
    // The bot's own `time:`, over the tournament's (a key it does not give
    // is the tournament's); nullopt: the tournament's (time odds,
    // docs/config.md).
    std::optional<match::TimeControl> time;
    // `depth:` and `nodes:` (here or in `bot_defaults`): put on every `go`
    // the bot is sent; none by default.
    match::SearchLimits limits;
};

// How the pairs take the lines of an openings file (docs/config.md).
enum class OpeningOrder {
    kSeededStart,  // no `order`: from a line drawn from the seed, in file order
    kSequential,   // from opening `start`, in file order
    kRandom,       // a seeded shuffle of the file, from its entry `start`
};

struct OpeningsConfig {
    int random_plies = 0;        // seeded random legal plies
    std::filesystem::path file;  // or: one opening per line, moves in protocol notation
    std::vector<std::vector<std::string>> lines;  // the file's openings, read and checked at load
    OpeningOrder order = OpeningOrder::kSeededStart;
    int start = 1;  // 1-based: the first pair's opening in the order
    // `per_opponent: same`: the k-th pair of every meeting (of a gauntlet's
    // challenger with each opponent) takes the same opening and board, so
    // that results against different opponents compare; by default each
    // pair of the schedule takes the next.
    bool same_per_opponent = false;
};

// What `arena run` does when a bot of a stored tournament comes with a
// changed program (its bot_sha256): `versions:` (docs/config.md).
enum class Versions {
    kWarn,    // a warning naming the bot; it plays on under its name (the default)
    kRefuse,  // the run is refused, naming the bot
    kKeep,    // a new version: the earlier one's games stay under "name@1", ...
};

// `tune:` (arena tune, docs/tuning.md): SPSA over the parameters of one
// bot. The config's bots are then "theta+" and "theta-", the tuned bot at the
// two points of each iteration (their argv here at the start values), and,
// against a fixed opponent, that bot third. The schedule is a gauntlet of
// 2 * pairs games a meeting: theta+ against theta- (pair k: iteration k), or
// the opponent against each (pairs 2k and 2k + 1, on the same opening).
struct TuneConfig {
    std::vector<tune::SpsaParam> params;
    tune::SpsaOptions spsa;  // iterations: `pairs`; seed: the config's; batch: below
    // `batch`: iterations played from one theta; nullopt: the run's
    // concurrency when the tune begins (then stored with its games).
    std::optional<std::int64_t> batch;
    // The tuned bot's command and args as split, `{name}` where a
    // parameter's value goes.
    std::vector<std::string> argv;
    bool self = true;  // `opponent: self`; else the opponent is bots[2]
    // Not of the config: `arena tune --stop-after N`, the most iterations a
    // run plays (whole batches); 0: to the end.
    std::int64_t stop_after = 0;
};

// `league:` (docs/league.md): a standing tournament over `bots_dir` whose
// participants upload their bots through `arena serve DB --league CONFIG`.
// None of it changes a game, so none of it is in the fingerprint. Under a
// league the bots of bots_dir always run sandboxed, and the config may have
// fewer than two bots (nothing is uploaded yet); too_few_bots() says so.
struct LeagueSettings {
    // `closes`: when uploads stop being taken; nullopt: never.
    std::optional<std::chrono::system_clock::time_point> closes;
    int uploads_per_hour = 20;  // per participant
    // The largest upload, in MiB; what it unpacks to may be 4 times that
    // (upload::UploadLimits, which the server makes of it).
    int max_upload_mb = 16;
    int checks_at_once = 2;  // arena check-bot runs of uploads at once
};

inline constexpr std::string_view kThetaPlus = "theta+";
inline constexpr std::string_view kThetaMinus = "theta-";

struct Config {
    std::filesystem::path path;  // the file it came from
    std::string text;            // the file's content, as written
    std::string name;
    std::string game;           // registry name
    games::Params game_params;  // may describe a family (variant=tsinghua)
    match::TimeControl time;
    std::int64_t startup_ms = 10'000;
    bool realtime_deadlines = true;  // time.realtime
    ScheduleType schedule = ScheduleType::kRoundRobin;
    std::string challenger;  // gauntlet only
    // Gauntlet only (`challengers: bots_dir`): every bot of bots_dir is a
    // challenger and plays every bot of the `bots:` list (the references);
    // no two challengers meet, nor two references. `challenger` is then empty.
    bool challengers_from_bots_dir = false;
    int games_per_pair = 2;  // even
    int rounds = 1;          // the schedule repeated
    // Ladder only (ladder.hpp): each entrant plays until its 95 % half-width
    // is below target_error (Elo) or it has played games_per_entrant games,
    // opponents_per_round opponents a round, games_per_pair games each.
    int games_per_entrant = 60;
    double target_error = 75.0;
    int opponents_per_round = 4;
    // Gauntlet only (schedule.sprt): one SPRT per opponent, from the
    // challenger's side; an opponent's games stop once its test is decided.
    // games_per_pair is then the most games per opponent.
    std::optional<rating::SprtOptions> sprt;
    OpeningsConfig openings;
    int concurrency = 0;  // 0: number of cores
    std::uint64_t seed = 1;
    std::filesystem::path database;  // default results/<name>.db
    // `journal_mode`: how the commands that write the database open it
    // (store::JournalMode): `wal`, or `delete` (the rollback journal) for a
    // database on a network filesystem read from other machines. Not in the
    // fingerprint: it decides nothing of the games.
    store::JournalMode journal_mode = store::JournalMode::kWal;
    std::vector<BotConfig> bots;     // the `bots:` list, then one per `bots_dir` subfolder
    std::filesystem::path bots_dir;  // `bots_dir`: one bot per subfolder with a bot.yaml
    // `check`: each bot from bots_dir passes the arena check-bot checks
    // before it plays (arena run checks a new or changed one).
    bool check = false;
    std::optional<Scoring> scoring;  // course-style points in the standings
    // Bots held at known ratings in the standings, in the order written, so
    // that the ratings of different runs share one scale; empty: mean 0.
    std::vector<rating::Anchor> anchors;
    bool transcript = false;  // store every line between arena and bots, per game
    // `count_repeats`: a pair that repeats an earlier one move for move
    // counts in the SPRT like any other (repeats.hpp); for bots known to be
    // non-deterministic.
    bool count_repeats = false;
    Versions versions = Versions::kWarn;
    std::optional<TuneConfig> tune;        // a tuning run's (arena tune)
    std::optional<LeagueSettings> league;  // a league's (arena serve --league)
    // Likely mistakes that do not stop the run ("file:line:col: warning: ...").
    std::vector<std::string> warnings;
};

// The SHA-256 that identifies the bot's build: of its executable, or, when
// its arguments name files (`python3 bot.py`, `java -jar bot.jar`), of the
// sha256sum-style listing of the executable and those files, so an edited
// script counts as a new build. Empty when the executable cannot be read.
[[nodiscard]] std::string bot_sha256(const BotConfig& bot);

// What `bot` plays under: its own time control (else the config's) and its
// search limits.
[[nodiscard]] match::SideControl side_control(const Config& config, const BotConfig& bot);

// What a session of `bot` is started with.
[[nodiscard]] session::BotSpec bot_spec(const BotConfig& bot);
[[nodiscard]] session::SessionOptions session_options(const Config& config, const BotConfig& bot);
// What `bot`, when sandboxed, must not see (session::SandboxOptions::hidden):
// the database, the config, bots_dir, and every other bot's folder and
// program files, except those it shares with them.
[[nodiscard]] std::vector<std::filesystem::path> sandbox_hidden(const Config& config,
                                                                const BotConfig& bot);

// Reads and validates. Relative paths inside the config (openings file,
// database, a bot's `dir`) are taken relative to the current directory, as
// the user typed them from there; a bot's command and arguments relative to
// its `dir` (the current directory by default), where it starts.
[[nodiscard]] Config load_config(const std::filesystem::path& path);

// The same, or nullopt after printing its ConfigError (file, line, key) on
// `err`: what `arena run`, `grade` and `slurm` say of a config they cannot use.
[[nodiscard]] std::optional<Config> load_config(const std::filesystem::path& path,
                                                std::ostream& err);

// Same, from text (for tests); `path` is only used in messages.
[[nodiscard]] Config parse_config(const std::string& text, const std::filesystem::path& path);

// "" when `config` has the two bots a tournament needs to play; else why
// not, in one line: "league 'x' has 1 bot; at least 2 are needed to play;
// uploads add more" (only a league's config loads with fewer).
[[nodiscard]] std::string too_few_bots(const Config& config);

// One submission read alone, as a league checks an upload before it
// installs it: the config at `config_path` (its game, time, bot_defaults,
// `league:` and bots_dir, all checked as load_config checks them) with, in
// place of bots_dir's subfolders, the one `folder` (which may be a hidden
// staging folder, such as bots_dir/.install-alice-XXXXXX), its bot.yaml read
// as bots_dir's manifests are (the same keys and rules, the defaults, a
// league's sandbox), and the bot named `name`, whatever the folder's name.
// The config's bots are those of its `bots:` list, then this one, last;
// what its bot must not see when sandboxed is sandbox_hidden(config, bot),
// which hides bots_dir, so every other participant's folder, and shows it
// its own. Throws ConfigError naming the config, or the manifest and its
// line, as load_config does; a manifest whose `name` is not `name` too.
[[nodiscard]] Config submission_config(const std::filesystem::path& config_path,
                                       const std::filesystem::path& folder,
                                       const std::string& name);
// That bot alone: submission_config(...).bots.back().
[[nodiscard]] BotConfig submission_bot(const std::filesystem::path& config_path,
                                       const std::filesystem::path& folder,
                                       const std::string& name);

}  // namespace arena::tournament
