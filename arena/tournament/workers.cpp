#include "arena/tournament/workers.hpp"

#include "arena/tournament/shard.hpp"

namespace arena::tournament {

std::optional<Worker> parse_worker(std::string_view text, std::string& problem) {
    const auto k_n = parse_k_of_n(text, "--worker", "workers", problem);
    if (!k_n) return std::nullopt;
    return Worker{k_n->first, k_n->second};
}

std::string worker_refusal(const Config& config) {
    if (config.tune) {
        return "arena tune is not distributed over workers yet: each SPSA iteration's point "
               "depends on every result before it (docs/cluster.md, 'Tuning')";
    }
    return {};
}

std::filesystem::path worker_database(const std::filesystem::path& database, Worker worker) {
    auto name = database.stem().string() + ".worker-" + std::to_string(worker.index) + "-of-" +
                std::to_string(worker.count) + database.extension().string();
    return database.parent_path() / name;
}

std::vector<std::filesystem::path> peer_databases(const std::filesystem::path& database,
                                                  Worker worker) {
    std::vector<std::filesystem::path> peers;
    for (int k = 1; k <= worker.count; ++k)
        if (k != worker.index) peers.push_back(worker_database(database, {k, worker.count}));
    return peers;
}

}  // namespace arena::tournament
