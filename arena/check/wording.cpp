#include "arena/check/wording.hpp"

#include <cstddef>
#include <cstdio>

#include "arena/record/escape.hpp"

namespace arena::check {
namespace {

// Lines shown of what was sent and received, for a failure.
constexpr std::size_t kShownLines = 10;
// A bot line is cut to this many bytes in a report.
constexpr std::size_t kShownLineBytes = 200;

}  // namespace

std::string ms_text(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, ms < 1 ? "%.2f ms" : ms < 10 ? "%.1f ms" : "%.0f ms", ms);
    return text;
}

double to_ms(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

std::string mib_text(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    return text;
}

std::string shown(std::string_view line) {
    std::string text = record::escape_controls(line.substr(0, kShownLineBytes));
    if (line.size() > kShownLineBytes) text += "...";
    return text;
}

std::string in_quotes(std::string_view text) {
    return "'" + shown(text) + "'";
}

std::vector<std::string> last_lines(std::vector<std::string> lines) {
    if (lines.size() <= kShownLines) return lines;
    std::vector<std::string> kept = {"(" + std::to_string(lines.size() - kShownLines + 1) +
                                     " earlier lines)"};
    kept.insert(kept.end(), lines.end() - static_cast<std::ptrdiff_t>(kShownLines - 1),
                lines.end());
    return kept;
}

}  // namespace arena::check
