#include "arena/tournament/config_fields.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "arena/record/suggest.hpp"
#include "arena/tournament/config.hpp"

namespace arena::tournament {
namespace {

constexpr std::string_view kNameChars =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-";

}  // namespace

std::int64_t parse_bounded_integer(const std::string& name, const std::string& text,
                                   std::int64_t lo, std::int64_t hi) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    const bool overflow = ec == std::errc::result_out_of_range && ptr == end;
    if (text.empty() || ptr != end || (ec != std::errc() && !overflow)) {
        // 'move_ms' from a config, --move-ms as typed on a command line.
        std::string message = "expected an integer for ";
        if (name.starts_with('-')) {
            message += name;
        } else {
            message.append("'").append(name).append("'");
        }
        message.append(", got '").append(text).append("'");
        throw std::invalid_argument(message);
    }
    const bool negative = text.front() == '-';
    if (!overflow && value >= lo && value <= hi) return value;
    std::string rule;
    if (negative && lo == 0) {
        rule = "must not be negative";
    } else if (lo == 1 && (negative || value < 1)) {
        rule = "must be positive";
    } else if (negative || (!overflow && value < lo)) {
        rule = "must be at least " + std::to_string(lo);
    } else {
        rule = "must be at most " + std::to_string(hi);
    }
    throw std::invalid_argument(name + " " + rule + ", got " + text);
}

void FieldReader::fail(const YAML::Mark& mark, const std::string& problem) const {
    // An empty document has no mark; point at its start.
    const int line = mark.is_null() ? 1 : mark.line + 1;
    const int column = mark.is_null() ? 1 : mark.column + 1;
    throw ConfigError(file_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                      problem);
}

void FieldReader::missing(const YAML::Node& map, std::string_view key,
                          std::string_view where) const {
    fail(map.Mark(), "missing required key " + in_quotes(key) +
                         (where.empty() ? std::string() : " in " + std::string(where)));
}

std::vector<Field> FieldReader::fields_of(const YAML::Node& map,
                                          std::initializer_list<std::string_view> known,
                                          std::string_view where) const {
    std::vector<Field> fields;
    const std::string in = where.empty() ? std::string() : " in " + std::string(where);
    for (const auto& entry : map) {
        const YAML::Node key = entry.first;
        if (!key.IsScalar())
            fail(key.Mark(), "expected a key name" + in + ", got " + describe(key));
        const std::string name = key.Scalar();
        if (known.size() != 0 && std::find(known.begin(), known.end(), name) == known.end()) {
            fail(key.Mark(),
                 "unknown key " + in_quotes(name) + in + record::suggestion(name, known));
        }
        if (const Field* first = find(fields, name)) {
            fail(key.Mark(), "duplicate key " + in_quotes(name) + in + " (first at line " +
                                 std::to_string(first->key_node.Mark().line + 1) + ")");
        }
        fields.push_back({name, key, entry.second});
    }
    return fields;
}

const Field* FieldReader::find(const std::vector<Field>& fields, std::string_view key) {
    const auto it =
        std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.key == key; });
    return it == fields.end() ? nullptr : &*it;
}

void FieldReader::require_value(const Field& f) const {
    if (!f.value.IsDefined() || f.value.IsNull()) {
        fail(f.key_node.Mark(), "missing value for " + in_quotes(f.key));
    }
}

void FieldReader::require_map(const Field& f) const {
    require_value(f);
    if (!f.value.IsMap()) {
        fail(f.value.Mark(),
             "expected a map for " + in_quotes(f.key) + ", got " + describe(f.value));
    }
}

std::string FieldReader::string_value(const Field& f) const {
    require_value(f);
    if (!f.value.IsScalar()) {
        fail(f.value.Mark(),
             "expected a string for " + in_quotes(f.key) + ", got " + describe(f.value));
    }
    return f.value.Scalar();
}

std::int64_t FieldReader::integer(const Field& f, std::int64_t lo, std::int64_t hi) const {
    require_value(f);
    if (!f.value.IsScalar()) {
        fail(f.value.Mark(),
             "expected an integer for " + in_quotes(f.key) + ", got " + describe(f.value));
    }
    try {
        return parse_bounded_integer(f.key, f.value.Scalar(), lo, hi);
    } catch (const std::invalid_argument& e) {
        fail(f.value.Mark(), e.what());
    }
}

std::uint64_t FieldReader::unsigned_integer(const Field& f) const {
    require_value(f);
    const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
    if (f.value.IsScalar() && text.starts_with('-')) {
        // Still an integer? Then the sign is the problem.
        std::int64_t ignored = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ignored);
        if (ptr == text.data() + text.size() && ec != std::errc::invalid_argument) {
            fail(f.value.Mark(), f.key + " must not be negative, got " + text);
        }
    }
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (!f.value.IsScalar() || ptr != end || ec == std::errc::invalid_argument) {
        fail(f.value.Mark(), "expected an integer for " + in_quotes(f.key) + ", got " +
                                 (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
    }
    if (ec == std::errc::result_out_of_range) {
        fail(f.value.Mark(), f.key + " must be at most " +
                                 std::to_string(std::numeric_limits<std::uint64_t>::max()) +
                                 ", got " + text);
    }
    return value;
}

double FieldReader::real(const Field& f, double lo, double hi) const {
    require_value(f);
    const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (!f.value.IsScalar() || text.empty() || ptr != end || ec != std::errc() ||
        !std::isfinite(value)) {
        fail(f.value.Mark(), "expected a number for " + in_quotes(f.key) + ", got " +
                                 (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
    }
    if (value < lo || value > hi) {
        std::ostringstream range;
        range << f.key << " must be between " << lo << " and " << hi << ", got " << text;
        fail(f.value.Mark(), range.str());
    }
    return value;
}

bool FieldReader::boolean(const Field& f) const {
    require_value(f);
    const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
    if (text == "true") return true;
    if (text == "false") return false;
    fail(f.value.Mark(), "expected true or false for " + in_quotes(f.key) + ", got " +
                             (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
}

std::string FieldReader::describe(const YAML::Node& node) {
    if (node.IsMap()) return "a map";
    if (node.IsSequence()) return "a list";
    if (node.IsScalar()) return "'" + node.Scalar() + "'";
    return "nothing";
}

std::string FieldReader::in_quotes(std::string_view s) {
    return "'" + std::string(s) + "'";
}

bool FieldReader::is_valid_name(std::string_view name) {
    return !name.empty() && name.find_first_not_of(kNameChars) == std::string_view::npos;
}

std::string FieldReader::name_length_problem(const std::string& what, const std::string& name) {
    if (name.size() <= bounds::kMaxNameLength) return "";
    return what + " '" + name.substr(0, 24) + "...' is " + std::to_string(name.size()) +
           " characters long; at most " + std::to_string(bounds::kMaxNameLength) +
           " are allowed (it becomes part of file names)";
}

}  // namespace arena::tournament
