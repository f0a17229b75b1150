#pragma once
// A standing tournament that grows (docs/config.md, "A standing
// tournament"). A stored tournament's schedule is a list of segments
// (schedule.hpp): the one it was created with, then one for each change a
// later config made to it: late entrants, more games per pair or rounds,
// bots retired (left out of the config) or back again, and new versions of
// a bot whose program changed (`versions: keep`). The games of earlier
// segments keep their indices, pair numbers and openings; a segment only
// appends.
//
// This module compares a config with what is stored, says what the config
// changes or why it is refused, and builds what a run plays. It is pure: the
// caller (tournament/stored_lineup.cpp) reads the store and records the change.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

// A fingerprint (fingerprint.hpp) taken apart: what must stay as it is, what
// may grow, and each bot's line.
struct FingerprintParts {
    // Every line but the bots', as written; `fixed` has the same lines with
    // games_per_pair and rounds cut out of the schedule line: what is compared.
    std::vector<std::string> lines, fixed;
    int games_per_pair = 0, rounds = 0;
    std::vector<std::pair<std::string, std::string>> bots;  // name, its whole line
};
// Nullopt when `fingerprint` is not one of arena run's (arena match stores a
// hash), so the tournament cannot grow.
[[nodiscard]] std::optional<FingerprintParts> split_fingerprint(const std::string& fingerprint);

// "mine@2" -> "mine": the name a version was entered under. Config names
// cannot hold '@'.
[[nodiscard]] std::string base_name(const std::string& name);
// "mine", 2 -> "mine@2": the name an earlier version is kept under.
[[nodiscard]] std::string version_name(const std::string& name, int version);

// One bot of the stored tournament (a row of its bots table), an entrant.
struct StoredEntrant {
    std::string name;    // as stored: "mine", or "mine@1" for an earlier version
    std::string sha256;  // of its program when it entered; empty when unknown
    int version = 1;
    bool active = true;      // plays in the latest segment
    std::int64_t games = 0;  // its games stored
};

struct StoredSegment {
    std::vector<int> active;  // entrants, ascending
    int games_per_pair = 2, rounds = 1;
    std::string fingerprint;  // of the config that added it
    std::string description;  // what changed, for people; empty for the first
    // Where its games are in the schedule; filled by segment_extents().
    std::int64_t first_game = 0, games = 0;
};

struct StoredTournament {
    std::string fingerprint;              // of the latest config that changed it
    std::vector<StoredEntrant> entrants;  // in the order they entered
    std::vector<StoredSegment> segments;  // empty: none recorded (see implicit_first_segment)
};

// The first segment of a tournament stored before segments were recorded:
// every entrant, games_per_pair and rounds from its fingerprint. Nullopt
// when the fingerprint is not arena run's: such a tournament cannot grow.
[[nodiscard]] std::optional<StoredSegment> implicit_first_segment(const StoredTournament& stored);

// What a config changes in a stored tournament (with segments).
struct Growth {
    // Why the config is refused ("was '...', now '...'"); empty when accepted.
    std::string refusal;
    // Bots whose program changed, under `versions: warn`: one line each.
    std::vector<std::string> warnings;
    // What changes, for people: "bot 'e' enters", "games_per_pair 2 -> 4", ...
    std::vector<std::string> changes;
    // Entrants that become earlier versions: entrant, its new name ("x@1").
    std::vector<std::pair<int, std::string>> renamed;
    // Config bots that enter (late entrants and new versions), in config order.
    std::vector<int> entering;
    // Entrants whose program changed before they played a game, under
    // `versions: keep`: the new sha256 replaces the old, no version is made.
    std::vector<std::pair<int, std::string>> new_sha256;
    // The segment to append, when the schedule changes. Its `active` counts
    // the entering bots as entrants entrants.size(), entrants.size() + 1, ...
    std::optional<StoredSegment> segment;

    [[nodiscard]] bool changed() const {
        return !renamed.empty() || !entering.empty() || !new_sha256.empty() || segment;
    }
};

// Compares `config` (with `sha256`, each of its bots' bot_sha256, in config
// order) with `stored`, which has segments. Everything in the fingerprint
// but the bots, games_per_pair and rounds must be as stored, and so must the
// line of every bot that is in both; games_per_pair and rounds may grow.
[[nodiscard]] Growth plan_growth(const StoredTournament& stored, const Config& config,
                                 const std::vector<std::string>& sha256);

// `stored` once `growth` (accepted, from plan_growth) is applied.
[[nodiscard]] StoredTournament apply_growth(StoredTournament stored, const Growth& growth,
                                            const Config& config,
                                            const std::vector<std::string>& sha256);

// The segments as make_schedule() takes them: a gauntlet's challenger is, in
// each segment, its entrant whose base name is the config's challenger.
[[nodiscard]] std::vector<Segment> schedule_segments(const StoredTournament& stored,
                                                     const Config& config);

// Sets each segment's first_game and games from `schedule`, the schedule of
// `stored` (make_lineup(stored, config).schedule).
void segment_extents(StoredTournament& stored, const std::vector<Pairing>& schedule);

// What a run plays: the schedule over the entrants, and which of the
// config's bots each entrant is.
struct Lineup {
    std::vector<Pairing> schedule;   // first, second: entrants
    std::vector<std::string> names;  // of the entrants, as stored
    std::vector<int> bot_of;         // entrant -> index in Config::bots; -1: plays no more
    // Whether both of its entrants still play: a game of a retired bot or an
    // earlier version that is not stored is not played, nor needed.
    [[nodiscard]] bool playable(const Pairing& p) const {
        return bot_of[static_cast<std::size_t>(p.first)] >= 0 &&
               bot_of[static_cast<std::size_t>(p.second)] >= 0;
    }
};

// A new tournament: the entrants are the config's bots, in its order.
[[nodiscard]] Lineup base_lineup(const Config& config);
// A stored one (with segments): an entrant that is active in the latest
// segment is the config bot of its name.
[[nodiscard]] Lineup make_lineup(const StoredTournament& stored, const Config& config);

}  // namespace arena::tournament
