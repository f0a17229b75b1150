#include "arena/report/stored_anchors.hpp"

#include <algorithm>
#include <utility>

#include "arena/record/escape.hpp"

namespace arena::report {
namespace {

const store::BotEntry* find_bot(const std::vector<store::BotEntry>& bots, const std::string& name) {
    const auto found =
        std::find_if(bots.begin(), bots.end(), [&](const auto& b) { return b.name == name; });
    return found == bots.end() ? nullptr : &*found;
}

// The first anchor that is not one of `bots`.
const rating::Anchor* stranger(const std::vector<rating::Anchor>& anchors,
                               const std::vector<store::BotEntry>& bots) {
    for (const auto& anchor : anchors)
        if (!find_bot(bots, anchor.name)) return &anchor;
    return nullptr;
}

}  // namespace

ChosenAnchors standings_anchors(store::ResultsStore& store, const store::TournamentRow& t,
                                const std::optional<std::vector<rating::Anchor>>& given,
                                const tournament::StoredSettings& config, const std::string& db,
                                bool active_only) {
    const std::string where = "tournament '" + t.spec.name + "' in " + db;
    const std::string instead = " (give the anchors with --anchor BOT=ELO instead)";
    if (!given && !config.anchors_problem.empty())
        return {{}, where + ": " + config.anchors_problem + instead};
    ChosenAnchors chosen{given ? *given : config.anchors, ""};
    const auto bots = store.bots(t.id);
    if (const auto* a = stranger(chosen.anchors, bots)) {
        const std::string name = record::escape_controls(a->name);
        chosen.problem = given ? "--anchor " + name + ": " + where + " has no bot '" + name + "'"
                               : where + ": its config anchors '" + name +
                                     "', which is not one of its bots" + instead;
        return chosen;
    }
    if (!active_only) return chosen;
    for (const auto& b : bots) {
        const bool anchored = std::any_of(chosen.anchors.begin(), chosen.anchors.end(),
                                          [&](const auto& x) { return x.name == b.name; });
        if (!b.retired || !anchored) continue;
        chosen.problem = "--active leaves out '" + record::escape_controls(b.name) +
                         "', which plays no more, but the ratings are anchored on it (give "
                         "other anchors with --anchor BOT=ELO)";
        return chosen;
    }
    return chosen;
}

ChosenAnchors report_anchors(store::ResultsStore& store, const store::TournamentRow& t,
                             const std::optional<std::vector<rating::Anchor>>& given,
                             const tournament::StoredSettings& config, const std::string& db) {
    const std::string name = record::escape_controls(t.spec.name);
    if (!given && !config.anchors_problem.empty()) {
        return {{},
                "tournament '" + name + "' in " + db + ": " + config.anchors_problem +
                    " (give the anchors with --anchor BOT=ELO)"};
    }
    ChosenAnchors chosen{given ? *given : config.anchors, ""};
    if (const auto* a = stranger(chosen.anchors, store.bots(t.id))) {
        chosen.problem = "the anchor '" + record::escape_controls(a->name) +
                         "' is not a bot of tournament '" + name + "' in " + db;
    }
    return chosen;
}

StoredReportOptions stored_report_options(store::ResultsStore& store,
                                          const store::TournamentRow& row,
                                          const std::optional<std::vector<rating::Anchor>>& given,
                                          const std::string& db) {
    const auto settings = tournament::stored_settings(row.spec.config_text);
    auto chosen = report_anchors(store, row, given, settings, db);
    StoredReportOptions stored;
    stored.problem = std::move(chosen.problem);
    stored.options.anchors = std::move(chosen.anchors);
    stored.options.points = settings.scoring;
    return stored;
}

}  // namespace arena::report
