// `arena export`, end to end: real tournaments of Connect-4, Gomoku and
// Reversi are played into one database, exported in every format, and each
// export is read back by an independent reader here and checked against the
// database (queried with sqlite3 directly) and against the games' rules.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/export/formats.hpp"
#include "arena/games/registry.hpp"
#include "arena/games/reversi.hpp"
#include "arena/store/results_store.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"

namespace arena::exporting {
namespace {

using arena::testing::lines_of;
using arena::testing::slurp;

namespace fs = std::filesystem;
using testing::ArenaResult;
using testing::bin;

constexpr int kFailure = 1;
constexpr int kUsage = 2;

using testing::query;
using testing::Rows;

games::Params params_of(const std::string& text) {
    games::Params params;
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        const auto eq = word.find('=');
        params.emplace_back(word.substr(0, eq), word.substr(eq + 1));
    }
    return params;
}

std::string outcome_text(games::Outcome o) {
    switch (o) {
        case games::Outcome::kWin1:
            return "1-0";
        case games::Outcome::kWin2:
            return "0-1";
        case games::Outcome::kDraw:
            return "1/2-1/2";
        default:
            return "*";
    }
}

// ---- a PGN reader -------------------------------------------------------------
// Strict: the Seven Tag Roster first and in order, `[Name "value"]` tags with
// \\ and \" escapes, a blank line, movetext of move numbers (n. and n...),
// symbols of letters and digits, {comments} and exactly one result token at
// the end, equal to the Result tag; lines of at most 80 characters. Anything
// else throws.

struct PgnMove {
    std::string text;
    std::string comment;  // the comment right after it, if any
};

struct PgnGame {
    std::map<std::string, std::string> tags;
    std::vector<PgnMove> moves;
    std::string result;
};

[[noreturn]] void malformed(std::size_t line, const std::string& what) {
    throw std::runtime_error("PGN line " + std::to_string(line + 1) + ": " + what);
}

bool all_digits(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

bool symbol(const std::string& s) {
    if (s.empty()) return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    return true;
}

std::vector<PgnGame> parse_pgn(const std::string& text) {
    static const std::vector<std::string> kRoster{"Event", "Site",  "Date",  "Round",
                                                  "White", "Black", "Result"};
    const auto lines = lines_of(text);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].size() > 80) malformed(i, "longer than 80 characters");
    std::vector<PgnGame> games;
    std::size_t i = 0;
    while (true) {
        while (i < lines.size() && lines[i].empty())
            ++i;
        if (i == lines.size()) break;
        PgnGame g;
        std::vector<std::string> order;
        for (; i < lines.size() && !lines[i].empty(); ++i) {
            const auto& l = lines[i];
            if (l.front() != '[' || l.back() != ']') malformed(i, "not a tag: " + l);
            const auto space = l.find(' ');
            if (space == std::string::npos || space < 2) malformed(i, "no tag name");
            const auto name = l.substr(1, space - 1);
            for (const char c : name)
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
                    malformed(i, "bad tag name " + name);
            if (l.size() < space + 4 || l[space + 1] != '"' || l[l.size() - 2] != '"')
                malformed(i, "tag value not quoted");
            std::string value;
            for (std::size_t k = space + 2; k < l.size() - 2; ++k) {
                if (l[k] == '"') malformed(i, "unescaped quote");
                if (l[k] == '\\') {
                    if (++k == l.size() - 2 || (l[k] != '\\' && l[k] != '"'))
                        malformed(i, "bad escape");
                }
                value += l[k];
            }
            if (!g.tags.emplace(name, value).second) malformed(i, "tag twice: " + name);
            order.push_back(name);
        }
        if (order.size() < kRoster.size() ||
            !std::equal(kRoster.begin(), kRoster.end(), order.begin()))
            malformed(i, "the Seven Tag Roster is not first");
        if (i == lines.size()) malformed(i, "no movetext");
        ++i;  // the blank line
        std::string movetext;
        for (; i < lines.size() && !lines[i].empty(); ++i)
            movetext += lines[i] + "\n";
        if (movetext.empty()) malformed(i, "no movetext");

        std::vector<std::string> tokens;
        for (std::size_t k = 0; k < movetext.size();) {
            const char c = movetext[k];
            if (c == ' ' || c == '\n') {
                ++k;
            } else if (c == '{') {
                const auto end = movetext.find('}', k);
                if (end == std::string::npos) malformed(i, "unterminated comment");
                tokens.push_back(movetext.substr(k, end - k + 1));
                k = end + 1;
            } else {
                const auto end = movetext.find_first_of(" \n{", k);
                tokens.push_back(movetext.substr(k, end - k));
                k = end;
            }
        }
        bool after_comment = false;
        std::string pending_number;
        for (std::size_t t = 0; t < tokens.size(); ++t) {
            const auto& tok = tokens[t];
            const std::size_t ply = g.moves.size();
            const auto number = std::to_string(ply / 2 + 1);
            if (tok.front() == '{') {
                if (g.moves.empty() || !g.moves.back().comment.empty())
                    malformed(i, "comment out of place");
                g.moves.back().comment = tok.substr(1, tok.size() - 2);
                after_comment = true;
                continue;
            }
            if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") {
                if (t + 1 != tokens.size()) malformed(i, "result token before the end");
                if (!pending_number.empty()) malformed(i, "move number without a move");
                g.result = tok;
                break;
            }
            const auto dot = tok.find('.');
            if (dot != std::string::npos) {
                const auto digits = tok.substr(0, dot), dots = tok.substr(dot);
                if (!all_digits(digits) || (dots != "." && dots != "..."))
                    malformed(i, "bad move number " + tok);
                if (!pending_number.empty()) malformed(i, "two move numbers");
                if (digits != number || (dots == ".") != (ply % 2 == 0))
                    malformed(i, "move number " + tok + " at ply " + std::to_string(ply + 1));
                pending_number = tok;
                continue;
            }
            if (!symbol(tok)) malformed(i, "not a move: " + tok);
            if (ply % 2 == 0 && pending_number.empty())
                malformed(i, "first mover's move without a number");
            if (ply % 2 == 1 && after_comment && pending_number.empty())
                malformed(i, "move after a comment without n...");
            g.moves.push_back({tok, ""});
            pending_number.clear();
            after_comment = false;
        }
        if (g.result.empty()) malformed(i, "no result token");
        if (g.result != g.tags["Result"]) malformed(i, "result token differs from the tag");
        games.push_back(std::move(g));
    }
    return games;
}

