#include "arena/tournament/stored_lineup.hpp"

#include <algorithm>
#include <unordered_set>

#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

std::vector<std::string> program_sha256s(const Config& config) {
    std::vector<std::string> sha256;
    for (const auto& b : config.bots)
        sha256.push_back(bot_sha256(b));
    return sha256;
}

namespace {

store::BotEntry bot_entry(const BotConfig& bot, const std::string& sha256) {
    return {bot.name, bot.command, bot.protocol, sha256};
}

std::vector<store::BotEntry> bot_entries(const Config& config,
                                         const std::vector<std::string>& sha256) {
    std::vector<store::BotEntry> entries;
    for (std::size_t i = 0; i < config.bots.size(); ++i)
        entries.push_back(bot_entry(config.bots[i], sha256[i]));
    return entries;
}

store::SegmentRow segment_row(const StoredSegment& segment, int number) {
    return {number,        segment.games_per_pair, segment.rounds,      segment.first_game,
            segment.games, segment.description,    segment.fingerprint, segment.active};
}

// A stored tournament as the growth planner takes it: its bots in the order
// they entered, and its segments; with `count_games`, each bot's stored
// games (read from the standings index: only when they matter).
StoredTournament read_stored(store::ResultsStore& store, const store::TournamentRow& row,
                             bool count_games) {
    StoredTournament stored;
    stored.fingerprint = row.spec.fingerprint;
    for (const auto& bot : store.bots(row.id)) {
        StoredEntrant entrant;
        entrant.name = bot.name;
        entrant.sha256 = bot.sha256;
        entrant.version = bot.version;
        stored.entrants.push_back(std::move(entrant));
    }
    for (const auto& c :
         count_games ? store.result_counts(row.id) : std::vector<store::ResultCount>{}) {
        stored.entrants[static_cast<std::size_t>(c.first)].games += c.games;
        stored.entrants[static_cast<std::size_t>(c.second)].games += c.games;
    }
    for (const auto& s : store.segments(row.id)) {
        StoredSegment segment;
        segment.active = s.active;
        segment.games_per_pair = s.games_per_pair;
        segment.rounds = s.rounds;
        segment.fingerprint = s.fingerprint;
        segment.description = s.description;
        segment.first_game = s.first_game;
        segment.games = s.games;
        stored.segments.push_back(std::move(segment));
    }
    if (!stored.segments.empty()) {
        const auto& active = stored.segments.back().active;
        for (std::size_t e = 0; e < stored.entrants.size(); ++e) {
            stored.entrants[e].active =
                std::find(active.begin(), active.end(), static_cast<int>(e)) != active.end();
        }
    }
    return stored;
}

// The games a lineup needs: those stored, and those it can still play.
std::int64_t needed_games(const Lineup& lineup, const std::vector<std::int64_t>& recorded) {
    const std::unordered_set<std::int64_t> done(recorded.begin(), recorded.end());
    std::int64_t needed = 0;
    for (const auto& p : lineup.schedule)
        if (done.contains(p.index) || lineup.playable(p)) ++needed;
    return needed;
}

}  // namespace

