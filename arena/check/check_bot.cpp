// The checker of `arena check-bot`: starts the bot, plays the plan's games
// against the arena's random moves, and turns what it saw into checks.

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "arena/check/check.hpp"
#include "arena/check/inspect.hpp"
#include "arena/check/plan.hpp"
#include "arena/check/search_limits_note.hpp"
#include "arena/check/session_probes.hpp"
#include "arena/check/wording.hpp"
#include "arena/games/registry.hpp"
#include "arena/match/opening.hpp"
#include "arena/record/game_record.hpp"
#include "arena/session/bot_host.hpp"

namespace arena::check {
namespace {

using session::Clock;
using session::Fault;
using std::chrono::duration_cast;
using std::chrono::microseconds;

// Commands and a key that no revision of the protocol will use: what a bot
// must ignore (PROTOCOL.md, sections 4 and 12). No key is added to `game`,
// whose unknown keys may be new game parameters that change the rules,
// which a bot may refuse.
const std::vector<std::string> kUnknownLines = {"checkbot-unknown-command",
                                                "checkbot-unknown-command key=value more words"};
constexpr std::string_view kUnknownKey = "checkbot_unknown_key=1";

// How long the out-of-turn probe watches after `game`, a move and `end`,
// and for how many moves of its game.
constexpr session::Millis kSettle{50};
constexpr int kSettleMoves = 4;

// What a move looks like in the bot's protocol, for `expected`.
std::string move_expectation(const CheckOptions& o, const games::Params& params) {
    // With a game clock, each `go` says how long its move may take.
    const std::string limit = o.time.move.count() > 0 ? std::to_string(o.time.move.count()) + " ms"
                                                      : "the move_ms of its `go`";
    switch (o.kind) {
        case BotKind::kGomocup:
            return "an answer `x,y` (0-based, a free cell) within " + limit +
                   " of each BEGIN, TURN or BOARD";
        case BotKind::kNboard:
            return "`=== <move>` (a legal move) within " + limit + " of each `go`";
        case BotKind::kTsinghuaSo:
            return "getPoint returns the landing cell of a column that is not full within " + limit;
        case BotKind::kArena1:
            break;
    }
    const std::string move = session::move_form(session::BotProtocol::kArena1, o.game, params);
    return "only info/debug lines, then exactly one " + move + " within " + limit + " of each `go`";
}

std::string startup_expectation(const CheckOptions& o) {
    const std::string limit = std::to_string(o.session.startup_limit.count()) + " ms";
    switch (o.kind) {
        case BotKind::kGomocup:
            return "the brain runs and answers OK to START within " + limit;
        case BotKind::kNboard:
            return "`pong 1` within " + limit + " of `nboard 2`, `set depth`, `ping 1`";
        case BotKind::kTsinghuaSo:
            return "arena-so-host loads the library (getPoint, clearPoint) and answers `ready` "
                   "within " +
                   limit;
        case BotKind::kArena1:
            break;
    }
    return "optional name/author/version lines, then `ready`, within " + limit + " of `arena 1`";
}

std::string quit_word(BotKind kind) {
    return kind == BotKind::kGomocup ? "END" : "quit";
}

// What the checks learn from every game.
struct Evidence {
    std::vector<MoveTime> think;  // the bot's answered moves
    int timeouts = 0;
    std::optional<std::uint64_t> peak;
    std::string memory_hit;                  // a process ended by the memory limit: where and what
    std::optional<CheckResult> out_of_turn;  // the first line sent out of turn
    std::optional<CheckResult> late;         // lines that came only at the bot's exit
    std::optional<CheckResult> between_games;  // a process that ended between two games
    std::string blocked_input;                 // what a bot out of time waited for
    std::string terminals;                     // terminals a bot held open
    int most_games = 0;                        // games finished by one process
    bool buffer_probed = false;                // a bot's output buffer was looked into
    int deadlines_missed = 0;                  // by protocol v1 replies, start-up included
};

// One game against the arena's random moves, as it ended.
struct Played {
    bool ok = false;
    std::string problem;  // for a failure: what happened
    Fault fault = Fault::kNone;
    bool illegal = false;
    bool died_between_games = false;
    games::Outcome outcome = games::Outcome::kOngoing;
    int bot = 1;
    int plies = 0;
};

class Checker {
  public:
    Checker(session::BotHost& host, const CheckOptions& options) : host_(host), o_(options) {
        o_.session.transcript = true;
        watch_late_ = o_.kind == BotKind::kArena1;
    }
    ~Checker() {
        if (session_ && session_->alive()) session_->kill();
    }
    Checker(const Checker&) = delete;
    Checker& operator=(const Checker&) = delete;

