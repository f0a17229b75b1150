#include "arena/store/merge_check.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <system_error>
#include <utility>

#include "arena/store/merge.hpp"
#include "arena/store/results_store.hpp"

namespace arena::store {
namespace {

// The first line that differs between two fingerprints.
std::string first_difference(const std::string& here, const std::string& there) {
    std::istringstream a(here), b(there);
    std::string la, lb;
    while (true) {
        const bool ha = static_cast<bool>(std::getline(a, la));
        const bool hb = static_cast<bool>(std::getline(b, lb));
        if (!ha && !hb) return "(the same lines)";
        if (!ha) la = "(nothing)";
        if (!hb) lb = "(nothing)";
        if (la != lb) return "'" + la + "' here, '" + lb + "' there";
    }
}

}  // namespace

std::vector<TournamentHeader> read_headers(Database& db, const std::string& schema) {
    std::vector<TournamentHeader> headers;
    {
        auto list = db.prepare("SELECT id, name, fingerprint, total_games FROM " + schema +
                               ".tournaments ORDER BY id");
        auto q = list.use();
        while (q.step()) {
            TournamentHeader h;
            h.id = q.column_int64(0);
            h.name = q.column_text(1);
            h.fingerprint = q.column_text(2);
            h.total = q.column_int64(3);
            headers.push_back(std::move(h));
        }
    }
    auto bots = db.prepare("SELECT id, name, IFNULL(sha256, ''), version FROM " + schema +
                           ".bots WHERE tournament = ? ORDER BY id");
    auto segments = db.prepare(
        "SELECT s.segment, s.games_per_pair, s.rounds, s.first_game, s.games, s.fingerprint, "
        "(SELECT group_concat(name, ',') FROM (SELECT b.name FROM " +
        schema + ".segment_bots AS sb JOIN " + schema +
        ".bots AS b ON b.id = sb.bot WHERE sb.tournament = s.tournament AND sb.segment = "
        "s.segment ORDER BY b.id)) FROM " +
        schema + ".segments AS s WHERE s.tournament = ? ORDER BY s.segment");
    for (auto& h : headers) {
        {
            auto q = bots.use();
            q.bind(h.id);
            while (q.step())
                h.bots.push_back(
                    {q.column_int64(0), q.column_text(1), q.column_text(2), q.column_int(3)});
        }
        auto q = segments.use();
        q.bind(h.id);
        while (q.step()) {
            std::ostringstream line;
            line << "segment " << q.column_int64(0) << ": games_per_pair=" << q.column_int64(1)
                 << " rounds=" << q.column_int64(2) << " games " << q.column_int64(3) << "+"
                 << q.column_int64(4) << " bots " << q.column_text(6) << " of '" << q.column_text(5)
                 << "'";
            h.segments.push_back(line.str());
        }
    }
    return headers;
}

std::optional<std::string> difference(const TournamentHeader& here, const TournamentHeader& there) {
    if (here.fingerprint != there.fingerprint)
        return "its fingerprint differs: " + first_difference(here.fingerprint, there.fingerprint);
    for (std::size_t i = 0; i < std::max(here.bots.size(), there.bots.size()); ++i) {
        if (i >= here.bots.size())
            return "it lacks bot '" + there.bots[i].name + "', which is there";
        if (i >= there.bots.size())
            return "it has bot '" + here.bots[i].name + "', which is not there";
        const auto& a = here.bots[i];
        const auto& b = there.bots[i];
        if (a.name != b.name || a.version != b.version) {
            return "its bot " + std::to_string(i + 1) + " is '" + a.name + "' (version " +
                   std::to_string(a.version) + ") here, '" + b.name + "' (version " +
                   std::to_string(b.version) + ") there";
        }
        if (a.sha256 != b.sha256) {
            const auto shown = [](const std::string& s) { return s.empty() ? "unknown" : s; };
            return "the program of bot '" + a.name + "' differs: sha256 " + shown(a.sha256) +
                   " here, " + shown(b.sha256) +
                   " there (every input must come from the same "
                   "build of the bots)";
        }
    }
    if (here.segments != there.segments) {
        for (std::size_t i = 0; i < std::max(here.segments.size(), there.segments.size()); ++i) {
            const std::string a = i < here.segments.size() ? here.segments[i] : "(none)";
            const std::string b = i < there.segments.size() ? there.segments[i] : "(none)";
            if (a != b) {
                return "its schedule has grown differently: " + a + " here, " + b + " there";
            }
        }
    }
    return std::nullopt;
}

std::vector<TournamentHeader> read_input_headers(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw MergeError(file.string() + ": no such file");
    if (std::filesystem::is_directory(file, ec))
        throw MergeError(file.string() + ": is a directory, not a results database");
    try {
        Database db(file, Database::Mode::kReadOnly);
        db.set_busy_timeout(std::chrono::seconds(10));
        const auto app = db.query_int("PRAGMA application_id");
        const auto version = db.query_int("PRAGMA user_version");
        if (app != 0x4152454E || version == 0)
            throw MergeError(file.string() + ": not an arena results database");
        if (version != kSchemaVersion) {
            throw MergeError(
                file.string() + ": results database schema version " + std::to_string(version) +
                ", this arena's is " + std::to_string(kSchemaVersion) +
                (version < kSchemaVersion ? " (arena upgrade " + file.string() + " upgrades it)"
                                          : " (use a newer arena)"));
        }
        Transaction read(db, Transaction::Mode::kDeferred);
        return read_headers(db, "main");
    } catch (const MergeError&) {
        throw;
    } catch (const SqliteError& e) {
        throw MergeError(file.string() + ": cannot read it: " + e.what());
    }
}

std::optional<std::string> tournament_difference(const std::filesystem::path& here,
                                                 const std::filesystem::path& there,
                                                 const std::string& name) {
    const auto find = [&](const std::filesystem::path& file) -> std::optional<TournamentHeader> {
        for (auto& h : read_input_headers(file))
            if (h.name == name) return std::move(h);
        return std::nullopt;
    };
    const auto a = find(here);
    const auto b = find(there);
    if (!a || !b) return std::nullopt;
    return difference(*a, *b);
}

}  // namespace arena::store
