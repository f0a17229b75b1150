#include "arena/store/lookup.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "arena/record/escape.hpp"
#include "arena/record/suggest.hpp"

namespace arena::store {

std::optional<std::int64_t> parse_game_id(const std::string& text) {
    std::int64_t id = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, id);
    if (text.empty() || text.front() == '-' || ec != std::errc() || ptr != end || id < 1)
        return std::nullopt;
    return id;
}

std::string bad_game_id(const std::string& text) {
    return "GAME must be a game id (a positive whole number), got '" +
           record::escape_controls(text) + "'";
}

PickedTournament pick_tournament(ResultsStore& store, const std::optional<std::string>& name,
                                 const std::string& db, bool escape_names) {
    const auto shown = [&](const std::string& text) {
        return escape_names ? record::escape_controls(text) : text;
    };
    if (name) {
        auto t = store.find_tournament(*name);
        if (t) return {std::move(t), ""};
        return {std::nullopt, "no tournament '" + shown(*name) + "' in " + db};
    }
    auto all = store.tournaments();
    if (all.size() == 1) return {std::move(all.front()), ""};
    if (all.empty()) return {std::nullopt, "no tournament in " + db};
    std::string problem =
        db + " holds " + std::to_string(all.size()) + " tournaments; choose one with --tournament:";
    for (const auto& t : all)
        problem += " " + shown(t.spec.name);
    return {std::nullopt, problem};
}

std::string missing_bot(ResultsStore& store, const TournamentRow& tournament,
                        const std::string& bot, const std::string& db) {
    const auto bots = store.bots(tournament.id);
    if (std::any_of(bots.begin(), bots.end(), [&](const auto& b) { return b.name == bot; }))
        return "";
    return "tournament '" + tournament.spec.name + "' in " + db + " has no bot '" + bot + "'";
}

std::string unknown_termination(const std::string& kind) {
    std::vector<std::string_view> kinds;
    for (const auto t : record::kAllTerminations)
        kinds.push_back(record::to_string(t));
    if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return "";
    std::string list;
    for (const auto k : kinds)
        list += (list.empty() ? "" : ", ") + std::string(k);
    return "unknown ending '" + record::escape_controls(kind) + "'" +
           record::suggestion(kind, kinds) + "; endings: " + list;
}

}  // namespace arena::store
