#include "arena/report/charts.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "arena/report/html.hpp"
#include "arena/report/standings.hpp"

namespace arena::report {
namespace {

constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

// A number for an SVG attribute: fixed, one decimal.
std::string num(double x) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << (std::isfinite(x) ? x : 0.0);
    return s.str();
}

// A tick label: no decimals past what the step needs.
std::string tick_label(double x, double step) {
    std::ostringstream s;
    const int digits = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step)));
    s << std::fixed << std::setprecision(std::clamp(digits, 0, 6))
      << (std::abs(x) < 1e-9 ? 0.0 : x);
    return s.str();
}

// Ticks past this many are not drawn: a range that a tick step cannot
// cross (10^15 to 10^15 + 0.1, where adding 0.02 changes nothing).
constexpr int kMaxTicks = 100;

// Round ticks covering [lo, hi]: about `count` of them, 1, 2 or 5 times a
// power of ten apart.
std::vector<double> nice_ticks(double lo, double hi, int count, double& step) {
    if (!(hi > lo)) hi = lo + 1;
    const double raw = (hi - lo) / std::max(count, 1);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    step = power;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * power;
        if (step >= raw) break;
    }
    std::vector<double> ticks;
    const double first = std::floor(lo / step) * step;
    for (int k = 0; k <= kMaxTicks; ++k) {
        const double t = first + k * step;
        if (!(t <= hi + step * 1e-9)) break;
        if (t >= lo - step * 1e-9) ticks.push_back(t);
    }
    return ticks;
}

// The extent of the ticks: [lo, hi] widened to whole steps.
void widen(double& lo, double& hi, int count) {
    double step = 1;
    nice_ticks(lo, hi, count, step);
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    if (hi <= lo) hi = lo + step;
}

std::string svg_open(const char* cls, double width, double height, const std::string& title) {
    return std::string("<svg class=\"chart ") + cls + "\" viewBox=\"0 0 " + num(width) + " " +
           num(height) + "\" width=\"" + num(width) + "\" height=\"" + num(height) +
           "\" role=\"img\"><title>" + html_escape(title) + "</title>";
}

// At most `max` bytes of `name`, cut at a character boundary and marked.
std::string shorten(const std::string& name, std::size_t max) {
    if (name.size() <= max) return name;
    std::size_t cut = max - 1;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
        --cut;
    return name.substr(0, cut) + "…";
}

}  // namespace

std::string short_number(double x) {
    if (!std::isfinite(x)) return "—";
    const int magnitude = x == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::abs(x))));
    std::ostringstream s;
    s << std::fixed << std::setprecision(std::clamp(3 - magnitude, 0, 8)) << x;
    std::string text = s.str();
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

const char* series_colour(std::size_t i) {
    return kColours[i % std::size(kColours)];
}

