// `arena export DB --format FORMAT [--tournament NAME] [-o FILE]`: the stored
// games in formats other tools read (arena/export/, docs/export.md).

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/export/exporter.hpp"
#include "arena/export/formats.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kUsage =
    "usage: arena export DB --format FORMAT [--tournament NAME] [-o FILE]\n\n"
    "formats: pgn, csv, moves-csv (any game), connect4, psq (gomoku), ggf (reversi);\n"
    "see docs/export.md. Without --tournament, every tournament in DB is exported.\n\n";

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
    const bool psq_files = format == exporting::ExportFormat::kPsq && !output.empty();
    exporting::Exported exported;
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        const auto chosen =
            exporting::choose_tournaments(store.tournaments(), a.tournament, format, a.db);
        if (!chosen.problem.empty()) {
            err << "arena export: " << chosen.problem << "\n";
            return kExitUsage;
        }
        exported = exporting::export_games(store, chosen.tournaments, format, psq_files);
    } catch (const exporting::ExportError& e) {
        err << "arena export: " << a.db << ": " << e.what() << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        err << "arena export: " << e.what() << "\n";
        return kExitFailure;
    }
    if (output.empty()) {
        out << exported.text << std::flush;
        return out ? kExitOk : kExitFailure;
    }
    if (const auto problem = exporting::write_export(exported, output); !problem.empty()) {
        err << "arena export: " << problem << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace arena::cli
