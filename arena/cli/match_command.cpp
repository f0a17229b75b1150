// `arena match`: N games between two bots, alternating who moves first,
// with a line per finished game and a summary per bot; with --sprt, played
// in colour-swapped pairs until the GSPRT decides (docs/ratings.md).

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arena/cli/bot_options.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/report.hpp"
#include "arena/cli/sprt_report.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/games/registry.hpp"
#include "arena/match/close_calls.hpp"
#include "arena/match/match.hpp"
#include "arena/match/opening.hpp"
#include "arena/match/startup_guard.hpp"
#include "arena/match/tally.hpp"
#include "arena/rating/head_to_head.hpp"
#include "arena/rating/pentanomial.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/record/escape.hpp"
#include "arena/session/cgroup.hpp"
#include "arena/session/command_line.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/openings.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;
using record::Termination;

constexpr std::string_view kMatchUsage = R"(usage: arena match --game GAME [options] BOT1 BOT2

Plays --games games between BOT1 and BOT2, alternating who moves first, and
prints one line per game and a summary per bot. Each BOT is one argument:
'[name=]command [args...]', split like a shell splits words (no shell runs).
A BOT that is one path ending in .so, '[name=]path/strategy.so', is a Tsinghua
course strategy library (protocol/TSINGHUA.md), played through arena-so-host;
it plays connect4 only, and is named after the file by default. --protocol
tsinghua-so (or --protocol1/--protocol2) says the same of any path.

Each bot starts in the current directory, and a relative command or argument
is taken from there; --dir D (both bots), --dir1 D or --dir2 D start it in D
instead, and then its command and arguments are taken from D.

With --db FILE the match is also stored in that results database as a
tournament of its own, so `arena show`, `games`, `log`, `export` and
`standings` work on it. Ctrl-C stops after the games played so far, prints
their summary and exits with status 130.

Each bot speaks the arena's protocol unless told otherwise: --protocol P sets
both bots' protocol, --protocol1 P and --protocol2 P set BOT1's and BOT2's
(overriding --protocol). P is arena1 (protocol/PROTOCOL.md), gomocup (a
Gomocup/Piskvork brain, gomoku only: protocol/GOMOCUP.md) or nboard (an
NBoard engine, reversi only: protocol/NBOARD.md).

With --sprt elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic] the
match is a sequential test of BOT1 against BOT2 (the GSPRT, docs/ratings.md):
H0 "BOT1 is E0 stronger" against H1 "BOT1 is E1 stronger", in normalized Elo
(model=normalized, the default) or Elo (model=logistic); alpha and beta
default to 0.05. Games come in colour-swapped pairs (the same board and
opening, each bot moving first once), and after each pair the log-likelihood
ratio of the pentanomial counts is compared with its bounds: the match stops
as soon as H0 or H1 is accepted, or after --games games (default with
--sprt: 20000, which must be even). Each game's line shows the LLR; every 16
pairs, and at the end, the head-to-head block is printed as `arena sprt`
prints it.

Openings: deterministic bots would replay the same game again and again, so
each colour-swapped pair starts from its own opening. By default that is an
opening of the game's balanced suite (configs/openings, docs/openings.md), in
an order shuffled by --seed, when one is shipped for the board: Connect-4
7x6, Gomoku 15x15 (freestyle and exact5) and Reversi 8x8. --openings FILE
takes them from another file, --openings none starts every game from the
empty board, and --random-plies N plays N random plies instead. Boards
without a suite start from the empty board, or from 4 random plies with
--sprt. $ARENA_OPENINGS_DIR, when set, is where the suites are looked for.

example:
  arena match --game connect4 --games 10 --move-ms 100 \
      build/bots/random 'other=build/bots/random --seed 7'
  arena match --game connect4 --move-ms 50 --sprt elo0=0,elo1=10 \
      build/bots/c4-alphabeta build/bots/random
  arena match --game gomoku --games 4 --move-ms 500 --protocol1 gomocup \
      engines/pbrain-embryo 'random=build/bots/random --game gomoku'

)";

