#include "arena/report/head_to_head_text.hpp"

#include <cmath>
#include <cstddef>
#include <iomanip>
#include <map>
#include <sstream>
#include <utility>

#include "arena/record/escape.hpp"
#include "arena/report/anchors.hpp"
#include "arena/report/standings.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::report {
namespace {

// The config's count_repeats (rating/repeats.hpp).
bool counts_repeats(const store::TournamentRow& tournament) {
    return tournament::stored_settings(tournament.spec.config_text).count_repeats;
}

// The head-to-head block of a against b from their games (a's side).
void print_pair(std::ostream& out, const std::string& a, const std::string& b,
                const std::vector<rating::PairedGame>& games, bool count_repeats) {
    const auto counts = rating::count_head_to_head(games, count_repeats);
    const std::string shown_a = record::escape_controls(a), shown_b = record::escape_controls(b);
    out << shown_a << " vs " << shown_b << " (from " << shown_a
        << "'s side): " << counts.games.games() << " games, " << counts.pairs.pairs()
        << " colour-swapped pair" << (counts.pairs.pairs() == 1 ? "" : "s") << "\n";
    if (counts.games.games() == 0) {
        out << shown_a << " and " << shown_b << " played no games against each other\n";
        return;
    }
    if (counts.repeated_pairs > 0) {
        out << counts.repeated_pairs << " pair" << (counts.repeated_pairs == 1 ? "" : "s") << " ("
            << 2 * counts.repeated_pairs
            << " games) set aside: each repeated an earlier pair move for move "
               "(docs/ratings.md)\n";
    }
    if (counts.incomplete_pairs > 0) {
        out << counts.incomplete_pairs << " incomplete pair"
            << (counts.incomplete_pairs == 1 ? "" : "s") << " (" << counts.unpaired_games
            << (counts.unpaired_games == 1 ? " game" : " games")
            << ") left out of the pair statistics\n";
    }
    if (counts.pairs.pairs() > 0) {
        print_head_to_head(out, rating::head_to_head(counts.pairs), counts.paired_games,
                           counts.pairs);
        const auto all = rating::head_to_head(counts.games);
        out << "All games (trinomial): Elo: " << fixed_decimals(all.elo, 2) << " +/- "
            << fixed_decimals(all.elo_error, 2) << ", nElo: " << fixed_decimals(all.nelo, 2)
            << " +/- " << fixed_decimals(all.nelo_error, 2) << "\n";
    } else {
        out << "no complete colour-swapped pair: from the games (trinomial)\n";
        print_head_to_head(out, rating::head_to_head(counts.games), counts.games, std::nullopt);
    }
}

}  // namespace

std::string fixed_decimals(double x, int digits) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << x;
    std::string text = s.str();
    if (text.find_first_not_of("-0.") == std::string::npos && text.front() == '-') text.erase(0, 1);
    return text;
}

void print_head_to_head(std::ostream& out, const rating::HeadToHead& h,
                        const std::optional<rating::Trinomial>& games,
                        const std::optional<rating::Pentanomial>& pairs) {
    out << "Elo: " << fixed_decimals(h.elo, 2) << " +/- " << fixed_decimals(h.elo_error, 2)
        << ", nElo: " << fixed_decimals(h.nelo, 2) << " +/- " << fixed_decimals(h.nelo_error, 2);
    // A score of 100 % or 0 % has no finite Elo: say so, not just "inf".
    if (std::isinf(h.elo)) {
        out << (h.elo > 0 ? " (every game won" : " (every game lost")
            << ": no finite Elo until a draw or a " << (h.elo > 0 ? "loss" : "win") << ")";
    } else if (std::isinf(h.elo_error)) {
        // The score's interval reaches 0 % or 100 %, whose Elo is infinite.
        out << " (too few games for a finite Elo interval)";
    }
    out << "\n";
    out << "LOS: " << fixed_decimals(100.0 * h.los, 2)
        << " %, DrawRatio: " << fixed_decimals(100.0 * h.draw_ratio, 2) << " %";
    if (h.pentanomial) out << ", PairsRatio: " << fixed_decimals(h.pairs_ratio, 2);
    out << "\n";
    if (games) {
        out << "Games: " << games->games() << ", Wins: " << games->wins
            << ", Losses: " << games->losses << ", Draws: " << games->draws
            << ", Points: " << fixed_decimals(games->points(), 1) << " ("
            << fixed_decimals(100.0 * games->points() / static_cast<double>(games->games()), 2)
            << " %)\n";
    } else if (pairs) {
        // Pair counts alone do not tell how the DD+WL pairs split into games.
        out << "Games: " << 2 * pairs->pairs() << ", Points: " << fixed_decimals(pairs->points(), 1)
            << " (" << fixed_decimals(100.0 * h.score, 2) << " %)\n";
    }
    if (pairs) {
        const auto& b = pairs->bins;
        out << "Ptnml(0-2): [" << b[0] << ", " << b[1] << ", " << b[2] << ", " << b[3] << ", "
            << b[4] << "]\n";
    }
}

