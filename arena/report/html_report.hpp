#pragma once
// `arena report`: one self-contained HTML page for a stored tournament. It
// needs nothing but itself (no network, no other file: the styles, scripts,
// charts and data are inline), so it opens from file:// and can be mailed.
//
// The page holds the header (config, seed, bots with their SHA-256, dates,
// status), for a tune each parameter's path over the iterations
// (tune_section.hpp), the standings and crosstable (the numbers of
// `arena standings`, from compute_standings()), the charts (inline SVG from
// charts.hpp), the endings, a sortable and filterable list of the games, and
// one replay viewer for all of them. The games travel once, as compact JSON
// in a <script type="application/json" id="arena-data"> element (the format
// is described in docs/report.md), which the page's script reads.
//
// Other pages can show the same replays: replay_js() defines
// `ArenaReplay.Viewer` (new ArenaReplay.Viewer(element); viewer.show(game)),
// which takes a game in the form replay_game_json() returns, and
// report_css() styles it. A page that uses them must allow its own inline
// scripts (see content_security_policy()).

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/scoring.hpp"

namespace arena::report {

struct ReportOptions {
    // The ratings' anchors, as for `arena standings` (none: mean 0).
    std::vector<rating::Anchor> anchors;
    // Course-style points (the config's `scoring:`, StoredSettings::scoring):
    // a column of the standings.
    using Points = tournament::Scoring;
    std::optional<Points> points;
    // Of each bot's stderr per game, the page keeps this many bytes at the end.
    std::size_t max_log_bytes = 4096;
    // Of each move's `info` lines, the page keeps this many bytes at the start.
    std::size_t max_info_bytes_per_move = 2048;
    // Info lines and stderr of all games together: past this, later games
    // carry none (the page says so; `arena show` and `arena log` have them).
    std::size_t max_text_bytes = 64u << 20;
};

// Writes the page. Reads the store only (the ratings are not saved). Throws
// std::invalid_argument for an anchor that is not one of the bots, and
// store::StoreError when the database cannot be read.
void write_report(store::ResultsStore& store, const store::TournamentRow& tournament,
                  const ReportOptions& options, std::ostream& out);

// One stored game as ArenaReplay.Viewer shows it:
//   {id, index, first, second, game, params, board, moves: [{m, text, side,
//    us, info}], result, termination, detail, logs: [first's, second's]}
// where board is {game: "connect4", rows, cols, connect, blocked: [[col, row]]},
// {game: "gomoku", size, rule} or {game: "reversi"}, m is the move as a
// number (connect4: the column from 0; gomoku: row * size + col, row 0 at
// the bottom; reversi: row * 8 + col, row 0 at the top; -1 a pass; null:
// not a move of the game), and us its time in microseconds (null when the
// arena played it). Throws games::GameError for a game the arena does not
// know.
[[nodiscard]] nlohmann::json replay_game_json(const store::StoredGame& game,
                                              std::size_t max_log_bytes = 4096);

// The assets, also for other pages: the stylesheet, the replay viewer's
// script (defines window.ArenaReplay), and the report page's own script.
[[nodiscard]] std::string_view report_css();
[[nodiscard]] std::string_view replay_js();
[[nodiscard]] std::string_view report_js();

// The Content-Security-Policy of a page whose only scripts are `scripts`
// (inline, each allowed by its SHA-256): no network, no other script, no
// inline event handler, so even markup that escaped escaping could not run.
[[nodiscard]] std::string content_security_policy(const std::vector<std::string_view>& scripts);

}  // namespace arena::report
