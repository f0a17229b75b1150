#include "arena/record/control_text.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

namespace arena::record {

bool Control::same_time(const Control& other) const {
    return move_ms == other.move_ms && tolerance_ms == other.tolerance_ms &&
           game_ms == other.game_ms && inc_ms == other.inc_ms;
}

std::string control_text(const Control& c) {
    std::string text =
        "move_ms=" + std::to_string(c.move_ms) + " tolerance_ms=" + std::to_string(c.tolerance_ms);
    if (c.game_ms > 0)
        text += " game_ms=" + std::to_string(c.game_ms) + " inc_ms=" + std::to_string(c.inc_ms);
    if (c.depth) text += " depth=" + std::to_string(*c.depth);
    if (c.nodes) text += " nodes=" + std::to_string(*c.nodes);
    return text;
}

std::optional<Control> parse_control(std::string_view text) {
    Control c;
    bool move = false, tolerance = false;
    std::size_t from = 0;
    while (from < text.size()) {
        if (text[from] == ' ') {
            ++from;
            continue;
        }
        const std::size_t end = std::min(text.find(' ', from), text.size());
        const std::string_view word = text.substr(from, end - from);
        from = end;
        const auto eq = word.find('=');
        if (eq == std::string_view::npos) return std::nullopt;
        const std::string_view key = word.substr(0, eq), digits = word.substr(eq + 1);
        std::int64_t value = 0;
        const char* last = digits.data() + digits.size();
        const auto [ptr, ec] = std::from_chars(digits.data(), last, value);
        if (digits.empty() || ec != std::errc() || ptr != last || value < 0) return std::nullopt;
        if (key == "move_ms") {
            c.move_ms = value;
            move = true;
        } else if (key == "tolerance_ms") {
            c.tolerance_ms = value;
            tolerance = true;
        } else if (key == "game_ms") {
            c.game_ms = value;
        } else if (key == "inc_ms") {
            c.inc_ms = value;
        } else if (key == "depth") {
            c.depth = value;
        } else if (key == "nodes") {
            c.nodes = value;
        } else {
            return std::nullopt;
        }
    }
    if (!move || !tolerance) return std::nullopt;
    return c;
}

std::string time_description(const Control& c) {
    if (c.game_ms <= 0) return std::to_string(c.move_ms) + " ms/move";
    std::string text = std::to_string(c.game_ms) + " ms/game";
    if (c.inc_ms > 0) text += " + " + std::to_string(c.inc_ms) + " ms/move";
    if (c.move_ms > 0) text += ", at most " + std::to_string(c.move_ms) + " ms/move";
    return text;
}

std::string limits_description(const Control& c) {
    std::string text;
    if (c.depth) text = "depth " + std::to_string(*c.depth);
    if (c.nodes) text += (text.empty() ? "" : ", ") + std::to_string(*c.nodes) + " nodes";
    return text.empty() ? "none" : text;
}

}  // namespace arena::record