    std::vector<CheckResult> run() {
        const Plan plan = make_plan(o_.game, o_.kind, o_.seed);
        const bool started = check_startup();
        if (started) {
            check_identity();
            for (std::size_t i = 0; i < plan.games.size(); ++i)
                emit(run_game(plan.games[i], i));
        } else {
            emit(skip("identity", "the bot did not start"));
            for (const auto& g : plan.games)
                emit(skip(g.check, "the bot did not start"));
        }
        for (const auto& s : plan.skipped)
            emit(skip(s.check, s.reason));
        if (o_.kind == BotKind::kGomocup)
            emit(started ? check_out_of_turn() : skip("one move per go", "the bot did not start"));
        emit(started ? check_search_limits(plan) : skip("search limits", "the bot did not start"));
        emit(started ? check_several_games()
                     : skip("several games in one process", "the bot did not start"));
        emit(started ? check_quit() : skip("quit", "the bot did not start"));
        drop_session();
        emit(check_flush(started));
        emit(judge_time_use(ev_.think, ev_.timeouts));
        emit(check_stdin_only(started));
        emit(judge_memory(
            ev_.peak, o_.bot.isolation.limits.memory_mb, ev_.memory_hit,
            memory_measured(o_.bot.isolation.cgroup && host_.cgroup_support().version != 0,
                            o_.kind == BotKind::kTsinghuaSo)));
        return std::move(results_);
    }

  private:
    void emit(CheckResult r) {
        if (o_.on_result) o_.on_result(r);
        results_.push_back(std::move(r));
        if (o_.stop.stop_requested()) {
            drop_session();
            throw Stopped("stopped after " + std::to_string(results_.size()) + " checks");
        }
    }

    static CheckResult skip(std::string name, std::string reason) {
        CheckResult r;
        r.name = std::move(name);
        r.status = Status::kSkip;
        r.detail = std::move(reason);
        return r;
    }

    // ---- the bot's process ----

    // A new process with its handshake; false (with `problem`) when it
    // cannot start or fails the handshake.
    bool start_process(std::string& problem, session::HandshakeResult* handshake = nullptr) {
        drop_session();
        try {
            if (o_.bot.protocol == session::BotProtocol::kArena1) {
                // The session of a real game, with the checks' probes.
                auto v1 = std::make_unique<session::Session>(host_, o_.bot, o_.session);
                probes_ = std::make_unique<SessionProbes>(o_.bot, o_.session);
                probes_->set_watch_late_replies(watch_late_);
                v1->set_hooks(probes_.get());
                v1_ = v1.get();
                session_ = std::move(v1);
            } else {
                session_ = session::make_session(host_, o_.bot, o_.session);
            }
        } catch (const session::SpawnError& e) {
            problem = std::string("cannot be started: ") + e.what();
            return false;
        }
        games_done_ = 0;
        const auto hs = session_->handshake();
        if (handshake != nullptr) *handshake = hs;
        note_late_lines("start-up");
        if (hs.fault == Fault::kNone) return true;
        problem = hs.detail;
        note_fault(hs.detail, "start-up");
        return false;
    }

    bool live() const { return session_ && session_->alive(); }

    // Forgets the current process, keeping its peak memory.
    void drop_session() {
        if (!session_) return;
        if (session_->alive()) session_->kill();
        if (const auto peak = session_->peak_memory())
            ev_.peak = std::max(ev_.peak.value_or(0), *peak);
        ev_.most_games = std::max(ev_.most_games, games_done_);
        if (probes_) ev_.deadlines_missed += probes_->deadlines_missed();
        session_.reset();
        v1_ = nullptr;
        probes_.reset();
    }

    // Forgets what the process said so far (it belongs to earlier checks).
    void discard_io() {
        if (!session_) return;
        std::uint64_t dropped = 0;
        (void)session_->take_transcript(&dropped);
        (void)session_->take_stderr_log();
    }

    // What was sent and received since discard_io, and the stderr tail.
    void attach_io(CheckResult& r) {
        if (!session_) return;
        std::uint64_t dropped = 0;
        std::vector<std::string> sent, received;
        for (const auto& line : session_->take_transcript(&dropped)) {
            std::size_t from = 0;
            while (from <= line.text.size()) {
                const std::size_t end = std::min(line.text.find('\n', from), line.text.size());
                (line.from_bot ? received : sent)
                    .push_back(shown(std::string_view(line.text).substr(from, end - from)));
                from = end + 1;
            }
        }
        r.sent = last_lines(std::move(sent));
        r.received = last_lines(std::move(received));
        r.stderr_tail = record::stderr_tail(session_->take_stderr_log());
    }

