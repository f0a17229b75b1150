#include "arena/serve/target.hpp"

namespace arena::serve {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%') {
            if (i + 2 >= text.size()) return std::nullopt;  // cut short
            const int hi = hex_value(text[i + 1]);
            const int lo = hex_value(text[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (c == '+' && plus_is_space) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<Target> parse_target(std::string_view raw, std::string& problem) {
    if (raw.size() > kMaxTargetBytes) {
        problem = "the target is longer than " + std::to_string(kMaxTargetBytes) + " bytes";
        return std::nullopt;
    }
    if (raw.empty() || raw.front() != '/') {
        problem = "the target is not an absolute path";
        return std::nullopt;
    }
    for (const char c : raw) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte <= 0x20 || byte == 0x7f || c == '\\') {
            problem = "the target holds a control character, a space or a backslash";
            return std::nullopt;
        }
    }
    Target target;
    const auto question = raw.find('?');
    std::string_view path = raw.substr(0, question);
    std::string_view query = question == std::string_view::npos ? "" : raw.substr(question + 1);
    if (const auto hash = query.find('#'); hash != std::string_view::npos)
        query = query.substr(0, hash);
    std::size_t from = 1;
    while (from <= path.size()) {
        const std::size_t end = std::min(path.find('/', from), path.size());
        const std::string_view raw_segment = path.substr(from, end - from);
        from = end + 1;
        if (raw_segment.empty()) continue;
        auto segment = percent_decode(raw_segment, false);
        if (!segment) {
            problem = "a bad percent escape in the path";
            return std::nullopt;
        }
        if (*segment == "." || *segment == ".." ||
            segment->find_first_of(std::string_view("/\\\0", 3)) != std::string::npos) {
            problem = "the path holds a '.' or '..' segment, or an escaped slash or NUL";
            return std::nullopt;
        }
        target.path.push_back(std::move(*segment));
    }
    from = 0;
    while (from < query.size()) {
        const std::size_t end = std::min(query.find('&', from), query.size());
        const std::string_view pair = query.substr(from, end - from);
        from = end + 1;
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        auto key = percent_decode(pair.substr(0, eq), true);
        auto value = percent_decode(eq == std::string_view::npos ? "" : pair.substr(eq + 1), true);
        if (!key || !value) {
            problem = "a bad percent escape in the query";
            return std::nullopt;
        }
        if (key->find('\0') != std::string::npos || value->find('\0') != std::string::npos) {
            problem = "the query holds a NUL byte";
            return std::nullopt;
        }
        target.query[std::move(*key)] = std::move(*value);
    }
    return target;
}

std::optional<long long> parse_id(std::string_view text) {
    if (text.empty() || text.size() > 18) return std::nullopt;
    long long value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

}  // namespace arena::serve
