#include "arena/serve/play_session.hpp"

#include <algorithm>
#include <atomic>
#include <random>
#include <set>
#include <utility>

#include "arena/games/registry.hpp"
#include "arena/match/human.hpp"
#include "arena/match/match.hpp"
#include "arena/report/html_report.hpp"

namespace arena::serve {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

// The board keys a page may set, per game (the registry checks the values).
const std::map<std::string, std::set<std::string>>& board_keys() {
    static const std::map<std::string, std::set<std::string>> keys = {
        {"connect4", {"rows", "cols", "connect", "variant"}},
        {"gomoku", {"size", "rule"}},
        {"reversi", {}},
    };
    return keys;
}

std::string params_text(const games::Params& params) {
    std::string text;
    for (const auto& [k, v] : params)
        text += (text.empty() ? "" : " ") + k + "=" + v;
    return text;
}

std::string new_token() {
    std::random_device rd;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string token;
    for (int i = 0; i < 4; ++i) {
        std::uint32_t word = rd();
        for (int j = 0; j < 8; ++j) {
            token += kHex[word & 0xf];
            word >>= 4;
        }
    }
    return token;
}

}  // namespace

// One person's game: the person's moves come from the page through the
// queue this is; the game runs on the session's own thread.
class PlaySession : public match::HumanMoveQueue {
  public:
    PlaySession(std::string id, std::unique_ptr<games::Game> game, int human_side, PlayBot bot,
                std::string person, match::TimeControl time, session::SessionOptions options,
                PlayStore* store)
        : id_(std::move(id)),
          game_(std::move(game)),
          human_side_(human_side),
          bot_(std::move(bot)),
          person_(std::move(person)),
          time_(time),
          options_(options),
          store_(store),
          last_seen_(Clock::now()) {}

    ~PlaySession() override {
        leave();
        if (thread_.joinable()) {
            thread_.request_stop();
            thread_.join();
        }
    }

    void begin() {
        thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
    }

    void touch() { last_seen_ = Clock::now(); }
    [[nodiscard]] Clock::time_point last_seen() const { return last_seen_; }
    [[nodiscard]] bool over() const {
        std::lock_guard lock(mutex_);
        return finished_;
    }
    [[nodiscard]] Clock::time_point ended() const {
        std::lock_guard lock(mutex_);
        return ended_;
    }

    [[nodiscard]] json state() const {
        std::lock_guard lock(mutex_);
        std::string phase;
        if (finished_) {
            phase = !failure_.empty() ? "failed" : abandoned_ ? "left" : "over";
        } else if (waiting()) {
            phase = "your-move";
        } else if (moves_.empty() && !asked_) {
            phase = "starting";
        } else {
            phase = "bot-thinking";
        }
        json j{{"id", id_},
               {"version", version_},
               {"phase", phase},
               {"you", human_side_},
               {"person", person_},
               {"bot", bot_.spec.name},
               {"move_ms", time_.move.count()},
               {"refused", phase == "your-move" ? refused_ : std::string()},
               {"legal", phase == "your-move" ? legal_ : json::array()},
               {"game", replay()}};
        if (finished_ && !abandoned_ && failure_.empty()) {
            const int winner = record_.winner();
            j["result"] = {{"score", std::string(match::score_text(record_.outcome))},
                           {"winner", winner},
                           {"termination", std::string(match::to_string(record_.termination))},
                           {"detail", record_.detail}};
        }
        if (stored_)
            j["stored"] = {{"tournament", stored_->tournament}, {"game", stored_->game_id}};
        if (!store_problem_.empty()) j["store_problem"] = store_problem_;
        if (!failure_.empty()) j["failure"] = failure_;
        return j;
    }

  protected:
    void asking(const games::State& state, std::string_view refused) override {
        std::lock_guard lock(mutex_);
        asked_ = true;
        refused_ = std::string(refused);
        legal_ = json::array();
        for (const auto m : state.legal_moves())
            legal_.push_back(state.format_move(m));
        ++version_;
    }

    void moved(const games::State& state, const match::MoveRecord& move) override {
        (void)state;
        std::lock_guard lock(mutex_);
        moves_.push_back(move);
        refused_.clear();
        ++version_;
    }

  private:
    void run(const std::stop_token& stop) {
        match::Player human(person_, *this);
        match::Player bot(bot_.spec, options_);
        match::GameRecord record;
        std::string failure;
        try {
            record = human_side_ == 1 ? match::play_game(*game_, human, bot, time_, {}, stop)
                                      : match::play_game(*game_, bot, human, time_, {}, stop);
        } catch (const std::exception& e) {
            failure = e.what();
        }
        bot.retire();
        std::optional<StoredPlay> stored;
        std::string store_problem;
        if (failure.empty() && !record.abandoned && store_ != nullptr) {
            try {
                stored = store_->store(record, human_side_, bot_.entry);
            } catch (const std::exception& e) {
                store_problem = e.what();
            }
        }
        std::lock_guard lock(mutex_);
        record_ = std::move(record);
        abandoned_ = record_.abandoned;
        failure_ = std::move(failure);
        stored_ = std::move(stored);
        store_problem_ = std::move(store_problem);
        finished_ = true;
        ended_ = Clock::now();
        ++version_;
    }

