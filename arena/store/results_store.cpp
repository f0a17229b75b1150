#include "arena/store/results_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "arena/record/params_text.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {
namespace {

using namespace std::chrono_literals;

// PRAGMA application_id of an arena results database: "AREN".
constexpr std::int64_t kApplicationId = 0x4152454E;
// How long one statement waits for another connection's lock (SQLite's busy
// timeout) before the call gives up its attempt; retry_while_locked() then
// decides whether to try again.
constexpr auto kBusyTimeout = 250ms;

// Version 1: everything. Documented in docs/database.md; keep them in step.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    game        TEXT NOT NULL,
    config      TEXT NOT NULL,  -- the config file as written
    fingerprint TEXT NOT NULL,
    seed        TEXT NOT NULL,  -- decimal: a 64-bit unsigned seed does not fit INTEGER
    total_games INTEGER NOT NULL CHECK (total_games >= 0),
    status      TEXT NOT NULL DEFAULT 'running',  -- running, finished, interrupted
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at TEXT  -- set when status becomes 'finished'
);

CREATE TABLE bots (
    id         INTEGER PRIMARY KEY,
    tournament INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    command    TEXT NOT NULL,
    protocol   TEXT NOT NULL,
    sha256     TEXT,  -- of the executable; NULL when unknown
    UNIQUE (tournament, name)
);

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    tournament     INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    game_index     INTEGER NOT NULL CHECK (game_index >= 0),  -- position in the schedule
    round          INTEGER NOT NULL,
    pair_index     INTEGER NOT NULL,  -- the colour-swapped pair
    game_in_pair   INTEGER NOT NULL CHECK (game_in_pair IN (0, 1)),
    first_bot      INTEGER NOT NULL REFERENCES bots (id) ON DELETE CASCADE,  -- moved first
    second_bot     INTEGER NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
    opening        TEXT NOT NULL,  -- moves in protocol notation, space-separated
    game           TEXT NOT NULL,
    params         TEXT NOT NULL,  -- rows=6 cols=7 connect=4
    result         TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    winner         INTEGER NOT NULL CHECK (winner IN (0, 1, 2)),  -- side; 0 = draw
    termination    TEXT NOT NULL,  -- normal, timeout, crash, illegal, protocol, startup
    detail         TEXT NOT NULL,
    plies          INTEGER NOT NULL CHECK (plies >= 0),  -- moves, openings included
    opening_plies  INTEGER NOT NULL CHECK (opening_plies >= 0),
    started_at     TEXT NOT NULL,  -- 2024-05-01T12:34:56.789Z
    ended_at       TEXT NOT NULL,
    duration_us    INTEGER NOT NULL,
    fault_after_us INTEGER,  -- go written -> verdict; NULL for a normal ending
    UNIQUE (tournament, game_index)
);
CREATE INDEX games_by_first_bot ON games (first_bot);
CREATE INDEX games_by_second_bot ON games (second_bot);

CREATE TABLE moves (
    game     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL CHECK (ply >= 1),
    side     INTEGER NOT NULL CHECK (side IN (1, 2)),
    move     TEXT NOT NULL,
    time_us  INTEGER NOT NULL,  -- go written -> move read; 0 for the arena's moves
    by_arena INTEGER NOT NULL CHECK (by_arena IN (0, 1)),  -- opening move or forced pass
    info     TEXT,  -- the bot's info lines joined by '\n'; NULL when none
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;

CREATE TABLE bot_logs (
    game   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side   INTEGER NOT NULL CHECK (side IN (1, 2)),
    stderr TEXT NOT NULL,  -- a row only when the bot wrote something
    PRIMARY KEY (game, side)
) WITHOUT ROWID;

CREATE TABLE ratings (
    bot         INTEGER PRIMARY KEY REFERENCES bots (id) ON DELETE CASCADE,
    tournament  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    elo         REAL NOT NULL,
    error       REAL NOT NULL,  -- half-width of the 95 % interval
    computed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX ratings_by_tournament ON ratings (tournament);

-- One row per bot and game it played, from that bot's point of view; a bot
-- without games appears once with game NULL.
CREATE VIEW bot_games AS
SELECT t.id AS tournament_id, t.name AS tournament, b.id AS bot_id, b.name AS bot,
       g.id AS game, g.game_index,
       CASE b.id WHEN g.first_bot THEN 1 WHEN g.second_bot THEN 2 END AS side,
       CASE b.id WHEN g.first_bot THEN g.second_bot ELSE g.first_bot END AS opponent_id,
       g.winner = (CASE b.id WHEN g.first_bot THEN 1 ELSE 2 END) AS won,
       g.winner = 0 AS drawn,
       g.winner = (CASE b.id WHEN g.first_bot THEN 2 ELSE 1 END) AS lost,
       g.termination
  FROM bots AS b
  JOIN tournaments AS t ON t.id = b.tournament
  LEFT JOIN games AS g ON g.first_bot = b.id OR g.second_bot = b.id;

CREATE VIEW standings AS
SELECT s.tournament_id, s.tournament, s.bot_id, s.bot,
       COUNT(s.game) AS games,
       IFNULL(SUM(s.won), 0) AS wins,
       IFNULL(SUM(s.drawn), 0) AS draws,
       IFNULL(SUM(s.lost), 0) AS losses,
       IFNULL(SUM(s.won), 0) + 0.5 * IFNULL(SUM(s.drawn), 0) AS points,
       (IFNULL(SUM(s.won), 0) + 0.5 * IFNULL(SUM(s.drawn), 0)) / COUNT(s.game) AS score,
       1.0 * SUM(s.won) / COUNT(s.game) AS win_rate,
       IFNULL(SUM(s.side = 1 AND s.won), 0) AS first_wins,
       IFNULL(SUM(s.side = 1 AND s.drawn), 0) AS first_draws,
       IFNULL(SUM(s.side = 1 AND s.lost), 0) AS first_losses,
       IFNULL(SUM(s.side = 2 AND s.won), 0) AS second_wins,
       IFNULL(SUM(s.side = 2 AND s.drawn), 0) AS second_draws,
       IFNULL(SUM(s.side = 2 AND s.lost), 0) AS second_losses,
       IFNULL(SUM(s.lost AND s.termination = 'timeout'), 0) AS timeouts,
       IFNULL(SUM(s.lost AND s.termination = 'crash'), 0) AS crashes,
       IFNULL(SUM(s.lost AND s.termination <> 'normal'), 0) AS faults,
       r.elo, r.error
  FROM bot_games AS s
  LEFT JOIN ratings AS r ON r.bot = s.bot_id
 GROUP BY s.tournament_id, s.tournament, s.bot_id;

CREATE VIEW pair_results AS
SELECT s.tournament_id, s.tournament, s.bot_id, s.bot, o.id AS opponent_id, o.name AS opponent,
       COUNT(*) AS games,
       SUM(s.won) AS wins, SUM(s.drawn) AS draws, SUM(s.lost) AS losses,
       (SUM(s.won) + 0.5 * SUM(s.drawn)) / COUNT(*) AS score,
       SUM(s.side = 1 AND s.won) AS first_wins,
       SUM(s.side = 1 AND s.drawn) AS first_draws,
       SUM(s.side = 1 AND s.lost) AS first_losses,
       SUM(s.side = 2 AND s.won) AS second_wins,
       SUM(s.side = 2 AND s.drawn) AS second_draws,
       SUM(s.side = 2 AND s.lost) AS second_losses
  FROM bot_games AS s
  JOIN bots AS o ON o.id = s.opponent_id
 GROUP BY s.tournament_id, s.tournament, s.bot_id, o.id;

CREATE VIEW endings AS
SELECT s.tournament_id, s.tournament, s.bot_id, s.bot, s.termination,
       COUNT(*) AS games, SUM(s.won) AS wins, SUM(s.drawn) AS draws, SUM(s.lost) AS losses
  FROM bot_games AS s
 WHERE s.game IS NOT NULL
 GROUP BY s.tournament_id, s.tournament, s.bot_id, s.termination;

CREATE VIEW game_list AS
SELECT g.id, t.id AS tournament_id, t.name AS tournament, g.game_index, g.round, g.pair_index,
       g.game_in_pair, f.name AS first, s.name AS second, g.result, g.termination, g.detail,
       g.plies, g.opening, g.started_at, g.duration_us
  FROM games AS g
  JOIN tournaments AS t ON t.id = g.tournament
  JOIN bots AS f ON f.id = g.first_bot
  JOIN bots AS s ON s.id = g.second_bot;
)sql";

// Version 2: an index that answers the standings (games counted by pair,
// result and ending) without reading the games themselves.
constexpr const char* kSchemaV2 = R"sql(
CREATE INDEX games_by_result ON games (tournament, first_bot, second_bot, result, termination);
)sql";

