#include "arena/report/game_data.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/record/game_record.hpp"
#include "arena/record/params_text.hpp"

namespace arena::report {
namespace {

using nlohmann::json;

// The 64 characters of the move code: a move's number is its index here
// (two characters, high first, for boards of more than 64 cells).
constexpr std::string_view kMoveAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// One board of the tournament: what the viewer needs to draw it, and a
// state to read its moves with.
struct Board {
    json description;
    std::unique_ptr<games::Game> game;
    std::unique_ptr<games::State> initial;
    int width = 1;  // characters per move in the move code
};

// A field of a board's description as the viewer reads it: a number, a
// text, or a list of cells as [col, row] pairs.
json viewer_value(const games::ViewerField& field) {
    if (const auto* number = std::get_if<int>(&field.value)) return *number;
    if (const auto* text = std::get_if<std::string>(&field.value)) return *text;
    json cells = json::array();
    for (const auto& cell : std::get<std::vector<games::Cell>>(field.value))
        cells.push_back({cell.col, cell.row});
    return cells;
}

Board make_board(const std::string& name, const std::string& params_text) {
    Board b;
    b.game = games::make_game(name, record::parse_params(params_text));
    b.initial = b.game->new_initial_state();
    const auto board = b.game->board();
    b.description = {{"game", b.game->name()}};
    for (const auto& field : board.viewer)
        b.description[field.key] = viewer_value(field);
    b.width = board.move_count() <= 64 ? 1 : 2;
    b.description["w"] = b.width;
    b.description["params"] = params_text;
    return b;
}

// A move of `board` as a number (see replay_game_json()), nullopt when the
// text is not a move of the game.
std::optional<int> move_number(const Board& board, const std::string& text) {
    const auto move = board.initial->parse_move(text);
    if (!move) return std::nullopt;
    return *move;
}

std::string move_code(int move, int width) {
    if (move == games::kPass) return std::string(static_cast<std::size_t>(width), '.');
    if (width == 1) return std::string(1, kMoveAlphabet[static_cast<std::size_t>(move)]);
    return {kMoveAlphabet[static_cast<std::size_t>(move / 64)],
            kMoveAlphabet[static_cast<std::size_t>(move % 64)]};
}

// The end of a log, at most `max_bytes`, cut after a newline when one is near.
std::string log_tail(const std::string& log, std::size_t max_bytes) {
    if (log.size() <= max_bytes) return log;
    std::string tail = log.substr(log.size() - max_bytes);
    const auto newline = tail.find('\n');
    if (newline != std::string::npos && newline < 200) tail.erase(0, newline + 1);
    return "…" + tail;
}

std::string joined_info(const std::vector<std::string>& info, std::size_t max_bytes) {
    std::string text;
    for (const auto& line : info)
        text += (text.empty() ? "" : "\n") + line;
    if (text.size() > max_bytes) text = text.substr(0, max_bytes) + "…";
    return text;
}

// Milliseconds since the epoch of "2024-05-01T12:34:56.789Z"; nullopt for
// other text.
std::optional<std::int64_t> epoch_ms(const std::string& iso) {
    std::tm tm{};
    int millis = 0;
    if (std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                    &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &millis) != 7)
        return std::nullopt;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return static_cast<std::int64_t>(timegm(&tm)) * 1000 + millis;
}

int winner_of_result(const std::string& result) {
    return result == "1-0" ? 1 : result == "0-1" ? 2 : 0;
}

// The number of moves of an opening, as the schedule gave them.
int opening_plies_of(const std::string& opening) {
    int plies = 0;
    std::istringstream words(opening);
    std::string word;
    while (words >> word)
        ++plies;
    return plies;
}

// One game's moves as its row carries them (see docs/report.md).
struct RowMoves {
    std::string code;
    json times = json::array();
    json info = json::object(), bad = json::object();
    std::string sides;  // only kept when they do not simply alternate
    bool alternate = true;
};

// `bots`: the first and the second player's index among the bots, -1 for
// one that is not among them. Adds each bot's move times to `g`, and the
// size of the info text kept to `text_bytes`.
RowMoves row_moves(const store::StoredGame& game, const Board& board, std::array<int, 2> bots,
                   const ReportOptions& options, Gathered& g, std::size_t& text_bytes) {
    RowMoves r;
    for (const auto& m : game.moves) {
        const auto number = move_number(board, m.move);
        if (number) {
            r.code += move_code(*number, board.width);
        } else {
            r.code += std::string(static_cast<std::size_t>(board.width), '!');
            r.bad[std::to_string(m.ply)] = m.move;
        }
        // Tens of microseconds; -1: played by the arena.
        r.times.push_back(m.by_arena ? std::int64_t{-1} : (m.time_us + 5) / 10);
        r.sides += m.side == 1 ? '1' : '2';
        if (m.side != (m.ply % 2 == 1 ? 1 : 2)) r.alternate = false;
        const int mover = bots[m.side == 1 ? 0 : 1];
        if (!m.by_arena && mover >= 0)
            g.move_ms[static_cast<std::size_t>(mover)].push_back(static_cast<double>(m.time_us) /
                                                                 1000.0);
        if (!m.info.empty() && !g.text_cut) {
            auto text = joined_info(m.info, options.max_info_bytes_per_move);
            text_bytes += text.size();
            r.info[std::to_string(m.ply)] = std::move(text);
        }
    }
    return r;
}

}  // namespace

