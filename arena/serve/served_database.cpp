#include "arena/serve/served_database.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "arena/report/html_report.hpp"
#include "arena/report/standings.hpp"
#include "arena/serve/play_store.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::serve {
namespace {

using nlohmann::json;

// The read-only connection, opened only to a file of this arena's schema:
// the store would upgrade an older one, which a viewer must not do.
store::Database open_reader(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw std::runtime_error(path.string() + ": no such results database");
    try {
        store::Database db(path, store::Database::Mode::kReadOnly);
        db.set_busy_timeout(std::chrono::seconds(2));
        const auto version = db.query_int("PRAGMA user_version");
        if (version != store::kSchemaVersion) {
            throw std::runtime_error(
                path.string() + ": schema version " + std::to_string(version) +
                (version < store::kSchemaVersion
                     ? ", older than this arena's " + std::to_string(store::kSchemaVersion) +
                           " (arena serve does not upgrade a database; `arena upgrade " +
                           path.string() + "` does it once)"
                     : ", newer than this arena's " + std::to_string(store::kSchemaVersion)));
        }
        return db;
    } catch (const store::SqliteError& e) {
        throw std::runtime_error(e.what());
    }
}

// Readers of the served file give up after a few seconds on a lock held by
// a checkpoint or another program; the request then gets a 503.
store::LockWaiting reader_waiting() {
    store::LockWaiting w;
    w.limit = std::chrono::milliseconds(3000);
    return w;
}

json tournament_json(store::Statement::Query& q) {
    return {{"id", q.column_int64(0)},         {"name", q.column_text(1)},
            {"game", q.column_text(2)},        {"status", q.column_text(3)},
            {"total", q.column_int64(4)},      {"created_at", q.column_text(5)},
            {"finished_at", q.column_text(6)}, {"games", q.column_int64(7)}};
}

constexpr const char* kTournamentColumns =
    "SELECT t.id, t.name, t.game, t.status, t.total_games, t.created_at, "
    "coalesce(t.finished_at, ''), (SELECT count(*) FROM games g WHERE g.tournament = t.id) "
    "FROM tournaments t ";

}  // namespace

ServedDatabase::ServedDatabase(int index, std::filesystem::path path)
    : index_(index),
      path_(std::move(path)),
      reader_(open_reader(path_)),
      store_(path_, store::Access::kReadOnly, reader_waiting()) {}

std::int64_t ServedDatabase::data_version() {
    return reader_.query_int("PRAGMA data_version");
}

json ServedDatabase::overview() {
    std::lock_guard lock(mutex_);
    json tournaments = json::array();
    auto stmt = reader_.prepare(std::string(kTournamentColumns) + "ORDER BY t.id");
    auto q = stmt.use();
    while (q.step())
        tournaments.push_back(tournament_json(q));
    return {{"index", index_},
            {"file", path_.filename().string()},
            {"path", path_.string()},
            {"tournaments", std::move(tournaments)}};
}

std::optional<store::TournamentRow> ServedDatabase::find(std::int64_t id) {
    for (auto& t : store_.tournaments())
        if (t.id == id) return t;
    return std::nullopt;
}