// Version 3: the games table's CHECKs on result and winner as comparisons.
// SQLite evaluates an IN list of three or more values through a temporary
// b-tree, built and torn down for every insert: two per stored game, a
// quarter of the cost of storing it. The constraints accept exactly the same
// values. Only the text in sqlite_schema changes (SQLite's documented
// procedure for changing a CHECK: no row is read or rewritten, so the step is
// instant on a file of any size); migrate() bumps the schema cookie so that
// every connection reloads the schema.
constexpr const char* kSchemaV3 = R"sql(
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(replace(sql,
           'CHECK (result IN (''1-0'', ''0-1'', ''1/2-1/2''))',
           'CHECK (result = ''1-0'' OR result = ''0-1'' OR result = ''1/2-1/2'')'),
           'CHECK (winner IN (0, 1, 2))',
           'CHECK (winner = 0 OR winner = 1 OR winner = 2)')
 WHERE type = 'table' AND name = 'games';
PRAGMA writable_schema = OFF;
)sql";

// Version 4: every loss by a fault in the standings view, by kind, and
// games.moves_hash (see MovesHash below), which tells games that repeat
// another move for move. The standings index gets the hash as its last
// column, so result_counts() counts repeated games from the index alone.
// fill_moves_hashes() computes the hash of the games already stored, in the
// same transaction.
constexpr const char* kSchemaV4 = R"sql(
ALTER TABLE games ADD COLUMN moves_hash INTEGER;

DROP VIEW standings;
CREATE VIEW standings AS
SELECT s.tournament_id, s.tournament, s.bot_id, s.bot,
       COUNT(s.game) AS games,
       IFNULL(SUM(s.won), 0) AS wins,
       IFNULL(SUM(s.drawn), 0) AS draws,
       IFNULL(SUM(s.lost), 0) AS losses,
       IFNULL(SUM(s.won), 0) + 0.5 * IFNULL(SUM(s.drawn), 0) AS points,
       (IFNULL(SUM(s.won), 0) + 0.5 * IFNULL(SUM(s.drawn), 0)) / COUNT(s.game) AS score,
       1.0 * SUM(s.won) / COUNT(s.game) AS win_rate,
       IFNULL(SUM(s.side = 1 AND s.won), 0) AS first_wins,
       IFNULL(SUM(s.side = 1 AND s.drawn), 0) AS first_draws,
       IFNULL(SUM(s.side = 1 AND s.lost), 0) AS first_losses,
       IFNULL(SUM(s.side = 2 AND s.won), 0) AS second_wins,
       IFNULL(SUM(s.side = 2 AND s.drawn), 0) AS second_draws,
       IFNULL(SUM(s.side = 2 AND s.lost), 0) AS second_losses,
       IFNULL(SUM(s.lost AND s.termination = 'timeout'), 0) AS timeouts,
       IFNULL(SUM(s.lost AND s.termination = 'crash'), 0) AS crashes,
       IFNULL(SUM(s.lost AND s.termination = 'illegal'), 0) AS illegal_moves,
       IFNULL(SUM(s.lost AND s.termination = 'protocol'), 0) AS protocol_errors,
       IFNULL(SUM(s.lost AND s.termination = 'startup'), 0) AS startup_failures,
       IFNULL(SUM(s.lost AND s.termination <> 'normal'), 0) AS faults,
       r.elo, r.error
  FROM bot_games AS s
  LEFT JOIN ratings AS r ON r.bot = s.bot_id
 GROUP BY s.tournament_id, s.tournament, s.bot_id;
)sql";
// After the hashes are filled: an index built at once is faster than one
// updated for every game.
constexpr const char* kSchemaV4Index = R"sql(
DROP INDEX games_by_result;
CREATE INDEX games_by_result
    ON games (tournament, first_bot, second_bot, result, termination, moves_hash);
)sql";

// Version 5: each game's transcript (transcript: true): every line between
// the arena and each bot, one per line as "<µs since the game started> ->
// text" (to the bot) or "<µs> <- text" (from it). A row only when kept.
constexpr const char* kSchemaV5 = R"sql(
CREATE TABLE transcripts (
    game  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side  INTEGER NOT NULL CHECK (side IN (1, 2)),
    lines TEXT NOT NULL,
    PRIMARY KEY (game, side)
) WITHOUT ROWID;
)sql";

// Version 6: the peak memory of each side's process tree during the game,
// in bytes (GameRecord::peak_memory); NULL when not known, as for every game
// stored before.
constexpr const char* kSchemaV6 = R"sql(
ALTER TABLE games ADD COLUMN first_peak_memory INTEGER;
ALTER TABLE games ADD COLUMN second_peak_memory INTEGER;
)sql";

// Version 7: a standing tournament that grows. Its schedule is a list of
// segments: segment 0 is the schedule it was created with, and each later
// one the games a change of its config added (late entrants, more games per
// pair or rounds, retired or returning bots, new versions of a bot). A
// segment records games_per_pair and rounds from then on, where its games
// are in the schedule, and, in segment_bots, the bots that play from it on;
// the schedule is a pure function of these rows (arena/tournament/growth.hpp).
// bots.version counts the programs a bot has had (the earlier ones are kept
// as other rows, renamed "name@1", "name@2", ...); bots.retired is the
// segment from which a bot plays no more, NULL while it plays. Tournaments
// stored before have no segments until they first change (their segment 0
// is then read from their fingerprint and written with the change).
constexpr const char* kSchemaV7 = R"sql(
ALTER TABLE bots ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE bots ADD COLUMN retired INTEGER;

