#pragma once
// Games between a person and a bot (arena play, the /play page of arena
// serve) in a results database, as normal games: each pairing of a person's
// name, a bot and a game is a tournament of its own, named
// "<person>-vs-<bot>-<game>" (with "-2", "-3", ... when that name is taken by
// another tournament), whose two bots are the person (command "", protocol
// "human") and the bot. Each game gets the next schedule index, and the
// tournament's total_games follows the games stored, so `arena standings`,
// `games`, `show`, `export` and `report` work on it as on any tournament.

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

#include "arena/record/game_record.hpp"
#include "arena/session/session.hpp"
#include "arena/store/results_store.hpp"

namespace arena::serve {

struct StoredPlay {
    std::string tournament;
    std::int64_t game_id = 0;
};

// The protocol column of a person's row in the bots table.
inline constexpr const char* kHumanProtocol = "human";

// The bots table's row of `bot`, started with `command` (as it was given):
// its name, that command, its protocol and the SHA-256 of its program files.
[[nodiscard]] store::BotEntry bot_entry(const session::BotSpec& bot, const std::string& command);

class PlayStore {
  public:
    // Opens (or creates) the database. Throws store::StoreError.
    explicit PlayStore(std::filesystem::path path);

    // Stores `record`, a finished game (not abandoned) whose player
    // `human_side` (1 or 2) is a person and whose other player is `bot`.
    // Safe to call from several threads, and from several processes at once.
    // Throws store::StoreError.
    StoredPlay store(const record::GameRecord& record, int human_side, const store::BotEntry& bot);

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
    std::mutex mutex_;
    store::ResultsStore store_;
};

}  // namespace arena::serve
