#pragma once
// A gauntlet with a stopping rule (`schedule: { type: gauntlet, sprt: ... }`):
// one SPRT per opponent of the challenger, over the colour-swapped pairs they
// play, from the challenger's side. An opponent whose test is decided plays
// no more games.
//
// Each test takes its opponent's pairs in schedule order, and counts a pair
// only once every earlier pair of that opponent is complete. So the decision,
// and the pair at which it falls, are a function of the games' results alone:
// not of the order in which concurrent games finished, nor of where a run
// was interrupted and resumed. A pair finished after its test was decided
// (it was already being played) is stored but not counted.
//
// A pair that repeats an earlier pair of its test move for move is not
// counted either (repeats.hpp), unless the config says `count_repeats: true`;
// after kRepeatsInARowToStop such pairs in a row the test stops undecided.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "arena/rating/pentanomial.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/repeats.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

// The state of one opponent's test.
struct OpponentTest {
    int opponent = 0;    // bot index in Config::bots (an entrant, see below)
    int challenger = 0;  // the same for the challenger
    // Whether both can still play: false once the opponent is retired, or
    // the challenger is an earlier version. Like a decided test, it needs no
    // more games.
    bool playable = true;
    rating::Pentanomial pairs;         // the counted pairs, challenger's side
    rating::Trinomial games;           // the games of those pairs
    rating::SprtResult result;         // LLR, bounds, decision
    std::int64_t scheduled_pairs = 0;  // in the schedule: the most it can play
    std::int64_t counted_pairs = 0;    // pairs.pairs()
    std::int64_t late_pairs = 0;       // complete, but finished after the decision
    std::int64_t repeated_pairs = 0;   // set aside: each repeats an earlier pair
    // Stopped undecided: the last kRepeatsInARowToStop pairs all repeated
    // earlier ones.
    bool stopped_repeating = false;
    [[nodiscard]] bool decided() const {
        return result.decision != rating::SprtDecision::continue_testing;
    }
    // Decided, or stopped: it needs no more games.
    [[nodiscard]] bool finished() const { return decided() || stopped_repeating; }
};

class GauntletSprt {
  public:
    // The challenger is config.challenger, or the first bot when there is
    // none (a match); without config.sprt, see below.
    GauntletSprt(const Config& config, const std::vector<Pairing>& schedule);

    // A standing tournament's (growth.hpp), whose schedule is over entrants:
    // one test per meeting of a version of the challenger (`challengers`,
    // entrants) and an opponent, in the order of their first pair, so a late
    // opponent, or a new version of the challenger, gets tests of its own.
    // `playable[e]`: whether entrant e still plays. `count_repeats`: pairs
    // that repeat earlier ones count too.
    // Without `options`, the pairs are counted (and repeats set aside) but no
    // test decides: the verdict of a match without --sprt.
    GauntletSprt(const std::optional<rating::SprtOptions>& options,
                 const std::vector<Pairing>& schedule, const std::vector<int>& challengers,
                 const std::vector<bool>& playable, bool count_repeats);

    // A finished game. Games of other pairings (the challenger absent) are
    // ignored, as is the same game given twice.
    void add(const Pairing& pairing, const ScoredGame& game);

    // Whether the pairing's opponent's test is finished (decided, or
    // stopped): its game need not be played.
    [[nodiscard]] bool finished(const Pairing& pairing) const;
    // Whether every opponent's test is finished.
    [[nodiscard]] bool all_finished() const;
    // The games that still matter: those of undecided opponents that can
    // still play, played or not, and the stored games of the others.
    [[nodiscard]] std::int64_t needed_games() const;

    // One per opponent, in the order of Config::bots (of first pairs).
    [[nodiscard]] const std::vector<OpponentTest>& tests() const { return tests_; }

  private:
    struct PairSlot {
        std::array<ScoredGame, 2> games;         // per game_in_pair
        std::array<bool, 2> challenger_first{};  // per game_in_pair
        std::array<bool, 2> have{};
        [[nodiscard]] bool complete() const { return have[0] && have[1]; }
        // The challenger's score in game g.
        [[nodiscard]] double score(std::size_t g) const {
            return challenger_first[g] ? games[g].first_score : 1.0 - games[g].first_score;
        }
    };
    struct Track {
        std::vector<int> pairs;  // schedule pair numbers of this opponent, in order
        std::size_t cursor = 0;  // pairs[0, cursor) are counted or set aside
        std::int64_t complete = 0;
        RepeatFilter repeats;
    };
    void advance(std::size_t test);

    std::optional<rating::SprtOptions> options_;  // none: the pairs counted, never decided
    std::vector<OpponentTest> tests_;
    std::vector<Track> tracks_;      // parallel to tests_
    std::vector<PairSlot> slots_;    // per schedule pair number
    std::vector<int> test_of_pair_;  // schedule pair number -> index in tests_, or -1
};

}  // namespace arena::tournament
