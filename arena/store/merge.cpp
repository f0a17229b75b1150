#include "arena/store/merge.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "arena/store/merge_check.hpp"
#include "arena/store/merge_output.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {
namespace {

// A table's name or column as SQL text: our own schema's names, never user
// data, quoted all the same.
std::string quoted(const std::string& name) {
    std::string text = "\"";
    for (const char c : name) {
        text += c;
        if (c == '"') text += '"';
    }
    return text + "\"";
}

// An input attached as a URI with mode=ro, so that nothing can write to it
// (and a missing file is not created); the path percent-encoded.
std::string read_only_uri(const std::filesystem::path& path) {
    const auto absolute = std::filesystem::absolute(path).string();
    std::string uri = "file:";
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (const char ch : absolute) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) != 0 || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            uri += ch;
        } else {
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 15];
        }
    }
    return uri + "?mode=ro";
}

// A table that holds rows of each game: its name and the column that names
// the game.
struct GameTable {
    std::string name, column;
};

struct Columns {
    std::vector<std::string> names;
    std::map<std::string, std::string> references;  // column -> the table its foreign key names
};

Columns columns_of(Database& db, const std::string& table) {
    Columns c;
    {
        auto info = db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid");
        auto q = info.use();
        q.bind(table);
        while (q.step())
            c.names.push_back(q.column_text(0));
    }
    auto keys = db.prepare("SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)");
    auto q = keys.use();
    q.bind(table);
    while (q.step())
        c.references[q.column_text(0)] = q.column_text(1);
    return c;
}

// Every table of the schema with a foreign key to the games table.
std::vector<GameTable> game_tables(Database& db) {
    std::vector<GameTable> tables;
    auto list = db.prepare(
        "SELECT m.name, k.\"from\" FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS k "
        "WHERE m.type = 'table' AND k.\"table\" = 'games' ORDER BY m.name");
    auto q = list.use();
    while (q.step())
        tables.push_back({q.column_text(0), q.column_text(1)});
    return tables;
}

// Merges the databases; one object per call of merge_databases.
class Merger {
  public:
    Merger(const std::filesystem::path& out, const MergeOptions& options)
        : out_(out), options_(options) {}

    MergeSummary run(const std::vector<std::filesystem::path>& inputs) {
        std::error_code ec;
        if (std::filesystem::exists(out_, ec) || ec) return merge_into(out_, false, inputs);
        NewOutput output(out_);
        MergeSummary summary;
        try {
            summary = merge_into(output.path(), true, inputs);
        } catch (const MergeError&) {
            // The inputs merged before the one refused stay merged, as in
            // an OUT.db that existed. With none merged, no OUT.db is made:
            // the new file goes with `output`.
            if (inputs_merged_ == 0) {
                db_ = Database();
                throw;
            }
            publish(output);
            throw;
        }
        publish(output);
        return summary;
    }

  private:
    // The output's journal mode; SQLite answers with the mode it is in,
    // which is not the one asked for when it cannot switch.
    void set_journal_mode(const std::string& mode) {
        const auto now = db_.query_text("PRAGMA journal_mode = " + mode);
        if (now != mode)
            throw MergeError(out_.string() + ": cannot set the journal mode to " + mode +
                             " (it stays " + now + ")");
    }

    // Names the new output OUT.db; when an OUT.db appeared meanwhile, merges
    // the new output into it instead.
    void publish(NewOutput& output) {
        // A results database as the store makes it, closed.
        if (db_.handle() != nullptr) {
            for (const auto& sql : deferred_indices_)
                db_.exec(sql);
            deferred_indices_.clear();
            set_journal_mode("wal");
        }
        db_ = Database();
        if (output.publish()) return;
        MergeOptions quiet = options_;
        quiet.merged = nullptr;
        Merger(out_, quiet).run({output.path()});
    }