// ---- an RFC 4180 reader -------------------------------------------------------

Rows parse_csv(const std::string& text) {
    Rows rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, was_quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            if (!field.empty() || was_quoted) throw std::runtime_error("quote inside a field");
            quoted = was_quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            was_quoted = false;
        } else if (c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            was_quoted = false;
            rows.push_back(std::move(row));
            row.clear();
        } else {
            if (was_quoted) throw std::runtime_error("text after a closing quote");
            field += c;
        }
    }
    if (quoted || !field.empty() || !row.empty()) throw std::runtime_error("unterminated row");
    return rows;
}

std::string ms_of(const std::string& us) {
    return milliseconds_text(std::stoll(us));
}

// ---- the fixture: three tournaments in one database, played once ------------------

const std::vector<std::string> kTournaments{"t-connect4", "t-gomoku", "t-reversi"};

class ExportTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ =
            new fs::path(fs::temp_directory_path() / ("arena-export-" + std::to_string(getpid())));
        fs::remove_all(*dir_);
        fs::create_directories(*dir_);
        db_ = new fs::path(*dir_ / "all.db");
        // A third bot that misbehaves puts faults among the endings.
        const std::vector<std::pair<std::string, std::string>> setups{
            {"connect4", "--mode illegal --at-ply 9"},
            {"gomoku, size: 9", "--mode crash --at-ply 12"},
            {"reversi", "--mode illegal --at-ply 20"}};
        for (std::size_t t = 0; t < setups.size(); ++t) {
            const auto config = *dir_ / (kTournaments[t] + ".yaml");
            std::ofstream(config) << "name: " << kTournaments[t] << "\n"
                                  << "game: { name: " << setups[t].first << " }\n"
                                  << "time: { move_ms: 5000 }\n"
                                  << "schedule: { type: round-robin, games_per_pair: 4 }\n"
                                  << "openings: { random_plies: 2 }\n"
                                  << "concurrency: 2\nseed: " << 11 + t << "\n"
                                  << "database: " << db_->string() << "\n"
                                  << "bots:\n"
                                  << "  - { name: alpha, command: " << bin("bots/random")
                                  << " --seed 1 }\n"
                                  << "  - { name: beta, command: " << bin("bots/random")
                                  << " --seed 2 }\n"
                                  << "  - { name: gamma, command: " << bin("bots/misbehave")
                                  << " --seed 3 " << setups[t].second << " }\n";
            const auto r = testing::run_arena(*dir_, {"run", config.string()});
            ASSERT_EQ(r.status, 0) << r.err;
        }
    }
    static void TearDownTestSuite() {
        fs::remove_all(*dir_);
        delete db_;
        delete dir_;
    }

    static ArenaResult arena(std::vector<std::string> args) {
        return testing::run_arena(*dir_, args);
    }
    // `arena export all.db args...`, which must succeed.
    static std::string exported(const std::vector<std::string>& args) {
        std::vector<std::string> all{"export", db_->string()};
        all.insert(all.end(), args.begin(), args.end());
        const auto r = arena(all);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.err, "");
        return r.out;
    }
    static Rows games_of(const std::string& tournament) {
        return query(*db_,
                     "SELECT g.game_index + 1, f.name, s.name, g.result, g.termination, g.game, "
                     "g.params, g.opening_plies, g.id, g.plies FROM games g "
                     "JOIN tournaments t ON t.id = g.tournament "
                     "JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
                     "WHERE t.name = '" +
                         tournament + "' ORDER BY g.game_index");
    }
    static std::vector<std::string> moves_of(const std::string& game_id) {
        std::vector<std::string> moves;
        for (const auto& r :
             query(*db_, "SELECT move FROM moves WHERE game = " + game_id + " ORDER BY ply"))
            moves.push_back(r[0]);
        return moves;
    }

    static fs::path* dir_;
    static fs::path* db_;
};

