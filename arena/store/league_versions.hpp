#pragma once
// The versions a league's participants uploaded (arena serve --league,
// docs/league.md) in its results database: the table league_versions
// (schema 11, docs/database.md). Each accepted upload is a version,
// numbered per participant from 1, checked by arena check-bot: 'checking',
// then 'passed' or 'failed' with the check's log. SQL only; what a version
// means is arena/league's.
//
// Opened as LeagueUsers opens the file (league_users.hpp).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::store {

struct LeagueVersionRow {
    std::int64_t id = 0;  // league_versions.id
    std::string participant;
    std::int64_t version = 0;  // the participant's 1, 2, ...
    std::string file_name;     // as sent
    std::string kind;          // script, binary, library, archive
    std::int64_t bytes = 0;    // the upload's size
    std::string status;        // checking, passed, failed
    std::string message;       // one line: the check's summary
    std::string check_log;     // the whole log; empty while checking
    std::string uploaded_at;   // ISO 8601 UTC
    std::string checked_at;    // ISO 8601 UTC; empty while checking
};

class LeagueVersions {
  public:
    LeagueVersions(const std::filesystem::path& path, std::string league,
                   Access access = Access::kReadWrite, LockWaiting waiting = {});
    // Read-write, with the file in `journal` mode, as ResultsStore's.
    LeagueVersions(const std::filesystem::path& path, std::string league, JournalMode journal,
                   LockWaiting waiting = {});
    ~LeagueVersions();
    LeagueVersions(LeagueVersions&&) noexcept;
    LeagueVersions& operator=(LeagueVersions&&) noexcept;

    // A new version of `participant`'s bot, numbered one past their last,
    // 'checking'. Returns it.
    LeagueVersionRow add(const std::string& participant, const std::string& file_name,
                         const std::string& kind, std::int64_t bytes);
    // The check's verdict: status 'passed' or 'failed', its summary and log.
    void set_checked(std::int64_t id, bool passed, const std::string& message,
                     const std::string& log);
    // A participant's versions, newest first; all participants' with "".
    [[nodiscard]] std::vector<LeagueVersionRow> list(const std::string& participant = "");
    [[nodiscard]] std::optional<LeagueVersionRow> find(const std::string& participant,
                                                       std::int64_t version);
    // Versions still 'checking' (a server stopped during their check).
    [[nodiscard]] std::vector<LeagueVersionRow> checking();
    // How many versions `participant` uploaded since `since` (ISO 8601 UTC).
    [[nodiscard]] std::int64_t count_since(const std::string& participant,
                                           const std::string& since);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arena::store
