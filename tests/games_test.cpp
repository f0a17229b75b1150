// Rules of connect4, gomoku and reversi: perft counts, seeded random games
// checked against independent reference rules, hand-made positions for every
// way a game ends, and parameter validation.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "arena/games/connect4.hpp"
#include "arena/games/game.hpp"
#include "arena/games/gomoku.hpp"
#include "arena/games/registry.hpp"
#include "arena/games/reversi.hpp"

namespace arena::games {
namespace {

// ---------------------------------------------------------------------------
// Helpers

// Leaves at exactly `depth` plies, through the generic interface. A terminal
// position before `depth` has no moves and so contributes no leaf.
std::uint64_t perft(const State& state, int depth) {
    if (depth == 0) return 1;
    std::uint64_t leaves = 0;
    for (const Move m : state.legal_moves()) {
        const auto child = state.clone();
        child->apply(m);
        leaves += perft(*child, depth - 1);
    }
    return leaves;
}

// The same count on concrete Reversi values (no heap per node).
std::uint64_t reversi_perft(const ReversiState& state, int depth) {
    if (depth == 0) return 1;
    std::uint64_t leaves = 0;
    for (const Move m : state.legal_moves()) {
        ReversiState child = state;
        child.apply(m);
        leaves += reversi_perft(child, depth - 1);
    }
    return leaves;
}

std::unique_ptr<Game> game_of(std::string_view name, const Params& params = {}) {
    return make_game(name, params);
}

// Applies `moves` (notation). Every position before the last move must be
// ongoing.
std::unique_ptr<State> play(const Game& game, const std::vector<std::string>& moves) {
    auto state = game.new_initial_state();
    for (const auto& text : moves) {
        EXPECT_FALSE(state->is_over()) << "game over before " << text << "\n" << state->render();
        const auto move = state->parse_move(text);
        EXPECT_TRUE(move.has_value()) << text;
        if (!move) break;
        state->apply(*move);
    }
    return state;
}

// Expects `make_game(name, params)` to throw GameError whose message contains
// `needle`.
void expect_param_error(std::string_view name, const Params& params, const std::string& needle) {
    try {
        static_cast<void>(make_game(name, params));
        ADD_FAILURE() << "no error for " << name << "; expected: " << needle;
    } catch (const GameError& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
            << "message: " << e.what() << "\nexpected to contain: " << needle;
    }
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const GameError& e) {
        return e.what();
    }
    return "(no error)";
}

// ---------------------------------------------------------------------------
// Independent reference rules, written the slow and obvious way.

// Longest runs of one player's pieces along each line, read from a grid
// accessor get(col, row) on a cols x rows board. Returns, per player, the set
// of maximal run lengths present.
template <typename Get>
std::array<std::set<int>, 3> maximal_runs(int cols, int rows, Get get) {
    std::array<std::set<int>, 3> runs;
    const std::array<std::pair<int, int>, 4> directions{{{1, 0}, {0, 1}, {1, 1}, {1, -1}}};
    for (const auto& [dc, dr] : directions) {
        for (int col = 0; col < cols; ++col) {
            for (int row = 0; row < rows; ++row) {
                const int who = get(col, row);
                if (who != 1 && who != 2) continue;
                // Only start counting at the first piece of a run.
                const int pc = col - dc;
                const int pr = row - dr;
                if (pc >= 0 && pc < cols && pr >= 0 && pr < rows && get(pc, pr) == who) continue;
                int length = 0;
                for (int c = col, r = row;
                     c >= 0 && c < cols && r >= 0 && r < rows && get(c, r) == who;
                     c += dc, r += dr) {
                    ++length;
                }
                runs[who].insert(length);
            }
        }
    }
    return runs;
}

// Reversi on a plain array: cell = row * 8 + col, row 0 at the top.
using Board = std::array<int, 64>;

Board board_of(const ReversiState& s) {
    Board board{};
    for (int i = 0; i < 64; ++i) {
        board[i] = (s.discs(1) >> i & 1) != 0 ? 1 : (s.discs(2) >> i & 1) != 0 ? 2 : 0;
    }
    return board;
}

std::vector<int> naive_flips(const Board& board, int player, int cell) {
    std::vector<int> flips;
    if (board[cell] != 0) return flips;
    for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
            if (dr == 0 && dc == 0) continue;
            std::vector<int> line;
            int r = cell / 8 + dr;
            int c = cell % 8 + dc;
            while (r >= 0 && r < 8 && c >= 0 && c < 8 && board[r * 8 + c] == 3 - player) {
                line.push_back(r * 8 + c);
                r += dr;
                c += dc;
            }
            if (!line.empty() && r >= 0 && r < 8 && c >= 0 && c < 8 && board[r * 8 + c] == player) {
                flips.insert(flips.end(), line.begin(), line.end());
            }
        }
    }
    return flips;
}

std::vector<Move> naive_moves(const Board& board, int player) {
    std::vector<Move> moves;
    for (int cell = 0; cell < 64; ++cell) {
        if (!naive_flips(board, player, cell).empty()) moves.push_back(cell);
    }
    return moves;
}

// Bitboard from eight rows of text, top row first: 'X' black, 'O' white.
std::pair<std::uint64_t, std::uint64_t> bits_of(const std::vector<std::string>& rows) {
    std::uint64_t black = 0;
    std::uint64_t white = 0;
    for (int row = 0; row < static_cast<int>(rows.size()); ++row) {
        for (int col = 0; col < static_cast<int>(rows[row].size()); ++col) {
            const std::uint64_t bit = std::uint64_t{1} << (row * 8 + col);
            if (rows[row][col] == 'X') black |= bit;
            if (rows[row][col] == 'O') white |= bit;
        }
    }
    return {black, white};
}

// ---------------------------------------------------------------------------
// Generic random-game checker

struct RandomGameOptions {
    int games = 100;
    std::uint64_t seed = 1;
    int move_limit = 0;       // every Move in [-2, move_limit] is probed
    int max_plies = 0;        // a game must end within this many plies
    int apply_all_upto = 64;  // apply every legal move on a clone when there are this few
    std::vector<std::string> bad_texts;  // never parse
};

// Per-ply hook: (state before the move, move, state after). Per-game hook at
// the end: (final state).
using PlyCheck = std::function<void(const State&, Move, const State&)>;
using EndCheck = std::function<void(const State&)>;

