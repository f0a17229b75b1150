#include "arena/report/html_report.hpp"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arena/rating/pentanomial.hpp"
#include "arena/rating/repeats.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/record/game_record.hpp"
#include "arena/report/charts.hpp"
#include "arena/report/game_data.hpp"
#include "arena/report/head_to_head_text.hpp"
#include "arena/report/html.hpp"
#include "arena/report/odds_text.hpp"
#include "arena/report/standings.hpp"
#include "arena/report/tune_section.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::report {
namespace {

// A note of the text standings as one paragraph: its line breaks and their
// indent become a space.
std::string one_line(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n') {
            out += text[i];
            continue;
        }
        out += ' ';
        while (i + 1 < text.size() && text[i + 1] == ' ')
            ++i;
    }
    return out;
}

// One opponent's SPRT in a gauntlet, as the runner counts it.
struct OpponentRow {
    std::string name;
    std::int64_t counted = 0;   // pairs counted
    std::int64_t repeated = 0;  // pairs set aside as repeats
    rating::SprtResult result;
    bool stopped_repeating = false;  // rating::kRepeatsInARowToStop repeats in a row
};

using nlohmann::json;

// Up to this many bots, the page shows the crosstable, the rating-over-games
// chart and a move-time histogram per bot.
constexpr std::size_t kMaxCrosstable = 32;
constexpr std::size_t kMaxProgressBots = 40;
constexpr std::size_t kMaxHistograms = 48;
// Points of the rating-over-games chart: one fit each.
constexpr std::size_t kProgressPoints = 60;

std::string fixed(double x, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << x;
    return s.str();
}

std::string sha256_base64(std::string_view text) {
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest.data());
    std::array<unsigned char, 4 * ((SHA256_DIGEST_LENGTH + 2) / 3) + 1> encoded{};
    const int n = EVP_EncodeBlock(encoded.data(), digest.data(), SHA256_DIGEST_LENGTH);
    return {reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(n)};
}

// The page, section by section.
class Page {
  public:
    Page(store::ResultsStore& store, const store::TournamentRow& tournament,
         const ReportOptions& options, std::ostream& out)
        : store_(store),
          t_(tournament),
          settings_(arena::tournament::stored_settings(tournament.spec.config_text)),
          options_(options),
          out_(out) {}

    void write() {
        // Every bot, retired or not, as in `arena standings`.
        standings_ = compute_standings(store_, t_, options_.anchors, false, kMaxCrosstable);
        gathered_ = gather(store_, t_, standings_.names, options_);
        tuning_ = tune_section(store_.game_params(t_.id), settings_.tune);
        const std::string data = script_json(gathered_.data);
        const std::vector<std::string_view> scripts = {replay_js(), report_js()};
        out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
             << "<meta http-equiv=\"Content-Security-Policy\" content=\""
             << content_security_policy(scripts) << "\">\n"
             << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
             << "<title>" << html_escape(t_.spec.name) << " — arena report</title>\n"
             << "<style>" << report_css() << "</style>\n</head>\n<body>\n";
        header();
        out_ << tuning_;
        standings();
        crosstable();
        charts();
        endings();
        times();
        games();
        out_ << "<script type=\"application/json\" id=\"arena-data\">" << data << "</script>\n";
        for (const auto script : scripts)
            out_ << "<script>" << script << "</script>\n";
        out_ << "</body>\n</html>\n";
    }