CREATE TABLE segments (
    tournament     INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    segment        INTEGER NOT NULL CHECK (segment >= 0),
    games_per_pair INTEGER NOT NULL CHECK (games_per_pair > 0),
    rounds         INTEGER NOT NULL CHECK (rounds > 0),
    first_game     INTEGER NOT NULL CHECK (first_game >= 0),  -- game_index of its first game
    games          INTEGER NOT NULL CHECK (games >= 0),       -- games it adds to the schedule
    description    TEXT NOT NULL,  -- what changed, for people; empty for segment 0
    fingerprint    TEXT NOT NULL,  -- of the config that made it
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament, segment)
) WITHOUT ROWID;

CREATE TABLE segment_bots (
    tournament INTEGER NOT NULL,
    segment    INTEGER NOT NULL,
    bot        INTEGER NOT NULL REFERENCES bots (id) ON DELETE CASCADE,
    PRIMARY KEY (tournament, segment, bot),
    FOREIGN KEY (tournament, segment) REFERENCES segments (tournament, segment) ON DELETE CASCADE
) WITHOUT ROWID;
)sql";

// One step of the schema: SQL, then optionally work that SQL cannot do, then
// optionally more SQL.
struct Migration {
    const char* sql;
    void (*fill)(Database&) = nullptr;
    const char* sql_after = nullptr;
};

void fill_moves_hashes(Database& db);

// kMigrations[i] takes a database from user_version i to i + 1. A released
// step is never edited; a change to the schema is a new step.
constexpr Migration kMigrations[] = {
    {kSchemaV1}, {kSchemaV2}, {kSchemaV3}, {kSchemaV4, fill_moves_hashes, kSchemaV4Index},
    {kSchemaV5}, {kSchemaV6}, {kSchemaV7}};
static_assert(std::size(kMigrations) == kSchemaVersion);

// ISO 8601 UTC with milliseconds: 2024-05-01T12:34:56.789Z.
std::string iso_utc(std::chrono::system_clock::time_point t) {
    using namespace std::chrono;
    const auto ms = floor<milliseconds>(t);
    const auto day = floor<days>(ms);
    const year_month_day ymd{day};
    const hh_mm_ss hms{ms - day};
    char text[40];
    std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
                  static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                  static_cast<unsigned>(ymd.day()), static_cast<int>(hms.hours().count()),
                  static_cast<int>(hms.minutes().count()), static_cast<int>(hms.seconds().count()),
                  static_cast<int>(hms.subseconds().count()));
    return text;
}

// Info lines are stored joined by '\n' (they cannot contain one); no lines is
// NULL, so that a single empty line survives the round trip.
std::optional<std::string> join_lines(const std::vector<std::string>& lines) {
    if (lines.empty()) return std::nullopt;
    std::string text;
    for (const auto& line : lines) {
        if (&line != &lines.front()) text += '\n';
        text += line;
    }
    return text;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (;;) {
        const auto end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        if (end == std::string::npos) return lines;
        start = end + 1;
    }
}

// games.moves_hash: 64-bit FNV-1a over the game's parameters, the number of
// opening plies, every move in order, the result and the ending, each
// followed by a NUL byte (no field contains one). Two games with the same
// hash and bots went the same way move for move on the same board from the
// same opening; among a million different games, a false match has a
// chance of about 3e-8. Stored in files: the definition never changes.
class MovesHash {
  public:
    MovesHash(std::string_view params, std::int64_t opening_plies) {
        add(params);
        add(std::to_string(opening_plies));
    }
    void add_move(std::string_view move) { add(move); }
    // The hash as SQLite stores it: a signed integer with the same 64 bits.
    [[nodiscard]] std::int64_t finish(std::string_view result, std::string_view termination) {
        add(result);
        add(termination);
        return static_cast<std::int64_t>(hash_);
    }

  private:
    void add(std::string_view field) {
        for (const char c : field) {
            hash_ ^= static_cast<unsigned char>(c);
            hash_ *= 0x100000001b3ULL;
        }
        hash_ *= 0x100000001b3ULL;  // the NUL byte after the field (x ^ 0 == x)
    }

    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// The migration to schema 4: moves_hash of every game already stored, a
// batch of games at a time (their moves read in primary-key order, one range
// per batch).
void fill_moves_hashes(Database& db) {
    constexpr std::int64_t kBatch = 10'000;
    auto list_games = db.prepare(
        "SELECT id, params, opening_plies, result, termination FROM games WHERE id > ? "
        "ORDER BY id LIMIT ?");
    auto list_moves =
        db.prepare("SELECT game, move FROM moves WHERE game BETWEEN ? AND ? ORDER BY game, ply");
    auto set_hash = db.prepare("UPDATE games SET moves_hash = ? WHERE id = ?");
    struct Row {
        std::int64_t id;
        MovesHash hash;
        std::string result, termination;
    };
    std::vector<Row> batch;
    for (std::int64_t after = 0;;) {
        batch.clear();
        {
            auto q = list_games.use();
            q.bind(after).bind(kBatch);
            while (q.step()) {
                batch.push_back({q.column_int64(0), MovesHash(q.column_text(1), q.column_int64(2)),
                                 q.column_text(3), q.column_text(4)});
            }
        }
        if (batch.empty()) return;
        {
            auto q = list_moves.use();
            q.bind(batch.front().id).bind(batch.back().id);
            std::size_t i = 0;
            while (q.step()) {
                const auto game = q.column_int64(0);
                while (i < batch.size() && batch[i].id < game)
                    ++i;
                if (i < batch.size() && batch[i].id == game)
                    batch[i].hash.add_move(q.column_text(1));
            }
        }
        for (auto& row : batch)
            set_hash.use().bind(row.hash.finish(row.result, row.termination)).bind(row.id).exec();
        after = batch.back().id;
    }
}

// Built by appending: `"'" + std::string(name) + "'"` trips a false
// -Wrestrict in GCC 12 at -O3.
std::string in_quotes(std::string_view name) {
    std::string text;
    text.reserve(name.size() + 2);
    text += '\'';
    text += name;
    text += '\'';
    return text;
}

// --------------------------------------------------------------- opening

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& problem) {
    throw StoreError(path.string() + ": " + problem);
}

// "0.3 s", "5.0 s", "12 s".
std::string seconds_text(std::chrono::milliseconds t) {
    char text[32];
    const double s = std::chrono::duration<double>(t).count();
    std::snprintf(text, sizeof text, s < 10 ? "%.1f s" : "%.0f s", s);
    return text;
}

