#include "arena/serve/play_session.hpp"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <random>
#include <set>
#include <utility>

#include "arena/games/registry.hpp"
#include "arena/match/human.hpp"
#include "arena/match/match.hpp"
#include "arena/record/params_text.hpp"
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

// The person's side when a bot is tried: leaves when asked for a move.
class Leaver : public match::HumanInput {
  public:
    std::optional<std::string> next_move(const games::State&, std::string_view,
                                         std::optional<TimePoint>, std::stop_token) override {
        return std::nullopt;
    }
};

// Empty when `bot` plays `game_name`: it starts, takes the game (its
// default board) and answers a legal first move; else what went wrong.
std::string try_game(session::BotHost& host, const PlayBot& bot, const std::string& game_name,
                     const PlayConfig& config, match::Millis move, const std::stop_token& stop) {
    const auto params = games::realize(game_name, {}, 1);
    const auto game = games::make_game(game_name, params);
    if (const auto problem = session::protocol_problem(bot.spec.protocol, game_name, params);
        !problem.empty())
        return problem;
    Leaver leaver;
    match::Player person("person", leaver);
    match::Player player(host, bot.spec, config.session);
    match::TimeControl time;
    time.move = move;
    time.tolerance = config.tolerance;
    record::GameRecord record;
    try {
        record = match::play_game(*game, player, person, time, {}, stop);
    } catch (const std::exception& e) {
        return e.what();
    }
    if (record.abandoned) return record.moves.empty() ? "not tried" : "";
    // Slow is not unable: a bot that took the game and thought too long plays it.
    if (record.termination == record::Termination::kTimeout) return "";
    std::string text = std::string(record::to_string(record.termination)) + ": " + record.detail;
    if (const auto tail = record::stderr_tail(record.stderr_logs[0]); !tail.empty())
        text += "; its stderr: " + tail;
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
    PlaySession(session::BotHost& host, std::string id, std::unique_ptr<games::Game> game,
                int human_side, PlayBot bot, std::string person, match::TimeControl time,
                session::SessionOptions options, PlayStore* store, std::function<void()> on_end)
        : host_(host),
          id_(std::move(id)),
          game_(std::move(game)),
          human_side_(human_side),
          bot_(std::move(bot)),
          person_(std::move(person)),
          time_(time),
          options_(options),
          store_(store),
          on_end_(std::move(on_end)),
          last_seen_(Clock::now()) {}

    ~PlaySession() override {
        quit();
        if (thread_.joinable()) {
            thread_.request_stop();
            thread_.join();
        }
    }

    void begin() {
        thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
    }

    // The person leaves (or the page went quiet): the game is abandoned, and
    // the bot's process is killed now, even in the middle of its move, so
    // that the game's thread ends (the slot is free) without waiting for the
    // bot's deadline.
    void quit() {
        leave();
        // A game not begun yet does not start its bot again (the stop token
        // of play_game), whichever moment the kill below lands at.
        thread_.request_stop();
        // Only through a pidfd: a plain kill() could reach another process
        // once the game's thread has reaped the bot and its pid is reused.
        // Without pidfds (Linux before 5.3) the bot ends at its deadline.
        std::lock_guard lock(mutex_);
        if (bot_pidfd_ >= 0)
            (void)::syscall(SYS_pidfd_send_signal, bot_pidfd_, SIGKILL, nullptr, 0);
    }

    // Joins the game's thread once the game is over (its stack is then
    // given back at once rather than when the session is dropped).
    void release() {
        if (over() && thread_.joinable()) thread_.join();
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
        } else if (!bot_ready_) {
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
            j["result"] = {{"score", std::string(record::score_text(record_.outcome))},
                           {"winner", winner},
                           {"termination", std::string(record::to_string(record_.termination))},
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

    void moved(const games::State& state, const record::MoveRecord& move) override {
        (void)state;
        std::lock_guard lock(mutex_);
        moves_.push_back(move);
        refused_.clear();
        ++version_;
    }

  private:
    // The bot's process, for quit() on another thread; a pidfd where the
    // kernel has them, so that a signal can never reach a reused pid.
    // Called on the game's thread, which alone reaps the bot, while it runs.
    void publish_bot(pid_t pid) {
        const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
        std::lock_guard lock(mutex_);
        bot_pidfd_ = fd;
        bot_ready_ = true;
        ++version_;
    }
    void unpublish_bot() {
        std::lock_guard lock(mutex_);
        if (bot_pidfd_ >= 0) ::close(bot_pidfd_);
        bot_pidfd_ = -1;
    }

    void run(const std::stop_token& stop) {
        match::Player human(person_, *this);
        match::Player bot(host_, bot_.spec, options_);
        record::GameRecord record;
        std::string failure;
        const int bot_side = 3 - human_side_;
        try {
            // The bot starts here rather than inside play_game, so that its
            // process is known before its first move and leaving can kill it.
            const auto ready = bot.ensure_ready();
            if (ready.fault != session::Fault::kNone) {
                const std::string tail = record::stderr_tail(bot.take_stderr_log());
                failure = bot_.spec.name + " did not start: " + ready.detail +
                          (tail.empty() ? "" : "; its stderr: " + tail);
            } else {
                publish_bot(bot.session().pid());
                if (left()) {
                    record.abandoned = true;
                } else {
                    record = human_side_ == 1
                                 ? match::play_game(*game_, human, bot, time_, {}, stop)
                                 : match::play_game(*game_, bot, human, time_, {}, stop);
                }
            }
        } catch (const std::exception& e) {
            failure = e.what();
        }
        unpublish_bot();
        bot.retire();
        if (left()) {
            // Leaving ends the game unless the rules had ended it: a bot
            // killed because the person left has not lost.
            if (record.abandoned || record.termination != record::Termination::kNormal ||
                record.outcome == games::Outcome::kOngoing)
                record.abandoned = true;
            failure.clear();
        } else if (failure.empty() && !record.abandoned &&
                   record.termination != record::Termination::kNormal &&
                   record.termination != record::Termination::kTimeout &&
                   record.winner() == human_side_) {
            // A bot that fails before its first move cannot play this game
            // (or cannot run at all): a failed start, not a result.
            const bool moved = std::any_of(
                record.moves.begin(), record.moves.end(),
                [&](const record::MoveRecord& m) { return m.player == bot_side && !m.by_arena; });
            if (!moved) {
                const std::string tail = record::stderr_tail(record.stderr_logs[bot_side - 1]);
                failure = bot_.spec.name + " failed before its first move (" +
                          std::string(record::to_string(record.termination)) +
                          "): " + record.detail + (tail.empty() ? "" : "; its stderr: " + tail);
            }
        }
        std::optional<StoredPlay> stored;
        std::string store_problem;
        if (failure.empty() && !record.abandoned && store_ != nullptr) {
            try {
                stored = store_->store(record, human_side_, bot_.entry);
            } catch (const std::exception& e) {
                store_problem = e.what();
            }
        }
        {
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
        if (on_end_) on_end_();
    }

    // The game so far in the replay viewer's form (report::replay_game_json).
    [[nodiscard]] json replay() const {
        store::StoredGame g;
        g.summary.id = stored_ ? stored_->game_id : 0;
        g.summary.first = human_side_ == 1 ? person_ : bot_.spec.name;
        g.summary.second = human_side_ == 1 ? bot_.spec.name : person_;
        g.game = game_->name();
        g.params = record::params_text(game_->params());
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
            g.summary.result = std::string(record::score_text(record_.outcome));
            g.summary.termination = std::string(record::to_string(record_.termination));
            g.summary.detail = record_.detail;
            g.stderr_logs[0] = record_.stderr_logs[0];
            g.stderr_logs[1] = record_.stderr_logs[1];
        }
        g.summary.plies = ply;
        json j = report::replay_game_json(g);
        // A person has no stderr: the viewer shows no box for it.
        j["logs"][static_cast<std::size_t>(human_side_ - 1)] = nullptr;
        return j;
    }

    session::BotHost& host_;
    const std::string id_;
    const std::unique_ptr<games::Game> game_;
    const int human_side_;
    const PlayBot bot_;
    const std::string person_;
    const match::TimeControl time_;
    const session::SessionOptions options_;
    PlayStore* const store_;
    const std::function<void()> on_end_;  // tells the manager (from the game's thread)
    std::atomic<Clock::time_point> last_seen_;

    mutable std::mutex mutex_;
    std::int64_t version_ = 0;
    bool asked_ = false;
    std::string refused_;
    json legal_ = json::array();
    std::vector<record::MoveRecord> moves_;
    bool finished_ = false;
    bool abandoned_ = false;
    Clock::time_point ended_{};
    record::GameRecord record_;
    std::string failure_;
    std::optional<StoredPlay> stored_;
    std::string store_problem_;
    int bot_pidfd_ = -1;      // the bot's process while the game runs (quit())
    bool bot_ready_ = false;  // the bot has started (its handshake is done)

    std::jthread thread_;  // last: joined before the members above go
};

PlayManager::PlayManager(session::BotHost& host, PlayConfig config)
    : host_(host), config_(std::move(config)) {
    if (!config_.db.empty()) store_.emplace(config_.db);
    tried_.resize(config_.bots.size());
    for (std::size_t i = 0; i < config_.bots.size(); ++i) {
        if (!config_.bots[i].games.empty()) continue;
        tried_[i].checking = true;
        probers_.emplace_back([this, i](std::stop_token stop) { try_bot(i, stop); });
    }
    sweeper_ = std::jthread([this](std::stop_token stop) {
        std::unique_lock lock(wake_mutex_);
        while (!stop.stop_requested()) {
            // Every second, and at once when a game has ended (to join its
            // thread).
            wake_.wait_for(lock, stop, std::chrono::seconds(1),
                           [this] { return std::exchange(ended_, false); });
            if (stop.stop_requested()) break;
            lock.unlock();
            sweep();
            lock.lock();
        }
    });
}

void PlayManager::try_bot(std::size_t index, const std::stop_token& stop) {
    const PlayBot& bot = config_.bots[index];
    const auto move = match::Millis{
        std::clamp<std::int64_t>(1000, config_.min_move_ms.count(), config_.max_move_ms.count())};
    std::vector<std::string> plays;
    std::vector<std::string> problems;
    for (const auto& [name, keys] : board_keys()) {
        if (stop.stop_requested()) break;
        std::string problem;
        try {
            problem = try_game(host_, bot, name, config_, move, stop);
        } catch (const std::exception& e) {
            problem = e.what();
        }
        if (problem.empty()) {
            plays.push_back(name);
        } else {
            problems.push_back(name + ": " + problem);
        }
    }
    std::lock_guard lock(mutex_);
    auto& t = tried_[index];
    t.games = std::move(plays);
    if (t.games.empty()) {
        for (const auto& p : problems)
            t.problem += (t.problem.empty() ? "" : "; ") + p;
    }
    t.checking = false;
}

PlayManager::~PlayManager() {
    for (auto& p : probers_)
        p.request_stop();
    probers_.clear();  // joins them
    sweeper_.request_stop();
    if (sweeper_.joinable()) sweeper_.join();
    std::map<std::string, std::shared_ptr<PlaySession>> sessions;
    {
        std::lock_guard lock(mutex_);
        sessions.swap(sessions_);
    }
    for (auto& [id, s] : sessions)
        s->quit();
    sessions.clear();  // joins each game's thread
}

json PlayManager::choices() const {
    json bots = json::array();
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < config_.bots.size(); ++i) {
        const auto& b = config_.bots[i];
        const auto& t = tried_[i];
        json j{{"key", std::to_string(i)},
               {"name", b.spec.name},
               {"label", b.label},
               {"games", b.games.empty() ? t.games : b.games},
               {"checking", t.checking}};
        if (!t.problem.empty()) j["problem"] = t.problem;
        bots.push_back(std::move(j));
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
    {
        std::lock_guard lock(mutex_);
        const auto& t = tried_[index];
        const auto& plays = bot.games.empty() ? t.games : bot.games;
        if (std::find(plays.begin(), plays.end(), game_name) == plays.end()) {
            if (t.checking)
                throw PlayError(503,
                                "this bot is still being tried on each game; try again in "
                                "a moment");
            throw PlayError(400, "this bot does not play " + game_name);
        }
    }
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
    auto session = std::make_shared<PlaySession>(
        host_, id, std::move(game), color == "first" ? 1 : 2, bot, person, time, config_.session,
        store_ ? &*store_ : nullptr, [this] {
            {
                std::lock_guard wake(wake_mutex_);
                ended_ = true;
            }
            wake_.notify_all();
        });
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
    if (const auto s = find(id)) s->quit();
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
    std::vector<std::shared_ptr<PlaySession>> dropped, ended;
    {
        std::lock_guard lock(mutex_);
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            auto& s = it->second;
            if (!s->over()) {
                if (now - s->last_seen() > config_.idle_timeout) s->quit();
                ++it;
            } else if (now - s->ended() > config_.keep_finished) {
                dropped.push_back(std::move(s));
                it = sessions_.erase(it);
            } else {
                ended.push_back(s);
                ++it;
            }
        }
    }
    // Their threads have ended (or are ending); joined here, outside the
    // lock: a finished game keeps its page for keep_finished, not its thread.
    for (auto& s : ended)
        s->release();
    dropped.clear();
}

}  // namespace arena::serve
