#pragma once
// Where a league's uploads arrive (docs/league.md, "Uploads" and "Checks"):
// the desk takes a signed-in participant's upload, refuses it when the
// league is closed or the participant is over their uploads per hour,
// unpacks it beside their bot folder (submission.hpp), and records it as a
// new version, 'checking'. Checker threads then run arena check-bot on it
// in the sandbox, with the league's limits. A version that passes takes the
// place of the previous one in bots_dir and the league is told (`installed`,
// which wakes its play); one that fails is removed and the previous version
// stays in play. Either way the version's log is kept in the database, for
// the participant's page.
//
// A server stopped during a check leaves the version 'checking' and its
// folder half-way: the next desk marks such versions failed ("upload it
// again") and removes the folders.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "arena/league/accounts.hpp"
#include "arena/league/submission.hpp"
#include "arena/session/bot_host.hpp"
#include "arena/store/league_versions.hpp"
#include "arena/tournament/config.hpp"
#include "arena/upload/upload.hpp"

namespace arena::league {

// What the desk says to an upload.
struct DeskAnswer {
    int status = 202;     // HTTP: 202 accepted, 4xx refused, 5xx the server's fault
    std::string message;  // one line, names escaped
    std::optional<store::LeagueVersionRow> version;  // when accepted
    int retry_after_s = 0;                           // with 429
};

using SystemClock = std::chrono::system_clock;

class SubmissionDesk {
  public:
    // The league of the config at `config_path` (`config`, as loaded from
    // it); checks run under `host`, which must outlive the desk. `installed`
    // is called (on a checker thread) after a version took its place.
    // `now` gives the time (tests move it). Throws store::StoreError.
    SubmissionDesk(session::BotHost& host, std::filesystem::path config_path,
                   tournament::Config config, std::function<void()> installed, std::ostream& log,
                   std::function<SystemClock::time_point()> now = SystemClock::now);
    ~SubmissionDesk();  // stops the checks in progress; their versions stay 'checking'
    SubmissionDesk(const SubmissionDesk&) = delete;
    SubmissionDesk& operator=(const SubmissionDesk&) = delete;

    [[nodiscard]] DeskAnswer submit(const User& user, std::string_view file_name,
                                    std::string_view bytes);

    // A participant's versions, newest first (everyone's with "").
    [[nodiscard]] std::vector<store::LeagueVersionRow> versions(const std::string& participant);
    [[nodiscard]] std::optional<store::LeagueVersionRow> version(const std::string& participant,
                                                                 std::int64_t number);
    [[nodiscard]] const upload::UploadLimits& limits() const { return limits_; }
    [[nodiscard]] const tournament::Config& config() const { return config_; }
    // Versions waiting for or in their check.
    [[nodiscard]] std::size_t pending() const;
    // "" while uploads are open; else why not ("uploads closed at ...").
    [[nodiscard]] std::string closed() const;

  private:
    struct Job {
        store::LeagueVersionRow version;
        std::unique_ptr<Staged> staged;
    };

    // The participant's uploads in the last hour, counting this one; 0 when
    // under the limit, else the seconds until the next is allowed.
    int over_rate(const std::string& participant);
    void check_loop(std::stop_token stop);
    void check(Job& job, std::stop_token stop);
    void recover();  // versions a stopped server left 'checking'

    session::BotHost& host_;
    const std::filesystem::path config_path_;
    const tournament::Config config_;
    const std::function<void()> installed_;
    std::ostream& log_;
    const std::function<SystemClock::time_point()> now_;
    upload::UploadLimits limits_;
    store::LeagueVersions store_;

    mutable std::mutex mutex_;
    std::condition_variable_any queued_;
    std::deque<Job> queue_;
    std::size_t checking_ = 0;
    std::map<std::string, std::deque<SystemClock::time_point>> recent_;  // uploads per participant
    std::map<std::string, std::int64_t> newest_installed_;
    std::mutex log_mutex_;
    std::vector<std::jthread> checkers_;  // last: stopped and joined first
};

// "2026-12-20T23:59:00Z"
[[nodiscard]] std::string iso_utc(SystemClock::time_point t);

}  // namespace arena::league