// The sanitizer build plays the first third of the games: it looks for memory
// errors, which the same code paths show in fewer games, and takes 20 times
// as long a game. The release build plays them all.
void check_random_games(const Game& game, const RandomGameOptions& options,
                        const PlyCheck& ply_check, const EndCheck& end_check) {
    std::mt19937_64 rng(options.seed);
#ifdef ARENA_SANITIZE
    const int games = (options.games + 2) / 3;
#else
    const int games = options.games;
#endif
    for (int g = 0; g < games; ++g) {
        SCOPED_TRACE("game " + std::to_string(g));
        auto state = game.new_initial_state();
        EXPECT_EQ(state->ply(), 0);
        for (const auto& text : options.bad_texts) {
            ASSERT_FALSE(state->parse_move(text).has_value()) << "'" << text << "'";
        }
        while (!state->is_over()) {
            ASSERT_LT(state->ply(), options.max_plies) << state->render();
            const auto moves = state->legal_moves();
            ASSERT_FALSE(moves.empty());
            EXPECT_EQ(state->current_player(), 1 + state->ply() % 2);

            // Clone equality.
            const auto copy = state->clone();
            ASSERT_EQ(copy->render(), state->render());
            ASSERT_EQ(copy->legal_moves(), moves);
            ASSERT_EQ(copy->ply(), state->ply());
            ASSERT_EQ(copy->current_player(), state->current_player());
            ASSERT_EQ(copy->outcome(), state->outcome());

            // Notation round trip and legality of every legal move.
            const std::set<Move> legal(moves.begin(), moves.end());
            ASSERT_EQ(legal.size(), moves.size()) << "duplicate legal moves";
            for (const Move m : moves) {
                ASSERT_TRUE(state->is_legal(m));
                const std::string text = state->format_move(m);
                const auto parsed = state->parse_move(text);
                ASSERT_TRUE(parsed.has_value()) << text;
                ASSERT_EQ(*parsed, m) << text;
            }
            if (static_cast<int>(moves.size()) <= options.apply_all_upto) {
                for (const Move m : moves) {
                    const auto child = state->clone();
                    ASSERT_NO_THROW(child->apply(m));
                    ASSERT_EQ(child->ply(), state->ply() + 1);
                }
            }

            // Everything else is illegal and leaves the state untouched.
            for (Move m = -2; m <= options.move_limit; ++m) {
                if (legal.count(m) == 0) {
                    ASSERT_FALSE(state->is_legal(m)) << m;
                }
            }
            for (const Move m : {-2, kPass, options.move_limit}) {
                if (legal.count(m) != 0) continue;
                const std::string before = state->render();
                ASSERT_THROW(state->apply(m), GameError) << m;
                ASSERT_EQ(state->render(), before);
            }

            const Move m = moves[rng() % moves.size()];
            const auto before = state->clone();
            state->apply(m);
            ASSERT_EQ(state->ply(), before->ply() + 1);
            // The original copy did not change with the state.
            ASSERT_EQ(copy->render(), before->render());
            ply_check(*before, m, *state);
            if (::testing::Test::HasFailure()) return;
        }
        EXPECT_TRUE(state->legal_moves().empty());
        for (Move m = -2; m <= options.move_limit; ++m)
            ASSERT_FALSE(state->is_legal(m));
        EXPECT_THROW(state->apply(state->ply() % 2 == 0 ? 0 : kPass), GameError);
        end_check(*state);
        if (::testing::Test::HasFailure()) return;
    }
}

// ---------------------------------------------------------------------------
// Perft

TEST(Perft, ReversiStartThroughGenericInterface) {
    const auto game = game_of("reversi");
    const auto start = game->new_initial_state();
    const std::vector<std::uint64_t> expected{4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
    for (int depth = 1; depth <= static_cast<int>(expected.size()); ++depth) {
        EXPECT_EQ(perft(*start, depth), expected[depth - 1]) << "depth " << depth;
    }
}

TEST(Perft, ReversiOnConcreteValuesAgrees) {
    // The copyable ReversiState gives the same counts without clone().
    const ReversiState start;
    EXPECT_EQ(reversi_perft(start, 6), 8200u);
}

TEST(Perft, Connect4Standard) {
    const auto game = game_of("connect4");
    const auto start = game->new_initial_state();
    const std::vector<std::uint64_t> expected{7, 49, 343, 2401, 16807, 117649, 823536};
    for (int depth = 1; depth <= static_cast<int>(expected.size()); ++depth) {
        EXPECT_EQ(perft(*start, depth), expected[depth - 1]) << "depth " << depth;
    }
}

// ---------------------------------------------------------------------------
// Random games

TEST(RandomGames, Connect4) {
    std::vector<Params> param_sets{
        {},
        {{"rows", "4"}, {"cols", "4"}, {"connect", "3"}},
        {{"rows", "4"}, {"cols", "5"}, {"connect", "2"}},
        {{"rows", "4"}, {"cols", "16"}, {"connect", "16"}},
        {{"rows", "16"}, {"cols", "16"}, {"connect", "6"}, {"blocked", "1:1,16:16,8:8,8:9"}},
        {{"rows", "6"}, {"cols", "7"}, {"blocked", "4:1,4:2,1:6,7:3"}},
        {{"rows", "5"}, {"cols", "4"}, {"connect", "5"}, {"blocked", "2:5,3:1"}},
        {{"variant", "standard"}, {"connect", "5"}, {"rows", "8"}, {"cols", "9"}},
    };
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        param_sets.push_back(realize("connect4", {{"variant", "tsinghua"}}, seed));
    }
    std::uint64_t seed = 100;
    int draws = 0;
    int wins[3] = {0, 0, 0};
    for (const auto& params : param_sets) {
        const auto game = game_of("connect4", params);
        SCOPED_TRACE(game->new_initial_state()->render());
        const auto& config = dynamic_cast<const Connect4Game&>(*game).config();
        const int playable = config.rows * config.cols - static_cast<int>(config.blocked.size());
        RandomGameOptions options;
        options.games = 30;
        options.seed = ++seed;
        options.move_limit = config.cols + 1;
        options.max_plies = playable + 1;
        options.bad_texts = {"",    "0",  "01", "-1", std::to_string(config.cols + 1),
                             "a",   "1 ", " 1", "+1", "pass",
                             "1.0", "a1"};
        auto runs_of = [](const Connect4State& s) {
            return maximal_runs(s.cols(), s.rows(), [&](int c, int r) { return s.at(c, r); });
        };
        auto has_line = [&](const Connect4State& s, int player) {
            const auto runs = runs_of(s);
            return !runs[player].empty() && *runs[player].rbegin() >= s.connect();
        };
        const PlyCheck ply_check = [&](const State& before_state, Move m,
                                       const State& after_state) {
            const auto& before = dynamic_cast<const Connect4State&>(before_state);
            const auto& after = dynamic_cast<const Connect4State&>(after_state);
            const int player = before.current_player();
            // The piece lands on the lowest empty cell; nothing else changes.
            int landing = 0;
            while (before.at(m, landing) != Connect4State::kEmpty)
                ++landing;
            for (int c = 0; c < before.cols(); ++c) {
                for (int r = 0; r < before.rows(); ++r) {
                    const int want = c == m && r == landing ? player : before.at(c, r);
                    ASSERT_EQ(after.at(c, r), want) << c << "," << r;
                }
            }
            ASSERT_FALSE(has_line(before, 1));
            ASSERT_FALSE(has_line(before, 2));
            const bool line = has_line(after, player);
            ASSERT_FALSE(has_line(after, opponent_of(player)));
            if (line) {
                ASSERT_EQ(winner_of(after.outcome()), player);
            } else if (after.ply() == playable) {
                ASSERT_EQ(after.outcome(), Outcome::kDraw);
            } else {
                ASSERT_EQ(after.outcome(), Outcome::kOngoing);
            }
        };
        const EndCheck end_check = [&](const State& s) {
            if (s.outcome() == Outcome::kDraw) {
                ++draws;
                EXPECT_EQ(s.ply(), playable);
            } else {
                ++wins[winner_of(s.outcome())];
                EXPECT_EQ(winner_of(s.outcome()), s.ply() % 2 == 1 ? 1 : 2);
            }
        };
        check_random_games(*game, options, ply_check, end_check);
        if (HasFailure()) return;
    }
    // The parameter sets were chosen so that every result occurs.
    EXPECT_GT(draws, 0);
    EXPECT_GT(wins[1], 0);
    EXPECT_GT(wins[2], 0);
}

