#pragma once
// Writing a page to a file whole or not at all: it is written to a
// temporary file beside the target, then renamed over it, so that a failed
// or interrupted write never leaves half a report where a whole one was.

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace arena::report {

// Calls `write` with a stream to the temporary file, then renames it to
// `target`. Returns "" when the file is in place, else why not (the
// system's words: "No such file or directory"); the temporary file is then
// gone. An exception from `write` goes through, the temporary file removed.
[[nodiscard]] std::string write_whole_file(const std::filesystem::path& target,
                                           const std::function<void(std::ostream&)>& write);

}  // namespace arena::report
