#pragma once
// Test helper: the rows of stored games that the bots decide (everything but
// times and ids), to compare two databases of the same tournament game for
// game and move for move.

namespace arena::testing {

// Each game: its place in the schedule, its bots, opening, result and moves' hash.
inline constexpr const char* kGameRows =
    "SELECT g.game_index, g.round, g.pair_index, g.game_in_pair, f.name, s.name, g.opening, "
    "g.game, g.params, g.result, g.winner, g.termination, g.detail, g.plies, g.opening_plies, "
    "g.moves_hash FROM games g JOIN bots f ON f.id = g.first_bot JOIN bots s ON s.id = "
    "g.second_bot ORDER BY g.game_index";
// Each move of each game (not the info lines: they hold the bots' search times).
inline constexpr const char* kMoveRows =
    "SELECT g.game_index, m.ply, m.side, m.move, m.by_arena FROM moves m JOIN games g ON g.id = "
    "m.game ORDER BY g.game_index, m.ply";

}  // namespace arena::testing
