#include "arena/report/odds_text.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "arena/record/control_text.hpp"

namespace arena::report {

std::vector<std::string> odds_lines(const std::vector<std::string>& names,
                                    const std::vector<std::string>& controls) {
    std::vector<std::pair<std::string, record::Control>> known;
    for (std::size_t i = 0; i < names.size() && i < controls.size(); ++i)
        if (auto c = record::parse_control(controls[i])) known.emplace_back(names[i], *c);
    if (known.size() < 2) return {};
    const auto& first = known.front().second;
    const auto differ = [&](auto same) {
        return std::any_of(known.begin(), known.end(),
                           [&](const auto& k) { return !same(k.second, first); });
    };
    const auto line = [&](const std::string& label, auto describe) {
        std::string text = label + ": ";
        for (const auto& [name, control] : known) {
            if (&name != &known.front().first) text += ", ";
            text += name + " " + describe(control);
        }
        return text;
    };
    std::vector<std::string> lines;
    if (differ([](const auto& a, const auto& b) { return a.same_time(b); }))
        lines.push_back(line("time odds", record::time_description));
    if (differ([](const auto& a, const auto& b) { return a.same_limits(b); }))
        lines.push_back(line("search limits", record::limits_description));
    return lines;
}

std::vector<std::string> odds_lines(store::ResultsStore& store,
                                    const store::TournamentRow& tournament) {
    std::vector<std::string> names;
    for (const auto& bot : store.bots(tournament.id))
        names.push_back(bot.name);
    return odds_lines(names, store.bot_controls(tournament.id));
}

}  // namespace arena::report