  private:
    void header() {
        const auto bots = store_.bots(t_.id);
        out_ << "<header class=\"top\"><h1>" << html_escape(t_.spec.name) << "</h1>"
             << "<p class=\"sub\">" << html_escape(t_.spec.game) << " · " << standings_.games
             << " of " << t_.spec.total_games << " games · <span class=\"status status-"
             << html_escape(t_.status) << "\">" << html_escape(t_.status) << "</span></p>\n"
             << "<nav>" << (tuning_.empty() ? "" : "<a href=\"#tuning\">Tuning</a> ")
             << "<a href=\"#standings\">Standings</a> <a href=\"#crosstable\">Crosstable</a> "
                "<a href=\"#charts\">Charts</a> <a href=\"#endings\">Endings</a> "
                "<a href=\"#times\">Move times</a> <a href=\"#games\">Games</a></nav></header>\n";
        out_ << "<section id=\"overview\"><h2>Tournament</h2><dl class=\"facts\">"
             << "<dt>game</dt><dd>" << html_escape(t_.spec.game) << "</dd>"
             << "<dt>status</dt><dd id=\"status\">" << html_escape(t_.status) << "</dd>"
             << "<dt>games</dt><dd>" << standings_.games << " of " << t_.spec.total_games
             << "</dd><dt>seed</dt><dd id=\"seed\">" << t_.spec.seed << "</dd>"
             << "<dt>created</dt><dd>" << html_escape(t_.created_at) << "</dd>"
             << "<dt>finished</dt><dd>"
             << (t_.finished_at.empty() ? "—" : html_escape(t_.finished_at)) << "</dd></dl>\n";
        out_ << "<table class=\"bots\"><thead><tr><th>bot</th><th>command</th><th>protocol</th>"
                "<th>SHA-256</th></tr></thead><tbody>\n";
        for (const auto& b : bots) {
            out_ << "<tr><td class=\"name\">" << html_escape(b.name)
                 << (b.retired ? " <span class=\"note\">(retired)</span>" : "") << "</td><td><code>"
                 << html_escape(b.command) << "</code></td><td>" << html_escape(b.protocol)
                 << "</td><td><code class=\"sha\">"
                 << (b.sha256.empty() ? "not known" : html_escape(b.sha256))
                 << "</code></td></tr>\n";
        }
        out_ << "</tbody></table>\n<details><summary>config</summary><pre class=\"config\">"
             << html_escape(t_.spec.config_text) << "</pre></details></section>\n";
    }

    void standings() {
        const auto& s = standings_;
        const auto n = s.names.size();
        std::vector<std::string> idle;
        for (std::size_t i = 0; i < n; ++i)
            if (s.summary[i].total.games == 0) idle.push_back(s.names[i]);
        out_ << "<section id=\"standings\"><h2>Standings</h2><p class=\"scale\">"
             << html_escape(scale_line(idle)) << "</p>\n"
             << "<table id=\"standings-table\" class=\"numbers\"><thead><tr><th>#</th>"
                "<th>bot</th><th>Elo</th><th>±95%</th><th>games</th><th>W</th><th>D</th>"
                "<th>L</th><th>score</th>"
             << (options_.points ? "<th>points</th>" : "")
             << "<th>win%</th><th>first</th><th>second</th><th>LOS</th><th>faults</th>"
                "</tr></thead><tbody>\n";
        for (std::size_t rank = 0; rank < n; ++rank) {
            const auto i = s.order[rank];
            const auto& r = s.summary[i];
            const double win_rate = r.total.games ? static_cast<double>(r.total.wins) /
                                                        static_cast<double>(r.total.games)
                                                  : 0.0;
            out_ << "<tr><td>" << rank + 1 << "</td><td class=\"name\">" << html_escape(s.names[i])
                 << "</td><td>" << fixed(shown_elo(s.fit.ratings[i]), 0)
                 << (s.prior_driven[i]
                         ? "<span class=\"prior\">" + std::string(kPriorMark) + "</span>"
                         : "")
                 << "</td><td>" << fixed(s.fit.errors[i], 0) << "</td><td>" << r.total.games
                 << "</td><td>" << r.total.wins << "</td><td>" << r.total.draws << "</td><td>"
                 << r.total.losses << "</td><td>" << percent_text(r.total.score()) << "</td>";
            if (const auto& p = options_.points) {
                out_ << "<td>"
                     << r.total.wins * p->win + r.total.draws * p->draw + r.total.losses * p->loss
                     << "</td>";
            }
            out_ << "<td>" << percent_text(win_rate) << "</td><td>"
                 << percent_text(r.as_first.score()) << "</td><td>"
                 << percent_text(r.as_second.score()) << "</td><td>"
                 << (rank + 1 < n ? fixed(s.fit.los(i, s.order[rank + 1]), 2) : "")
                 << "</td><td class=\"faults\">" << html_escape(faults_text(s.faults[i]))
                 << "</td></tr>\n";
        }
        out_ << "</tbody></table>\n<p>first-mover advantage: "
             << html_escape(advantage_text(s.fit, s.games, s.decided_on_board)) << "</p>\n";
        if (const auto note = prior_note(s); !note.empty())
            out_ << "<p class=\"note\" id=\"prior-note\">" << html_escape(one_line(note))
                 << "</p>\n";
        if (const auto note = repeats_text(s); !note.empty()) {
            out_ << "<p class=\"warning\" id=\"repeats\">" << html_escape(one_line(note))
                 << "</p>\n";
        }
        if (const auto& p = options_.points) {
            out_ << "<p>points: " << p->win << " a win, " << p->draw << " a draw, " << p->loss
                 << " a loss (the config's scoring)</p>\n";
        }
        out_ << "</section>\n";
    }

