#pragma once
// `arena export`: stored games written in formats other tools read. Pure
// functions from the store's game records to text; no I/O, so each format
// can be tested on its own. docs/export.md describes every format.
//
// Every format numbers a game by its 1-based position in the schedule (the
// database's game_index + 1), the number `arena games` shows.
//
//   pgn        PGN with the Seven Tag Roster plus Game, Termination, Opening,
//              and each side's control (WhiteControl, BlackControl);
//              movetext in the game's own notation; any game
//   csv        one row per game (RFC 4180 quoting); any game
//   moves-csv  one row per move; any game
//   connect4   one line of 1-based column digits per game, as Connect-4
//              solvers read positions; boards of at most 9 columns and no
//              blocked cells
//   psq        Piskvork's Gomoku record; gomoku
//   ggf        the Generic Game Format of GGS, one game per line; reversi

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::exporting {

enum class ExportFormat { kPgn, kCsv, kMovesCsv, kConnect4, kPsq, kGgf };

// A game the format cannot hold, or a stored game that does not replay. The
// message names the game.
class ExportError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// "pgn", "csv", ... ; nullopt for an unknown name.
[[nodiscard]] std::optional<ExportFormat> parse_export_format(std::string_view name);
[[nodiscard]] std::string_view to_string(ExportFormat format);
// "pgn, csv, moves-csv, connect4, psq, ggf", for messages.
[[nodiscard]] std::string export_format_names();
// The registry name of the only game the format holds; empty when it holds any.
[[nodiscard]] std::string_view required_game(ExportFormat format);

// The game's 1-based number in its schedule.
[[nodiscard]] std::int64_t game_number(const store::GameSummary& game);

// --- pgn -----------------------------------------------------------------
// One game: tags, a blank line, movetext wrapped at 79 columns, a blank line.
[[nodiscard]] std::string pgn_game(const std::string& tournament, const store::StoredGame& game);
// A tag value with '\' and '"' escaped and control characters made spaces.
[[nodiscard]] std::string pgn_tag_value(std::string_view text);

// --- csv, moves-csv ------------------------------------------------------
// One field, quoted when it holds a comma, a quote, CR or LF (RFC 4180).
[[nodiscard]] std::string csv_field(std::string_view text);
[[nodiscard]] std::string games_csv_header();
[[nodiscard]] std::string games_csv_row(const std::string& tournament,
                                        const store::StoredGame& game);
[[nodiscard]] std::string moves_csv_header();
// Every move of the game, one row each.
[[nodiscard]] std::string moves_csv_rows(const std::string& tournament,
                                         const store::StoredGame& game);
// Microseconds as milliseconds with three decimals: 1234567 -> "1234.567".
[[nodiscard]] std::string milliseconds_text(std::int64_t microseconds);

// --- connect4 ------------------------------------------------------------
// The moves as 1-based column digits and a newline ("4453...\n"). Throws
// ExportError for a board wider than 9 columns or with blocked cells.
[[nodiscard]] std::string connect4_line(const std::string& tournament,
                                        const store::StoredGame& game);

// --- psq -----------------------------------------------------------------
// One Piskvork record: "Piskvorky NxN, 11:11, 0", then x,y,time_ms per move
// (1-based; x the column, a = 1; y the arena's row number), then the names of
// the first and second player and an ending code. Throws ExportError for a
// game that is not gomoku.
[[nodiscard]] std::string psq_game(const std::string& tournament, const store::StoredGame& game);
// "<tournament>-<number>.psq", with characters other than letters, digits,
// '.', '_' and '-' replaced by '_'.
[[nodiscard]] std::string psq_file_name(const std::string& tournament,
                                        const store::GameSummary& game);

// --- ggf -----------------------------------------------------------------
// One Othello game in GGF on one line. Throws ExportError for a game that is
// not reversi.
[[nodiscard]] std::string ggf_game(const std::string& tournament, const store::StoredGame& game);

// One game in `format`, as it goes to a stream (psq records are separated
// by a blank line there, which the caller writes).
[[nodiscard]] std::string format_game(ExportFormat format, const std::string& tournament,
                                      const store::StoredGame& game);
// The first line of a CSV format, empty for the others.
[[nodiscard]] std::string format_header(ExportFormat format);

}  // namespace arena::exporting
