#include "arena/league/desk.hpp"

#include <ctime>
#include <exception>
#include <ostream>
#include <utility>

#include "arena/check/check.hpp"
#include "arena/record/escape.hpp"
#include "arena/submissions/submissions.hpp"

namespace arena::league {
namespace {

namespace fs = std::filesystem;

constexpr auto kHour = std::chrono::hours(1);

tournament::LeagueSettings settings_of(const tournament::Config& config) {
    return config.league ? *config.league : tournament::LeagueSettings{};
}

upload::UploadLimits limits_of(const tournament::Config& config) {
    upload::UploadLimits limits;
    const std::uint64_t mb = static_cast<std::uint64_t>(settings_of(config).max_upload_mb);
    limits.max_upload = mb << 20;
    limits.max_unpacked = 4 * (mb << 20);
    return limits;
}

DeskAnswer refusal(int status, std::string message) {
    DeskAnswer a;
    a.status = status;
    a.message = std::move(message);
    return a;
}

// Folders a stopped server left in bots_dir: uploads on their way in.
void remove_leftovers(const fs::path& bots_dir) {
    std::error_code ec;
    for (fs::directory_iterator it(bots_dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.starts_with(".install-") || name.starts_with(".upload-"))
            fs::remove_all(it->path(), ec);
    }
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    if (from.empty()) return text;
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

}  // namespace

std::string iso_utc(SystemClock::time_point t) {
    const std::time_t seconds = SystemClock::to_time_t(t);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

SubmissionDesk::SubmissionDesk(session::BotHost& host, fs::path config_path,
                               tournament::Config config, std::function<void()> installed,
                               std::ostream& log, std::function<SystemClock::time_point()> now)
    : host_(host),
      config_path_(std::move(config_path)),
      config_(std::move(config)),
      installed_(std::move(installed)),
      log_(log),
      now_(std::move(now)),
      limits_(limits_of(config_)),
      store_(config_.database, config_.name, config_.journal_mode) {
    recover();
    for (const auto& v : store_.list())
        if (v.status == "passed")
            newest_installed_.try_emplace(v.participant, v.version);  // newest first
    const int checkers = std::max(1, settings_of(config_).checks_at_once);
    for (int i = 0; i < checkers; ++i)
        checkers_.emplace_back([this](std::stop_token stop) { check_loop(stop); });
}

SubmissionDesk::~SubmissionDesk() {
    for (auto& t : checkers_)
        t.request_stop();
    queued_.notify_all();
    checkers_.clear();
}

void SubmissionDesk::recover() {
    for (const auto& v : store_.checking()) {
        store_.set_checked(v.id, false, "the server stopped during its check; upload it again", "");
    }
    remove_leftovers(config_.bots_dir);
}

std::string SubmissionDesk::closed() const {
    const auto closes = settings_of(config_).closes;
    if (!closes || now_() < *closes) return "";
    return "the league '" + config_.name + "' closed for uploads at " + iso_utc(*closes);
}

int SubmissionDesk::over_rate(const std::string& participant) {
    const auto now = now_();
    auto [it, fresh] = recent_.try_emplace(participant);
    auto& times = it->second;
    if (fresh) {  // a restarted server still counts the last hour's versions
        const auto n = store_.count_since(participant, iso_utc(now - kHour));
        for (std::int64_t i = 0; i < n; ++i)
            times.push_back(now);
    }
    while (!times.empty() && times.front() <= now - kHour)
        times.pop_front();
    const auto allowed = static_cast<std::size_t>(settings_of(config_).uploads_per_hour);
    if (times.size() >= allowed) {
        const auto wait =
            std::chrono::duration_cast<std::chrono::seconds>(times.front() + kHour - now);
        return static_cast<int>(std::max<std::int64_t>(1, wait.count()));
    }
    times.push_back(now);
    return 0;
}

DeskAnswer SubmissionDesk::submit(const User& user, std::string_view file_name,
                                  std::string_view bytes) {
    if (const auto why = closed(); !why.empty())
        return refusal(403, why + "; no upload is taken after that");
    {
        std::lock_guard lock(mutex_);
        if (const int wait = over_rate(user.name); wait > 0) {
            auto a = refusal(
                429, "at most " + std::to_string(settings_of(config_).uploads_per_hour) +
                         " uploads an hour; the next is allowed in " + std::to_string(wait) + " s");
            a.retry_after_s = wait;
            return a;
        }
    }
    auto staged = std::make_unique<Staged>(
        stage_upload(config_.bots_dir, user.name, file_name, bytes, limits_));
    if (!staged->result.ok()) {
        const bool refused = staged->result.status == upload::UploadStatus::refused;
        return refusal(refused ? (bytes.size() > limits_.max_upload ? 413 : 422) : 500,
                       staged->result.message);
    }
    Job job;
    job.version = store_.add(user.name, record::escape_controls(std::string(file_name)),
                             std::string(upload::kind_name(staged->result.kind)),
                             static_cast<std::int64_t>(bytes.size()));
    job.staged = std::move(staged);
    DeskAnswer answer;
    answer.version = job.version;
    answer.message = "version " + std::to_string(job.version.version) + " of '" + user.name +
                     "' is being checked";
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(job));
    }
    queued_.notify_one();
    return answer;
}

void SubmissionDesk::check_loop(std::stop_token stop) {
    while (!stop.stop_requested()) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            if (!queued_.wait(lock, stop, [&] { return !queue_.empty(); })) return;
            job = std::move(queue_.front());
            queue_.pop_front();
            ++checking_;
        }
        try {
            check(job, stop);
        } catch (const check::Stopped&) {
            // The server stops: the version stays 'checking' (recover()).
        } catch (const std::exception& e) {
            store_.set_checked(job.version.id, false,
                               std::string("the check could not run: ") + e.what(), e.what());
        }
        std::lock_guard lock(mutex_);
        --checking_;
    }
}