    MergeSummary merge_into(const std::filesystem::path& file, bool fresh,
                            const std::vector<std::filesystem::path>& inputs) {
        open_output(file, fresh);
        check_inputs(inputs);

        games_ = columns_of(db_, "games");
        for (const auto& t : game_tables(db_))
            per_game_.push_back({t, columns_of(db_, t.name)});
        db_.exec(
            "CREATE TEMP TABLE bot_map (src_id INTEGER PRIMARY KEY, out_id INTEGER NOT NULL);"
            "CREATE TEMP TABLE game_map (n INTEGER PRIMARY KEY, src_id INTEGER NOT NULL);");

        MergeSummary summary;
        std::set<std::string> touched;
        const auto done = [&](MergedInput merged) {
            ++inputs_merged_;
            for (const auto& entry : input_headers_[merged.file.string()])
                touched.insert(entry.first);
            if (options_.merged) options_.merged(merged);
            summary.inputs.push_back(std::move(merged));
        };
        // Several inputs a transaction: each commit rewrites every page of
        // the games' indices that its games touched, and in a big output
        // those are about as many pages as games, so one commit per input
        // made each input slower than the one before.
        const auto batch = static_cast<std::size_t>(
            std::max(sqlite3_limit(db_.handle(), SQLITE_LIMIT_ATTACHED, -1), 1));
        for (std::size_t at = 0; at < inputs.size(); at += batch) {
            const std::vector<std::filesystem::path> files(
                inputs.begin() + static_cast<std::ptrdiff_t>(at),
                inputs.begin() + static_cast<std::ptrdiff_t>(std::min(at + batch, inputs.size())));
            std::vector<MergedInput> merged;
            try {
                merged = merge_batch(files);
            } catch (const MergeError&) {
                if (files.size() == 1) throw;
                // Again one at a time, so that the inputs before the one
                // that fails stay merged.
                for (const auto& one : files)
                    done(std::move(merge_batch({one}).front()));
                continue;
            }
            for (auto& m : merged)
                done(std::move(m));
        }
        finish_tournaments(touched, summary);
        return summary;
    }

    // Opens the output, created or upgraded as any results database is, and
    // sets it up for the merge: a new one (`fresh`, see NewOutput) for
    // writing whole, an existing one as the store writes it.
    void open_output(const std::filesystem::path& file, bool fresh) {
        // The output is created or upgraded as any results database is.
        { ResultsStore create(file); }
        db_ = Database(file, Database::Mode::kReadWrite);
        db_.set_busy_timeout(options_.lock_timeout);
        // Every row written refers to a row this merge mapped or wrote
        // itself (bots and games by their new ids), so SQLite's check of each
        // reference is skipped: an eighth of the merge's CPU time.
        db_.exec("PRAGMA foreign_keys = OFF");
        // Nor are the CHECK constraints evaluated again: every row copied
        // passed the same ones (the inputs' schema version is this one)
        // when it was stored.
        db_.exec("PRAGMA ignore_check_constraints = ON");
        db_.exec("PRAGMA temp_store = MEMORY");
        // A batch of inputs is written in one transaction: with the default
        // 2 MB page cache, SQLite spills pages of it to the journal before
        // the commit and reads them back.
        db_.exec("PRAGMA cache_size = -65536");
        if (fresh) {
            // No one else knows the file (see NewOutput): its rollback
            // journal, needed to undo a batch with a refused input, is kept
            // in memory, and nothing is fsynced until the whole is written.
            // Its pages are 8 KB, not the store's 2 KB (a store commits a
            // game at a time; a merge writes whole tables): 5 % fewer
            // instructions per game.
            set_journal_mode("delete");
            db_.exec("PRAGMA page_size = 8192");
            db_.exec("VACUUM");
            set_journal_mode("memory");
            db_.exec("PRAGMA synchronous = OFF");
            // The games' index by pairing and result is made after the copy,
            // from the games sorted, rather than updated as each game comes:
            // its entries come in no order, and the copy would spend a sixth
            // of its time waiting for the memory of its pages.
            std::string sql;
            {
                auto index = db_.prepare(
                    "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = "
                    "'games_by_result'");
                auto q = index.use();
                if (q.step()) sql = q.column_text(0);
            }
            if (!sql.empty()) {
                db_.exec("DROP INDEX games_by_result");
                deferred_indices_.push_back(sql);
            }
        } else {
            db_.exec("PRAGMA synchronous = NORMAL");
            // As the arena's own store: a checkpoint (two fsyncs) per 20 MB
            // of WAL, not one per commit.
            db_.exec("PRAGMA wal_autocheckpoint = 10000");
        }
    }

