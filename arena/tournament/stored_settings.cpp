#include "arena/tournament/stored_settings.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>

#include "arena/record/escape.hpp"

namespace arena::tournament {
namespace {

// The ratings an anchor may have: the config's own bounds.
constexpr double kMaxAnchorElo = 100'000.0;

std::optional<Scoring> read_scoring(const YAML::Node& root) {
    const YAML::Node node = root["scoring"];
    if (!node.IsDefined() || !node.IsMap()) return std::nullopt;
    Scoring scoring;
    const auto read = [&](const char* key, int& value) {
        const YAML::Node v = node[key];
        if (!v.IsDefined() || !v.IsScalar()) return;
        try {
            value = v.as<int>();
        } catch (const YAML::Exception&) {
            // Keep the default; see the header.
        }
    };
    read("win", scoring.win);
    read("draw", scoring.draw);
    read("loss", scoring.loss);
    return scoring;
}

// The anchors, or the problem (without the "the config's 'anchors': " that
// every one begins with).
std::vector<rating::Anchor> read_anchors(const YAML::Node& root, std::string& problem) {
    const YAML::Node node = root["anchors"];
    if (!node.IsDefined() || node.IsNull()) return {};
    if (!node.IsMap()) {
        problem = "not a map of bot: rating";
        return {};
    }
    std::vector<rating::Anchor> anchors;
    for (const auto& entry : node) {
        const std::string name = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        const auto elo =
            entry.second.IsScalar() ? parse_anchor_elo(entry.second.Scalar()) : std::nullopt;
        if (name.empty()) {
            problem = "an entry without a bot name";
            return {};
        }
        if (!elo) {
            problem = "the rating of '" + record::escape_controls(name) +
                      "' is not a number from -100000 to 100000";
            return {};
        }
        anchors.push_back({name, *elo});
    }
    if (const auto* again = repeated_anchor(anchors)) {
        problem = "bot '" + record::escape_controls(again->name) + "' is anchored twice";
        return {};
    }
    return anchors;
}

// The `time` map of `node` over `base` (the tournament's, for a bot); base
// itself when there is none, and nothing known when it does not read.
StoredSettings::Time read_time(const YAML::Node& node, StoredSettings::Time base = {}) {
    StoredSettings::Time t = base;
    try {
        if (!node["time"] || !node["time"].IsMap()) return t;
        const YAML::Node time = node["time"];
        if (time["move_ms"] && time["move_ms"].IsScalar()) t.move_ms = time["move_ms"].as<double>();
        if (!t.tolerance_ms) t.tolerance_ms = 10.0;  // the documented default
        if (time["tolerance_ms"] && time["tolerance_ms"].IsScalar())
            t.tolerance_ms = time["tolerance_ms"].as<double>();
    } catch (const YAML::Exception&) {
        return {};
    }
    return t;
}

// The bots of `bots:` that have a `time:` of their own.
std::map<std::string, StoredSettings::Time> read_bot_times(const YAML::Node& root,
                                                           const StoredSettings::Time& base) {
    std::map<std::string, StoredSettings::Time> times;
    try {
        const YAML::Node bots = root["bots"];
        if (!bots || !bots.IsSequence()) return times;
        for (const auto& bot : bots) {
            if (!bot.IsMap() || !bot["name"] || !bot["name"].IsScalar() || !bot["time"]) continue;
            times[bot["name"].as<std::string>()] = read_time(bot, base);
        }
    } catch (const YAML::Exception&) {
        return {};
    }
    return times;
}

std::optional<StoredSettings::GauntletTest> read_gauntlet_test(const YAML::Node& root) {
    try {
        const YAML::Node schedule = root["schedule"];
        if (!schedule || !schedule.IsMap() || !schedule["sprt"] || !schedule["challenger"])
            return std::nullopt;
        const YAML::Node sprt = schedule["sprt"];
        if (!sprt.IsMap() || !sprt["elo0"] || !sprt["elo1"]) return std::nullopt;
        StoredSettings::GauntletTest test;
        test.challenger = schedule["challenger"].as<std::string>();
        test.options.elo0 = sprt["elo0"].as<double>();
        test.options.elo1 = sprt["elo1"].as<double>();
        if (sprt["alpha"]) test.options.alpha = sprt["alpha"].as<double>();
        if (sprt["beta"]) test.options.beta = sprt["beta"].as<double>();
        if (sprt["model"]) {
            const auto model = rating::parse_sprt_model(sprt["model"].as<std::string>());
            if (!model) return std::nullopt;
            test.options.model = *model;
        }
        if (!rating::sprt_options_problem(test.options).empty()) return std::nullopt;
        const std::int64_t games_per_pair =
            schedule["games_per_pair"] ? schedule["games_per_pair"].as<std::int64_t>() : 2;
        const std::int64_t rounds = schedule["rounds"] ? schedule["rounds"].as<std::int64_t>() : 1;
        if (games_per_pair > 0 && rounds > 0) test.most_pairs = games_per_pair / 2 * rounds;
        return test;
    } catch (const YAML::Exception&) {
        return std::nullopt;
    }
}

// A number of a map, or nothing when it is missing or not a finite number.
std::optional<double> read_number(const YAML::Node& map, const char* key) {
    try {
        const YAML::Node v = map[key];
        if (!v || !v.IsScalar()) return std::nullopt;
        const double x = v.as<double>();
        return std::isfinite(x) ? std::optional(x) : std::nullopt;
    } catch (const YAML::Exception&) {
        return std::nullopt;
    }
}

std::optional<StoredSettings::Tune> read_tune(const YAML::Node& root) {
    const YAML::Node node = root["tune"];
    if (!node || !node.IsMap()) return std::nullopt;
    StoredSettings::Tune tune;
    try {
        const YAML::Node pairs = node["pairs"];
        if (pairs && pairs.IsScalar()) tune.pairs = pairs.as<std::int64_t>();
    } catch (const YAML::Exception&) {
        tune.pairs.reset();
    }
    const YAML::Node params = node["params"];
    if (!params || !params.IsSequence()) return tune;
    for (const auto& entry : params) {
        if (!entry.IsMap() || !entry["name"] || !entry["name"].IsScalar()) continue;
        StoredSettings::TuneParam p;
        p.name = entry["name"].Scalar();
        p.start = read_number(entry, "start");
        p.min = read_number(entry, "min");
        p.max = read_number(entry, "max");
        try {
            p.integer =
                entry["integer"] && entry["integer"].IsScalar() && entry["integer"].as<bool>();
        } catch (const YAML::Exception&) {
            p.integer = false;
        }
        tune.params.push_back(std::move(p));
    }
    return tune;
}

}  // namespace

std::optional<double> parse_anchor_elo(std::string_view text) {
    double elo = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, elo);
    if (text.empty() || ptr != end || ec != std::errc() || !std::isfinite(elo) ||
        std::abs(elo) > kMaxAnchorElo)
        return std::nullopt;
    return elo;
}

