#include "arena/tournament/growth.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "arena/tournament/fingerprint.hpp"

namespace arena::tournament {
namespace {

// Cuts " key=N" out of `line` and returns N; nullopt when it is not there.
std::optional<int> take_number(std::string& line, std::string_view key) {
    const std::string token = " " + std::string(key) + "=";
    const auto at = line.find(token);
    if (at == std::string::npos) return std::nullopt;
    const auto from = at + token.size();
    auto to = from;
    while (to < line.size() && line[to] >= '0' && line[to] <= '9')
        ++to;
    int value = 0;
    const auto [end, ec] = std::from_chars(line.data() + from, line.data() + to, value);
    if (ec != std::errc() || end != line.data() + to || to == from) return std::nullopt;
    line.erase(at, to - at);
    return value;
}

std::string quoted(const std::string& text) {
    return "'" + text + "'";
}

const std::string* bot_line(const FingerprintParts& parts, const std::string& name) {
    for (const auto& [bot, line] : parts.bots)
        if (bot == name) return &line;
    return nullptr;
}

// The line of the bot called `name` in the latest fingerprint that has one:
// the stored one, else the segments', latest first (a retired bot's).
std::optional<std::string> stored_bot_line(const StoredTournament& stored,
                                           const FingerprintParts& latest,
                                           const std::string& name) {
    if (const auto* line = bot_line(latest, name)) return *line;
    for (auto s = stored.segments.rbegin(); s != stored.segments.rend(); ++s) {
        const auto parts = split_fingerprint(s->fingerprint);
        if (!parts) continue;
        if (const auto* line = bot_line(*parts, name)) return *line;
    }
    return std::nullopt;
}

std::string changed_program(const std::string& name) {
    return "bot " + quoted(name) +
           ": its program (executable, or the files its arguments name) has changed since the "
           "tournament started";
}

// Why a bot's line changed: its time control or search limits, named as
// such (its line is otherwise the same), or the lines themselves.
std::string changed_bot_line(const std::string& then, const std::string& now, const Config& config,
                             const BotConfig& bot) {
    const std::string odds = bot_odds_text(config, bot);
    const std::string base = now.substr(0, now.size() - odds.size());
    if (now.ends_with(odds) && then.starts_with(base)) {
        const auto shown = [](const std::string& text) {
            return text.empty() ? std::string("the tournament's time, no search limits")
                                : quoted(text.substr(1));
        };
        return "bot " + quoted(bot.name) +
               ": its time control or search limits changed since the tournament started (was " +
               shown(then.substr(base.size())) + ", now " + shown(odds) +
               "); its games so far were played under the old ones";
    }
    return "was " + quoted(then) + ", now " + quoted(now);
}

// What decides the games, the bots aside, is as stored, and games_per_pair
// and rounds have not shrunk; else false, with growth.refusal saying why.
bool schedule_kept(const FingerprintParts& then, const FingerprintParts& now, Growth& growth) {
    for (std::size_t i = 0; i < std::max(then.fixed.size(), now.fixed.size()); ++i) {
        const bool had = i < then.fixed.size(), has = i < now.fixed.size();
        if (had && has && then.fixed[i] == now.fixed[i]) continue;
        growth.refusal = "was " + (had ? quoted(then.lines[i]) : std::string("'(nothing)'")) +
                         ", now " + (has ? quoted(now.lines[i]) : std::string("'(nothing)'"));
        return false;
    }
    const auto shrinks = [&](const char* key, int was, int is) {
        if (is >= was) return false;
        growth.refusal = std::string(key) + " was " + std::to_string(was) + ", now " +
                         std::to_string(is) +
                         ": a stored tournament's games_per_pair and rounds may grow, not shrink "
                         "(its stored games stay)";
        return true;
    };
    return !shrinks("games_per_pair", then.games_per_pair, now.games_per_pair) &&
           !shrinks("rounds", then.rounds, now.rounds);
}

// Each bot of the config enters, stays or returns (into `growth`, and into
// `stays` per entrant), and a changed program is handled as `versions:`
// says; false, with growth.refusal saying why, when a bot's line changed or
// its new program is refused.
bool place_bots(const StoredTournament& stored, const FingerprintParts& then,
                const FingerprintParts& now, const Config& config,
                const std::vector<std::string>& sha256, Growth& growth, std::vector<bool>& stays) {
    const auto& entrants = stored.entrants;
    for (std::size_t i = 0; i < config.bots.size(); ++i) {
        const auto& bot = config.bots[i];
        const auto found = std::find_if(entrants.begin(), entrants.end(),
                                        [&](const auto& e) { return e.name == bot.name; });
        if (found == entrants.end()) {
            growth.entering.push_back(static_cast<int>(i));
            growth.changes.push_back("bot " + quoted(bot.name) + " enters");
            continue;
        }
        const auto e = static_cast<int>(found - entrants.begin());
        const auto& entrant = *found;
        // Its command, protocol, limits, ...: as when it last played.
        const auto* line_now = bot_line(now, bot.name);
        const auto line_then = stored_bot_line(stored, then, bot.name);
        if (line_now != nullptr && line_then && *line_then != *line_now) {
            growth.refusal = changed_bot_line(*line_then, *line_now, config, bot);
            return false;
        }
        const auto& sha = sha256[i];
        const bool new_program = !entrant.sha256.empty() && !sha.empty() && entrant.sha256 != sha;
        if (new_program) {
            switch (config.versions) {
                case Versions::kWarn:
                    growth.warnings.push_back("warning: " + changed_program(bot.name));
                    break;
                case Versions::kRefuse:
                    growth.refusal = changed_program(bot.name) +
                                     " (versions: keep enters the new program as a new version)";
                    return false;
                case Versions::kKeep:
                    if (entrant.games == 0) {
                        growth.new_sha256.emplace_back(e, sha);
                        growth.changes.push_back("bot " + quoted(bot.name) +
                                                 " has a new program before its first game: it "
                                                 "plays on under its name");
                        break;
                    }
                    growth.renamed.emplace_back(e, version_name(bot.name, entrant.version));
                    growth.entering.push_back(static_cast<int>(i));
                    growth.changes.push_back(
                        "bot " + quoted(bot.name) + " has a new program: version " +
                        std::to_string(entrant.version + 1) + " enters, and the " +
                        std::to_string(entrant.games) + " games of version " +
                        std::to_string(entrant.version) + " stay under " +
                        quoted(version_name(bot.name, entrant.version)));
                    continue;
            }
        }
        stays[static_cast<std::size_t>(e)] = true;
        if (!entrant.active) growth.changes.push_back("bot " + quoted(bot.name) + " returns");
    }
    return true;
}

}  // namespace

std::optional<FingerprintParts> split_fingerprint(const std::string& fingerprint) {
    FingerprintParts parts;
    bool schedule = false;
    std::istringstream in(fingerprint);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("bot ")) {
            const auto colon = line.find(':', 4);
            if (colon == std::string::npos) return std::nullopt;
            parts.bots.emplace_back(line.substr(4, colon - 4), line);
            continue;
        }
        std::string fixed = line;
        if (line.starts_with("schedule: ")) {
            const auto games = take_number(fixed, "games_per_pair");
            const auto rounds = take_number(fixed, "rounds");
            if (!games || !rounds || *games < 1 || *rounds < 1) return std::nullopt;
            parts.games_per_pair = *games;
            parts.rounds = *rounds;
            schedule = true;
        }
        parts.lines.push_back(line);
        parts.fixed.push_back(fixed);
    }
    if (!schedule) return std::nullopt;
    return parts;
}