struct MatchArgs {
    std::string game;
    games::Params params;  // game parameters, possibly a family (variant=tsinghua)
    int games = 2;
    match::TimeControl time;
    session::SessionOptions session;
    std::uint64_t seed = 1;
    int random_plies = 0;
    // The openings the pairs start from (an openings file, checked on the
    // board), shuffled by the seed; empty: random_plies.
    std::filesystem::path openings_file;
    std::vector<std::vector<games::Move>> openings;
    bool json = false;
    session::Isolation isolation;  // for both bots
    std::vector<session::BotSpec> bots;
    std::vector<std::string> commands;        // each bot argument as typed
    std::string db;                           // results database to store the match in; "" for none
    std::string name;                         // the stored tournament's name ("" for a default)
    std::vector<std::string> args;            // the whole command line, for the stored record
    std::optional<rating::SprtOptions> sprt;  // with --sprt: the test to run
};

// --games when --sprt is given without it, and --random-plies likewise.
constexpr int kSprtMaxGames = 20000;
constexpr int kSprtRandomPlies = 4;
// The head-to-head block is printed after every this many pairs.
constexpr std::int64_t kSprtReportPairs = 16;

// The openings of the pairs: --openings FILE or none, --random-plies N, or
// by default the game's shipped suite for the board (else, with --sprt, a
// few random plies). Throws std::invalid_argument naming the problem.
void choose_openings(MatchArgs& m, const std::string& openings, bool plies_given) {
    if (!openings.empty() && openings != "none" && plies_given) {
        throw std::invalid_argument(
            "give either --openings FILE or --random-plies, not both (the openings come from one "
            "or the other)");
    }
    if (openings == "none" || plies_given) return;
    std::filesystem::path file = openings;
    if (file.empty()) {
        const auto suite = tournament::default_suite(m.game, m.params);
        if (!suite) {
            if (m.sprt) m.random_plies = kSprtRandomPlies;
            return;
        }
        file = *suite;
    }
    tournament::OpeningsFile lines;
    try {
        lines = tournament::read_openings_file(file);
    } catch (const std::runtime_error& e) {
        throw std::invalid_argument(std::string("--openings: ") + e.what());
    }
    if (const std::string* variant = games::find_param(m.params, "variant");
        variant != nullptr && *variant != "standard") {
        throw std::invalid_argument("--openings needs one board, and --variant " + *variant +
                                    " draws a board per pair: use --random-plies");
    }
    const auto game = games::make_game(m.game, m.params);
    if (const auto problem = tournament::check_openings(*game, m.game, lines); !problem.empty())
        throw std::invalid_argument("--openings: openings file '" + file.string() + "' " + problem);
    m.openings_file = file;
    for (const auto& line : lines.lines) {
        auto state = game->new_initial_state();
        std::vector<games::Move> moves;
        for (const auto& text : line) {
            const auto move = state->parse_move(text);
            state->apply(*move);
            moves.push_back(*move);
        }
        m.openings.push_back(std::move(moves));
    }
}

