// `arena export DB --format FORMAT [--tournament NAME] [-o FILE]`: the stored
// games in formats other tools read (arena/export/formats.hpp, docs/export.md).

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/export/formats.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {
namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;
using exporting::ExportError;
using exporting::ExportFormat;

constexpr std::string_view kUsage =
    "usage: arena export DB --format FORMAT [--tournament NAME] [-o FILE]\n\n"
    "formats: pgn, csv, moves-csv (any game), connect4, psq (gomoku), ggf (reversi);\n"
    "see docs/export.md. Without --tournament, every tournament in DB is exported.\n\n";

// Writes `text` to `path`; the problem, naming the file, when that fails.
std::optional<std::string> write_file(const fs::path& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (file) file.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (file) file.close();
    if (!file) return path.string() + ": cannot write: " + std::strerror(errno);
    return std::nullopt;
}

}  // namespace

int export_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    std::string format_name, output;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("format,f", po::value<std::string>(&format_name)->required()->notifier(
             [](const std::string& name) {
                 if (!exporting::parse_export_format(name))
                     throw std::invalid_argument("unknown format '" + name + "' (formats: " +
                                                 exporting::export_format_names() + ")");
             }),
         "pgn, csv, moves-csv, connect4, psq or ggf")
        ("tournament,t", po::value<std::string>(),
         "only this tournament (default: every tournament in DB)")
        ("output,o", po::value<std::string>(&output),
         "write to this file instead of stdout; for psq, a directory (created if missing) "
         "that gets one file per game");
    // clang-format on
    if (auto code = parse_db_args("export", kUsage, args, opts, false, a, out, err)) return *code;
    const auto format = *exporting::parse_export_format(format_name);
    const bool psq_files = format == ExportFormat::kPsq && !output.empty();

    // Everything is formatted before anything is written, so a game the
    // format cannot hold leaves no partial output behind.
    std::string text;
    std::vector<std::pair<std::string, std::string>> files;  // name, content
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        const auto all = store.tournaments();
        std::vector<store::TournamentRow> chosen;
        if (a.tournament) {
            for (const auto& t : all)
                if (t.spec.name == *a.tournament) chosen.push_back(t);
            if (chosen.empty()) {
                err << "arena export: no tournament '" << *a.tournament << "' in " << a.db;
                if (all.empty()) err << " (it holds none)";
                for (std::size_t i = 0; i < all.size(); ++i)
                    err << (i == 0 ? "; it holds: " : ", ") << all[i].spec.name;
                err << "\n";
                return kExitUsage;
            }
        } else {
            chosen = all;
        }
        if (chosen.empty()) {
            err << "arena export: no tournament in " << a.db << "\n";
            return kExitUsage;
        }
        if (const auto game = exporting::required_game(format); !game.empty()) {
            for (const auto& t : chosen) {
                if (t.spec.game == game) continue;
                err << "arena export: tournament '" << t.spec.name << "' in " << a.db << " is "
                    << t.spec.game << "; --format " << exporting::to_string(format)
                    << " holds only " << game
                    << (chosen.size() > 1 ? " (choose a tournament with --tournament)" : "")
                    << "\n";
                return kExitUsage;
            }
        }
        text = exporting::format_header(format);
        bool first = true;
        for (const auto& t : chosen) {
            for (const auto& summary : store.games(t.id)) {
                const auto game = store.load_game(summary.id);
                if (!game) continue;  // deleted meanwhile
                auto piece = exporting::format_game(format, t.spec.name, *game);
                if (psq_files) {
                    files.emplace_back(exporting::psq_file_name(t.spec.name, summary),
                                       std::move(piece));
                    continue;
                }
                // Piskvork reads one game a file; on one stream a blank line
                // separates them.
                if (format == ExportFormat::kPsq && !first) text += '\n';
                text += piece;
                first = false;
            }
        }
    } catch (const ExportError& e) {
        err << "arena export: " << a.db << ": " << e.what() << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        err << "arena export: " << e.what() << "\n";
        return kExitFailure;
    }

    if (output.empty()) {
        out << text << std::flush;
        return out ? kExitOk : kExitFailure;
    }
    if (!psq_files) {
        if (const auto problem = write_file(output, text)) {
            err << "arena export: " << *problem << "\n";
            return kExitFailure;
        }
        return kExitOk;
    }
    std::error_code ec, ignored;
    fs::create_directories(output, ec);
    if (!fs::is_directory(output, ignored)) {
        err << "arena export: " << output << ": "
            << (ec ? "cannot create the directory: " + ec.message() : "not a directory") << "\n";
        return kExitFailure;
    }
    for (const auto& [name, content] : files) {
        if (const auto problem = write_file(fs::path(output) / name, content)) {
            err << "arena export: " << *problem << "\n";
            return kExitFailure;
        }
    }
    return kExitOk;
}

}  // namespace arena::cli