fs::path* ExportTest::dir_ = nullptr;
fs::path* ExportTest::db_ = nullptr;

// W/D/L per bot, as the database has them.
std::map<std::string, std::array<int, 3>> wdl_from_db(const fs::path& db,
                                                      const std::string& tournament) {
    std::map<std::string, std::array<int, 3>> wdl;
    for (const auto& r : query(db,
                               "SELECT b.name, "
                               "  SUM((g.first_bot = b.id AND g.result = '1-0') OR "
                               "      (g.second_bot = b.id AND g.result = '0-1')), "
                               "  SUM(g.result = '1/2-1/2'), "
                               "  SUM((g.first_bot = b.id AND g.result = '0-1') OR "
                               "      (g.second_bot = b.id AND g.result = '1-0')) "
                               "FROM bots b JOIN tournaments t ON t.id = b.tournament "
                               "JOIN games g ON g.first_bot = b.id OR g.second_bot = b.id "
                               "WHERE t.name = '" +
                                   tournament + "' GROUP BY b.id")) {
        wdl[r[0]] = {std::stoi(r[1]), std::stoi(r[2]), std::stoi(r[3])};
    }
    return wdl;
}

TEST_F(ExportTest, TournamentsHaveFaultsAndNormalEndings) {
    // The other tests are only as good as the variety of games they read.
    const auto endings = query(*db_, "SELECT DISTINCT termination FROM games");
    EXPECT_GE(endings.size(), 2u);
    for (const auto& t : kTournaments)
        EXPECT_EQ(games_of(t).size(), 12u) << t;
}