// "elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic]" -> options.
// Throws std::invalid_argument naming the bad part.
rating::SprtOptions parse_sprt(const std::string& text) {
    rating::SprtOptions o;
    bool elo0 = false, elo1 = false, alpha = false, beta = false, model = false;
    const std::string expected =
        "(expected elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic])";
    std::istringstream in(text);
    std::vector<std::string> parts;
    for (std::string part; std::getline(in, part, ',');)
        parts.push_back(part);
    if (text.empty() || text.back() == ',') parts.emplace_back();
    for (const auto& part : parts) {
        const auto eq = part.find('=');
        if (part.empty()) throw std::invalid_argument("--sprt: an empty part " + expected);
        if (eq == std::string::npos) {
            throw std::invalid_argument("--sprt: '" + part + "' is not KEY=VALUE " + expected);
        }
        const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
        auto seen = [&](bool& flag) {
            if (flag) throw std::invalid_argument("--sprt: " + key + " is given twice");
            flag = true;
        };
        auto number = [&]() {
            std::size_t used = 0;
            double x = 0.0;
            try {
                x = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (value.empty() || used != value.size() || !std::isfinite(x)) {
                throw std::invalid_argument("--sprt: " + key + "='" + value +
                                            "' is not a finite number");
            }
            return x;
        };
        if (key == "elo0") {
            seen(elo0);
            o.elo0 = number();
        } else if (key == "elo1") {
            seen(elo1);
            o.elo1 = number();
        } else if (key == "alpha") {
            seen(alpha);
            o.alpha = number();
        } else if (key == "beta") {
            seen(beta);
            o.beta = number();
        } else if (key == "model") {
            seen(model);
            const auto parsed = rating::parse_sprt_model(value);
            if (!parsed) {
                throw std::invalid_argument("--sprt: model='" + value +
                                            "' is not a model (normalized or logistic)");
            }
            o.model = *parsed;
        } else {
            throw std::invalid_argument("--sprt: unknown key '" + key +
                                        "' (keys: elo0, elo1, alpha, beta, model)");
        }
    }
    if (!elo0) throw std::invalid_argument("--sprt: elo0 is missing " + expected);
    if (!elo1) throw std::invalid_argument("--sprt: elo1 is missing " + expected);
    if (const std::string problem = rating::sprt_options_problem(o); !problem.empty())
        throw std::invalid_argument("--sprt: " + problem);
    return o;
}

template <typename T>
void add_param(games::Params& params, const po::variables_map& vm, const char* option,
               const char* key) {
    if (vm.count(option)) {
        std::ostringstream text;
        text << vm[option].as<T>();
        params.emplace_back(key, text.str());
    }
}

// Parses the arguments; on a usage error prints it and returns nullopt
// with `exit_code` set.
std::optional<MatchArgs> parse_args(const std::vector<std::string>& args, std::ostream& out,
                                    std::ostream& err, int& exit_code) {
    po::options_description opts("options");
    std::int64_t move_ms = 3000, tolerance_ms = match::kDefaultTolerance.count(), game_ms = 0,
                 inc_ms = 0;
    MatchArgs m;
    BotRunOptions run_options;
    std::array<std::string, 3> protocols;  // --protocol, --protocol1, --protocol2
    std::array<std::string, 3> dirs;       // --dir, --dir1, --dir2
    std::string sprt_text;
    std::string openings_text;
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("game", po::value<std::string>(&m.game)->required(), "connect4, gomoku or reversi")
        ("rows", po::value<int>(), "connect4: rows (4..16, default 6)")
        ("cols", po::value<int>(), "connect4: columns (4..16, default 7)")
        ("connect", po::value<int>(), "connect4: stones in a row to win (default 4)")
        ("blocked", po::value<std::string>(), "connect4: blocked cells, e.g. 4:1,2:3 (col:row, 1-based)")
        ("variant", po::value<std::string>(), "connect4: 'tsinghua' (9..12 x 9..12, one blocked cell, drawn per game pair)")
        ("size", po::value<int>(), "gomoku: board size (default 15)")
        ("rule", po::value<std::string>(), "gomoku: freestyle (default) or exact5")
        ("games", bounded_integer("games", 1, tournament::bounds::kMaxGames, &m.games), "number of games (with --sprt: the most, default 20000)")
        ("sprt", po::value<std::string>(&sprt_text), "elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]: play colour-swapped pairs until the GSPRT accepts H0 or H1")
        ("move-ms", bounded_integer("move-ms", 0, tournament::bounds::kMaxMillis, &move_ms), "time per move in ms")
        ("tolerance-ms", bounded_integer("tolerance-ms", 0, tournament::bounds::kMaxMillis, &tolerance_ms), "extra time before a move is lost on time")
        ("game-ms", bounded_integer("game-ms", 0, tournament::bounds::kMaxMillis, &game_ms), "game clock per player in ms (0: none)")
        ("inc-ms", bounded_integer("inc-ms", 0, tournament::bounds::kMaxMillis, &inc_ms), "increment per move in ms (with --game-ms)");
    run_options.add_startup_options(opts);
    opts.add_options()
        ("seed", po::value<std::uint64_t>(&m.seed)->default_value(1), "seed for boards and openings")
        ("openings", po::value<std::string>(&openings_text), "FILE: start each colour-swapped pair from an opening of this file; none: from the empty board (default: the game's balanced suite, when one is shipped for the board)")
        ("random-plies", bounded_integer("random-plies", 0, tournament::bounds::kMaxPlies, &m.random_plies), "random opening plies instead of a suite, shared by each colour-swapped pair")
        ("json", po::bool_switch(&m.json), "print the summary as one JSON object on stdout")
        ("db", po::value<std::string>(&m.db), "also store the match in this results database")
        ("transcript", po::bool_switch(&m.session.transcript), "with --db: also store every line between the arena and the bots (arena log --transcript)")
        ("name", po::value<std::string>(&m.name), "the stored tournament's name, with --db (default: BOT1-vs-BOT2)")
        ("dir", po::value<std::string>(&dirs[0]), "directory both bots start in, from which their commands are taken (default: the current one)")
        ("dir1", po::value<std::string>(&dirs[1]), "directory BOT1 starts in (overrides --dir)")
        ("dir2", po::value<std::string>(&dirs[2]), "directory BOT2 starts in (overrides --dir)")
        ("protocol", po::value<std::string>(&protocols[0])->default_value("arena1"), "the protocol both bots speak: arena1, gomocup, nboard or tsinghua-so")
        ("protocol1", po::value<std::string>(&protocols[1]), "the protocol BOT1 speaks (overrides --protocol)")
        ("protocol2", po::value<std::string>(&protocols[2]), "the protocol BOT2 speaks (overrides --protocol)");
    // clang-format on
    run_options.add_limit_options(opts);
    po::options_description hidden;
    hidden.add_options()("bot", po::value<std::vector<std::string>>(), "bot");
    po::options_description all;
    all.add(opts).add(hidden);
    po::positional_options_description positional;
    positional.add("bot", -1);

    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
        if (vm.count("help")) {
            out << kMatchUsage << opts;
            exit_code = kExitOk;
            return std::nullopt;
        }
        po::notify(vm);
        const auto bots =
            vm.count("bot") ? vm["bot"].as<std::vector<std::string>>() : std::vector<std::string>{};
        if (bots.size() != 2)
            throw std::invalid_argument("expected two bots, got " + std::to_string(bots.size()));
        for (const auto& b : bots)
            m.bots.push_back(parse_bot_argument(b));
        m.commands = bots;
        m.args = args;
        for (std::size_t i = 0; i < 2; ++i) {
            const std::string& dir = dirs[i + 1].empty() ? dirs[0] : dirs[i + 1];
            if (dir.empty()) continue;
            std::error_code ec;
            if (!std::filesystem::is_directory(dir, ec)) {
                throw std::invalid_argument(
                    "--dir" + std::string(dirs[i + 1].empty() ? "" : std::to_string(i + 1)) + " '" +
                    dir + "' is not a directory");
            }
            m.bots[i].working_dir = dir;
        }
        if (!m.name.empty() && m.db.empty()) throw std::invalid_argument("--name needs --db");
        if (m.session.transcript && m.db.empty())
            throw std::invalid_argument("--transcript needs --db (the transcript is stored there)");
        if (m.bots[0].name == m.bots[1].name) {
            m.bots[0].name += "-1";
            m.bots[1].name += "-2";
        }
        if (vm.count("sprt")) {
            m.sprt = parse_sprt(sprt_text);
            if (vm["games"].defaulted()) m.games = kSprtMaxGames;
            if (m.games < 2 || m.games % 2 != 0) {
                throw std::invalid_argument(
                    "--games must be an even number of at least 2 with --sprt (the games come in "
                    "colour-swapped pairs)");
            }
        }
        if (m.games < 1) throw std::invalid_argument("--games must be at least 1");
        if (m.random_plies < 0) throw std::invalid_argument("--random-plies must not be negative");
        m.time.move = match::Millis{move_ms};
        m.time.tolerance = match::Millis{tolerance_ms};
        m.time.game = match::Millis{game_ms};
        m.time.increment = match::Millis{inc_ms};
        if (auto problem = m.time.validate(); !problem.empty())
            throw std::invalid_argument(problem);
        run_options.apply(m.isolation, m.session);
        for (auto& bot : m.bots)
            bot.isolation = m.isolation;
        for (std::size_t i = 0; i < 2; ++i)
            set_bot_protocol(m.bots[i], protocols[i + 1].empty() ? protocols[0] : protocols[i + 1]);

        add_param<std::string>(m.params, vm, "variant", "variant");
        add_param<int>(m.params, vm, "rows", "rows");
        add_param<int>(m.params, vm, "cols", "cols");
        add_param<int>(m.params, vm, "connect", "connect");
        add_param<std::string>(m.params, vm, "blocked", "blocked");
        add_param<int>(m.params, vm, "size", "size");
        add_param<std::string>(m.params, vm, "rule", "rule");
        // Validate the game now, before any bot starts.
        (void)games::make_game(m.game, games::realize(m.game, m.params, m.seed));
        choose_openings(m, openings_text, !vm["random-plies"].defaulted());
        for (const auto& bot : m.bots) {
            const auto problem = session::protocol_problem(bot.protocol, m.game, m.params);
            if (!problem.empty()) throw std::invalid_argument("bot '" + bot.name + "': " + problem);
        }
        for (const auto& bot : m.bots) {
            if (std::filesystem::path(bot.argv.front()).filename() != tournament::kSoHostName)
                continue;
            const std::string problem = tournament::tsinghua_game_problem(m.game, m.params);
            if (!problem.empty()) throw std::invalid_argument("bot '" + bot.name + "': " + problem);
        }
    } catch (const std::exception& e) {
        err << "arena match: " << record::escape_controls(usage_problem(e, opts))
            << "\n(arena match --help for usage)\n";
        exit_code = kExitUsage;
        return std::nullopt;
    }
    return m;
}