    // Sets the status of the `touched` tournaments and adds them to the
    // summary, in name order.
    void finish_tournaments(const std::set<std::string>& touched, MergeSummary& summary) {
        // Finished once every game of its schedule is in.
        Transaction txn(db_);
        auto status = prepare(
            "UPDATE tournaments SET status = CASE WHEN ?2 >= total_games THEN 'finished' ELSE "
            "'interrupted' END, finished_at = CASE WHEN ?2 >= total_games THEN IFNULL(finished_at, "
            "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) END WHERE id = ?1");
        auto count = prepare("SELECT count(*) FROM games WHERE tournament = ?");
        auto find = prepare("SELECT id, total_games FROM tournaments WHERE name = ?");
        for (const auto& name : touched) {
            MergedTournament t;
            t.name = name;
            std::int64_t id = 0;
            {
                auto q = find.use();
                q.bind(name);
                if (!q.step()) continue;
                id = q.column_int64(0);
                t.total = q.column_int64(1);
            }
            {
                auto q = count.use();
                q.bind(id);
                if (q.step()) t.games = q.column_int64(0);
            }
            status.use().bind(id).bind(t.games).exec();
            summary.tournaments.push_back(std::move(t));
        }
        txn.commit();
    }

    // Every input is read, and each of its tournaments compared with the
    // same one in the output or in an input before it, before anything is
    // written.
    void check_inputs(const std::vector<std::filesystem::path>& inputs) {
        // Tournament name -> its header, and the file it was first seen in.
        std::map<std::string, std::pair<TournamentHeader, std::string>> first_seen;
        {
            Transaction read(db_, Transaction::Mode::kDeferred);
            for (auto& h : read_headers(db_, "main"))
                first_seen.emplace(h.name, std::make_pair(std::move(h), out_.string()));
        }
        std::error_code ec;
        for (const auto& file : inputs) {
            if (std::filesystem::equivalent(file, out_, ec))
                throw MergeError(file.string() + ": is the output database itself");
            auto headers = read_input_headers(file);
            auto& mine = input_headers_[file.string()];
            for (auto& h : headers) {
                if (const auto it = first_seen.find(h.name); it != first_seen.end()) {
                    if (auto diff = difference(h, it->second.first)) {
                        throw MergeError(file.string() + ": tournament '" + h.name +
                                         "' is not the one in " + it->second.second + ": " + *diff);
                    }
                } else {
                    first_seen.emplace(h.name, std::make_pair(h, file.string()));
                }
                mine.emplace(h.name, std::move(h));
            }
        }
    }

    // The output's tournament of `name`; copied from the attached input's
    // `src` (its row, bots and segments) when there is none.
    std::int64_t output_tournament(const TournamentHeader& src, MergedInput& merged) {
        {
            auto find = prepare("SELECT id FROM main.tournaments WHERE name = ?");
            auto q = find.use();
            q.bind(src.name);
            if (q.step()) return q.column_int64(0);
        }
        // Not finished until its games are (see run()).
        copy_rows("tournaments", "id = ?", src.id,
                  {{"id", "NULL"}, {"status", "'interrupted'"}, {"finished_at", "NULL"}});
        const auto id = db_.last_insert_rowid();
        copy_rows("bots", "tournament = ?", src.id,
                  {{"id", "NULL"}, {"tournament", std::to_string(id)}}, "ORDER BY id");
        map_bots(src.id, id);
        copy_rows("segments", "tournament = ?", src.id, {{"tournament", std::to_string(id)}});
        copy_rows("segment_bots", "tournament = ?", src.id,
                  {{"tournament", std::to_string(id)},
                   {"bot", "(SELECT out_id FROM temp.bot_map WHERE src_id = s.bot)"}});
        merged.new_tournaments.push_back(src.name);
        return id;
    }

    // INSERT INTO main.table SELECT the same columns FROM src.table AS s
    // WHERE `where` (binding `key`), with `replaced` columns computed.
    void copy_rows(const std::string& table, const std::string& where, std::int64_t key,
                   const std::map<std::string, std::string>& replaced,
                   const std::string& order = "") {
        const auto columns = columns_of(db_, table);
        std::string names, values;
        for (const auto& c : columns.names) {
            names += (names.empty() ? "" : ", ") + quoted(c);
            const auto it = replaced.find(c);
            values += (values.empty() ? "" : ", ") +
                      (it != replaced.end() ? it->second : "s." + quoted(c));
        }
        auto insert =
            prepare("INSERT INTO main." + quoted(table) + " (" + names + ") SELECT " + values +
                    " FROM src." + quoted(table) + " AS s WHERE s." + where + " " + order);
        insert.use().bind(key).exec();
    }

