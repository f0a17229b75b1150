#include "arena/serve/play_bots.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <tuple>

#include "arena/record/escape.hpp"
#include "arena/serve/play_store.hpp"
#include "arena/session/command_line.hpp"
#include "arena/tournament/bot_argument.hpp"

namespace arena::serve {
namespace {

// The bot of a --play-bot argument, labelled as one.
PlayBot given_bot(const std::string& arg, const session::Isolation& isolation) {
    auto spec = tournament::parse_bot_argument(arg);
    spec.isolation = isolation;
    const auto eq = arg.find('=');
    const auto space = arg.find_first_of(" \t");
    const std::string command =
        eq != std::string::npos && (space == std::string::npos || eq < space) ? arg.substr(eq + 1)
                                                                              : arg;
    PlayBot bot;
    bot.label = spec.name + " (--play-bot)";
    bot.entry = bot_entry(spec, command);
    bot.spec = std::move(spec);
    return bot;
}

// Adds the bots of `db`'s tournaments to `bots`, each program once (by name,
// command and protocol, `seen` holding where each is), with every game it
// was seen playing.
void add_stored_bots(
    ServedDatabase& db, const session::Isolation& isolation, std::ostream& err,
    std::vector<PlayBot>& bots,
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t>& seen) {
    for (const auto& t : db.bots()) {
        const auto key = std::make_tuple(t.bot.name, t.bot.command, t.bot.protocol);
        if (const auto it = seen.find(key); it != seen.end()) {
            auto& games = bots[it->second].games;
            if (std::find(games.begin(), games.end(), t.game) == games.end())
                games.push_back(t.game);
            continue;
        }
        session::BotSpec spec;
        try {
            spec.name = t.bot.name;
            spec.argv = session::split_command(t.bot.command);
            spec.isolation = isolation;
            tournament::set_bot_protocol(spec, t.bot.protocol);
        } catch (const std::exception& e) {
            err << "arena serve: " << db.path().string() << ": bot '"
                << record::escape_controls(t.bot.name) << "' of tournament '"
                << record::escape_controls(t.tournament_name)
                << "' is not offered on /play: " << record::escape_controls(e.what()) << "\n";
            continue;
        }
        PlayBot bot;
        bot.label =
            t.bot.name + " (" + t.tournament_name + ", " + db.path().filename().string() + ")";
        bot.games = {t.game};
        bot.entry = bot_entry(spec, t.bot.command);
        bot.spec = std::move(spec);
        seen[key] = bots.size();
        bots.push_back(std::move(bot));
    }
}

}  // namespace

std::vector<PlayBot> play_bots(const std::vector<std::string>& play_bot_args,
                               const std::vector<ServedDatabase*>& databases,
                               const session::Isolation& isolation, std::ostream& err) {
    std::vector<PlayBot> bots;
    for (const auto& arg : play_bot_args)
        bots.push_back(given_bot(arg, isolation));
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> seen;
    for (auto* db : databases)
        add_stored_bots(*db, isolation, err, bots, seen);
    return bots;
}

}  // namespace arena::serve
