#pragma once
// What a person names in a results database, found or refused with a line
// that says why: a game id as typed, a tournament (the only one when none is
// named), a bot of a tournament, a way a game ends. The commands that read a
// database (`standings`, `games`, `show`, `log`, `report`) print these lines
// after "arena COMMAND: ".

#include <cstdint>
#include <optional>
#include <string>

#include "arena/store/results_store.hpp"

namespace arena::store {

// A game id as typed: a positive whole number, else nullopt.
[[nodiscard]] std::optional<std::int64_t> parse_game_id(const std::string& text);
// "GAME must be a game id (a positive whole number), got '<text>'".
[[nodiscard]] std::string bad_game_id(const std::string& text);

// The tournament named `name`, or without a name the only one in the
// database `db`; else `row` is empty and `problem` says why: "no tournament
// 'x' in DB", "no tournament in DB", or "DB holds 3 tournaments; choose one
// with --tournament: a b c". With `escape_names`, the names in it have their
// control characters escaped.
struct PickedTournament {
    std::optional<TournamentRow> row;
    std::string problem;
};
[[nodiscard]] PickedTournament pick_tournament(ResultsStore& store,
                                               const std::optional<std::string>& name,
                                               const std::string& db, bool escape_names = false);

// "" when `bot` is one of the tournament's bots; else "tournament 'T' in DB
// has no bot 'B'": a misspelt name must not look like a bot without games.
[[nodiscard]] std::string missing_bot(ResultsStore& store, const TournamentRow& tournament,
                                      const std::string& bot, const std::string& db);

// "" when `kind` is a way a game ends (record::Termination); else "unknown
// ending 'x' (did you mean 'y'?); endings: normal, timeout, ...".
[[nodiscard]] std::string unknown_termination(const std::string& kind);

}  // namespace arena::store