TEST_F(ExportTest, PgnParsesAndGivesTheDatabaseResults) {
    for (const auto& t : kTournaments) {
        SCOPED_TRACE(t);
        const auto text = exported({"--format", "pgn", "--tournament", t});
        const auto pgn = parse_pgn(text);
        const auto rows = games_of(t);
        ASSERT_EQ(pgn.size(), rows.size());
        std::map<std::string, std::array<int, 3>> wdl;
        for (std::size_t i = 0; i < pgn.size(); ++i) {
            const auto& g = pgn[i];
            const auto& row = rows[i];
            auto tags = g.tags;
            EXPECT_EQ(tags["Event"], t);
            EXPECT_EQ(tags["Site"], "arena");
            EXPECT_EQ(tags["Round"], row[0]);
            EXPECT_EQ(tags["White"], row[1]);
            EXPECT_EQ(tags["Black"], row[2]);
            EXPECT_EQ(tags["Result"], row[3]);
            EXPECT_EQ(tags["Termination"], row[4]);
            EXPECT_EQ(tags["Game"], row[6].empty() ? row[5] : row[5] + " " + row[6]);
            EXPECT_EQ(tags["PlyCount"], row[9]);
            EXPECT_EQ(tags["Date"].size(), 10u);
            EXPECT_EQ(tags.count("Opening"), 1u);
            // The same moves, the arena's opening plies marked.
            const auto moves = moves_of(row[8]);
            ASSERT_EQ(g.moves.size(), moves.size());
            int openings = 0;
            for (std::size_t k = 0; k < moves.size(); ++k) {
                EXPECT_EQ(g.moves[k].text, moves[k]);
                if (g.moves[k].comment == "opening") ++openings;
            }
            EXPECT_EQ(std::to_string(openings), row[7]);
            // They replay by the rules, to the result when the game ended by them.
            const auto game = games::make_game(row[5], params_of(row[6]));
            auto state = game->new_initial_state();
            for (const auto& m : g.moves) {
                const auto move = state->parse_move(m.text);
                ASSERT_TRUE(move && state->is_legal(*move)) << m.text;
                state->apply(*move);
            }
            if (tags["Termination"] == "normal") {
                EXPECT_EQ(outcome_text(state->outcome()), tags["Result"]);
            }
            const auto& r = tags["Result"];
            const int first = r == "1-0" ? 0 : r == "0-1" ? 2 : 1;
            ++wdl[tags["White"]][first];
            ++wdl[tags["Black"]][2 - first];
        }
        EXPECT_EQ(wdl, wdl_from_db(*db_, t));
    }
}

TEST_F(ExportTest, PgnOfEveryTournamentWhenNoneIsNamed) {
    const auto pgn = parse_pgn(exported({"--format", "pgn"}));
    EXPECT_EQ(pgn.size(), 36u);
    std::map<std::string, int> per_event;
    for (const auto& g : pgn)
        ++per_event[g.tags.at("Event")];
    EXPECT_EQ(per_event, (std::map<std::string, int>{
                             {"t-connect4", 12}, {"t-gomoku", 12}, {"t-reversi", 12}}));
}

TEST_F(ExportTest, PgnReaderRejectsMalformedInput) {
    const std::string tags =
        "[Event \"e\"]\n[Site \"arena\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n"
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n";
    EXPECT_EQ(parse_pgn(tags + "\n1. 4 {opening} 1... 4 2. 5 1-0\n").size(), 1u);
    for (const std::string& bad : {
             tags + "\n1. 4 4 2. 5\n",                     // no result
             tags + "\n1. 4 4 2. 5 0-1\n",                 // differs from the tag
             tags + "\n1. 4 {opening 4 1-0\n",             // unterminated comment
             tags + "\n2. 4 4 1-0\n",                      // wrong number
             tags + "\n4 4 1-0\n",                         // no number
             tags + "\n1. 4 (4) 1-0\n",                    // not a symbol
             tags + "\n1. 4 1-0 5\n",                      // text after the result
             tags + "\n1. 4 {c} 4 1-0\n",                  // n... missing after a comment
             tags + "1. 4 4 1-0\n",                        // no blank line
             "[Event e]\n" + tags.substr(12) + "\n1-0\n",  // unquoted
             "[Site \"arena\"]\n[Event \"e\"]\n" + tags.substr(28) + "\n1-0\n",  // order
             tags + "\n1. " + std::string(90, '4') + " 1-0\n",                   // too long
         }) {
        EXPECT_THROW(static_cast<void>(parse_pgn(bad)), std::runtime_error) << bad;
    }
}

