#pragma once
// The names of an upload (internal to arena_upload): the upload's own name,
// its entries' paths, and how either is shown in a message. Every name
// here is the sender's, so it is checked before it is used and escaped
// before it is shown.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arena/upload/upload.hpp"

namespace arena::upload::detail {

// The upload broke a rule; what() is the message after "upload 'NAME': ".
struct Refusal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The server's side failed (a system call, dest); what() as for Refusal.
struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `text` quoted, its control characters escaped (record::escape_controls),
// and cut to 200 bytes with "..." after it when longer.
[[nodiscard]] std::string shown(std::string_view text);

// "16 MiB", "3 KiB", or "1234 bytes".
[[nodiscard]] std::string size_text(std::uint64_t bytes);

// What is wrong with the upload's name, whatever its kind; empty if nothing.
// It is one name: not empty, at most max_name bytes, not "." or "..", no
// '/', '\\' or control character.
[[nodiscard]] std::string upload_name_problem(std::string_view name, const UploadLimits& limits);

// What is wrong with the upload's name as the name of the file it becomes
// (a single file); empty if nothing. Besides upload_name_problem: only
// letters, digits and _ . + -, and not starting with '.' or '-'.
[[nodiscard]] std::string file_name_problem(std::string_view name, const UploadLimits& limits);

// An entry's path as its names, without "." and empty parts ("./a//b/" is
// {"a", "b"}; "./" is {}). Throws Refusal naming the entry when the path is
// absolute, has a ".." part, a backslash or a control character, or breaks
// max_path, max_name or max_depth.
[[nodiscard]] std::vector<std::string> entry_parts(std::string_view path,
                                                   const UploadLimits& limits);

// "entry 'PATH'" for messages.
[[nodiscard]] std::string entry_text(std::string_view path);

}  // namespace arena::upload::detail
