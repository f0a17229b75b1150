#pragma once
// Reading a YAML config document, as the config (config.cpp) and its bots
// (config_bots.cpp) both do: the fields of a map checked against the known
// keys, typed values (strings, bounded integers, numbers, booleans), and
// the ConfigError that names the file, line and column of a problem.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arena::tournament {

// A key and its value in a map. The key's mark is where a missing value is
// reported (yaml-cpp marks an empty value at the next token).
struct Field {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
};

class FieldReader {
  public:
    // `file` is what messages name.
    explicit FieldReader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const YAML::Mark& mark, const std::string& problem) const;
    [[noreturn]] void missing(const YAML::Node& map, std::string_view key,
                              std::string_view where) const;

    // The entries of a map, checked against the known keys (when given) and
    // for duplicates. `where` names the map in messages ("" at the top).
    [[nodiscard]] std::vector<Field> fields_of(const YAML::Node& map,
                                               std::initializer_list<std::string_view> known,
                                               std::string_view where) const;
    [[nodiscard]] static const Field* find(const std::vector<Field>& fields, std::string_view key);

    void require_value(const Field& f) const;
    void require_map(const Field& f) const;
    [[nodiscard]] std::string string_value(const Field& f) const;
    // A decimal integer in [lo, hi].
    [[nodiscard]] std::int64_t integer(const Field& f, std::int64_t lo, std::int64_t hi) const;
    [[nodiscard]] std::uint64_t unsigned_integer(const Field& f) const;
    // A finite number in [lo, hi].
    [[nodiscard]] double real(const Field& f, double lo, double hi) const;
    [[nodiscard]] bool boolean(const Field& f) const;

    // How a value that has the wrong type is shown in a message.
    [[nodiscard]] static std::string describe(const YAML::Node& node);
    [[nodiscard]] static std::string in_quotes(std::string_view s);
    // Names of the tournament and its bots, which become part of file names.
    [[nodiscard]] static bool is_valid_name(std::string_view name);
    // "" when `name` is short enough; else the message, the name shortened.
    [[nodiscard]] static std::string name_length_problem(const std::string& what,
                                                         const std::string& name);

  protected:
    std::string file_;  // what fail() names
};

}  // namespace arena::tournament
