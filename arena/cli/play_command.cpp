// `arena play`: a person against a bot in the terminal. The board is drawn
// as `arena show` draws it, the person types moves in the game's notation,
// the bot plays as in any match (its own session, the arena's clock and
// judging), and the bot's `info` lines are shown as they came, escaped.
// With --db the game is stored like any other (arena/serve/play_store.hpp).

#include <poll.h>
#include <unistd.h>

#include <array>
#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arena/cli/bot_options.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/games/connect4.hpp"
#include "arena/games/registry.hpp"
#include "arena/match/human.hpp"
#include "arena/match/match.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/params_text.hpp"
#include "arena/serve/play_store.hpp"
#include "arena/session/cgroup.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;
using Millis = std::chrono::milliseconds;

constexpr std::string_view kPlayUsage = R"(usage: arena play --game GAME [options] BOT

Plays one game against BOT in the terminal: you type your moves, the bot
plays under the arena's clock and judging, as in arena match. BOT is one
argument, '[name=]command [args...]', as for arena match.

Moves are typed in the game's notation:
  connect4  the column number, 1 at the left ("4")
  gomoku    the column letter and the row number, a1 at the bottom left ("h8")
  reversi   the column letter and the row number, a1 at the top left ("d3");
            when you have no move, the arena passes for you
A move the rules refuse (not a move of the game, or an illegal one) is
refused and you are asked again; it does not lose the game. You have no time
limit unless --human-ms is given. Type 'help' for this list, 'board' to see
the board again, 'quit' (or end the input) to leave: a game left unfinished
is not a result and is not stored.

With --db FILE the finished game is stored in that results database as a
game of the tournament '<name>-vs-<bot>-<game>' (arena standings, games,
show and report work on it).

example:
  arena play --game connect4 --move-ms 500 build/bots/c4-alphabeta
  arena play --game gomoku --size 9 --color second --db results/me.db \
      'random=build/bots/random --game gomoku'

)";

struct PlayArgs {
    std::string game;
    games::Params params;
    match::TimeControl time;
    Millis human_limit{0};
    session::SessionOptions session;
    session::BotSpec bot;
    std::string command;  // as typed
    int human_side = 1;
    std::string person = "human";
    std::string db;
    std::uint64_t seed = 1;
};

template <typename T>
void add_param(games::Params& params, const po::variables_map& vm, const char* option) {
    if (vm.count(option)) {
        std::ostringstream text;
        text << vm[option].as<T>();
        params.emplace_back(option, text.str());
    }
}