std::string ratings_chart(const std::vector<RatingBar>& bars) {
    const double label_width = 170, plot_width = 520, row = 22, top = 10, bottom = 34;
    const double width = label_width + plot_width + 20;
    const double height =
        top + row * static_cast<double>(std::max<std::size_t>(bars.size(), 1)) + bottom;
    double lo = 0, hi = 0;
    bool first = true;
    for (const auto& b : bars) {
        const double a = b.elo - b.error, z = b.elo + b.error;
        lo = first ? a : std::min(lo, a);
        hi = first ? z : std::max(hi, z);
        first = false;
    }
    widen(lo, hi, 6);
    const auto x = [&](double elo) { return label_width + (elo - lo) / (hi - lo) * plot_width; };
    std::string s = svg_open("chart-ratings", width, height, "Elo ratings with 95 % intervals");
    double step = 1;
    const double axis_y = top + row * static_cast<double>(bars.size()) + 4;
    for (const double t : nice_ticks(lo, hi, 6, step)) {
        s += "<line class=\"grid\" x1=\"" + num(x(t)) + "\" x2=\"" + num(x(t)) + "\" y1=\"" +
             num(top) + "\" y2=\"" + num(axis_y) + "\"/>";
        s += "<text class=\"tick\" x=\"" + num(x(t)) + "\" y=\"" + num(axis_y + 14) +
             "\" text-anchor=\"middle\">" + tick_label(t, step) + "</text>";
    }
    s += "<text class=\"axis-label\" x=\"" + num(label_width + plot_width / 2) + "\" y=\"" +
         num(axis_y + 28) + "\" text-anchor=\"middle\">Elo</text>";
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const auto& b = bars[i];
        const double y = top + row * (static_cast<double>(i) + 0.5);
        const char* colour = series_colour(i);
        const std::string label = shorten(b.name, 24);
        s += "<g class=\"bar\"><text x=\"" + num(label_width - 8) + "\" y=\"" + num(y + 4) +
             "\" text-anchor=\"end\">" + html_escape(label) + "</text>";
        s += "<line class=\"interval\" stroke=\"" + std::string(colour) + "\" x1=\"" +
             num(x(b.elo - b.error)) + "\" x2=\"" + num(x(b.elo + b.error)) + "\" y1=\"" + num(y) +
             "\" y2=\"" + num(y) + "\"/>";
        for (const double end : {b.elo - b.error, b.elo + b.error}) {
            s += "<line class=\"interval\" stroke=\"" + std::string(colour) + "\" x1=\"" +
                 num(x(end)) + "\" x2=\"" + num(x(end)) + "\" y1=\"" + num(y - 5) + "\" y2=\"" +
                 num(y + 5) + "\"/>";
        }
        std::ostringstream tip;
        tip << std::fixed << std::setprecision(0) << shown_elo(b.elo) << " ± " << b.error;
        s += "<circle cx=\"" + num(x(b.elo)) + "\" cy=\"" + num(y) + "\" r=\"4\" fill=\"" + colour +
             "\"><title>" + html_escape(b.name) + ": " + tip.str() + "</title></circle></g>";
    }
    return s + "</svg>";
}

std::string line_chart(const std::vector<Series>& series, const std::string& title,
                       const std::string& x_label, const std::string& y_label,
                       const std::vector<Guide>& guides, const char* svg_class) {
    const double left = 56, plot_width = 560, plot_height = 260, top = 12;
    const double legend_width = 180;
    const double width = left + plot_width + 20 + legend_width;
    const double legend_height = 18.0 * static_cast<double>(series.size()) + 10;
    const double height = std::max(top + plot_height + 44, legend_height + top);
    double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 0;
    bool first = true;
    for (const auto& sr : series) {
        for (const auto& [px, py] : sr.points) {
            x_hi = std::max(x_hi, px);
            y_lo = first ? py : std::min(y_lo, py);
            y_hi = first ? py : std::max(y_hi, py);
            first = false;
        }
    }
    for (const auto& g : guides) {
        y_lo = std::min(y_lo, g.y);
        y_hi = std::max(y_hi, g.y);
    }
    widen(y_lo, y_hi, 6);
    const auto X = [&](double v) { return left + (v - x_lo) / (x_hi - x_lo) * plot_width; };
    const auto Y = [&](double v) { return top + (y_hi - v) / (y_hi - y_lo) * plot_height; };
    std::string s = svg_open(svg_class, width, height, title);
    double step = 1;
    for (const double t : nice_ticks(y_lo, y_hi, 6, step)) {
        s += "<line class=\"grid\" x1=\"" + num(left) + "\" x2=\"" + num(left + plot_width) +
             "\" y1=\"" + num(Y(t)) + "\" y2=\"" + num(Y(t)) + "\"/>";
        s += "<text class=\"tick\" x=\"" + num(left - 6) + "\" y=\"" + num(Y(t) + 4) +
             "\" text-anchor=\"end\">" + tick_label(t, step) + "</text>";
    }
    for (const double t : nice_ticks(x_lo, x_hi, 8, step)) {
        s += "<text class=\"tick\" x=\"" + num(X(t)) + "\" y=\"" + num(top + plot_height + 16) +
             "\" text-anchor=\"middle\">" + tick_label(t, step) + "</text>";
    }
    s += "<line class=\"axis\" x1=\"" + num(left) + "\" x2=\"" + num(left + plot_width) +
         "\" y1=\"" + num(top + plot_height) + "\" y2=\"" + num(top + plot_height) + "\"/>";
    s += "<text class=\"axis-label\" x=\"" + num(left + plot_width / 2) + "\" y=\"" +
         num(top + plot_height + 34) + "\" text-anchor=\"middle\">" + html_escape(x_label) +
         "</text>";
    s += "<text class=\"axis-label\" transform=\"rotate(-90)\" x=\"" +
         num(-(top + plot_height / 2)) + "\" y=\"14\" text-anchor=\"middle\">" +
         html_escape(y_label) + "</text>";
    for (const auto& g : guides) {
        s += "<line class=\"guide\" x1=\"" + num(left) + "\" x2=\"" + num(left + plot_width) +
             "\" y1=\"" + num(Y(g.y)) + "\" y2=\"" + num(Y(g.y)) + "\"/>";
        s += "<text class=\"tick\" x=\"" + num(left + plot_width - 4) + "\" y=\"" +
             num(Y(g.y) - 4) + "\" text-anchor=\"end\">" + html_escape(g.label) + "</text>";
    }
    for (std::size_t i = 0; i < series.size(); ++i) {
        const auto& sr = series[i];
        const char* colour = series_colour(sr.colour);
        std::string points;
        for (const auto& [px, py] : sr.points)
            points += num(X(px)) + "," + num(Y(py)) + " ";
        s += "<polyline class=\"series\" fill=\"none\" stroke=\"" + std::string(colour) +
             "\" points=\"" + points + "\"><title>" + html_escape(sr.name) + "</title></polyline>";
        const double ly = top + 8 + 18.0 * static_cast<double>(i);
        const double lx = left + plot_width + 20;
        const std::string label = shorten(sr.name, 22);
        s += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly - 5) +
             "\" width=\"14\" height=\"4\" fill=\"" + colour + "\"/><text x=\"" + num(lx + 20) +
             "\" y=\"" + num(ly) + "\">" + html_escape(label) + "</text>";
    }
    return s + "</svg>";
}

