#pragma once
// The bots of a config, read and checked one by one: the entries of its
// `bots:` list (a command, or with protocol: tsinghua-so a strategy library
// or a folder of them), the submissions of `bots_dir` (one folder each,
// described by its bot.yaml manifest), and the limits and isolation keys of
// `bot_defaults` that every bot starts from. Part of load_config (config.cpp).

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/config_fields.hpp"

namespace arena::tournament {

class BotsParser : FieldReader {
  public:
    // The bots go into config.bots, likely mistakes into config.warnings.
    // `file` (the config's) is what messages name, but in a manifest.
    BotsParser(std::string file, Config& config) : FieldReader(std::move(file)), config_(config) {}

    // `bot_defaults`, read before any bot, wherever it is written.
    void parse_defaults(const Field& f);
    // `bots:`, the list.
    void parse_bots(const Field& f);
    // `bots_dir`, after the list (and after the game, which each manifest's
    // protocol is checked against).
    void parse_bots_dir(const Field& f);
    // `bots_dir` with one folder in place of its subfolders (which are not
    // read): `folder`'s bot.yaml read as theirs are, the bot named `name`
    // (a manifest's `name` must be that). For submission_config.
    void parse_submission(const Field& bots_dir, const std::filesystem::path& folder,
                          const std::string& name);
    // `league:` (at `league`), after `bot_defaults` and before bots_dir: the
    // bots of bots_dir run sandboxed whatever bot_defaults says (a warning
    // when it says `sandbox: false`).
    void run_sandboxed(const YAML::Mark& league);
    // Once the game is known, whatever the order of the sections.
    void check_protocols() const;
    void check_tsinghua_bots() const;
    // A bot entry's name, checked (length, characters).
    [[nodiscard]] std::string bot_name(const Field& name) const;
    // The bot of one entry (its `command`, `args`, `dir`, `protocol`, limits
    // and `time`), over `bot` (`bot_defaults` and its name), appended to the
    // config's bots.
    void add_bot(const YAML::Node& node, const std::vector<Field>& fields, BotConfig bot);
    // What `bot_defaults` gave, for a bot made elsewhere (a tune's).
    [[nodiscard]] const BotConfig& defaults() const { return defaults_; }
    // The keys of a bot entry.
    [[nodiscard]] static std::initializer_list<std::string_view> entry_keys();
    // Whether the `bots:` list gave any bot.
    [[nodiscard]] bool has_listed_bots() const { return !name_lines_.empty(); }

  private:
    std::filesystem::path parse_command(const Field& command, const std::string& who,
                                        BotConfig& bot) const;
    void append_args(const Field& f, std::vector<std::string>& argv) const;
    void parse_dir(const std::vector<Field>& fields, const std::string& who, BotConfig& bot) const;
    void find_argument_files(const Field& command, const std::string& who, BotConfig& bot);
    static bool looks_like_file(std::string_view arg);
    void parse_bot_settings(const YAML::Node& node, const std::vector<Field>& fields,
                            const std::string& who, BotConfig& bot) const;
    void parse_isolation_key(const Field& f, BotConfig& bot) const;
    [[nodiscard]] match::TimeControl parse_bot_time(const Field& f, const std::string& who) const;
    void parse_limit(const Field& f, const std::string& who, match::SearchLimits& limits) const;
    [[nodiscard]] std::int64_t bot_integer(const Field& f, const std::string& who, std::int64_t lo,
                                           std::int64_t hi) const;
    static bool is_tsinghua_entry(const std::vector<Field>& fields);
    void parse_tsinghua_bots(const YAML::Node& node, const std::vector<Field>& fields,
                             const std::string& which, std::vector<int>& name_lines);
    [[nodiscard]] std::filesystem::path so_host(const YAML::Mark& mark,
                                                const std::string& who) const;
    void open_bots_dir(const Field& f);
    void parse_manifest(const std::filesystem::path& folder, const std::filesystem::path& manifest,
                        std::size_t listed, std::vector<std::string>& manifests,
                        const std::string& participant = "");
    void check_manifest_name(const std::vector<Field>& fields, const std::string& participant,
                             const YAML::Mark& mark, BotConfig& bot) const;
    void parse_manifest_library(const std::vector<Field>& fields, const std::string& who,
                                BotConfig& bot) const;
    void check_own_file(const YAML::Mark& mark, const std::string& who, const BotConfig& bot,
                        const std::string& path) const;

    Config& config_;
    BotConfig defaults_;                // from `bot_defaults`
    bool restart_in_defaults_ = false;  // `bot_defaults` writes `restart`
    std::vector<int> name_lines_;       // per bot of the `bots:` list, the line of its name
    // Where `bot_defaults` writes `sandbox`, and where `league:` is (the bots
    // of bots_dir then run sandboxed).
    std::optional<YAML::Mark> sandbox_in_defaults_;
    std::optional<YAML::Mark> league_;
    // Bots that name their protocol: index in config_.bots, where it is written.
    std::vector<std::pair<std::size_t, YAML::Mark>> protocol_marks_;
    // Each tsinghua-so entry ("bot 'x'" or "bot #n") and where it says so.
    std::vector<std::pair<std::string, YAML::Mark>> tsinghua_marks_;
    // Whether bubblewrap can make a sandbox here, asked at the first bot
    // with `sandbox: true` (session::sandbox_available runs it).
    mutable std::optional<bool> sandbox_available_;
};

}  // namespace arena::tournament