TEST_F(ExportTest, CsvHasOneRowPerGameAsStored) {
    const auto rows = parse_csv(exported({"--format", "csv"}));
    const auto db = query(*db_,
                          "SELECT t.name, g.game_index + 1, g.id, g.round, g.pair_index, "
                          "g.game_in_pair, f.name, s.name, g.result, g.termination, g.detail, "
                          "g.plies, g.opening, g.started_at, g.duration_us, g.game, g.params, "
                          "g.first_control, g.second_control "
                          "FROM games g JOIN tournaments t ON t.id = g.tournament "
                          "JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
                          "ORDER BY t.id, g.game_index");
    ASSERT_EQ(rows.size(), db.size() + 1);
    EXPECT_EQ(rows[0],
              (std::vector<std::string>{"tournament", "number", "id", "round", "pair",
                                        "game_in_pair", "first", "second", "result", "termination",
                                        "detail", "plies", "opening", "started_at", "duration_ms",
                                        "game", "params", "first_control", "second_control"}));
    for (std::size_t i = 0; i < db.size(); ++i) {
        auto expected = db[i];
        expected[14] = ms_of(expected[14]);
        EXPECT_EQ(rows[i + 1], expected);
    }
}

TEST_F(ExportTest, MovesCsvHasEveryStoredMove) {
    const auto rows = parse_csv(exported({"--format", "moves-csv"}));
    const auto db = query(*db_,
                          "SELECT t.name, g.game_index + 1, g.id, m.ply, m.side, "
                          "CASE m.side WHEN 1 THEN f.name ELSE s.name END, m.move, m.time_us, "
                          "m.by_arena FROM moves m JOIN games g ON g.id = m.game "
                          "JOIN tournaments t ON t.id = g.tournament "
                          "JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = g.second_bot "
                          "ORDER BY t.id, g.game_index, m.ply");
    ASSERT_EQ(db.size(), std::stoul(query(*db_, "SELECT count(*) FROM moves")[0][0]));
    ASSERT_EQ(rows.size(), db.size() + 1);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"tournament", "number", "id", "ply", "side",
                                                 "player", "move", "time_ms", "by_arena"}));
    for (std::size_t i = 0; i < db.size(); ++i) {
        auto expected = db[i];
        expected[7] = ms_of(expected[7]);
        EXPECT_EQ(rows[i + 1], expected);
    }
}

TEST_F(ExportTest, Connect4StringsReplayToTheStoredResults) {
    const auto lines = lines_of(exported({"--format", "connect4", "-t", "t-connect4"}));
    const auto rows = games_of("t-connect4");
    ASSERT_EQ(lines.size(), rows.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto game = games::make_game("connect4", params_of(rows[i][6]));
        auto state = game->new_initial_state();
        std::string stored;
        for (const auto& m : moves_of(rows[i][8]))
            stored += m;
        EXPECT_EQ(lines[i], stored);
        for (const char c : lines[i]) {
            ASSERT_TRUE(c >= '1' && c <= '9') << lines[i];
            ASSERT_TRUE(state->is_legal(c - '1')) << lines[i];
            state->apply(c - '1');
        }
        if (rows[i][4] == "normal") {
            EXPECT_EQ(outcome_text(state->outcome()), rows[i][3]) << lines[i];
        } else {
            EXPECT_FALSE(state->is_over()) << lines[i];
        }
    }
}

// Splits psq records on blank lines and checks each against the stored game.
void check_psq(const std::vector<std::string>& records, const Rows& rows,
               const std::function<std::vector<std::string>(const std::string&)>& moves_of) {
    ASSERT_EQ(records.size(), rows.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
        SCOPED_TRACE(records[i]);
        const auto lines = lines_of(records[i]);
        ASSERT_GE(lines.size(), 4u);
        EXPECT_EQ(lines[0], "Piskvorky 9x9, 11:11, 0");
        const auto game = games::make_game("gomoku", params_of(rows[i][6]));
        auto state = game->new_initial_state();
        const auto stored = moves_of(rows[i][8]);
        ASSERT_EQ(lines.size(), stored.size() + 4);
        for (std::size_t k = 0; k < stored.size(); ++k) {
            int x = 0, y = 0, ms = -1;
            char c1 = 0, c2 = 0;
            std::istringstream in(lines[k + 1]);
            ASSERT_TRUE(in >> x >> c1 >> y >> c2 >> ms && c1 == ',' && c2 == ',' && ms >= 0);
            ASSERT_TRUE(x >= 1 && x <= 9 && y >= 1 && y <= 9);
            // Gomocup (x, y) = (column, row number - 1); psq adds one to each.
            const games::Move m = (y - 1) * 9 + (x - 1);
            EXPECT_EQ(state->format_move(m), stored[k]);
            ASSERT_TRUE(state->is_legal(m));
            state->apply(m);
        }
        EXPECT_EQ(lines[stored.size() + 1], rows[i][1]);
        EXPECT_EQ(lines[stored.size() + 2], rows[i][2]);
        if (rows[i][4] == "normal") {
            EXPECT_EQ(outcome_text(state->outcome()), rows[i][3]);
            EXPECT_EQ(lines.back(), "0");
        }
    }
}