    void map_bots(std::int64_t src, std::int64_t out) {
        db_.exec("DELETE FROM temp.bot_map");
        auto map = prepare(
            "INSERT INTO temp.bot_map (src_id, out_id) SELECT s.id, m.id FROM src.bots AS s "
            "JOIN main.bots AS m ON m.tournament = ?2 AND m.name = s.name WHERE s.tournament = "
            "?1");
        map.use().bind(src).bind(out).exec();
    }

    // Which file stored the output's game `id`: an input merged by this
    // call, or the output as it was.
    std::string origin(std::int64_t id) const {
        for (const auto& [first, last, file] : inserted_)
            if (id >= first && id <= last) return file;
        return out_.string() + " (stored there before this merge)";
    }

    // Copies the games of the input's tournament `src` that the output's
    // tournament `out` lacks; refuses one it holds with another result.
    void merge_games(const TournamentHeader& src, std::int64_t out,
                     const std::filesystem::path& file, MergedInput& merged) {
        map_bots(src.id, out);
        const bool overlap = overlaps(src, out);
        if (overlap) check_same_results(src, out, file);
        // The new games get the ids after the output's last, in the order of
        // their index: first listed in temp.game_map (its rowid n counts
        // them from 1), then copied with id `before + n`. Every id is larger
        // than the one before, so each row is appended to the table, and
        // the rows of each game (moves, logs, ...) are read from the input
        // by the input's own game id.
        const auto before = db_.query_int("SELECT IFNULL(max(id), 0) FROM main.games");
        db_.exec("DELETE FROM temp.game_map");
        {
            auto list = prepare(
                "INSERT INTO temp.game_map (src_id) SELECT s.id FROM src.games AS s WHERE "
                "s.tournament = ?1" +
                std::string(overlap ? " AND NOT EXISTS (SELECT 1 FROM main.games AS m WHERE "
                                      "m.tournament = ?2 AND m.game_index = s.game_index)"
                                    : " AND ?2 IS NOT NULL") +
                " ORDER BY s.game_index");
            list.use().bind(src.id).bind(out).exec();
        }
        const auto added = db_.changes();
        merged.added += added;
        // The others are there already, with the same results.
        {
            auto count = prepare("SELECT count(*) FROM src.games WHERE tournament = ?");
            auto q = count.use();
            q.bind(src.id);
            if (q.step()) merged.present += q.column_int64(0) - added;
        }
        if (added == 0) return;
        inserted_.push_back({before + 1, before + added, file.string()});
        copy_games(src, out, before);
    }

    // Whether the output holds any game of the input's range of indices
    // (never, for the first merge of shards: their ranges are apart);
    // when not, no game of the input needs looking up in the output.
    bool overlaps(const TournamentHeader& src, std::int64_t out) {
        auto range = prepare(
            "SELECT EXISTS (SELECT 1 FROM main.games WHERE tournament = ?2 AND game_index "
            "BETWEEN (SELECT min(game_index) FROM src.games WHERE tournament = ?1) AND "
            "(SELECT max(game_index) FROM src.games WHERE tournament = ?1))");
        auto q = range.use();
        q.bind(src.id).bind(out);
        return q.step() && q.column_int64(0) != 0;
    }