// Runs `attempt` until it gets past the locks of other connections: every
// BusyError (SQLITE_BUSY after the busy timeout) starts it over. An attempt
// that could not get a lock has changed nothing: a write takes its lock at
// BEGIN IMMEDIATE, and a transaction that fails later is rolled back whole.
// Gives up, with a StoreError naming the file, when `waiting` says so.
template <class Attempt>
auto retry_while_locked(const std::filesystem::path& file, const LockWaiting& waiting,
                        const std::string& context, Attempt&& attempt) {
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> since;  // the first attempt that found a lock
    auto next_report = waiting.report_every;
    bool reported = false;
    const auto waited = [&] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - *since);
    };
    for (;;) {
        const auto tried = Clock::now();
        try {
            if constexpr (std::is_void_v<std::invoke_result_t<Attempt&>>) {
                attempt();
                if (reported) waiting.report({file, waited(), true});
                return;
            } else {
                auto result = attempt();
                if (reported) waiting.report({file, waited(), true});
                return result;
            }
        } catch (const BusyError& e) {
            // SQLITE_LOCKED is a conflict within this process, which waiting cannot end.
            if (e.primary_code() != SQLITE_BUSY) throw StoreError(context + e.what());
            if (!since) since = tried;
            const auto so_far = waited();
            if (waiting.stop.stop_requested()) {
                throw StoreError(context + file.string() +
                                 ": the database is locked by another program; stopped waiting "
                                 "for it after " +
                                 seconds_text(so_far));
            }
            if (waiting.limit && so_far >= *waiting.limit) {
                throw StoreError(context + file.string() +
                                 ": the database is locked by another program; gave up after " +
                                 seconds_text(so_far));
            }
            if (waiting.report && waiting.report_every.count() > 0 && so_far >= next_report) {
                waiting.report({file, next_report, false});
                reported = true;
                while (next_report <= so_far)
                    next_report += waiting.report_every;
            }
            // SQLite can answer SQLITE_BUSY without waiting (a lock it must
            // not wait for); don't spin.
            if (Clock::now() - tried < 10ms) std::this_thread::sleep_for(10ms);
        }
    }
}

// Checks that the file is ours and not from the future. Runs before anything
// is written to it, and again inside the migration transaction.
void check_identity(Database& db, std::int64_t version) {
    if (version > kSchemaVersion) {
        refuse(db.path(), "results database schema version " + std::to_string(version) +
                              " is newer than this arena supports (version " +
                              std::to_string(kSchemaVersion) + "); use a newer arena");
    }
    const auto app = db.query_int("PRAGMA application_id");
    if (app != 0 && app != kApplicationId) {
        refuse(db.path(), "a SQLite database of another application (application_id " +
                              std::to_string(app) + "), not an arena results database");
    }
    if (version == 0 && db.query_int("SELECT count(*) FROM sqlite_schema") > 0) {
        refuse(db.path(),
               "a SQLite database with tables but no arena schema version, "
               "not an arena results database");
    }
}

void migrate(Database& db) {
    if (db.query_int("PRAGMA user_version") == kSchemaVersion) return;
    // IMMEDIATE: two arenas opening a new file at once must not both create it.
    Transaction txn(db, Transaction::Mode::kImmediate);
    auto version = db.query_int("PRAGMA user_version");
    check_identity(db, version);
    // A step may edit sqlite_schema directly, which defensive mode forbids.
    sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_DEFENSIVE, 0, nullptr);
    for (; version < kSchemaVersion; ++version) {
        const auto& step = kMigrations[version];
        db.exec(step.sql);
        if (step.fill != nullptr) step.fill(db);
        if (step.sql_after != nullptr) db.exec(step.sql_after);
        // Integers of our own, not user data: PRAGMA takes no parameters.
        db.exec("PRAGMA user_version = " + std::to_string(version + 1));
        // Other connections, and this one, reread the schema after a direct
        // edit only when the cookie changes. Without that, a later step's
        // ALTER TABLE would edit the new text at offsets of the old one.
        db.exec("PRAGMA schema_version = " +
                std::to_string(db.query_int("PRAGMA schema_version") + 1));
    }
    db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
    txn.commit();
}

// Opens (with `open_mode`), sets the pragmas and brings the schema up to
// date. SQLite's errors come out as SqliteError.
Database connect_and_migrate(const std::filesystem::path& path, Database::Mode open_mode) {
    Database db(path, open_mode);
    db.set_busy_timeout(kBusyTimeout);
    // The first read of the file: a file that is not a SQLite database fails here.
    check_identity(db, db.query_int("PRAGMA user_version"));
    // 2 KB pages for a new file (an existing one keeps its own): every
    // commit appends each page it touched to the WAL, whole, and a game
    // touches about nine pages for about a kilobyte of rows. Half the
    // page halves the bytes written, checksummed and later fsynced per
    // game, and cuts the CPU of storing one by about 15 %; reads such as
    // `arena standings` over a million games are no slower.
    db.exec("PRAGMA page_size = 2048");
    db.exec("PRAGMA foreign_keys = ON");
    // WAL: readers (reports, the sqlite3 shell) never block the writer, nor it them.
    // synchronous=NORMAL in WAL mode: a commit survives a crash of the arena; a power
    // loss may lose the last transactions, never corrupts the file.
    // A database in memory (`arena match` without --db) keeps its own mode.
    const auto mode = db.query_text("PRAGMA journal_mode = WAL");
    if (mode != "wal" && !(path == ":memory:" && mode == "memory"))
        refuse(path, "cannot switch to WAL journal mode (got '" + mode + "')");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA wal_autocheckpoint = 10000");
    migrate(db);
    return db;
}

Database open_database(const std::filesystem::path& path) {
    // SQLite would say only "unable to open database file".
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        refuse(path, "is a directory, not a results database");
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) {
            throw StoreError("cannot create the directory of results database " + path.string() +
                             ": " + ec.message());
        }
    }
    try {
        return connect_and_migrate(path, Database::Mode::kReadWriteCreate);
    } catch (const BusyError&) {
        throw;  // locked by another connection: the caller waits and tries again
    } catch (const SqliteError& e) {
        throw StoreError("cannot open results database: " + std::string(e.what()));
    }
}

// The connection of a read-only store (see Access): SQLITE_OPEN_READONLY,
// and nothing written. A file of an older schema is read through a copy in
// memory, upgraded there: the file stays as it is (arena upgrade, or the
// next arena run into it, upgrades the file itself).
Database open_read_only(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        refuse(path, "is a directory, not a results database");
    if (!std::filesystem::exists(path, ec)) refuse(path, "no such results database");
    if (const auto size = std::filesystem::file_size(path, ec); !ec && size == 0)
        refuse(path, "an empty file (0 bytes), not a results database: nothing is stored in it");
    try {
        Database db(path, Database::Mode::kReadOnly);
        db.set_busy_timeout(kBusyTimeout);
        // The first read of the file: a file that is not a SQLite database fails here.
        const auto version = db.query_int("PRAGMA user_version");
        check_identity(db, version);
        if (version == 0) {
            refuse(path,
                   "an empty SQLite database, not a results database: nothing is stored in it");
        }
        if (version == kSchemaVersion) return db;
        // An older schema: this arena's statements need the current one.
        Database copy = Database::copy_in_memory(db);
        copy.exec("PRAGMA foreign_keys = ON");
        migrate(copy);
        return copy;
    } catch (const BusyError&) {
        throw;  // locked by another connection: the caller waits and tries again
    } catch (const SqliteError& e) {
        throw StoreError("cannot open results database: " + std::string(e.what()));
    }
}

}  // namespace

