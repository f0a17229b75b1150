#pragma once
// `arena export` as a whole: which tournaments of a database it writes, all
// their games formatted before anything is written (so that a game the
// format cannot hold leaves no partial output behind), and the writing to a
// file, or for psq to a directory of one file per game.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arena/export/formats.hpp"
#include "arena/store/results_store.hpp"

namespace arena::exporting {

// The tournaments of `all` to export: the one called `name`, else every
// one. `problem` (for after "arena export: ") says why there is none to
// export, or names one of a game the format cannot hold; it names the
// database `db`.
struct Chosen {
    std::vector<store::TournamentRow> tournaments;
    std::string problem;
};
[[nodiscard]] Chosen choose_tournaments(const std::vector<store::TournamentRow>& all,
                                        const std::optional<std::string>& name, ExportFormat format,
                                        const std::string& db);

// Every stored game of `tournaments`, in order: one text (a CSV header
// first; psq records separated by a blank line), or with `file_per_game`
// (psq into a directory) a file name and its content per game. Throws
// ExportError for a game the format cannot hold.
struct Exported {
    bool file_per_game = false;
    std::string text;
    std::vector<std::pair<std::string, std::string>> files;  // name, content
};
[[nodiscard]] Exported export_games(store::ResultsStore& store,
                                    const std::vector<store::TournamentRow>& tournaments,
                                    ExportFormat format, bool file_per_game);

// Writes the text to the file `output`, or the files into the directory
// `output` (created when missing). "" when done, else the problem, naming
// the file ("x.csv: cannot write: Permission denied").
[[nodiscard]] std::string write_export(const Exported& exported,
                                       const std::filesystem::path& output);

}  // namespace arena::exporting
