#include "arena/store/schema.hpp"

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <iterator>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "arena/record/moves_hash.hpp"
#include "arena/store/results_store.hpp"

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
// games.moves_hash (see record::MovesHash, record/moves_hash.hpp), which tells games that repeat
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

// Version 8: what each side played under (time odds, search limits), as
// match::control_text writes it: "move_ms=50 tolerance_ms=10 [game_ms=..
// inc_ms=..] [depth=2] [nodes=..]". NULL when not known, as for every game
// stored before (those were played under the config's `time:`).
constexpr const char* kSchemaV8 = R"sql(
ALTER TABLE games ADD COLUMN first_control TEXT;
ALTER TABLE games ADD COLUMN second_control TEXT;
)sql";

// Version 9: the parameter values of a tuning run's games (arena tune,
// docs/tuning.md): per game and parameter, the iteration, how many
// iterations shared a theta (the batch, fixed when the tune began), theta
// (the point the iteration perturbed, clipped, not rounded) and what each
// side received (NULL for a fixed opponent, which receives none).
constexpr const char* kSchemaV9 = R"sql(
CREATE TABLE game_params (
    game      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    param     TEXT NOT NULL,
    iteration INTEGER NOT NULL CHECK (iteration >= 0),
    batch     INTEGER NOT NULL CHECK (batch >= 1),
    theta     REAL NOT NULL,
    first     REAL,
    second    REAL,
    PRIMARY KEY (game, param)
);  -- rowid: the order of the tune's parameters
)sql";

// Version 10: the users of a league (arena league user, docs/league.md): a
// participant, whose name is also their folder in the config's bots_dir, or
// an organiser. Keyed by the league's name (the config's `name:`), not by
// tournaments.id: users are added before the league's first run creates its
// tournament row. The token itself is never stored, only its Argon2id hash
// (libsodium's crypto_pwhash_str text); disabled_at is NULL while the
// account works.
constexpr const char* kSchemaV10 = R"sql(
CREATE TABLE league_users (
    id          INTEGER PRIMARY KEY,
    league      TEXT NOT NULL,
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL,
    organiser   INTEGER NOT NULL DEFAULT 0 CHECK (organiser = 0 OR organiser = 1),
    disabled_at TEXT,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (league, name)
);
)sql";

// Version 11: the versions a league's participants uploaded (arena serve
// --league, docs/league.md): each upload that was accepted, numbered per
// participant from 1, with the check it got (status 'checking' until
// arena check-bot has run, then 'passed' or 'failed', with its log). A
// version that passed took the place of the one before in bots_dir.
constexpr const char* kSchemaV11 = R"sql(
CREATE TABLE league_versions (
    id          INTEGER PRIMARY KEY,
    league      TEXT NOT NULL,
    participant TEXT NOT NULL,
    version     INTEGER NOT NULL,
    file_name   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    bytes       INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'checking'
                CHECK (status IN ('checking', 'passed', 'failed')),
    message     TEXT NOT NULL DEFAULT '',
    check_log   TEXT NOT NULL DEFAULT '',
    uploaded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    checked_at  TEXT,
    UNIQUE (league, participant, version)
);
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
    {kSchemaV1}, {kSchemaV2},  {kSchemaV3}, {kSchemaV4, fill_moves_hashes, kSchemaV4Index},
    {kSchemaV5}, {kSchemaV6},  {kSchemaV7}, {kSchemaV8},
    {kSchemaV9}, {kSchemaV10}, {kSchemaV11}};