    // What a fault's detail tells the summary checks.
    void note_fault(const std::string& detail, const std::string& check) {
        if (ev_.memory_hit.empty() && detail.find("memory limit") != std::string::npos)
            ev_.memory_hit = check + ": " + detail;
    }

    void note_late_lines(const std::string& check) {
        if (!probes_) return;
        if (probes_->late_watched()) watch_late_ = false;  // once is enough
        if (probes_->buffer_probed()) ev_.buffer_probed = true;
        if (probes_->late_lines().empty() || ev_.late) return;
        CheckResult r;
        r.name = check;
        r.sent = {"quit"};
        for (const auto& line : probes_->late_lines())
            r.received.push_back(shown(line));
        r.received = last_lines(std::move(r.received));
        ev_.late = std::move(r);
    }

    // After a game the bot finished: does it hold a terminal open?
    void look_for_terminals(const std::string& check) {
        if (!live() || o_.bot.isolation.sandbox || !ev_.terminals.empty()) return;
        for (const pid_t pid : inspect::group_members(session_->pid())) {
            const auto fds = inspect::terminal_fds(pid);
            if (fds.empty()) continue;
            ev_.terminals =
                fds.front() + " of process " + std::to_string(pid) + ", after '" + check + "'";
            return;
        }
    }

    // ---- the checks ----

    bool check_startup() {
        CheckResult r;
        r.name = "start-up";
        r.expected = startup_expectation(o_);
        std::string problem;
        session::HandshakeResult hs;
        const bool ok = start_process(problem, &hs);
        if (!ok) {
            r.status = Status::kFail;
            r.detail = problem;
            attach_io(r);
            drop_session();
            emit(std::move(r));
            return false;
        }
        const double took = to_ms(hs.elapsed);
        const double limit = static_cast<double>(o_.session.startup_limit.count());
        r.detail = "handshake done in " + ms_text(took) + " (limit " + ms_text(limit) + ")";
        // A Gomocup brain need not answer ABOUT: the wait for it is no delay of its own.
        if (took > kWarnShare * limit && o_.kind != BotKind::kGomocup) {
            r.status = Status::kWarn;
            r.detail +=
                ": above 80 % of the limit; do slow preparation faster, or expect "
                "start-up failures on a loaded machine";
        }
        r.expected.clear();
        emit(std::move(r));
        return true;
    }

    void check_identity() {
        CheckResult r;
        r.name = "identity";
        const auto& id = session_->identity();
        std::string text;
        const auto add = [&](const char* key, const std::string& value) {
            if (value.empty()) return;
            if (!text.empty()) text += ", ";
            text += std::string(key) + " " + in_quotes(value);
        };
        add("name", id.name);
        add("author", id.author);
        add("version", id.version);
        r.detail = text.empty() ? "none given (optional; reports then show the name the arena "
                                  "gives the bot)"
                                : text;
        emit(std::move(r));
    }

