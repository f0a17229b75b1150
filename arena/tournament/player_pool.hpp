#pragma once
// The bot processes of a run. A worker takes a player (a bot and its live
// process, if any) for each side of its game and gives it back afterwards,
// so a process never plays two games at once and a healthy one is reused by
// the next game of its bot. At most `capacity` players exist at once, in
// games or idle: when a new one is needed at the bound, the idle player
// used least recently is retired first (its process asked to quit). The
// bound comes from the open-file limit (session/fd_limit.hpp), so a league
// of hundreds of bots fits in any limit that allows two processes a game.

#include <condition_variable>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "arena/match/player.hpp"
#include "arena/match/startup_guard.hpp"
#include "arena/tournament/config.hpp"

namespace arena::tournament {

class PlayerPool {
  public:
    // Bots are started under `host` (which must outlive the pool and the
    // players it hands out). `capacity` 0: no bound.
    PlayerPool(session::BotHost& host, const Config& config, match::StartupGuard& guard,
               std::size_t capacity);
    ~PlayerPool();

    // An idle player of `bot`, or a new one (without a process yet: it
    // starts in the game), after retiring the least recently used idle
    // player when the pool is at its bound. With a `variant` (a tune's bot
    // at one point, PairingSource::variant), a player of that variant: the
    // bot with other arguments.
    [[nodiscard]] std::unique_ptr<match::Player> acquire(
        int bot, const std::shared_ptr<const BotConfig>& variant = nullptr);
    // Back from a game: idle, most recently used.
    void release(int bot, std::unique_ptr<match::Player> player,
                 const std::shared_ptr<const BotConfig>& variant = nullptr);
    // Asks every idle bot to quit, all at once, and waits for them; or only
    // the players of variants (between a tune's batches, whose points are
    // not played again).
    void retire_all(bool variants_only = false);

    // Players retired to stay within the bound, so far.
    [[nodiscard]] std::size_t evictions() const;

  private:
    struct Idle {
        int bot;
        std::unique_ptr<match::Player> player;
        std::shared_ptr<const BotConfig> variant;  // none: the config's bot
    };

    session::BotHost& host_;
    const Config& config_;
    match::StartupGuard& guard_;
    const std::size_t capacity_;
    mutable std::mutex mutex_;
    std::list<Idle> lru_;  // idle players, least recently used first
    std::vector<std::vector<std::list<Idle>::iterator>> idle_of_;  // per bot, into lru_
    std::size_t in_use_ = 0;
    std::size_t evictions_ = 0;
    // Freezes idle processes whose deferred freeze falls due (a bot let run
    // after its game to read `end`, match::Player::end_game).
    std::condition_variable_any wake_;
    std::jthread freezer_;
};

// How many bot processes a run may keep alive: what the open-file limit
// (raised to its hard limit first) leaves after the arena's own needs
// (`reserved` descriptors, e.g. a web server's connections), kFdsPerBot
// each; 0 when the limit is unlimited. Throws std::runtime_error, naming
// the limit and how to raise it, when it does not allow two processes for
// each of `concurrency` games.
[[nodiscard]] std::size_t process_capacity(int concurrency, std::size_t reserved);

}  // namespace arena::tournament