std::string base_name(const std::string& name) {
    return name.substr(0, name.find('@'));
}

std::string version_name(const std::string& name, int version) {
    return name + "@" + std::to_string(version);
}

std::optional<StoredSegment> implicit_first_segment(const StoredTournament& stored) {
    const auto parts = split_fingerprint(stored.fingerprint);
    if (!parts) return std::nullopt;
    StoredSegment segment;
    for (std::size_t e = 0; e < stored.entrants.size(); ++e)
        segment.active.push_back(static_cast<int>(e));
    segment.games_per_pair = parts->games_per_pair;
    segment.rounds = parts->rounds;
    segment.fingerprint = stored.fingerprint;
    return segment;
}

Growth plan_growth(const StoredTournament& stored, const Config& config,
                   const std::vector<std::string>& sha256) {
    Growth growth;
    const std::string print = fingerprint(config);
    const auto then = split_fingerprint(stored.fingerprint);
    const auto now = split_fingerprint(print);
    if (!then || !now) {
        growth.refusal = fingerprint_difference(stored.fingerprint, print)
                             .value_or("the stored tournament cannot grow");
        return growth;
    }
    // What decides the games, the bots aside: as stored.
    if (!schedule_kept(*then, *now, growth)) return growth;

    const auto& entrants = stored.entrants;
    std::vector<bool> stays(entrants.size(), false);
    if (!place_bots(stored, *then, *now, config, sha256, growth, stays)) return growth;
    bool roster_changes = !growth.entering.empty();
    for (std::size_t e = 0; e < entrants.size(); ++e) {
        if (entrants[e].active == stays[e]) continue;
        roster_changes = true;
        const bool renamed =
            std::any_of(growth.renamed.begin(), growth.renamed.end(),
                        [&](const auto& r) { return r.first == static_cast<int>(e); });
        if (entrants[e].active && !renamed)
            growth.changes.push_back("bot " + quoted(entrants[e].name) + " retires");
    }
    const bool more_games =
        now->games_per_pair > then->games_per_pair || now->rounds > then->rounds;
    if (now->games_per_pair > then->games_per_pair) {
        growth.changes.push_back("games_per_pair " + std::to_string(then->games_per_pair) + " -> " +
                                 std::to_string(now->games_per_pair));
    }
    if (now->rounds > then->rounds) {
        growth.changes.push_back("rounds " + std::to_string(then->rounds) + " -> " +
                                 std::to_string(now->rounds));
    }
    if (!roster_changes && !more_games) return growth;

    StoredSegment segment;
    for (std::size_t e = 0; e < entrants.size(); ++e)
        if (stays[e]) segment.active.push_back(static_cast<int>(e));
    for (std::size_t k = 0; k < growth.entering.size(); ++k)
        segment.active.push_back(static_cast<int>(entrants.size() + k));
    segment.games_per_pair = config.games_per_pair;
    segment.rounds = config.rounds;
    segment.fingerprint = print;
    for (const auto& change : growth.changes) {
        if (!segment.description.empty()) segment.description += "; ";
        segment.description += change;
    }
    growth.segment = std::move(segment);
    return growth;
}