std::optional<PlayArgs> parse_args(const std::vector<std::string>& args, std::ostream& out,
                                   std::ostream& err, int& exit_code) {
    po::options_description opts("options");
    std::int64_t move_ms = 1000, tolerance_ms = match::kDefaultTolerance.count(), human_ms = 0;
    PlayArgs p;
    BotRunOptions run_options;
    std::string color = "first", protocol = "arena1", dir;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("game", po::value<std::string>(&p.game)->required(), "connect4, gomoku or reversi")
        ("rows", po::value<int>(), "connect4: rows (4..16, default 6)")
        ("cols", po::value<int>(), "connect4: columns (4..16, default 7)")
        ("connect", po::value<int>(), "connect4: stones in a row to win (default 4)")
        ("blocked", po::value<std::string>(), "connect4: blocked cells, e.g. 4:1,2:3 (col:row, 1-based)")
        ("variant", po::value<std::string>(), "connect4: 'tsinghua' (a 9..12 x 9..12 board with one blocked cell, drawn from --seed)")
        ("size", po::value<int>(), "gomoku: board size (default 15)")
        ("rule", po::value<std::string>(), "gomoku: freestyle (default) or exact5")
        ("seed", po::value<std::uint64_t>(&p.seed)->default_value(1), "seed of the board of --variant tsinghua")
        ("color", po::value<std::string>(&color)->default_value(color), "first (you move first) or second")
        ("move-ms", bounded_integer("move-ms", 1, tournament::bounds::kMaxMillis, &move_ms), "the bot's time per move in ms")
        ("tolerance-ms", bounded_integer("tolerance-ms", 0, tournament::bounds::kMaxMillis, &tolerance_ms), "extra time before a move is lost on time")
        ("human-ms", bounded_integer("human-ms", 0, tournament::bounds::kMaxMillis, &human_ms), "your time per move in ms (0: no limit)")
        ("name", po::value<std::string>(&p.person)->default_value(p.person), "your name in the results")
        ("db", po::value<std::string>(&p.db), "store the game in this results database")
        ("dir", po::value<std::string>(&dir), "directory the bot starts in, from which its command is taken (default: the current one)")
        ("protocol", po::value<std::string>(&protocol)->default_value(protocol), "the protocol the bot speaks: arena1, gomocup, nboard or tsinghua-so");
    // clang-format on
    run_options.add_startup_options(opts);
    run_options.add_limit_options(opts);
    CommandLine line{"play", kPlayUsage, opts};
    line.arguments.add_options()("bot", po::value<std::vector<std::string>>(), "bot");
    line.positional.add("bot", -1);
    if (const auto done =
            parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
                const auto bots = vm.count("bot") ? vm["bot"].as<std::vector<std::string>>()
                                                  : std::vector<std::string>{};
                if (bots.size() != 1)
                    throw std::invalid_argument("expected one bot, got " +
                                                std::to_string(bots.size()));
                p.command = bots[0];
                p.bot = parse_bot_argument(bots[0]);
                if (!dir.empty()) {
                    std::error_code ec;
                    if (!std::filesystem::is_directory(dir, ec))
                        throw std::invalid_argument("--dir '" + dir + "' is not a directory");
                    p.bot.working_dir = dir;
                }
                if (color == "first") {
                    p.human_side = 1;
                } else if (color == "second") {
                    p.human_side = 2;
                } else {
                    throw std::invalid_argument("--color must be first or second, not '" + color +
                                                "'");
                }
                if (p.person.empty()) throw std::invalid_argument("--name must not be empty");
                if (p.person == p.bot.name) {
                    throw std::invalid_argument("the bot is also called '" + p.person +
                                                "': choose another --name, or name the bot "
                                                "(name=command)");
                }
                if (human_ms < 0) throw std::invalid_argument("--human-ms must not be negative");
                p.human_limit = Millis{human_ms};
                p.time.move = Millis{move_ms};
                p.time.tolerance = Millis{tolerance_ms};
                if (move_ms <= 0) throw std::invalid_argument("--move-ms must be positive");
                if (auto problem = p.time.validate(); !problem.empty())
                    throw std::invalid_argument(problem);
                session::Isolation isolation;
                run_options.apply(isolation, p.session);
                p.bot.isolation = isolation;
                set_bot_protocol(p.bot, protocol);
                add_param<std::string>(p.params, vm, "variant");
                add_param<int>(p.params, vm, "rows");
                add_param<int>(p.params, vm, "cols");
                add_param<int>(p.params, vm, "connect");
                add_param<std::string>(p.params, vm, "blocked");
                add_param<int>(p.params, vm, "size");
                add_param<std::string>(p.params, vm, "rule");
                p.params = games::realize(p.game, p.params, p.seed);
                (void)games::make_game(p.game, p.params);  // checks the game and its board
                if (const auto problem =
                        session::protocol_problem(p.bot.protocol, p.game, p.params);
                    !problem.empty())
                    throw std::invalid_argument("bot '" + p.bot.name + "': " + problem);
                if (std::filesystem::path(p.bot.argv.front()).filename() ==
                    tournament::kSoHostName) {
                    const std::string problem = tournament::tsinghua_game_problem(p.game, p.params);
                    if (!problem.empty())
                        throw std::invalid_argument("bot '" + p.bot.name + "': " + problem);
                }
            })) {
        exit_code = *done;
        return std::nullopt;
    }
    return p;
}

