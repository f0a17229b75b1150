#pragma once
// The settings of a tournament's config as the results database stores it
// (store::TournamentSpec::config_text), read once into a typed struct: the
// one reader of a stored config, for the standings, the HTML report and
// arena serve.
//
// The text was checked when the tournament was created, but it is read here
// leniently and alone: its bots' programs are not looked at (their files may
// be gone), and a setting that does not read as expected is left out or at
// its default, as each field says. Text that is not YAML at all, or not a
// map at the top, has no settings: every field keeps its default.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/tournament/scoring.hpp"

namespace arena::tournament {

struct StoredSettings {
    // `scoring: { win, draw, loss }`; nullopt when the key is missing or not
    // a map. A value that is not an integer stays at its default.
    std::optional<Scoring> scoring;

    // `anchors: { bot: rating }`, in the config's order; empty without the
    // key (or with it empty). When they cannot be used, `anchors_problem`
    // says why ("the config's 'anchors': not a map of bot: rating") and
    // `anchors` is empty.
    std::vector<rating::Anchor> anchors;
    std::string anchors_problem;

    // `time: { move_ms, tolerance_ms }`. Both unknown without a `time` map,
    // or when either is a scalar that is not a number; with the map,
    // tolerance_ms is 10 (the documented default) unless it says otherwise.
    struct Time {
        std::optional<double> move_ms, tolerance_ms;
    };
    Time time;
    // A bot's own `time:` in `bots:` (time odds), by name: its keys over
    // the tournament's. Only bots that have one.
    std::map<std::string, Time> bot_times;
    // The time control `bot` played under: its own, else the tournament's.
    [[nodiscard]] const Time& time_of(const std::string& bot) const;

    // A gauntlet's SPRT (`schedule: { challenger, sprt: {...} }`): the test
    // each opponent of the challenger faces. nullopt without one, or when
    // any of its values does not read (an unknown model, bounds that
    // rating::sprt_options_problem refuses).
    struct GauntletTest {
        std::string challenger;
        rating::SprtOptions options;
        // The most colour-swapped pairs a test can count: games_per_pair / 2
        // times the rounds; 0: not known.
        std::int64_t most_pairs = 0;
    };
    std::optional<GauntletTest> gauntlet_test;

    // `schedule: { type: ladder }`: its rounds are chosen as it goes, so its
    // stored total is that of the games so far, not of a schedule.
    bool ladder = false;

    // A tune's parameters (`tune: { params: [{ name, start, min, max, ... }],
    // pairs }`, arena tune), in the config's order: what the report draws
    // each parameter's path against. nullopt without a `tune` map. A
    // parameter entry without a name is left out; a value that is not a
    // number is unknown.
    struct TuneParam {
        std::string name;
        std::optional<double> start, min, max;
        bool integer = false;  // the bot receives the value rounded
    };
    struct Tune {
        std::vector<TuneParam> params;
        std::optional<std::int64_t> pairs;  // the iterations planned
    };
    std::optional<Tune> tune;

    // `count_repeats: true`: pairs that repeat earlier ones count as new
    // evidence (rating/repeats.hpp); false without the key or when it is
    // not a boolean.
    bool count_repeats = false;

    // The anchors; throws std::invalid_argument(anchors_problem) when they
    // cannot be used.
    [[nodiscard]] const std::vector<rating::Anchor>& checked_anchors() const;
};

[[nodiscard]] StoredSettings stored_settings(const std::string& config_text);

// The rules of an anchor, in a config and after `--anchor BOT=`: its rating
// as written, a whole number or a decimal, finite, from -100000 to 100000
// (else nullopt); and no bot anchored twice (the first anchor that names a
// bot an earlier one names, else nullptr).
[[nodiscard]] std::optional<double> parse_anchor_elo(std::string_view text);
[[nodiscard]] const rating::Anchor* repeated_anchor(const std::vector<rating::Anchor>& anchors);

}  // namespace arena::tournament