    // Refuses a game index that the input and the output both hold with
    // another result, ending or players.
    void check_same_results(const TournamentHeader& src, std::int64_t out,
                            const std::filesystem::path& file) {
        auto conflict = prepare(
            "SELECT s.game_index, s.result, s.termination, m.result, m.termination, m.id, "
            "sf.name, ss.name, mf.name, ms.name FROM src.games AS s "
            "JOIN main.games AS m ON m.tournament = ?2 AND m.game_index = s.game_index "
            "JOIN src.bots AS sf ON sf.id = s.first_bot JOIN src.bots AS ss ON ss.id = "
            "s.second_bot JOIN main.bots AS mf ON mf.id = m.first_bot JOIN main.bots AS ms "
            "ON ms.id = m.second_bot WHERE s.tournament = ?1 AND (s.result <> m.result OR "
            "s.termination <> m.termination OR sf.name <> mf.name OR ss.name <> ms.name) "
            "ORDER BY s.game_index LIMIT 1");
        auto q = conflict.use();
        q.bind(src.id).bind(out);
        if (q.step()) {
            const auto game = [](const std::string& first, const std::string& second,
                                 const std::string& result, const std::string& ending) {
                return first + " vs " + second + " " + result + " (" + ending + ")";
            };
            throw MergeError(
                "game index " + std::to_string(q.column_int64(0)) + " of tournament '" + src.name +
                "' has different results: " +
                game(q.column_text(6), q.column_text(7), q.column_text(1), q.column_text(2)) +
                " in " + file.string() + ", " +
                game(q.column_text(8), q.column_text(9), q.column_text(3), q.column_text(4)) +
                " in " + origin(q.column_int64(5)) +
                "; the inputs are not games of one run of the same tournament");
        }
    }

    // Copies the input's games listed in temp.game_map into the output's
    // tournament `out`, the one numbered n with id `before + n`, with every
    // row of each game.
    void copy_games(const TournamentHeader& src, std::int64_t out, std::int64_t before) {
        const auto new_id = "(" + std::to_string(before) + " + g.n)";
        std::map<std::string, std::string> replaced{{"id", new_id},
                                                    {"tournament", std::to_string(out)}};
        // A bot's id in the output is its id in the input plus the same
        // number for every bot when the tournament's bots were stored in
        // the same order in both (shards, and their merges, always are):
        // then no lookup per game.
        std::optional<std::int64_t> shift;
        {
            // (Every bot of the input is mapped: the bots were compared.)
            auto shifts = prepare(
                "SELECT min(out_id - src_id), max(out_id - src_id), count(*) = (SELECT count(*) "
                "FROM src.bots WHERE tournament = ?) FROM temp.bot_map");
            auto q = shifts.use();
            q.bind(src.id);
            if (q.step() && !q.is_null(0) && q.column_int64(0) == q.column_int64(1) &&
                q.column_int64(2) != 0)
                shift = q.column_int64(0);
        }
        for (const auto& [column, table] : games_.references) {
            if (table != "bots") continue;
            replaced[column] =
                shift ? "s." + quoted(column) + " + " + std::to_string(*shift)
                      : "(SELECT out_id FROM temp.bot_map WHERE src_id = s." + quoted(column) + ")";
        }
        std::string names, values;
        for (const auto& c : games_.names) {
            names += (names.empty() ? "" : ", ") + quoted(c);
            const auto it = replaced.find(c);
            values += (values.empty() ? "" : ", ") +
                      (it != replaced.end() ? it->second : "s." + quoted(c));
        }
        exec("INSERT INTO main.games (" + names + ") SELECT " + values +
             " FROM temp.game_map AS g CROSS JOIN src.games AS s WHERE s.id = g.src_id ORDER BY "
             "g.n");
        // Every row of each new game: moves, logs, transcripts, ...
        for (const auto& [table, columns] : per_game_) {
            std::string cols, vals;
            for (const auto& c : columns.names) {
                cols += (cols.empty() ? "" : ", ") + quoted(c);
                vals +=
                    (vals.empty() ? "" : ", ") + (c == table.column ? new_id : "x." + quoted(c));
            }
            exec("INSERT INTO main." + quoted(table.name) + " (" + cols + ") SELECT " + vals +
                 " FROM temp.game_map AS g CROSS JOIN src." + quoted(table.name) +
                 " AS x WHERE x." + quoted(table.column) + " = g.src_id ORDER BY g.n");
        }
    }

