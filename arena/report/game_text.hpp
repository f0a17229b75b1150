#pragma once
// Stored games as text for a terminal: the list of `arena games`, the
// replay of `arena show` and the logs of `arena log`. Text a bot controls
// (names, details, info lines, stderr) has its control characters escaped
// where the commands always escaped it.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::report {

// A header line, then one line per game: id (for arena show and arena log),
// schedule index, players, result, ending, plies, seconds and detail.
void print_game_list(std::ostream& out, const std::vector<store::GameSummary>& games);

// The game replayed as text boards, each move with its player, time and
// info lines; then its result, the peak memory of each bot when it was
// recorded, and for a fault the end of what the bot at fault wrote on
// stderr, with the `arena log DB ID` that prints all of it. A stored move
// that does not replay ends the boards with a line saying so. Throws
// games::GameError for a game the arena does not know.
void print_game_replay(std::ostream& out, const store::StoredGame& game, const std::string& db);

// "" when `bot` plays the game; else "game 12 has no bot 'x'; its bots: a
// (first), b (second)".
[[nodiscard]] std::string missing_player(const store::StoredGame& game, const std::string& bot);

// A heading line for the game, then under a heading for each bot (only
// `bot` when given) what it wrote on stderr, or with `transcript` every line
// between it and the arena ("(no transcript kept: ...)" when none was).
void print_game_log(std::ostream& out, const store::StoredGame& game,
                    const std::optional<std::string>& bot, bool transcript);

}  // namespace arena::report