std::string seconds(std::chrono::microseconds us) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << static_cast<double>(us.count()) / 1e6 << " s";
    return s.str();
}

// One line per finished game, flushed at once: a match interrupted, or
// piped into a file, keeps every line of the games it played.
void print_game(std::ostream& out, int index, int total, std::int64_t stored_id,
                const record::GameRecord& g, const std::string& suffix) {
    // A stored game is numbered by its id (what `arena games` lists and
    // `show` and `log` take), the count after it being progress; an unstored
    // one by its place in the match.
    if (stored_id > 0) {
        out << "game #" << stored_id << " (" << index << "/" << total << " stored)";
    } else {
        out << "game " << index << "/" << total;
    }
    out << ": " << record::escape_controls(g.players[0]) << " vs "
        << record::escape_controls(g.players[1]) << "  " << record::score_text(g.outcome) << "  "
        << record::to_string(g.termination) << "  " << g.moves.size() << " plies  "
        << seconds(g.duration);
    if (!g.detail.empty()) {
        // The detail and stderr tails quote what the bot sent.
        out << "  (" << record::escape_controls(g.detail);
        if (g.fault_after.count() > 0)
            out << "; verdict " << std::fixed << std::setprecision(1)
                << static_cast<double>(g.fault_after.count()) / 1000.0 << " ms after go";
        const std::string fault = record::fault_description(g);
        if (fault.size() > g.detail.size())
            out << record::escape_controls(std::string_view(fault).substr(g.detail.size()));
        out << ")";
    }
    out << suffix << std::endl;
}