std::string bar_chart(const std::vector<std::pair<std::string, std::int64_t>>& bars,
                      const std::string& title) {
    const double label_width = 110, plot_width = 420, row = 22, top = 8;
    const double width = label_width + plot_width + 80;
    const double height =
        top * 2 + row * static_cast<double>(std::max<std::size_t>(bars.size(), 1));
    std::int64_t most = 1;
    for (const auto& [label, count] : bars)
        most = std::max(most, count);
    std::string s = svg_open("chart-endings", width, height, title);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const auto& [label, count] = bars[i];
        const double y = top + row * static_cast<double>(i);
        const double w = plot_width * static_cast<double>(count) / static_cast<double>(most);
        s += "<text x=\"" + num(label_width - 8) + "\" y=\"" + num(y + 15) +
             "\" text-anchor=\"end\">" + html_escape(label) + "</text>";
        s += "<rect x=\"" + num(label_width) + "\" y=\"" + num(y + 4) + "\" width=\"" +
             num(std::max(w, count > 0 ? 1.0 : 0.0)) + "\" height=\"14\" fill=\"" +
             (label == "normal" ? "#7f9fbf" : "#d9534f") + "\"/>";
        s += "<text x=\"" + num(label_width + w + 6) + "\" y=\"" + num(y + 15) + "\">" +
             std::to_string(count) + "</text>";
    }
    return s + "</svg>";
}