std::vector<rating::PairedGame> head_to_head_games(store::ResultsStore& store,
                                                   const store::TournamentRow& tournament,
                                                   const std::string& a, const std::string& b) {
    std::vector<rating::PairedGame> games;
    for (const auto& g : store.games(tournament.id, a)) {
        const bool a_first = g.first == a;
        if ((a_first ? g.second : g.first) != b) continue;
        if (auto paired = paired_game(g, a_first)) games.push_back(*paired);
    }
    return games;
}

std::optional<rating::PairedGame> paired_game(const store::GameSummary& game, bool a_first) {
    const auto first_score = store::first_mover_score(game.result);
    if (!first_score) return std::nullopt;
    return rating::PairedGame{game.slot.pair, a_first, a_first ? *first_score : 1.0 - *first_score,
                              store::comparable_hash(game)};
}

void report_head_to_head(store::ResultsStore& store, const store::TournamentRow& tournament,
                         const std::string& a, const std::string& b, std::ostream& out) {
    print_pair(out, a, b, head_to_head_games(store, tournament, a, b), counts_repeats(tournament));
}

void report_pairs(store::ResultsStore& store, const store::TournamentRow& tournament,
                  std::ostream& out, const std::vector<rating::Anchor>& anchors, bool active_only) {
    const auto t = compute_standings(store, tournament, anchors, active_only);
    const auto n = t.names.size();
    const auto& order = t.order;
    std::vector<std::size_t> rank(n);
    for (std::size_t r = 0; r < n; ++r)
        rank[order[r]] = r;
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < n; ++i)
        index.emplace(t.names[i], i);
    // Every game once, from the side of the higher-ranked of its two bots.
    std::map<std::pair<std::size_t, std::size_t>, std::vector<rating::PairedGame>> by_pair;
    for (const auto& g : store.games(tournament.id)) {
        const auto f = index.find(g.first), s = index.find(g.second);
        if (f == index.end() || s == index.end()) continue;
        const bool first_higher = rank[f->second] < rank[s->second];
        const auto key = first_higher ? std::pair(rank[f->second], rank[s->second])
                                      : std::pair(rank[s->second], rank[f->second]);
        if (auto paired = paired_game(g, first_higher)) by_pair[key].push_back(*paired);
    }
    out << tournament.spec.name << ": " << t.games << " of " << tournament.spec.total_games
        << " games, " << tournament.spec.game << "; " << by_pair.size() << " pair"
        << (by_pair.size() == 1 ? "" : "s") << " of bots that met, in the standings' order ("
        << scale_text(anchors) << ")\n";
    const bool count_repeats = counts_repeats(tournament);
    for (const auto& [ranks, games] : by_pair) {
        out << "\n";
        print_pair(out, t.names[order[ranks.first]], t.names[order[ranks.second]], games,
                   count_repeats);
    }
}

}  // namespace arena::report
