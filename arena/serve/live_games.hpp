#pragma once
// Games in progress, move by move, for `arena run --serve`: the runner tells
// this board of every game that starts, every ply played and every game
// that ends (tournament::RunOptions' observer), and the pages show them
// while they are played. A game that ended stays a little while, so that a
// page watching it sees its end and a link to the stored game.
//
// Thread-safe: the runner's games call in from their threads, the server's
// handlers read from theirs.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/match/game_observer.hpp"
#include "arena/record/game_record.hpp"

namespace arena::serve {

// A game in progress is known by a key of "g" and 14 lowercase letters,
// never by a number: the only game number the pages show is the stored
// game's id, which `arena games` lists and `arena show DB N` takes, and a
// game has it only once it is stored.
[[nodiscard]] bool is_live_key(std::string_view text);

class LiveGames {
  public:
    // `db`: the served database index the run stores into (for links to the
    // stored games); `keep`: how long an ended game stays listed.
    explicit LiveGames(int db = 0, std::chrono::milliseconds keep = std::chrono::seconds(30))
        : db_(db), keep_(keep) {}

    // A game of tournament `tournament` (its name) starts; `index` is its
    // schedule index, which keys it.
    void begin(const std::string& tournament, std::int64_t index, const std::string& first,
               const std::string& second, const std::string& game, const std::string& params);
    void move(const std::string& tournament, std::int64_t index, const record::MoveRecord& move);
    // It ended (or was abandoned: then it is dropped at once).
    void end(const std::string& tournament, std::int64_t index, const record::GameRecord& record);
    // It was stored as game `stored_id`.
    void stored(const std::string& tournament, std::int64_t index, std::int64_t stored_id);

    // [{key, tournament, first, second, game, plies}], the games not
    // ended, of `tournament` only when given.
    [[nodiscard]] nlohmann::json list(const std::optional<std::string>& tournament = {});
    // {key, version, over, stored: {db, game}?, game: <replay viewer's form>};
    // nullopt for an unknown key.
    [[nodiscard]] std::optional<nlohmann::json> game(const std::string& key);

  private:
    struct Live {
        std::string tournament;
        std::int64_t index = 0;
        std::string first, second, game, params;
        std::vector<record::MoveRecord> moves;
        std::int64_t version = 0;
        bool over = false;
        std::string result, termination, detail;
        std::int64_t stored_id = 0;
        std::chrono::steady_clock::time_point ended{};
    };
    Live* find(const std::string& tournament, std::int64_t index);  // with mutex_ held
    void forget_old();                                              // with mutex_ held

    int db_;
    std::chrono::milliseconds keep_;
    std::mutex mutex_;
    std::map<std::string, Live> games_;  // by key (is_live_key), one per serial number
    std::map<std::pair<std::string, std::int64_t>, std::string>
        keys_;  // (tournament, index) -> key
    std::int64_t serial_ = 0;
};

// The runner's observer (tournament::RunOptions::observers) for the games of
// tournament `name`, posted to `games`.
class LiveTournament : public match::GameObserver {
  public:
    LiveTournament(LiveGames& games, std::string name) : games_(games), name_(std::move(name)) {}
    void game_started(std::int64_t index, const std::string& first, const std::string& second,
                      const games::Game& game) override;
    void move_played(std::int64_t index, const record::MoveRecord& move) override {
        games_.move(name_, index, move);
    }
    void game_ended(std::int64_t index, const record::GameRecord& record) override {
        games_.end(name_, index, record);
    }
    void game_stored(std::int64_t index, std::int64_t game_id,
                     const record::GameRecord& /*record*/) override {
        games_.stored(name_, index, game_id);
    }

  private:
    LiveGames& games_;
    std::string name_;
};

}  // namespace arena::serve