std::optional<Lineup> standing_lineup(store::ResultsStore& store, const store::TournamentRow& row,
                                      const Config& config, const std::string& print,
                                      std::ostream& err) {
    const auto refuse = [&](const std::string& why) {
        err << "arena run: " << config.path.string() << " no longer matches tournament '"
            << config.name << "' stored in " << config.database.string() << ": " << why
            << "\n(give the tournament a new name, or use another --db)\n";
        return std::nullopt;
    };
    const auto sha256 = program_sha256s(config);
    // A new version needs to know whether the earlier one played (growth.hpp).
    auto stored = read_stored(store, row, config.versions == Versions::kKeep);
    bool first_recorded = true;
    if (stored.segments.empty()) {
        // Stored by an arena that kept no segments: its first is implicit.
        if (auto first = implicit_first_segment(stored)) {
            stored.segments.push_back(std::move(*first));
            first_recorded = false;
        }
    }
    if (stored.segments.empty()) {
        // Not a schedule of arena run's (arena match's): it cannot grow.
        if (auto diff = fingerprint_difference(row.spec.fingerprint, print)) return refuse(*diff);
        return base_lineup(config);
    }
    const auto growth = plan_growth(stored, config, sha256);
    if (!growth.refusal.empty()) return refuse(growth.refusal);
    for (const auto& warning : growth.warnings)
        err << warning << "\n";
    if (growth.changed()) {
        const auto before = make_schedule(schedule_segments(stored, config));
        auto after = apply_growth(stored, growth, config, sha256);
        auto lineup = make_lineup(after, config);
        segment_extents(after, lineup.schedule);
        const auto recorded = store.recorded_indices(row.id);
        store::TournamentChange change;
        for (const auto& [e, name] : growth.renamed)
            change.renamed.emplace_back(stored.entrants[static_cast<std::size_t>(e)].name, name);
        for (const auto& [e, sha] : growth.new_sha256)
            change.new_sha256.emplace_back(stored.entrants[static_cast<std::size_t>(e)].name, sha);
        for (const int i : growth.entering) {
            auto entry = bot_entry(config.bots[static_cast<std::size_t>(i)],
                                   sha256[static_cast<std::size_t>(i)]);
            entry.version = after.entrants[stored.entrants.size() + change.entering.size()].version;
            change.entering.push_back(std::move(entry));
        }
        for (std::size_t k = first_recorded ? stored.segments.size() : 0; k < after.segments.size();
             ++k)
            change.segments.push_back(segment_row(after.segments[k], static_cast<int>(k)));
        change.config_text = config.text;
        change.fingerprint = print;
        change.total_games = needed_games(lineup, recorded);
        store.change_tournament(row.id, change);

        const auto added = static_cast<std::int64_t>(lineup.schedule.size() - before.size());
        // Unplayed games of bots that played until now, and play no more.
        const std::unordered_set<std::int64_t> done(recorded.begin(), recorded.end());
        const auto was_active = [&](int e) {
            return stored.entrants[static_cast<std::size_t>(e)].active;
        };
        std::int64_t dropped = 0;
        for (const auto& p : before) {
            if (!done.contains(p.index) && !lineup.playable(p) && was_active(p.first) &&
                was_active(p.second))
                ++dropped;
        }
        err << "arena run: tournament '" << config.name << "' changes:";
        const char* sep = " ";
        for (const auto& c : growth.changes) {
            err << sep << c;
            sep = "; ";
        }
        if (config.schedule == ScheduleType::kLadder) {
            // No games are scheduled ahead: the ladder chooses them as it goes.
            const auto n = growth.entering.size();
            if (n > 0)
                err << ". The ladder places " << n << (n == 1 ? " entrant" : " entrants")
                    << " round by round";
        } else {
            err << ". " << added << " new game" << (added == 1 ? "" : "s") << " in the schedule";
            if (dropped > 0)
                err << ", " << dropped << " unplayed game" << (dropped == 1 ? "" : "s")
                    << " of bots that play no more left out";
        }
        err << "\n";
        return lineup;
    }
    // The schedule as recorded: its segments must come out where they were.
    auto lineup = make_lineup(stored, config);
    auto check = stored;
    segment_extents(check, lineup.schedule);
    for (std::size_t k = 0; first_recorded && k < check.segments.size(); ++k) {
        if (check.segments[k].first_game != stored.segments[k].first_game ||
            check.segments[k].games != stored.segments[k].games) {
            err << "arena run: tournament '" << config.name << "' in " << config.database.string()
                << ": segment " << k << " of its schedule was recorded with games "
                << stored.segments[k].first_game << ".."
                << stored.segments[k].first_game + stored.segments[k].games
                << " (end excluded), but comes out with games " << check.segments[k].first_game
                << ".." << check.segments[k].first_game + check.segments[k].games
                << " here; it was made by another arena\n";
            return std::nullopt;
        }
    }
    return lineup;
}

std::string shard_change(store::ResultsStore& store, const store::TournamentRow& row,
                         const Config& config, const std::string& print) {
    if (auto diff = fingerprint_difference(row.spec.fingerprint, print))
        return "the config no longer matches it: " + *diff;
    if (store.segments(row.id).size() > 1) return "it has grown since it was created";
    const auto sha256 = program_sha256s(config);
    const auto stored = store.bots(row.id);
    for (std::size_t i = 0; i < config.bots.size() && i < stored.size(); ++i) {
        if (!stored[i].sha256.empty() && !sha256[i].empty() && stored[i].sha256 != sha256[i]) {
            return "the program of bot '" + config.bots[i].name + "' changed (sha256 " +
                   stored[i].sha256 + ", now " + sha256[i] +
                   "); every shard or worker must play the same build";
        }
    }
    return {};
}

std::int64_t create_tournament(store::ResultsStore& store, const Config& config,
                               const Lineup& lineup, const std::string& print) {
    const auto games = static_cast<std::int64_t>(lineup.schedule.size());
    store::TournamentSpec spec{config.name, config.game, config.text, print, config.seed, games};
    // Segment 0: the schedule the tournament starts with.
    store::SegmentRow first;
    first.games_per_pair = config.games_per_pair;
    first.rounds = config.rounds;
    first.games = games;
    first.fingerprint = print;
    for (std::size_t i = 0; i < config.bots.size(); ++i)
        first.active.push_back(static_cast<int>(i));
    return store.create_tournament(spec, bot_entries(config, program_sha256s(config)), first);
}

}  // namespace arena::tournament