// A YAML string: JSON's double-quoted form is one.
std::string yaml_string(const std::string& text) {
    return nlohmann::json(text).dump();
}

// The config of a tournament that describes the match, for the stored record
// (preceded by the command line as a comment).
std::string match_config_text(const MatchArgs& m, const std::string& name) {
    std::ostringstream y;
    y << "# arena match";
    for (const auto& a : m.args) {
        std::string shown = a;
        for (char& c : shown)
            if (c == '\n' || c == '\r') c = ' ';
        y << " "
          << (shown.find_first_of(" \t'\"") == std::string::npos ? shown : yaml_string(shown));
    }
    y << "\nname: " << yaml_string(name) << "\ngame: { name: " << m.game;
    for (const auto& [k, v] : m.params)
        y << ", " << k << ": " << yaml_string(v);
    y << " }\ntime: { move_ms: " << m.time.move.count()
      << ", tolerance_ms: " << m.time.tolerance.count();
    if (m.time.game.count() > 0)
        y << ", game_ms: " << m.time.game.count() << ", inc_ms: " << m.time.increment.count();
    y << ", startup_ms: " << m.session.startup_limit.count() << " }\n"
      << "schedule: { type: round-robin, games_per_pair: " << m.games << " }\n"
      << "openings: { ";
    if (m.openings.empty()) {
        y << "random_plies: " << m.random_plies;
    } else {
        y << "file: " << yaml_string(std::filesystem::absolute(m.openings_file).string())
          << ", order: random";
    }
    y << " }\n"
      << "seed: " << m.seed << "\nbots:\n";
    for (const auto& b : m.bots) {
        std::string command;
        for (const auto& w : b.argv)
            command += (command.empty() ? "" : " ") + w;
        y << "  - { name: " << yaml_string(b.name) << ", command: " << yaml_string(command)
          << ", protocol: " << session::to_string(b.protocol);
        if (tournament::runs_so_host(b.argv)) y << ", restart: per-game";
        if (!b.working_dir.empty()) y << ", dir: " << yaml_string(b.working_dir.string());
        y << " }\n";
    }
    return y.str();
}