std::string param_chart(const ParamPath& p) {
    const double left = 52, plot_width = 420, right = 80, top = 26, plot_height = 150;
    const double width = left + plot_width + right, height = top + plot_height + 40;
    std::string s = svg_open("chart-tune", width, height, "Value of " + p.name + " by iteration");
    const double lo = p.lo, hi = p.hi > p.lo ? p.hi : p.lo + 1;
    double x_hi = std::max(p.x_end, 1.0);
    if (!p.points.empty()) x_hi = std::max(x_hi, p.points.back().first);
    const auto X = [&](double v) { return left + v / x_hi * plot_width; };
    const auto Y = [&](double v) {
        return top + (hi - std::clamp(v, lo, hi)) / (hi - lo) * plot_height;
    };
    s += "<text class=\"chart-title\" x=\"" + num(left) + "\" y=\"14\" fill=\"" +
         series_colour(p.colour) + "\">" + html_escape(shorten(p.name, 48)) + "</text>";
    double step = 1;
    const auto y_ticks = nice_ticks(lo, hi, 5, step);
    for (const double t : y_ticks) {
        s += "<line class=\"grid\" x1=\"" + num(left) + "\" x2=\"" + num(left + plot_width) +
             "\" y1=\"" + num(Y(t)) + "\" y2=\"" + num(Y(t)) + "\"/>";
        s += "<text class=\"tick\" x=\"" + num(left - 6) + "\" y=\"" + num(Y(t) + 4) +
             "\" text-anchor=\"end\">" + tick_label(t, step) + "</text>";
    }
    // The ends of the range, where no tick is near: min and max.
    for (const double end : {lo, hi}) {
        const auto near = [&](double t) { return std::abs(Y(t) - Y(end)) < 12; };
        if (std::any_of(y_ticks.begin(), y_ticks.end(), near)) continue;
        s += "<text class=\"tick range-end\" x=\"" + num(left - 6) + "\" y=\"" + num(Y(end) + 4) +
             "\" text-anchor=\"end\">" + short_number(end) + "</text>";
    }
    s += "<rect class=\"range\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" +
         num(plot_width) + "\" height=\"" + num(plot_height) + "\" fill=\"none\"/>";
    auto x_ticks = nice_ticks(0, x_hi, 6, step);
    if (step < 1) x_ticks = {0.0, x_hi};  // whole iterations only
    for (const double t : x_ticks) {
        s += "<text class=\"tick\" x=\"" + num(X(t)) + "\" y=\"" + num(top + plot_height + 16) +
             "\" text-anchor=\"middle\">" + tick_label(t, 1) + "</text>";
    }
    s += "<text class=\"axis-label\" x=\"" + num(left + plot_width / 2) + "\" y=\"" +
         num(top + plot_height + 34) + "\" text-anchor=\"middle\">iteration</text>";
    if (p.start) {
        const double y = Y(*p.start);
        s += "<line class=\"guide start\" x1=\"" + num(left) + "\" x2=\"" + num(left + plot_width) +
             "\" y1=\"" + num(y) + "\" y2=\"" + num(y) + "\"><title>start " +
             html_escape(p.start_text) + "</title></line>";
        // The label at the right end, on the side of the line the path
        // ends away from (where there is room).
        const bool path_above = !p.points.empty() && Y(p.points.back().second) < y;
        const bool above = path_above ? top + plot_height - y < 14 : y - top > 14;
        s += "<text class=\"tick start-label\" x=\"" + num(left + plot_width - 4) + "\" y=\"" +
             num(above ? y - 4 : y + 12) + "\" text-anchor=\"end\">start " +
             html_escape(p.start_text) + "</text>";
    }
    if (p.points.empty()) return s + "</svg>";
    std::string points;
    for (const auto& [px, py] : p.points)
        points += num(X(px)) + "," + num(Y(py)) + " ";
    const char* colour = series_colour(p.colour);
    s += "<polyline class=\"series\" fill=\"none\" stroke=\"" + std::string(colour) +
         "\" points=\"" + points + "\"><title>" + html_escape(p.name) + "</title></polyline>";
    const auto& [lx, ly] = p.points.back();
    s += "<circle class=\"last\" cx=\"" + num(X(lx)) + "\" cy=\"" + num(Y(ly)) +
         "\" r=\"3.5\" fill=\"" + colour + "\"/>";
    s += "<text class=\"last-label\" x=\"" + num(X(lx) + 7) + "\" y=\"" + num(Y(ly) + 4) +
         "\" fill=\"" + colour + "\">" + html_escape(p.last_text) + "</text>";
    return s + "</svg>";
}

