#include "arena/tournament/match_config.hpp"

#include <stdexcept>
#include <system_error>
#include <utility>

#include "arena/games/registry.hpp"
#include "arena/rating/sprt_input.hpp"
#include "arena/session/bot_protocol.hpp"
#include "arena/session/command_line.hpp"
#include "arena/tournament/bot_argument.hpp"
#include "arena/tournament/openings.hpp"
#include "arena/tournament/program_files.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::tournament {
namespace {

// The random plies of a match with an SPRT on a board without a suite.
constexpr int kSprtRandomPlies = 4;

// Each side's own time control and search limits from its side options.
void apply_side_values(MatchSettings& m) {
    for (std::size_t i = 0; i < 2; ++i) {
        match::TimeControl time = m.time;
        bool timed = false;
        for (const auto& [stem, value] : m.side_values[i]) {
            const match::Millis ms{value};
            timed = timed || stem.ends_with("-ms");
            if (stem == "move-ms") time.move = ms;
            if (stem == "tolerance-ms") time.tolerance = ms;
            if (stem == "game-ms") time.game = ms;
            if (stem == "inc-ms") time.increment = ms;
            if (stem == "depth") m.limits[i].depth = value;
            if (stem == "nodes") m.limits[i].nodes = value;
        }
        if (!timed) continue;
        if (auto problem = time.validate(); !problem.empty()) {
            throw std::invalid_argument("BOT" + std::to_string(i + 1) + "'s time (--move-ms" +
                                        std::to_string(i + 1) + ", ...): " + problem);
        }
        m.side_time[i] = time;
    }
}

}  // namespace

std::string side_option_help(const SideOption& option, int side) {
    std::string help(option.help);
    help.replace(help.find("BOT"), 3, "BOT" + std::to_string(side));
    return help;
}

void set_side_option(MatchSettings& m, std::string_view stem, int side, std::int64_t value) {
    m.side_values.at(static_cast<std::size_t>(side - 1)).emplace_back(std::string(stem), value);
}

void check_match_settings(MatchSettings& m, const std::optional<std::string>& sprt,
                          bool games_defaulted) {
    if (!m.name.empty() && m.db.empty()) throw std::invalid_argument("--name needs --db");
    if (m.session.transcript && m.db.empty())
        throw std::invalid_argument("--transcript needs --db (the transcript is stored there)");
    if (sprt) {
        m.sprt = rating::parse_sprt_options(*sprt, "--sprt");
        if (games_defaulted) m.games = kSprtMaxGames;
        if (m.games < 2 || m.games % 2 != 0) {
            throw std::invalid_argument(
                "--games must be an even number of at least 2 with --sprt (the games come in "
                "colour-swapped pairs)");
        }
    }
    if (m.games < 1) throw std::invalid_argument("--games must be at least 1");
    if (m.random_plies < 0) throw std::invalid_argument("--random-plies must not be negative");
    if (auto problem = m.time.validate(); !problem.empty()) throw std::invalid_argument(problem);
    apply_side_values(m);
}

void read_match_bots(MatchSettings& m, const std::vector<std::string>& bots,
                     const std::array<std::string, 3>& dirs) {
    if (bots.size() != 2)
        throw std::invalid_argument("expected two bots, got " + std::to_string(bots.size()));
    for (const auto& b : bots)
        m.bots.push_back(parse_bot_argument(b));
    m.commands = bots;
    place_bots(m, dirs);
}

void place_bots(MatchSettings& m, const std::array<std::string, 3>& dirs) {
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
    if (m.bots[0].name == m.bots[1].name) {
        m.bots[0].name += "-1";
        m.bots[1].name += "-2";
    }
}

void set_match_protocols(MatchSettings& m, const std::array<std::string, 3>& protocols) {
    for (std::size_t i = 0; i < 2; ++i)
        set_bot_protocol(m.bots[i], protocols[i + 1].empty() ? protocols[0] : protocols[i + 1]);
}

void choose_openings(MatchSettings& m, const std::string& openings, bool plies_given) {
    if (!openings.empty() && openings != "none" && plies_given) {
        throw std::invalid_argument(
            "give either --openings FILE or --random-plies, not both (the openings come from one "
            "or the other)");
    }
    if (openings == "none" || plies_given) return;
    std::filesystem::path file = openings;
    if (file.empty()) {
        const auto suite = default_suite(m.game, m.params);
        if (!suite) {
            if (m.sprt) m.random_plies = kSprtRandomPlies;
            return;
        }
        file = *suite;
    }
    OpeningsFile lines;
    try {
        lines = read_openings_file(file);
    } catch (const std::runtime_error& e) {
        throw std::invalid_argument(std::string("--openings: ") + e.what());
    }
    if (const std::string* variant = games::find_param(m.params, "variant");
        variant != nullptr && *variant != "standard") {
        throw std::invalid_argument("--openings needs one board, and --variant " + *variant +
                                    " draws a board per pair: use --random-plies");
    }
    const auto game = games::make_game(m.game, m.params);
    if (const auto problem = check_openings(*game, m.game, lines); !problem.empty())
        throw std::invalid_argument("--openings: openings file '" + file.string() + "' " + problem);
    m.openings_file = file;
    m.openings = std::move(lines.lines);
}

void check_match_game(MatchSettings& m, const std::string& openings, bool plies_given) {
    // Validate the game now, before any bot starts.
    (void)games::make_game(m.game, games::realize(m.game, m.params, m.seed));
    choose_openings(m, openings, plies_given);
    for (const auto& bot : m.bots)
        check_bot_game(bot, m.game, m.params);
}

Config match_config(const MatchSettings& m) {
    Config c;
    c.game = m.game;
    c.game_params = m.params;
    c.time = m.time;
    c.startup_ms = m.session.startup_limit.count();
    c.realtime_deadlines = m.session.realtime_deadlines;
    c.transcript = m.session.transcript;
    c.count_repeats = m.count_repeats;
    c.games_per_pair = m.games + m.games % 2;  // played: the first m.games
    if (m.sprt) {
        c.schedule = ScheduleType::kGauntlet;
        c.challenger = m.bots[0].name;
        c.sprt = m.sprt;
    }
    if (m.openings.empty()) {
        c.openings.random_plies = m.random_plies;
    } else {
        c.openings.file = m.openings_file;
        c.openings.lines = m.openings;
        c.openings.order = OpeningOrder::kRandom;
    }
    c.seed = m.seed;
    c.concurrency = 1;
    c.database = m.db;  // hidden from sandboxed bots
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& spec = m.bots[i];
        BotConfig b;
        b.name = spec.name;
        b.command = m.commands[i];
        b.argv = spec.argv;
        b.protocol = std::string(session::to_string(spec.protocol));
        const auto program = program_files(spec.argv, spec.working_dir);
        b.executable = program.executable;
        b.files = program.files;
        b.isolation = spec.isolation;
        b.max_line_bytes = m.session.max_line_bytes;
        b.dir = spec.working_dir;
        // A strategy library is loaded afresh for every game.
        b.restart_each_game = runs_so_host(spec.argv);
        b.time = m.side_time[i];
        b.limits = m.limits[i];
        c.bots.push_back(std::move(b));
    }
    return c;
}

std::string command_comment(const std::vector<std::string>& args) {
    std::string line = "arena match";
    for (const auto& a : args) {
        std::string shown = a;
        for (char& ch : shown)
            if (ch == '\n' || ch == '\r') ch = ' ';
        line += " " + session::join_command({shown});
    }
    return line;
}

}  // namespace arena::tournament
