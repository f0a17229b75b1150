#pragma once
// How `arena check-bot` words what it saw for people: durations and sizes
// as short figures, and a bot's lines escaped and cut, so that whatever a
// bot prints cannot garble the report.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace arena::check {

// "0.25 ms", "3.2 ms", "250 ms".
[[nodiscard]] std::string ms_text(double ms);
// `d` in milliseconds.
[[nodiscard]] double to_ms(std::chrono::steady_clock::duration d);
// "12.5 MiB".
[[nodiscard]] std::string mib_text(std::uint64_t bytes);

// A bot's line for a report: control characters escaped, cut.
[[nodiscard]] std::string shown(std::string_view line);
// The same in single quotes.
[[nodiscard]] std::string in_quotes(std::string_view text);
// The last lines of an exchange, with a count of the earlier ones in their place.
[[nodiscard]] std::vector<std::string> last_lines(std::vector<std::string> lines);

}  // namespace arena::check