TEST(RandomGames, Gomoku) {
    const std::vector<std::pair<Params, int>> param_sets{
        {{}, 40},
        {{{"rule", "exact5"}}, 40},
        {{{"size", "5"}}, 60},
        {{{"size", "6"}, {"rule", "exact5"}}, 60},
        {{{"size", "7"}, {"rule", "exact5"}}, 60},
        {{{"size", "26"}, {"rule", "freestyle"}}, 10},
    };
    std::uint64_t seed = 200;
    int draws = 0;
    int wins[3] = {0, 0, 0};
    int overlines = 0;  // exact5 positions where an overline did not win
    for (const auto& [params, games] : param_sets) {
        const auto game = game_of("gomoku", params);
        const auto& config = dynamic_cast<const GomokuGame&>(*game).config();
        SCOPED_TRACE(std::to_string(config.size) + " " + std::string(to_string(config.rule)));
        const int cells = config.size * config.size;
        const bool exact5 = config.rule == GomokuRule::kExact5;
        RandomGameOptions options;
        options.games = games;
        options.seed = ++seed;
        options.move_limit = cells + 1;
        options.max_plies = cells + 1;
        options.apply_all_upto = 8;
        const char last = static_cast<char>('a' + config.size - 1);
        options.bad_texts = {"",
                             "a",
                             "1",
                             "a0",
                             "a01",
                             std::string(1, static_cast<char>(last + 1)) + "1",
                             "a" + std::to_string(config.size + 1),
                             "1a",
                             "a1 ",
                             "pass",
                             "a-1",
                             "aa1",
                             "@1"};
        // Does `player` have a winning line under this rule?
        auto wins_by_runs = [&](const GomokuState& s, int player) {
            const auto runs =
                maximal_runs(s.size(), s.size(), [&](int c, int r) { return s.at(c, r); });
            if (exact5) return runs[player].count(5) != 0;
            return !runs[player].empty() && *runs[player].rbegin() >= 5;
        };
        const PlyCheck ply_check = [&](const State& before_state, Move m,
                                       const State& after_state) {
            const auto& before = dynamic_cast<const GomokuState&>(before_state);
            const auto& after = dynamic_cast<const GomokuState&>(after_state);
            const int player = before.current_player();
            ASSERT_EQ(before.at(m % config.size, m / config.size), GomokuState::kEmpty);
            ASSERT_EQ(after.at(m % config.size, m / config.size), player);
            const bool line = wins_by_runs(after, player);
            if (exact5 && !line) {
                const auto runs = maximal_runs(after.size(), after.size(),
                                               [&](int c, int r) { return after.at(c, r); });
                if (!runs[player].empty() && *runs[player].rbegin() > 5) ++overlines;
            }
            if (line) {
                ASSERT_EQ(winner_of(after.outcome()), player) << after.render();
            } else if (after.ply() == cells) {
                ASSERT_EQ(after.outcome(), Outcome::kDraw);
            } else {
                ASSERT_EQ(after.outcome(), Outcome::kOngoing) << after.render();
            }
        };
        const EndCheck end_check = [&](const State& s) {
            if (s.outcome() == Outcome::kDraw) {
                ++draws;
                EXPECT_EQ(s.ply(), cells);
            } else {
                ++wins[winner_of(s.outcome())];
                EXPECT_EQ(winner_of(s.outcome()), s.ply() % 2 == 1 ? 1 : 2);
            }
        };
        check_random_games(*game, options, ply_check, end_check);
        if (HasFailure()) return;
    }
    EXPECT_GT(draws, 0);
    EXPECT_GT(wins[1], 0);
    EXPECT_GT(wins[2], 0);
    EXPECT_GT(overlines, 0) << "no exact5 game ever made a non-winning overline";
}

TEST(RandomGames, Reversi) {
    const auto game = game_of("reversi");
    RandomGameOptions options;
    options.games = 300;
    options.seed = 300;
    options.move_limit = 65;
    options.max_plies = 130;  // 60 placements and at most one pass between two of them
    options.bad_texts = {"",    "a",    "a0",    "a9", "i1", "1a",
                         "a1 ", "PASs", "passe", "aa", "@1", "a10"};
    int results[4] = {0, 0, 0, 0};
    int passes = 0;
    int early_ends = 0;  // games that ended with empty cells left
    const PlyCheck ply_check = [&](const State& before_state, Move m, const State& after_state) {
        const auto& before = dynamic_cast<const ReversiState&>(before_state);
        const auto& after = dynamic_cast<const ReversiState&>(after_state);
        const int player = before.current_player();
        const Board board = board_of(before);
        const auto mine = naive_moves(board, player);
        const auto theirs = naive_moves(board, opponent_of(player));
        // The legal moves agree with the reference rules.
        if (mine.empty()) {
            ASSERT_FALSE(theirs.empty());
            ASSERT_EQ(before.legal_moves(), std::vector<Move>{kPass});
            ASSERT_EQ(m, kPass);
            ++passes;
        } else {
            auto legal = before.legal_moves();
            std::sort(legal.begin(), legal.end());
            ASSERT_EQ(legal, mine);
        }
        // The resulting board agrees too.
        Board want = board;
        if (m != kPass) {
            for (const int cell : naive_flips(board, player, m))
                want[cell] = player;
            want[m] = player;
        }
        ASSERT_EQ(board_of(after), want);
        ASSERT_EQ(after.current_player(), opponent_of(player));
        const bool next_can = !naive_moves(want, opponent_of(player)).empty();
        const bool other_can = !naive_moves(want, player).empty();
        ASSERT_EQ(after.is_over(), !next_can && !other_can);
        ASSERT_EQ(after.move_mask() == 0, !next_can);
    };
    const EndCheck end_check = [&](const State& s) {
        const auto& r = dynamic_cast<const ReversiState&>(s);
        const int black = r.disc_count(1);
        const int white = r.disc_count(2);
        const Outcome want = black > white   ? Outcome::kWin1
                             : white > black ? Outcome::kWin2
                                             : Outcome::kDraw;
        EXPECT_EQ(s.outcome(), want) << s.render();
        ++results[static_cast<int>(s.outcome())];
        if (black + white < 64) ++early_ends;
        // Neither side can move, whoever is to move.
        EXPECT_TRUE(ReversiState(r.discs(1), r.discs(2), 1).is_over());
        EXPECT_TRUE(ReversiState(r.discs(1), r.discs(2), 2).is_over());
    };
    check_random_games(*game, options, ply_check, end_check);
    EXPECT_GT(results[static_cast<int>(Outcome::kWin1)], 0);
    EXPECT_GT(results[static_cast<int>(Outcome::kWin2)], 0);
    EXPECT_GT(results[static_cast<int>(Outcome::kDraw)], 0);
    EXPECT_GT(passes, 0);
    EXPECT_GT(early_ends, 0);
}

// ---------------------------------------------------------------------------
// Connect-4 positions

