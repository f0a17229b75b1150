#include "arena/serve/live_games.hpp"

#include <algorithm>
#include <utility>

#include "arena/record/params_text.hpp"
#include "arena/report/html_report.hpp"
#include "arena/store/results_store.hpp"

namespace arena::serve {

using nlohmann::json;

namespace {

// "g" and 14 letters, from a serial number (one-to-one: 26^14 > 2^64; and far from
// sequential-looking).
std::string live_key(std::int64_t serial) {
    auto x = static_cast<std::uint64_t>(serial) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    std::string key = "g";
    for (int i = 0; i < 14; ++i) {
        key += static_cast<char>('a' + x % 26);
        x /= 26;
    }
    return key;
}

}  // namespace

bool is_live_key(std::string_view text) {
    return text.size() == 15 && text[0] == 'g' &&
           std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

LiveGames::Live* LiveGames::find(const std::string& tournament, std::int64_t index) {
    const auto k = keys_.find({tournament, index});
    if (k == keys_.end()) return nullptr;
    const auto g = games_.find(k->second);
    return g == games_.end() ? nullptr : &g->second;
}

void LiveGames::forget_old() {
    const auto now = std::chrono::steady_clock::now();
    for (auto it = games_.begin(); it != games_.end();) {
        if (it->second.over && now - it->second.ended > keep_) {
            keys_.erase({it->second.tournament, it->second.index});
            it = games_.erase(it);
        } else {
            ++it;
        }
    }
}

void LiveGames::begin(const std::string& tournament, std::int64_t index, const std::string& first,
                      const std::string& second, const std::string& game,
                      const std::string& params) {
    std::lock_guard lock(mutex_);
    forget_old();
    if (const auto old = keys_.find({tournament, index}); old != keys_.end())
        games_.erase(old->second);  // played again (a resumed or retried game)
    // Not a number: a game in progress has no game number yet (it gets one,
    // the id `arena show` takes, when it is stored), and its key must not
    // read as one.
    const std::string key = live_key(++serial_);
    keys_[{tournament, index}] = key;
    Live& g = games_[key];
    g.tournament = tournament;
    g.index = index;
    g.first = first;
    g.second = second;
    g.game = game;
    g.params = params;
}

void LiveGames::move(const std::string& tournament, std::int64_t index,
                     const record::MoveRecord& move) {
    std::lock_guard lock(mutex_);
    if (Live* g = find(tournament, index)) {
        g->moves.push_back(move);
        ++g->version;
    }
}

void LiveGames::end(const std::string& tournament, std::int64_t index,
                    const record::GameRecord& record) {
    std::lock_guard lock(mutex_);
    Live* g = find(tournament, index);
    if (g == nullptr) return;
    if (record.abandoned) {
        // Not a result: it will be played again.
        const auto key = keys_.find({tournament, index});
        games_.erase(key->second);
        keys_.erase(key);
        return;
    }
    g->over = true;
    g->ended = std::chrono::steady_clock::now();
    g->moves = record.moves;
    g->result = std::string(record::score_text(record.outcome));
    g->termination = std::string(record::to_string(record.termination));
    g->detail = record.detail;
    ++g->version;
}

void LiveGames::stored(const std::string& tournament, std::int64_t index, std::int64_t stored_id) {
    std::lock_guard lock(mutex_);
    if (Live* g = find(tournament, index)) {
        g->stored_id = stored_id;
        ++g->version;
    }
}

void LiveTournament::game_started(std::int64_t index, const std::string& first,
                                  const std::string& second, const games::Game& game) {
    games_.begin(name_, index, first, second, game.name(), record::params_text(game.params()));
}

json LiveGames::list(const std::optional<std::string>& tournament) {
    std::lock_guard lock(mutex_);
    forget_old();
    json out = json::array();
    for (const auto& [key, g] : games_) {
        if (g.over || (tournament && g.tournament != *tournament)) continue;
        out.push_back({{"key", key},
                       {"tournament", g.tournament},
                       {"first", g.first},
                       {"second", g.second},
                       {"game", g.game},
                       {"plies", g.moves.size()}});
    }
    return out;
}

std::optional<json> LiveGames::game(const std::string& key) {
    std::lock_guard lock(mutex_);
    const auto it = games_.find(key);
    if (it == games_.end()) return std::nullopt;
    const Live& g = it->second;
    store::StoredGame s;
    s.summary.id = g.stored_id;
    s.summary.slot.index = g.index;
    s.summary.first = g.first;
    s.summary.second = g.second;
    s.summary.result = g.result;
    s.summary.termination = g.termination;
    s.summary.detail = g.detail;
    s.game = g.game;
    s.params = g.params;
    int ply = 0;
    for (const auto& m : g.moves) {
        store::StoredMove sm;
        sm.ply = ++ply;
        sm.side = m.player;
        sm.move = m.move;
        sm.time_us = m.time.count();
        sm.by_arena = m.by_arena;
        sm.info = m.info;
        s.moves.push_back(std::move(sm));
    }
    json j{{"key", key},
           {"version", g.version},
           {"over", g.over},
           {"tournament", g.tournament},
           {"game", report::replay_game_json(s)}};
    if (g.stored_id > 0) j["stored"] = {{"db", db_}, {"game", g.stored_id}};
    return j;
}

}  // namespace arena::serve
