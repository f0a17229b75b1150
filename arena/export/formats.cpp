#include "arena/export/formats.hpp"

#include <array>
#include <cstdlib>
#include <memory>
#include <utility>

#include "arena/games/registry.hpp"
#include "arena/record/params_text.hpp"
#include "protocol/codec.hpp"

namespace arena::exporting {
namespace {

struct FormatName {
    ExportFormat format;
    std::string_view name;
    std::string_view game;  // the only game the format holds; empty for any
};

constexpr std::array<FormatName, 6> kFormats{{
    {ExportFormat::kPgn, "pgn", ""},
    {ExportFormat::kCsv, "csv", ""},
    {ExportFormat::kMovesCsv, "moves-csv", ""},
    {ExportFormat::kConnect4, "connect4", "connect4"},
    {ExportFormat::kPsq, "psq", "gomoku"},
    {ExportFormat::kGgf, "ggf", "reversi"},
}};

const FormatName& entry(ExportFormat format) {
    for (const auto& f : kFormats)
        if (f.format == format) return f;
    return kFormats.front();
}

// PGN export format wraps movetext so that no line exceeds 79 characters.
constexpr std::size_t kPgnLineLimit = 79;
// Connect-4 solvers read one digit per move.
constexpr int kMaxDigitColumns = 9;

std::string label(const std::string& tournament, const store::GameSummary& s) {
    return "game " + std::to_string(game_number(s)) + " (id " + std::to_string(s.id) +
           ") of tournament '" + tournament + "'";
}

std::unique_ptr<games::Game> game_of(const std::string& tournament, const store::StoredGame& g) {
    try {
        return games::make_game(g.game, record::parse_params(g.params));
    } catch (const games::GameError& e) {
        throw ExportError(label(tournament, g.summary) + ": " + e.what());
    }
}

// The stored moves applied one by one from the initial position; `each` sees
// the state before the move, the parsed move and the stored one.
template <class F>
std::unique_ptr<games::State> replay(const std::string& tournament, const store::StoredGame& g,
                                     const games::Game& game, F&& each) {
    auto state = game.new_initial_state();
    for (const auto& m : g.moves) {
        const auto move = state->parse_move(m.move);
        if (!move || !state->is_legal(*move)) {
            throw ExportError(label(tournament, g.summary) + ": stored move " +
                              std::to_string(m.ply) + " '" + m.move + "' does not replay");
        }
        each(*state, *move, m);
        state->apply(*move);
    }
    return state;
}

bool is_result(std::string_view r) {
    return r == "1-0" || r == "0-1" || r == "1/2-1/2";
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// "2024-05-01T12:34:56.789Z" -> {"2024", "05", "01", "12:34:56"}; nullopt
// when the text is not of that form.
struct Timestamp {
    std::string year, month, day, time;
};
std::optional<Timestamp> parse_timestamp(const std::string& iso) {
    static constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:dd";
    if (iso.size() < kShape.size()) return std::nullopt;
    for (std::size_t i = 0; i < kShape.size(); ++i) {
        if (kShape[i] == 'd' ? !is_digit(iso[i]) : iso[i] != kShape[i]) return std::nullopt;
    }
    return Timestamp{iso.substr(0, 4), iso.substr(5, 2), iso.substr(8, 2), iso.substr(11, 8)};
}

// A name on a line of its own (psq) or inside brackets (GGF).
std::string one_line(std::string_view text, std::string_view also_replace = "") {
    std::string out;
    for (const char c : text) {
        const bool control = static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        out += control || also_replace.find(c) != std::string_view::npos ? '_' : c;
    }
    return out;
}

bool pgn_symbol(std::string_view move) {
    if (move.empty()) return false;
    for (const char c : move) {
        if (!is_digit(c) && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z')) return false;
    }
    return true;
}

// Joins tokens with single spaces into lines of at most `limit` characters.
std::string wrap(const std::vector<std::string>& tokens, std::size_t limit) {
    std::string out, line;
    for (const auto& t : tokens) {
        if (!line.empty() && line.size() + 1 + t.size() > limit) {
            out += line + '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += t;
    }
    return out + line + '\n';
}

}  // namespace

std::optional<ExportFormat> parse_export_format(std::string_view name) {
    for (const auto& f : kFormats)
        if (f.name == name) return f.format;
    return std::nullopt;
}

std::string_view to_string(ExportFormat format) {
    return entry(format).name;
}

std::string export_format_names() {
    std::string out;
    for (const auto& f : kFormats) {
        if (!out.empty()) out += ", ";
        out += f.name;
    }
    return out;
}

std::string_view required_game(ExportFormat format) {
    return entry(format).game;
}

std::int64_t game_number(const store::GameSummary& game) {
    return game.slot.index + 1;
}

// --- pgn ---------------------------------------------------------------------

std::string pgn_tag_value(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '\\' || c == '"') out += '\\';
        const bool control = static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        out += control ? ' ' : c;
    }
    return out;
}

std::string pgn_game(const std::string& tournament, const store::StoredGame& game) {
    const auto& s = game.summary;
    const std::string result = is_result(s.result) ? s.result : "*";
    std::string out;
    const auto tag = [&out](std::string_view name, std::string_view value) {
        out.append("[").append(name).append(" \"").append(pgn_tag_value(value)).append("\"]\n");
    };
    const auto when = parse_timestamp(s.started_at);
    tag("Event", tournament);
    tag("Site", "arena");
    tag("Date", when ? when->year + "." + when->month + "." + when->day : "????.??.??");
    tag("Round", std::to_string(game_number(s)));
    tag("White", s.first);
    tag("Black", s.second);
    tag("Result", result);
    tag("Game", game.params.empty() ? game.game : game.game + " " + game.params);
    tag("Termination", s.termination);
    if (!s.slot.opening.empty()) tag("Opening", s.slot.opening);
    if (when) tag("UTCTime", when->time);
    tag("PlyCount", std::to_string(game.moves.size()));
    // What each side played under (time odds, search limits), when known.
    if (!game.controls[0].empty()) tag("WhiteControl", game.controls[0]);
    if (!game.controls[1].empty()) tag("BlackControl", game.controls[1]);
    out += '\n';

    const auto opening_plies = protocol::split_words(s.slot.opening).size();
    std::vector<std::string> tokens;
    bool after_comment = false;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const auto& m = game.moves[i];
        if (!pgn_symbol(m.move)) {
            throw ExportError(label(tournament, s) + ": stored move " + std::to_string(m.ply) +
                              " '" + m.move + "' is not a PGN symbol");
        }
        const auto number = std::to_string(i / 2 + 1);
        if (i % 2 == 0) {
            tokens.push_back(number + ".");
        } else if (after_comment) {
            tokens.push_back(number + "...");
        }
        tokens.push_back(m.move);
        after_comment = m.by_arena;
        if (m.by_arena) tokens.emplace_back(i < opening_plies ? "{opening}" : "{forced}");
    }
    tokens.push_back(result);
    out += wrap(tokens, kPgnLineLimit);
    out += '\n';
    return out;
}

// --- csv, moves-csv ----------------------------------------------------------

std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

std::string milliseconds_text(std::int64_t microseconds) {
    const bool negative = microseconds < 0;
    const auto magnitude = negative ? -microseconds : microseconds;
    std::string fraction = std::to_string(magnitude % 1000);
    fraction.insert(0, 3 - fraction.size(), '0');
    return (negative ? "-" : "") + std::to_string(magnitude / 1000) + "." + fraction;
}

std::string games_csv_header() {
    return "tournament,number,id,round,pair,game_in_pair,first,second,result,termination,detail,"
           "plies,opening,started_at,duration_ms,game,params,first_control,second_control\n";
}

std::string games_csv_row(const std::string& tournament, const store::StoredGame& game) {
    const auto& s = game.summary;
    const std::vector<std::string> fields{tournament,
                                          std::to_string(game_number(s)),
                                          std::to_string(s.id),
                                          std::to_string(s.slot.round),
                                          std::to_string(s.slot.pair),
                                          std::to_string(s.slot.game_in_pair),
                                          s.first,
                                          s.second,
                                          s.result,
                                          s.termination,
                                          s.detail,
                                          std::to_string(s.plies),
                                          s.slot.opening,
                                          s.started_at,
                                          milliseconds_text(s.duration_us),
                                          game.game,
                                          game.params,
                                          game.controls[0],
                                          game.controls[1]};
    std::string out;
    for (const auto& f : fields) {
        if (!out.empty()) out += ',';
        out += csv_field(f);
    }
    return out + '\n';
}

std::string moves_csv_header() {
    return "tournament,number,id,ply,side,player,move,time_ms,by_arena\n";
}

std::string moves_csv_rows(const std::string& tournament, const store::StoredGame& game) {
    const auto& s = game.summary;
    const std::string prefix = csv_field(tournament) + "," + std::to_string(game_number(s)) + "," +
                               std::to_string(s.id) + ",";
    std::string out;
    for (const auto& m : game.moves) {
        out += prefix + std::to_string(m.ply) + "," + std::to_string(m.side) + "," +
               csv_field(m.side == 1 ? s.first : s.second) + "," + csv_field(m.move) + "," +
               milliseconds_text(m.time_us) + "," + (m.by_arena ? "1" : "0") + "\n";
    }
    return out;
}

// --- connect4 ----------------------------------------------------------------

std::string connect4_line(const std::string& tournament, const store::StoredGame& game) {
    if (game.game != "connect4") {
        throw ExportError(label(tournament, game.summary) + " is " + game.game + ", not connect4");
    }
    const auto rules = game_of(tournament, game);
    const auto board = rules->board();
    if (board.width > kMaxDigitColumns) {
        throw ExportError(label(tournament, game.summary) + " has " + std::to_string(board.width) +
                          " columns; connect4 move strings hold at most 9 (one digit a move)");
    }
    if (!board.blocked.empty()) {
        throw ExportError(label(tournament, game.summary) +
                          " has blocked cells, which connect4 move strings cannot show");
    }
    std::string line;
    static_cast<void>(replay(tournament, game, *rules,
                             [&line](const games::State&, games::Move m, const store::StoredMove&) {
                                 line += static_cast<char>('1' + m);
                             }));
    return line + '\n';
}

// --- psq ---------------------------------------------------------------------

std::string psq_game(const std::string& tournament, const store::StoredGame& game) {
    if (game.game != "gomoku") {
        throw ExportError(label(tournament, game.summary) + " is " + game.game + ", not gomoku");
    }
    const auto rules = game_of(tournament, game);
    const auto board = rules->board();
    // The two numbers after the size are Piskvork's levels of the two
    // players (11: a program); the last is the player who moved first.
    std::string out = "Piskvorky " + std::to_string(board.width) + "x" +
                      std::to_string(board.height) + ", 11:11, 0\n";
    static_cast<void>(replay(tournament, game, *rules,
                             [&](const games::State&, games::Move m, const store::StoredMove& sm) {
                                 const auto cell = board.cell_of(m);
                                 out += std::to_string(cell.col + 1) + "," +
                                        std::to_string(cell.row + 1) + "," +
                                        std::to_string((sm.time_us + 500) / 1000) + "\n";
                             }));
    const auto& s = game.summary;
    out += one_line(s.first) + "\n" + one_line(s.second) + "\n";
    // Piskvork's ending codes: 0 a finish by the rules, 15 a timeout.
    out += s.termination == "normal" ? "0\n" : s.termination == "timeout" ? "15\n" : "-1\n";
    return out;
}

std::string psq_file_name(const std::string& tournament, const store::GameSummary& game) {
    std::string name;
    for (const char c : tournament) {
        const bool keep = is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          c == '.' || c == '_' || c == '-';
        name += keep ? c : '_';
    }
    if (name.empty() || name.front() == '.') name.insert(0, "_");
    return name + "-" + std::to_string(game_number(game)) + ".psq";
}

// --- ggf ---------------------------------------------------------------------

std::string ggf_game(const std::string& tournament, const store::StoredGame& game) {
    if (game.game != "reversi") {
        throw ExportError(label(tournament, game.summary) + " is " + game.game + ", not reversi");
    }
    const auto rules = game_of(tournament, game);
    const auto& s = game.summary;
    std::string moves;
    const auto final_state =
        replay(tournament, game, *rules,
               [&moves](const games::State&, games::Move m, const store::StoredMove& sm) {
                   moves += sm.side == 1 ? "B[" : "W[";
                   moves += m == games::kPass ? std::string("PA") : sm.move;
                   // Think time in seconds; the arena's own moves took none.
                   if (!sm.by_arena) moves += "//" + milliseconds_text(sm.time_us / 1000);
                   moves += "]";
               });

    // The result from Black's (the first mover's) point of view: the disc
    // difference after a game played out; a forfeit counts as 64 discs,
    // flagged t (timeout) or r (any other fault, as if resigned).
    std::string result;
    if (s.termination == "normal") {
        const int diff = final_state->piece_count(1) - final_state->piece_count(2);
        result = (diff < 0 ? "-" : "+") + std::to_string(std::abs(diff)) + ".000";
    } else {
        const char* sign = s.result == "0-1" ? "-" : "+";
        const char* discs = s.result == "1-0" || s.result == "0-1" ? "64" : "0";
        result = std::string(sign) + discs + ".000" + (s.termination == "timeout" ? ":t" : ":r");
    }

    // The start position, row by row from the top (GGF's a1 is the top left).
    const auto shape = rules->board();
    const auto start = rules->new_initial_state();
    std::string board;
    for (int row = shape.height - 1; row >= 0; --row) {
        for (int col = 0; col < shape.width; ++col) {
            const int piece = start->piece_at({col, row});
            board += piece == 1 ? '*' : piece == 2 ? 'O' : '-';
        }
    }

    const auto when = parse_timestamp(s.started_at);
    std::string out = "(;GM[Othello]PC[arena]";
    if (when) {
        out +=
            "DT[" + when->year + "." + when->month + "." + when->day + "_" + when->time + ".UTC]";
    }
    out += "PB[" + one_line(s.first, "[]\\") + "]PW[" + one_line(s.second, "[]\\") + "]";
    const auto size = std::to_string(shape.width);
    out += "RE[" + result + "]TY[" + size + "]BO[" + size + " " + board + " *]" + moves + ";)\n";
    return out;
}

// --- dispatch ----------------------------------------------------------------

std::string format_game(ExportFormat format, const std::string& tournament,
                        const store::StoredGame& game) {
    switch (format) {
        case ExportFormat::kPgn:
            return pgn_game(tournament, game);
        case ExportFormat::kCsv:
            return games_csv_row(tournament, game);
        case ExportFormat::kMovesCsv:
            return moves_csv_rows(tournament, game);
        case ExportFormat::kConnect4:
            return connect4_line(tournament, game);
        case ExportFormat::kPsq:
            return psq_game(tournament, game);
        case ExportFormat::kGgf:
            return ggf_game(tournament, game);
    }
    return {};
}

std::string format_header(ExportFormat format) {
    switch (format) {
        case ExportFormat::kCsv:
            return games_csv_header();
        case ExportFormat::kMovesCsv:
            return moves_csv_header();
        default:
            return {};
    }
}

}  // namespace arena::exporting