    // Plays one game in the current process against the arena's random
    // moves, under the probes set.
    Played play(const GamePlan& g, std::uint64_t index) {
        Played out;
        const auto rules = games::make_game(o_.game, g.params);
        auto state = rules->new_initial_state();
        protocol::Position position;
        for (const auto& text : g.opening) {
            state->apply(*state->parse_move(text));
            position.moves.push_back(text);
        }
        // The bot's side; with 0, the side to move once the arena's passes are played.
        out.bot = g.bot_player;
        if (out.bot == 0) {
            auto after = state->clone();
            while (after->legal_moves() == std::vector<games::Move>{games::kPass})
                after->apply(games::kPass);
            out.bot = after->current_player();
        }
        protocol::GameStart start{o_.game, out.bot, g.params};
        for (auto& kv : o_.time.keys())
            start.params.push_back(std::move(kv));
        const bool idle_since_a_game = games_done_ > 0;
        if (!session_->start_game(start)) {
            out.fault = Fault::kCrash;
            out.problem = "did not accept the `game` line (it no longer reads its input)";
            out.died_between_games = idle_since_a_game;
            return out;
        }
        std::mt19937_64 rng(match::derive_seed(o_.seed, 1000 + index));
        match::GameClock clock(o_.time);
        int bot_moves = 0;
        while (!state->is_over()) {
            const int p = state->current_player();
            const auto legal = state->legal_moves();
            if (legal.size() == 1 && legal[0] == games::kPass) {
                state->apply(games::kPass);
                position.moves.emplace_back("pass");
                continue;
            }
            if (p != out.bot) {
                const auto m = legal[rng() % legal.size()];
                position.moves.push_back(state->format_move(m));
                state->apply(m);
                continue;
            }
            const protocol::Go go = clock.go(p);
            auto reply = session_->request_move(position, go, clock.limit(p));
            if (reply.fault != Fault::kNone) {
                out.fault = reply.fault;
                out.problem = std::string(session::to_string(reply.fault)) + ": " + reply.detail;
                out.died_between_games =
                    idle_since_a_game && bot_moves == 0 &&
                    (reply.fault == Fault::kCrash ||
                     (reply.fault == Fault::kStartup && o_.kind == BotKind::kGomocup));
                if (reply.fault == Fault::kTimeout) ++ev_.timeouts;
                out.plies = state->ply();
                return out;
            }
            if (!clock.charge(p, reply.elapsed())) {
                out.fault = Fault::kTimeout;
                out.problem = "timeout: the move took " + ms_text(to_ms(reply.elapsed())) +
                              ", longer than the limit";
                ++ev_.timeouts;
                session_->kill();
                return out;
            }
            ev_.think.push_back(
                {duration_cast<microseconds>(reply.elapsed()), match::Millis{go.move_ms}});
            ++bot_moves;
            const auto move = state->parse_move(reply.move);
            if (!move || !state->is_legal(*move)) {
                out.illegal = true;
                out.problem = std::string(move ? "illegal move " : "not a move of this game: ") +
                              in_quotes(reply.move) + " at ply " + std::to_string(state->ply()) +
                              " (position: " +
                              (position.moves.empty() ? std::string("empty board")
                                                      : protocol::format(position)) +
                              ")";
                session_->kill();
                return out;
            }
            position.moves.push_back(state->format_move(*move));
            state->apply(*move);
        }
        out.ok = true;
        out.outcome = state->outcome();
        out.plies = state->ply();
        const int winner = games::winner_of(out.outcome);
        protocol::End end;
        end.result = winner == games::kNoPlayer ? protocol::GameResult::kDraw
                     : winner == out.bot        ? protocol::GameResult::kWin
                                                : protocol::GameResult::kLoss;
        end.reason = "normal";
        session_->end_game(end);
        session_->freeze_if_due(Clock::time_point::max());
        ++games_done_;
        ev_.most_games = std::max(ev_.most_games, games_done_);
        return out;
    }

    void set_probes(Probe probe) {
        if (!probes_) return;
        SessionProbes::Probes p;
        if (probe == Probe::kUnknown) {
            p.unknown_lines = kUnknownLines;
            p.go_words = kUnknownKey;
            p.end_words = kUnknownKey;
        } else if (probe == Probe::kOutOfTurn) {
            p.settle = kSettle;
            p.settle_moves = kSettleMoves;
        }
        probes_->set_probes(std::move(p));
    }

