#pragma once
// The report's charts as inline SVG, drawn here so that the page needs no
// script to show them. Every label is escaped (html.hpp): bot names are
// the bots' to choose. Each chart is an <svg> element with a class
// (chart-ratings, chart-progress, chart-endings, chart-times, chart-tune)
// and a <title>.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace arena::report {

// A value to 4 significant digits, without an exponent or trailing zeros:
// 50.92, 0.0123, 12346; "—" when not finite.
[[nodiscard]] std::string short_number(double x);

// The colour of the i-th bot in every chart (cycles through ten).
[[nodiscard]] const char* series_colour(std::size_t i);

struct RatingBar {
    std::string name;
    double elo = 0, error = 0;  // error: half-width of the 95 % interval
};
// One row per bot, in the given order: the rating as a dot with its 95 %
// interval as a bar.
[[nodiscard]] std::string ratings_chart(const std::vector<RatingBar>& bars);

struct Series {
    std::string name;
    std::size_t colour = 0;                         // index for series_colour()
    std::vector<std::pair<double, double>> points;  // (x, y), x increasing
};
struct Guide {  // a labelled horizontal line, e.g. an SPRT bound
    double y = 0;
    std::string label;
};
// Lines over a shared x axis, with a legend.
[[nodiscard]] std::string line_chart(const std::vector<Series>& series, const std::string& title,
                                     const std::string& x_label, const std::string& y_label,
                                     const std::vector<Guide>& guides = {},
                                     const char* svg_class = "chart-progress");

// Horizontal bars: a label and a count each.
[[nodiscard]] std::string bar_chart(const std::vector<std::pair<std::string, std::int64_t>>& bars,
                                    const std::string& title);

// Move times on a log scale: `counts[k]` moves took from edges[k] to
// edges[k + 1] ms; a dashed line at `move_ms` (and one at move_ms plus the
// tolerance) when known.
struct TimeHistogram {
    std::string bot;
    std::size_t colour = 0;
    std::vector<double> edges;  // ms, increasing; one more than counts
    std::vector<std::int64_t> counts;
    std::int64_t moves = 0;
    double median_ms = 0, max_ms = 0;
};
[[nodiscard]] std::string time_histogram(const TimeHistogram& h, std::optional<double> move_ms,
                                         std::optional<double> tolerance_ms);

// One parameter of a tune (arena tune) over its iterations: its value as a
// line, the y axis over [lo, hi] (the parameter's range), the start as a
// dashed line and the last point labelled with `last_text`.
struct ParamPath {
    std::string name;
    std::size_t colour = 0;
    std::vector<std::pair<double, double>> points;  // (iteration, value), iteration increasing
    double lo = 0, hi = 1;                          // the y axis; values outside are drawn at it
    double x_end = 1;  // the x axis ends here or at the last point, whichever is later
    std::optional<double> start;
    std::string start_text, last_text;
};
[[nodiscard]] std::string param_chart(const ParamPath& p);

}  // namespace arena::report
