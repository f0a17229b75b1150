// `arena log DB GAME [--bot NAME]`: what the bots of one stored game wrote
// on stderr during it.

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/record/escape.hpp"
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

constexpr const char* kSides[2] = {"first", "second"};

// One bot's stderr under its heading.
void print_stderr(const std::string& name, int side, const std::string& text, std::ostream& out) {
    out << "--- " << record::escape_controls(name) << " (" << kSides[side] << ") ---\n";
    if (text.empty()) {
        out << "(nothing on stderr)\n";
        return;
    }
    out << record::escape_controls(text, true);
    if (text.back() != '\n') out << "\n";
}

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
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        const auto g = store.load_game(a.game_id);
        if (!g) {
            err << "arena log: no game " << a.game_id << " in " << a.db << "\n";
            return kExitUsage;
        }
        const auto& s = g->summary;
        const std::string names[2] = {s.first, s.second};
        if (a.bot && *a.bot != names[0] && *a.bot != names[1]) {
            err << "arena log: game " << s.id << " has no bot '" << record::escape_controls(*a.bot)
                << "'; its bots: " << record::escape_controls(names[0]) << " (first), "
                << record::escape_controls(names[1]) << " (second)\n";
            return kExitUsage;
        }
        out << "game " << s.id << ": " << record::escape_controls(s.first) << " (first) vs "
            << record::escape_controls(s.second) << ", " << g->game << " " << g->params
            << ", result " << s.result << " (" << s.termination << ")\n";
        for (int side = 0; side < 2; ++side) {
            if (a.bot && *a.bot != names[side]) continue;
            out << "\n";
            if (!transcript) {
                print_stderr(names[side], side, g->stderr_logs[side], out);
                continue;
            }
            out << "--- " << record::escape_controls(names[side]) << " (" << kSides[side]
                << "): transcript ---\n";
            if (g->transcripts[side].empty()) {
                out << "(no transcript kept: run with transcript: true or --transcript)\n";
            } else {
                out << record::escape_controls(g->transcripts[side], true);
            }
        }
        out << std::flush;
        return out ? kExitOk : kExitFailure;
    } catch (const std::exception& e) {
        err << "arena log: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace arena::cli
