#pragma once
// The `tune:` section of a config (arena tune, docs/tuning.md): the tuned
// bot's command with a `{name}` where each parameter's value goes, the
// parameters, the number of pairs and the opponent. Read into Config::tune,
// the config's bots and its schedule; part of load_config (config.cpp).

#include <string>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/config_bots.hpp"
#include "arena/tournament/config_fields.hpp"

namespace arena::tournament {

class TuneParser : FieldReader {
  public:
    TuneParser(std::string file, Config& config, BotsParser& bots)
        : FieldReader(std::move(file)), config_(config), bots_(bots) {}

    // `tune:`, after `bot_defaults` and `time`.
    void parse(const Field& f);

  private:
    void parse_params(const Field& f);
    [[nodiscard]] tune::SpsaParam parse_param(const YAML::Node& node, int index);
    void parse_bot(const YAML::Node& node, const std::vector<Field>& fields);
    void check_placeholders(const Field& command) const;
    void parse_opponent(const Field& f);
    void check_options(const Field& f) const;

    Config& config_;
    BotsParser& bots_;
    std::vector<YAML::Mark> param_marks_;  // of each parameter's name
};

// The tuned bot's argv at `values` (one per parameter, in order): each
// `{name}` replaced by param_text.
[[nodiscard]] std::vector<std::string> tune_argv(const TuneConfig& tune,
                                                 const std::vector<double>& values);

// A value as it goes on the bot's command line: an integer parameter's
// rounded ("512"), any other's the shortest decimal that reads back as the
// same double ("511.63").
[[nodiscard]] std::string param_text(const tune::SpsaParam& param, double value);

}  // namespace arena::tournament