StoredTournament apply_growth(StoredTournament stored, const Growth& growth, const Config& config,
                              const std::vector<std::string>& sha256) {
    for (const auto& [e, name] : growth.renamed)
        stored.entrants[static_cast<std::size_t>(e)].name = name;
    for (const auto& [e, sha] : growth.new_sha256)
        stored.entrants[static_cast<std::size_t>(e)].sha256 = sha;
    for (const int i : growth.entering) {
        const auto& bot = config.bots[static_cast<std::size_t>(i)];
        StoredEntrant entrant;
        entrant.name = bot.name;
        entrant.sha256 = sha256[static_cast<std::size_t>(i)];
        for (const auto& earlier : stored.entrants)
            if (base_name(earlier.name) == bot.name)
                entrant.version = std::max(entrant.version, earlier.version + 1);
        stored.entrants.push_back(std::move(entrant));
    }
    if (growth.segment) {
        stored.segments.push_back(*growth.segment);
        const auto& active = growth.segment->active;
        for (std::size_t e = 0; e < stored.entrants.size(); ++e) {
            stored.entrants[e].active =
                std::find(active.begin(), active.end(), static_cast<int>(e)) != active.end();
        }
    }
    stored.fingerprint = fingerprint(config);
    return stored;
}

std::vector<Segment> schedule_segments(const StoredTournament& stored, const Config& config) {
    std::vector<Segment> segments;
    for (const auto& s : stored.segments) {
        Segment segment;
        segment.active = s.active;
        std::sort(segment.active.begin(), segment.active.end());
        segment.games_per_pair = s.games_per_pair;
        segment.rounds = s.rounds;
        segment.gauntlet = config.schedule == ScheduleType::kGauntlet;
        segment.ladder = config.schedule == ScheduleType::kLadder;
        if (segment.gauntlet && config.challengers_from_bots_dir) {
            // Every entrant but the references, which the fingerprint keeps
            // as they were: the submissions, earlier versions included.
            for (const int e : segment.active) {
                const auto& name = base_name(stored.entrants[static_cast<std::size_t>(e)].name);
                const bool reference = std::any_of(
                    config.bots.begin(), config.bots.end(),
                    [&](const BotConfig& b) { return b.manifest.empty() && b.name == name; });
                if (!reference) segment.challengers.push_back(e);
            }
        } else if (segment.gauntlet) {
            for (const int e : segment.active) {
                if (base_name(stored.entrants[static_cast<std::size_t>(e)].name) ==
                    config.challenger) {
                    segment.challenger = e;
                    break;
                }
            }
        }
        segments.push_back(std::move(segment));
    }
    return segments;
}

void segment_extents(StoredTournament& stored, const std::vector<Pairing>& schedule) {
    for (auto& s : stored.segments) {
        s.first_game = 0;
        s.games = 0;
    }
    for (const auto& p : schedule) {
        auto& s = stored.segments[static_cast<std::size_t>(p.segment)];
        if (s.games++ == 0) s.first_game = p.index;
    }
    // An empty segment (a bot retired, nothing added) starts where the schedule ends.
    std::int64_t end = 0;
    for (auto& s : stored.segments) {
        if (s.games == 0) s.first_game = end;
        end = s.first_game + s.games;
    }
}

Lineup base_lineup(const Config& config) {
    Lineup lineup;
    lineup.schedule = make_schedule(config);
    for (std::size_t i = 0; i < config.bots.size(); ++i) {
        lineup.names.push_back(config.bots[i].name);
        lineup.bot_of.push_back(static_cast<int>(i));
    }
    return lineup;
}

Lineup make_lineup(const StoredTournament& stored, const Config& config) {
    Lineup lineup;
    lineup.schedule = make_schedule(schedule_segments(stored, config));
    for (const auto& entrant : stored.entrants) {
        lineup.names.push_back(entrant.name);
        int bot = -1;
        if (entrant.active) {
            for (std::size_t i = 0; i < config.bots.size(); ++i)
                if (config.bots[i].name == entrant.name) bot = static_cast<int>(i);
        }
        lineup.bot_of.push_back(bot);
    }
    return lineup;
}

}  // namespace arena::tournament
