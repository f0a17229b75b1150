#include "arena/session/gomocup_session.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace arena::session {

namespace {

// How long an engine gets to answer ABOUT (at most; the start-up limit if shorter).
constexpr Millis kAboutWait{2'000};
// Writes outside a move (INFO lines after START): the pipe is normally empty.
constexpr Millis kCommandWriteLimit{1'000};
// Lines drained before a move: bounds the work an engine that floods stdout
// between moves can cause; the rest is judged as part of the move.
constexpr int kMaxDrainLines = 10'000;
// The most unknown lines kept for a timeout's detail: only the last one.
constexpr std::size_t kShownLineBytes = 80;

// Piskvork ends its lines with CR LF, and engines born on Windows may expect
// it: every line gets "\r\n" (Process::write_line adds the '\n').
std::string crlf_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i > 0) out += '\n';
        out += lines[i];
        out += '\r';
    }
    return out;
}

std::string upper(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string_view first_word(std::string_view line) {
    return line.substr(0, line.find_first_of(" \t"));
}

// Lines an engine may print at any time, answering nothing.
bool is_message(std::string_view line) {
    const std::string word = upper(first_word(line));
    return word == "MESSAGE" || word == "DEBUG" || word == "SUGGEST";
}

// Lines recorded with a move, never judged: messages, and UNKNOWN or ERROR
// (the engine complaining about a command; the move is still awaited).
bool is_chatter(std::string_view line) {
    const std::string word = upper(first_word(line));
    return is_message(line) || word == "UNKNOWN" || word == "ERROR";
}

std::optional<int> to_int(std::string_view text) {
    int value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

std::optional<std::int64_t> param_int(const protocol::KeyValues& params, std::string_view key) {
    for (const auto& [k, v] : params) {
        if (k != key) continue;
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
        if (ec == std::errc() && ptr == v.data() + v.size()) return value;
    }
    return std::nullopt;
}

std::string param_text(const protocol::KeyValues& params, std::string_view key) {
    for (const auto& [k, v] : params)
        if (k == key) return v;
    return {};
}

}  // namespace

namespace gomocup {

std::optional<Point> to_point(std::string_view move, int size) {
    if (move.size() < 2) return std::nullopt;
    const int x = std::tolower(static_cast<unsigned char>(move[0])) - 'a';
    const auto row = to_int(move.substr(1));
    if (x < 0 || x >= size || !row || *row < 1 || *row > size) return std::nullopt;
    return Point{x, *row - 1};
}

std::string to_move(Point p, int size) {
    if (p.x < 0 || p.x >= size || p.y < 0 || p.y >= size) return {};
    return std::string(1, static_cast<char>('a' + p.x)) + std::to_string(p.y + 1);
}

std::optional<Point> parse_point(std::string_view line) {
    const auto comma = line.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    const auto strip = [](std::string_view t) {
        const auto a = t.find_first_not_of(" \t");
        if (a == std::string_view::npos) return std::string_view{};
        return t.substr(a, t.find_last_not_of(" \t") - a + 1);
    };
    const auto x = to_int(strip(line.substr(0, comma)));
    const auto y = to_int(strip(line.substr(comma + 1)));
    if (!x || !y) return std::nullopt;
    return Point{*x, *y};
}

std::vector<std::string> board_command(const std::vector<std::string>& moves, int player,
                                       int size) {
    std::vector<std::string> lines{"BOARD"};
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const auto p = to_point(moves[i], size);
        if (!p) throw std::invalid_argument("not a gomoku cell: '" + moves[i] + "'");
        const int mover = i % 2 == 0 ? 1 : 2;
        lines.push_back(std::to_string(p->x) + "," + std::to_string(p->y) + "," +
                        (mover == player ? "1" : "2"));
    }
    lines.emplace_back("DONE");
    return lines;
}

std::int64_t announced_ms(std::int64_t limit_ms) {
    if (limit_ms <= 0 || limit_ms >= kNoLimitMs) return limit_ms;
    return limit_ms - std::min(limit_ms / 10, kCommunityToleranceMs);
}

std::uint64_t announced_memory_bytes(std::uint64_t memory_mb) {
    if (memory_mb == 0) return 0;
    constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
    const std::uint64_t limit = memory_mb * kMiB;
    const std::uint64_t kept = std::min(std::max(limit / 4, 64 * kMiB), limit / 2);
    return limit - kept;
}

std::string folder_name(std::string_view bot) {
    std::string out;
    for (const char c : bot) {
        const bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' ||
                        c == '+' || c == '-';
        out += ok ? c : '_';
    }
    if (out.empty() || out == "." || out == "..") out = "bot";
    return out;
}

std::optional<int> rule_bitmask(std::string_view rule) {
    if (rule.empty() || rule == "freestyle") return 0;
    if (rule == "exact5") return 1;
    return std::nullopt;
}

Identity parse_about(std::string_view line) {
    // key="value" pairs, with blanks allowed around the `=` (AIWine writes
    // `name = "Wine", version ="2.1"`).
    Identity id;
    std::size_t at = 0;
    for (;;) {
        const auto eq = line.find('=', at);
        if (eq == std::string_view::npos) break;
        const auto open = line.find_first_not_of(" \t", eq + 1);
        if (open == std::string_view::npos) break;
        if (line[open] != '"') {
            at = eq + 1;
            continue;
        }
        const auto close = line.find('"', open + 1);
        if (close == std::string_view::npos) break;
        std::string_view key = line.substr(at, eq - at);
        if (const auto end = key.find_last_not_of(" \t"); end != std::string_view::npos) {
            key = key.substr(0, end + 1);
        }
        if (const auto cut = key.find_last_of(" \t,"); cut != std::string_view::npos) {
            key.remove_prefix(cut + 1);
        }
        const std::string value(line.substr(open + 1, close - open - 1));
        const std::string name = upper(key);
        if (name == "NAME") id.name = value;
        if (name == "VERSION") id.version = value;
        if (name == "AUTHOR") id.author = value;
        at = close + 1;
    }
    return id;
}

}  // namespace gomocup

