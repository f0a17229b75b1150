#include "arena/tournament/player_pool.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "arena/session/fd_limit.hpp"

namespace arena::tournament {

namespace {
// How often idle processes are looked at for a freeze that fell due.
constexpr auto kFreezerPeriod = std::chrono::milliseconds(20);
}  // namespace

PlayerPool::PlayerPool(session::BotHost& host, const Config& config, match::StartupGuard& guard,
                       std::size_t capacity)
    : host_(host),
      config_(config),
      guard_(guard),
      capacity_(capacity),
      idle_of_(config.bots.size()) {
    freezer_ = std::jthread([this](std::stop_token stop) {
        std::unique_lock lock(mutex_);
        while (!stop.stop_requested()) {
            wake_.wait_for(lock, stop, kFreezerPeriod, [] { return false; });
            const auto now = session::Clock::now();
            for (auto& idle : lru_)
                if (idle.player) idle.player->freeze_if_due(now);
        }
    });
}

PlayerPool::~PlayerPool() {
    freezer_.request_stop();
    if (freezer_.joinable()) freezer_.join();
}

std::unique_ptr<match::Player> PlayerPool::acquire(
    int bot, const std::shared_ptr<const BotConfig>& variant) {
    std::unique_ptr<match::Player> retired;
    {
        std::lock_guard lock(mutex_);
        if (variant) {
            const auto it = std::find_if(lru_.rbegin(), lru_.rend(),
                                         [&](const Idle& i) { return i.variant == variant; });
            if (it != lru_.rend()) {
                auto player = std::move(it->player);
                lru_.erase(std::next(it).base());
                ++in_use_;
                return player;
            }
        } else if (auto& mine = idle_of_[static_cast<std::size_t>(bot)]; !mine.empty()) {
            const auto it = mine.back();
            mine.pop_back();
            auto player = std::move(it->player);
            lru_.erase(it);
            ++in_use_;
            return player;
        }
        if (capacity_ > 0 && in_use_ + lru_.size() >= capacity_ && !lru_.empty()) {
            auto& oldest = lru_.front();
            if (!oldest.variant) {
                auto& of = idle_of_[static_cast<std::size_t>(oldest.bot)];
                of.erase(std::find(of.begin(), of.end(), lru_.begin()));
            }
            retired = std::move(oldest.player);
            lru_.pop_front();
            ++evictions_;
        }
        ++in_use_;
    }
    if (retired) retired->retire();  // outside the lock: it may wait for the bot to quit
    const auto& b = variant ? *variant : config_.bots[static_cast<std::size_t>(bot)];
    // Limits, freezing, sandbox, dir and environment from the config.
    auto player = std::make_unique<match::Player>(host_, bot_spec(b), session_options(config_, b));
    player->set_startup_guard(&guard_);
    return player;
}

void PlayerPool::release(int bot, std::unique_ptr<match::Player> player,
                         const std::shared_ptr<const BotConfig>& variant) {
    const auto& b = variant ? *variant : config_.bots[static_cast<std::size_t>(bot)];
    if (b.restart_each_game) player->retire();
    player->drop_if_dead();
    std::lock_guard lock(mutex_);
    --in_use_;
    lru_.push_back({bot, std::move(player), variant});
    if (!variant) idle_of_[static_cast<std::size_t>(bot)].push_back(std::prev(lru_.end()));
}

void PlayerPool::retire_all(bool variants_only) {
    std::vector<std::unique_ptr<match::Player>> all;
    {
        std::lock_guard lock(mutex_);
        for (auto it = lru_.begin(); it != lru_.end();) {
            if (variants_only && !it->variant) {
                ++it;
                continue;
            }
            all.push_back(std::move(it->player));
            it = lru_.erase(it);
        }
        if (!variants_only)
            for (auto& of : idle_of_)
                of.clear();
    }
    std::vector<std::jthread> quitting;
    for (auto& p : all)
        quitting.emplace_back([&p] { p->retire(); });
}

std::size_t PlayerPool::evictions() const {
    std::lock_guard lock(mutex_);
    return evictions_;
}

std::size_t process_capacity(int concurrency, std::size_t reserved) {
    const auto limit = session::raise_open_file_limit();
    if (limit.unlimited) return 0;
    // The arena's own: standard streams, the database and its log, the
    // keeper's pipe, threads' descriptors, and the pipes of the processes
    // being started at this moment (up to one per game).
    const std::uint64_t own = 64 + 8 * static_cast<std::uint64_t>(std::max(concurrency, 1));
    const std::uint64_t spare = limit.soft > own + reserved ? limit.soft - own - reserved : 0;
    const std::uint64_t capacity = spare / session::kFdsPerBot;
    const std::uint64_t needed = 2 * static_cast<std::uint64_t>(std::max(concurrency, 1));
    if (capacity < needed) {
        const std::uint64_t enough = own + reserved + needed * session::kFdsPerBot;
        throw std::runtime_error(
            "the arena's open-file limit (ulimit -n " + std::to_string(limit.soft) +
            ", hard limit " + std::to_string(limit.hard) + ") allows " + std::to_string(capacity) +
            " bot processes at once, and " + std::to_string(std::max(concurrency, 1)) +
            " games at once need " + std::to_string(needed) +
            ": lower the concurrency, or raise the hard limit to at least " +
            std::to_string(enough) + " (ulimit -n " + std::to_string(enough) +
            " as root; LimitNOFILE= for a systemd service) and run again");
    }
    return static_cast<std::size_t>(capacity);
}

}  // namespace arena::tournament