TEST_F(ExportTest, PsqCoordinatesReplayToTheSameGames) {
    const auto text = exported({"--format", "psq", "-t", "t-gomoku"});
    std::vector<std::string> records{""};
    for (const auto& line : lines_of(text)) {
        if (line.empty()) {
            records.emplace_back();
        } else {
            records.back() += line + "\n";
        }
    }
    const auto rows = games_of("t-gomoku");
    check_psq(records, rows, moves_of);

    // With -o, one file per game, named after the tournament and the game.
    const auto dir = *dir_ / "psq" / "nested";
    exported({"--format", "psq", "-t", "t-gomoku", "-o", dir.string()});
    std::vector<std::string> files;
    for (const auto& row : rows) {
        const auto path = dir / ("t-gomoku-" + row[0] + ".psq");
        ASSERT_TRUE(fs::exists(path)) << path;
        files.push_back(slurp(path));
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()),
              static_cast<long>(rows.size()));
    EXPECT_EQ(files, records);
}

TEST_F(ExportTest, GgfReplaysThroughTheReversiRules) {
    const auto lines = lines_of(exported({"--format", "ggf", "-t", "t-reversi"}));
    const auto rows = games_of("t-reversi");
    ASSERT_EQ(lines.size(), rows.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& line = lines[i];
        SCOPED_TRACE(line);
        ASSERT_EQ(line.substr(0, 2), "(;");
        ASSERT_EQ(line.substr(line.size() - 2), ";)");
        // Properties: NAME[value] one after another.
        std::vector<std::pair<std::string, std::string>> props;
        for (std::size_t k = 2; k < line.size() - 2;) {
            const auto open = line.find('[', k), close = line.find(']', k);
            ASSERT_TRUE(open != std::string::npos && close != std::string::npos && open < close);
            props.emplace_back(line.substr(k, open - k), line.substr(open + 1, close - open - 1));
            k = close + 1;
        }
        std::map<std::string, std::string> header;
        games::ReversiState state;
        const auto stored = moves_of(rows[i][8]);
        std::size_t played = 0;
        for (const auto& [name, value] : props) {
            if (name != "B" && name != "W") {
                header[name] = value;
                continue;
            }
            EXPECT_EQ(name == "B" ? 1 : 2, state.current_player());
            const auto move = value.substr(0, value.find('/'));
            const auto m =
                move == "PA" ? std::optional<games::Move>(games::kPass) : state.parse_move(move);
            ASSERT_TRUE(m && state.is_legal(*m)) << move;
            ASSERT_LT(played, stored.size());
            EXPECT_EQ(state.format_move(*m), stored[played++]);
            state.apply(*m);
        }
        EXPECT_EQ(played, stored.size());
        EXPECT_EQ(header["GM"], "Othello");
        EXPECT_EQ(header["TY"], "8");
        EXPECT_EQ(header["PC"], "arena");
        EXPECT_EQ(header["PB"], rows[i][1]);  // the first mover plays Black
        EXPECT_EQ(header["PW"], rows[i][2]);
        EXPECT_EQ(header["DT"].size(), std::string("2024.05.01_12:34:56.UTC").size());
        // Row 1 first, a1..h1: white d4 e5, black d5 e4, black to move.
        EXPECT_EQ(header["BO"],
                  "8 ---------------------------O*------*O--------------------------- *");
        const auto& re = header["RE"];
        if (rows[i][4] == "normal") {
            ASSERT_TRUE(state.is_over());
            EXPECT_EQ(outcome_text(state.outcome()), rows[i][3]);
            const int diff = state.disc_count(1) - state.disc_count(2);
            EXPECT_EQ(re, (diff < 0 ? "-" : "+") + std::to_string(std::abs(diff)) + ".000");
        } else {
            EXPECT_EQ(re.back() == 't' || re.back() == 'r', true) << re;
            EXPECT_EQ(re.front() == '-', rows[i][3] == "0-1") << re;
        }
    }
}

