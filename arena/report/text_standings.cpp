#include "arena/report/text_standings.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <string>

#include "arena/record/escape.hpp"
#include "arena/report/anchors.hpp"
#include "arena/report/head_to_head_text.hpp"
#include "arena/report/odds_text.hpp"
#include "arena/report/standings.hpp"
#include "arena/report/stored_anchors.hpp"
#include "arena/store/lookup.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::report {
namespace {

// Under the table: the bots' time odds and search limits, when they differ.
void print_odds(store::ResultsStore& store, const store::TournamentRow& tournament,
                std::ostream& out) {
    for (const auto& line : odds_lines(store, tournament))
        out << record::escape_controls(line) << "\n";
}

}  // namespace

void report_standings(store::ResultsStore& store, const store::TournamentRow& tournament,
                      std::ostream& out, const std::vector<rating::Anchor>& anchors,
                      const std::optional<ReportOptions::Points>& scoring, bool active_only) {
    const auto t = compute_standings(store, tournament, anchors, active_only);
    const auto& names = t.names;
    const auto n = names.size();
    const auto& faults = t.faults;
    const std::int64_t games = t.games;
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
            << names[i] << std::right << std::fixed << std::setprecision(0) << std::setw(6)
            << shown_elo(fit.ratings[i]) << (t.prior_driven[i] ? kPriorMark : " ") << std::setw(5)
            << fit.errors[i] << std::setw(7) << s.total.games << std::setw(6) << s.total.wins
            << std::setw(6) << s.total.draws << std::setw(6) << s.total.losses << std::setw(8)
            << percent_text(s.total.score());
        if (scoring) out << std::setw(8) << points(s.total);
        out << std::setw(8) << percent_text(win_rate) << std::setw(8)
            << percent_text(s.as_first.score()) << std::setw(8)
            << percent_text(s.as_second.score());
        // Likelihood that this bot is stronger than the next one down.
        if (rank + 1 < n) {
            out << std::setw(6) << std::setprecision(2) << fit.los(i, order[rank + 1]);
        } else {
            out << std::setw(6) << "";
        }
        out << "  " << faults_text(faults[i]) << "\n";
    }
    out << "first-mover advantage: " << advantage_text(fit, games, t.decided_on_board) << "\n";
    if (const auto note = prior_note(t); !note.empty()) out << note << "\n";
    if (const auto repeats = repeats_text(t); !repeats.empty()) out << repeats << "\n";
    if (scoring) {
        out << "points: " << scoring->win << " a win, " << scoring->draw << " a draw, "
            << scoring->loss << " a loss (the config's scoring)\n";
    }
    print_odds(store, tournament, out);
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
        out << "\ncrosstable (wins-draws-losses of the row bot against the column bot; blank: "
               "never met)\n"
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
                    // Bots that never met: a blank, not 0-0-0.
                    cell = c[0] + c[1] + c[2] == 0
                               ? ""
                               : std::to_string(c[0]) + "-" + std::to_string(c[1]) + "-" +
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

std::string print_standings_request(store::ResultsStore& store,
                                    const store::TournamentRow& tournament,
                                    const StandingsRequest& request, const std::string& db,
                                    std::ostream& out) {
    const auto settings = tournament::stored_settings(tournament.spec.config_text);
    if (!request.vs.empty()) {
        // The head-to-head needs no ratings, but a mistyped --anchor is still one.
        if (request.anchors) {
            const auto s = standings_anchors(store, tournament, request.anchors, settings, db);
            if (!s.problem.empty()) return s.problem;
        }
        for (const auto& bot : request.vs)
            if (auto no = store::missing_bot(store, tournament, bot, db); !no.empty()) return no;
        report_head_to_head(store, tournament, request.vs[0], request.vs[1], out);
        return "";
    }
    const auto scale =
        standings_anchors(store, tournament, request.anchors, settings, db, request.active);
    if (!scale.problem.empty()) return scale.problem;
    if (request.pairs) {
        report_pairs(store, tournament, out, scale.anchors, request.active);
        return "";
    }
    report_standings(store, tournament, out, scale.anchors, settings.scoring, request.active);
    return "";
}

}  // namespace arena::report
