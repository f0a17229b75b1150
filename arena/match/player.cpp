#include "arena/match/player.hpp"

#include <csignal>
#include <string>
#include <utility>

namespace arena::match {

Player::Player(session::BotHost& host, session::BotSpec spec, session::SessionOptions options)
    : host_(&host), spec_(std::move(spec)), options_(options) {}

Player::Player(std::string name, HumanInput& input, std::chrono::milliseconds move_limit)
    : human_(&input), human_limit_(move_limit) {
    spec_.name = std::move(name);
}

Player::~Player() {
    retire();
}

session::HandshakeResult Player::ensure_ready() {
    drop_if_dead();
    if (session_ && human_ == nullptr && played_) {
        // A reuse. The process may have exited after its last game.
        bool gone = exits_between_games_;
        if (!gone) {
            // Only the process's first reuse waits; later ones only look.
            const bool first = !reuse_checked_;
            reuse_checked_ = true;
            // It has run since the end of its game (end_game): what is left
            // of kExitAfterGameWait, if anything.
            const auto ran = session::Clock::now() - ended_at_;
            const session::Clock::duration wait = first && ran < kExitAfterGameWait
                                                      ? kExitAfterGameWait - ran
                                                      : session::Clock::duration::zero();
            gone = session_->exits_when_woken(wait);
        }
        if (gone) {
            if (exits_between_games_) {
                session_->quit();  // on its way out already: it ends within the grace
            } else {
                session_->kill();  // reaps it
            }
            const auto status = session_->exit_status();
            exit_kept_ = status;
            const std::string how = status ? status->describe() : "exited";
            session_.reset();
            exits_between_games_ = true;
            // Said once the fresh process has started, with its start-up time.
            pending_note_ = how;
        }
    }
    if (session_ || human_ != nullptr) return {};
    if (guard_ != nullptr && !guard_->begin(spec_.name)) {
        session::HandshakeResult refused;
        refused.fault = session::Fault::kStartup;
        refused.detail = "not started: given up after " +
                         std::to_string(guard_->failures(spec_.name)) +
                         " failed start-ups in a row";
        return refused;
    }
    std::unique_ptr<session::BotSession> fresh;
    try {
        fresh = session::make_session(*host_, spec_, options_);
    } catch (const session::SpawnError& e) {
        const std::string what = "bot '" + spec_.name + "': " + e.what();
        if (guard_ != nullptr) guard_->end(spec_.name, false, e.what(), {}, /*fatal=*/true);
        throw session::SpawnError(what);
    }
    reuse_checked_ = false;  // this process's first reuse will wait for an exit
    const auto started = std::chrono::steady_clock::now();
    auto result = fresh->handshake();
    last_startup_ = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    played_ = false;
    if (result.fault == session::Fault::kNone && pending_note_ && guard_ != nullptr)
        guard_->note_exits_between_games(spec_.name, *pending_note_, last_startup_);
    pending_note_.reset();
    if (guard_ != nullptr) {
        if (result.fault == session::Fault::kNone) {
            guard_->end(spec_.name, true);
        } else {
            // Read now, for the guard's report; the game's record gets it too.
            stderr_kept_ = fresh->take_stderr_log();
            guard_->end(spec_.name, false, result.detail, record::stderr_tail(stderr_kept_));
        }
    }
    // Kept even when it failed, for its stderr log; has_session() is false then.
    session_ = std::move(fresh);
    exit_kept_.reset();
    return result;
}

void Player::end_game(const protocol::End& end) {
    drop_if_dead();
    if (!has_session()) return;
    session_->end_game(end);
    // Between games a bot waits frozen. Except after its first game: it
    // runs kExitAfterGameWait first, to read `end` and exit if it is a bot
    // that exits after each game, which the next ensure_ready then sees
    // without waiting when the next game is that far off (a league's pool).
    ended_at_ = session::Clock::now();
    if (!played_ && !exits_between_games_) {
        session_->run_until(ended_at_ + kExitAfterGameWait);
    } else {
        session_->freeze_if_due(session::Clock::time_point::max());
    }
    played_ = true;
}

void Player::freeze_if_due(session::Clock::time_point now) {
    if (session_ && session_->alive()) session_->freeze_if_due(now);
}

bool Player::stopped_by_job_signal() const {
    const auto status = session_ ? session_->exit_status() : exit_kept_;
    if (!status || !status->signaled) return false;
    return status->signal == SIGTERM || status->signal == SIGINT || status->signal == SIGHUP ||
           status->signal == SIGQUIT;
}

void Player::drop_if_dead() {
    if (session_ && !session_->alive()) {
        exit_kept_ = session_->exit_status();
        session_.reset();
    }
}

std::string Player::take_stderr_log() {
    std::string log = std::move(stderr_kept_);
    stderr_kept_.clear();
    if (session_) log += session_->take_stderr_log();
    return log;
}

std::vector<session::TranscriptLine> Player::take_transcript(std::uint64_t* dropped) {
    if (!session_) {
        *dropped = 0;
        return {};
    }
    return session_->take_transcript(dropped);
}

std::optional<std::uint64_t> Player::peak_memory() {
    return session_ ? session_->peak_memory() : peak_kept_;
}

void Player::reset_peak_memory() {
    peak_kept_.reset();
    if (session_) session_->reset_peak_memory();
}

void Player::discard() {
    if (session_) {
        session_->kill();
        peak_kept_ = session_->peak_memory();
        // What it wrote before the move that got it discarded (an illegal
        // one) belongs to the game's log.
        stderr_kept_ += session_->take_stderr_log();
        exit_kept_ = session_->exit_status();
    }
    session_.reset();
}

void Player::retire() {
    if (session_ && session_->alive()) session_->quit();
    session_.reset();
}

}  // namespace arena::match