// How to type a move of `game` in `state`, for the prompt's help line.
std::string notation_help(const std::string& game, const games::State& state) {
    if (game == "connect4") {
        // The widest board's last column is the number of columns.
        std::string last = "?";
        for (int col = 0; col < games::kConnect4MaxSize; ++col)
            if (state.parse_move(std::to_string(col + 1))) last = std::to_string(col + 1);
        return "type a column number, 1 (left) to " + last;
    }
    if (game == "gomoku")
        return "type a cell as column letter and row number, a1 at the bottom left (e.g. c3)";
    return "type a cell as column letter and row number, a1 at the top left (e.g. d3)";
}

// The person at the terminal: prompts on `out`, reads lines from standard
// input (a descriptor, so a move limit and Ctrl-C can end the wait).
class TerminalPerson : public match::HumanInput {
  public:
    TerminalPerson(std::ostream& out, std::string game, int side, std::string bot)
        : out_(out), game_(std::move(game)), side_(side), bot_(std::move(bot)) {}

    std::optional<std::string> next_move(const games::State& state, std::string_view refused,
                                         std::optional<TimePoint> deadline,
                                         std::stop_token stop) override {
        if (refused.empty()) {
            out_ << "\n" << state.render();
        } else {
            out_ << "refused: " << record::escape_controls(refused) << " ("
                 << notation_help(game_, state) << ")\n";
        }
        for (;;) {
            out_ << "your move (" << (side_ == 1 ? 'X' : 'O') << "): " << std::flush;
            auto line = read_line(deadline, stop);
            if (!line) {
                if (!stop.stop_requested() && !(deadline && Clock::now() >= *deadline))
                    left_ = true;  // end of input
                out_ << "\n";
                return std::nullopt;
            }
            const std::string text = trim(*line);
            if (text.empty()) continue;
            if (text == "quit" || text == "exit") {
                left_ = true;
                return std::nullopt;
            }
            if (text == "help" || text == "?") {
                out_ << notation_help(game_, state)
                     << "; 'board' shows the board, 'quit' leaves the game\n";
                continue;
            }
            if (text == "board") {
                out_ << state.render();
                continue;
            }
            return text;
        }
    }

    void moved(const games::State& state, const record::MoveRecord& move) override {
        (void)state;
        out_ << state.ply() << ". "
             << (move.player == side_ ? "you" : record::escape_controls(bot_)) << ": "
             << record::escape_controls(move.move);
        if (move.by_arena) {
            out_ << "  (played by the arena)";
        } else if (move.player != side_) {
            out_ << "  " << std::fixed << std::setprecision(1)
                 << static_cast<double>(move.time.count()) / 1000.0 << " ms";
        }
        out_ << "\n";
        for (const auto& info : move.info)
            out_ << "   info " << record::escape_controls(info) << "\n";
        out_ << std::flush;
    }

    [[nodiscard]] bool left() const { return left_; }

  private:
    using Clock = std::chrono::steady_clock;

    static std::string trim(const std::string& s) {
        const auto first = s.find_first_not_of(" \t\r");
        if (first == std::string::npos) return "";
        return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
    }

    // One line of standard input; nullopt at its end, at `deadline` or on
    // a stop request (checked every 100 ms).
    std::optional<std::string> read_line(std::optional<TimePoint> deadline,
                                         const std::stop_token& stop) {
        for (;;) {
            if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            if (eof_ || stop.stop_requested()) return std::nullopt;
            auto wait = Millis{100};
            if (deadline) {
                const auto left = std::chrono::duration_cast<Millis>(*deadline - Clock::now());
                if (left <= Millis{0}) return std::nullopt;
                wait = std::min(wait, left + Millis{1});
            }
            pollfd fd{STDIN_FILENO, POLLIN, 0};
            const int ready = ::poll(&fd, 1, static_cast<int>(wait.count()));
            if (ready < 0 && errno != EINTR) return std::nullopt;
            if (ready <= 0) continue;
            char chunk[512];
            const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
            if (n > 0) {
                buffer_.append(chunk, static_cast<std::size_t>(n));
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                eof_ = true;
                if (!buffer_.empty()) buffer_ += '\n';  // a last line without a newline
            }
        }
    }

