#pragma once
// Where the runner's games come from: a pull-based source of pairings, asked
// for the next game by the workers and told of every stored result.
//
// Four kinds: a fixed schedule (round-robin or gauntlet, played in an order
// that keeps bot restarts few), the SPRT gauntlet (a fixed schedule whose
// decided opponents play no more), the ladder (one round at a time, each
// chosen from the results of the rounds before) and a tune (tune_source.hpp:
// one batch of SPSA iterations at a time, each at points chosen from the
// results before). A new kind of schedule (Swiss, knockout) is one more
// class; the runner, the store writer and the progress output stay as they
// are.
//
// Play comes in phases: the whole schedule, or a ladder's round. A phase
// ends once next() has handed out its games and all of them are stored;
// only then is the next phase begun, so what a source hands out is a
// function of the stored results alone, not of the order in which
// concurrent games finished.
//
// Not thread-safe: the runner calls it under one lock.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/gauntlet_sprt.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/repeats.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

class PairingSource {
  public:
    virtual ~PairingSource() = default;

    // Starts the next phase. False when there is nothing more to play: the
    // schedule was played, or a ladder's round could not be completed (a
    // bot was given up), and the next run goes on from there. May throw
    // (a ladder stores its total as it goes).
    virtual bool begin_phase() = 0;
    // The phase's next game to play, or nullopt once it has handed out all,
    // or, when wait_for() is then more than zero, none yet.
    virtual std::optional<Pairing> next() = 0;
    // After next() gave nullopt: zero when the phase has handed out all its
    // games; else how long until next() should be asked again (a cluster
    // worker waiting for the others, worker_source.hpp).
    [[nodiscard]] virtual std::chrono::milliseconds wait_for() const {
        return std::chrono::milliseconds::zero();
    }
    // A game was stored.
    virtual void on_result(const Pairing& pairing, const ScoredGame& game) = 0;

    // The games that count now: those stored and those still to play.
    [[nodiscard]] virtual std::int64_t total() const = 0;
    // The same at the end of the run, given the indices stored then.
    [[nodiscard]] virtual std::int64_t final_total(
        const std::unordered_set<std::int64_t>& /*stored*/) const {
        return total();
    }
    // The runner gave up the entrant's bot (it kept failing to start): its
    // games are not played in this run.
    virtual void given_up(int /*entrant*/) {}
    // Whether a game not stored is still wanted (a bot given up misses it).
    [[nodiscard]] virtual bool needed(const Pairing& pairing) const = 0;
    // The games among which a bot given up misses the unstored needed ones.
    [[nodiscard]] virtual const std::vector<Pairing>& scope() const = 0;

    // What the live line shows beside the progress ("LLR a 1.23, b H1",
    // "ladder: placing e, round 3"); "" for nothing.
    [[nodiscard]] virtual std::string summary() const { return {}; }
    // Lines for people since the last call: a test decided, an entrant placed.
    [[nodiscard]] virtual std::vector<std::string> take_news() { return {}; }
    // A gauntlet's SPRT: each opponent's test.
    [[nodiscard]] virtual std::vector<OpponentTest> sprt_tests() const { return {}; }

    // The bot a side of `pairing` plays as (0: the first mover, 1: the
    // second) when the source sets its command itself: a tune's theta+ and
    // theta- at the iteration's point. nullptr: the entrant's config bot.
    [[nodiscard]] virtual std::shared_ptr<const BotConfig> variant(const Pairing& /*pairing*/,
                                                                   int /*side*/) const {
        return nullptr;
    }
    // What the game is stored with beside its record: a tune's parameter values.
    [[nodiscard]] virtual std::vector<store::GameParam> game_params(
        const Pairing& /*pairing*/) const {
        return {};
    }

    // At most `capacity` bot processes can be alive at once: a schedule
    // known in advance is reordered to restart few (play_order.hpp).
    virtual void plan_for_capacity(std::size_t /*capacity*/, int /*concurrency*/) {}
};

// The source for the config's schedule over `lineup`, continuing from the
// games stored in tournament `tournament_id` (`done`: their indices).
[[nodiscard]] std::unique_ptr<PairingSource> make_pairing_source(
    const Config& config, const Lineup& lineup, store::ResultsStore& store,
    std::int64_t tournament_id, const std::unordered_set<std::int64_t>& done);

}  // namespace arena::tournament
