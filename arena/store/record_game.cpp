#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "arena/record/moves_hash.hpp"
#include "arena/record/params_text.hpp"
#include "arena/store/results_store.hpp"
#include "arena/store/results_store_impl.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {
namespace {

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

std::string insert_moves_sql(std::size_t rows) {
    std::string sql = "INSERT INTO moves (game, ply, side, move, time_us, by_arena, info) VALUES ";
    for (std::size_t i = 0; i < rows; ++i)
        sql += i == 0 ? "(?, ?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?, ?)";
    return sql;
}

}  // namespace

Statement& ResultsStore::Impl::insert_moves_of(std::size_t rows) {
    auto& statement = insert_moves.at(rows - 1);
    if (!statement.is_prepared()) statement = db.prepare(insert_moves_sql(rows));
    return statement;
}

std::int64_t ResultsStore::record_game(std::int64_t tournament, const GameSlot& slot,
                                       const record::GameRecord& game,
                                       const std::vector<GameParam>& tuned) {
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
        const auto moves_hash = record::moves_hash(game);
        const auto peak = [](const std::optional<std::uint64_t>& bytes) {
            return bytes ? std::optional(static_cast<std::int64_t>(*bytes)) : std::nullopt;
        };

        const auto control = [](const std::string& text) {
            return text.empty() ? std::nullopt : std::optional(text);
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
                .bind(control(game.controls[0]))
                .bind(control(game.controls[1]))
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
        for (const auto& p : tuned) {
            s.insert_param.use()
                .bind(id)
                .bind(p.name)
                .bind(p.iteration)
                .bind(p.batch)
                .bind(p.theta)
                .bind(p.first)
                .bind(p.second)
                .exec();
        }
        txn.commit();
        return id;
    });
}

std::vector<StoredGameParam> ResultsStore::game_params(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<StoredGameParam> rows;
        auto q = s.list_params.use();
        q.bind(tournament);
        while (q.step()) {
            StoredGameParam r;
            r.game_index = q.column_int64(0);
            r.param.name = q.column_text(1);
            r.param.iteration = q.column_int64(2);
            r.param.batch = q.column_int64(3);
            r.param.theta = q.column_double(4);
            if (!q.is_null(5)) r.param.first = q.column_double(5);
            if (!q.is_null(6)) r.param.second = q.column_double(6);
            rows.push_back(std::move(r));
        }
        return rows;
    });
}

}  // namespace arena::store
