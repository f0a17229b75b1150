#pragma once
// A worker's share of a pairing source (workers.hpp, pairing_source.hpp).
// It wraps the source the config makes for the whole tournament, hands out
// only the games of the pairs this worker plays, and tells the source of
// the games the other workers store (peers.hpp) as well as its own, so
// every worker's source sees the same results and makes the same choices:
//
// - A gauntlet with `sprt`: each test counts its opponent's pairs in
//   schedule order (gauntlet_sprt.hpp), so every worker reaches the same
//   decision at the same pair, and stops that opponent's games. A worker
//   stays at most a lap ahead of the lowest pair that is neither stored nor
//   its own under way (a lap: N pairs, or N times half its concurrency), so
//   that when a pair decides a test, no worker playing one game at a time
//   has started more than one pair of its own past it (⌈concurrency / 2⌉ + 1
//   with more games at once). A worker that stops leaves its pairs to
//   itself: the others wait at that lap for it, for as long as their
//   patience, then play on without waiting for its pairs until it stores a
//   game again (which costs pairs past a decision, not a hang).
// - A ladder: each worker plays its pairs of the round, then waits until
//   every worker's pairs of the round are stored before the next round is
//   chosen from all of them. A round still incomplete after its patience
//   ends the run, as a round a bot given up leaves incomplete ends one
//   machine's.
// - A round-robin or a plain gauntlet: each worker plays its pairs; a
//   meeting stopped for its repeats stops on every worker.
//
// While it waits, next() hands out nothing and wait_for() says how long
// until the runner asks again.

#include <chrono>
#include <memory>
#include <unordered_set>

#include "arena/tournament/config.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/pairing_source.hpp"
#include "arena/tournament/peers.hpp"
#include "arena/tournament/workers.hpp"

namespace arena::tournament {

// `whole`: the source of the whole tournament over `lineup` (whose
// schedule is the whole schedule), made from this worker's own database,
// whose stored indices are `done`; `peers`: the other workers' databases;
// `patience`: how long it waits for another worker's pair at least (more
// when its own games are long: 8 of its longest).
[[nodiscard]] std::unique_ptr<PairingSource> make_worker_source(
    std::unique_ptr<PairingSource> whole, const Config& config, const Lineup& lineup, Worker worker,
    PeerDatabases peers, const std::unordered_set<std::int64_t>& done,
    std::chrono::seconds patience);

}  // namespace arena::tournament
