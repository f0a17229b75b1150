#pragma once
// Command-line helpers shared by the commands that read a results database
// (`standings`, `games`, `show`, `log`, `export`, `report`): parsing `DB`
// plus options, and picking its tournament, with the same error lines
// everywhere.

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::cli {

struct DbArgs {
    std::string db;
    std::optional<std::string> tournament;
    std::optional<std::string> bot;
    std::int64_t game_id = 0;  // GAME, when the command takes one: a positive id
};

// Parses `DB`, and `GAME` when `wants_game_id`, plus options; returns the
// exit code to use when parsing ends the command (help or error). A DB that
// does not exist is an error: opening it would create an empty database.
[[nodiscard]] std::optional<int> parse_db_args(const std::string& command, std::string_view usage,
                                               const std::vector<std::string>& args,
                                               boost::program_options::options_description opts,
                                               bool wants_game_id, DbArgs& parsed,
                                               std::ostream& out, std::ostream& err);

// Parses options plus any number of FILE arguments (at least `least`,
// `missing` naming what is missing when there are fewer), with the same
// error lines as parse_db_args; returns the exit code to use when parsing
// ends the command (help or error).
[[nodiscard]] std::optional<int> parse_file_args(const std::string& command, std::string_view usage,
                                                 const std::vector<std::string>& args,
                                                 boost::program_options::options_description opts,
                                                 std::size_t least, const std::string& missing,
                                                 std::vector<std::string>& files, std::ostream& out,
                                                 std::ostream& err);

// Opens the database DbArgs::db names, read-only, and returns what `body`
// returns with it; an exception is said as "arena COMMAND: what" and ends
// the command with kExitFailure.
[[nodiscard]] int with_database(const DbArgs& a, const std::string& command, std::ostream& err,
                                const std::function<int(store::ResultsStore&)>& body);

// The tournament --tournament names (DbArgs::tournament), else the only one
// in the database; nullopt after saying why not as "arena COMMAND: ..."
// (store::pick_tournament; `escape_names` as there).
[[nodiscard]] std::optional<store::TournamentRow> pick_tournament(store::ResultsStore& store,
                                                                  const DbArgs& a,
                                                                  const std::string& command,
                                                                  std::ostream& err,
                                                                  bool escape_names = false);

// The game DbArgs::game_id names; nullopt after saying "arena COMMAND: no
// game N in DB".
[[nodiscard]] std::optional<store::StoredGame> stored_game(store::ResultsStore& store,
                                                           const DbArgs& a,
                                                           const std::string& command,
                                                           std::ostream& err);

}  // namespace arena::cli
