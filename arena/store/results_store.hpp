#pragma once
// The results database: tournaments, their bots, every finished game with
// its moves and logs, and ratings, in one SQLite file (WAL mode, so other
// readers can query it during a run; or the rollback journal, for a file on
// a network filesystem: JournalMode). Each game is written in its own
// transaction the moment it ends; a game's schedule index is unique within
// its tournament, so a resumed run can never store a game twice.
//
// This layer knows game records and nothing of processes or schedules.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/record/game_record.hpp"
#include "arena/store/journal_mode.hpp"

namespace arena::store {

inline constexpr int kSchemaVersion = 11;

// A database that cannot be opened, has a newer schema, or fails a query.
// The message names the file and the problem.
class StoreError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct TournamentSpec {
    std::string name;
    std::string game;         // registry name
    std::string config_text;  // the config file as written
    std::string fingerprint;  // identifies what decides the schedule and results (see runner)
    std::uint64_t seed = 0;
    std::int64_t total_games = 0;
};

struct BotEntry {
    std::string name;
    std::string command;   // as written in the config
    std::string protocol;  // "arena1"
    std::string sha256;    // of the executable file; empty when unknown
    // Of a standing tournament (docs/database.md, "segments"): 1, 2, ... for
    // the programs a bot has had, the earlier ones named "name@1", ...
    int version = 1;
    bool retired = false;  // plays no more games (bots.retired is set)
};

// One segment of a standing tournament's schedule (see docs/database.md).
struct SegmentRow {
    int segment = 0;  // 0, 1, ... in the order they were added
    int games_per_pair = 2, rounds = 1;
    std::int64_t first_game = 0, games = 0;  // where its games are in the schedule
    std::string description;                 // what changed, for people; empty for the first
    std::string fingerprint;                 // of the config that made it
    std::vector<int> active;                 // the bots that play from it on: positions in bots()
};

// A change of a standing tournament, made by one transaction.
struct TournamentChange {
    // Bots that become earlier versions: name now, name after ("x" -> "x@1").
    std::vector<std::pair<std::string, std::string>> renamed;
    // Bots whose sha256 is replaced (a new program before their first game).
    std::vector<std::pair<std::string, std::string>> new_sha256;
    std::vector<BotEntry> entering;  // new bots, after the existing ones
    // Appended in order; positions in `active` are those after the renames
    // and the new bots. The last one's decides bots.retired.
    std::vector<SegmentRow> segments;
    std::string config_text, fingerprint;  // the tournament's from now on
    std::int64_t total_games = 0;
};

struct TournamentRow {
    std::int64_t id = 0;
    TournamentSpec spec;
    std::string status;                   // "running", "finished", "interrupted"
    std::string created_at, finished_at;  // ISO 8601 UTC; finished_at empty until finished
};

// Where a game sits in its schedule.
struct GameSlot {
    std::int64_t index = 0;  // 0-based position in the schedule; unique per tournament
    int round = 0;
    int pair = 0;          // index of the colour-swapped pair within the tournament
    int game_in_pair = 0;  // 0 or 1
    std::string opening;   // the opening moves in protocol notation, space-separated
};

// What the first mover scored in a stored result: 1 for "1-0", 1/2 for
// "1/2-1/2", 0 for "0-1"; nullopt for any other text.
[[nodiscard]] inline std::optional<double> first_mover_score(std::string_view result) {
    if (result == "1-0") return 1.0;
    if (result == "1/2-1/2") return 0.5;
    if (result == "0-1") return 0.0;
    return std::nullopt;
}

// A parameter value a game of a tuning run was played with (arena tune):
// game_params in docs/database.md.
struct GameParam {
    std::string name;
    std::int64_t iteration = 0;
    std::int64_t batch = 1;               // iterations that shared a theta
    double theta = 0.0;                   // the point the iteration perturbed
    std::optional<double> first, second;  // what each side received; none: a fixed opponent
};

// One stored row of game_params, with its game's place in the schedule.
struct StoredGameParam {
    std::int64_t game_index = 0;
    GameParam param;
};

struct GameSummary {
    std::int64_t id = 0;
    GameSlot slot;
    std::string first, second;  // bot names; `first` moved first
    std::string result;         // "1-0", "0-1", "1/2-1/2"
    std::string termination;    // "normal", "timeout", ...
    std::string detail;
    int plies = 0;
    std::int64_t duration_us = 0;
    std::string started_at;
    // record::moves_hash of the game; none for a game stored by another
    // program without one.
    std::optional<std::int64_t> moves_hash;
};

// The game's moves hash when it ended normally: only such games are compared
// for repeats (rating/repeats.hpp); none for any other ending.
[[nodiscard]] inline std::optional<std::int64_t> comparable_hash(const GameSummary& game) {
    if (game.termination != "normal") return std::nullopt;
    return game.moves_hash;
}

struct StoredMove {
    int ply = 0;   // 1-based
    int side = 0;  // 1 or 2
    std::string move;
    std::int64_t time_us = 0;
    bool by_arena = false;
    std::vector<std::string> info;
};

struct StoredGame {
    GameSummary summary;
    std::string game;    // registry name
    std::string params;  // "rows=6 cols=7 connect=4"
    std::vector<StoredMove> moves;
    std::string stderr_logs[2];
    std::string transcripts[2];                   // as GameRecord::transcripts; empty when not kept
    std::optional<std::uint64_t> peak_memory[2];  // bytes, as GameRecord::peak_memory
    std::string controls[2];  // as GameRecord::controls; empty when not known (older games)
};

// Games of a tournament counted by who moved first, who second, the result
// and the ending: everything the standings need, whatever the number of games.
struct ResultCount {
    int first = 0, second = 0;  // positions in bots(tournament); `first` moved first
    games::Outcome outcome = games::Outcome::kDraw;
    record::Termination termination = record::Termination::kNormal;
    std::int64_t games = 0;
    // Of those games, how many repeat an earlier one move for move: the same
    // board, opening, moves and ending (equal `moves_hash`, see
    // docs/database.md). Each group of equal games counts all but one.
    std::int64_t duplicates = 0;
};

// One game as the search for repeated colour-swapped pairs reads it
// (rating/repeats.hpp): its pair, its bots, its result and its moves hash.
struct PairedGameRow {
    std::int64_t pair = 0;      // the pair's index in the schedule
    int first = 0, second = 0;  // positions in bots(tournament); `first` moved first
    games::Outcome outcome = games::Outcome::kDraw;
    // The moves hash when the game ended normally (comparable_hash); none
    // for any other ending, or for a game stored without one.
    std::optional<std::int64_t> moves_hash;
};

// A call of the store that waits because another connection (another
// program: a `sqlite3` shell inside a transaction, a backup) holds the
// database's write lock.
struct LockWait {
    std::filesystem::path file;
    std::chrono::milliseconds waited{};  // since the call first found the database locked
    bool over = false;                   // the call went through after waiting
};

// How a call waits for a database locked by another connection. SQLite waits
// up to a quarter of a second for the lock; after that the call starts over
// from the beginning (a transaction that could not take the lock has written
// nothing), again and again, until it goes through, `limit` has passed, or
// `stop` is requested. Then it throws StoreError naming the file.
struct LockWaiting {
    // Longest wait of one call; std::nullopt waits as long as the lock is held.
    std::optional<std::chrono::milliseconds> limit = std::chrono::milliseconds(5000);
    // Told each time another `report_every` of waiting has passed (waited =
    // 10 s, 20 s, ...), and once more, with `over` set, when a call that was
    // reported goes through. Called on the thread that called the store.
    std::function<void(const LockWait&)> report;
    std::chrono::milliseconds report_every = std::chrono::seconds(10);
    // Once requested, a waiting call gives up within a quarter of a second.
    std::stop_token stop;
};

struct RatingRow {
    std::string bot;
    double elo = 0, error = 0;  // error: half-width of the 95 % interval
};

// How a store opens its file.
//  kReadWrite: created when missing (with its directory), upgraded to this
//      arena's schema, written to.
//  kReadOnly: for the commands that only read (`standings`, `games`, `show`,
//      `log`, `export`, `report`, `serve`). The file is opened with
//      SQLITE_OPEN_READONLY and nothing is written to it: it must exist and
//      be an arena results database (an empty or a 0-byte file is refused),
//      the calls that write throw StoreError, and the user needs only read
//      access to the file. A file of an older schema is read through a copy
//      in memory, upgraded there; the file itself is not upgraded.
enum class Access { kReadWrite, kReadOnly };

// The schema version of an arena results database, read without writing
// anything. Throws StoreError for a missing file or one that is not an arena
// results database (an empty SQLite file is one of version 0).
[[nodiscard]] std::int64_t stored_schema_version(const std::filesystem::path& path);

// `arena upgrade`: brings the database at `path` to this arena's schema, in
// place, keeping every stored game, and says what was done: "PATH: upgraded
// from schema version 3 to 7", or "PATH: schema version 7, this arena's:
// left as it is". Throws StoreError for an empty database ("PATH: an empty
// database, not a results database: nothing to upgrade"), one of a newer
// schema, and what stored_schema_version throws.
[[nodiscard]] std::string upgrade_database(const std::filesystem::path& path);

// Calls may come from any thread; one store serializes them on its single
// connection. Other processes may read the file at any time.
class ResultsStore {
  public:
    // Opens or creates the database (and its parent directory), applies
    // pragmas (WAL, foreign keys, busy timeout), creates or upgrades the
    // schema step by step, and refuses a newer schema version. Every call,
    // this one included, waits for a database locked by another connection
    // as `waiting` says; the default gives up after 5 s.
    explicit ResultsStore(const std::filesystem::path& path, LockWaiting waiting = {});
    // As above with Access::kReadWrite, or read-only (see Access). A
    // read-only store never changes the file's journal mode.
    ResultsStore(const std::filesystem::path& path, Access access, LockWaiting waiting = {});
    // As the first, read-write, with the file in `journal` mode (a config's
    // `journal_mode`): JournalMode::kWal is the first constructor;
    // kDelete opens it with the rollback journal and synchronous=FULL. The
    // mode is stored in the file, so a file in the other mode is switched,
    // either way. Leaving WAL needs the file to itself: while another
    // connection has it open in WAL mode (a run, `arena serve`, a sqlite3
    // shell), the constructor waits up to 2 s for it to close, then throws
    // StoreError naming the file.
    ResultsStore(const std::filesystem::path& path, JournalMode journal, LockWaiting waiting = {});
    ~ResultsStore();
    ResultsStore(ResultsStore&&) noexcept;
    ResultsStore& operator=(ResultsStore&&) noexcept;