static_assert(std::size(kMigrations) == kSchemaVersion);

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
        record::MovesHash hash;
        std::string result, termination;
    };
    std::vector<Row> batch;
    for (std::int64_t after = 0;;) {
        batch.clear();
        {
            auto q = list_games.use();
            q.bind(after).bind(kBatch);
            while (q.step()) {
                batch.push_back({q.column_int64(0),
                                 record::MovesHash(q.column_text(1), q.column_int64(2)),
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

// --------------------------------------------------------------- opening

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& problem) {
    throw StoreError(path.string() + ": " + problem);
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

// How long the switch out of WAL (journal_mode: delete) waits for the other
// connections to the file to close: SQLite refuses it at once while any is
// open, and a reader such as `arena standings` closes within a moment.
constexpr auto kLeaveWalWait = 2s;

// Sets the file's journal mode (see journal_mode.hpp) and the pragmas that go
// with it. The mode is stored in the file: a database in the other one is
// switched here.
void set_journal_mode(Database& db, const std::filesystem::path& path, JournalMode journal) {
    // A database in memory (`arena match` without --db) keeps its own mode.
    const auto in_mode = [&](const std::string& mode) {
        return mode == journal_mode_name(journal) || (path == ":memory:" && mode == "memory");
    };
    if (journal == JournalMode::kWal) {
        // WAL: readers (reports, the sqlite3 shell) never block the writer, nor it
        // them. synchronous=NORMAL in WAL mode: a commit survives a crash of the
        // arena; a power loss may lose the last transactions, never corrupts the file.
        // Into WAL, SQLite writes the file's header under the write lock, waiting
        // for it as for any write (a BusyError is waited on by the caller).
        const auto mode = db.query_text("PRAGMA journal_mode = WAL");
        if (!in_mode(mode)) refuse(path, "cannot switch to WAL journal mode (got '" + mode + "')");
        db.exec("PRAGMA synchronous = NORMAL");
        db.exec("PRAGMA wal_autocheckpoint = 10000");
        return;
    }
    // The rollback journal, for a file on a network filesystem. Out of WAL,
    // SQLite needs the file to itself: it folds the log into the file and
    // deletes it, which it refuses at once (SQLITE_BUSY, without the busy
    // timeout) while another connection has the file open in WAL mode, as
    // each one does for as long as it is open, reading or not.
    const auto start = std::chrono::steady_clock::now();
    std::string mode;
    for (;;) {
        try {
            mode = db.query_text("PRAGMA journal_mode = DELETE");
            break;
        } catch (const BusyError&) {
            // Not in WAL: a lock held by a writer, waited on by the caller.
            if (db.query_text("PRAGMA journal_mode") != "wal") throw;
            if (std::chrono::steady_clock::now() - start >= kLeaveWalWait) {
                refuse(path,
                       "cannot switch from WAL to the rollback journal (journal_mode: delete): "
                       "another program has the database open in WAL mode (an arena run, serve "
                       "or league, a sqlite3 shell); stop it, or run with journal_mode: wal");
            }
            std::this_thread::sleep_for(20ms);
        }
    }
    if (!in_mode(mode)) {
        refuse(path,
               "cannot switch to the rollback journal (journal_mode: delete; got '" + mode + "')");
    }
    // synchronous=FULL, SQLite's default and its advice for a rollback
    // journal: the journal is fsynced, its header too, before the file is
    // changed, so that a power loss or an OS crash in the middle of a commit
    // never corrupts the file (with NORMAL it can, at just the wrong moment),
    // and a commit is durable once it returns. Each commit then fsyncs four
    // times (the journal twice, the file, and the folder the journal was
    // made in), where WAL's NORMAL fsyncs only at checkpoints.
    db.exec("PRAGMA synchronous = FULL");
}

// Opens (with `open_mode`), sets the pragmas and brings the schema up to
// date. SQLite's errors come out as SqliteError.
Database connect_and_migrate(const std::filesystem::path& path, Database::Mode open_mode,
                             JournalMode journal) {
    Database db(path, open_mode);
    db.set_busy_timeout(kBusyTimeout);
    // The first read of the file: a file that is not a SQLite database fails here.
    check_identity(db, db.query_int("PRAGMA user_version"));
    // 2 KB pages for a new file (an existing one keeps its own): every
    // commit appends each page it touched to the WAL (or, in delete mode,
    // the page's old content to the journal), whole, and a game
    // touches about nine pages for about a kilobyte of rows. Half the
    // page halves the bytes written, checksummed and later fsynced per
    // game, and cuts the CPU of storing one by about 15 %; reads such as
    // `arena standings` over a million games are no slower.
    db.exec("PRAGMA page_size = 2048");
    db.exec("PRAGMA foreign_keys = ON");
    set_journal_mode(db, path, journal);
    migrate(db);
    return db;
}

}  // namespace

Database open_database(const std::filesystem::path& path, JournalMode journal) {
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
        return connect_and_migrate(path, Database::Mode::kReadWriteCreate, journal);
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

}  // namespace arena::store