void SubmissionDesk::check(Job& job, std::stop_token stop) {
    const auto& v = job.version;
    std::string message, log;
    bool passed = false;
    try {
        // The config as it is now, with this folder as its last bot.
        const auto config =
            tournament::submission_config(config_path_, job.staged->folder, v.participant);
        const auto outcome = submissions::check_submission(host_, config, config.bots.back(), stop);
        passed = outcome.passed;
        message = passed ? "passes the checks (" + outcome.summary + ")" : outcome.why;
        // The participant reads the log: their folder as they know it, not
        // the server's staging path.
        log = replace_all(outcome.log, job.staged->folder.string(),
                          (config_.bots_dir / v.participant).lexically_normal().string());
    } catch (const tournament::ConfigError& e) {
        message = replace_all(std::string("its bot.yaml cannot be used: ") + e.what(),
                              job.staged->folder.string(),
                              (config_.bots_dir / v.participant).lexically_normal().string());
        log = message + "\n";
    }
    bool superseded = false;
    if (passed) {
        std::lock_guard lock(mutex_);
        auto& newest = newest_installed_[v.participant];
        superseded = newest > v.version;  // a later version passed first
        if (!superseded) newest = v.version;
    }
    if (passed && !superseded) {
        const auto installed = job.staged->install();
        if (!installed.ok()) {
            passed = false;
            message = installed.message;
        }
    }
    job.staged->discard();
    if (superseded) message += "; a later version was in play already";
    store_.set_checked(v.id, passed, message, log);
    {
        std::lock_guard lock(log_mutex_);
        log_ << "arena serve --league: version " << v.version << " of '" << v.participant << "' "
             << (passed ? "passed its check" : "FAILED its check") << " ("
             << record::escape_controls(message) << ")\n"
             << std::flush;
    }
    if (passed && !superseded && installed_) installed_();
}

std::vector<store::LeagueVersionRow> SubmissionDesk::versions(const std::string& participant) {
    return store_.list(participant);
}

std::optional<store::LeagueVersionRow> SubmissionDesk::version(const std::string& participant,
                                                               std::int64_t number) {
    return store_.find(participant, number);
}

std::size_t SubmissionDesk::pending() const {
    std::lock_guard lock(mutex_);
    return queue_.size() + checking_;
}

}  // namespace arena::league