TEST(Connect4, NotationAndStart) {
    const auto game = game_of("connect4");
    const auto s = game->new_initial_state();
    EXPECT_EQ(s->legal_moves(), (std::vector<Move>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(s->parse_move("4"), 3);
    EXPECT_EQ(s->parse_move("7"), 6);
    EXPECT_EQ(s->parse_move("8"), std::nullopt);
    EXPECT_EQ(s->parse_move("0"), std::nullopt);
    EXPECT_EQ(s->format_move(0), "1");
    EXPECT_THROW(static_cast<void>(s->format_move(7)), GameError);
    EXPECT_THROW(static_cast<void>(s->format_move(kPass)), GameError);
    EXPECT_EQ(s->current_player(), 1);
    const auto wide = game_of("connect4", {{"cols", "16"}})->new_initial_state();
    EXPECT_EQ(wide->parse_move("16"), 15);
    EXPECT_EQ(wide->parse_move("17"), std::nullopt);
    EXPECT_EQ(wide->format_move(12), "13");
}

TEST(Connect4, DescribesItsBoard) {
    const auto game = game_of(
        "connect4", {{"rows", "5"}, {"cols", "8"}, {"connect", "3"}, {"blocked", "4:3,2:1"}});
    const auto b = game->board();
    EXPECT_EQ(b.width, 8);
    EXPECT_EQ(b.height, 5);
    EXPECT_TRUE(b.gravity);
    EXPECT_FALSE(b.rows_from_top);
    const std::vector<Cell> blocked{{1, 0}, {3, 2}};  // sorted, 0-based
    EXPECT_EQ(b.blocked, blocked);
    EXPECT_EQ(b.move_count(), 8);  // a move is a column
    EXPECT_EQ(b.viewer, (std::vector<ViewerField>{
                            {"rows", 5}, {"cols", 8}, {"connect", 3}, {"blocked", blocked}}));
    // The first piece in column 2 lands above the blocked cell.
    const auto s = play(*game, {"2", "2", "5"});
    EXPECT_EQ(s->piece_at({1, 0}), kBlockedCell);
    EXPECT_EQ(s->piece_at({1, 1}), 1);
    EXPECT_EQ(s->piece_at({1, 2}), 2);
    EXPECT_EQ(s->piece_at({4, 0}), 1);
    EXPECT_EQ(s->piece_at({0, 0}), kEmptyCell);
    EXPECT_EQ(s->piece_count(1), 2);
    EXPECT_EQ(s->piece_count(2), 1);
}

TEST(Connect4, RenderShowsPiecesAndCoordinates) {
    const auto game = game_of("connect4", {{"rows", "4"}, {"cols", "4"}, {"blocked", "2:1"}});
    const auto s = play(*game, {"1", "2"});
    EXPECT_EQ(s->render(),
              " 4 . . . .\n"
              " 3 . . . .\n"
              " 2 . O . .\n"
              " 1 X # . .\n"
              "   1 2 3 4\n"
              "ply 2: X to move\n");
}

TEST(Connect4, HorizontalWinsAtBothEdges) {
    const auto game = game_of("connect4");
    auto s = play(*game, {"1", "1", "2", "2", "3", "3", "4"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    s = play(*game, {"7", "7", "6", "6", "5", "5", "4"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    // Player 2 on 2:1 3:1 5:1, completed in the middle with 4:1.
    s = play(*game, {"1", "2", "1", "3", "7", "5", "7", "4"});
    EXPECT_EQ(s->outcome(), Outcome::kWin2);
    EXPECT_TRUE(s->legal_moves().empty());
}

TEST(Connect4, VerticalWinsAtEdges) {
    const auto game = game_of("connect4");
    // Right edge, bottom.
    auto s = play(*game, {"7", "1", "7", "1", "7", "1", "7"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    // Left edge, reaching the top row (rows 3..6).
    s = play(*game, {"1", "1", "1", "2", "1", "2", "1", "2"});
    EXPECT_EQ(s->outcome(), Outcome::kOngoing);
    s = play(*game, {"1", "1", "1", "2", "1", "2", "1", "2", "1"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    EXPECT_EQ(s->ply(), 9);
}

TEST(Connect4, DiagonalWinsFromCorners) {
    const auto game = game_of("connect4");
    // '/' from the bottom-left corner: 1:1 2:2 3:3 4:4.
    auto s = play(*game, {"1", "2", "2", "3", "3", "4", "3", "4", "4", "6", "4"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    // '\' from the bottom-right corner: 7:1 6:2 5:3 4:4.
    s = play(*game, {"7", "6", "6", "5", "5", "4", "5", "4", "4", "2", "4"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    // '\' down to the right, player 2, touching the top-left corner on a 4x4
    // board: O on 1:4 2:3 3:2 4:1.
    const auto small = game_of("connect4", {{"rows", "4"}, {"cols", "4"}});
    s = play(*small, {"1", "3", "1", "4", "2", "3", "2", "2", "1", "1"});
    EXPECT_EQ(s->outcome(), Outcome::kWin2) << s->render();
}

TEST(Connect4, BlockedCellsBreakLines) {
    // Vertical: X on 1:1 1:2 and 1:4 1:5 around a block at 1:3.
    const auto game = game_of("connect4", {{"blocked", "1:3"}});
    auto s = play(*game, {"1", "2", "1", "2", "1", "3", "1"});
    const auto& c4 = dynamic_cast<const Connect4State&>(*s);
    EXPECT_EQ(c4.at(0, 2), Connect4State::kBlocked);
    EXPECT_EQ(c4.at(0, 3), 1);
    EXPECT_EQ(c4.at(0, 4), 1);
    EXPECT_EQ(s->outcome(), Outcome::kOngoing) << s->render();
    // The sixth row still takes a piece; then the column is full.
    s->apply(6);
    s->apply(0);
    EXPECT_EQ(c4.at(0, 5), 1);
    EXPECT_EQ(s->outcome(), Outcome::kOngoing);
    EXPECT_FALSE(s->is_legal(0));
    EXPECT_THROW(s->apply(0), GameError);

    // Horizontal: X on 1:1 2:1 3:1 and 5:1 around a block at 4:1.
    const auto row_game = game_of("connect4", {{"blocked", "4:1"}});
    s = play(*row_game, {"1", "1", "2", "2", "3", "6", "5"});
    EXPECT_EQ(s->outcome(), Outcome::kOngoing) << s->render();
    // Without the block the same cells do win.
    s = play(*game_of("connect4"), {"1", "1", "2", "2", "3", "6", "4"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
}

TEST(Connect4, PieceLandsAboveBlockedCell) {
    const auto game = game_of("connect4", {{"blocked", "3:1,3:2,5:4"}});
    auto s = play(*game, {"3"});
    const auto& c4 = dynamic_cast<const Connect4State&>(*s);
    EXPECT_EQ(c4.at(2, 0), Connect4State::kBlocked);
    EXPECT_EQ(c4.at(2, 1), Connect4State::kBlocked);
    EXPECT_EQ(c4.at(2, 2), 1);
    // A block higher up is jumped over once the cells below are filled.
    s = play(*game, {"5", "5", "5", "5"});
    const auto& c4b = dynamic_cast<const Connect4State&>(*s);
    EXPECT_EQ(c4b.at(4, 2), 1);
    EXPECT_EQ(c4b.at(4, 3), Connect4State::kBlocked);
    EXPECT_EQ(c4b.at(4, 4), 2);
    // Four above the blocks in column 3 win (rows 3..6).
    s = play(*game, {"3", "1", "3", "1", "3", "1", "3"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1) << s->render();
    // A column whose cells are all blocked is never legal.
    const auto dead = game_of("connect4", {{"rows", "4"}, {"blocked", "2:1,2:2,2:3,2:4"}});
    s = dead->new_initial_state();
    EXPECT_FALSE(s->is_legal(1));
    EXPECT_EQ(s->legal_moves(), (std::vector<Move>{0, 2, 3, 4, 5, 6}));
}

TEST(Connect4, LongerConnectOnBiggerBoard) {
    const auto game = game_of("connect4", {{"rows", "8"}, {"cols", "9"}, {"connect", "5"}});
    auto s = play(*game, {"1", "1", "2", "2", "3", "3", "4", "4"});
    EXPECT_EQ(s->outcome(), Outcome::kOngoing);  // four is not enough
    s->apply(4);
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    // Vertical five in the last column.
    s = play(*game, {"9", "1", "9", "1", "9", "1", "9", "1"});
    EXPECT_EQ(s->outcome(), Outcome::kOngoing);
    s->apply(8);
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
}

TEST(Connect4, DrawOnFullBoard) {
    // 4x4 with connect=4; columns filled in pairs so no line of four forms.
    const auto game = game_of("connect4", {{"rows", "4"}, {"cols", "4"}});
    auto s = play(*game,
                  {"1", "2", "1", "2", "2", "1", "2", "1", "3", "4", "3", "4", "4", "3", "4", "3"});
    EXPECT_EQ(s->outcome(), Outcome::kDraw) << s->render();
    EXPECT_EQ(s->ply(), 16);
    EXPECT_TRUE(s->legal_moves().empty());
    // connect=2 ends at once.
    s = play(*game_of("connect4", {{"connect", "2"}}), {"1", "3", "2"});
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
}

TEST(Connect4, IllegalMovesThrow) {
    const auto game = game_of("connect4", {{"rows", "4"}, {"cols", "4"}});
    auto s = play(*game, {"1", "1", "1", "1"});
    EXPECT_FALSE(s->is_legal(0));
    EXPECT_EQ(error_of([&] { s->apply(0); }), "connect4: illegal move 1");
    EXPECT_EQ(error_of([&] { s->apply(9); }), "connect4: illegal move 9");
    EXPECT_THROW(s->apply(kPass), GameError);
    EXPECT_THROW(s->apply(4), GameError);
    EXPECT_EQ(s->ply(), 4);
}

// ---------------------------------------------------------------------------
// Gomoku positions

const std::vector<std::string> kFillers{"h8",  "j8",  "l8",  "n8",  "h10", "j10",
                                        "l10", "n10", "h12", "j12", "l12", "n12"};

// Interleaves the first player's moves with fillers for the second.
std::vector<std::string> with_fillers(const std::vector<std::string>& moves) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (i > 0) out.push_back(kFillers[i - 1]);
        out.push_back(moves[i]);
    }
    return out;
}

TEST(Gomoku, Notation) {
    const auto s = game_of("gomoku")->new_initial_state();
    EXPECT_EQ(s->parse_move("h8"), 7 * 15 + 7);
    EXPECT_EQ(s->parse_move("H8"), 7 * 15 + 7);
    EXPECT_EQ(s->parse_move("a1"), 0);
    EXPECT_EQ(s->parse_move("o15"), 224);
    EXPECT_EQ(s->parse_move("p1"), std::nullopt);
    EXPECT_EQ(s->parse_move("a16"), std::nullopt);
    EXPECT_EQ(s->format_move(7 * 15 + 7), "h8");
    EXPECT_EQ(s->format_move(15), "a2");
    // No letter is skipped: i and j are columns 9 and 10.
    EXPECT_EQ(s->parse_move("i1"), 8);
    EXPECT_EQ(s->parse_move("j1"), 9);
    const auto big = game_of("gomoku", {{"size", "26"}})->new_initial_state();
    EXPECT_EQ(big->parse_move("z26"), 26 * 26 - 1);
    EXPECT_EQ(big->format_move(26 * 26 - 1), "z26");
    EXPECT_EQ(big->legal_moves().size(), 26u * 26u);
}

TEST(Gomoku, DescribesItsBoard) {
    const auto game = game_of("gomoku", {{"size", "9"}, {"rule", "exact5"}});
    const auto b = game->board();
    EXPECT_EQ(b.width, 9);
    EXPECT_EQ(b.height, 9);
    EXPECT_FALSE(b.gravity);
    EXPECT_FALSE(b.rows_from_top);
    EXPECT_TRUE(b.blocked.empty());
    EXPECT_EQ(b.move_count(), 81);  // a move is a cell
    EXPECT_EQ(b.viewer, (std::vector<ViewerField>{{"size", 9}, {"rule", std::string("exact5")}}));
    const auto s = play(*game, {"c2", "h8"});
    EXPECT_EQ(b.cell_of(*s->parse_move("c2")), (Cell{2, 1}));
    EXPECT_EQ(b.cell_of(*s->parse_move("i9")), (Cell{8, 8}));
    EXPECT_EQ(s->piece_at({2, 1}), 1);
    EXPECT_EQ(s->piece_at({7, 7}), 2);
    EXPECT_EQ(s->piece_at({0, 0}), kEmptyCell);
    EXPECT_EQ(s->piece_count(1), 1);
    EXPECT_EQ(s->piece_count(2), 1);
}

TEST(Gomoku, RenderShowsStonesAndCoordinates) {
    const auto s = play(*game_of("gomoku", {{"size", "5"}}), {"a1", "e5"});
    EXPECT_EQ(s->render(),
              "  5 . . . . O\n"
              "  4 . . . . .\n"
              "  3 . . . . .\n"
              "  2 . . . . .\n"
              "  1 X . . . .\n"
              "    a b c d e\n"
              "ply 2: X to move\n");
}

TEST(Gomoku, FiveWinsInEveryDirectionAtEdges) {
    for (const std::string rule : {"freestyle", "exact5"}) {
        SCOPED_TRACE(rule);
        const auto game = game_of("gomoku", {{"rule", rule}});
        const std::vector<std::vector<std::string>> lines{
            {"a1", "b1", "c1", "d1", "e1"},       // horizontal, bottom-left corner
            {"k15", "l15", "m15", "n15", "o15"},  // horizontal, top-right corner
            {"o1", "o2", "o3", "o4", "o5"},       // vertical, right edge
            {"a11", "a12", "a13", "a14", "a15"},  // vertical, top-left corner
            {"a1", "b2", "c3", "d4", "e5"},       // diagonal up-right from a corner
            {"k11", "l12", "m13", "n14", "o15"},  // ... into the opposite corner
            {"a15", "b14", "c13", "d12", "e11"},  // diagonal down-right from a corner
            {"k5", "l4", "m3", "n2", "o1"},       // ... into the bottom-right corner
            {"a5", "b4", "d2", "e1", "c3"},       // completed in the middle
        };
        for (const auto& line : lines) {
            auto moves = with_fillers(line);
            const std::string last = moves.back();
            moves.pop_back();
            auto s = play(*game, moves);
            EXPECT_EQ(s->outcome(), Outcome::kOngoing) << line[0];
            s->apply(*s->parse_move(last));
            EXPECT_EQ(s->outcome(), Outcome::kWin1) << line[0] << "\n" << s->render();
            EXPECT_TRUE(s->legal_moves().empty());
            EXPECT_FALSE(s->is_legal(0));
        }
    }
}

TEST(Gomoku, SecondPlayerWins) {
    const auto game = game_of("gomoku");
    const auto s = play(*game, {"h8", "a11", "j8", "a12", "l8", "a13", "n8", "a14", "h10", "a15"});
    EXPECT_EQ(s->outcome(), Outcome::kWin2);
}

TEST(Gomoku, OverlineWinsOnlyUnderFreestyle) {
    // a1 b1 c1 d1 f1, then e1 makes six in a row.
    const auto moves = with_fillers({"a1", "b1", "c1", "d1", "f1", "e1"});
    auto s = play(*game_of("gomoku", {{"rule", "freestyle"}}), moves);
    EXPECT_EQ(s->outcome(), Outcome::kWin1);
    s = play(*game_of("gomoku", {{"rule", "exact5"}}), moves);
    EXPECT_EQ(s->outcome(), Outcome::kOngoing) << s->render();
    // Seven is no better.
    s->apply(*s->parse_move("a5"));
    s->apply(*s->parse_move("g1"));
    EXPECT_EQ(s->outcome(), Outcome::kOngoing);
    // An overline one way and exactly five another way still wins: e1 is
    // part of the six on row 1 and the five on column e.
    const auto cross = with_fillers({"a1", "b1", "c1", "d1", "f1", "e2", "e3", "e4", "e5", "e1"});
    s = play(*game_of("gomoku", {{"rule", "exact5"}}),
             std::vector<std::string>(cross.begin(), cross.end() - 1));
    EXPECT_EQ(s->outcome(), Outcome::kOngoing);
    s->apply(*s->parse_move("e1"));
    EXPECT_EQ(s->outcome(), Outcome::kWin1) << s->render();
}

TEST(Gomoku, DrawOnFullBoard) {
    // 5x5, exact5 irrelevant: fill rows in the pattern XXOOX / OOXXO ... so no
    // line of five forms. Player 1 plays the X cells, player 2 the O cells.
    const std::vector<std::string> rows{"XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"};
    std::vector<std::string> xs;
    std::vector<std::string> os;
    for (int r = 0; r < 5; ++r) {
        for (int c = 0; c < 5; ++c) {
            const std::string cell =
                std::string(1, static_cast<char>('a' + c)) + std::to_string(r + 1);
            (rows[r][c] == 'X' ? xs : os).push_back(cell);
        }
    }
    ASSERT_EQ(xs.size(), 13u);
    ASSERT_EQ(os.size(), 12u);
    std::vector<std::string> moves;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        moves.push_back(xs[i]);
        if (i < os.size()) moves.push_back(os[i]);
    }
    const auto s = play(*game_of("gomoku", {{"size", "5"}}), moves);
    EXPECT_EQ(s->outcome(), Outcome::kDraw) << s->render();
    EXPECT_EQ(s->ply(), 25);
}

TEST(Gomoku, IllegalMovesThrow) {
    auto s = play(*game_of("gomoku"), {"h8"});
    EXPECT_FALSE(s->is_legal(7 * 15 + 7));
    EXPECT_EQ(error_of([&] { s->apply(7 * 15 + 7); }), "gomoku: illegal move h8");
    EXPECT_THROW(s->apply(225), GameError);
    EXPECT_THROW(s->apply(kPass), GameError);
    EXPECT_EQ(s->ply(), 1);
}

// ---------------------------------------------------------------------------
// Reversi positions

TEST(Reversi, StartPosition) {
    const auto s = game_of("reversi")->new_initial_state();
    std::vector<std::string> moves;
    for (const Move m : s->legal_moves())
        moves.push_back(s->format_move(m));
    std::sort(moves.begin(), moves.end());
    EXPECT_EQ(moves, (std::vector<std::string>{"c4", "d3", "e6", "f5"}));
    EXPECT_EQ(s->render(),
              "  a b c d e f g h\n"
              "1 . . . . . . . .\n"
              "2 . . . . . . . .\n"
              "3 . . . . . . . .\n"
              "4 . . . O X . . .\n"
              "5 . . . X O . . .\n"
              "6 . . . . . . . .\n"
              "7 . . . . . . . .\n"
              "8 . . . . . . . .\n"
              "ply 0: X (black) 2, O (white) 2; X to move\n");
    EXPECT_EQ(s->parse_move("a1"), 0);
    EXPECT_EQ(s->parse_move("h1"), 7);
    EXPECT_EQ(s->parse_move("A8"), 56);
    EXPECT_EQ(s->parse_move("pass"), kPass);
    EXPECT_EQ(s->format_move(kPass), "pass");
    EXPECT_EQ(s->format_move(63), "h8");
    EXPECT_FALSE(s->is_legal(kPass));
    EXPECT_THROW(s->apply(kPass), GameError);
    EXPECT_EQ(error_of([&] { s->apply(0); }), "reversi: illegal move a1");

    // d3 flips d4.
    const auto after = play(*game_of("reversi"), {"d3"});
    const auto& r = dynamic_cast<const ReversiState&>(*after);
    EXPECT_EQ(r.disc_count(1), 4);
    EXPECT_EQ(r.disc_count(2), 1);
    EXPECT_EQ(after->current_player(), 2);
}

TEST(Reversi, DescribesItsBoard) {
    const auto game = game_of("reversi");
    const auto b = game->board();
    EXPECT_EQ(b.width, 8);
    EXPECT_EQ(b.height, 8);
    EXPECT_FALSE(b.gravity);
    EXPECT_TRUE(b.rows_from_top);
    EXPECT_TRUE(b.blocked.empty());
    EXPECT_EQ(b.move_count(), 64);
    EXPECT_TRUE(b.viewer.empty());
    // Cells count rows from the bottom, the notation from the top.
    const auto start = game->new_initial_state();
    EXPECT_EQ(b.cell_of(*start->parse_move("d3")), (Cell{3, 5}));
    EXPECT_EQ(b.cell_of(*start->parse_move("a1")), (Cell{0, 7}));
    EXPECT_EQ(b.cell_of(*start->parse_move("h8")), (Cell{7, 0}));
    EXPECT_EQ(start->piece_at({3, 4}), 2);  // d4
    EXPECT_EQ(start->piece_at({4, 4}), 1);  // e4
    EXPECT_EQ(start->piece_at({3, 3}), 1);  // d5
    EXPECT_EQ(start->piece_at({4, 3}), 2);  // e5
    EXPECT_EQ(start->piece_at({0, 0}), kEmptyCell);
    EXPECT_EQ(start->piece_count(1), 2);
    EXPECT_EQ(start->piece_count(2), 2);
    // d3 flips d4.
    const auto after = play(*game, {"d3"});
    EXPECT_EQ(after->piece_at({3, 5}), 1);
    EXPECT_EQ(after->piece_at({3, 4}), 1);
    EXPECT_EQ(after->piece_count(1), 4);
    EXPECT_EQ(after->piece_count(2), 1);
}

TEST(Reversi, ForcedPassThenGameOver) {
    // Black (to move) has b1 next to white a1 in the corner: nothing to
    // bracket. White can take c1.
    const auto [black, white] = bits_of({"OX......"});
    ReversiState s(black, white, 1);
    EXPECT_EQ(s.outcome(), Outcome::kOngoing);
    EXPECT_EQ(s.legal_moves(), std::vector<Move>{kPass});
    EXPECT_TRUE(s.is_legal(kPass));
    EXPECT_FALSE(s.is_legal(2));
    EXPECT_THROW(s.apply(2), GameError);
    EXPECT_NE(s.render().find("must pass"), std::string::npos);
    s.apply(kPass);
    EXPECT_EQ(s.ply(), 1);
    EXPECT_EQ(s.current_player(), 2);
    EXPECT_EQ(s.legal_moves(), std::vector<Move>{2});
    EXPECT_FALSE(s.is_legal(kPass));
    s.apply(*s.parse_move("c1"));
    // All discs are white and cells are left: neither side can move.
    EXPECT_EQ(s.ply(), 2);
    EXPECT_EQ(s.outcome(), Outcome::kWin2);
    EXPECT_EQ(s.disc_count(2), 3);
    EXPECT_TRUE(s.legal_moves().empty());
    EXPECT_FALSE(s.is_legal(kPass));
    EXPECT_THROW(s.apply(kPass), GameError);
}

TEST(Reversi, GameOverByDiscCount) {
    // Neither side can move from the start; the disc count decides.
    auto [black, white] = bits_of({"X......O", "", "", "", "", "", "", "X"});
    EXPECT_EQ(ReversiState(black, white, 1).outcome(), Outcome::kWin1);
    EXPECT_EQ(ReversiState(black, white, 2).outcome(), Outcome::kWin1);
    std::tie(black, white) = bits_of({"X......O", "", "", "", "", "", "", "O......O"});
    EXPECT_EQ(ReversiState(black, white, 1).outcome(), Outcome::kWin2);
    std::tie(black, white) = bits_of({"X......O"});
    EXPECT_EQ(ReversiState(black, white, 1).outcome(), Outcome::kDraw);
    EXPECT_EQ(ReversiState(0, 0, 1).outcome(), Outcome::kDraw);
}

TEST(Reversi, DrawAfterLastMove) {
    // Black c1 flips b1: 3 black, 3 white, and nobody can move.
    const auto [black, white] = bits_of({"XO......", "", "", "", "", "", "", "OOO....."});
    ReversiState s(black, white, 1);
    EXPECT_EQ(s.legal_moves(), std::vector<Move>{2});
    s.apply(2);
    EXPECT_EQ(s.disc_count(1), 3);
    EXPECT_EQ(s.disc_count(2), 3);
    EXPECT_EQ(s.outcome(), Outcome::kDraw);
}

TEST(Reversi, FullBoardEndsTheGame) {
    // One empty cell (h8); black fills it flipping g8, then the board is full.
    std::vector<std::string> rows(8, "XXXXXXXX");
    rows[7] = "XXXXXXO.";
    const auto [black, white] = bits_of(rows);
    ReversiState s(black, white, 1);
    EXPECT_EQ(s.legal_moves(), std::vector<Move>{63});
    s.apply(63);
    EXPECT_EQ(s.disc_count(1), 64);
    EXPECT_EQ(s.outcome(), Outcome::kWin1);
}

TEST(Reversi, FlipsInAllDirectionsAndNotAcrossEdges) {
    // Black on d4 flips a run of white discs in each of the eight directions.
    const auto [black, white] = bits_of({
        "X..X..X.",  // a1 d1 g1
        ".O.O.O..",  // b2 d2 f2
        "..OOO...",  // c3 d3 e3
        "XOO.OOOX",  // a4 b4 c4 _ e4 f4 g4 h4
        "..OOO...",  // c5 d5 e5
        ".O.O.O..",  // b6 d6 f6
        "X..X..X.",  // a7 d7 g7
        "........",
    });
    ReversiState s(black, white, 1);
    const Move d4 = *s.parse_move("d4");
    ASSERT_TRUE(s.is_legal(d4));
    s.apply(d4);
    EXPECT_EQ(s.disc_count(2), 0) << s.render();
    EXPECT_EQ(s.disc_count(1), 8 + 17 + 1);

    // A white run touching the right edge is not bracketed by a black disc on
    // the next row's left edge (no wrap-around).
    // A bitboard shift without edge masks would let black play g1 (through h1
    // to a2) and b2 (through a2 to h1); neither is a move, so the game is over.
    auto [b2, w2] = bits_of({".......O", "X......."});
    ReversiState right(b2, w2, 1);
    EXPECT_FALSE(right.is_legal(*right.parse_move("g1")));
    EXPECT_EQ(right.outcome(), Outcome::kDraw) << right.render();
    std::tie(b2, w2) = bits_of({".......X", "O......."});
    ReversiState left(b2, w2, 1);
    EXPECT_FALSE(left.is_legal(*left.parse_move("b2")));
    EXPECT_EQ(left.outcome(), Outcome::kDraw) << left.render();
    EXPECT_THROW(ReversiState(1, 1, 1), GameError);
    EXPECT_THROW(ReversiState(1, 2, 3), GameError);
}

// ---------------------------------------------------------------------------
// Parameters

TEST(Params, DefaultsAndCanonicalForm) {
    EXPECT_EQ(game_names(), (std::vector<std::string>{"connect4", "gomoku", "reversi"}));
    EXPECT_EQ(game_of("connect4")->params(),
              (Params{{"rows", "6"}, {"cols", "7"}, {"connect", "4"}}));
    EXPECT_EQ(game_of("connect4")->name(), "connect4");
    EXPECT_EQ(game_of("gomoku")->params(), (Params{{"size", "15"}, {"rule", "freestyle"}}));
    EXPECT_EQ(game_of("gomoku")->name(), "gomoku");
    EXPECT_EQ(game_of("reversi")->params(), Params{});
    EXPECT_EQ(game_of("reversi")->name(), "reversi");
    const auto c4 =
        game_of("connect4", {{"blocked", "5:2,1:1,5:1"}, {"connect", "5"}, {"cols", "9"}});
    const Params canonical{
        {"rows", "6"}, {"cols", "9"}, {"connect", "5"}, {"blocked", "1:1,5:1,5:2"}};
    EXPECT_EQ(c4->params(), canonical);
    EXPECT_EQ(game_of("connect4", canonical)->params(), canonical);
    EXPECT_EQ(game_of("connect4", {{"variant", "standard"}})->params(),
              game_of("connect4")->params());
    EXPECT_EQ(game_of("connect4", {{"blocked", ""}})->params(), game_of("connect4")->params());
    EXPECT_EQ(game_of("gomoku", {{"size", "19"}, {"rule", "exact5"}})->params(),
              (Params{{"size", "19"}, {"rule", "exact5"}}));
    // Extremes are accepted.
    EXPECT_NO_THROW(game_of("connect4", {{"rows", "4"}, {"cols", "16"}, {"connect", "16"}}));
    EXPECT_NO_THROW(game_of("connect4", {{"rows", "16"}, {"cols", "4"}, {"connect", "2"}}));
    EXPECT_NO_THROW(game_of("gomoku", {{"size", "5"}}));
    EXPECT_NO_THROW(game_of("gomoku", {{"size", "26"}}));
}

TEST(Params, ErrorsNameTheKeyAndValue) {
    expect_param_error("chess", {}, "unknown game 'chess'");
    expect_param_error("Connect4", {}, "unknown game 'Connect4'");

    expect_param_error("connect4", {{"rows", "20"}}, "connect4: rows=20 is out of range (4..16)");
    expect_param_error("connect4", {{"rows", "3"}}, "connect4: rows=3 is out of range (4..16)");
    expect_param_error("connect4", {{"cols", "17"}}, "connect4: cols=17 is out of range (4..16)");
    expect_param_error("connect4", {{"cols", "-7"}}, "connect4: cols=-7 is out of range (4..16)");
    expect_param_error("connect4", {{"rows", "99999999999999999999"}},
                       "connect4: rows=99999999999999999999 is out of range (4..16)");
    expect_param_error("connect4", {{"rows", "abc"}}, "connect4: rows=abc is not an integer");
    expect_param_error("connect4", {{"rows", ""}}, "connect4: rows= is not an integer");
    expect_param_error("connect4", {{"rows", "6 "}}, "connect4: rows=6  is not an integer");
    expect_param_error("connect4", {{"rows", "+6"}}, "connect4: rows=+6 is not an integer");
    expect_param_error("connect4", {{"rows", "6.0"}}, "connect4: rows=6.0 is not an integer");
    expect_param_error("connect4", {{"connect", "1"}},
                       "connect4: connect=1 is out of range (2..7)");
    expect_param_error("connect4", {{"connect", "8"}},
                       "connect4: connect=8 is out of range (2..7)");
    expect_param_error("connect4", {{"rows", "9"}, {"connect", "10"}},
                       "connect4: connect=10 is out of range (2..9)");
    expect_param_error("connect4", {{"depth", "3"}}, "connect4: unknown parameter depth=3");
    expect_param_error("connect4", {{"rows", "6"}, {"rows", "7"}},
                       "connect4: parameter rows is given twice");
    expect_param_error(
        "connect4", {{"blocked", "8:1"}},
        "connect4: blocked=8:1: cell 8:1 is outside the board (cols 1..7, rows 1..6)");
    expect_param_error("connect4", {{"blocked", "1:7"}}, "cell 1:7 is outside the board");
    expect_param_error("connect4", {{"blocked", "0:1"}}, "cell 0:1 is outside the board");
    expect_param_error("connect4", {{"blocked", "1:99999999999"}},
                       "cell 1:99999999999 is outside the board");
    expect_param_error("connect4", {{"blocked", "a:b"}},
                       "connect4: blocked=a:b: 'a:b' is not a cell <col>:<row>");
    expect_param_error("connect4", {{"blocked", "1:1,"}}, "'' is not a cell");
    expect_param_error("connect4", {{"blocked", "11"}}, "'11' is not a cell");
    expect_param_error("connect4", {{"blocked", "1:1:1"}}, "'1:1:1' is not a cell");
    expect_param_error("connect4", {{"blocked", "1-1"}}, "'1-1' is not a cell");
    expect_param_error("connect4", {{"blocked", "1:1, 2:2"}}, "' 2:2' is not a cell");
    expect_param_error("connect4", {{"blocked", "2:3,1:1,2:3"}},
                       "connect4: blocked=2:3,1:1,2:3: cell 2:3 is listed twice");
    expect_param_error("connect4", {{"variant", "tsinghua"}}, "realize");
    expect_param_error("connect4", {{"variant", "tsinghua"}}, "variant=tsinghua");
    expect_param_error("connect4", {{"variant", "pop10"}},
                       "connect4: variant=pop10 is unknown (standard, tsinghua)");

    expect_param_error("gomoku", {{"size", "4"}}, "gomoku: size=4 is out of range (5..26)");
    expect_param_error("gomoku", {{"size", "27"}}, "gomoku: size=27 is out of range (5..26)");
    expect_param_error("gomoku", {{"size", "x"}}, "gomoku: size=x is not an integer");
    expect_param_error("gomoku", {{"rule", "renju"}},
                       "gomoku: rule=renju is unknown (freestyle, exact5)");
    expect_param_error("gomoku", {{"rule", "Exact5"}}, "gomoku: rule=Exact5 is unknown");
    expect_param_error("gomoku", {{"rows", "15"}}, "gomoku: unknown parameter rows=15");
    expect_param_error("gomoku", {{"connect", "5"}}, "gomoku: unknown parameter connect=5");

    expect_param_error("reversi", {{"size", "8"}}, "reversi: unknown parameter size=8");
}

TEST(Params, DirectConstructionIsValidatedToo) {
    Connect4Config bad;
    bad.rows = 17;
    EXPECT_EQ(error_of([&] { Connect4Game g(bad); }), "connect4: rows=17 is out of range (4..16)");
    Connect4Config outside;
    outside.blocked = {{7, 0}};
    EXPECT_EQ(error_of([&] { Connect4Game g(outside); }),
              "connect4: blocked cell 8:1 is outside the board (cols 1..7, rows 1..6)");
    Connect4Config twice;
    twice.blocked = {{1, 1}, {0, 0}, {1, 1}};
    EXPECT_EQ(error_of([&] { Connect4Game g(twice); }),
              "connect4: blocked cell 2:2 is listed twice");
    EXPECT_EQ(error_of([] {
                  GomokuGame g(GomokuConfig{30, GomokuRule::kFreestyle});
              }),
              "gomoku: size=30 is out of range (5..26)");
}

TEST(Params, RealizeTsinghua) {
    const Params family{{"variant", "tsinghua"}};
    // Pinned: splitmix64 from seed 0 gives e220a839..., 6e789e6a..., 06c45d18...,
    // f88bb8a8... (the published reference outputs); each draw takes the high
    // 32 bits times the range.
    EXPECT_EQ(realize("connect4", family, 0),
              (Params{{"rows", "12"}, {"cols", "10"}, {"connect", "4"}, {"blocked", "1:12"}}));

    std::set<int> rows_seen;
    std::set<int> cols_seen;
    std::set<Params> distinct;
    std::set<int> blocked_rows;
    std::set<int> blocked_cols;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const Params p = realize("connect4", family, seed);
        ASSERT_EQ(p, realize("connect4", family, seed)) << "not deterministic";
        ASSERT_EQ(p.size(), 4u);
        ASSERT_EQ(p[0].first, "rows");
        ASSERT_EQ(p[1].first, "cols");
        ASSERT_EQ(p[2], (std::pair<std::string, std::string>{"connect", "4"}));
        ASSERT_EQ(p[3].first, "blocked");
        const int rows = std::stoi(p[0].second);
        const int cols = std::stoi(p[1].second);
        ASSERT_GE(rows, 9);
        ASSERT_LE(rows, 12);
        ASSERT_GE(cols, 9);
        ASSERT_LE(cols, 12);
        rows_seen.insert(rows);
        cols_seen.insert(cols);
        const std::string& cell = p[3].second;
        const auto colon = cell.find(':');
        ASSERT_NE(colon, std::string::npos);
        ASSERT_EQ(cell.find(','), std::string::npos) << "exactly one blocked cell";
        const int col = std::stoi(cell.substr(0, colon));
        const int row = std::stoi(cell.substr(colon + 1));
        ASSERT_GE(col, 1);
        ASSERT_LE(col, cols);
        ASSERT_GE(row, 1);
        ASSERT_LE(row, rows);
        blocked_cols.insert(col);
        blocked_rows.insert(row);
        distinct.insert(p);
        // The realized set makes a game with that board; realize is then a
        // no-op.
        const auto game = game_of("connect4", p);
        EXPECT_EQ(game->params(), p);
        EXPECT_EQ(realize("connect4", p, seed + 1), p);
        const auto s = game->new_initial_state();
        EXPECT_EQ(dynamic_cast<const Connect4State&>(*s).at(col - 1, row - 1),
                  Connect4State::kBlocked);
    }
    EXPECT_EQ(rows_seen, (std::set<int>{9, 10, 11, 12}));
    EXPECT_EQ(cols_seen, (std::set<int>{9, 10, 11, 12}));
    EXPECT_GT(distinct.size(), 150u);
    // Blocked cells reach the board's edges, top row included.
    EXPECT_EQ(*blocked_cols.begin(), 1);
    EXPECT_EQ(*blocked_rows.begin(), 1);
    EXPECT_GE(*blocked_rows.rbegin(), 11);
    EXPECT_GE(*blocked_cols.rbegin(), 11);
}

TEST(Params, RealizeOtherSets) {
    const Params plain{{"rows", "8"}, {"cols", "8"}};
    EXPECT_EQ(realize("connect4", plain, 5), plain);
    EXPECT_EQ(realize("connect4", {}, 5), Params{});
    EXPECT_EQ(realize("gomoku", {{"rule", "exact5"}}, 5), (Params{{"rule", "exact5"}}));
    EXPECT_EQ(realize("reversi", {}, 5), Params{});
    EXPECT_THROW(static_cast<void>(realize("chess", {}, 5)), GameError);
    EXPECT_THROW(static_cast<void>(realize("connect4", {{"rows", "99"}}, 5)), GameError);
    EXPECT_THROW(static_cast<void>(realize("gomoku", {{"variant", "tsinghua"}}, 5)), GameError);
    EXPECT_EQ(
        error_of([] {
            static_cast<void>(realize("connect4", {{"variant", "tsinghua"}, {"rows", "9"}}, 5));
        }),
        "connect4: variant=tsinghua chooses rows, cols, connect and blocked itself; rows=9 "
        "is not allowed with it");
    EXPECT_EQ(error_of([] {
                  static_cast<void>(realize("connect4", {{"variant", "x"}}, 5));
              }),
              "connect4: variant=x is unknown (standard, tsinghua)");
}

TEST(Params, FindParam) {
    const Params p{{"a", "1"}, {"b", "2"}};
    ASSERT_NE(find_param(p, "b"), nullptr);
    EXPECT_EQ(*find_param(p, "b"), "2");
    EXPECT_EQ(find_param(p, "c"), nullptr);
}

}  // namespace
}  // namespace arena::games