TEST_F(ExportTest, OutputFileHoldsWhatStdoutGets) {
    const auto path = *dir_ / "games.pgn";
    const auto text = exported({"--format", "pgn"});
    exported({"--format", "pgn", "-o", path.string()});
    EXPECT_EQ(slurp(path), text);
}

// One line on stderr, after checking the exit code and that nothing crashed.
std::string one_line(const ArenaResult& r, int status) {
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(testing::looks_like_a_crash(r.err)) << r.err;
    const auto lines = r.err_lines();
    EXPECT_GE(lines.size(), 1u) << r.err;
    return lines.empty() ? "" : lines.front();
}

TEST_F(ExportTest, Errors) {
    const auto db = db_->string();
    EXPECT_EQ(one_line(arena({"export", db, "--format", "sgf"}), kUsage),
              "arena export: unknown format 'sgf' (formats: pgn, csv, moves-csv, connect4, psq, "
              "ggf)");
    EXPECT_EQ(one_line(arena({"export", db}), kUsage),
              "arena export: the option '--format' is required but missing");
    EXPECT_EQ(one_line(arena({"export", db, "-f", "psq", "-t", "t-connect4"}), kUsage),
              "arena export: tournament 't-connect4' in " + db +
                  " is connect4; --format psq holds only gomoku");
    EXPECT_EQ(one_line(arena({"export", db, "-f", "ggf"}), kUsage),
              "arena export: tournament 't-connect4' in " + db +
                  " is connect4; --format ggf holds only reversi (choose a tournament with "
                  "--tournament)");
    EXPECT_EQ(one_line(arena({"export", db, "-f", "pgn", "-t", "nope"}), kUsage),
              "arena export: no tournament 'nope' in " + db +
                  "; it holds: t-connect4, t-gomoku, t-reversi");
    const auto missing = (*dir_ / "missing.db").string();
    EXPECT_EQ(one_line(arena({"export", missing, "-f", "pgn"}), kUsage),
              "arena export: " + missing + ": no such file");
    EXPECT_FALSE(fs::exists(missing));
    const auto garbage = *dir_ / "garbage.db";
    std::ofstream(garbage) << std::string(4096, 'x');
    const auto line = one_line(arena({"export", garbage.string(), "-f", "csv"}), kFailure);
    EXPECT_NE(line.find(garbage.string()), std::string::npos) << line;
    EXPECT_NE(line.find("not a database"), std::string::npos) << line;
    const auto r = arena({"export", db, "-f", "csv", "-o", (*dir_ / "no/such/dir/x.csv").string()});
    EXPECT_NE(one_line(r, kFailure).find("cannot write"), std::string::npos) << r.err;
}

