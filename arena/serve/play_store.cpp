#include "arena/serve/play_store.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "arena/store/sqlite.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/program_files.hpp"

namespace arena::serve {
namespace {

// A YAML string: JSON's double-quoted form is one.
std::string yaml_string(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string config_text(const std::string& name, const std::string& game, const std::string& person,
                        const store::BotEntry& bot) {
    return "# games of a person against a bot (arena play, arena serve's /play); each game's\n"
           "# board is in its params, and its time control was chosen for that game\n"
           "name: " +
           yaml_string(name) + "\ngame: { name: " + game +
           " }\nbots:\n  - { name: " + yaml_string(person) +
           ", command: \"\", protocol: " + kHumanProtocol +
           " }\n  - { name: " + yaml_string(bot.name) + ", command: " + yaml_string(bot.command) +
           ", protocol: " + yaml_string(bot.protocol) + " }\n";
}

// The tournament's bots are this person and this bot (the same command).
bool same_players(const std::vector<store::BotEntry>& bots, const std::string& person,
                  const store::BotEntry& bot) {
    return bots.size() == 2 && bots[0].name == person && bots[0].protocol == kHumanProtocol &&
           bots[1].name == bot.name && bots[1].command == bot.command &&
           bots[1].protocol == bot.protocol;
}

}  // namespace

store::BotEntry bot_entry(const session::BotSpec& bot, const std::string& command) {
    return {bot.name, command, std::string(session::to_string(bot.protocol)),
            tournament::program_sha256(tournament::program_files(bot.argv, bot.working_dir))};
}

PlayStore::PlayStore(std::filesystem::path path) : path_(std::move(path)), store_(path_) {}

StoredPlay PlayStore::store(const record::GameRecord& record, int human_side,
                            const store::BotEntry& bot) {
    std::lock_guard lock(mutex_);
    const std::string& person = record.players[human_side - 1];
    const std::string base = person + "-vs-" + bot.name + "-" + record.game;
    // Another process may take the tournament's name or the game's slot
    // between our read and our write; then we look again.
    for (int attempt = 0;; ++attempt) {
        std::optional<std::int64_t> id;
        std::string name = base;
        for (int n = 2; !id; ++n) {
            const auto found = store_.find_tournament(name);
            if (!found) break;
            if (found->spec.game == record.game &&
                same_players(store_.bots(found->id), person, bot))
                id = found->id;
            else
                name = base + "-" + std::to_string(n);
        }
        try {
            if (!id) {
                const std::string text = config_text(name, record.game, person, bot);
                id = store_.create_tournament(
                    {name, record.game, text, tournament::sha256_text(text), 0, 0},
                    {{person, "", kHumanProtocol, ""}, bot});
            }
            const auto indices = store_.recorded_indices(*id);
            const std::int64_t next =
                indices.empty() ? 0 : *std::max_element(indices.begin(), indices.end()) + 1;
            const int pair = static_cast<int>(next);
            const std::int64_t game_id = store_.record_game(*id, {next, 0, pair, 0, ""}, record);
            store_.set_status(*id, "finished");
            // The schedule of such a tournament is the games played so far.
            store::Database db(path_, store::Database::Mode::kReadWrite);
            db.set_busy_timeout(std::chrono::seconds(5));
            db.prepare(
                  "UPDATE tournaments SET total_games = (SELECT count(*) FROM games WHERE "
                  "tournament = ?1) WHERE id = ?1")
                .use()
                .bind(*id)
                .exec();
            return {name, game_id};
        } catch (const store::StoreError&) {
            if (attempt >= 5) throw;
        } catch (const store::SqliteError& e) {
            throw store::StoreError(e.what());
        }
    }
}

}  // namespace arena::serve