// The session options of bot `i`: under the sandbox it must not see the
// other bot's folder and program files, nor the database.
session::SessionOptions sandboxed_options(const MatchArgs& m, int i) {
    session::SessionOptions options = m.session;
    if (!m.bots[i].isolation.sandbox) return options;
    const auto& own = m.bots[i];
    const auto& other = m.bots[1 - i];
    const auto mine = tournament::program_files(own.argv, own.working_dir);
    const auto theirs = tournament::program_files(other.argv, other.working_dir);
    const auto hide = [&](const std::filesystem::path& path) {
        if (path.empty() || path == mine.executable) return;
        if (std::find(mine.files.begin(), mine.files.end(), path) != mine.files.end()) return;
        options.sandbox_hidden.push_back(std::filesystem::absolute(path));
    };
    if (!m.db.empty()) hide(m.db);
    if (other.working_dir != own.working_dir) hide(other.working_dir);
    hide(theirs.executable);
    for (const auto& file : theirs.files)
        hide(file);
    return options;
}

// The match as a tournament of its own in a results database: created
// before the first game, each game stored the moment it ends.
class StoredMatch {
  public:
    StoredMatch(const MatchArgs& m) : store_(m.db) {
        std::string name = m.name.empty() ? m.bots[0].name + "-vs-" + m.bots[1].name : m.name;
        if (store_.find_tournament(name)) {
            if (!m.name.empty()) {
                throw store::StoreError(m.db + " already holds a tournament named '" + name +
                                        "' (choose another --name)");
            }
            const std::string base = name;
            for (int n = 2; store_.find_tournament(name); ++n)
                name = base + "-" + std::to_string(n);
        }
        const std::string text = match_config_text(m, name);
        std::vector<store::BotEntry> bots;
        for (std::size_t i = 0; i < 2; ++i) {
            const auto& b = m.bots[i];
            bots.push_back(
                {b.name, m.commands[i], std::string(session::to_string(b.protocol)),
                 tournament::program_sha256(tournament::program_files(b.argv, b.working_dir))});
        }
        id_ = store_.create_tournament({name, m.game, text, tournament::sha256_text(text), m.seed,
                                        static_cast<std::int64_t>(m.games)},
                                       bots);
        store_.set_status(id_, "running");
        name_ = name;
    }

    std::int64_t record(int index, const std::string& opening, const record::GameRecord& g) {
        return store_.record_game(id_, {index, 0, index / 2, index % 2, opening}, g);
    }
    void finish(bool complete) { store_.set_status(id_, complete ? "finished" : "interrupted"); }
    [[nodiscard]] const std::string& name() const { return name_; }

  private:
    store::ResultsStore store_;
    std::int64_t id_ = 0;
    std::string name_;
};

void print_summary(std::ostream& out, const match::Tally& tally) {
    std::size_t width = 4;
    for (const auto& b : tally.bots())
        width = std::max(width, record::escape_controls(b.name).size());
    out << "\n"
        << std::left << std::setw(static_cast<int>(width)) << "bot" << std::right
        << "  games   wins  draws losses   score";
    for (auto t : record::kAllTerminations)
        if (t != Termination::kNormal) out << std::setw(9) << record::to_string(t);
    out << "\n";
    for (const auto& b : tally.bots()) {
        out << std::left << std::setw(static_cast<int>(width)) << record::escape_controls(b.name)
            << std::right << std::setw(7) << b.games() << std::setw(7) << b.wins << std::setw(7)
            << b.draws << std::setw(7) << b.losses << std::setw(7) << std::fixed
            << std::setprecision(1) << 100.0 * b.score() << "%";
        for (auto t : record::kAllTerminations)
            if (t != Termination::kNormal) out << std::setw(9) << b.lost(t);
        out << "\n";
    }
}

// The GSPRT of a match played with --sprt, from BOT1's side: counts each
// colour-swapped pair (games 2k and 2k + 1, BOT1 first in the first) once
// both its games are done, and tests after every pair.
class LiveSprt {
  public:
    explicit LiveSprt(const rating::SprtOptions& options) : options_(options) {
        result_.lower = std::log(options.beta / (1.0 - options.alpha));
        result_.upper = std::log((1.0 - options.beta) / options.alpha);
    }