    [[nodiscard]] bool read_only() const;

    // How the calls from now on wait for a locked database.
    void set_lock_waiting(LockWaiting waiting);

    [[nodiscard]] std::optional<TournamentRow> find_tournament(const std::string& name);
    [[nodiscard]] std::vector<TournamentRow> tournaments();

    // Creates the tournament with its bots and, when given, its first
    // segment (one transaction) and returns its id. Throws StoreError if one
    // with this name exists.
    std::int64_t create_tournament(const TournamentSpec& spec, const std::vector<BotEntry>& bots,
                                   const std::optional<SegmentRow>& first_segment = std::nullopt);
    // In the order they entered the tournament.
    [[nodiscard]] std::vector<BotEntry> bots(std::int64_t tournament);
    // In order; empty for a tournament stored without (see docs/database.md).
    [[nodiscard]] std::vector<SegmentRow> segments(std::int64_t tournament);
    // Renames, adds bots and segments, sets bots.retired from the last
    // segment, and replaces the tournament's config, fingerprint and
    // total_games, all in one transaction. No game is touched.
    void change_tournament(std::int64_t tournament, const TournamentChange& change);
    void set_status(std::int64_t tournament, const std::string& status);

    // Schedule indices already stored.
    [[nodiscard]] std::vector<std::int64_t> recorded_indices(std::int64_t tournament);

