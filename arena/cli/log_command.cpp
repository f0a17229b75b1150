// `arena log DB GAME [--bot NAME]`: what the bots of one stored game wrote
// on stderr during it.

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/report/game_text.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kUsage =
    "usage: arena log DB GAME [--bot NAME] [--transcript]\n\n"
    "Prints what each bot wrote on stderr during game GAME (its id, as arena games\n"
    "lists it), under a heading with the bot's name and side. Control characters\n"
    "other than newlines and tabs are shown as \\xNN.\n\n"
    "--transcript prints instead every line that passed between the arena and the\n"
    "bot, with the microseconds since the game started: '->' to the bot, '<-' from\n"
    "it. Transcripts are kept for tournaments run with `transcript: true` (or\n"
    "arena run/match --transcript).\n\n";

}  // namespace

int log_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    bool transcript = false;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("bot", po::value<std::string>(), "only this bot's stderr")
        ("transcript", po::bool_switch(&transcript), "the lines between the arena and the bots instead of stderr");
    // clang-format on
    if (auto code = parse_db_args("log", kUsage, args, opts, true, a, out, err)) return *code;
    return with_database(a, "log", err, [&](store::ResultsStore& store) {
        const auto g = stored_game(store, a, "log", err);
        if (!g) return kExitUsage;
        if (const auto no = a.bot ? report::missing_player(*g, *a.bot) : ""; !no.empty()) {
            err << "arena log: " << no << "\n";
            return kExitUsage;
        }
        report::print_game_log(out, *g, a.bot, transcript);
        out << std::flush;
        return out ? kExitOk : kExitFailure;
    });
}

}  // namespace arena::cli