    // Game `index` (0-based) of the match has ended; true when it completed
    // a pair.
    bool add(int index, const record::GameRecord& g) {
        const int bot1_player = index % 2 == 0 ? 1 : 2;
        const int winner = g.winner();
        const double score = winner == games::kNoPlayer ? 0.5 : winner == bot1_player ? 1.0 : 0.0;
        if (score == 1.0) {
            ++games_.wins;
        } else if (score == 0.0) {
            ++games_.losses;
        } else {
            ++games_.draws;
        }
        if (index % 2 == 0) {
            first_score_ = score;
            return false;
        }
        ++pairs_.bins[static_cast<std::size_t>(std::lround(2.0 * (first_score_ + score)))];
        paired_ = games_;
        result_ = rating::sprt(pairs_, options_);
        return true;
    }

    [[nodiscard]] bool decided() const {
        return result_.decision != rating::SprtDecision::continue_testing;
    }
    [[nodiscard]] std::int64_t pairs() const { return pairs_.pairs(); }

    // "  LLR 1.23 (-2.94, 2.94)", for the line of each game.
    [[nodiscard]] std::string live_text() const {
        return "  LLR " + fixed_decimals(result_.llr, 2) + " (" + fixed_decimals(result_.lower, 2) +
               ", " + fixed_decimals(result_.upper, 2) + ")";
    }

    // The head-to-head block of the complete pairs, and the LLR line.
    void print_block(std::ostream& out, const std::string& bot1, const std::string& bot2) const {
        print_sprt_block(out, bot1, bot2, options_, result_, pairs_, paired_);
    }

    // The decision, or why there is none.
    void print_decision(std::ostream& out, std::int64_t games, int max_games,
                        bool stopped_early) const {
        std::string undecided = "SPRT: no decision after " + std::to_string(games) + " games";
        if (!stopped_early && games >= max_games) undecided += " (the most --games allows)";
        print_sprt_decision(out, result_.decision, undecided);
    }

    [[nodiscard]] nlohmann::json json() const {
        if (pairs() == 0) {
            return {{"model", std::string(sprt_model_name(options_.model))},
                    {"elo0", options_.elo0},
                    {"elo1", options_.elo1},
                    {"alpha", options_.alpha},
                    {"beta", options_.beta},
                    {"llr", result_.llr},
                    {"lower", result_.lower},
                    {"upper", result_.upper},
                    {"decision", std::string(rating::decision_name(result_.decision))},
                    {"pairs", 0},
                    {"games", 0}};
        }
        return sprt_json(options_, result_, rating::head_to_head(pairs_), paired_, pairs_);
    }

  private:
    rating::SprtOptions options_;
    rating::SprtResult result_;
    rating::Pentanomial pairs_;
    rating::Trinomial games_;   // every game counted, from BOT1's side
    rating::Trinomial paired_;  // those of complete pairs
    double first_score_ = 0.0;  // BOT1's score in the first game of the pair under way
};

nlohmann::json summary_json(const MatchArgs& m, const match::Tally& tally) {
    nlohmann::json bots = nlohmann::json::array();
    for (const auto& b : tally.bots()) {
        nlohmann::json j{{"name", b.name},   {"games", b.games()}, {"wins", b.wins},
                         {"draws", b.draws}, {"losses", b.losses}, {"score", b.score()}};
        for (auto t : record::kAllTerminations)
            if (t != Termination::kNormal) j[std::string(record::to_string(t))] = b.lost(t);
        bots.push_back(std::move(j));
    }
    return {{"game", m.game}, {"games", tally.games()}, {"bots", std::move(bots)}};
}

}  // namespace