    std::string scale_line(const std::vector<std::string>& idle) const {
        const auto& anchors = options_.anchors;
        if (anchors.empty()) return "ratings: mean 0";
        std::string text = "ratings anchored:";
        for (std::size_t i = 0; i < anchors.size(); ++i) {
            std::ostringstream elo;
            elo << anchors[i].elo;
            text += (i == 0 ? " " : ", ") + anchors[i].name + " " + elo.str();
            if (std::find(idle.begin(), idle.end(), anchors[i].name) != idle.end())
                text += " (no games)";
        }
        return text;
    }

    // The pentanomial counts of every pair of bots that met, from the side
    // of the first of the two (by index).
    std::map<std::pair<int, int>, rating::HeadToHeadCounts> pair_counts() {
        std::map<std::string, int> index;
        for (std::size_t i = 0; i < standings_.names.size(); ++i)
            index.emplace(standings_.names[i], static_cast<int>(i));
        std::map<std::pair<int, int>, std::vector<rating::PairedGame>> games;
        for (const auto& g : store_.games(t_.id)) {
            const auto f = index.find(g.first), s = index.find(g.second);
            if (f == index.end() || s == index.end()) continue;
            const bool first_low = f->second < s->second;
            const auto key =
                first_low ? std::pair(f->second, s->second) : std::pair(s->second, f->second);
            if (auto paired = paired_game(g, first_low)) games[key].push_back(*paired);
        }
        std::map<std::pair<int, int>, rating::HeadToHeadCounts> counts;
        for (const auto& [key, list] : games)
            counts.emplace(key, rating::count_head_to_head(list, settings_.count_repeats));
        return counts;
    }

