#include "arena/tournament/game_queue.hpp"

#include <algorithm>
#include <utility>

namespace arena::tournament {

void GameQueue::start(int workers) {
    std::lock_guard lock(mutex_);
    workers_ = workers;
}

void GameQueue::push(Finished f) {
    bool wake = false;
    {
        std::lock_guard lock(mutex_);
        if (f.record.termination == record::Termination::kStartup) {
            held_.push_back(std::move(f));
        } else {
            queue_.push_back(std::move(f));
        }
        settle_held(false);
        wake = queue_.size() >= kBatch;
    }
    if (wake) cv_.notify_one();
}

void GameQueue::worker_done(bool settle) {
    {
        std::lock_guard lock(mutex_);
        --workers_;
        // Stopped by the user or an error: the held games are played again on resume.
        if (workers_ == 0 && settle) settle_held(true);
    }
    cv_.notify_one();
}

// Moves the held games whose fate is known to the queue, or drops them; at
// the end (`last`), every one whose bots were not given up is queued.
void GameQueue::settle_held(bool last) {
    std::erase_if(held_, [&](Finished& f) {
        const auto bots = bots_of_(f);
        if (std::any_of(bots.begin(), bots.end(),
                        [&](const std::string& b) { return guard_.given_up(b); }))
            return true;
        const bool started_since = std::all_of(bots.begin(), bots.end(), [&](const std::string& b) {
            return guard_.failures(b) == 0;
        });
        if (!last && !started_since) return false;
        queue_.push_back(std::move(f));
        return true;
    });
}

std::deque<Finished> GameQueue::take() {
    std::unique_lock lock(mutex_);
    std::deque<Finished> batch;
    do {
        cv_.wait_for(lock, kPeriod, [&] { return queue_.size() >= kBatch || workers_ == 0; });
    } while (queue_.empty() && workers_ > 0);
    batch.swap(queue_);
    return batch;
}

std::deque<Finished> GameQueue::take_now() {
    std::lock_guard lock(mutex_);
    std::deque<Finished> batch;
    batch.swap(queue_);
    return batch;
}

}  // namespace arena::tournament
