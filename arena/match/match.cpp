#include "arena/match/match.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <future>
#include <string>
#include <utility>

#include "arena/session/bot_protocol.hpp"

namespace arena::match {
namespace {

using session::Fault;
using std::chrono::duration_cast;
using std::chrono::microseconds;
using SteadyClock = std::chrono::steady_clock;

record::Termination termination_of(Fault f) {
    switch (f) {
        case Fault::kTimeout:
            return record::Termination::kTimeout;
        case Fault::kCrash:
            return record::Termination::kCrash;
        case Fault::kProtocol:
            return record::Termination::kProtocol;
        case Fault::kStartup:
            return record::Termination::kStartup;
        case Fault::kNone:
            break;
    }
    return record::Termination::kNormal;
}

// A transcript as the record keeps it: "<µs since `start`> -> text" for the
// arena's lines, "<µs> <- text" for the bot's, one line each.
std::string render_transcript(const std::vector<session::TranscriptLine>& lines,
                              std::uint64_t dropped, SteadyClock::time_point start) {
    std::string out;
    for (const auto& line : lines) {
        const auto us = duration_cast<microseconds>(line.at - start).count();
        std::size_t from = 0;
        while (from <= line.text.size()) {
            const std::size_t end = std::min(line.text.find('\n', from), line.text.size());
            out += std::to_string(us);
            out += line.from_bot ? " <- " : " -> ";
            out.append(line.text, from, end - from);
            out += '\n';
            from = end + 1;
        }
    }
    if (dropped > 0) out += "[" + std::to_string(dropped) + " more lines not kept]\n";
    return out;
}

games::Outcome win_for(int player) {
    return player == 1 ? games::Outcome::kWin1 : games::Outcome::kWin2;
}

protocol::GameResult result_for(games::Outcome o, int player) {
    if (o == games::Outcome::kDraw) return protocol::GameResult::kDraw;
    return games::winner_of(o) == player ? protocol::GameResult::kWin : protocol::GameResult::kLoss;
}

// Everything one game needs while it runs; the record is its result.
class GameRun {
  public:
    GameRun(const games::Game& game, Player& first, Player& second,
            const std::array<SideControl, 2>& sides, const MoveObserver& on_move)
        : players_{&first, &second},
          on_move_(on_move),
          clock_(sides[0].time, sides[1].time),
          sides_(sides),
          state_(game.new_initial_state()) {
        record_.game = game.name();
        record_.params = game.params();
        record_.players[0] = first.name();
        record_.players[1] = second.name();
        for (std::size_t p = 0; p < 2; ++p)
            record_.controls[p] = control_text(sides[p]);
    }

    record::GameRecord play(const std::vector<games::Move>& opening, const std::stop_token& stop) {
        stop_ = stop;
        const auto started = SteadyClock::now();
        record_.started_at = std::chrono::system_clock::now();
        // Stopped before it began (a person who left meanwhile): nobody starts.
        if (!stop.stop_requested() && start_players()) {
            for (games::Move m : opening)
                play_by_arena(m);
            record_.opening_plies = static_cast<int>(opening.size());
            while (!state_->is_over() && !finished_ && !human_left_ && !stop.stop_requested())
                step();
            if (!finished_ && !state_->is_over()) {
                record_.abandoned = true;
            } else if (!finished_) {
                record_.outcome = state_->outcome();
            }
        }
        // Transcripts are taken before a dead session is dropped, and again
        // for the `end` lines.
        std::array<std::vector<session::TranscriptLine>, 2> lines;
        std::array<std::uint64_t, 2> dropped{};
        const auto take_transcripts = [&] {
            for (int p = 0; p < 2; ++p) {
                std::uint64_t more = 0;
                for (auto& line : players_[p]->take_transcript(&more))
                    lines[p].push_back(std::move(line));
                dropped[p] += more;
            }
        };
        take_transcripts();
        for (int p = 1; p <= 2; ++p) {
            record_.stderr_logs[p - 1] = players_[p - 1]->take_stderr_log();
            record_.peak_memory[p - 1] = players_[p - 1]->peak_memory();
        }
        if (record_.abandoned) {
            for (auto* p : players_)
                p->discard();
        } else {
            send_end();
            take_transcripts();
        }
        for (int p = 0; p < 2; ++p) {
            if (!lines[p].empty() || dropped[p] > 0)
                record_.transcripts[p] = render_transcript(lines[p], dropped[p], started);
        }
        record_.duration = duration_cast<microseconds>(SteadyClock::now() - started);
        return std::move(record_);
    }

