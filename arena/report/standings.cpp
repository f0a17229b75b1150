#include "arena/report/standings.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "arena/rating/repeats.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::report {
namespace {

// Past this half-width of its 95 % interval, a first-mover advantage says
// nothing: between equal bots, the first mover's expected score could be
// anything from 24 % to 76 %.
constexpr double kMaxTellingAdvantageError = 200.0;

// The games of the colour-swapped pairs that repeat an earlier pair of the
// same two bots move for move (rating/repeats.hpp), counted by first mover,
// second mover (stored positions) and outcome; and how many pairs. Which
// copy of a repeated pair is kept does not change the counts (the copies
// went the same way), so the games come in schedule order, not by pair.
struct RepeatedPairs {
    std::map<std::tuple<int, int, games::Outcome>, std::int64_t> games;
    std::int64_t pairs = 0;
};

RepeatedPairs repeated_pairs(store::ResultsStore& store, std::int64_t tournament) {
    RepeatedPairs out;
    std::unordered_map<std::int64_t, store::PairedGameRow> open;  // pair index -> its first game
    std::map<std::pair<int, int>, rating::RepeatFilter> meetings;
    for (const auto& g : store.paired_games(tournament)) {
        const auto [it, first_of_pair] = open.try_emplace(g.pair, g);
        if (first_of_pair) continue;
        const store::PairedGameRow other = it->second;
        open.erase(it);
        if (other.first != g.second || other.second != g.first) continue;  // not colour-swapped
        // The meeting's first bot is the one stored first.
        const auto& a_first = other.first < g.first ? other : g;
        const auto& b_first = other.first < g.first ? g : other;
        if (meetings[{a_first.first, a_first.second}].counts(a_first.moves_hash,
                                                             b_first.moves_hash))
            continue;
        ++out.pairs;
        for (const auto* x : {&a_first, &b_first})
            ++out.games[{x->first, x->second, x->outcome}];
    }
    return out;
}

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
    // Repeated pairs only where some game repeats another: none at all in
    // most tournaments, which then need no second read of their games.
    RepeatedPairs repeats;
    if (std::any_of(counts.begin(), counts.end(), [](const auto& c) { return c.duplicates > 0; })) {
        repeats = repeated_pairs(store, tournament.id);
        t.count_repeats = tournament::stored_settings(tournament.spec.config_text).count_repeats;
    }
    t.results.reserve(counts.size());
    for (const auto& c : counts) {
        const int a = position[static_cast<std::size_t>(c.first)];
        const int b = position[static_cast<std::size_t>(c.second)];
        if (a < 0 || b < 0) continue;
        t.games += c.games;
        // Repeated pairs ended normally: their games are in that count.
        const auto set_aside = repeats.games.find({c.first, c.second, c.outcome});
        std::int64_t counted = c.games;
        if (c.termination == record::Termination::kNormal && set_aside != repeats.games.end()) {
            t.repeated_games += set_aside->second;
            if (!t.count_repeats) counted -= set_aside->second;
        }
        const double s = c.outcome == games::Outcome::kWin1   ? 1.0
                         : c.outcome == games::Outcome::kWin2 ? 0.0
                                                              : 0.5;
        if (counted == 0) continue;
        t.results.push_back({a, b, s, counted});
        const int loser = s == 1.0 ? b : s == 0.0 ? a : -1;
        if (c.termination == record::Termination::kNormal) {
            t.decided_on_board += counted;
        } else if (loser >= 0) {
            t.faults[loser][static_cast<std::size_t>(c.termination)] += counted;
        }
        if (t.played.empty()) continue;
        const int k = s == 1.0 ? 0 : s == 0.5 ? 1 : 2;
        t.played[a][b][k] += counted;
        t.played[b][a][2 - k] += counted;
    }
    rating::FitOptions options;
    options.anchors = anchors;
    t.fit = rating::fit_elo(t.names, t.results, options);
    t.summary = rating::summarize_games(t.names, t.results);
    t.order = standings_order(t.fit);
    t.prior_driven.assign(n, false);
    for (std::size_t i = 0; i < n && t.fit.rating_prior; ++i) {
        const auto& r = t.summary[i].total;
        const bool anchored = std::any_of(anchors.begin(), anchors.end(),
                                          [&](const auto& a) { return a.name == t.names[i]; });
        t.prior_driven[i] = !anchored && r.games > 0 && (r.wins == r.games || r.losses == r.games);
    }
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

std::string repeats_text(const Standings& t) {
    if (t.repeated_games == 0) return "";
    const std::int64_t pairs = t.repeated_games / 2;
    std::string text = "repeats: " + std::to_string(pairs) + (pairs == 1 ? " pair (" : " pairs (") +
                       std::to_string(t.repeated_games) + " of " + std::to_string(t.games) +
                       " games) repeat earlier pairs move for move and ";
    text += t.count_repeats
                ? "count, as the\n         config's count_repeats says: the bots are taken as "
                  "non-deterministic"
                : "are set aside:\n         the ratings count each pair once; vary the openings "
                  "(docs/ratings.md)";
    return text;
}

std::string prior_note(const Standings& t) {
    if (std::find(t.prior_driven.begin(), t.prior_driven.end(), true) == t.prior_driven.end())
        return "";
    return std::string(kPriorMark) +
           " won or lost every game: no finite rating fits that, so the figure comes from the "
           "fit's weak\n  prior (docs/ratings.md); read it as above or below every bot it met";
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
