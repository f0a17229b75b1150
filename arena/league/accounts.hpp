#pragma once
// The accounts of a league (docs/league.md): participants, who sign in to
// upload their bots, and organisers. They are kept in the league's results
// database (store::LeagueUsers, the table league_users), under the league's
// name. Each has a token (tokens.hpp) that is shown once, when it is made;
// only its Argon2id hash is stored.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arena/store/league_users.hpp"
#include "arena/store/results_store.hpp"

namespace arena::league {

struct User {
    std::int64_t id = 0;
    std::string name;  // also the user's folder in the config's bots_dir
    bool organiser = false;
    std::string disabled_at;  // ISO 8601 UTC; empty while the account works
    std::string created_at;   // ISO 8601 UTC
    [[nodiscard]] bool disabled() const { return !disabled_at.empty(); }
};

// A request about users that cannot be done; the message names the league
// and the user.
class AccountError : public std::runtime_error {
  public:
    enum class Kind {
        kBadName,      // not a valid user name (user_name_problem)
        kUnknownUser,  // the league has no user of that name
        kNameTaken,    // the league has a user of that name already
        kDisabled,     // the user is disabled
    };
    AccountError(Kind kind, const std::string& message)
        : std::runtime_error(message), kind_(kind) {}
    [[nodiscard]] Kind kind() const { return kind_; }

  private:
    Kind kind_;
};

// "" when `name` can be a user's name; else why not. The rules of bot names
// (letters, digits and _ . + -, at most 100 characters: it becomes the
// user's folder in bots_dir), and no '.' first (bots_dir skips such folders).
[[nodiscard]] std::string user_name_problem(const std::string& name);

class Accounts {
  public:
    // The users of the league `league` (its config's `name:`) in the results
    // database `database`: created or upgraded with Access::kReadWrite, as
    // ResultsStore does; only read with Access::kReadOnly (authenticate and
    // list_users). Throws store::StoreError.
    Accounts(const std::filesystem::path& database, std::string league,
             store::Access access = store::Access::kReadWrite);
    // Read-write, with the file in `journal` mode (the config's
    // `journal_mode`), as store::ResultsStore's.
    Accounts(const std::filesystem::path& database, std::string league, store::JournalMode journal);

    // Adds a participant or an organiser and returns their token, the only
    // time it is known. Throws AccountError (kBadName, kNameTaken).
    [[nodiscard]] std::string add_user(const std::string& name, bool organiser);
    // In the order they were added.
    [[nodiscard]] std::vector<User> list_users();
    // The user `name`, when the league has one.
    [[nodiscard]] std::optional<User> find_user(const std::string& name);
    // From now on their token fails. False when they were disabled already.
    // Throws AccountError (kUnknownUser).
    bool disable_user(const std::string& name);
    // A new token for the user, returned; the old one fails from now on.
    // Throws AccountError (kUnknownUser, kDisabled: a disabled user's token
    // fails whatever it is).
    [[nodiscard]] std::string reset_token(const std::string& name);
    // The user a token signs in, unless it is wrong or they are disabled.
    // One Argon2id verification at most: the token names its user.
    [[nodiscard]] std::optional<User> authenticate(std::string_view token);

    [[nodiscard]] const std::string& league() const { return league_; }
    [[nodiscard]] const std::filesystem::path& database() const { return database_; }

  private:
    // The user `name`; throws AccountError kUnknownUser.
    store::LeagueUserRow existing(const std::string& name);
    [[nodiscard]] AccountError name_taken(const std::string& name) const;
    // With "did you mean" among the league's users.
    [[nodiscard]] AccountError unknown_user(const std::string& name);

    std::filesystem::path database_;
    std::string league_;
    store::LeagueUsers users_;
};

}  // namespace arena::league