std::int64_t stored_schema_version(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) refuse(path, "no such results database");
    if (std::filesystem::file_size(path, ec) == 0 && !ec) return 0;
    try {
        Database db(path, Database::Mode::kReadOnly);
        db.set_busy_timeout(kBusyTimeout);
        const auto version = db.query_int("PRAGMA user_version");
        check_identity(db, version);
        return version;
    } catch (const BusyError&) {
        throw;
    } catch (const SqliteError& e) {
        throw StoreError("cannot open results database: " + std::string(e.what()));
    }
}

namespace {

constexpr const char* kTournamentColumns =
    "id, name, game, config, fingerprint, seed, total_games, status, created_at, "
    "IFNULL(finished_at, '') FROM tournaments";

TournamentRow read_tournament(const Statement::Query& q) {
    TournamentRow row;
    row.id = q.column_int64(0);
    row.spec.name = q.column_text(1);
    row.spec.game = q.column_text(2);
    row.spec.config_text = q.column_text(3);
    row.spec.fingerprint = q.column_text(4);
    row.spec.seed = std::strtoull(q.column_text(5).c_str(), nullptr, 10);
    row.spec.total_games = q.column_int64(6);
    row.status = q.column_text(7);
    row.created_at = q.column_text(8);
    row.finished_at = q.column_text(9);
    return row;
}

constexpr const char* kSummaryColumns =
    "g.id, g.game_index, g.round, g.pair_index, g.game_in_pair, g.opening, f.name, s.name, "
    "g.result, g.termination, g.detail, g.plies, g.duration_us, g.started_at, g.game, g.params, "
    "g.first_peak_memory, g.second_peak_memory "
    "FROM games AS g JOIN bots AS f ON f.id = g.first_bot JOIN bots AS s ON s.id = g.second_bot";

GameSummary read_summary(const Statement::Query& q) {
    GameSummary s;
    s.id = q.column_int64(0);
    s.slot.index = q.column_int64(1);
    s.slot.round = q.column_int(2);
    s.slot.pair = q.column_int(3);
    s.slot.game_in_pair = q.column_int(4);
    s.slot.opening = q.column_text(5);
    s.first = q.column_text(6);
    s.second = q.column_text(7);
    s.result = q.column_text(8);
    s.termination = q.column_text(9);
    s.detail = q.column_text(10);
    s.plies = q.column_int(11);
    s.duration_us = q.column_int64(12);
    s.started_at = q.column_text(13);
    return s;
}

// Moves go into the database in multi-row INSERTs of up to this many rows:
// one statement for a typical game instead of one per move, which saves
// SQLite's per-statement work (about 15 % of the cost of storing a Connect-4
// game). 32 rows use 224 of SQLite's 32766 parameters.
constexpr std::size_t kMovesPerInsert = 32;

std::string insert_moves_sql(std::size_t rows) {
    std::string sql = "INSERT INTO moves (game, ply, side, move, time_us, by_arena, info) VALUES ";
    for (std::size_t i = 0; i < rows; ++i)
        sql += i == 0 ? "(?, ?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?, ?)";
    return sql;
}

std::string select(const char* columns, const char* rest) {
    return std::string("SELECT ") + columns + " " + rest;
}

}  // namespace

// Every statement is prepared once, here, and reused: record_game runs
// thousands of times a second in a fast tournament.
struct ResultsStore::Impl {
    std::mutex mutex;  // one connection, one caller at a time
    Database db;

