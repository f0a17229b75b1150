#pragma once
// The games people play on /play: each is a session with its own thread
// running match::play_game between the person (a HumanMoveQueue fed by the
// page's clicks) and a bot that runs as a normal session under the arena's
// clock and judging. Sessions are bounded in number; one whose page has not
// been heard from for the idle timeout is left (the game is abandoned and
// the bot killed), as is every session when the manager goes. A finished
// game is stored through PlayStore like any other game.
//
// The bots are chosen from a fixed list given at start-up (the served
// tournaments' bots, the commands of --play-bot): a request names one by its
// key and never supplies a command.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "arena/match/time_control.hpp"
#include "arena/serve/play_store.hpp"
#include "arena/session/session.hpp"
#include "arena/store/results_store.hpp"

namespace arena::serve {

// A bot the page may choose.
struct PlayBot {
    std::string label;  // how the page lists it (its name, where it comes from)
    // The games it plays; empty: not known, and the manager finds out by
    // trying it (see PlayManager).
    std::vector<std::string> games;
    session::BotSpec spec;
    store::BotEntry entry;  // as stored with its games
};

struct PlayConfig {
    std::vector<PlayBot> bots;
    std::filesystem::path db;  // where finished games are stored; empty: nowhere
    std::size_t max_sessions = 4;
    std::chrono::milliseconds idle_timeout{30'000};
    std::chrono::milliseconds keep_finished{600'000};  // a finished game's page still works
    match::Millis min_move_ms{10}, max_move_ms{60'000};
    match::Millis tolerance = match::kDefaultTolerance;
    session::SessionOptions session;
};

// A request the manager refuses: the HTTP status and why.
class PlayError : public std::runtime_error {
  public:
    PlayError(int status, const std::string& what) : std::runtime_error(what), status_(status) {}
    [[nodiscard]] int status() const { return status_; }

  private:
    int status_;
};

class PlaySession;

// A bot whose games are not known (PlayBot::games empty, as for a command
// given on the command line) is tried on each game in the background when
// the manager starts: it must start, take the game and answer a legal first
// move on the default board within the default move time (a bot that only
// runs out of time is taken to play it). Until that is done it is not
// offered; afterwards only for the games it passed.
class PlayManager {
  public:
    // Opens the database when one is given (throws store::StoreError). The
    // bots are started under `host`, which must outlive the manager.
    PlayManager(session::BotHost& host, PlayConfig config);
    ~PlayManager();  // leaves every session and waits for its thread
    PlayManager(const PlayManager&) = delete;
    PlayManager& operator=(const PlayManager&) = delete;

    // What the page may choose: {games: {connect4: [{name, min, max,
    // default} or {name, values}], ...}, bots: [{key, label, name, games,
    // checking, problem?}] (games: those it is offered for; checking: being
    // tried; problem: why it plays none),
    // move_ms: {min, max, default}, max_sessions, stored: bool}.
    [[nodiscard]] nlohmann::json choices() const;

    // Starts a game from {game, params: {key: value}, bot: key, color:
    // "first"|"second", move_ms}; returns the new session's id (an
    // unguessable token). Throws PlayError: 400 for a bad request, 503 when
    // every session is in use.
    [[nodiscard]] std::string start(const nlohmann::json& request);
    // The session's state for its page; nullopt: no such session. Counts
    // as the page being there.
    [[nodiscard]] std::optional<nlohmann::json> state(const std::string& id);
    // The person's move, as text in the game's notation. Throws PlayError:
    // 404 no such session, 409 when it is not the person's move.
    void move(const std::string& id, const std::string& text);
    // The person leaves (the game is abandoned unless it is over).
    void leave(const std::string& id);

    // Sessions whose game is not over.
    [[nodiscard]] std::size_t playing() const;
    // Leaves the sessions not heard from within the idle timeout and drops
    // finished ones after keep_finished. Run every second by the manager's
    // own thread; public for tests.
    void sweep();

  private:
    [[nodiscard]] std::shared_ptr<PlaySession> find(const std::string& id) const;

    // Tries bot `index` on every game (a thread of probers_).
    void try_bot(std::size_t index, const std::stop_token& stop);

    session::BotHost& host_;
    PlayConfig config_;
    std::optional<PlayStore> store_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<PlaySession>> sessions_;
    struct Tried {
        bool checking = false;
        std::vector<std::string> games;  // passed
        std::string problem;             // it plays none: why
    };
    std::vector<Tried> tried_;  // per bot, for those with no games given (mutex_)
    std::mutex wake_mutex_;
    bool ended_ = false;  // a game ended since the sweeper last looked (wake_mutex_)
    std::condition_variable_any wake_;
    std::jthread sweeper_;
    std::vector<std::jthread> probers_;
};

}  // namespace arena::serve