    CheckResult run_game(const GamePlan& g, std::size_t index) {
        CheckResult r;
        r.name = g.check;
        r.expected = move_expectation(o_, g.params);
        discard_io();
        Played played;
        // A process that finished a game and failed at once in the next one
        // may have ended after its game: a fresh process plays the game
        // again, and if that one plays it, the first one did not play several
        // games (the check of that name fails, not this one).
        std::optional<CheckResult> between;
        for (int attempt = 0; attempt < 2; ++attempt) {
            if (!live()) {
                std::string problem;
                if (!start_process(problem)) {
                    r.status = Status::kFail;
                    r.detail = g.board + ": a fresh process failed to start: " + problem;
                    r.expected = startup_expectation(o_);
                    attach_io(r);
                    drop_session();
                    return r;
                }
            }
            set_probes(g.probe);
            played = play(g, index);
            set_probes(Probe::kNone);
            if (!played.died_between_games || attempt > 0) break;
            between.emplace();
            between->name = "several games in one process";
            between->status = Status::kFail;
            between->detail =
                "after a game it finished, the process failed at once in the next "
                "one (" +
                g.check + "), which a fresh process then played: " + played.problem;
            between->expected =
                "one process plays game after game, until `" + quit_word(o_.kind) + "`";
            attach_io(*between);
            drop_session();
        }
        if (between && played.ok && !ev_.between_games) ev_.between_games = std::move(between);
        note_late_lines(g.check);
        if (probes_ && !probes_->blocked_input().empty() && ev_.blocked_input.empty())
            ev_.blocked_input =
                "'" + g.check +
                "', it was waiting for input other than its stdin: " + probes_->blocked_input();
        if (played.ok) {
            look_for_terminals(g.check);
            const int winner = games::winner_of(played.outcome);
            const std::string result = winner == games::kNoPlayer ? "drew"
                                       : winner == played.bot     ? "won"
                                                                  : "lost";
            r.detail = g.board + ", as player " + std::to_string(played.bot) + ": " + result +
                       " in " + std::to_string(played.plies) + " plies";
            r.expected.clear();
            if (g.probe == Probe::kOutOfTurn) out_of_turn_verdict(r);
        } else {
            r.status = Status::kFail;
            r.detail = g.board + ", as player " + std::to_string(played.bot) + ": " +
                       (played.illegal ? "illegal: " : "") + played.problem;
            note_fault(played.problem, g.check);
            attach_io(r);
            // A line out of turn ("while not on move", as the arena's own
            // sessions say, or "after its move" from the probe).
            if (!ev_.out_of_turn &&
                (played.problem.find("while not on move") != std::string::npos ||
                 played.problem.find("after its move") != std::string::npos)) {
                ev_.out_of_turn = r;
            }
            drop_session();
        }
        if (o_.kind == BotKind::kTsinghuaSo && live()) {
            // A strategy library is loaded afresh for every game.
            session_->quit();
            drop_session();
        }
        return r;
    }

    // The verdict of the out-of-turn probe game, which passed as a game:
    // lines out of turn seen in any earlier game fail it too.
    void out_of_turn_verdict(CheckResult& r) {
        if (!ev_.out_of_turn) return;
        const CheckResult& seen = *ev_.out_of_turn;
        r.status = Status::kFail;
        r.detail = "in '" + seen.name + "': " + seen.detail;
        r.sent = seen.sent;
        r.received = seen.received;
        r.stderr_tail = seen.stderr_tail;
        r.expected = "nothing but info/debug lines while not on move, and one `move` per `go`";
    }

    CheckResult check_out_of_turn() {
        CheckResult r;
        r.name = "one move per go";
        r.detail = "no line but chatter came while it was not on move (checked before each move)";
        out_of_turn_verdict(r);
        return r;
    }

    // A note, never a failure: search_limits_note.hpp.
    CheckResult check_search_limits(const Plan& plan) {
        const bool told = told_search_limits(o_.kind);
        if (told && !live()) {
            std::string problem;
            if (!start_process(problem))
                return skip("search limits", "a fresh process failed to start: " + problem);
        }
        discard_io();
        CheckResult r =
            probe_search_limits(told ? session_.get() : nullptr, o_, plan.games.front().params);
        if (session_ && !live()) drop_session();
        return r;
    }

    CheckResult check_several_games() {
        if (o_.kind == BotKind::kTsinghuaSo) {
            return skip("several games in one process",
                        "a strategy library is loaded afresh for every game (restart: per-game), "
                        "as on the course's platform");
        }
        if (ev_.between_games) return *ev_.between_games;
        if (ev_.most_games >= 2) {
            CheckResult r;
            r.name = "several games in one process";
            r.detail = std::to_string(ev_.most_games) + " games in one process";
            return r;
        }
        return skip("several games in one process",
                    "no process played two games to the end (see the failures above)");
    }