    Statement find_tournament = db.prepare(select(kTournamentColumns, "WHERE name = ?"));
    Statement list_tournaments = db.prepare(select(kTournamentColumns, "ORDER BY id"));
    Statement tournament_name = db.prepare("SELECT name FROM tournaments WHERE id = ?");
    Statement insert_tournament = db.prepare(
        "INSERT INTO tournaments (name, game, config, fingerprint, seed, total_games) "
        "VALUES (?, ?, ?, ?, ?, ?)");
    Statement set_status = db.prepare(
        "UPDATE tournaments SET status = ?2, finished_at = CASE WHEN ?2 = 'finished' "
        "THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END WHERE id = ?1");
    Statement insert_bot = db.prepare(
        "INSERT INTO bots (tournament, name, command, protocol, sha256, version) "
        "VALUES (?, ?, ?, ?, ?, ?)");
    Statement list_bots = db.prepare(
        "SELECT name, command, protocol, IFNULL(sha256, ''), version, retired IS NOT NULL "
        "FROM bots WHERE tournament = ? ORDER BY id");
    Statement rename_bot =
        db.prepare("UPDATE bots SET name = ?3 WHERE tournament = ?1 AND name = ?2");
    Statement set_bot_sha256 =
        db.prepare("UPDATE bots SET sha256 = ?3 WHERE tournament = ?1 AND name = ?2");
    // Retired from the segment that first left a bot out; NULL while it plays.
    Statement set_retired = db.prepare(
        "UPDATE bots SET retired = CASE WHEN id IN (SELECT bot FROM segment_bots "
        "WHERE tournament = ?1 AND segment = ?2) THEN NULL ELSE IFNULL(retired, ?2) END "
        "WHERE tournament = ?1");
    Statement insert_segment = db.prepare(
        "INSERT INTO segments (tournament, segment, games_per_pair, rounds, first_game, games, "
        "description, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    Statement insert_segment_bot =
        db.prepare("INSERT INTO segment_bots (tournament, segment, bot) VALUES (?, ?, ?)");
    Statement list_segments = db.prepare(
        "SELECT segment, games_per_pair, rounds, first_game, games, description, fingerprint "
        "FROM segments WHERE tournament = ? ORDER BY segment");
    Statement list_segment_bots = db.prepare(
        "SELECT segment, bot FROM segment_bots WHERE tournament = ? ORDER BY segment, bot");
    Statement update_tournament = db.prepare(
        "UPDATE tournaments SET config = ?2, fingerprint = ?3, total_games = ?4 WHERE id = ?1");
    Statement bot_id = db.prepare("SELECT id FROM bots WHERE tournament = ? AND name = ?");
    Statement recorded =
        db.prepare("SELECT game_index FROM games WHERE tournament = ? ORDER BY game_index");
    Statement insert_game = db.prepare(
        "INSERT INTO games (tournament, game_index, round, pair_index, game_in_pair, "
        "first_bot, second_bot, opening, game, params, result, winner, termination, detail, "
        "plies, opening_plies, started_at, ended_at, duration_us, fault_after_us, moves_hash, "
        "first_peak_memory, second_peak_memory) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    // Index n: the INSERT of n + 1 moves, prepared on first use.
    std::array<Statement, kMovesPerInsert> insert_moves;
    Statement insert_log = db.prepare("INSERT INTO bot_logs (game, side, stderr) VALUES (?, ?, ?)");
    Statement list_games =
        db.prepare(select(kSummaryColumns,
                          "WHERE g.tournament = ?1 AND (?2 IS NULL OR f.name = ?2 OR s.name = ?2) "
                          "AND (?3 IS NULL OR g.termination = ?3) ORDER BY g.game_index"));
    Statement find_game = db.prepare(select(kSummaryColumns, "WHERE g.id = ?"));
    Statement list_moves = db.prepare(
        "SELECT ply, side, move, time_us, by_arena, info FROM moves WHERE game = ? ORDER BY ply");
    Statement list_logs = db.prepare("SELECT side, stderr FROM bot_logs WHERE game = ?");
    Statement insert_transcript =
        db.prepare("INSERT INTO transcripts (game, side, lines) VALUES (?, ?, ?)");
    Statement list_transcripts = db.prepare("SELECT side, lines FROM transcripts WHERE game = ?");
    Statement delete_ratings = db.prepare("DELETE FROM ratings WHERE tournament = ?");
    Statement insert_rating =
        db.prepare("INSERT INTO ratings (bot, tournament, elo, error) VALUES (?, ?, ?, ?)");
    Statement list_ratings = db.prepare(
        "SELECT b.name, r.elo, r.error FROM ratings AS r JOIN bots AS b ON b.id = r.bot "
        "WHERE r.tournament = ? ORDER BY r.elo DESC, b.name");
    // The games_by_result index read in its own order, without the table:
    // games of one count are neighbours, and so are equal games within it.
    // Counting them here, duplicates included, takes less time than SQLite's
    // GROUP BY of the same index without them (on a million games, `arena
    // standings` went from 2.2 s to 1.6 s).
    Statement count_results = db.prepare(
        "SELECT first_bot, second_bot, result, termination, moves_hash FROM games "
        "WHERE tournament = ? ORDER BY first_bot, second_bot, result, termination, moves_hash");
    Statement bot_ids = db.prepare("SELECT id FROM bots WHERE tournament = ? ORDER BY id");
    LockWaiting waiting;
    bool read_only = false;

    Impl(const std::filesystem::path& path, LockWaiting how, Access access)
        : db(access == Access::kReadOnly ? open_read_only(path) : open_database(path)),
          waiting(std::move(how)),
          read_only(access == Access::kReadOnly) {}

    static Impl& of(const std::unique_ptr<Impl>& impl) {
        if (!impl) throw StoreError("use of a moved-from ResultsStore");
        return *impl;
    }

    [[noreturn]] void fail(const std::string& problem) const { refuse(db.path(), problem); }

    // The position in bots() of bot `id`, which a game of `tournament`
    // names: a game whose bot row is gone (deleted by hand) is named.
    int position_of(const std::unordered_map<std::int64_t, int>& index, std::int64_t id,
                    std::int64_t tournament) {
        const auto found = index.find(id);
        if (found != index.end()) return found->second;
        fail("a game of tournament " + name_of(tournament) + " names bot id " + std::to_string(id) +
             ", which is not one of the tournament's bots (was its row deleted?)");
    }

    // Before every call that writes.
    void check_writable(const char* what) const {
        if (read_only) fail(std::string("opened read-only: cannot ") + what);
    }

    // The tournament's bot ids, in the order of bots().
    std::vector<std::int64_t> bot_ids_of(std::int64_t tournament) {
        std::vector<std::int64_t> ids;
        auto q = bot_ids.use();
        q.bind(tournament);
        while (q.step())
            ids.push_back(q.column_int64(0));
        return ids;
    }

    void insert_bot_row(std::int64_t tournament, const std::string& shown_name,
                        const BotEntry& bot) {
        try {
            insert_bot.use()
                .bind(tournament)
                .bind(bot.name)
                .bind(bot.command)
                .bind(bot.protocol)
                .bind(bot.sha256.empty() ? std::nullopt : std::optional(bot.sha256))
                .bind(bot.version)
                .exec();
        } catch (const SqliteError& e) {
            if (e.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
            fail("bot " + in_quotes(bot.name) + " is listed twice in tournament " +
                 in_quotes(shown_name));
        }
    }

    // Inside a transaction: the segment and the bots that play in it.
    void insert_segment_rows(std::int64_t tournament, const SegmentRow& segment) {
        try {
            insert_segment.use()
                .bind(tournament)
                .bind(segment.segment)
                .bind(segment.games_per_pair)
                .bind(segment.rounds)
                .bind(segment.first_game)
                .bind(segment.games)
                .bind(segment.description)
                .bind(segment.fingerprint)
                .exec();
        } catch (const SqliteError& e) {
            if (e.code() != SQLITE_CONSTRAINT_PRIMARYKEY) throw;
            fail("segment " + std::to_string(segment.segment) + " of tournament " +
                 name_of(tournament) + " is already stored");
        }
        const auto ids = bot_ids_of(tournament);
        for (const int position : segment.active) {
            if (position < 0 || static_cast<std::size_t>(position) >= ids.size()) {
                fail("segment " + std::to_string(segment.segment) + " of tournament " +
                     name_of(tournament) + " names bot " + std::to_string(position) +
                     ", which it does not have");
            }
            insert_segment_bot.use()
                .bind(tournament)
                .bind(segment.segment)
                .bind(ids[static_cast<std::size_t>(position)])
                .exec();
        }
    }

    Statement& insert_moves_of(std::size_t rows) {
        auto& statement = insert_moves.at(rows - 1);
        if (!statement.is_prepared()) statement = db.prepare(insert_moves_sql(rows));
        return statement;
    }

    std::string name_of(std::int64_t tournament) {
        auto q = tournament_name.use();
        q.bind(tournament);
        return q.step() ? in_quotes(q.column_text(0))
                        : std::string("#").append(std::to_string(tournament));
    }

    std::int64_t find_bot(std::int64_t tournament, const std::string& name) {
        auto q = bot_id.use();
        q.bind(tournament).bind(name);
        if (!q.step()) fail("tournament " + name_of(tournament) + " has no bot " + in_quotes(name));
        return q.column_int64(0);
    }

    // Serializes the call, runs it again while another connection holds the
    // database locked (as `waiting` says), and turns SQLite's errors into
    // StoreError (whose message already names the file).
    template <class F>
    auto run(F&& body) {
        std::lock_guard lock(mutex);
        return retry_while_locked(db.path(), waiting, "", [&] {
            try {
                return body();
            } catch (const BusyError&) {
                throw;
            } catch (const SqliteError& e) {
                throw StoreError(e.what());
            }
        });
    }
};

ResultsStore::ResultsStore(const std::filesystem::path& path, LockWaiting waiting)
    : ResultsStore(path, Access::kReadWrite, std::move(waiting)) {}

ResultsStore::ResultsStore(const std::filesystem::path& path, Access access, LockWaiting waiting) {
    impl_ = retry_while_locked(path, waiting, "cannot open results database: ", [&] {
        try {
            return std::make_unique<Impl>(path, waiting, access);
        } catch (const BusyError&) {
            throw;
        } catch (const SqliteError& e) {  // a statement that does not prepare
            throw StoreError(e.what());
        }
    });
}

bool ResultsStore::read_only() const {
    return Impl::of(impl_).read_only;
}

void ResultsStore::set_lock_waiting(LockWaiting waiting) {
    auto& s = Impl::of(impl_);
    std::lock_guard lock(s.mutex);
    s.waiting = std::move(waiting);
}

ResultsStore::~ResultsStore() = default;
ResultsStore::ResultsStore(ResultsStore&&) noexcept = default;
ResultsStore& ResultsStore::operator=(ResultsStore&&) noexcept = default;

std::optional<TournamentRow> ResultsStore::find_tournament(const std::string& name) {
    auto& s = Impl::of(impl_);
    return s.run([&]() -> std::optional<TournamentRow> {
        auto q = s.find_tournament.use();
        q.bind(name);
        if (!q.step()) return std::nullopt;
        return read_tournament(q);
    });
}

std::vector<TournamentRow> ResultsStore::tournaments() {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<TournamentRow> rows;
        auto q = s.list_tournaments.use();
        while (q.step())
            rows.push_back(read_tournament(q));
        return rows;
    });
}

std::int64_t ResultsStore::create_tournament(const TournamentSpec& spec,
                                             const std::vector<BotEntry>& bots,
                                             const std::optional<SegmentRow>& first_segment) {
    auto& s = Impl::of(impl_);
    s.check_writable("store a tournament");
    return s.run([&] {
        Transaction txn(s.db);
        try {
            s.insert_tournament.use()
                .bind(spec.name)
                .bind(spec.game)
                .bind(spec.config_text)
                .bind(spec.fingerprint)
                .bind(std::to_string(spec.seed))
                .bind(spec.total_games)
                .exec();
        } catch (const SqliteError& e) {
            if (e.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
            s.fail("tournament " + in_quotes(spec.name) + " already exists");
        }
        const auto id = s.db.last_insert_rowid();
        for (const auto& bot : bots)
            s.insert_bot_row(id, spec.name, bot);
        if (first_segment) s.insert_segment_rows(id, *first_segment);
        txn.commit();
        return id;
    });
}

std::vector<BotEntry> ResultsStore::bots(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<BotEntry> bots;
        auto q = s.list_bots.use();
        q.bind(tournament);
        while (q.step()) {
            bots.push_back({q.column_text(0), q.column_text(1), q.column_text(2), q.column_text(3),
                            q.column_int(4), q.column_int(5) != 0});
        }
        return bots;
    });
}

