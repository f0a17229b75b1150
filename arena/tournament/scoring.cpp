#include "arena/tournament/scoring.hpp"

#include <yaml-cpp/yaml.h>

namespace arena::tournament {

std::optional<Scoring> scoring_of_config_text(const std::string& text) {
    try {
        const YAML::Node root = YAML::Load(text);
        if (!root.IsMap()) return std::nullopt;
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
    } catch (const YAML::Exception&) {
        return std::nullopt;
    }
}

}  // namespace arena::tournament
