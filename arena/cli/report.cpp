#include "arena/cli/report.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <iterator>
#include <map>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/standings.hpp"
#include "arena/tournament/scoring.hpp"

namespace arena::cli {
namespace {

// Ratings the config and --anchor accept: the config's own bounds.
constexpr double kMaxAnchorElo = 100'000.0;

// A rating as written, or nullopt: a whole number or a decimal, finite and
// within ±kMaxAnchorElo.
std::optional<double> parse_elo(std::string_view text) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ptr != end || ec != std::errc() || !std::isfinite(value) ||
        std::abs(value) > kMaxAnchorElo)
        return std::nullopt;
    return value;
}

// The shortest text that reads back as `elo`: "1500", "-12.5".
std::string elo_text(double elo) {
    std::array<char, 32> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), elo);
    if (ec != std::errc()) return std::to_string(elo);
    const std::string text(buffer.data(), end);
    return text == "-0" ? "0" : text;
}

void reject_repeats(const std::vector<rating::Anchor>& anchors, const std::string& where) {
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (anchors[i].name == anchors[j].name) {
                throw std::invalid_argument(where + "bot '" +
                                            record::escape_controls(anchors[i].name) +
                                            "' is anchored twice");
            }
        }
    }
}

// The head-to-head block of a against b from their games (a's side).
void print_pair(std::ostream& out, const std::string& a, const std::string& b,
                const std::vector<rating::PairedGame>& games);

}  // namespace

rating::Anchor parse_anchor(const std::string& text) {
    const auto where = [&] { return "--anchor '" + record::escape_controls(text) + "': "; };
    const auto eq = text.rfind('=');
    rating::Anchor anchor{text.substr(0, eq), 0.0};
    if (eq != std::string::npos) {
        const auto elo = parse_elo(std::string_view(text).substr(eq + 1));
        if (!elo) {
            throw std::invalid_argument(
                where() +
                "the rating after '=' must be a number from -100000 to 100000 "
                "(BOT=ELO, e.g. --anchor random=0)");
        }
        anchor.elo = *elo;
    }
    if (anchor.name.empty()) throw std::invalid_argument(where() + "no bot name before '='");
    return anchor;
}

std::vector<rating::Anchor> parse_anchors(const std::vector<std::string>& texts) {
    std::vector<rating::Anchor> anchors;
    for (const auto& text : texts)
        anchors.push_back(parse_anchor(text));
    reject_repeats(anchors, "--anchor: ");
    return anchors;
}

std::vector<rating::Anchor> anchors_of_config_text(const std::string& text) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception&) {
        return {};
    }
    if (!root.IsMap()) return {};
    const YAML::Node node = root["anchors"];
    if (!node.IsDefined() || node.IsNull()) return {};
    const std::string where = "the config's 'anchors': ";
    if (!node.IsMap()) throw std::invalid_argument(where + "not a map of bot: rating");
    std::vector<rating::Anchor> anchors;
    for (const auto& entry : node) {
        const std::string name = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        const auto elo = entry.second.IsScalar() ? parse_elo(entry.second.Scalar()) : std::nullopt;
        if (name.empty()) throw std::invalid_argument(where + "an entry without a bot name");
        if (!elo) {
            throw std::invalid_argument(where + "the rating of '" + record::escape_controls(name) +
                                        "' is not a number from -100000 to 100000");
        }
        anchors.push_back({name, *elo});
    }
    reject_repeats(anchors, where);
    return anchors;
}

std::string scale_text(const std::vector<rating::Anchor>& anchors,
                       const std::vector<std::string>& without_games) {
    if (anchors.empty()) return "ratings: mean 0";
    std::string text = "ratings anchored:";
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        const auto& a = anchors[i];
        text += (i == 0 ? " " : ", ") + record::escape_controls(a.name) + " " + elo_text(a.elo);
        if (std::find(without_games.begin(), without_games.end(), a.name) != without_games.end())
            text += " (no games)";
    }
    return text;
}

std::string fixed_decimals(double x, int digits) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << x;
    std::string text = s.str();
    if (text.find_first_not_of("-0.") == std::string::npos && text.front() == '-') text.erase(0, 1);
    return text;
}