std::vector<SegmentRow> ResultsStore::segments(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        // One read snapshot for the three queries.
        Transaction txn(s.db, Transaction::Mode::kDeferred);
        std::vector<SegmentRow> rows;
        {
            auto q = s.list_segments.use();
            q.bind(tournament);
            while (q.step()) {
                SegmentRow row;
                row.segment = q.column_int(0);
                row.games_per_pair = q.column_int(1);
                row.rounds = q.column_int(2);
                row.first_game = q.column_int64(3);
                row.games = q.column_int64(4);
                row.description = q.column_text(5);
                row.fingerprint = q.column_text(6);
                rows.push_back(std::move(row));
            }
        }
        std::unordered_map<std::int64_t, int> position;  // bot id -> position in bots()
        for (const auto id : s.bot_ids_of(tournament))
            position.emplace(id, static_cast<int>(position.size()));
        std::unordered_map<int, std::size_t> row_of;  // segment number -> index in rows
        for (std::size_t i = 0; i < rows.size(); ++i)
            row_of.emplace(rows[i].segment, i);
        auto q = s.list_segment_bots.use();
        q.bind(tournament);
        while (q.step()) {
            const auto row = row_of.find(q.column_int(0));
            const auto bot = position.find(q.column_int64(1));
            if (row != row_of.end() && bot != position.end())
                rows[row->second].active.push_back(bot->second);
        }
        for (auto& row : rows)
            std::sort(row.active.begin(), row.active.end());
        txn.commit();
        return rows;
    });
}

void ResultsStore::change_tournament(std::int64_t tournament, const TournamentChange& change) {
    auto& s = Impl::of(impl_);
    s.check_writable("change a tournament");
    s.run([&] {
        Transaction txn(s.db);
        const auto name = s.name_of(tournament);
        for (const auto& [from, to] : change.renamed) {
            try {
                s.rename_bot.use().bind(tournament).bind(from).bind(to).exec();
            } catch (const SqliteError& e) {
                if (e.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
                s.fail("tournament " + name + " already has a bot " + in_quotes(to));
            }
            if (s.db.changes() == 0)
                s.fail("tournament " + name + " has no bot " + in_quotes(from));
        }
        for (const auto& [bot, sha256] : change.new_sha256) {
            s.set_bot_sha256.use()
                .bind(tournament)
                .bind(bot)
                .bind(sha256.empty() ? std::nullopt : std::optional(sha256))
                .exec();
            if (s.db.changes() == 0) s.fail("tournament " + name + " has no bot " + in_quotes(bot));
        }
        for (const auto& bot : change.entering)
            s.insert_bot_row(tournament, name, bot);
        for (const auto& segment : change.segments)
            s.insert_segment_rows(tournament, segment);
        if (!change.segments.empty())
            s.set_retired.use().bind(tournament).bind(change.segments.back().segment).exec();
        s.update_tournament.use()
            .bind(tournament)
            .bind(change.config_text)
            .bind(change.fingerprint)
            .bind(change.total_games)
            .exec();
        if (s.db.changes() == 0) s.fail("no tournament with id " + std::to_string(tournament));
        txn.commit();
    });
}

void ResultsStore::set_status(std::int64_t tournament, const std::string& status) {
    auto& s = Impl::of(impl_);
    s.check_writable("set a tournament's status");
    s.run([&] {
        s.set_status.use().bind(tournament).bind(status).exec();
        if (s.db.changes() == 0) s.fail("no tournament with id " + std::to_string(tournament));
    });
}

std::vector<std::int64_t> ResultsStore::recorded_indices(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<std::int64_t> indices;
        auto q = s.recorded.use();
        q.bind(tournament);
        while (q.step())
            indices.push_back(q.column_int64(0));
        return indices;
    });
}

