// `arena rate GAMES.csv`: the Elo fit on games from any source.

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/rating/elo.hpp"

namespace arena::cli {

int rate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    namespace po = boost::program_options;
    std::string path, anchor;
    bool csv = false, no_advantage = false;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("csv", po::bool_switch(&csv), "print name,elo,error rows")
        ("anchor", po::value<std::string>(&anchor), "rate relative to this player (at 0) instead of the mean")
        ("no-advantage", po::bool_switch(&no_advantage), "do not fit a first-mover advantage");
    // clang-format on
    po::options_description all;
    all.add(opts).add_options()("games", po::value<std::string>(&path));
    po::positional_options_description positional;
    positional.add("games", 1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
        if (vm.count("help")) {
            out << "usage: arena rate GAMES.csv [--csv] [--anchor NAME]\n\n"
                   "Fits Elo ratings (maximum likelihood, with a first-mover advantage) to\n"
                   "games given as 'white,black,result' lines: white moved first; result is\n"
                   "1-0, 0-1 or 1/2-1/2.\n\n"
                << opts;
            return kExitOk;
        }
        po::notify(vm);
        if (path.empty()) throw std::invalid_argument("missing GAMES.csv");
    } catch (const std::exception& e) {
        err << "arena rate: " << e.what() << "\n(arena rate --help for usage)\n";
        return kExitUsage;
    }

    // An ifstream opens a directory and then reads nothing: ask first.
    std::error_code ec;
    errno = std::filesystem::is_directory(path, ec) ? EISDIR : 0;
    std::ifstream in;
    if (errno == 0) in.open(path);
    if (!in.is_open()) {
        const int error = errno;
        err << "arena rate: " << path << ": cannot read"
            << (error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string())
            << "\n";
        return kExitUsage;
    }
    std::vector<std::string> names;
    std::vector<rating::GameResult> games;
    rating::EloFit fit;
    try {
        games = rating::read_games_csv(in, names);
        if (games.empty()) throw std::invalid_argument("no games");
        if (!anchor.empty() && std::find(names.begin(), names.end(), anchor) == names.end())
            throw std::invalid_argument("no player '" + anchor + "' to anchor on");
        rating::FitOptions options;
        if (!anchor.empty()) options.anchor = anchor;
        if (no_advantage) options.fixed_advantage = 0.0;
        fit = rating::fit_elo(names, games, options);
    } catch (const std::exception& e) {
        err << "arena rate: " << path << ": " << e.what() << "\n";
        return kExitUsage;
    }
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](auto a, auto b) { return fit.ratings[a] > fit.ratings[b]; });
    out << std::fixed << std::setprecision(1);
    if (csv) {
        out << "name,elo,error\n";
        for (auto i : order)
            out << names[i] << "," << fit.ratings[i] << "," << fit.errors[i] << "\n";
        return kExitOk;
    }
    const auto summary = rating::summarize_games(names, games);
    std::size_t width = 6;
    for (const auto& n : names)
        width = std::max(width, n.size());
    out << std::left << std::setw(static_cast<int>(width)) << "player" << std::right << std::setw(9)
        << "elo" << std::setw(8) << "±95%" << std::setw(8) << "games" << std::setw(8) << "score"
        << "\n";
    for (auto i : order) {
        out << std::left << std::setw(static_cast<int>(width)) << names[i] << std::right
            << std::setw(9) << fit.ratings[i] << std::setw(7) << fit.errors[i] << std::setw(8)
            << summary[i].total.games << std::setw(7) << 100.0 * summary[i].total.score() << "%\n";
    }
    out << "first-mover advantage: " << fit.advantage << " ± " << fit.advantage_error << " Elo ("
        << games.size() << " games)\n";
    return kExitOk;
}

}  // namespace arena::cli
