#include "arena/report/tune_section.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

#include "arena/report/charts.hpp"
#include "arena/report/html.hpp"

namespace arena::report {
namespace {

using TuneParam = tournament::StoredSettings::TuneParam;

// One parameter's path: theta by iteration (of each iteration, the first
// row stored; every game of an iteration has the same), and its entry in
// the config, if it has one.
struct Path {
    std::string name;
    std::map<std::int64_t, double> theta;
    const TuneParam* config = nullptr;
};

std::string optional_text(const std::optional<double>& x) {
    return x ? short_number(*x) : "—";
}

// The parameters in the order the games store them (the config's).
std::vector<Path> paths_of(const std::vector<store::StoredGameParam>& rows,
                           const std::optional<tournament::StoredSettings::Tune>& tune) {
    std::vector<Path> paths;
    std::map<std::string, std::size_t> index;
    for (const auto& r : rows) {
        const auto& p = r.param;
        if (!std::isfinite(p.theta) || p.iteration < 0) continue;
        const auto [at, added] = index.emplace(p.name, paths.size());
        if (added) paths.push_back({p.name, {}, nullptr});
        paths[at->second].theta.emplace(p.iteration, p.theta);
    }
    if (tune) {
        for (auto& path : paths) {
            const auto same = [&](const TuneParam& c) { return c.name == path.name; };
            const auto found = std::find_if(tune->params.begin(), tune->params.end(), same);
            if (found != tune->params.end()) path.config = &*found;
        }
    }
    return paths;
}

// Every n-th iteration, at most kMaxTunePoints, and the last.
std::vector<std::pair<double, double>> thinned(const std::map<std::int64_t, double>& theta) {
    const std::size_t n = theta.size();
    const std::size_t every =
        n <= kMaxTunePoints ? 1 : (n + kMaxTunePoints - 2) / (kMaxTunePoints - 1);
    std::vector<std::pair<double, double>> points;
    std::size_t k = 0;
    for (const auto& [iteration, value] : theta) {
        if (k++ % every == 0 || iteration == theta.rbegin()->first)
            points.emplace_back(static_cast<double>(iteration), value);
    }
    return points;
}

// The chart of one path: over the configured range, else the values seen.
ParamPath chart_of(const Path& path, std::size_t colour, double x_end) {
    ParamPath chart{path.name, colour, thinned(path.theta), 0, 1, x_end, std::nullopt, "", ""};
    const TuneParam* c = path.config;
    if (c != nullptr && c->start) {
        chart.start = c->start;
        chart.start_text = short_number(*c->start);
    }
    if (c != nullptr && c->min && c->max && *c->min < *c->max) {
        chart.lo = *c->min;
        chart.hi = *c->max;
    } else {
        double lo = path.theta.begin()->second, hi = lo;
        for (const auto& [iteration, value] : path.theta) {
            lo = std::min(lo, value);
            hi = std::max(hi, value);
        }
        if (chart.start) {
            lo = std::min(lo, *chart.start);
            hi = std::max(hi, *chart.start);
        }
        const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::abs(lo) * 0.05, 1.0);
        chart.lo = lo - pad;
        chart.hi = hi + pad;
    }
    chart.last_text = short_number(path.theta.rbegin()->second);
    return chart;
}

// A row of the table; `rounded`: with the column of what an integer
// parameter's bot receives (the value rounded, within the range).
std::string table_row(const Path& path, bool rounded) {
    const TuneParam* c = path.config;
    const double last = path.theta.rbegin()->second;
    std::string row = "<tr><td class=\"name\">" + html_escape(path.name) + "</td><td>" +
                      (c ? optional_text(c->start) : "—") + "</td><td class=\"final\">" +
                      short_number(last) + "</td>";
    if (rounded) {
        row += "<td>";
        if (c != nullptr && c->integer) {
            double shown = last;
            if (c->min) shown = std::max(shown, *c->min);
            if (c->max) shown = std::min(shown, *c->max);
            row += short_number(std::round(shown));
        }
        row += "</td>";
    }
    return row + "<td>" + (c ? optional_text(c->min) : "—") + "</td><td>" +
           (c ? optional_text(c->max) : "—") + "</td></tr>\n";
}

}  // namespace

std::string tune_section(const std::vector<store::StoredGameParam>& rows,
                         const std::optional<tournament::StoredSettings::Tune>& tune) {
    const auto paths = paths_of(rows, tune);
    if (paths.empty()) return {};
    std::int64_t iterations = 0;  // up to the last stored
    std::size_t stored = 0;
    for (const auto& path : paths) {
        iterations = std::max(iterations, path.theta.rbegin()->first + 1);
        stored = std::max(stored, path.theta.size());
    }
    // The iterations planned; 0: not known.
    const std::int64_t planned = tune && tune->pairs ? std::max<std::int64_t>(*tune->pairs, 0) : 0;
    const bool rounded = std::any_of(paths.begin(), paths.end(), [](const Path& p) {
        return p.config != nullptr && p.config->integer;
    });
    std::string s =
        "<section id=\"tuning\"><h2>Tuning</h2>\n<p class=\"note\">Each "
        "parameter's value at each iteration of the tune (theta: the point that "
        "iteration's theta+ and theta- were perturbed from), " +
        std::to_string(iterations) +
        (planned > 0 ? " of " + std::to_string(planned) : std::string()) + " iteration" +
        (iterations == 1 && planned <= 0 ? "" : "s") +
        " stored. final: theta at the last iteration stored" +
        (rounded ? "; rounded: what an integer parameter's bot receives" : "") + ".";
    if (stored > kMaxTunePoints) s += " The charts draw every n-th iteration and the last.";
    s += std::string(
             "</p>\n<table id=\"tune-table\" class=\"numbers\"><thead><tr>"
             "<th>parameter</th><th>start</th><th>final</th>") +
         (rounded ? "<th>rounded</th>" : "") + "<th>min</th><th>max</th></tr></thead><tbody>\n";
    for (const auto& path : paths)
        s += table_row(path, rounded);
    s += "</tbody></table>\n<div class=\"tune-charts\">\n";
    const double x_end = planned > 0 ? static_cast<double>(planned - 1) : 1.0;
    for (std::size_t i = 0; i < paths.size(); ++i)
        s += param_chart(chart_of(paths[i], i, x_end)) + "\n";
    return s + "</div></section>\n";
}

}  // namespace arena::report
