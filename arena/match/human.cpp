#include "arena/match/human.hpp"

#include <utility>

namespace arena::match {

std::optional<std::string> HumanMoveQueue::next_move(const games::State& state,
                                                     std::string_view refused,
                                                     std::optional<TimePoint> deadline,
                                                     std::stop_token stop) {
    asking(state, refused);
    std::unique_lock lock(mutex_);
    waiting_ = true;
    offered_.reset();
    const auto ready = [this] { return left_ || offered_.has_value(); };
    if (deadline) {
        wake_.wait_until(lock, stop, *deadline, ready);
    } else {
        wake_.wait(lock, stop, ready);
    }
    waiting_ = false;
    if (left_ || !offered_) return std::nullopt;
    std::string move = std::move(*offered_);
    offered_.reset();
    return move;
}

bool HumanMoveQueue::offer(std::string move) {
    {
        std::lock_guard lock(mutex_);
        if (!waiting_ || left_ || offered_) return false;
        offered_ = std::move(move);
    }
    wake_.notify_all();
    return true;
}

void HumanMoveQueue::leave() {
    {
        std::lock_guard lock(mutex_);
        left_ = true;
    }
    wake_.notify_all();
}

bool HumanMoveQueue::left() const {
    std::lock_guard lock(mutex_);
    return left_;
}

bool HumanMoveQueue::waiting() const {
    std::lock_guard lock(mutex_);
    return waiting_ && !offered_ && !left_;
}

}  // namespace arena::match
