#pragma once
// Bot command lines as users write them: split into words like a POSIX
// shell splits them (quotes and backslashes), but never run by a shell.

#include <string>
#include <string_view>
#include <vector>

namespace arena::session {

// Throws std::invalid_argument for an empty command or an unbalanced quote.
[[nodiscard]] std::vector<std::string> split_command(std::string_view command);

// The words as one command line that split_command() splits back into them.
[[nodiscard]] std::string join_command(const std::vector<std::string>& words);

}  // namespace arena::session
