#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/store/results_store_impl.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::store {
namespace {

// A stored result as an outcome: "1-0", "0-1", else a draw.
games::Outcome outcome_of(std::string_view result) {
    return result == "1-0"   ? games::Outcome::kWin1
           : result == "0-1" ? games::Outcome::kWin2
                             : games::Outcome::kDraw;
}

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
    if (!q.is_null(18)) s.moves_hash = q.column_int64(18);
    return s;
}

}  // namespace

int ResultsStore::Impl::position_of(const std::unordered_map<std::int64_t, int>& index,
                                    std::int64_t id, std::int64_t tournament) {
    const auto found = index.find(id);
    if (found != index.end()) return found->second;
    fail("a game of tournament " + name_of(tournament) + " names bot id " + std::to_string(id) +
         ", which is not one of the tournament's bots (was its row deleted?)");
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

std::vector<GameSummary> ResultsStore::games_after(std::int64_t tournament, std::int64_t after_id) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        std::vector<GameSummary> list;
        auto q = s.list_games_after.use();
        q.bind(tournament).bind(after_id);
        while (q.step())
            list.push_back(read_summary(q));
        return list;
    });
}

std::vector<std::string> ResultsStore::bot_controls(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        // The latest game of each bot, found by the indices on first_bot and
        // second_bot: a bot's control does not change within a tournament.
        auto latest = s.db.prepare(
            "SELECT (SELECT CASE WHEN g.first_bot = b.id THEN g.first_control "
            "ELSE g.second_control END FROM games AS g WHERE g.id = max("
            "IFNULL((SELECT max(id) FROM games WHERE first_bot = b.id), 0), "
            "IFNULL((SELECT max(id) FROM games WHERE second_bot = b.id), 0))) "
            "FROM bots AS b WHERE b.tournament = ? ORDER BY b.id");
        std::vector<std::string> controls;
        auto q = latest.use();
        q.bind(tournament);
        while (q.step())
            controls.push_back(q.is_null(0) ? std::string() : q.column_text(0));
        return controls;
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
                if (!q.is_null(19 + side)) game.controls[side] = q.column_text(19 + side);
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

std::vector<ResultCount> ResultsStore::result_counts(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        // One read snapshot for both queries.
        Transaction txn(s.db, Transaction::Mode::kDeferred);
        const auto index = s.bot_positions(tournament);
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
                c.outcome = outcome_of(result);
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

std::vector<PairedGameRow> ResultsStore::paired_games(std::int64_t tournament) {
    auto& s = Impl::of(impl_);
    return s.run([&] {
        Transaction txn(s.db, Transaction::Mode::kDeferred);
        const auto index = s.bot_positions(tournament);
        std::vector<PairedGameRow> rows;
        auto q = s.paired_games.use();
        q.bind(tournament);
        while (q.step()) {
            PairedGameRow r;
            r.pair = q.column_int64(0);
            r.first = s.position_of(index, q.column_int64(1), tournament);
            r.second = s.position_of(index, q.column_int64(2), tournament);
            const auto result = q.column_view(3);
            r.outcome = outcome_of(result);
            if (!q.is_null(4)) r.moves_hash = q.column_int64(4);
            rows.push_back(r);
        }
        return rows;
    });
}

}  // namespace arena::store
