#include "arena/match/player.hpp"

#include <utility>

namespace arena::match {

Player::Player(session::BotSpec spec, session::SessionOptions options)
    : spec_(std::move(spec)), options_(options) {}

Player::~Player() {
    retire();
}

session::HandshakeResult Player::ensure_ready() {
    drop_if_dead();
    if (session_) return {};
    std::unique_ptr<session::BotSession> fresh;
    try {
        fresh = session::make_session(spec_, options_);
    } catch (const session::SpawnError& e) {
        throw session::SpawnError("bot '" + spec_.name + "': " + e.what());
    }
    auto result = fresh->handshake();
    // Kept even when it failed, for its stderr log; has_session() is false then.
    session_ = std::move(fresh);
    return result;
}

void Player::drop_if_dead() {
    if (session_ && !session_->alive()) session_.reset();
}

std::string Player::take_stderr_log() {
    return session_ ? session_->take_stderr_log() : std::string();
}

void Player::discard() {
    if (session_) session_->kill();
    session_.reset();
}

void Player::retire() {
    if (session_ && session_->alive()) session_->quit();
    session_.reset();
}

}  // namespace arena::match
