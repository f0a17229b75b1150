#include "arena/league/user_command.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "arena/league/accounts.hpp"

namespace arena::league {
namespace {

constexpr std::array<std::string_view, 4> kActionWords{"add", "list", "disable", "reset"};

constexpr std::string_view kLeagueUsage =
    R"(usage: arena league user add CONFIG NAME [--organiser]
       arena league user list CONFIG
       arena league user disable CONFIG NAME
       arena league user reset CONFIG NAME
       arena league grades CONFIG

The users of a league: its participants, who sign in to upload their bots
(arena serve --league CONFIG), and its organisers. CONFIG is the league's tournament config: it needs
bots_dir (a participant's name is also their folder there), and the users
are kept in its database, under its name. A user's token is printed once,
when it is made, and never again: only its hash is stored (docs/league.md).

  user add      add a participant (--organiser: an organiser) and print their token
  user list     the users: name, role, when added, when disabled
  user disable  disable a user: their token no longer signs them in
  user reset    a new token for a user; the old one no longer signs them in
  grades        the league's grades as CSV, as its organiser's page gives them

arena league user <command> --help shows a command's options.
)";

constexpr std::string_view kAddUsage =
    R"(usage: arena league user add CONFIG NAME [--organiser]

Adds the user NAME to the league of CONFIG and prints their token, which is
shown only this once: only its Argon2id hash is stored. NAME follows the rules
of bot names (letters, digits and _ . + -, at most 100 characters) and does
not begin with '.': it is also the participant's folder in the config's
bots_dir. A name the league has already, disabled or not, is refused.

)";

constexpr std::string_view kListUsage =
    R"(usage: arena league user list CONFIG

Lists the users of the league of CONFIG in the order they were added: name,
role (participant or organiser), when added, and when disabled ("-" while
the account works). Tokens cannot be shown: they are not stored.

)";

constexpr std::string_view kDisableUsage =
    R"(usage: arena league user disable CONFIG NAME

Disables the user NAME of the league of CONFIG: from now on their token no
longer signs them in, and reset makes them no new one. The user stays in the
list, and their folder in bots_dir stays as it is.

)";

constexpr std::string_view kResetUsage =
    R"(usage: arena league user reset CONFIG NAME

Makes a new token for the user NAME of the league of CONFIG and prints it,
shown only this once; their old token no longer signs them in. For a token
that was lost or leaked.

)";

std::string role(bool organiser) {
    return organiser ? "organiser" : "participant";
}

// "league 'spring' (results/spring.db)".
std::string league_of(const tournament::Config& config) {
    return "league '" + config.name + "' (" + config.database.string() + ")";
}

// The token and what to do with it: printed by add and reset.
std::string token_lines(const tournament::Config& config, const std::string& name,
                        const std::string& token) {
    return "token: " + token +
           "\nThe token is shown only this once and cannot be shown again: only its hash is "
           "stored.\nGive it to " +
           name + "; if it is lost, arena league user reset " + config.path.string() + " " + name +
           " makes a new one.\n";
}

std::string users_table(const tournament::Config& config, const std::vector<User>& users) {
    if (users.empty()) {
        return league_of(config) + ": no users yet (arena league user add " + config.path.string() +
               " NAME adds one)\n";
    }
    std::size_t width = 4;  // "name"
    for (const auto& u : users)
        width = std::max(width, u.name.size());
    std::ostringstream out;
    out << league_of(config) << ": " << users.size() << (users.size() == 1 ? " user" : " users")
        << "\n";
    const auto pad = [](const std::string& text, std::size_t to) {
        return text + std::string(to > text.size() ? to - text.size() : 0, ' ');
    };
    const auto row = [&](const std::string& name, const std::string& what, const std::string& added,
                         const std::string& disabled) {
        out << pad(name, width + 2) << pad(what, 13) << pad(added, 26) << disabled << "\n";
    };
    row("name", "role", "added", "disabled");
    for (const auto& u : users)
        row(u.name, role(u.organiser), u.created_at, u.disabled() ? u.disabled_at : "-");
    return out.str();
}

std::string add(const tournament::Config& config, const UserRequest& request) {
    Accounts accounts(config.database, config.name, config.journal_mode);
    const std::string token = accounts.add_user(request.name, request.organiser);
    return "added " + role(request.organiser) + " '" + request.name + "' to " + league_of(config) +
           "\n" + token_lines(config, request.name, token);
}

std::string list(const tournament::Config& config) {
    // No file yet: no users, and none is made by looking.
    std::error_code ec;
    if (!std::filesystem::exists(config.database, ec)) return users_table(config, {});
    Accounts accounts(config.database, config.name, store::Access::kReadOnly);
    return users_table(config, accounts.list_users());
}

std::string disable(const tournament::Config& config, const UserRequest& request) {
    Accounts accounts(config.database, config.name, config.journal_mode);
    if (accounts.disable_user(request.name)) {
        return "disabled user '" + request.name + "' of " + league_of(config) +
               ": their token no longer signs them in\n";
    }
    const auto user = accounts.find_user(request.name);
    const std::string since = user ? user->disabled_at : "";
    return "user '" + request.name + "' of " + league_of(config) + " was disabled already (since " +
           since + "): nothing changed\n";
}

std::string reset(const tournament::Config& config, const UserRequest& request) {
    Accounts accounts(config.database, config.name, config.journal_mode);
    const std::string token = accounts.reset_token(request.name);
    return "new token for user '" + request.name + "' of " + league_of(config) +
           "; the old one no longer signs them in\n" + token_lines(config, request.name, token);
}

}  // namespace

std::optional<UserAction> user_action(std::string_view word) {
    for (std::size_t i = 0; i < kActionWords.size(); ++i)
        if (word == kActionWords[i]) return static_cast<UserAction>(i);
    return std::nullopt;
}

std::vector<std::string_view> user_action_words() {
    return {kActionWords.begin(), kActionWords.end()};
}

bool takes_name(UserAction action) {
    return action != UserAction::kList;
}

std::string_view league_usage() {
    return kLeagueUsage;
}

std::string_view grades_usage() {
    return R"(usage: arena league grades CONFIG

Prints the league's grades as CSV, as /league/grades.csv gives them to its
organisers: for a gauntlet of submissions against references, the table of
arena grade; otherwise the standings (rank, name, Elo, its 95 % interval,
games, wins, draws, losses, score, faults). Reads the config's database.
)";
}

std::string_view user_usage(UserAction action) {
    switch (action) {
        case UserAction::kAdd:
            return kAddUsage;
        case UserAction::kList:
            return kListUsage;
        case UserAction::kDisable:
            return kDisableUsage;
        case UserAction::kReset:
            return kResetUsage;
    }
    return kLeagueUsage;
}

std::string league_config_problem(const tournament::Config& config) {
    if (!config.bots_dir.empty()) return "";
    return config.path.string() +
           " has no bots_dir: a league keeps each participant's bots in their folder of "
           "bots_dir (docs/league.md)";
}

std::string run_user_request(const tournament::Config& config, const UserRequest& request) {
    switch (request.action) {
        case UserAction::kAdd:
            return add(config, request);
        case UserAction::kList:
            return list(config);
        case UserAction::kDisable:
            return disable(config, request);
        case UserAction::kReset:
            return reset(config, request);
    }
    return "";
}

}  // namespace arena::league
