#pragma once
// Text a bot controls (its name, its stderr), made safe to print on a
// terminal: control characters become visible escapes. Shared by the
// game lines of the match layer and the commands that print stored games.

#include <string>
#include <string_view>

namespace arena::record {

// `text` with every control character written as \xNN: bytes 0x00-0x1f and
// 0x7f, and the C1 controls U+0080-U+009F (UTF-8 C2 80 - C2 9F), which some
// terminals also obey. With `keep_layout`, newlines and tabs stay as they are.
[[nodiscard]] std::string escape_controls(std::string_view text, bool keep_layout = false);

}  // namespace arena::record