void report_standings(store::ResultsStore& store, const store::TournamentRow& tournament,
                      std::ostream& out, const std::vector<rating::Anchor>& anchors,
                      bool active_only) {
    const auto t = report::compute_standings(store, tournament, anchors, active_only);
    const auto& names = t.names;
    const auto n = names.size();
    const auto& faults = t.faults;
    const std::int64_t games = t.games, duplicates = t.duplicates;
    const bool crosstable = !t.played.empty() && n > 1;
    const auto& fit = t.fit;
    const auto& summary = t.summary;
    std::vector<store::RatingRow> rows;
    for (std::size_t i = 0; i < n; ++i)
        rows.push_back({names[i], fit.ratings[i], fit.errors[i]});
    // The stored ratings are those of every game, as `arena run` leaves
    // them; a read-only store (`arena standings`) computes and prints only.
    if (!active_only && !store.read_only()) store.save_ratings(tournament.id, rows);

    const auto& order = t.order;

    // Course-style points when the tournament's config asks for them.
    const auto scoring = tournament::scoring_of_config_text(tournament.spec.config_text);
    const auto points = [&](const rating::SideRecord& r) {
        return r.wins * scoring->win + r.draws * scoring->draw + r.losses * scoring->loss;
    };
    int width = 3;
    for (const auto& name : names)
        width = std::max(width, static_cast<int>(name.size()));

    out << "\n"
        << tournament.spec.name << ": " << games << " of " << tournament.spec.total_games
        << " games, " << tournament.spec.game;
    if (active_only) out << ", the games between bots that still play";
    out << "\n";
    std::vector<std::string> idle;
    for (std::size_t i = 0; i < n; ++i)
        if (summary[i].total.games == 0) idle.push_back(names[i]);
    out << scale_text(anchors, idle) << "\n";
    out << std::right << std::setw(3) << "#"
        << "  " << std::left << std::setw(width) << "bot" << std::right << std::setw(7) << "elo"
        << std::setw(6) << "±95%" << std::setw(7) << "games" << std::setw(6) << "W" << std::setw(6)
        << "D" << std::setw(6) << "L" << std::setw(8) << "score";
    if (scoring) out << std::setw(8) << "points";
    out << std::setw(8) << "win%" << std::setw(8) << "first" << std::setw(8) << "second"
        << std::setw(6) << "LOS"
        << "  faults\n";
    for (std::size_t rank = 0; rank < n; ++rank) {
        const auto i = order[rank];
        const auto& s = summary[i];
        const double win_rate =
            s.total.games ? static_cast<double>(s.total.wins) / static_cast<double>(s.total.games)
                          : 0.0;
        out << std::right << std::setw(3) << rank + 1 << "  " << std::left << std::setw(width)
            << names[i] << std::right << std::fixed << std::setprecision(0) << std::setw(7)
            << report::shown_elo(fit.ratings[i]) << std::setw(5) << fit.errors[i] << std::setw(7)
            << s.total.games << std::setw(6) << s.total.wins << std::setw(6) << s.total.draws
            << std::setw(6) << s.total.losses << std::setw(8)
            << report::percent_text(s.total.score());
        if (scoring) out << std::setw(8) << points(s.total);
        out << std::setw(8) << report::percent_text(win_rate) << std::setw(8)
            << report::percent_text(s.as_first.score()) << std::setw(8)
            << report::percent_text(s.as_second.score());
        // Likelihood that this bot is stronger than the next one down.
        if (rank + 1 < n) {
            out << std::setw(6) << std::setprecision(2) << fit.los(i, order[rank + 1]);
        } else {
            out << std::setw(6) << "";
        }
        out << "  " << report::faults_text(faults[i]) << "\n";
    }
    out << "first-mover advantage: " << report::advantage_text(fit, games, t.decided_on_board)
        << "\n";
    if (duplicates > 0) {
        out << "duplicates: " << duplicates << " of " << games
            << " games repeat an earlier game move for move; the ratings count them\n"
               "            as independent games: vary the openings "
               "(docs/config.md#openings)\n";
    }
    if (scoring) {
        out << "points: " << scoring->win << " a win, " << scoring->draw << " a draw, "
            << scoring->loss << " a loss (the config's scoring)\n";
    }
    if (!active_only) {
        std::string retired;
        for (const auto& b : store.bots(tournament.id))
            if (b.retired)
                retired += (retired.empty() ? "" : ", ") + record::escape_controls(b.name);
        if (!retired.empty()) {
            out << "retired: " << retired
                << " (play no more; arena standings --active leaves them out)\n";
        }
    }

    if (crosstable) {
        out << "\ncrosstable (wins-draws-losses of the row bot against the column bot)\n"
            << std::left << std::setw(width) << "";
        for (auto j : order)
            out << "  " << std::setw(std::max<int>(10, width)) << names[j];
        out << "\n";
        for (auto i : order) {
            out << std::left << std::setw(width) << names[i];
            for (auto j : order) {
                std::string cell = "-";
                if (i != j) {
                    const auto& c = t.played[i][j];
                    cell = std::to_string(c[0]) + "-" + std::to_string(c[1]) + "-" +
                           std::to_string(c[2]);
                }
                out << "  " << std::setw(std::max<int>(10, width)) << cell;
            }
            out << "\n";
        }
    }
    out << std::right;
    // Two bots: their difference with its interval, from the pairs.
    if (n == 2 && games > 0) {
        out << "\n";
        report_head_to_head(store, tournament, names[order[0]], names[order[1]], out);
    }
}

