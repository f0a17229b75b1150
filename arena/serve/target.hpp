#pragma once
// A request target ("/t/0/3?since=12") taken apart strictly: path segments
// and query parameters, percent-decoded. Anything doubtful is refused
// rather than guessed at: a target that is not an absolute path, a bad or
// truncated percent escape, a NUL byte, a segment that is "." or ".." (raw or
// encoded), or a slash hidden in an escape. The server maps segments to
// databases, tournaments and games by number; no segment ever names a file.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena::serve {

struct Target {
    std::vector<std::string> path;  // decoded segments; empty ones dropped ("/" is {})
    std::map<std::string, std::string> query;
};

// The longest target accepted.
inline constexpr std::size_t kMaxTargetBytes = 4096;

// The parsed target, or nullopt with `problem` set to why not.
[[nodiscard]] std::optional<Target> parse_target(std::string_view raw, std::string& problem);

// `text` percent-decoded ('+' as a space when `plus_is_space`); nullopt for a
// bad escape.
[[nodiscard]] std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

// A decimal number of at most 18 digits, nothing else; nullopt otherwise.
[[nodiscard]] std::optional<long long> parse_id(std::string_view text);

}  // namespace arena::serve