const rating::Anchor* repeated_anchor(const std::vector<rating::Anchor>& anchors) {
    for (auto later = anchors.begin(); later != anchors.end(); ++later) {
        const auto same = [&](const rating::Anchor& a) { return a.name == later->name; };
        if (std::any_of(anchors.begin(), later, same)) return &*later;
    }
    return nullptr;
}

const std::vector<rating::Anchor>& StoredSettings::checked_anchors() const {
    if (!anchors_problem.empty()) throw std::invalid_argument(anchors_problem);
    return anchors;
}

StoredSettings stored_settings(const std::string& config_text) {
    YAML::Node root;
    try {
        root = YAML::Load(config_text);
    } catch (const YAML::Exception&) {
        return {};
    }
    if (!root.IsMap()) return {};
    StoredSettings settings;
    try {
        settings.scoring = read_scoring(root);
    } catch (const YAML::Exception&) {
        // No scoring, as for text that does not parse.
    }
    std::string problem;
    settings.anchors = read_anchors(root, problem);
    if (!problem.empty()) settings.anchors_problem = "the config's 'anchors': " + problem;
    settings.time = read_time(root);
    settings.bot_times = read_bot_times(root, settings.time);
    settings.gauntlet_test = read_gauntlet_test(root);
    settings.tune = read_tune(root);
    try {
        const YAML::Node schedule = root["schedule"];
        settings.ladder = schedule && schedule.IsMap() && schedule["type"] &&
                          schedule["type"].IsScalar() &&
                          schedule["type"].as<std::string>() == "ladder";
    } catch (const YAML::Exception&) {
        // Not a ladder's.
    }
    try {
        const YAML::Node count = root["count_repeats"];
        settings.count_repeats = count && count.IsScalar() && count.as<bool>();
    } catch (const YAML::Exception&) {
        // Not a boolean: repeats are set aside, the default.
    }
    return settings;
}

const StoredSettings::Time& StoredSettings::time_of(const std::string& bot) const {
    const auto own = bot_times.find(bot);
    return own == bot_times.end() ? time : own->second;
}

}  // namespace arena::tournament