std::optional<json> ServedDatabase::tournament(std::int64_t id, std::int64_t since,
                                               std::int64_t max_games) {
    std::lock_guard lock(mutex_);
    json head;
    {
        auto stmt = reader_.prepare(std::string(kTournamentColumns) + "WHERE t.id = ?");
        auto q = stmt.use();
        q.bind(id);
        if (!q.step()) return std::nullopt;
        head = tournament_json(q);
    }
    // The standings: refitted when another connection committed since.
    const std::int64_t version = data_version();
    auto& cached = standings_cache_[id];
    if (cached.version != version || cached.standings.is_null()) {
        const auto row = find(id);
        if (!row) return std::nullopt;
        std::vector<rating::Anchor> anchors;
        try {
            anchors = tournament::stored_settings(row->spec.config_text).checked_anchors();
            const auto s = report::compute_standings(store_, *row, anchors);
            cached.standings = json::array();
            for (std::size_t rank = 0; rank < s.order.size(); ++rank) {
                const std::size_t i = s.order[rank];
                const auto& t = s.summary[i].total;
                cached.standings.push_back({{"rank", rank + 1},
                                            {"name", s.names[i]},
                                            {"elo", report::shown_elo(s.fit.ratings[i])},
                                            {"error", s.fit.errors[i]},
                                            {"games", t.games},
                                            {"wins", t.wins},
                                            {"draws", t.draws},
                                            {"losses", t.losses},
                                            {"score", t.score()},
                                            {"faults", report::faults_text(s.faults[i])}});
            }
        } catch (const std::invalid_argument& e) {
            // Anchors that do not fit the bots: the standings say why.
            cached.standings = json::array();
            head["problem"] = e.what();
        }
        cached.version = version;
    }
    // The games after `since`: the latest `max_games` of them.
    json games = json::array();
    std::int64_t newer = 0;
    {
        auto stmt = reader_.prepare("SELECT count(*) FROM games WHERE tournament = ? AND id > ?");
        auto q = stmt.use();
        q.bind(id).bind(since);
        if (q.step()) newer = q.column_int64(0);
    }
    {
        auto stmt = reader_.prepare(
            "SELECT * FROM (SELECT g.id, g.game_index, f.name, s.name, g.result, g.termination, "
            "g.detail, g.plies, g.duration_us FROM games g JOIN bots f ON f.id = g.first_bot "
            "JOIN bots s ON s.id = g.second_bot WHERE g.tournament = ? AND g.id > ? "
            "ORDER BY g.id DESC LIMIT ?) ORDER BY 1");
        auto q = stmt.use();
        q.bind(id).bind(since).bind(max_games);
        while (q.step()) {
            games.push_back({{"id", q.column_int64(0)},
                             {"index", q.column_int64(1)},
                             {"first", q.column_text(2)},
                             {"second", q.column_text(3)},
                             {"result", q.column_text(4)},
                             {"termination", q.column_text(5)},
                             {"detail", q.column_text(6)},
                             {"plies", q.column_int64(7)},
                             {"us", q.column_int64(8)}});
        }
    }
    const auto sent = static_cast<std::int64_t>(games.size());
    return json{{"tournament", std::move(head)},
                {"standings", cached.standings},
                {"games", std::move(games)},
                {"earlier", newer - sent}};
}

std::optional<store::StoredGame> ServedDatabase::game(std::int64_t id) {
    return store_.load_game(id);
}

std::optional<std::pair<std::int64_t, std::string>> ServedDatabase::tournament_of(
    std::int64_t game_id) {
    std::lock_guard lock(mutex_);
    auto stmt = reader_.prepare(
        "SELECT t.id, t.name FROM games g JOIN tournaments t ON t.id = g.tournament WHERE g.id = "
        "?");
    auto q = stmt.use();
    q.bind(game_id);
    if (!q.step()) return std::nullopt;
    return std::make_pair(q.column_int64(0), q.column_text(1));
}

std::array<bool, 2> ServedDatabase::people(std::int64_t game_id) {
    std::lock_guard lock(mutex_);
    auto stmt = reader_.prepare(
        "SELECT f.protocol, s.protocol FROM games g JOIN bots f ON f.id = g.first_bot JOIN bots s "
        "ON s.id = g.second_bot WHERE g.id = ?");
    auto q = stmt.use();
    q.bind(game_id);
    if (!q.step()) return {false, false};
    return {q.column_text(0) == kHumanProtocol, q.column_text(1) == kHumanProtocol};
}

std::shared_ptr<const std::string> ServedDatabase::report(std::int64_t tournament) {
    std::lock_guard building(report_mutex_);
    std::int64_t version = 0;
    {
        std::lock_guard lock(mutex_);
        version = data_version();
    }
    if (const auto it = report_cache_.find(tournament);
        it != report_cache_.end() && it->second.version == version) {
        it->second.used = ++report_uses_;
        return it->second.page;
    }
    const auto row = find(tournament);
    if (!row) return nullptr;
    report::ReportOptions options;
    const auto settings = tournament::stored_settings(row->spec.config_text);
    try {
        options.anchors = settings.checked_anchors();
    } catch (const std::invalid_argument&) {
        options.anchors.clear();  // the report is then on the mean-0 scale
    }
    options.points = settings.scoring;
    std::ostringstream page;
    try {
        report::write_report(store_, *row, options, page);
    } catch (const std::invalid_argument&) {
        options.anchors.clear();
        page.str("");
        report::write_report(store_, *row, options, page);
    }
    auto built = std::make_shared<const std::string>(page.str());
    report_cache_[tournament] = {version, ++report_uses_, built};
    while (report_cache_.size() > kReportsKept) {
        auto oldest = report_cache_.begin();
        for (auto it = report_cache_.begin(); it != report_cache_.end(); ++it)
            if (it->second.used < oldest->second.used) oldest = it;
        report_cache_.erase(oldest);
    }
    return built;
}

std::vector<TournamentBot> ServedDatabase::bots() {
    std::vector<TournamentBot> out;
    for (const auto& t : store_.tournaments()) {
        for (auto& bot : store_.bots(t.id)) {
            if (bot.protocol == kHumanProtocol || bot.retired) continue;
            out.push_back({t.id, t.spec.name, t.spec.game, std::move(bot)});
        }
    }
    return out;
}

}  // namespace arena::serve