    void crosstable() {
        const auto& s = standings_;
        out_ << "<section id=\"crosstable\"><h2>Crosstable</h2>\n";
        if (s.played.empty() || s.names.size() < 2) {
            out_ << "<p class=\"note\">"
                 << (s.names.size() < 2
                         ? "One bot: no crosstable."
                         : "More than " + std::to_string(kMaxCrosstable) + " bots: no crosstable.")
                 << "</p></section>\n";
            return;
        }
        const auto pairs = pair_counts();
        out_ << "<p class=\"note\">Wins-draws-losses of the row bot against the column bot, "
                "blank where they never met; below, where colour-swapped pairs were played, "
                "their pentanomial counts [LL, LD, DD+WL, WD, WW] from the row bot's side, "
                "repeated pairs set aside.</p>\n"
                "<div class=\"scroll\"><table id=\"crosstable-table\" class=\"cross\"><thead>"
                "<tr><th></th>";
        for (const auto j : s.order)
            out_ << "<th>" << html_escape(s.names[j]) << "</th>";
        out_ << "</tr></thead><tbody>\n";
        for (const auto i : s.order) {
            out_ << "<tr><th>" << html_escape(s.names[i]) << "</th>";
            for (const auto j : s.order) {
                if (i == j) {
                    out_ << "<td class=\"self\">—</td>";
                    continue;
                }
                const auto& c = s.played[i][j];
                if (c[0] + c[1] + c[2] == 0) {
                    out_ << "<td class=\"unmet\"></td>";  // never met: blank, not 0-0-0
                    continue;
                }
                out_ << "<td><span class=\"wdl\">" << c[0] << "-" << c[1] << "-" << c[2]
                     << "</span>";
                const bool low = i < j;
                const auto key = low ? std::pair(static_cast<int>(i), static_cast<int>(j))
                                     : std::pair(static_cast<int>(j), static_cast<int>(i));
                if (const auto p = pairs.find(key);
                    p != pairs.end() && p->second.pairs.pairs() > 0) {
                    auto bins = p->second.pairs.bins;
                    if (!low) std::reverse(bins.begin(), bins.end());
                    out_ << "<span class=\"ptnml\">[" << bins[0] << ", " << bins[1] << ", "
                         << bins[2] << ", " << bins[3] << ", " << bins[4] << "]</span>";
                }
                out_ << "</td>";
            }
            out_ << "</tr>\n";
        }
        out_ << "</tbody></table></div></section>\n";
    }

    void charts() {
        const auto& s = standings_;
        out_ << "<section id=\"charts\"><h2>Ratings</h2>\n";
        std::vector<RatingBar> bars;
        for (const auto i : s.order)
            bars.push_back({s.names[i], s.fit.ratings[i], s.fit.errors[i]});
        out_ << "<figure>" << ratings_chart(bars)
             << "<figcaption>Elo with its 95 % interval, highest first.</figcaption></figure>\n";
        progress();
        sprt_chart();
        out_ << "</section>\n";
    }