void report_pairs(store::ResultsStore& store, const store::TournamentRow& tournament,
                  std::ostream& out, const std::vector<rating::Anchor>& anchors, bool active_only) {
    const auto t = report::compute_standings(store, tournament, anchors, active_only);
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
        const auto scored = store::first_mover_score(g.result);
        if (!scored) continue;
        const double first_score = *scored;
        const auto f = index.find(g.first), s = index.find(g.second);
        if (f == index.end() || s == index.end()) continue;
        const bool first_higher = rank[f->second] < rank[s->second];
        const auto key = first_higher ? std::pair(rank[f->second], rank[s->second])
                                      : std::pair(rank[s->second], rank[f->second]);
        by_pair[key].push_back(
            {g.slot.pair, first_higher, first_higher ? first_score : 1.0 - first_score});
    }
    out << tournament.spec.name << ": " << t.games << " of " << tournament.spec.total_games
        << " games, " << tournament.spec.game << "; " << by_pair.size() << " pair"
        << (by_pair.size() == 1 ? "" : "s") << " of bots that met, in the standings' order ("
        << scale_text(anchors) << ")\n";
    for (const auto& [ranks, games] : by_pair) {
        out << "\n";
        print_pair(out, t.names[order[ranks.first]], t.names[order[ranks.second]], games);
    }
}

std::vector<rating::PairedGame> head_to_head_games(store::ResultsStore& store,
                                                   const store::TournamentRow& tournament,
                                                   const std::string& a, const std::string& b) {
    std::vector<rating::PairedGame> games;
    for (const auto& g : store.games(tournament.id, a)) {
        const bool a_first = g.first == a;
        if ((a_first ? g.second : g.first) != b) continue;
        const auto scored = store::first_mover_score(g.result);
        if (!scored) continue;
        const double first_score = *scored;
        games.push_back({g.slot.pair, a_first, a_first ? first_score : 1.0 - first_score});
    }
    return games;
}

void print_head_to_head(std::ostream& out, const rating::HeadToHead& h,
                        const std::optional<rating::Trinomial>& games,
                        const std::optional<rating::Pentanomial>& pairs) {
    out << "Elo: " << fixed_decimals(h.elo, 2) << " +/- " << fixed_decimals(h.elo_error, 2)
        << ", nElo: " << fixed_decimals(h.nelo, 2) << " +/- " << fixed_decimals(h.nelo_error, 2)
        << "\n";
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

namespace {

void print_pair(std::ostream& out, const std::string& a, const std::string& b,
                const std::vector<rating::PairedGame>& games) {
    const auto counts = rating::count_head_to_head(games);
    const std::string shown_a = record::escape_controls(a), shown_b = record::escape_controls(b);
    out << shown_a << " vs " << shown_b << " (from " << shown_a
        << "'s side): " << counts.games.games() << " games, " << counts.pairs.pairs()
        << " colour-swapped pair" << (counts.pairs.pairs() == 1 ? "" : "s") << "\n";
    if (counts.games.games() == 0) {
        out << shown_a << " and " << shown_b << " played no games against each other\n";
        return;
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

void report_head_to_head(store::ResultsStore& store, const store::TournamentRow& tournament,
                         const std::string& a, const std::string& b, std::ostream& out) {
    print_pair(out, a, b, head_to_head_games(store, tournament, a, b));
}

}  // namespace arena::cli