int match_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    int exit_code = kExitOk;
    const auto parsed = parse_args(args, out, err, exit_code);
    if (!parsed) return exit_code;
    const MatchArgs& m = *parsed;
    err << session::cgroup::describe_limits(m.isolation.cgroup) << "\n";

    std::optional<StoredMatch> stored;
    if (!m.db.empty()) {
        try {
            stored.emplace(m);
        } catch (const std::exception& e) {
            err << "arena match: " << e.what() << "\n";
            return kExitFailure;
        }
    }
    match::StartupGuard guard;
    guard.set_notice([&err](const std::string& line) { err << "arena match: " << line << "\n"; });
    match::Player a(m.bots[0], sandboxed_options(m, 0));
    match::Player b(m.bots[1], sandboxed_options(m, 1));
    a.set_startup_guard(&guard);
    b.set_startup_guard(&guard);
    match::Tally tally({a.name(), b.name()});
    match::CloseCallCounter close_calls(m.time);
    // With --json, stdout holds the JSON object only; game lines go to stderr.
    std::ostream& progress = m.json ? err : out;
    std::optional<LiveSprt> sprt;
    if (m.sprt) sprt.emplace(*m.sprt);
    bool interrupted = false;
    std::string failure;  // what stopped the match early, for the last line
    {
        StopOnSignal signals;
        try {
            std::unique_ptr<games::Game> game;
            std::vector<games::Move> opening;
            // The suite's openings in the order of `order: random` in a config.
            tournament::Config order_of;
            order_of.seed = m.seed;
            order_of.openings.order = tournament::OpeningOrder::kRandom;
            order_of.openings.lines.resize(m.openings.size());
            const auto opening_order = tournament::opening_order(order_of);
            for (int i = 0; i < m.games; ++i) {
                if (signals.stopped()) {
                    interrupted = true;
                    break;
                }
                const auto pair = static_cast<std::uint64_t>(i / 2);
                if (i % 2 == 0) {
                    // Each colour-swapped pair shares its board and its opening.
                    const auto pair_seed = match::derive_seed(m.seed, pair);
                    game = games::make_game(
                        m.game, games::realize(m.game, m.params, match::derive_seed(pair_seed, 0)));
                    opening = m.openings.empty()
                                  ? match::random_opening(*game, m.random_plies,
                                                          match::derive_seed(pair_seed, 1))
                                  : m.openings[opening_order[pair % opening_order.size()]];
                }
                auto record = i % 2 == 0
                                  ? match::play_game(*game, a, b, m.time, opening, signals.token())
                                  : match::play_game(*game, b, a, m.time, opening, signals.token());
                if (record.abandoned) {
                    interrupted = true;
                    break;
                }
                tally.add(record);
                close_calls.add(record);
                const std::int64_t id =
                    stored ? stored->record(i, match::opening_text(*game, opening), record) : 0;
                const bool pair_done = sprt && sprt->add(i, record);
                print_game(progress, i + 1, m.games, id, record, sprt ? sprt->live_text() : "");
                if (pair_done && !sprt->decided() && sprt->pairs() % kSprtReportPairs == 0) {
                    sprt->print_block(progress, a.name(), b.name());
                    progress << std::flush;
                }
                // A strategy library is loaded afresh for every game.
                for (match::Player* p : {&a, &b})
                    if (tournament::runs_so_host(p->spec().argv)) p->retire();
                // A bot that keeps failing to start is not started for every game.
                if (const auto bots = guard.given_up_bots(); !bots.empty()) {
                    failure = bots.front().describe() + ", so the match stopped after " +
                              std::to_string(i + 1) + " of " + std::to_string(m.games) +
                              " games: fix it and run it again";
                    break;
                }
                if (pair_done && sprt->decided()) break;
            }
        } catch (const session::SpawnError& e) {
            failure = e.what();
        } catch (const std::exception& e) {
            failure = e.what();  // the database failed
        }
    }
    a.retire();
    b.retire();
    const bool stopped_early = interrupted || !failure.empty();
    if (m.json) {
        auto j = summary_json(m, tally);
        if (sprt) {
            j["sprt"] = sprt->json();
            j["max_games"] = m.games;
        }
        out << j.dump() << std::endl;
    } else {
        print_summary(out, tally);
        if (sprt) {
            out << "\n";
            sprt->print_block(out, a.name(), b.name());
            sprt->print_decision(out, tally.games(), m.games, stopped_early);
        }
        out << std::flush;
    }
    for (const auto& [bot, count] : close_calls.warnings())
        err << match::close_call_warning(bot, count, "let it stop earlier, or raise --tolerance-ms")
            << "\n";
    const bool complete = !interrupted && failure.empty();
    if (stored) {
        try {
            stored->finish(complete);
            err << "arena match: stored as tournament '" << stored->name() << "' in " << m.db
                << "\n";
        } catch (const std::exception& e) {
            if (failure.empty()) failure = e.what();
        }
    }
    if (!failure.empty()) {
        err << "arena match: " << record::escape_controls(failure) << "\n";
        return kExitFailure;
    }
    if (interrupted) {
        err << "arena match: interrupted after " << tally.games() << " of " << m.games
            << " games\n";
        return 130;
    }
    return kExitOk;
}

}  // namespace arena::cli