    std::ostream& out_;
    std::string game_;
    int side_;
    std::string bot_;
    std::string buffer_;
    bool eof_ = false;
    bool left_ = false;
};

}  // namespace

int play_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    int exit_code = kExitOk;
    const auto parsed = parse_args(args, out, err, exit_code);
    if (!parsed) return exit_code;
    const PlayArgs& p = *parsed;
    const auto game = games::make_game(p.game, p.params);

    std::optional<serve::PlayStore> stored;
    if (!p.db.empty()) {
        try {
            stored.emplace(p.db);
        } catch (const std::exception& e) {
            err << "arena play: " << e.what() << "\n";
            return kExitFailure;
        }
    }
    const std::string bot_name = record::escape_controls(p.bot.name);
    out << "arena play: you (" << record::escape_controls(p.person) << ") play "
        << (p.human_side == 1 ? "X, first," : "O, second,") << " against " << bot_name << " at "
        << p.game << " " << record::params_text(game->params()) << "; " << bot_name << " has "
        << p.time.move.count() << " ms a move, you have "
        << (p.human_limit.count() > 0 ? std::to_string(p.human_limit.count()) + " ms"
                                      : std::string("no limit"))
        << ".\n"
        << notation_help(p.game, *game->new_initial_state())
        << "; 'help' for help, 'quit' to leave.\n"
        << std::flush;

    TerminalPerson person(out, p.game, p.human_side, p.bot.name);
    match::Player human(p.person, person, p.human_limit);
    match::Player bot(p.bot, p.session);
    record::GameRecord record;
    bool interrupted = false;
    {
        StopOnSignal signals;
        try {
            record = p.human_side == 1
                         ? match::play_game(*game, human, bot, p.time, {}, signals.token())
                         : match::play_game(*game, bot, human, p.time, {}, signals.token());
        } catch (const session::SpawnError& e) {
            err << "arena play: " << e.what() << "\n";
            return kExitFailure;
        }
        interrupted = signals.stopped();
    }
    bot.retire();
    if (record.abandoned) {
        err << "arena play: " << (interrupted ? "interrupted" : "you left the game")
            << "; it is not a result and was not stored\n";
        return interrupted ? 130 : kExitFailure;
    }

    auto final_state = game->new_initial_state();
    for (const auto& m : record.moves)
        final_state->apply(*final_state->parse_move(m.move));
    out << "\n" << final_state->render();
    const int winner = record.winner();
    out << "result " << record::score_text(record.outcome) << ": "
        << (winner == games::kNoPlayer ? std::string("a draw")
            : winner == p.human_side   ? std::string("you win")
                                       : bot_name + " wins")
        << " (" << record::to_string(record.termination);
    if (!record.detail.empty()) out << ": " << record::escape_controls(record.detail);
    out << ")\n";
    if (record.offender() != 0 && record.offender() != p.human_side) {
        const std::string tail = record::stderr_tail(record.stderr_logs[record.offender() - 1]);
        if (!tail.empty()) out << bot_name << "'s stderr: " << tail << "\n";
    }
    if (stored) {
        try {
            const store::BotEntry entry{p.bot.name, p.command,
                                        std::string(session::to_string(p.bot.protocol)),
                                        tournament::program_sha256(tournament::program_files(
                                            p.bot.argv, p.bot.working_dir))};
            const auto where = stored->store(record, p.human_side, entry);
            out << "stored as game " << where.game_id << " of tournament '"
                << record::escape_controls(where.tournament) << "' in " << p.db << "\n";
        } catch (const std::exception& e) {
            err << "arena play: " << e.what() << "\n";
            return kExitFailure;
        }
    }
    out << std::flush;
    return kExitOk;
}

}  // namespace arena::cli
