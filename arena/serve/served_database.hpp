#pragma once
// One results database as arena serve shows it. The lists (tournaments with
// their game counts, a tournament's games since a given id) are read through
// a read-only connection of its own; the standings, a stored game and the
// full report come from the store and arena/report, so they are the numbers
// and the page of `arena standings` and `arena report`. Nothing here writes
// to the file. A database that another process is writing (a running
// `arena run`, in either journal mode) reads as of its last committed game.

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/store/results_store.hpp"
#include "arena/store/sqlite.hpp"

namespace arena::serve {

// A bot of a served tournament, as /play offers it.
struct TournamentBot {
    std::int64_t tournament = 0;
    std::string tournament_name;
    std::string game;  // the tournament's game
    store::BotEntry bot;
};

class ServedDatabase {
  public:
    // Opens `path`, which must exist and be a results database of this
    // arena's schema version. Throws std::runtime_error naming the file and
    // the problem.
    ServedDatabase(int index, std::filesystem::path path);

    [[nodiscard]] int index() const { return index_; }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    // {index, file, tournaments: [{id, name, game, status, games, total,
    //  created_at, finished_at}]}
    [[nodiscard]] nlohmann::json overview();

    // {tournament: {...as in overview}, standings: [{rank, name, elo, error,
    //  games, wins, draws, losses, score, faults}], games: [{id, index,
    //  first, second, result, termination, detail, plies, us}], earlier}
    // with the games whose id is above `since`, in id order, at most
    // `max_games` of them (the latest ones when there are more; `earlier`
    // then counts those left out). nullopt: no such tournament.
    [[nodiscard]] std::optional<nlohmann::json> tournament(std::int64_t id, std::int64_t since,
                                                           std::int64_t max_games = 2000);

    [[nodiscard]] std::optional<store::StoredGame> game(std::int64_t id);
    // The id and name of the tournament game `id` belongs to.
    [[nodiscard]] std::optional<std::pair<std::int64_t, std::string>> tournament_of(
        std::int64_t game_id);

    // Which sides of game `game_id` are people (arena play, /play), not
    // bots: {first, second}.
    [[nodiscard]] std::array<bool, 2> people(std::int64_t game_id);

    // The page `arena report` writes; nullopt: no such tournament. Kept
    // until the file changes (another connection commits), so asking again
    // costs nothing while no game is added.
    [[nodiscard]] std::shared_ptr<const std::string> report(std::int64_t tournament);

    // Every bot of every tournament (people's rows left out).
    [[nodiscard]] std::vector<TournamentBot> bots();

  private:
    [[nodiscard]] std::optional<store::TournamentRow> find(std::int64_t id);
    [[nodiscard]] std::int64_t data_version();

    int index_;
    std::filesystem::path path_;
    std::mutex mutex_;  // the read-only connection and the caches
    store::Database reader_;
    store::ResultsStore store_;
    // Standings are refitted only when the file changed (data_version).
    struct Cached {
        std::int64_t version = -1;
        nlohmann::json standings;
    };
    std::map<std::int64_t, Cached> standings_cache_;
    // The report pages, rebuilt only when the file changed (data_version);
    // the last kReportsKept asked for.
    static constexpr std::size_t kReportsKept = 4;
    struct CachedReport {
        std::int64_t version = -1;
        std::uint64_t used = 0;
        std::shared_ptr<const std::string> page;
    };
    std::mutex report_mutex_;  // held while a report is built: one build at a time
    std::map<std::int64_t, CachedReport> report_cache_;
    std::uint64_t report_uses_ = 0;
};

}  // namespace arena::serve
