#include "arena/report/anchors.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "arena/record/escape.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::report {
namespace {

// The shortest text that reads back as `elo`: "1500", "-12.5".
std::string elo_text(double elo) {
    std::array<char, 32> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), elo);
    if (ec != std::errc()) return std::to_string(elo);
    const std::string text(buffer.data(), end);
    return text == "-0" ? "0" : text;
}

}  // namespace

rating::Anchor parse_anchor(const std::string& text) {
    const auto where = [&] { return "--anchor '" + record::escape_controls(text) + "': "; };
    const auto eq = text.rfind('=');
    rating::Anchor anchor{text.substr(0, eq), 0.0};
    if (eq != std::string::npos) {
        const auto elo = tournament::parse_anchor_elo(std::string_view(text).substr(eq + 1));
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
    if (const auto* again = tournament::repeated_anchor(anchors)) {
        throw std::invalid_argument("--anchor: bot '" + record::escape_controls(again->name) +
                                    "' is anchored twice");
    }
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
