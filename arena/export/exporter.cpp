#include "arena/export/exporter.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace arena::exporting {
namespace {

namespace fs = std::filesystem;

// Writes `text` to `path`; the problem, naming the file, when that fails.
std::string write_file(const fs::path& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (file) file.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (file) file.close();
    if (!file) return path.string() + ": cannot write: " + std::strerror(errno);
    return "";
}

}  // namespace

Chosen choose_tournaments(const std::vector<store::TournamentRow>& all,
                          const std::optional<std::string>& name, ExportFormat format,
                          const std::string& db) {
    Chosen chosen;
    if (!name) {
        chosen.tournaments = all;
    } else {
        for (const auto& t : all)
            if (t.spec.name == *name) chosen.tournaments.push_back(t);
        if (chosen.tournaments.empty()) {
            chosen.problem = "no tournament '" + *name + "' in " + db;
            if (all.empty()) chosen.problem += " (it holds none)";
            for (std::size_t i = 0; i < all.size(); ++i)
                chosen.problem += (i == 0 ? "; it holds: " : ", ") + all[i].spec.name;
            return chosen;
        }
    }
    if (chosen.tournaments.empty()) {
        chosen.problem = "no tournament in " + db;
        return chosen;
    }
    const auto game = required_game(format);
    for (const auto& t : chosen.tournaments) {
        if (game.empty() || t.spec.game == game) continue;
        chosen.problem =
            "tournament '" + t.spec.name + "' in " + db + " is " + t.spec.game + "; --format " +
            std::string(to_string(format)) + " holds only " + std::string(game) +
            (chosen.tournaments.size() > 1 ? " (choose a tournament with --tournament)" : "");
        return chosen;
    }
    return chosen;
}

Exported export_games(store::ResultsStore& store,
                      const std::vector<store::TournamentRow>& tournaments, ExportFormat format,
                      bool file_per_game) {
    Exported exported;
    exported.file_per_game = file_per_game;
    exported.text = format_header(format);
    bool first = true;
    for (const auto& t : tournaments) {
        for (const auto& summary : store.games(t.id)) {
            const auto game = store.load_game(summary.id);
            if (!game) continue;  // deleted meanwhile
            auto piece = format_game(format, t.spec.name, *game);
            if (file_per_game) {
                exported.files.emplace_back(psq_file_name(t.spec.name, summary), std::move(piece));
                continue;
            }
            // Piskvork reads one game a file; on one stream a blank line
            // separates them.
            if (format == ExportFormat::kPsq && !first) exported.text += '\n';
            exported.text += piece;
            first = false;
        }
    }
    return exported;
}

std::string write_export(const Exported& exported, const std::filesystem::path& output) {
    if (!exported.file_per_game) return write_file(output, exported.text);
    std::error_code ec, ignored;
    fs::create_directories(output, ec);
    if (!fs::is_directory(output, ignored)) {
        return output.string() + ": " +
               (ec ? "cannot create the directory: " + ec.message() : "not a directory");
    }
    for (const auto& [name, content] : exported.files)
        if (auto problem = write_file(output / name, content); !problem.empty()) return problem;
    return "";
}

}  // namespace arena::exporting
