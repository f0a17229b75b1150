#pragma once
// The inside of a ResultsStore, internal to the store: its connection, every
// statement it prepares, and the helpers its calls share. The calls are
// defined by concept: results_store.cpp (opening, tournaments, bots,
// segments, ratings), record_game.cpp (storing a game) and game_queries.cpp
// (reading games and their counts back).

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "arena/store/lock_retry.hpp"
#include "arena/store/results_store.hpp"
#include "arena/store/schema.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {

// A name in single quotes, for messages.
std::string in_quotes(std::string_view name);

inline constexpr const char* kTournamentColumns =
    "id, name, game, config, fingerprint, seed, total_games, status, created_at, "
    "IFNULL(finished_at, '') FROM tournaments";

inline constexpr const char* kSummaryColumns =
    "g.id, g.game_index, g.round, g.pair_index, g.game_in_pair, g.opening, f.name, s.name, "
    "g.result, g.termination, g.detail, g.plies, g.duration_us, g.started_at, g.game, g.params, "
    "g.first_peak_memory, g.second_peak_memory, g.moves_hash, g.first_control, "
    "g.second_control "
    "FROM games AS g JOIN bots AS f ON f.id = g.first_bot JOIN bots AS s ON s.id = g.second_bot";

// Moves go into the database in multi-row INSERTs of up to this many rows:
// one statement for a typical game instead of one per move, which saves
// SQLite's per-statement work (about 15 % of the cost of storing a Connect-4
// game). 32 rows use 224 of SQLite's 32766 parameters.
inline constexpr std::size_t kMovesPerInsert = 32;

inline std::string select_sql(const char* columns, const char* rest) {
    return std::string("SELECT ") + columns + " " + rest;
}

// Info lines are stored joined by '\n' (they cannot contain one); no lines is
// NULL, so that a single empty line survives the round trip.
inline std::optional<std::string> join_lines(const std::vector<std::string>& lines) {
    if (lines.empty()) return std::nullopt;
    std::string text;
    for (const auto& line : lines) {
        if (&line != &lines.front()) text += '\n';
        text += line;
    }
    return text;
}

inline std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (;;) {
        const auto end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        if (end == std::string::npos) return lines;
        start = end + 1;
    }
}

// Every statement is prepared once, here, and reused: record_game runs
// thousands of times a second in a fast tournament.
struct ResultsStore::Impl {
    std::mutex mutex;  // one connection, one caller at a time
    Database db;

    Statement find_tournament = db.prepare(select_sql(kTournamentColumns, "WHERE name = ?"));
    Statement list_tournaments = db.prepare(select_sql(kTournamentColumns, "ORDER BY id"));
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
        "first_peak_memory, second_peak_memory, first_control, second_control) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    // Index n: the INSERT of n + 1 moves, prepared on first use.
    std::array<Statement, kMovesPerInsert> insert_moves;
    Statement insert_log = db.prepare("INSERT INTO bot_logs (game, side, stderr) VALUES (?, ?, ?)");
    Statement insert_param = db.prepare(
        "INSERT INTO game_params (game, param, iteration, batch, theta, first, second) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)");
    Statement list_params = db.prepare(
        "SELECT g.game_index, p.param, p.iteration, p.batch, p.theta, p.first, p.second "
        "FROM game_params AS p JOIN games AS g ON g.id = p.game WHERE g.tournament = ? "
        "ORDER BY g.game_index, p.rowid");
    Statement list_games = db.prepare(
        select_sql(kSummaryColumns,
                   "WHERE g.tournament = ?1 AND (?2 IS NULL OR f.name = ?2 OR s.name = ?2) "
                   "AND (?3 IS NULL OR g.termination = ?3) ORDER BY g.game_index"));
    Statement list_games_after = db.prepare(
        select_sql(kSummaryColumns, "WHERE g.tournament = ?1 AND g.id > ?2 ORDER BY g.id"));
    Statement find_game = db.prepare(select_sql(kSummaryColumns, "WHERE g.id = ?"));
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
    Statement paired_games = db.prepare(
        "SELECT pair_index, first_bot, second_bot, result, "
        "CASE WHEN termination = 'normal' THEN moves_hash END FROM games "
        "WHERE tournament = ? ORDER BY game_index");
    Statement bot_ids = db.prepare("SELECT id FROM bots WHERE tournament = ? ORDER BY id");
    LockWaiting waiting;
    bool read_only = false;

    Impl(const std::filesystem::path& path, LockWaiting how, Access access, JournalMode journal)
        : db(access == Access::kReadOnly ? open_read_only(path) : open_database(path, journal)),
          waiting(std::move(how)),
          read_only(access == Access::kReadOnly) {}

    static Impl& of(const std::unique_ptr<Impl>& impl) {
        if (!impl) throw StoreError("use of a moved-from ResultsStore");
        return *impl;
    }

    // A StoreError naming the file.
    [[noreturn]] void fail(const std::string& problem) const {
        throw StoreError(db.path().string() + ": " + problem);
    }

    // The position in bots() of bot `id`, which a game of `tournament`
    // names: a game whose bot row is gone (deleted by hand) is named.
    int position_of(const std::unordered_map<std::int64_t, int>& index, std::int64_t id,
                    std::int64_t tournament);

    // Before every call that writes.
    void check_writable(const char* what) const {
        if (read_only) fail(std::string("opened read-only: cannot ") + what);
    }

    // The tournament's bot ids, in the order of bots().
    std::vector<std::int64_t> bot_ids_of(std::int64_t tournament);
    // Bot id -> position in bots(tournament).
    std::unordered_map<std::int64_t, int> bot_positions(std::int64_t tournament);

    void insert_bot_row(std::int64_t tournament, const std::string& shown_name,
                        const BotEntry& bot);

    // Inside a transaction: the segment and the bots that play in it.
    void insert_segment_rows(std::int64_t tournament, const SegmentRow& segment);

    // The INSERT of `rows` moves (1 to kMovesPerInsert).
    Statement& insert_moves_of(std::size_t rows);

    // The tournament's name in quotes, or "#id" when there is none.
    std::string name_of(std::int64_t tournament);

    // The id of the tournament's bot `name`; fails when it has none.
    std::int64_t find_bot(std::int64_t tournament, const std::string& name);

    // Serializes the call, runs it again while another connection holds the
    // database locked (as `waiting` says), and turns SQLite's errors into
    // StoreError (whose message already names the file).
    template <class F>
    auto run(F&& body) {
        return serialized_call(mutex, db.path(), waiting, std::forward<F>(body));
    }
};

}  // namespace arena::store
