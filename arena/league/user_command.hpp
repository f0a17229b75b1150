#pragma once
// What `arena league user add|list|disable|reset CONFIG [NAME]` does and
// says (docs/league.md): its help, the check of the config, and the lines
// it prints. The command line itself is parsed by arena/cli.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/tournament/config.hpp"

namespace arena::league {

enum class UserAction { kAdd, kList, kDisable, kReset };

// The action named `word` ("add", "list", "disable", "reset"), else nullopt.
[[nodiscard]] std::optional<UserAction> user_action(std::string_view word);
// Those words, in that order.
[[nodiscard]] std::vector<std::string_view> user_action_words();
// Whether the action names a user (all but list).
[[nodiscard]] bool takes_name(UserAction action);

// The help of `arena league` and `arena league user`: the subcommands.
[[nodiscard]] std::string_view league_usage();
// The help of `arena league grades`.
[[nodiscard]] std::string_view grades_usage();
// The help of one subcommand, printed before its options.
[[nodiscard]] std::string_view user_usage(UserAction action);

// "" when `config` can hold a league's users; else the problem, naming the
// config: a league needs `bots_dir:`, where each participant's folder is.
[[nodiscard]] std::string league_config_problem(const tournament::Config& config);

struct UserRequest {
    UserAction action = UserAction::kList;
    std::string name;        // all but list
    bool organiser = false;  // add
};

// Does what `request` asks of the users of the league `config` describes
// (its name, its database) and returns what to print: a new token with the
// line saying it is shown only now, or the table of users. Listing never
// creates the database. Throws AccountError (accounts.hpp) and
// store::StoreError.
[[nodiscard]] std::string run_user_request(const tournament::Config& config,
                                           const UserRequest& request);

}  // namespace arena::league