    // Stores one finished game, its moves, the bots' logs and, for a tuning
    // run, its parameter values, in one transaction. Returns the game id.
    // Throws StoreError when the slot is already taken.
    std::int64_t record_game(std::int64_t tournament, const GameSlot& slot,
                             const record::GameRecord& game,
                             const std::vector<GameParam>& params = {});
    // The parameter values of the tournament's games (a tuning run's), by
    // game index, then in the order they were stored; empty for any other.
    [[nodiscard]] std::vector<StoredGameParam> game_params(std::int64_t tournament);

    // Games in schedule order; with `bot`, only that bot's; with
    // `termination` ("timeout", ...), only those that ended so.
    [[nodiscard]] std::vector<GameSummary> games(
        std::int64_t tournament, const std::optional<std::string>& bot = {},
        const std::optional<std::string>& termination = {});
    // The games stored after game id `after_id`, in the order they were
    // stored (by id): what another process reads of a database as it grows
    // (a cluster worker reading the others', tournament/peers.hpp).
    [[nodiscard]] std::vector<GameSummary> games_after(std::int64_t tournament,
                                                       std::int64_t after_id);
    [[nodiscard]] std::optional<StoredGame> load_game(std::int64_t game_id);
    // What each bot of the tournament played under in its latest game
    // (GameRecord::controls), in the order of bots(); "" for a bot without
    // games, or whose games were stored before controls were kept.
    [[nodiscard]] std::vector<std::string> bot_controls(std::int64_t tournament);

    // The tournament's games counted (see ResultCount), in no particular
    // order. Read from one index, without the games: fast on millions.
    [[nodiscard]] std::vector<ResultCount> result_counts(std::int64_t tournament);
    // Every game of the tournament as a PairedGameRow, in schedule order.
    [[nodiscard]] std::vector<PairedGameRow> paired_games(std::int64_t tournament);

    // Replaces the tournament's ratings as a whole.
    void save_ratings(std::int64_t tournament, const std::vector<RatingRow>& ratings);
    // Highest Elo first.
    [[nodiscard]] std::vector<RatingRow> ratings(std::int64_t tournament);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arena::store
