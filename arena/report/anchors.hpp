#pragma once
// The ratings' anchors as text: read from `--anchor BOT=ELO` and from the
// `anchors:` of a tournament's stored config, and described in the header
// line of the standings ("ratings anchored: a 1500, b 0"). `arena
// standings`, `arena report`, `arena rate` and `arena serve` read them the
// same way.

#include <string>
#include <vector>

#include "arena/rating/elo.hpp"

namespace arena::report {

// One `--anchor` value: "BOT=ELO", or "BOT" alone for BOT=0 (the last '='
// splits, so a name may hold one: "a=b=0"). Throws std::invalid_argument
// naming the option and the value when ELO is not a finite number in
// [-100000, 100000] or BOT is empty.
[[nodiscard]] rating::Anchor parse_anchor(const std::string& text);
// Every `--anchor` value, in order; also throws when a bot comes twice.
[[nodiscard]] std::vector<rating::Anchor> parse_anchors(const std::vector<std::string>& texts);

// What the ratings are relative to: "ratings: mean 0", or "ratings
// anchored: a 1500, b 0"; an anchor named in `without_games` is marked
// "(no games)".
[[nodiscard]] std::string scale_text(const std::vector<rating::Anchor>& anchors,
                                     const std::vector<std::string>& without_games = {});

}  // namespace arena::report
