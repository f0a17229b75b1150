#pragma once
// The other workers' databases (workers.hpp), read as they grow: each is
// opened read-only once its worker has created it, and each poll reads the
// games stored there since the poll before, so a worker learns what the
// others played without any process between them. A reader takes no write
// lock on a peer's database: in WAL mode it never blocks the peer's writer,
// and with `journal_mode: delete` it holds a shared lock only while a read
// lasts.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::tournament {

class PeerDatabases {
  public:
    // `own`: this worker's database, holding `tournament` already; `peers`:
    // the other workers' databases, which may not exist yet.
    PeerDatabases(std::filesystem::path own, std::vector<std::filesystem::path> peers,
                  std::string tournament);

    // The games the peers stored since the last poll, peer by peer, each
    // peer's in the order it stored them. A peer whose database or
    // tournament does not exist yet is passed over, as is one that cannot be
    // read for a while (locked, being created) until it has failed for
    // kPatience. Throws std::runtime_error naming the file when a peer holds
    // another tournament of this name (its config or its bots' programs
    // differ, as `arena merge` would refuse them), or stays unreadable.
    std::vector<store::GameSummary> poll();

    // How long a peer may stay unreadable before poll() gives up on the run.
    static constexpr std::chrono::seconds kPatience{60};

  private:
    struct Peer {
        std::filesystem::path file;
        std::optional<store::ResultsStore> store;
        std::int64_t tournament = 0;  // its id there; 0 until found
        std::int64_t last_id = 0;     // the last game read
        // When its reads began to fail; none while they succeed.
        std::optional<std::chrono::steady_clock::time_point> failing_since;
    };
    void read(Peer& peer, std::vector<store::GameSummary>& games);

    std::filesystem::path own_;
    std::string tournament_;
    std::vector<Peer> peers_;
};

}  // namespace arena::tournament
