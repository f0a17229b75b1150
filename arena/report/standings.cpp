#include "arena/report/standings.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace arena::report {
namespace {

// Past this half-width of its 95 % interval, a first-mover advantage says
// nothing: between equal bots, the first mover's expected score could be
// anything from 24 % to 76 %.
constexpr double kMaxTellingAdvantageError = 200.0;

}  // namespace

Standings compute_standings(store::ResultsStore& store, const store::TournamentRow& tournament,
                            const std::vector<rating::Anchor>& anchors, bool active_only,
                            std::size_t crosstable_limit) {
    Standings t;
    std::vector<int> position;  // stored position -> position in t.names; -1: left out
    for (const auto& b : store.bots(tournament.id)) {
        if (active_only && b.retired) {
            position.push_back(-1);
            continue;
        }
        position.push_back(static_cast<int>(t.names.size()));
        t.names.push_back(b.name);
    }
    const auto n = t.names.size();
    t.faults.resize(n);
    if (n <= crosstable_limit) t.played.assign(n, std::vector<std::array<std::int64_t, 3>>(n));
    // Counted by pair, result and ending: the cost does not grow with the games.
    const auto counts = store.result_counts(tournament.id);
    t.results.reserve(counts.size());
    for (const auto& c : counts) {
        const int a = position[static_cast<std::size_t>(c.first)];
        const int b = position[static_cast<std::size_t>(c.second)];
        if (a < 0 || b < 0) continue;
        t.duplicates += c.duplicates;
        const double s = c.outcome == games::Outcome::kWin1   ? 1.0
                         : c.outcome == games::Outcome::kWin2 ? 0.0
                                                              : 0.5;
        t.results.push_back({a, b, s, c.games});
        t.games += c.games;
        const int loser = s == 1.0 ? b : s == 0.0 ? a : -1;
        if (c.termination == record::Termination::kNormal) {
            t.decided_on_board += c.games;
        } else if (loser >= 0) {
            t.faults[loser][static_cast<std::size_t>(c.termination)] += c.games;
        }
        if (t.played.empty()) continue;
        const int k = s == 1.0 ? 0 : s == 0.5 ? 1 : 2;
        t.played[a][b][k] += c.games;
        t.played[b][a][2 - k] += c.games;
    }
    rating::FitOptions options;
    options.anchors = anchors;
    t.fit = rating::fit_elo(t.names, t.results, options);
    t.summary = rating::summarize_games(t.names, t.results);
    t.order = standings_order(t.fit);
    return t;
}

std::vector<std::size_t> standings_order(const rating::EloFit& fit) {
    std::vector<std::size_t> order(fit.ratings.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](auto x, auto y) { return fit.ratings[x] > fit.ratings[y]; });
    return order;
}

double shown_elo(double elo) {
    return std::abs(elo) <= 0.5 ? 0.0 : elo;
}

std::string percent_text(double fraction) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << 100.0 * fraction << "%";
    return s.str();
}

std::string faults_text(const FaultCounts& losses) {
    std::int64_t total = 0;
    std::string kinds;
    for (const auto t : record::kAllTerminations) {
        const auto n = losses[static_cast<std::size_t>(t)];
        if (t == record::Termination::kNormal || n == 0) continue;
        total += n;
        if (!kinds.empty()) kinds += ", ";
        kinds += record::to_string(t);
        kinds += ' ';
        kinds += std::to_string(n);
    }
    return total == 0 ? "0" : std::to_string(total) + " (" + kinds + ")";
}

std::string advantage_text(const rating::EloFit& fit, std::int64_t games,
                           std::int64_t decided_on_board) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(0);
    if (games == 0) {
        s << "no games yet";
    } else if (decided_on_board == 0) {
        s << "unknown: no game was decided on the board";
    } else if (fit.advantage_error > kMaxTellingAdvantageError) {
        s << "too few games to tell (the 95 % interval is ±" << fit.advantage_error << " Elo)";
    } else {
        s << shown_elo(fit.advantage) << " ± " << fit.advantage_error << " Elo";
    }
    return s.str();
}

}  // namespace arena::report