    // The ratings after the first k games (in the order they were stored),
    // at up to kProgressPoints values of k.
    void progress() {
        const auto& s = standings_;
        const auto n = s.names.size();
        out_ << "<h3>Ratings over the games</h3>\n";
        if (n > kMaxProgressBots || n < 2 || s.games < 2) {
            out_ << "<p class=\"note\">"
                 << (n > kMaxProgressBots ? "Too many bots for this chart." : "Too few games.")
                 << "</p>\n";
            return;
        }
        std::map<std::string, int> index;
        for (std::size_t i = 0; i < n; ++i)
            index.emplace(s.names[i], static_cast<int>(i));
        auto list = store_.games(t_.id);
        std::sort(list.begin(), list.end(),
                  [](const auto& a, const auto& b) { return a.id < b.id; });
        std::vector<rating::GameResult> in_order;
        for (const auto& g : list) {
            const auto f = index.find(g.first), sec = index.find(g.second);
            if (f == index.end() || sec == index.end()) continue;
            const double score = g.result == "1-0" ? 1.0 : g.result == "0-1" ? 0.0 : 0.5;
            in_order.push_back({f->second, sec->second, score, 1});
        }
        std::vector<Series> series(n);
        for (std::size_t i = 0; i < n; ++i)
            series[i] = {s.names[i], i, {}};
        std::map<std::tuple<int, int, double>, std::int64_t> counted;
        const std::size_t total = in_order.size();
        const std::size_t points = std::min(kProgressPoints, total);
        std::size_t done = 0;
        rating::FitOptions fit_options;
        fit_options.anchors = options_.anchors;
        for (std::size_t p = 1; p <= points; ++p) {
            const std::size_t upto = total * p / points;
            for (; done < upto; ++done) {
                const auto& r = in_order[done];
                ++counted[{r.first, r.second, r.score}];
            }
            std::vector<rating::GameResult> results;
            for (const auto& [key, count] : counted)
                results.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), count});
            const auto fit = rating::fit_elo(s.names, results, fit_options);
            for (std::size_t i = 0; i < n; ++i)
                series[i].points.emplace_back(static_cast<double>(upto), fit.ratings[i]);
        }
        // Legend in the standings' order.
        std::vector<Series> ordered;
        for (const auto i : s.order)
            ordered.push_back(std::move(series[i]));
        for (std::size_t k = 0; k < ordered.size(); ++k)
            ordered[k].colour = k;
        out_ << "<figure>"
             << line_chart(ordered, "Elo after each number of games", "games stored", "Elo")
             << "<figcaption>Each bot's Elo fitted to the games stored so far.</figcaption>"
                "</figure>\n";
    }

    // A gauntlet with an SPRT: each opponent's LLR after each colour-swapped
    // pair, against the bounds. Pairs count in schedule order, each once
    // every earlier pair of that opponent is complete, a pair that repeats an
    // earlier one set aside, and none after the decision, as the runner
    // counts them (arena/tournament/gauntlet_sprt.hpp).
    void sprt_chart() {
        const auto& test = settings_.gauntlet_test;
        if (!test) return;
        // Per opponent: pair index -> the challenger's games in it.
        std::map<std::string, std::map<std::int64_t, std::vector<rating::PairedGame>>> pairs;
        for (const auto& g : store_.games(t_.id)) {
            const bool first = g.first == test->challenger;
            if (!first && g.second != test->challenger) continue;
            if (auto paired = paired_game(g, first))
                pairs[first ? g.second : g.first][g.slot.pair].push_back(*paired);
        }
        std::vector<Series> series;
        std::vector<OpponentRow> rows;
        rating::SprtResult bounds = rating::sprt(rating::Pentanomial{}, test->options);
        for (std::size_t rank = 0; rank < standings_.order.size(); ++rank) {
            const auto& name = standings_.names[standings_.order[rank]];
            const auto found = pairs.find(name);
            if (found == pairs.end()) continue;
            Series line{name, rank, {{0.0, 0.0}}};  // each bot's colour of the other charts
            rating::Pentanomial counts;
            rating::RepeatFilter repeats(settings_.count_repeats);
            OpponentRow row{name, 0, 0, bounds, false};
            for (const auto& [pair, games] : found->second) {
                if (games.size() != 2 || games[0].a_first == games[1].a_first)
                    break;  // later pairs wait for this one
                const auto& challenger_first = games[0].a_first ? games[0] : games[1];
                const auto& opponent_first = games[0].a_first ? games[1] : games[0];
                if (!repeats.counts(challenger_first.moves_hash, opponent_first.moves_hash)) {
                    row.stopped_repeating = repeats.in_a_row() >= rating::kRepeatsInARowToStop;
                    if (row.stopped_repeating) break;
                    continue;
                }
                ++counts.bins[static_cast<std::size_t>(
                    std::lround(2 * (games[0].score + games[1].score)))];
                row.result = rating::sprt(counts, test->options);
                line.points.emplace_back(static_cast<double>(counts.pairs()), row.result.llr);
                if (row.result.decision != rating::SprtDecision::continue_testing) break;
            }
            row.counted = counts.pairs();
            row.repeated = repeats.repeated();
            rows.push_back(row);
            series.push_back(std::move(line));
        }
        out_ << "<h3>SPRT of " << html_escape(test->challenger) << " against each opponent</h3>\n";
        if (series.empty()) {
            out_ << "<p class=\"note\">No pairs yet.</p>\n";
            return;
        }
        std::ostringstream what;
        what << (test->options.model == rating::SprtModel::logistic ? "Elo" : "nElo") << " "
             << test->options.elo0 << " against " << test->options.elo1 << ", alpha "
             << test->options.alpha << ", beta " << test->options.beta;
        out_ << "<figure>"
             << line_chart(series, "LLR after each colour-swapped pair", "pairs counted", "LLR",
                           {{bounds.upper, "accept H1"}, {bounds.lower, "accept H0"}}, "chart-sprt")
             << "<figcaption>The log-likelihood ratio of each opponent's test ("
             << html_escape(what.str())
             << ") after each pair, from the challenger's side, against its bounds.</figcaption>"
                "</figure>\n<table id=\"sprt-table\" class=\"numbers\"><thead><tr><th>opponent</th>"
                "<th>pairs</th><th>repeats set aside</th><th>LLR</th><th>bounds</th>"
                "<th>decision</th></tr></thead><tbody>";
        for (const auto& [name, count, repeated, result, stopped_repeating] : rows) {
            out_ << "<tr><td class=\"name\">" << html_escape(name) << "</td><td>" << count
                 << "</td><td>" << repeated << "</td><td>" << fixed(result.llr, 2) << "</td><td>"
                 << fixed(result.lower, 2) << " … " << fixed(result.upper, 2) << "</td><td>";
            // An undecided test that played every pair it may play stopped
            // there: it does not go on.
            if (stopped_repeating) {
                out_ << "none: stopped, the last " << rating::kRepeatsInARowToStop
                     << " pairs each repeated an earlier pair";
            } else if (result.decision == rating::SprtDecision::continue_testing &&
                       test->most_pairs > 0 && count + repeated >= test->most_pairs) {
                out_ << "none: stopped at the limit of " << test->most_pairs << " pairs";
            } else if (result.decision == rating::SprtDecision::continue_testing) {
                out_ << "none yet (continues)";
            } else {
                out_ << rating::decision_name(result.decision);
            }
            out_ << "</td></tr>";
        }
        out_ << "</tbody></table>\n";
    }

    void endings() {
        out_ << "<section id=\"endings\"><h2>Endings</h2>\n";
        std::vector<std::pair<std::string, std::int64_t>> bars;
        for (const auto t : record::kAllTerminations) {
            const std::string name(record::to_string(t));
            const auto found = gathered_.endings.find(name);
            bars.emplace_back(name, found == gathered_.endings.end() ? 0 : found->second);
        }
        out_ << "<table id=\"endings-table\" class=\"numbers\"><thead><tr><th>ending</th>"
                "<th>games</th></tr></thead><tbody>";
        for (const auto& [name, count] : bars)
            out_ << "<tr><td>" << html_escape(name) << "</td><td>" << count << "</td></tr>";
        out_ << "</tbody></table>\n<figure>" << bar_chart(bars, "Games by ending")
             << "</figure></section>\n";
    }

    // The bots' time odds and search limits, when they differ.
    void odds() {
        const auto lines = odds_lines(store_, t_);
        if (lines.empty()) return;
        out_ << "<p class=\"note\" id=\"odds\">";
        for (const auto& line : lines)
            out_ << html_escape(line) << (&line == &lines.back() ? "" : "<br>");
        out_ << "</p>\n";
    }

    void times() {
        const auto& s = standings_;
        const auto& tc = settings_.time;
        out_ << "<section id=\"times\"><h2>Move times</h2><p class=\"note\">Each bot's think "
                "time per move (log scale)";
        if (!settings_.bot_times.empty()) {
            out_ << " against its own move_ms (dashed; dotted: plus its tolerance_ms)";
        } else if (tc.move_ms) {
            out_ << " against move_ms = " << fixed(*tc.move_ms, 0)
                 << " ms (dashed; dotted: plus tolerance_ms = " << fixed(*tc.tolerance_ms, 0)
                 << " ms)";
        }
        out_ << "; moves the arena played are left out.</p>\n";
        odds();
        out_ << "<div class=\"histograms\">\n";
        double top = tc.move_ms ? *tc.move_ms + tc.tolerance_ms.value_or(0) : 1.0;
        for (const auto& [bot, own] : settings_.bot_times)
            if (own.move_ms) top = std::max(top, *own.move_ms + own.tolerance_ms.value_or(0));
        for (const auto& times : gathered_.move_ms)
            for (const double t : times)
                top = std::max(top, t);
        // Quarter decades from 0.01 ms to past the slowest move and the limit.
        std::vector<double> edges;
        for (int k = -8;; ++k) {
            edges.push_back(std::pow(10.0, k / 4.0));
            if (edges.back() > top * 1.05 && k >= 0) break;
        }
        std::size_t shown = 0;
        for (const auto i : s.order) {
            if (shown++ == kMaxHistograms) {
                out_ << "<p class=\"note\">(the other bots' histograms are left out)</p>";
                break;
            }
            auto times = gathered_.move_ms[i];
            TimeHistogram h;
            h.bot = s.names[i];
            h.colour = shown - 1;
            h.edges = edges;
            h.counts.assign(edges.size() - 1, 0);
            h.moves = static_cast<std::int64_t>(times.size());
            for (const double t : times) {
                const auto at = std::upper_bound(edges.begin(), edges.end(), t);
                const auto bin = std::clamp<std::ptrdiff_t>(
                    at - edges.begin() - 1, 0, static_cast<std::ptrdiff_t>(h.counts.size()) - 1);
                ++h.counts[static_cast<std::size_t>(bin)];
            }
            if (!times.empty()) {
                std::sort(times.begin(), times.end());
                h.median_ms = times[times.size() / 2];
                h.max_ms = times.back();
            }
            // Each bot against its own limit (time odds: its own `time:`).
            const auto& own = settings_.time_of(s.names[i]);
            out_ << time_histogram(h, own.move_ms, own.tolerance_ms) << "\n";
        }
        out_ << "</div></section>\n";
    }

    void games() {
        out_ << "<section id=\"games\"><h2>Games</h2>\n"
                "<div id=\"replay\" class=\"replay\" hidden></div>\n"
                "<div class=\"filters\"><label>filter <input id=\"game-filter\" type=\"search\" "
                "placeholder=\"bot, result, ending, id\"></label> <label>ending <select "
                "id=\"ending-filter\"><option value=\"\">any</option>";
        for (const auto t : record::kAllTerminations)
            out_ << "<option>" << record::to_string(t) << "</option>";
        out_ << "</select></label> <span id=\"game-count\"></span></div>\n"
                "<table id=\"game-list\" class=\"numbers games\"><thead><tr>"
                "<th data-key=\"id\">game</th>"
                "<th data-key=\"first\">first</th><th data-key=\"second\">second</th>"
                "<th data-key=\"result\">result</th><th data-key=\"ending\">ending</th>"
                "<th data-key=\"plies\">plies</th><th data-key=\"seconds\">seconds</th>"
                "<th data-key=\"detail\">detail</th></tr></thead><tbody></tbody></table>\n"
                "<div class=\"pager\"><button id=\"page-prev\" type=\"button\">‹ previous</button>"
                " <span id=\"page-info\"></span> <button id=\"page-next\" type=\"button\">next ›"
                "</button></div>\n";
        if (gathered_.text_cut) {
            out_ << "<p class=\"note\">The later games' info lines and stderr are left out to "
                    "keep this page small: arena show and arena log have them.</p>\n";
        }
        out_ << "<noscript><p>The game list and the replays need JavaScript.</p></noscript>"
                "</section>\n";
    }

    store::ResultsStore& store_;
    const store::TournamentRow& t_;
    // The time control and a gauntlet's test, from the stored config.
    const tournament::StoredSettings settings_;
    const ReportOptions& options_;
    std::ostream& out_;
    Standings standings_;
    Gathered gathered_;
    std::string tuning_;  // a tune's section (tune_section.hpp); empty for any other
};

}  // namespace

void write_report(store::ResultsStore& store, const store::TournamentRow& tournament,
                  const ReportOptions& options, std::ostream& out) {
    Page(store, tournament, options, out).write();
}

std::string content_security_policy(const std::vector<std::string_view>& scripts) {
    std::string policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src";
    for (const auto script : scripts)
        policy += " 'sha256-" + sha256_base64(script) + "'";
    return policy;
}

}  // namespace arena::report
