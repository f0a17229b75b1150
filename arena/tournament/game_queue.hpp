#pragma once
// Between the runner's workers, which finish games, and the one thread that
// stores them: a queue the storing thread takes from in batches, and the
// start-up losses held back until it is known whether their bot starts at
// all (stored once it has started since; dropped, not invented, if it is
// given up).
//
// Thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "arena/match/startup_guard.hpp"
#include "arena/record/game_record.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

// A game played, waiting to be stored.
struct Finished {
    Pairing pairing;
    std::string opening;
    record::GameRecord record;
    std::vector<store::GameParam> params;  // a tune's (PairingSource::game_params)
};

class GameQueue {
  public:
    // `bots_of(f)`: the names of the bots (in `guard`) that a start-up loss
    // `f` blames.
    GameQueue(const match::StartupGuard& guard,
              std::function<std::vector<std::string>(const Finished&)> bots_of)
        : guard_(guard), bots_of_(std::move(bots_of)) {}

    // A phase of play with `workers` workers starts.
    void start(int workers);
    // A worker's finished game (start-up losses are held). True when a full
    // batch waits, so the storing thread was woken.
    void push(Finished f);
    // A worker ends. When the last one ends after a phase that was not
    // stopped (`settle`), every held game whose bots were not given up is
    // queued.
    void worker_done(bool settle);

    // For the storing thread: waits until a batch is full, the last worker
    // has ended, or kPeriod passed, and takes what waits. Empty once the
    // last worker has ended and nothing waits.
    [[nodiscard]] std::deque<Finished> take();
    // Takes what waits now, without waiting (one worker that stores itself).
    [[nodiscard]] std::deque<Finished> take_now();

    // The storing thread looks for finished games this often, or sooner when
    // kBatch of them wait or the last worker ends; it then stores all that
    // wait, each in its own transaction. Woken for every game instead, it
    // paid a sleep and a wake-up per game, and each worker a wake-up call:
    // with instant bots, about 1.7 us of the arena's CPU per move (10 %). A
    // finished game waits at most this long before it is stored (and is
    // played again on resume if the arena is killed meanwhile).
    static constexpr auto kPeriod = std::chrono::milliseconds(10);
    static constexpr std::size_t kBatch = 32;

  private:
    void settle_held(bool last);  // with mutex_ held

    const match::StartupGuard& guard_;
    std::function<std::vector<std::string>(const Finished&)> bots_of_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Finished> queue_;
    std::vector<Finished> held_;
    int workers_ = 0;
};

}  // namespace arena::tournament