std::string time_histogram(const TimeHistogram& h, std::optional<double> move_ms,
                           std::optional<double> tolerance_ms) {
    const double left = 40, plot_width = 360, plot_height = 110, top = 22;
    const double width = left + plot_width + 16, height = top + plot_height + 36;
    std::string s = svg_open("chart-times", width, height, "Move times of " + h.bot);
    if (h.edges.size() < 2) return s + "</svg>";
    const double lo = std::log10(h.edges.front()), hi = std::log10(h.edges.back());
    const auto X = [&](double ms) {
        return left + (std::log10(std::max(ms, h.edges.front())) - lo) / (hi - lo) * plot_width;
    };
    std::int64_t most = 1;
    for (const auto c : h.counts)
        most = std::max(most, c);
    const std::string name = shorten(h.bot, 40);
    std::ostringstream head;
    head << std::fixed << std::setprecision(2) << h.moves << " moves, median " << h.median_ms
         << " ms, max " << h.max_ms << " ms";
    s += "<text class=\"chart-title\" x=\"" + num(left) + "\" y=\"14\" fill=\"" +
         series_colour(h.colour) + "\">" + html_escape(name) + "</text>";
    s += "<text class=\"tick\" x=\"" + num(left + plot_width) + "\" y=\"14\" text-anchor=\"end\">" +
         head.str() + "</text>";
    for (std::size_t k = 0; k < h.counts.size(); ++k) {
        if (h.counts[k] == 0) continue;
        const double x0 = X(h.edges[k]), x1 = X(h.edges[k + 1]);
        const double bh =
            plot_height * static_cast<double>(h.counts[k]) / static_cast<double>(most);
        std::ostringstream tip;
        tip << h.counts[k] << " moves of " << h.edges[k] << " to " << h.edges[k + 1] << " ms";
        s += "<rect x=\"" + num(x0 + 0.5) + "\" y=\"" + num(top + plot_height - bh) +
             "\" width=\"" + num(std::max(x1 - x0 - 1, 1.0)) + "\" height=\"" + num(bh) +
             "\" fill=\"" + series_colour(h.colour) + "\"><title>" + tip.str() + "</title></rect>";
    }
    s += "<line class=\"axis\" x1=\"" + num(left) + "\" x2=\"" + num(left + plot_width) +
         "\" y1=\"" + num(top + plot_height) + "\" y2=\"" + num(top + plot_height) + "\"/>";
    for (double decade = std::pow(10.0, std::ceil(lo)); decade <= h.edges.back() * 1.0001;
         decade *= 10) {
        std::ostringstream label;
        if (decade >= 1000) {
            label << decade / 1000 << " s";
        } else {
            label << decade << " ms";
        }
        s += "<line class=\"grid\" x1=\"" + num(X(decade)) + "\" x2=\"" + num(X(decade)) +
             "\" y1=\"" + num(top) + "\" y2=\"" + num(top + plot_height) + "\"/>";
        s += "<text class=\"tick\" x=\"" + num(X(decade)) + "\" y=\"" +
             num(top + plot_height + 14) + "\" text-anchor=\"middle\">" + label.str() + "</text>";
    }
    if (move_ms) {
        s += "<line class=\"limit\" x1=\"" + num(X(*move_ms)) + "\" x2=\"" + num(X(*move_ms)) +
             "\" y1=\"" + num(top) + "\" y2=\"" + num(top + plot_height) + "\"><title>move_ms " +
             num(*move_ms) + "</title></line>";
        s += "<text class=\"tick limit-label\" x=\"" + num(X(*move_ms) - 3) + "\" y=\"" +
             num(top + plot_height + 28) + "\" text-anchor=\"end\">move_ms</text>";
        if (tolerance_ms && *tolerance_ms > 0) {
            const double at = *move_ms + *tolerance_ms;
            s += "<line class=\"limit tolerance\" x1=\"" + num(X(at)) + "\" x2=\"" + num(X(at)) +
                 "\" y1=\"" + num(top) + "\" y2=\"" + num(top + plot_height) +
                 "\"><title>move_ms + tolerance_ms " + num(at) + "</title></line>";
        }
    }
    return s + "</svg>";
}

}  // namespace arena::report