    // The game so far in the replay viewer's form (report::replay_game_json).
    [[nodiscard]] json replay() const {
        store::StoredGame g;
        g.summary.id = stored_ ? stored_->game_id : 0;
        g.summary.first = human_side_ == 1 ? person_ : bot_.spec.name;
        g.summary.second = human_side_ == 1 ? bot_.spec.name : person_;
        g.game = game_->name();
        g.params = params_text(game_->params());
        const auto& moves = finished_ ? record_.moves : moves_;
        int ply = 0;
        for (const auto& m : moves) {
            store::StoredMove s;
            s.ply = ++ply;
            s.side = m.player;
            s.move = m.move;
            s.time_us = m.time.count();
            s.by_arena = m.by_arena;
            s.info = m.info;
            g.moves.push_back(std::move(s));
        }
        if (finished_ && !abandoned_ && failure_.empty()) {
            g.summary.result = std::string(match::score_text(record_.outcome));
            g.summary.termination = std::string(match::to_string(record_.termination));
            g.summary.detail = record_.detail;
            g.stderr_logs[0] = record_.stderr_logs[0];
            g.stderr_logs[1] = record_.stderr_logs[1];
        }
        g.summary.plies = ply;
        return report::replay_game_json(g);
    }

    const std::string id_;
    const std::unique_ptr<games::Game> game_;
    const int human_side_;
    const PlayBot bot_;
    const std::string person_;
    const match::TimeControl time_;
    const session::SessionOptions options_;
    PlayStore* const store_;
    std::atomic<Clock::time_point> last_seen_;

    mutable std::mutex mutex_;
    std::int64_t version_ = 0;
    bool asked_ = false;
    std::string refused_;
    json legal_ = json::array();
    std::vector<match::MoveRecord> moves_;
    bool finished_ = false;
    bool abandoned_ = false;
    Clock::time_point ended_{};
    match::GameRecord record_;
    std::string failure_;
    std::optional<StoredPlay> stored_;
    std::string store_problem_;

    std::jthread thread_;  // last: joined before the members above go
};

PlayManager::PlayManager(PlayConfig config) : config_(std::move(config)) {
    if (!config_.db.empty()) store_.emplace(config_.db);
    sweeper_ = std::jthread([this](std::stop_token stop) {
        std::mutex m;
        std::unique_lock lock(m);
        while (!stop.stop_requested()) {
            wake_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
            if (!stop.stop_requested()) sweep();
        }
    });
}

PlayManager::~PlayManager() {
    sweeper_.request_stop();
    if (sweeper_.joinable()) sweeper_.join();
    std::map<std::string, std::shared_ptr<PlaySession>> sessions;
    {
        std::lock_guard lock(mutex_);
        sessions.swap(sessions_);
    }
    for (auto& [id, s] : sessions)
        s->leave();
    sessions.clear();  // joins each game's thread
}

json PlayManager::choices() const {
    json bots = json::array();
    for (std::size_t i = 0; i < config_.bots.size(); ++i) {
        const auto& b = config_.bots[i];
        bots.push_back({{"key", std::to_string(i)},
                        {"name", b.spec.name},
                        {"label", b.label},
                        {"games", b.games}});
    }
    const auto number = [](const char* name, int min, int max, int default_value) {
        return json{{"name", name}, {"min", min}, {"max", max}, {"default", default_value}};
    };
    const auto choice = [](const char* name, std::vector<std::string> values) {
        return json{{"name", name}, {"values", std::move(values)}};
    };
    return {{"games",
             {{"connect4",
               {number("rows", 4, 16, 6), number("cols", 4, 16, 7), number("connect", 2, 16, 4),
                choice("variant", {"standard", "tsinghua"})}},
              {"gomoku", {number("size", 5, 26, 15), choice("rule", {"freestyle", "exact5"})}},
              {"reversi", json::array()}}},
            {"bots", std::move(bots)},
            {"move_ms",
             {{"min", config_.min_move_ms.count()},
              {"max", config_.max_move_ms.count()},
              {"default", std::clamp<std::int64_t>(1000, config_.min_move_ms.count(),
                                                   config_.max_move_ms.count())}}},
            {"max_sessions", config_.max_sessions},
            {"stored", store_.has_value()}};
}