// Boards Connect-4 move strings cannot hold: a game stored through the store.
TEST_F(ExportTest, Connect4RefusesWideBoardsAndBlockedCells) {
    const auto path = *dir_ / "boards.db";
    {
        store::ResultsStore store(path);
        const auto add = [&store](const std::string& name, games::Params params,
                                  const std::vector<std::string>& moves) {
            const auto id = store.create_tournament(
                {name, "connect4", "", "", 1, 1},
                {{"a", "a", "arena1", ""}, {"b, \"the second\"", "b", "arena1", ""}});
            record::GameRecord g;
            g.game = "connect4";
            g.params = std::move(params);
            g.players[0] = "a";
            g.players[1] = "b, \"the second\"";
            for (const auto& m : moves)
                g.moves.push_back({m, static_cast<int>(g.moves.size() % 2 + 1), {}, false, {}});
            g.outcome = games::Outcome::kWin2;
            g.termination = record::Termination::kTimeout;
            g.started_at = std::chrono::system_clock::now();
            static_cast<void>(store.record_game(id, {0, 0, 0, 0, ""}, g));
        };
        add("wide", {{"rows", "9"}, {"cols", "10"}, {"connect", "4"}}, {"10", "1"});
        add("blocked", {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}, {"blocked", "3:1"}},
            {"3", "3"});
    }
    const auto db = path.string();
    EXPECT_EQ(one_line(arena({"export", db, "-f", "connect4", "-t", "wide"}), kUsage),
              "arena export: " + db +
                  ": game 1 (id 1) of tournament 'wide' has 10 columns; connect4 move strings "
                  "hold at most 9 (one digit a move)");
    EXPECT_EQ(one_line(arena({"export", db, "-f", "connect4", "-t", "blocked"}), kUsage),
              "arena export: " + db +
                  ": game 1 (id 2) of tournament 'blocked' has blocked cells, which connect4 "
                  "move strings cannot show");
    EXPECT_EQ(one_line(arena({"export", db, "-f", "connect4"}), kUsage),
              "arena export: " + db +
                  ": game 1 (id 1) of tournament 'wide' has 10 columns; connect4 move strings "
                  "hold at most 9 (one digit a move)");
    // PGN and CSV hold them, and a name with a comma and quotes.
    auto r = arena({"export", db, "-f", "pgn"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto pgn = parse_pgn(r.out);
    ASSERT_EQ(pgn.size(), 2u);
    EXPECT_EQ(pgn[0].tags.at("Termination"), "timeout");
    EXPECT_EQ(pgn[0].tags.at("Black"), "b, \"the second\"");
    EXPECT_EQ(pgn[0].tags.at("Result"), "0-1");
    EXPECT_EQ(pgn[0].moves.size(), 2u);
    r = arena({"export", db, "-f", "csv"});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto csv = parse_csv(r.out);
    ASSERT_EQ(csv.size(), 3u);
    EXPECT_EQ(csv[1][7], "b, \"the second\"");
    EXPECT_EQ(csv[2][12], "");
}

// ---- the formatters on their own ----------------------------------------------

TEST(ExportFormats, Quoting) {
    EXPECT_EQ(csv_field("plain"), "plain");
    EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
    EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(parse_csv(csv_field("x,\"y\"\nz") + "," + csv_field("") + "\n"),
              (Rows{{"x,\"y\"\nz", ""}}));
    EXPECT_EQ(pgn_tag_value("a \"b\" \\ c\nd"), "a \\\"b\\\" \\\\ c d");
    EXPECT_EQ(milliseconds_text(0), "0.000");
    EXPECT_EQ(milliseconds_text(1234567), "1234.567");
    EXPECT_EQ(milliseconds_text(5), "0.005");
    EXPECT_EQ(parse_export_format("moves-csv"), ExportFormat::kMovesCsv);
    EXPECT_EQ(parse_export_format("PGN"), std::nullopt);
    store::GameSummary s;
    s.slot.index = 6;
    EXPECT_EQ(psq_file_name("spring cup/2", s), "spring_cup_2-7.psq");
    EXPECT_EQ(psq_file_name("..", s), "_..-7.psq");
}

TEST(ExportFormats, PgnWrapsLongGames) {
    store::StoredGame g;
    g.game = "gomoku";
    g.params = "size=15 rule=freestyle";
    g.summary.first = "a";
    g.summary.second = "b";
    g.summary.result = "1/2-1/2";
    g.summary.started_at = "not a time";
    for (int i = 0; i < 225; ++i) {
        g.moves.push_back(
            {i + 1,
             i % 2 + 1,
             std::string(1, static_cast<char>('a' + i % 15)) + std::to_string(i / 15 + 1),
             0,
             i < 3,
             {}});
    }
    g.summary.slot.opening = "a1 b1 c1";
    const auto text = pgn_game("t", g);
    const auto games = parse_pgn(text);
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].moves.size(), 225u);
    EXPECT_EQ(games[0].tags.at("Date"), "????.??.??");
    EXPECT_EQ(games[0].moves[2].comment, "opening");
    for (const auto& line : lines_of(text))
        EXPECT_LE(line.size(), 79u) << line;
    g.summary.result = "";
    EXPECT_EQ(parse_pgn(pgn_game("t", g))[0].result, "*");
}

}  // namespace
}  // namespace arena::exporting
