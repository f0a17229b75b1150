#include "arena/report/rating_table.hpp"

#include <algorithm>
#include <iomanip>
#include <numeric>
#include <string>
#include <vector>

#include "arena/record/escape.hpp"

namespace arena::report {

void print_rating_table(std::ostream& out, const rating::RatedGames& rated, bool csv) {
    const rating::EloFit& fit = rated.fit;
    std::vector<std::string> names;
    for (const auto& name : rated.names)
        names.push_back(record::escape_controls(name));
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](auto a, auto b) { return fit.ratings[a] > fit.ratings[b]; });
    out << std::fixed << std::setprecision(1);
    if (csv) {
        out << "name,elo,error\n";
        for (auto i : order)
            out << names[i] << "," << fit.ratings[i] << "," << fit.errors[i] << "\n";
        return;
    }
    const auto summary = rating::summarize_games(rated.names, rated.games);
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
        << rated.games.size() << " games)\n";
}

}  // namespace arena::report