std::string PlayManager::start(const json& request) {
    if (!request.is_object()) throw PlayError(400, "the request is not a JSON object");
    const auto text_of = [&](const char* key) -> std::string {
        const auto it = request.find(key);
        if (it == request.end()) throw PlayError(400, std::string("'") + key + "' is missing");
        if (it->is_string()) return it->get<std::string>();
        if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
        throw PlayError(400, std::string("'") + key + "' is not a string or an integer");
    };
    const std::string game_name = text_of("game");
    const auto keys = board_keys().find(game_name);
    if (keys == board_keys().end())
        throw PlayError(400, "unknown game (connect4, gomoku or reversi)");
    games::Params params;
    if (const auto it = request.find("params"); it != request.end() && !it->is_null()) {
        if (!it->is_object()) throw PlayError(400, "'params' is not an object");
        for (const auto& [key, value] : it->items()) {
            if (!keys->second.contains(key))
                throw PlayError(400, "'" + key + "' is not a board option of " + game_name);
            if (value.is_string()) {
                params.emplace_back(key, value.get<std::string>());
            } else if (value.is_number_integer()) {
                params.emplace_back(key, std::to_string(value.get<std::int64_t>()));
            } else {
                throw PlayError(400, "board option '" + key + "' is not a string or an integer");
            }
        }
    }
    std::unique_ptr<games::Game> game;
    try {
        std::random_device rd;
        params = games::realize(game_name, params, (std::uint64_t{rd()} << 32) | rd());
        game = games::make_game(game_name, params);
    } catch (const games::GameError& e) {
        throw PlayError(400, e.what());
    }
    const std::string key = text_of("bot");
    std::size_t index = 0;
    try {
        std::size_t used = 0;
        index = std::stoul(key, &used);
        if (used != key.size()) index = config_.bots.size();
    } catch (const std::exception&) {
        index = config_.bots.size();
    }
    if (index >= config_.bots.size()) throw PlayError(400, "no such bot");
    const PlayBot& bot = config_.bots[index];
    if (!bot.games.empty() &&
        std::find(bot.games.begin(), bot.games.end(), game_name) == bot.games.end())
        throw PlayError(400, "this bot does not play " + game_name);
    if (const auto problem = session::protocol_problem(bot.spec.protocol, game_name, params);
        !problem.empty())
        throw PlayError(400, problem);
    const std::string color = text_of("color");
    if (color != "first" && color != "second")
        throw PlayError(400, "'color' must be first or second");
    std::int64_t move_ms = 0;
    try {
        move_ms = std::stoll(text_of("move_ms"));
    } catch (const PlayError&) {
        throw;
    } catch (const std::exception&) {
        throw PlayError(400, "'move_ms' is not a number");
    }
    if (move_ms < config_.min_move_ms.count() || move_ms > config_.max_move_ms.count()) {
        throw PlayError(400, "'move_ms' must be between " +
                                 std::to_string(config_.min_move_ms.count()) + " and " +
                                 std::to_string(config_.max_move_ms.count()));
    }
    match::TimeControl time;
    time.move = match::Millis{move_ms};
    time.tolerance = config_.tolerance;
    const std::string person = bot.spec.name == "human" ? "person" : "human";

    std::lock_guard lock(mutex_);
    std::size_t playing = 0;
    for (const auto& [id, s] : sessions_)
        if (!s->over()) ++playing;
    if (playing >= config_.max_sessions) {
        throw PlayError(503, "all " + std::to_string(config_.max_sessions) +
                                 " games are in use; try again when one has ended");
    }
    std::string id = new_token();
    auto session =
        std::make_shared<PlaySession>(id, std::move(game), color == "first" ? 1 : 2, bot, person,
                                      time, config_.session, store_ ? &*store_ : nullptr);
    session->begin();
    sessions_.emplace(id, std::move(session));
    return id;
}

std::shared_ptr<PlaySession> PlayManager::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    const auto it = sessions_.find(id);
    return it == sessions_.end() ? nullptr : it->second;
}

std::optional<json> PlayManager::state(const std::string& id) {
    const auto s = find(id);
    if (!s) return std::nullopt;
    s->touch();
    return s->state();
}

void PlayManager::move(const std::string& id, const std::string& text) {
    const auto s = find(id);
    if (!s) throw PlayError(404, "no such game");
    s->touch();
    if (text.empty() || text.size() > 16) throw PlayError(400, "not a move");
    if (!s->offer(text)) throw PlayError(409, "it is not your move");
}

void PlayManager::leave(const std::string& id) {
    if (const auto s = find(id)) s->leave();
}

std::size_t PlayManager::playing() const {
    std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& [id, s] : sessions_)
        if (!s->over()) ++n;
    return n;
}

void PlayManager::sweep() {
    const auto now = Clock::now();
    std::vector<std::shared_ptr<PlaySession>> dropped;
    {
        std::lock_guard lock(mutex_);
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            auto& s = it->second;
            if (!s->over()) {
                if (now - s->last_seen() > config_.idle_timeout) s->leave();
                ++it;
            } else if (now - s->ended() > config_.keep_finished) {
                dropped.push_back(std::move(s));
                it = sessions_.erase(it);
            } else {
                ++it;
            }
        }
    }
    // Their threads have ended; joined here, outside the lock.
    dropped.clear();
}

}  // namespace arena::serve