    CheckResult check_quit() {
        CheckResult r;
        r.name = "quit";
        const std::string word = quit_word(o_.kind);
        if (o_.kind == BotKind::kTsinghuaSo) {
            return skip("quit", "arena-so-host answers `quit` for the library");
        }
        if (!live()) {
            std::string problem;
            if (!start_process(problem))
                return skip("quit", "a fresh process failed to start: " + problem);
        }
        discard_io();
        r.expected = "the process exits within " + std::to_string(o_.session.quit_grace.count()) +
                     " ms of `" + word + "`";
        bool exited = false;
        std::string status;
        Clock::duration after{};
        for (int attempt = 0; attempt < 2; ++attempt) {
            const auto before = Clock::now();
            session_->quit();
            after = Clock::now() - before;
            if (v1_ != nullptr && v1_->quit_outcome()) {
                const auto& q = *v1_->quit_outcome();
                if (q.gone && attempt == 0) {
                    // It had exited by itself (after its last game): ask a
                    // fresh process.
                    std::string problem;
                    if (!start_process(problem))
                        return skip("quit", "a fresh process failed to start: " + problem);
                    discard_io();
                    continue;
                }
                exited = q.exited;
                after = q.after;
                if (!q.written) {
                    // It no longer read its input.
                    status = q.gone ? "it had exited already" : "it stopped reading its input";
                } else if (const auto exit = session_->exit_status()) {
                    status = exit->describe();
                }
            } else if (const auto exit = session_->exit_status()) {
                exited = !(exit->signaled && exit->signal == SIGKILL);
                status = exit->describe();
            }
            break;
        }
        if (exited) {
            r.detail = "exited " + ms_text(to_ms(after)) + " after `" + word + "`" +
                       (status.empty() ? "" : " (" + status + ")");
            r.expected.clear();
        } else {
            r.status = Status::kFail;
            r.detail = "still running " + ms_text(to_ms(after)) + " after `" + word +
                       "`: killed (" + (status.empty() ? "no exit" : status) + ")";
            attach_io(r);
        }
        return r;
    }

    CheckResult check_flush(bool started) {
        CheckResult r;
        r.name = "stdout flushed";
        if (o_.kind == BotKind::kTsinghuaSo)
            return skip(r.name, "arena-so-host writes and flushes the protocol for the library");
        if (o_.kind != BotKind::kArena1) {
            return skip(r.name,
                        "checked for protocol v1 bots; a reply stuck in the output buffer of "
                        "this bot shows as a timeout above");
        }
        if (ev_.late) {
            r.status = Status::kFail;
            r.detail = "in '" + ev_.late->name +
                       "', after a reply missed its deadline, the bot wrote these lines only when "
                       "it exited: its stdout is not flushed after each line (in Python "
                       "print(..., flush=True); in C++ std::endl or std::flush; in Java "
                       "System.out.flush(); in C fflush(stdout))";
            r.received = ev_.late->received;
            r.expected = "each line flushed as soon as it is written";
            return r;
        }
        if (!started) return skip(r.name, "the bot did not start");
        if (ev_.buffer_probed) {
            r.detail = "no reply was left in its output buffer (checked at a missed deadline)";
        } else if (ev_.deadlines_missed == 0) {
            r.detail = "every reply came before its deadline";
        } else {
            return skip(r.name, o_.bot.isolation.sandbox
                                    ? "a reply missed its deadline, and under --sandbox the "
                                      "arena cannot look into the bot"
                                    : "a reply missed its deadline while the bot was still at "
                                      "work (not waiting for its next command), so its output "
                                      "buffer could not be told apart");
        }
        return r;
    }

    CheckResult check_stdin_only(bool started) {
        CheckResult r;
        r.name = "stdin only";
        if (o_.bot.isolation.sandbox)
            return skip(r.name, "not inspected under --sandbox (another view of /proc)");
        r.expected = "input from stdin only: no terminal, no other file, pipe or socket to wait on";
        if (!ev_.blocked_input.empty()) {
            r.status = Status::kFail;
            r.detail = "when it ran out of time in " + ev_.blocked_input;
            return r;
        }
        if (!ev_.terminals.empty()) {
            r.status = Status::kFail;
            r.detail = "it held a terminal open: " + ev_.terminals;
            return r;
        }
        if (!started) return skip(r.name, "the bot did not start");
        r.expected.clear();
        r.detail =
            "stdin was a pipe and the bot had no controlling terminal (/dev/tty cannot be "
            "opened, as in a tournament); it held no terminal open";
        if (ev_.timeouts > 0 && o_.kind == BotKind::kArena1)
            r.detail += ", and it waited on nothing else when it ran out of time";
        return r;
    }

    session::BotHost& host_;
    CheckOptions o_;
    bool watch_late_ = false;
    // The probes of the current protocol v1 process (declared before the
    // session, which uses them, so that it goes first).
    std::unique_ptr<SessionProbes> probes_;
    std::unique_ptr<session::BotSession> session_;
    session::Session* v1_ = nullptr;  // session_, for a protocol v1 bot
    int games_done_ = 0;              // games finished by the current process
    Evidence ev_;
    std::vector<CheckResult> results_;
};

}  // namespace

std::vector<CheckResult> check_bot(session::BotHost& host, const CheckOptions& options) {
    return Checker(host, options).run();
}

}  // namespace arena::check