  private:
    // Handshakes (when a session is new) and `game` lines. False when a
    // player could not start; the record then holds the verdict.
    bool start_players() {
        std::array<session::HandshakeResult, 2> hs;
        if (!players_[0]->has_session() && !players_[1]->has_session()) {
            // Two new processes start and handshake side by side, so a game
            // with fresh processes waits for the slower one, not for both.
            auto second =
                std::async(std::launch::async, [this] { return players_[1]->ensure_ready(); });
            hs[0] = players_[0]->ensure_ready();
            hs[1] = second.get();
        } else {
            for (int p = 1; p <= 2; ++p)
                hs[p - 1] = players_[p - 1]->ensure_ready();
        }
        const bool bad1 = hs[0].fault != Fault::kNone;
        const bool bad2 = hs[1].fault != Fault::kNone;
        if (bad1 || bad2) {
            record_.termination = record::Termination::kStartup;
            record_.outcome = bad1 && bad2 ? games::Outcome::kDraw : win_for(bad1 ? 2 : 1);
            for (int p = 1; p <= 2; ++p) {
                if (hs[p - 1].fault == Fault::kNone) continue;
                if (!record_.detail.empty()) record_.detail += "; ";
                record_.detail += players_[p - 1]->name() + ": " + hs[p - 1].detail;
            }
            finished_ = true;
            return false;
        }
        // One process plays many games: each game's peak starts here.
        for (auto* player : players_)
            player->reset_peak_memory();
        for (int p = 1; p <= 2; ++p) {
            if (players_[p - 1]->human() != nullptr) continue;
            // Each player's `game` line tells its own time control.
            protocol::GameStart line;
            line.game = record_.game;
            line.params = record_.params;
            for (auto& kv : side(p).time.keys())
                line.params.push_back(std::move(kv));
            line.player = p;
            if (!players_[p - 1]->session().start_game(line)) {
                lose(p, record::Termination::kCrash, "did not accept the `game` line");
                return false;
            }
        }
        return true;
    }

    void play_by_arena(games::Move m) {
        record::MoveRecord mr;
        mr.move = state_->format_move(m);
        mr.player = state_->current_player();
        mr.by_arena = true;
        state_->apply(m);
        position_.moves.push_back(mr.move);
        record_.moves.push_back(std::move(mr));
        tell_watchers();
    }

    // Each person playing, and the observer, are told of the ply just played.
    void tell_watchers() {
        for (auto* player : players_)
            if (HumanInput* human = player->human()) human->moved(*state_, record_.moves.back());
        if (on_move_) on_move_(record_.moves.back());
    }

    void step() {
        const int p = state_->current_player();
        const auto legal = state_->legal_moves();
        if (legal.size() == 1 && legal[0] == games::kPass) {
            play_by_arena(games::kPass);
            return;
        }
        if (HumanInput* human = players_[p - 1]->human()) {
            step_human(p, *human, players_[p - 1]->human_move_limit());
            return;
        }
        auto& bot = players_[p - 1]->session();
        auto& other = *players_[games::opponent_of(p) - 1];
        session::IdleBot* idle = other.has_session() ? &other.session() : nullptr;
        // The side's search limits ride on every `go`; its clock's limit still holds.
        auto go = clock_.go(p);
        go.depth = side(p).limits.depth;
        go.nodes = side(p).limits.nodes;
        auto reply = bot.request_move(position_, go, clock_.limit(p), idle);
        if (reply.fault != Fault::kNone) {
            record_.fault_after = duration_cast<microseconds>(reply.elapsed());
            lose(p, termination_of(reply.fault), std::move(reply.detail));
            return;
        }
        if (!clock_.charge(p, reply.elapsed())) {
            // The session stops reading at the same limit, so this only
            // guards the clock's own rule against a reply read at the edge.
            lose(p, record::Termination::kTimeout, "move took longer than the limit");
            bot.kill();
            return;
        }
        const auto move = state_->parse_move(reply.move);
        if (!move) {
            // What a move looks like, as `arena check-bot` says it.
            lose(p, record::Termination::kIllegal,
                 "not a move of this game: '" + reply.move + "'; a move is " +
                     session::move_form(players_[p - 1]->spec().protocol, record_.game,
                                        record_.params));
            players_[p - 1]->discard();
            return;
        }
        if (!state_->is_legal(*move)) {
            lose(p, record::Termination::kIllegal, "illegal move '" + reply.move + "'");
            players_[p - 1]->discard();
            return;
        }
        record::MoveRecord mr;
        mr.move = state_->format_move(*move);
        mr.player = p;
        mr.time = duration_cast<microseconds>(reply.elapsed());
        mr.info = std::move(reply.info);
        state_->apply(*move);
        position_.moves.push_back(mr.move);
        record_.moves.push_back(std::move(mr));
        tell_watchers();
    }

