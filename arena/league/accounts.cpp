#include "arena/league/accounts.hpp"

#include <utility>

#include "arena/league/tokens.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/suggest.hpp"
#include "arena/tournament/config_fields.hpp"

namespace arena::league {
namespace {

using Kind = AccountError::Kind;

// A name typed by someone, quoted for a message.
std::string shown(std::string_view name) {
    return "'" + record::escape_controls(name) + "'";
}

User user_of(const store::LeagueUserRow& row) {
    return {row.id, row.name, row.organiser, row.disabled_at, row.created_at};
}

}  // namespace

std::string user_name_problem(const std::string& name) {
    using tournament::FieldReader;
    // Validity first: the message of the length quotes the name unescaped.
    if (!FieldReader::is_valid_name(name)) {
        return "user name " + shown(name) +
               " is not valid (use only letters, digits and _ . + -: it names the user's folder "
               "in bots_dir)";
    }
    if (auto problem = FieldReader::name_length_problem("user name", name); !problem.empty())
        return problem;
    if (name.front() == '.') {
        return "user name " + shown(name) +
               " begins with '.': its folder in bots_dir would be hidden, and skipped";
    }
    return "";
}

Accounts::Accounts(const std::filesystem::path& database, std::string league, store::Access access)
    : database_(database), league_(std::move(league)), users_(database, league_, access) {}

Accounts::Accounts(const std::filesystem::path& database, std::string league,
                   store::JournalMode journal)
    : database_(database), league_(std::move(league)), users_(database, league_, journal) {}

std::string Accounts::add_user(const std::string& name, bool organiser) {
    if (auto problem = user_name_problem(name); !problem.empty())
        throw AccountError(Kind::kBadName, problem);
    // Refused before the hash is made: a hash costs a tenth of a second.
    if (users_.find(name)) throw name_taken(name);
    const NewSecret secret = new_secret();
    const auto id = users_.add(name, secret.hash, organiser);
    if (!id) throw name_taken(name);  // added by another program in the meantime
    return token_text(*id, secret.text);
}

std::vector<User> Accounts::list_users() {
    std::vector<User> users;
    for (const auto& row : users_.list())
        users.push_back(user_of(row));
    return users;
}

std::optional<User> Accounts::find_user(const std::string& name) {
    if (auto row = users_.find(name)) return user_of(*row);
    return std::nullopt;
}

AccountError Accounts::name_taken(const std::string& name) const {
    return {Kind::kNameTaken, "league " + shown(league_) + " already has a user " + shown(name) +
                                  " (" + database_.string() + ")"};
}

AccountError Accounts::unknown_user(const std::string& name) {
    std::vector<std::string> names;
    for (const auto& row : users_.list())
        names.push_back(row.name);
    const std::vector<std::string_view> known(names.begin(), names.end());
    return {Kind::kUnknownUser, "league " + shown(league_) + " has no user " + shown(name) +
                                    record::suggestion(name, known) + " (" + database_.string() +
                                    ")"};
}

store::LeagueUserRow Accounts::existing(const std::string& name) {
    if (auto row = users_.find(name)) return *row;
    throw unknown_user(name);
}

bool Accounts::disable_user(const std::string& name) {
    const auto row = existing(name);
    if (!row.disabled_at.empty()) return false;
    return users_.disable(name);
}

std::string Accounts::reset_token(const std::string& name) {
    const auto row = existing(name);
    if (!row.disabled_at.empty()) {
        throw AccountError(Kind::kDisabled, "user " + shown(name) + " of league " + shown(league_) +
                                                " is disabled (since " + row.disabled_at +
                                                "): a new token would not sign them in");
    }
    const NewSecret secret = new_secret();
    if (!users_.set_token_hash(name, secret.hash)) throw unknown_user(name);  // gone meanwhile
    return token_text(row.id, secret.text);
}

std::optional<User> Accounts::authenticate(std::string_view token) {
    const auto parts = split_token(token);
    if (!parts) return std::nullopt;
    // An id that no user has fails at once: ids are not secret (they count
    // the users), so the time saved tells nothing.
    const auto row = users_.find(parts->user_id);
    // The secret is checked before the account's state, so that a wrong
    // token says nothing about it.
    if (!row || !secret_matches(parts->secret, row->token_hash)) return std::nullopt;
    if (!row->disabled_at.empty()) return std::nullopt;
    return user_of(*row);
}

}  // namespace arena::league
