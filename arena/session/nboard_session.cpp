#include "arena/session/nboard_session.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <stdexcept>
#include <utility>

namespace arena::session {

namespace {

std::string_view first_word(std::string_view line) {
    return line.substr(0, line.find_first_of(" \t"));
}

bool is_cell(std::string_view move) {
    return move.size() == 2 && std::tolower(static_cast<unsigned char>(move[0])) >= 'a' &&
           std::tolower(static_cast<unsigned char>(move[0])) <= 'h' && move[1] >= '1' &&
           move[1] <= '8';
}

}  // namespace

namespace nboard {

int depth_for(std::int64_t move_ms) {
    if (move_ms <= 0) return 1;
    int depth = kDefaultDepth;
    for (std::int64_t t = kDepthReferenceMs; t <= move_ms / 2 && depth < 60; t *= 2)
        ++depth;
    for (std::int64_t t = kDepthReferenceMs; t > move_ms && depth > 1; t /= 2)
        --depth;
    return depth;
}

std::string to_nboard(std::string_view move) {
    if (move == "pass") return "PA";
    std::string out(move);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string ggf(const std::vector<std::string>& moves, std::string_view black,
                std::string_view white) {
    // The standard start, rows from the top (row 1) down, a..h in each:
    // white on d4 and e5, black on e4 and d5; black to move.
    std::string board(64, '-');
    board[3 * 8 + 3] = 'O';
    board[3 * 8 + 4] = '*';
    board[4 * 8 + 3] = '*';
    board[4 * 8 + 4] = 'O';
    std::string out = "(;GM[Othello]PC[arena]PB[" + std::string(black) + "]PW[" +
                      std::string(white) + "]TY[8]BO[8 " + board + " *]";
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (moves[i] != "pass" && !is_cell(moves[i])) {
            throw std::invalid_argument("not a reversi move: '" + moves[i] + "'");
        }
        out += i % 2 == 0 ? "B[" : "W[";
        out += to_nboard(moves[i]);
        out += ']';
    }
    out += ";)";
    return out;
}

std::string parse_answer(std::string_view line) {
    if (!line.starts_with("===")) return {};
    line.remove_prefix(3);
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return {};
    std::string_view word = first_word(line.substr(start));
    word = word.substr(0, word.find('/'));
    std::string move(word);
    for (char& c : move)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (move == "pa") move = "pass";
    return move;
}

}  // namespace nboard

NboardSession::NboardSession(BotHost& host, BotSpec spec, SessionOptions options, int depth)
    : ProcessSession(host, std::move(spec), options), depth_(depth) {}

HandshakeResult NboardSession::handshake() {
    const auto start = Clock::now();
    const auto deadline = start + options_.startup_limit;
    HandshakeResult result;
    auto fail = [&](std::string detail) {
        result.elapsed = Clock::now() - start;
        die();
        result.fault = Fault::kStartup;
        result.detail = std::move(detail);
        return result;
    };
    if (!alive_) return fail("the bot is not running");
    ping_ = 1;
    depth_sent_ = depth_ > 0 ? depth_ : nboard::kDefaultDepth;
    const std::string pong = "pong " + std::to_string(ping_);
    if (!process_->write_line("nboard 2\nset depth " + std::to_string(depth_sent_) + "\nping " +
                                  std::to_string(ping_),
                              deadline)) {
        if (Clock::now() >= deadline) {
            return fail("no `" + pong + "` within " + millis(options_.startup_limit));
        }
        return fail(describe_write_failure(" during start-up"));
    }
    for (;;) {
        auto line = read_reply_line(deadline, " during start-up");
        if (line.fault == Fault::kTimeout) {
            return fail("no `" + pong + "` within " + millis(options_.startup_limit));
        }
        if (line.fault != Fault::kNone) return fail(line.detail);
        const std::string_view text = trim(line.text);
        if (text == pong) break;
        if (text.starts_with("set myname ")) identity_.name = trim(text.substr(11));
        // Anything else before the pong is start-up chatter.
    }
    result.elapsed = Clock::now() - start;
    freeze();
    return result;
}

bool NboardSession::start_game(const protocol::GameStart& game) {
    if (!alive_) return false;
    if (!protocol_problem(BotProtocol::kNboard, game.game, {}).empty()) {
        die();
        return false;
    }
    player_ = game.player;
    in_sync_ = false;
    told_.clear();
    return true;
}

MoveReply NboardSession::request_move(const protocol::Position& position, const protocol::Go& go,
                                      Clock::duration limit, IdleBot* idle) {
    const IdleWatch watch(*this, idle);
    MoveReply reply;
    if (!alive_) return fail_move(reply, Fault::kCrash, "the bot is not running");

    // The position: incremental `move` lines when the engine's game is a
    // prefix of it (its own last move, the opponent's, passes), else the
    // whole game. Then a ping: every line before its pong is stale.
    const auto& moves = position.moves;
    std::string sync;
    // `go depth=` is NBoard's own setting: sent as asked, before any fixed
    // or time-derived depth (NBOARD.md section 3); NBoard has no node limit.
    const int depth = go.depth     ? static_cast<int>(std::clamp<std::int64_t>(*go.depth, 1, 60))
                      : depth_ > 0 ? depth_
                                   : std::clamp(nboard::depth_for(go.move_ms) + depth_step_, 1, 60);
    if (depth != depth_sent_) {
        sync += "set depth " + std::to_string(depth) + "\n";
        depth_sent_ = depth;
    }
    if (in_sync_ && moves.size() >= told_.size() &&
        std::equal(told_.begin(), told_.end(), moves.begin())) {
        for (std::size_t i = told_.size(); i < moves.size(); ++i)
            sync += "move " + nboard::to_nboard(moves[i]) + "\n";
    } else {
        try {
            const std::string me = spec_.name.empty() ? "engine" : spec_.name;
            sync += "set game " +
                    nboard::ggf(moves, player_ == 1 ? me : "arena", player_ == 1 ? "arena" : me) +
                    "\n";
        } catch (const std::invalid_argument& e) {
            return fail_move(reply, Fault::kProtocol, e.what());  // not a reversi game
        }
    }
    sync += "ping " + std::to_string(++ping_);
    const std::string pong = "pong " + std::to_string(ping_);
    // Bounded by the move limit: an engine that does not read or answer
    // `ping` for that long would not have moved in time either.
    const auto sync_deadline = Clock::now() + limit;
    if (!process_->write_line_and_thaw(sync, sync_deadline)) {
        if (Clock::now() >= sync_deadline) {
            return fail_move(reply, Fault::kTimeout,
                             "did not read its input within " + millis(limit));
        }
        return fail_move(reply, Fault::kCrash, describe_write_failure());
    }
    told_ = moves;
    in_sync_ = true;
    for (;;) {
        auto line = read_reply_line(sync_deadline);
        if (line.fault == Fault::kTimeout) {
            return fail_move(reply, Fault::kTimeout, "no `" + pong + "` within " + millis(limit));
        }
        if (line.fault != Fault::kNone) return fail_move(reply, line.fault, line.detail);
        if (trim(line.text) == pong) break;
    }

    if (!write_move_request("go", limit, reply)) return reply;
    const auto deadline = reply.go_written + limit;
    std::size_t chatter = 0;
    std::string last_unknown;  // the last line that was neither a move nor a known message
    for (;;) {
        auto line = read_reply_line(deadline);
        if (line.fault == Fault::kTimeout) {
            std::string detail = "no move within " + millis(limit);
            if (!last_unknown.empty())
                detail += " (its last line was not a move: " + quote(last_unknown) + ")";
            return fail_move(reply, Fault::kTimeout, std::move(detail));
        }
        if (line.fault != Fault::kNone) return fail_move(reply, line.fault, line.detail);
        const std::string_view text = trim(line.text);
        if (text.empty()) continue;
        if (text.starts_with("===")) {
            std::string move = nboard::parse_answer(text);
            if (move.empty()) return fail_move(reply, Fault::kProtocol, "empty move");
            // The engine plays it only when told: the next request sends it.
            // NBoard has no clock and no way to stop a search: the time is
            // told as a depth. Where the engine answers far inside its time
            // it is asked one ply deeper next move; where it took over a
            // third, one shallower (a ply costs a few times the one before,
            // so a third leaves room for the next position being harder).
            if (depth_ == 0 && !go.depth) {
                const auto took = line.at - reply.go_written;
                const auto time = std::chrono::milliseconds(go.move_ms);
                if (took < time / 16 && depth < 60) {
                    ++depth_step_;
                } else if (took > time / 3 && depth > 1) {
                    --depth_step_;
                }
            }
            return accept_move(reply, std::move(move), line.at);
        }
        // status, nodestats, search, ... and any other line: engines such as
        // NTest print free-form search lines, which NBoard's GUI ignores.
        // Recorded, never judged.
        const std::string_view word = text.substr(0, text.find_first_of(" \t"));
        if (word != "status" && word != "nodestats" && word != "search" && word != "set" &&
            word != "pong" && word != "hint" && word != "learn" && word != "analysis")
            last_unknown = std::string(text);
        record_info(reply, chatter, std::string(text));
    }
}

void NboardSession::end_game(const protocol::End& /*end*/) {}

void NboardSession::quit() {
    quit_with("quit");
}

}  // namespace arena::session
