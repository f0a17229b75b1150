#include "arena/tournament/peers.hpp"

#include <stdexcept>
#include <system_error>
#include <utility>

#include "arena/store/merge.hpp"

namespace arena::tournament {

PeerDatabases::PeerDatabases(std::filesystem::path own, std::vector<std::filesystem::path> peers,
                             std::string tournament)
    : own_(std::move(own)), tournament_(std::move(tournament)) {
    for (auto& file : peers)
        peers_.push_back(Peer{std::move(file), std::nullopt, 0, 0, std::nullopt});
}

std::vector<store::GameSummary> PeerDatabases::poll() {
    std::vector<store::GameSummary> games;
    for (auto& peer : peers_) {
        try {
            read(peer, games);
            peer.failing_since.reset();
        } catch (const store::MergeError&) {
            throw;  // another tournament: waiting does not mend it
        } catch (const std::exception& e) {
            // Its worker is creating it, or holds a lock: read it next time.
            peer.store.reset();
            peer.tournament = 0;
            const auto now = std::chrono::steady_clock::now();
            if (!peer.failing_since) peer.failing_since = now;
            if (now - *peer.failing_since >= kPatience)
                throw std::runtime_error(peer.file.string() + ": cannot be read for " +
                                         std::to_string(kPatience.count()) + " s: " + e.what());
        }
    }
    return games;
}

void PeerDatabases::read(Peer& peer, std::vector<store::GameSummary>& games) {
    if (!peer.store) {
        std::error_code ec;
        if (!std::filesystem::exists(peer.file, ec)) return;  // its worker has not started
        store::LockWaiting waiting;
        waiting.limit = std::chrono::seconds(2);
        peer.store.emplace(peer.file, store::Access::kReadOnly, waiting);
    }
    if (peer.tournament == 0) {
        const auto row = peer.store->find_tournament(tournament_);
        if (!row) return;  // created, but not its tournament yet
        if (const auto diff = store::tournament_difference(own_, peer.file, tournament_)) {
            throw store::MergeError(peer.file.string() + ": tournament '" + tournament_ +
                                    "' is not the one this worker plays: " + *diff);
        }
        peer.tournament = row->id;
    }
    auto fresh = peer.store->games_after(peer.tournament, peer.last_id);
    if (fresh.empty()) return;
    peer.last_id = fresh.back().id;
    for (auto& g : fresh)
        games.push_back(std::move(g));
}

}  // namespace arena::tournament