std::int64_t ResultsStore::record_game(std::int64_t tournament, const GameSlot& slot,
                                       const record::GameRecord& game) {
    auto& s = Impl::of(impl_);
    s.check_writable("store a game");
    return s.run([&] {
        const auto result = record::score_text(game.outcome);
        if (game.outcome == games::Outcome::kOngoing) {
            s.fail("game " + std::to_string(slot.index) + " of tournament " +
                   s.name_of(tournament) + " has no result");
        }
        const bool fault = game.termination != record::Termination::kNormal;
        const auto params = record::params_text(game.params);
        const auto termination = record::to_string(game.termination);
        MovesHash hash(params, game.opening_plies);
        for (const auto& m : game.moves)
            hash.add_move(m.move);
        const auto moves_hash = hash.finish(result, termination);
        const auto peak = [](const std::optional<std::uint64_t>& bytes) {
            return bytes ? std::optional(static_cast<std::int64_t>(*bytes)) : std::nullopt;
        };

        Transaction txn(s.db);
        const auto first = s.find_bot(tournament, game.players[0]);
        const auto second = s.find_bot(tournament, game.players[1]);
        try {
            s.insert_game.use()
                .bind(tournament)
                .bind(slot.index)
                .bind(slot.round)
                .bind(slot.pair)
                .bind(slot.game_in_pair)
                .bind(first)
                .bind(second)
                .bind(slot.opening)
                .bind(game.game)
                .bind(params)
                .bind(result)
                .bind(game.winner())
                .bind(termination)
                .bind(game.detail)
                .bind(static_cast<std::int64_t>(game.moves.size()))
                .bind(game.opening_plies)
                .bind(iso_utc(game.started_at))
                .bind(iso_utc(game.started_at + game.duration))
                .bind(static_cast<std::int64_t>(game.duration.count()))
                .bind(fault ? std::optional(static_cast<std::int64_t>(game.fault_after.count()))
                            : std::nullopt)
                .bind(moves_hash)
                .bind(peak(game.peak_memory[0]))
                .bind(peak(game.peak_memory[1]))
                .exec();
        } catch (const SqliteError& e) {
            if (e.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
            s.fail("game " + std::to_string(slot.index) + " of tournament " +
                   s.name_of(tournament) + " is already stored");
        }
        const auto id = s.db.last_insert_rowid();

        const auto& moves = game.moves;
        for (std::size_t from = 0; from < moves.size(); from += kMovesPerInsert) {
            const auto rows = std::min(kMovesPerInsert, moves.size() - from);
            auto q = s.insert_moves_of(rows).use();
            for (auto ply = from; ply < from + rows; ++ply) {
                const auto& m = moves[ply];
                q.bind(id)
                    .bind(static_cast<std::int64_t>(ply + 1))
                    .bind(m.player)
                    .bind(m.move)
                    .bind(static_cast<std::int64_t>(m.time.count()))
                    .bind(m.by_arena)
                    .bind(join_lines(m.info));
            }
            q.exec();
        }
        // An empty log is not stored; load_game reads it back as "".
        for (int side = 1; side <= 2; ++side) {
            const auto& log = game.stderr_logs[side - 1];
            if (!log.empty()) s.insert_log.use().bind(id).bind(side).bind(log).exec();
            const auto& transcript = game.transcripts[side - 1];
            if (!transcript.empty())
                s.insert_transcript.use().bind(id).bind(side).bind(transcript).exec();
        }
        txn.commit();
        return id;
    });
}

std::vector<GameSummary> ResultsStore::games(std::int64_t tournament,
                                             const std::optional<std::string>& bot,
                                             const std::optional<std::string>& termination) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<GameSummary> list;
        auto q = s.list_games.use();
        q.bind(tournament).bind(bot).bind(termination);
        while (q.step())
            list.push_back(read_summary(q));
        return list;
    });
}

std::optional<StoredGame> ResultsStore::load_game(std::int64_t game_id) {
    auto& s = Impl::of(impl_);
    return s.run([&]() -> std::optional<StoredGame> {
        // One read snapshot for the four queries.
        Transaction txn(s.db, Transaction::Mode::kDeferred);
        StoredGame game;
        {
            auto q = s.find_game.use();
            q.bind(game_id);
            if (!q.step()) return std::nullopt;
            game.summary = read_summary(q);
            game.game = q.column_text(14);
            game.params = q.column_text(15);
            for (int side = 0; side < 2; ++side) {
                if (!q.is_null(16 + side))
                    game.peak_memory[side] = static_cast<std::uint64_t>(q.column_int64(16 + side));
            }
        }
        {
            auto q = s.list_moves.use();
            q.bind(game_id);
            while (q.step()) {
                StoredMove m;
                m.ply = q.column_int(0);
                m.side = q.column_int(1);
                m.move = q.column_text(2);
                m.time_us = q.column_int64(3);
                m.by_arena = q.column_int(4) != 0;
                if (!q.is_null(5)) m.info = split_lines(q.column_text(5));
                game.moves.push_back(std::move(m));
            }
        }
        {
            auto q = s.list_logs.use();
            q.bind(game_id);
            while (q.step()) {
                const int side = q.column_int(0);
                if (side == 1 || side == 2) game.stderr_logs[side - 1] = q.column_text(1);
            }
        }
        {
            auto q = s.list_transcripts.use();
            q.bind(game_id);
            while (q.step()) {
                const int side = q.column_int(0);
                if (side == 1 || side == 2) game.transcripts[side - 1] = q.column_text(1);
            }
        }
        txn.commit();
        return game;
    });
}

void ResultsStore::save_ratings(std::int64_t tournament, const std::vector<RatingRow>& ratings) {
    auto& s = Impl::of(impl_);
    s.check_writable("store ratings");
    s.run([&] {
        Transaction txn(s.db);
        s.delete_ratings.use().bind(tournament).exec();
        for (const auto& r : ratings) {
            if (!std::isfinite(r.elo) || !std::isfinite(r.error)) {
                s.fail("rating of bot " + in_quotes(r.bot) + " is not a finite number");
            }
            const auto bot = s.find_bot(tournament, r.bot);
            try {
                s.insert_rating.use().bind(bot).bind(tournament).bind(r.elo).bind(r.error).exec();
            } catch (const SqliteError& e) {
                if (e.code() != SQLITE_CONSTRAINT_PRIMARYKEY) throw;
                s.fail("bot " + in_quotes(r.bot) + " is rated twice");
            }
        }
        txn.commit();
    });
}

std::vector<RatingRow> ResultsStore::ratings(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<RatingRow> rows;
        auto q = s.list_ratings.use();
        q.bind(tournament);
        while (q.step())
            rows.push_back({q.column_text(0), q.column_double(1), q.column_double(2)});
        return rows;
    });
}

std::vector<ResultCount> ResultsStore::result_counts(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        // One read snapshot for both queries.
        Transaction txn(s.db, Transaction::Mode::kDeferred);
        std::unordered_map<std::int64_t, int> index;  // bot id -> position in bots()
        {
            auto q = s.bot_ids.use();
            q.bind(tournament);
            while (q.step())
                index.emplace(q.column_int64(0), static_cast<int>(index.size()));
        }
        std::vector<ResultCount> rows;
        auto q = s.count_results.use();
        q.bind(tournament);
        std::int64_t first = 0, second = 0;
        std::string result, termination;
        std::optional<std::int64_t> hash;  // of the game before, in this count
        while (q.step()) {
            const auto first_now = q.column_int64(0), second_now = q.column_int64(1);
            const auto result_now = q.column_view(2), termination_now = q.column_view(3);
            if (rows.empty() || first_now != first || second_now != second ||
                result_now != result || termination_now != termination) {
                first = first_now;
                second = second_now;
                result = result_now;
                termination = termination_now;
                hash.reset();
                ResultCount c;
                c.first = s.position_of(index, first, tournament);
                c.second = s.position_of(index, second, tournament);
                c.outcome = result == "1-0"   ? games::Outcome::kWin1
                            : result == "0-1" ? games::Outcome::kWin2
                                              : games::Outcome::kDraw;
                c.termination = record::Termination::kNormal;
                for (const auto t : record::kAllTerminations)
                    if (record::to_string(t) == termination) c.termination = t;
                rows.push_back(c);
            }
            auto& c = rows.back();
            ++c.games;
            // A game without a hash (written by another program) repeats nothing.
            const auto hash_now = q.is_null(4) ? std::nullopt : std::optional(q.column_int64(4));
            if (hash_now && hash == hash_now) ++c.duplicates;
            hash = hash_now;
        }
        return rows;
    });
}

}  // namespace arena::store