GomocupSession::GomocupSession(BotHost& host, BotSpec spec, SessionOptions options)
    : ProcessSession(host, std::move(spec), options) {
    prepare_folder();
}

// The folder lives in the run's temporary directory (the parent of every
// scratch directory), one per engine name, so it outlasts the engine's
// processes and lasts as long as the run. A sandboxed engine can write only
// its scratch directory: it gets a copy there, copied back when the process
// ends. The engine learns of the folder only from `INFO folder`, after the
// copy is made.
void GomocupSession::prepare_folder() {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path store =
        scratch_dir_.parent_path() / ("gomocup-folder-" + gomocup::folder_name(spec_.name));
    fs::create_directories(store, ec);
    if (!spec_.isolation.sandbox) {
        folder_ = store;
        return;
    }
    folder_store_ = store;
    folder_ = scratch_dir_ / "gomocup-folder";
    fs::create_directories(folder_, ec);
    fs::copy(store, folder_, fs::copy_options::recursive | fs::copy_options::overwrite_existing,
             ec);
}

GomocupSession::~GomocupSession() {
    if (folder_store_.empty()) return;
    namespace fs = std::filesystem;
    kill();  // nothing writes the folder while it is copied
    std::error_code ec;
    fs::copy(folder_, folder_store_,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
}

HandshakeResult GomocupSession::handshake() {
    const auto start = Clock::now();
    const auto deadline = start + std::min<Clock::duration>(options_.startup_limit, kAboutWait);
    HandshakeResult result;
    auto fail = [&](std::string detail) {
        result.elapsed = Clock::now() - start;
        die();
        result.fault = Fault::kStartup;
        result.detail = std::move(detail);
        return result;
    };
    if (!alive_) return fail("the bot is not running");
    if (!process_->write_line("ABOUT\r", deadline)) {
        return fail(describe_write_failure(" during start-up"));
    }
    for (;;) {
        auto line = read_reply_line(deadline, " during start-up");
        if (line.fault == Fault::kTimeout) {
            about_pending_ = true;  // an engine that does not answer ABOUT is fine
            break;
        }
        if (line.fault != Fault::kNone) return fail(line.detail);
        const std::string_view text = trim(line.text);
        if (text.empty() || is_message(text)) continue;
        // The answer (an UNKNOWN or ERROR answer says the engine has none).
        const Identity id = gomocup::parse_about(text);
        if (!id.name.empty()) identity_ = id;
        break;
    }
    result.elapsed = Clock::now() - start;
    freeze();
    return result;
}

bool GomocupSession::command_ok(const std::string& command, Clock::time_point deadline,
                                std::string& problem, bool& unknown) {
    unknown = false;
    if (!process_->write_line_and_thaw(command + "\r", deadline)) {
        problem = describe_write_failure(" during start-up");
        return false;
    }
    for (;;) {
        auto line = read_reply_line(deadline, " during start-up");
        if (line.fault == Fault::kTimeout) {
            problem = "no OK to " + command + " within " + millis(options_.startup_limit);
            return false;
        }
        if (line.fault != Fault::kNone) {
            problem = line.detail;
            return false;
        }
        const std::string_view text = trim(line.text);
        const std::string word = upper(first_word(text));
        if (text.empty() || is_message(text)) continue;
        if (about_pending_ &&
            (word == "UNKNOWN" || word == "ERROR" || !gomocup::parse_about(text).name.empty())) {
            about_pending_ = false;  // the late answer to ABOUT
            if (const Identity id = gomocup::parse_about(text); !id.name.empty()) identity_ = id;
            continue;
        }
        if (word == "OK") return true;
        unknown = word == "UNKNOWN" || word == "ERROR";
        problem = "answered " + quote(text) + " to " + command;
        return false;
    }
}

bool GomocupSession::start_game(const protocol::GameStart& game) {
    if (!alive_) return false;
    told_.clear();
    board_fresh_ = true;
    pending_.reset();
    auto refuse = [&](Fault fault, std::string detail) {
        pending_.emplace(fault, std::move(detail));
        die();
        return true;  // judged at the engine's first move, where the match layer judges faults
    };
    const games::Params params(game.params.begin(), game.params.end());
    games::Params rules;  // the game parameters, without the time control
    for (const auto& kv : params)
        if (kv.first != "move_ms" && kv.first != "game_ms" && kv.first != "inc_ms")
            rules.push_back(kv);
    if (auto problem = protocol_problem(BotProtocol::kGomocup, game.game, rules);
        !problem.empty()) {
        return refuse(Fault::kStartup, problem);
    }
    size_ = static_cast<int>(param_int(params, "size").value_or(15));
    player_ = game.player;
    const int rule = gomocup::rule_bitmask(param_text(params, "rule")).value_or(0);

    const auto deadline = Clock::now() + options_.startup_limit;
    std::string problem;
    bool unknown = false;
    bool ok = false;
    if (started_size_ == size_) {
        ok = command_ok("RESTART", deadline, problem, unknown);
        // An engine without RESTART gets a fresh START instead.
        if (!ok && unknown)
            ok = command_ok("START " + std::to_string(size_), deadline, problem, unknown);
    } else {
        ok = command_ok("START " + std::to_string(size_), deadline, problem, unknown);
    }
    if (!ok) return refuse(Fault::kStartup, problem);
    started_size_ = size_;

    // The limits as Gomocup's judge sends them, each announced short of the
    // arena's own (gomocup::announced_ms); timeout_match 0 is no limit.
    const std::int64_t move_ms = param_int(params, "move_ms").value_or(0);
    const std::int64_t game_ms = param_int(params, "game_ms").value_or(0);
    const std::uint64_t memory_mb = spec_.isolation.limits.memory_mb;
    std::vector<std::string> info = {
        "INFO timeout_turn " +
            std::to_string(gomocup::announced_ms(move_ms > 0 ? move_ms : game_ms)),
        "INFO timeout_match " + std::to_string(gomocup::announced_ms(game_ms)),
        "INFO max_memory " + std::to_string(gomocup::announced_memory_bytes(memory_mb)),
        "INFO game_type 1",
        "INFO rule " + std::to_string(rule),
    };
    if (!folder_.empty()) info.push_back("INFO folder " + folder_.string());
    if (!process_->write_line(crlf_lines(info), Clock::now() + kCommandWriteLimit)) {
        die();
        return false;
    }
    freeze();
    return true;
}

MoveReply GomocupSession::request_move(const protocol::Position& position, const protocol::Go& go,
                                       Clock::duration limit, IdleBot* idle) {
    const IdleWatch watch(*this, idle);
    MoveReply reply;
    if (pending_) {
        auto [fault, detail] = std::move(*pending_);
        pending_.reset();
        return fail_move(reply, fault, std::move(detail));
    }
    if (!alive_) return fail_move(reply, Fault::kCrash, "the bot is not running");

    // Lines sent while the engine was not on move belong to no move and are
    // dropped, except a move: that is a protocol fault, as in v1.
    const auto drain_deadline = Clock::now();
    for (int i = 0; i < kMaxDrainLines; ++i) {
        auto line = read_reply_line(drain_deadline);
        if (line.fault == Fault::kTimeout) break;
        if (line.fault != Fault::kNone) return fail_move(reply, line.fault, line.detail);
        if (!gomocup::parse_point(trim(line.text))) continue;
        return fail_move(reply, Fault::kProtocol, "line while not on move: " + quote(line.text));
    }

    // time_left before every move, as the judge sends it (timeout_turn went
    // with START and does not change during a game).
    std::vector<std::string> lines = {
        "INFO time_left " +
            std::to_string(go.clock_ms ? gomocup::announced_ms(*go.clock_ms) : gomocup::kNoLimitMs),
    };
    const auto& moves = position.moves;
    const bool extends =
        moves.size() == told_.size() + 1 && std::equal(told_.begin(), told_.end(), moves.begin());
    const auto last = extends ? gomocup::to_point(moves.back(), size_) : std::nullopt;
    if (moves.empty() && board_fresh_) {
        lines.emplace_back("BEGIN");
    } else if (last) {
        lines.push_back("TURN " + std::to_string(last->x) + "," + std::to_string(last->y));
    } else {
        try {
            for (auto& l : gomocup::board_command(moves, player_, size_))
                lines.push_back(std::move(l));
        } catch (const std::invalid_argument& e) {
            return fail_move(reply, Fault::kProtocol, e.what());  // not a gomoku game
        }
    }
    if (!write_move_request(crlf_lines(lines), limit, reply)) return reply;
    told_ = moves;
    board_fresh_ = false;
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
        if (text.empty()) continue;  // Gomocup managers ignore empty lines
        const auto point = gomocup::parse_point(text);
        if (!point) {
            // Recorded, never judged: Gomocup's judge skips every line it
            // cannot read as a move (protocol/GOMOCUP.md, section 6).
            if (upper(first_word(text)) == "SUGGEST") {
                // The manager imposes the suggested move with PLAY, as
                // Gomocup does; the engine then answers it as its move.
                if (const auto suggested = gomocup::parse_point(text.substr(7))) {
                    const std::string play = "PLAY " + std::to_string(suggested->x) + "," +
                                             std::to_string(suggested->y) + "\r";
                    if (!process_->write_line(play, deadline)) {
                        if (Clock::now() >= deadline)
                            return fail_move(reply, Fault::kTimeout,
                                             "no move within " + millis(limit));
                        return fail_move(reply, Fault::kCrash, describe_write_failure());
                    }
                }
            } else if (!is_chatter(text)) {
                last_unknown = std::string(text.substr(0, kShownLineBytes + 1));
            }
            record_info(reply, chatter, std::string(text));
            continue;
        }
        // Off the board: the coordinates as sent, which the game rejects as
        // it rejects a native bot's `move z99`.
        std::string move = gomocup::to_move(*point, size_);
        if (move.empty()) {
            move = std::to_string(point->x) + "," + std::to_string(point->y);
        } else {
            told_.push_back(move);  // the engine has put its own stone on its board
        }
        return accept_move(reply, std::move(move), line.at);
    }
}

void GomocupSession::end_game(const protocol::End& /*end*/) {}

void GomocupSession::quit() {
    quit_with("END\r");
}

}  // namespace arena::session