Gathered gather(store::ResultsStore& store, const store::TournamentRow& tournament,
                const std::vector<std::string>& names, const ReportOptions& options) {
    Gathered g;
    std::map<std::string, int> bot_index;
    for (std::size_t i = 0; i < names.size(); ++i)
        bot_index.emplace(names[i], static_cast<int>(i));
    g.move_ms.resize(names.size());
    std::vector<std::string> endings;
    for (const auto t : record::kAllTerminations)
        endings.emplace_back(record::to_string(t));
    std::map<std::pair<std::string, std::string>, int> board_index;  // (game, params) -> index
    std::vector<Board> boards;
    json boards_json = json::array();
    json rows = json::array();
    std::size_t text_bytes = 0;
    std::optional<std::int64_t> base_ms;
    std::string base_text;

    for (const auto& summary : store.games(tournament.id)) {
        const auto game = store.load_game(summary.id);
        if (!game) continue;  // deleted meanwhile
        const auto key = std::pair(game->game, game->params);
        auto found = board_index.find(key);
        if (found == board_index.end()) {
            boards.push_back(make_board(game->game, game->params));
            boards_json.push_back(boards.back().description);
            found = board_index.emplace(key, static_cast<int>(boards.size() - 1)).first;
        }
        const Board& board = boards[static_cast<std::size_t>(found->second)];
        const auto first = bot_index.find(summary.first), second = bot_index.find(summary.second);
        const int f = first == bot_index.end() ? -1 : first->second;
        const int s = second == bot_index.end() ? -1 : second->second;
        auto moves = row_moves(*game, board, {f, s}, options, g, text_bytes);
        json logs = json::array();
        bool any_log = false;
        for (const auto& log : game->stderr_logs) {
            std::string tail = g.text_cut ? "" : log_tail(log, options.max_log_bytes);
            text_bytes += tail.size();
            any_log = any_log || !tail.empty();
            logs.push_back(std::move(tail));
        }
        if (text_bytes > options.max_text_bytes) g.text_cut = true;

        std::int64_t offset = 0;
        if (const auto ms = epoch_ms(summary.started_at)) {
            if (!base_ms) {
                base_ms = *ms;
                base_text = summary.started_at;
            }
            offset = *ms - *base_ms;
        }
        ++g.endings[summary.termination];
        const auto ending = std::find(endings.begin(), endings.end(), summary.termination);
        json row = {summary.id,
                    summary.slot.index,
                    summary.slot.pair,
                    f,
                    s,
                    winner_of_result(summary.result),
                    static_cast<int>(ending - endings.begin()),
                    found->second,
                    opening_plies_of(summary.slot.opening),
                    moves.code,
                    moves.times,
                    (summary.duration_us + 500) / 1000,
                    offset,
                    summary.detail};
        json extra = json::object();
        if (!moves.info.empty()) extra["i"] = std::move(moves.info);
        if (any_log) extra["l"] = std::move(logs);
        if (!moves.bad.empty()) extra["x"] = std::move(moves.bad);
        if (!moves.alternate) extra["s"] = std::move(moves.sides);
        if (game->peak_memory[0] || game->peak_memory[1]) {
            json memory = json::array();
            for (const auto& bytes : game->peak_memory)
                memory.push_back(bytes ? json(*bytes) : json(nullptr));
            extra["m"] = std::move(memory);
        }
        if (!extra.empty()) row.push_back(std::move(extra));
        rows.push_back(std::move(row));
    }
    g.data = {{"v", 1},
              {"tournament", tournament.spec.name},
              {"game", tournament.spec.game},
              {"bots", names},
              {"endings", endings},
              {"boards", boards_json},
              {"base", base_text},
              {"games", std::move(rows)},
              {"textCut", g.text_cut}};
    return g;
}

json replay_game_json(const store::StoredGame& game, std::size_t max_log_bytes) {
    const Board board = make_board(game.game, game.params);
    json moves = json::array();
    for (const auto& m : game.moves) {
        const auto number = move_number(board, m.move);
        moves.push_back({{"m", number ? json(*number) : json(nullptr)},
                         {"text", m.move},
                         {"side", m.side},
                         {"us", m.by_arena ? json(nullptr) : json(m.time_us)},
                         {"info", joined_info(m.info, std::string::npos)}});
    }
    const auto& s = game.summary;
    return {{"id", s.id},
            {"index", s.slot.index},
            {"first", s.first},
            {"second", s.second},
            {"game", game.game},
            {"params", game.params},
            {"board", board.description},
            {"moves", std::move(moves)},
            {"result", s.result},
            {"termination", s.termination},
            {"detail", s.detail},
            {"logs",
             {log_tail(game.stderr_logs[0], max_log_bytes),
              log_tail(game.stderr_logs[1], max_log_bytes)}}};
}

}  // namespace arena::report