    // Merges `files` in one transaction, each attached under its own name.
    std::vector<MergedInput> merge_batch(const std::vector<std::filesystem::path>& files) {
        const bool uri = sqlite3_compileoption_used("USE_URI") != 0;
        std::vector<std::string> names;
        std::exception_ptr failure;
        std::vector<MergedInput> merged;
        const auto ranges = inserted_.size();
        try {
            for (const auto& file : files) {
                const auto name = "src" + std::to_string(names.size());
                auto attach = db_.prepare("ATTACH DATABASE ? AS " + name);
                attach.use().bind(uri ? read_only_uri(file) : file.string()).exec();
                names.push_back(name);
                // Read through a memory map, not a read() per page.
                db_.exec("PRAGMA " + name + ".mmap_size = 1073741824");
            }
            Transaction txn(db_, Transaction::Mode::kImmediate);
            for (std::size_t i = 0; i < files.size(); ++i) {
                src_ = names[i];
                merged.push_back(merge_input(files[i]));
            }
            txn.commit();
        } catch (...) {
            failure = std::current_exception();
            inserted_.resize(ranges);
        }
        for (const auto& name : names)
            db_.exec("DETACH DATABASE " + name);
        if (failure) std::rethrow_exception(failure);
        return merged;
    }

    // One input, attached as src_, inside the batch's transaction.
    MergedInput merge_input(const std::filesystem::path& file) {
        MergedInput merged;
        merged.file = file;
        // Read again inside the transaction: the input may have grown since
        // it was checked, and must not have changed what was compared.
        const auto& checked = input_headers_[file.string()];
        for (const auto& src : read_headers(db_, src_)) {
            const auto it = checked.find(src.name);
            if (it == checked.end()) {
                throw MergeError(file.string() + ": tournament '" + src.name +
                                 "' appeared in it during the merge; merge it again");
            }
            if (auto diff = difference(src, it->second)) {
                throw MergeError(file.string() + ": tournament '" + src.name +
                                 "' changed during the merge: " + *diff);
            }
            const auto out = output_tournament(src, merged);
            merge_games(src, out, file, merged);
            total_update(src, out);
        }
        return merged;
    }

    // SQL text naming the input being merged as "src.".
    [[nodiscard]] std::string with_src(std::string text) const {
        for (auto at = text.find("src."); at != std::string::npos;
             at = text.find("src.", at + src_.size() + 1))
            text.replace(at, 3, src_);
        return text;
    }
    Statement prepare(const std::string& text) { return db_.prepare(with_src(text)); }
    void exec(const std::string& text) { db_.exec(with_src(text)); }

    // A tournament whose total grows as it plays (a ladder) keeps the largest.
    void total_update(const TournamentHeader& src, std::int64_t out) {
        auto update =
            prepare("UPDATE main.tournaments SET total_games = max(total_games, ?2) WHERE id = ?1");
        update.use().bind(out).bind(src.total).exec();
    }

    std::filesystem::path out_;
    const MergeOptions& options_;
    std::string src_ = "src";        // the schema name of the input being merged
    std::size_t inputs_merged_ = 0;  // committed to the output so far
    Database db_;
    Columns games_;
    std::vector<std::pair<GameTable, Columns>> per_game_;
    // Per input file: its tournaments by name, as checked.
    std::map<std::string, std::map<std::string, TournamentHeader>> input_headers_;
    struct Range {
        std::int64_t first, last;
        std::string file;
    };
    std::vector<Range> inserted_;  // game ids of the output, by the input that stored them
    // The CREATE INDEX statements of a new output's indices made at its end.
    std::vector<std::string> deferred_indices_;
};

}  // namespace

MergeSummary merge_databases(const std::filesystem::path& out,
                             const std::vector<std::filesystem::path>& inputs,
                             const MergeOptions& options) {
    try {
        return Merger(out, options).run(inputs);
    } catch (const StoreError&) {
        throw;
    } catch (const SqliteError& e) {
        throw StoreError(std::string("merging into ") + out.string() + ": " + e.what());
    }
}

std::string merged_text(const MergedInput& input, const std::filesystem::path& out) {
    std::string text = input.file.string() + ": " + std::to_string(input.added) + " game" +
                       (input.added == 1 ? "" : "s") + " added";
    if (input.present > 0)
        text += ", " + std::to_string(input.present) + " already in " + out.string();
    for (const auto& name : input.new_tournaments)
        text += " (tournament '" + name + "' is new)";
    return text + "\n";
}

std::string merged_text(const MergedTournament& tournament, const std::filesystem::path& out) {
    return out.string() + ": tournament '" + tournament.name +
           "': " + std::to_string(tournament.games) + " of " + std::to_string(tournament.total) +
           " games" + (tournament.games >= tournament.total ? ", complete" : "") + "\n";
}

}  // namespace arena::store
