#include "arena/report/anchors.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "arena/record/escape.hpp"

namespace arena::report {
namespace {

// Ratings the config and --anchor accept: the config's own bounds.
constexpr double kMaxAnchorElo = 100'000.0;

// A rating as written, or nullopt: a whole number or a decimal, finite and
// within ±kMaxAnchorElo.
std::optional<double> parse_elo(std::string_view text) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ptr != end || ec != std::errc() || !std::isfinite(value) ||
        std::abs(value) > kMaxAnchorElo)
        return std::nullopt;
    return value;
}

// The shortest text that reads back as `elo`: "1500", "-12.5".
std::string elo_text(double elo) {
    std::array<char, 32> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), elo);
    if (ec != std::errc()) return std::to_string(elo);
    const std::string text(buffer.data(), end);
    return text == "-0" ? "0" : text;
}

void reject_repeats(const std::vector<rating::Anchor>& anchors, const std::string& where) {
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (anchors[i].name == anchors[j].name) {
                throw std::invalid_argument(where + "bot '" +
                                            record::escape_controls(anchors[i].name) +
                                            "' is anchored twice");
            }
        }
    }
}

}  // namespace

rating::Anchor parse_anchor(const std::string& text) {
    const auto where = [&] { return "--anchor '" + record::escape_controls(text) + "': "; };
    const auto eq = text.rfind('=');
    rating::Anchor anchor{text.substr(0, eq), 0.0};
    if (eq != std::string::npos) {
        const auto elo = parse_elo(std::string_view(text).substr(eq + 1));
        if (!elo) {
            throw std::invalid_argument(
                where() +
                "the rating after '=' must be a number from -100000 to 100000 "
                "(BOT=ELO, e.g. --anchor random=0)");
        }
        anchor.elo = *elo;
    }
    if (anchor.name.empty()) throw std::invalid_argument(where() + "no bot name before '='");
    return anchor;
}

std::vector<rating::Anchor> parse_anchors(const std::vector<std::string>& texts) {
    std::vector<rating::Anchor> anchors;
    for (const auto& text : texts)
        anchors.push_back(parse_anchor(text));
    reject_repeats(anchors, "--anchor: ");
    return anchors;
}

std::vector<rating::Anchor> anchors_of_config_text(const std::string& text) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception&) {
        return {};
    }
    if (!root.IsMap()) return {};
    const YAML::Node node = root["anchors"];
    if (!node.IsDefined() || node.IsNull()) return {};
    const std::string where = "the config's 'anchors': ";
    if (!node.IsMap()) throw std::invalid_argument(where + "not a map of bot: rating");
    std::vector<rating::Anchor> anchors;
    for (const auto& entry : node) {
        const std::string name = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        const auto elo = entry.second.IsScalar() ? parse_elo(entry.second.Scalar()) : std::nullopt;
        if (name.empty()) throw std::invalid_argument(where + "an entry without a bot name");
        if (!elo) {
            throw std::invalid_argument(where + "the rating of '" + record::escape_controls(name) +
                                        "' is not a number from -100000 to 100000");
        }
        anchors.push_back({name, *elo});
    }
    reject_repeats(anchors, where);
    return anchors;
}

std::string scale_text(const std::vector<rating::Anchor>& anchors,
                       const std::vector<std::string>& without_games) {
    if (anchors.empty()) return "ratings: mean 0";
    std::string text = "ratings anchored:";
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        const auto& a = anchors[i];
        text += (i == 0 ? " " : ", ") + record::escape_controls(a.name) + " " + elo_text(a.elo);
        if (std::find(without_games.begin(), without_games.end(), a.name) != without_games.end())
            text += " (no games)";
    }
    return text;
}

}  // namespace arena::report
