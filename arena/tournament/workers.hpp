#pragma once
// Workers: N `arena run CONFIG --worker K/N` processes that play one
// tournament together, each into its own database on a shared file system
// (docs/cluster.md, "Workers"). Worker K plays the colour-swapped pairs whose
// pair number p has p mod N = K - 1, with the same indices, boards and
// openings as a single run. Unlike shards (shard.hpp), workers read each
// other's databases as they play (peers.hpp), so the schedules whose next
// games depend on the results before can be spread too: a gauntlet with
// `sprt` stops on every worker once a test is decided, and a ladder's rounds
// are played by all workers, each round once the one before is stored
// whole (worker_source.hpp). Pure: no I/O.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

struct Worker {
    int index = 1;  // K, from 1
    int count = 1;  // N
    // Whether this worker plays `pairing`'s pair.
    [[nodiscard]] bool plays(const Pairing& pairing) const {
        return pairing.pair % count == index - 1;
    }
};

// "K/N" with 1 <= K <= N; nullopt after setting `problem` to what is wrong
// (naming --worker).
[[nodiscard]] std::optional<Worker> parse_worker(std::string_view text, std::string& problem);

// Why `config` cannot be played by workers; empty when it can. A tune
// cannot: each batch of iterations starts from the point the batches before
// it reached, so N workers would have to agree on every step of the walk.
[[nodiscard]] std::string worker_refusal(const Config& config);

// Where worker K of N stores its games: next to `database` (the tournament's,
// where `arena merge` puts them all together), with ".worker-K-of-N" before
// its extension (results/demo.db -> results/demo.worker-2-of-4.db).
[[nodiscard]] std::filesystem::path worker_database(const std::filesystem::path& database,
                                                    Worker worker);

// The databases of the workers other than `worker`, in worker order.
[[nodiscard]] std::vector<std::filesystem::path> peer_databases(
    const std::filesystem::path& database, Worker worker);

}  // namespace arena::tournament
