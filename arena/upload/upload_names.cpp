#include "arena/upload/upload_names.hpp"

#include <algorithm>

#include "arena/record/escape.hpp"

namespace arena::upload::detail {
namespace {

constexpr std::size_t kShownBytes = 200;

bool is_control(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
}

bool is_plain_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '+' || c == '-';
}

}  // namespace

std::string shown(std::string_view text) {
    const bool cut = text.size() > kShownBytes;
    return "'" + record::escape_controls(text.substr(0, kShownBytes)) + (cut ? "...'" : "'");
}

std::string size_text(std::uint64_t bytes) {
    constexpr std::uint64_t kKiB = 1024;
    constexpr std::uint64_t kMiB = kKiB * kKiB;
    if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
    if (bytes >= kKiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

std::string upload_name_problem(std::string_view name, const UploadLimits& limits) {
    if (name.empty()) return "the upload has no file name";
    if (name.size() > limits.max_name) {
        return "its name is longer than " + std::to_string(limits.max_name) + " bytes";
    }
    if (name == "." || name == "..") return "its name is not a file name";
    if (std::any_of(name.begin(), name.end(), is_control)) {
        return "its name holds a control character";
    }
    if (name.find_first_of("/\\") != std::string_view::npos) {
        return "its name is a path (a file name has no '/' or '\\')";
    }
    return "";
}

std::string file_name_problem(std::string_view name, const UploadLimits& limits) {
    if (std::string problem = upload_name_problem(name, limits); !problem.empty()) return problem;
    if (!std::all_of(name.begin(), name.end(), is_plain_char)) {
        return "a single file's name may hold only letters, digits and _ . + - (it becomes "
               "the bot's file name)";
    }
    if (name.front() == '.' || name.front() == '-') {
        return "a single file's name may not start with '.' or '-'";
    }
    return "";
}

std::string entry_text(std::string_view path) {
    return "entry " + shown(path);
}

std::vector<std::string> entry_parts(std::string_view path, const UploadLimits& limits) {
    const auto refuse = [&](const std::string& why) {
        throw Refusal(entry_text(path) + ": " + why);
    };
    if (path.size() > limits.max_path) {
        refuse("a path longer than " + std::to_string(limits.max_path) + " bytes");
    }
    if (std::any_of(path.begin(), path.end(), is_control)) {
        refuse("a control character in its path");
    }
    if (path.find('\\') != std::string_view::npos) {
        refuse("a backslash in its path (paths in an archive are written with '/')");
    }
    if (!path.empty() && path.front() == '/') {
        refuse("an absolute path (an archive's paths must be relative to the bot's folder)");
    }
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        start = end + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") refuse("'..' in its path (an entry must stay inside the bot's folder)");
        if (part.size() > limits.max_name) {
            refuse("a name longer than " + std::to_string(limits.max_name) + " bytes in its path");
        }
        parts.emplace_back(part);
    }
    if (parts.size() > limits.max_depth) {
        refuse("a path deeper than " + std::to_string(limits.max_depth) + " levels");
    }
    return parts;
}

}  // namespace arena::upload::detail
