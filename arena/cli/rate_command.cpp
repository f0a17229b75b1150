// `arena rate GAMES.csv`: the Elo fit on games from any source: the arena's
// own CSV export or white,black,result lines, from a file or standard input.

#include <boost/program_options.hpp>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/rating/games_csv.hpp"
#include "arena/rating/rate_games.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/anchors.hpp"
#include "arena/report/rating_table.hpp"

namespace arena::cli {

int rate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    namespace po = boost::program_options;
    std::string path;
    std::vector<rating::Anchor> anchors;
    bool csv = false, no_advantage = false;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("csv", po::bool_switch(&csv), "print name,elo,error rows")
        ("anchor", po::value<std::vector<std::string>>()->composing()->notifier(
             [&](const std::vector<std::string>& v) { anchors = report::parse_anchors(v); }),
         "NAME=ELO: hold player NAME at rating ELO, the others fitted around it (repeatable; NAME alone means NAME=0); default: mean 0")
        ("no-advantage", po::bool_switch(&no_advantage), "do not fit a first-mover advantage");
    // clang-format on
    CommandLine line{"rate",
                     "usage: arena rate GAMES.csv [--csv] [--anchor NAME=ELO ...]\n\n"
                     "Fits Elo ratings (maximum likelihood, with a first-mover advantage) to\n"
                     "the games in GAMES.csv ('-' reads standard input), given either as\n"
                     "  arena export DB -f csv: a header row naming the columns, of which rate\n"
                     "    reads first, second and result; or\n"
                     "  'white,black,result' lines: white moved first.\n"
                     "A result is 1-0, 0-1 or 1/2-1/2, from the first mover's side.\n\n",
                     opts};
    line.arguments.add_options()("games", po::value<std::string>(&path));
    line.positional.add("games", 1);
    if (const auto done = parse_command_line(line, args, out, err, [&](const po::variables_map&) {
            if (path.empty()) throw std::invalid_argument("missing GAMES.csv");
        }))
        return *done;

    const std::string label = path == "-" ? std::string(rating::kStdinName) : path;
    std::string text;
    try {
        text = rating::read_games_text(path, std::cin);
    } catch (const std::runtime_error& e) {
        err << "arena rate: " << e.what() << "\n";
        return kExitUsage;
    }
    rating::RatedGames rated;
    try {
        rated = rating::rate_games(text, anchors, !no_advantage);
    } catch (const std::exception& e) {
        // The problem may quote the input: a name, a result.
        err << "arena rate: " << label << ": " << record::escape_controls(e.what()) << "\n";
        return kExitUsage;
    }
    report::print_rating_table(out, rated, csv);
    return kExitOk;
}

}  // namespace arena::cli
