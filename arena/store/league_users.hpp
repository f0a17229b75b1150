#pragma once
// The users of a league (`arena league user`, docs/league.md) in its results
// database: the table league_users (schema 10, docs/database.md). SQL only:
// the tokens, their hashes and the rules for names are arena/league's; this
// stores and reads the hash as the text it is given.
//
// The file is opened as a ResultsStore opens it (results_store.hpp): created
// and upgraded for Access::kReadWrite, read through an upgraded copy in
// memory for an older file opened with Access::kReadOnly, and every call
// waits for a database locked by another program as LockWaiting says.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::store {

struct LeagueUserRow {
    std::int64_t id = 0;  // league_users.id: a user's number in the whole file
    std::string name;
    std::string token_hash;  // as written by add() or set_token_hash()
    bool organiser = false;
    std::string disabled_at;  // ISO 8601 UTC; empty while the account works
    std::string created_at;   // ISO 8601 UTC
};

class LeagueUsers {
  public:
    // The users of the league named `league` (its config's `name:`) in the
    // results database at `path`. Throws StoreError as ResultsStore does.
    LeagueUsers(const std::filesystem::path& path, std::string league,
                Access access = Access::kReadWrite, LockWaiting waiting = {});
    // Read-write, with the file in `journal` mode, as ResultsStore's.
    LeagueUsers(const std::filesystem::path& path, std::string league, JournalMode journal,
                LockWaiting waiting = {});
    ~LeagueUsers();
    LeagueUsers(LeagueUsers&&) noexcept;
    LeagueUsers& operator=(LeagueUsers&&) noexcept;

    // Adds a user and returns its id; nullopt when the league already has a
    // user of that name (disabled or not), and nothing is written.
    [[nodiscard]] std::optional<std::int64_t> add(const std::string& name,
                                                  const std::string& token_hash, bool organiser);
    // The league's users in the order they were added.
    [[nodiscard]] std::vector<LeagueUserRow> list();
    [[nodiscard]] std::optional<LeagueUserRow> find(const std::string& name);
    // The user with this id, when it is one of this league's.
    [[nodiscard]] std::optional<LeagueUserRow> find(std::int64_t id);
    // Sets disabled_at to now. False when there is no such user or it was
    // disabled already (its disabled_at stays).
    bool disable(const std::string& name);
    // Replaces the user's token hash; false when there is no such user.
    bool set_token_hash(const std::string& name, const std::string& token_hash);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arena::store
