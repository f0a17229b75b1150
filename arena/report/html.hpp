#pragma once
// Text into an HTML page, safely: every string a bot controls (its name,
// `info` lines, stderr, a move that did not parse, a fault's detail) goes
// through html_escape() when it is written into the page's markup, and
// through script_json() when it travels in the page's embedded JSON data.
// Both also replace invalid UTF-8, which a bot's output may hold.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace arena::report {

// `text` as valid UTF-8: every byte that does not start a well-formed
// sequence (or a sequence cut short) becomes U+FFFD.
[[nodiscard]] std::string valid_utf8(std::string_view text);

// `text` for element content and quoted attribute values: & < > " ' as
// character references, invalid UTF-8 replaced, and control characters
// other than newline and tab written as \xNN (record::escape_controls).
[[nodiscard]] std::string html_escape(std::string_view text);

// `value` as JSON that can stand inside <script type="application/json">
// (or a JavaScript expression) in an HTML page: < > & and U+2028, U+2029
// written as \u escapes, so no text in it can close the script element or
// end a JavaScript line; invalid UTF-8 in strings replaced.
[[nodiscard]] std::string script_json(const nlohmann::json& value);

}  // namespace arena::report