    // A person's move: text from their input, checked by the rules. A text
    // that does not parse, or an illegal move, is refused and the person is
    // asked again; only the time limit (when there is one) ends the game.
    // A person who leaves abandons the game.
    void step_human(int p, HumanInput& human, Millis limit) {
        // The bot does not think on the person's time: its deferred freeze
        // is due now.
        Player& other = *players_[games::opponent_of(p) - 1];
        if (other.has_session()) other.session().freeze_if_due(session::Clock::time_point::max());
        const auto asked = SteadyClock::now();
        std::optional<SteadyClock::time_point> deadline;
        if (limit.count() > 0) deadline = asked + limit + side(p).time.tolerance;
        std::string refused;
        for (;;) {
            auto text = human.next_move(*state_, refused, deadline, stop_);
            const auto now = SteadyClock::now();
            if (deadline && now > *deadline) {
                record_.fault_after = duration_cast<microseconds>(now - asked);
                lose(p, record::Termination::kTimeout,
                     "no move within " + std::to_string(limit.count()) + " ms");
                return;
            }
            if (!text) {
                human_left_ = true;
                return;
            }
            const auto move = state_->parse_move(*text);
            if (!move) {
                refused = "not a move of this game: '" + *text + "'";
                continue;
            }
            if (!state_->is_legal(*move)) {
                refused = "illegal move '" + *text + "'";
                continue;
            }
            record::MoveRecord mr;
            mr.move = state_->format_move(*move);
            mr.player = p;
            mr.time = duration_cast<microseconds>(now - asked);
            state_->apply(*move);
            position_.moves.push_back(mr.move);
            record_.moves.push_back(std::move(mr));
            tell_watchers();
            return;
        }
    }

    [[nodiscard]] const SideControl& side(int player) const {
        return sides_[static_cast<std::size_t>(player - 1)];
    }

    void lose(int player, record::Termination why, std::string detail) {
        record_.outcome = win_for(games::opponent_of(player));
        record_.termination = why;
        record_.detail = players_[player - 1]->name() + ": " + std::move(detail);
        finished_ = true;
    }

    void send_end() {
        const std::string reason{to_string(record_.termination)};
        for (int p = 1; p <= 2; ++p) {
            players_[p - 1]->end_game({result_for(record_.outcome, p), reason});
        }
    }

    std::array<Player*, 2> players_;
    const MoveObserver& on_move_;
    GameClock clock_;
    std::array<SideControl, 2> sides_;
    std::unique_ptr<games::State> state_;
    protocol::Position position_;
    record::GameRecord record_;
    bool finished_ = false;
    bool human_left_ = false;  // a person stopped playing: the game is abandoned
    std::stop_token stop_;
};

}  // namespace

record::GameRecord play_game(const games::Game& game, Player& first, Player& second,
                             const TimeControl& time, const std::vector<games::Move>& opening,
                             std::stop_token stop, const MoveObserver& on_move) {
    const SideControl both{time, {}};
    return play_game(game, first, second, {both, both}, opening, std::move(stop), on_move);
}

record::GameRecord play_game(const games::Game& game, Player& first, Player& second,
                             const std::array<SideControl, 2>& sides,
                             const std::vector<games::Move>& opening, std::stop_token stop,
                             const MoveObserver& on_move) {
    return GameRun(game, first, second, sides, on_move).play(opening, stop);
}

}  // namespace arena::match
