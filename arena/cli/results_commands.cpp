// Commands that read a results database: `standings`, `games`, `show`.

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/cli/options.hpp"
#include "arena/games/registry.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/suggest.hpp"
#include "arena/report/anchors.hpp"
#include "arena/report/head_to_head_text.hpp"
#include "arena/report/text_standings.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/stored_settings.hpp"
#include "protocol/codec.hpp"

namespace arena::cli {

namespace po = boost::program_options;

namespace {

// A game id as the user typed it: a positive whole number, else nullopt.
std::optional<std::int64_t> parse_game_id(const std::string& text) {
    std::int64_t id = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, id);
    if (text.empty() || text.front() == '-' || ec != std::errc() || ptr != end || id < 1)
        return std::nullopt;
    return id;
}

std::string bad_game_id(const std::string& text) {
    return "GAME must be a game id (a positive whole number), got '" +
           record::escape_controls(text) + "'";
}

}  // namespace

std::optional<int> parse_db_args(const std::string& command, std::string_view usage,
                                 const std::vector<std::string>& args, po::options_description opts,
                                 bool wants_game_id, DbArgs& parsed, std::ostream& out,
                                 std::ostream& err) {
    std::string game;
    CommandLine line{command, usage, opts};
    line.arguments.add_options()("db", po::value<std::string>(&parsed.db))(
        "game", po::value<std::string>(&game));
    line.positional.add("db", 1);
    if (wants_game_id) line.positional.add("game", 1);
    line.explain = [&](const std::exception& e) {
        // "-5" is a negative number where GAME goes, not an option.
        if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&e)) {
            const std::string typed = unknown->get_option_name();
            const bool negative =
                typed.size() > 1 && typed.find_first_not_of("0123456789", 1) == std::string::npos;
            if (wants_game_id && negative) return bad_game_id(typed);
        }
        return usage_problem(e, opts);
    };
    const auto done = parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
        if (parsed.db.empty()) throw std::invalid_argument("missing DB");
        if (wants_game_id) {
            if (!vm.count("game")) throw std::invalid_argument("missing GAME");
            const auto id = parse_game_id(game);
            if (!id) throw std::invalid_argument(bad_game_id(game));
            parsed.game_id = *id;
        }
        if (vm.count("tournament")) parsed.tournament = vm["tournament"].as<std::string>();
        if (vm.count("bot")) parsed.bot = vm["bot"].as<std::string>();
    });
    if (done) return done;
    // Opening would create a missing file: a typo must not become an empty database.
    std::error_code ec;
    if (!std::filesystem::exists(parsed.db, ec)) {
        err << "arena " << command << ": " << parsed.db << ": no such file\n";
        return kExitUsage;
    }
    return std::nullopt;
}

std::optional<int> parse_file_args(const std::string& command, std::string_view usage,
                                   const std::vector<std::string>& args,
                                   po::options_description opts, std::size_t least,
                                   const std::string& missing, std::vector<std::string>& files,
                                   std::ostream& out, std::ostream& err) {
    CommandLine line{command, usage, opts};
    line.arguments.add_options()("files", po::value<std::vector<std::string>>(&files));
    line.positional.add("files", -1);
    return parse_command_line(line, args, out, err, [&](const po::variables_map&) {
        if (files.size() < least) throw std::invalid_argument(missing);
    });
}

namespace {

// The named tournament, or the only one in the database; nullopt after
// saying why there is none to pick.
std::optional<store::TournamentRow> pick_tournament(store::ResultsStore& store,
                                                    const std::optional<std::string>& name,
                                                    const std::string& command,
                                                    const std::string& db, std::ostream& err) {
    if (name) {
        auto t = store.find_tournament(*name);
        if (!t) err << "arena " << command << ": no tournament '" << *name << "' in " << db << "\n";
        return t;
    }
    auto all = store.tournaments();
    if (all.size() == 1) return all.front();
    if (all.empty()) {
        err << "arena " << command << ": no tournament in " << db << "\n";
    } else {
        err << "arena " << command << ": " << db << " holds " << all.size()
            << " tournaments; choose one with --tournament:";
        for (const auto& t : all)
            err << " " << t.spec.name;
        err << "\n";
    }
    return std::nullopt;
}

// False, after saying so, when `bot` is not one of the tournament's bots: a
// misspelt name must not look like a bot without games.
bool check_bot(store::ResultsStore& store, const store::TournamentRow& t, const std::string& bot,
               const std::string& command, const std::string& db, std::ostream& err) {
    for (const auto& b : store.bots(t.id))
        if (b.name == bot) return true;
    err << "arena " << command << ": tournament '" << t.spec.name << "' in " << db
        << " has no bot '" << bot << "'\n";
    return false;
}

// Throws, suggesting the closest kind, when `kind` is not a way a game ends.
void check_termination(const std::string& kind) {
    std::vector<std::string_view> kinds;
    for (const auto t : record::kAllTerminations)
        kinds.push_back(record::to_string(t));
    if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return;
    std::string list;
    for (const auto k : kinds)
        list += (list.empty() ? "" : ", ") + std::string(k);
    throw std::invalid_argument("--termination: unknown ending '" + record::escape_controls(kind) +
                                "'" + record::suggestion(kind, kinds) + "; endings: " + list);
}

po::options_description tournament_option() {
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help")(
        "tournament,t", po::value<std::string>(),
        "tournament name (needed when the database holds several)");
    return opts;
}

}  // namespace

namespace {

// The standings' anchors: --anchor's, else the `anchors:` of the
// tournament's stored config (`settings`); nullopt after saying why they
// cannot be used.
std::optional<std::vector<rating::Anchor>> standings_anchors(
    store::ResultsStore& store, const store::TournamentRow& t,
    const std::optional<std::vector<rating::Anchor>>& given,
    const tournament::StoredSettings& settings, const std::string& db, std::ostream& err) {
    std::vector<rating::Anchor> anchors;
    if (given) {
        anchors = *given;
    } else {
        try {
            anchors = settings.checked_anchors();
        } catch (const std::invalid_argument& e) {
            err << "arena standings: tournament '" << t.spec.name << "' in " << db << ": "
                << e.what() << " (give the anchors with --anchor BOT=ELO instead)\n";
            return std::nullopt;
        }
    }
    const auto bots = store.bots(t.id);
    for (const auto& anchor : anchors) {
        const bool known = std::any_of(bots.begin(), bots.end(),
                                       [&](const auto& b) { return b.name == anchor.name; });
        if (known) continue;
        const std::string name = record::escape_controls(anchor.name);
        if (given) {
            err << "arena standings: --anchor " << name << ": tournament '" << t.spec.name
                << "' in " << db << " has no bot '" << name << "'\n";
        } else {
            err << "arena standings: tournament '" << t.spec.name << "' in " << db
                << ": its config anchors '" << name
                << "', which is not one of its bots (give the anchors with --anchor BOT=ELO "
                   "instead)\n";
        }
        return std::nullopt;
    }
    return anchors;
}

}  // namespace

int standings_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    auto opts = tournament_option();
    std::vector<std::string> vs;
    std::optional<std::vector<rating::Anchor>> anchors;
    bool pairs = false;
    bool active = false;
    opts.add_options()(
        "anchor",
        po::value<std::vector<std::string>>()->composing()->notifier(
            [&](const std::vector<std::string>& v) { anchors = report::parse_anchors(v); }),
        "BOT=ELO: hold BOT at rating ELO, the other ratings fitted around it (repeatable; "
        "BOT alone means BOT=0); default: the anchors of the tournament's config, else "
        "mean 0")(
        "vs", po::value<std::vector<std::string>>(&vs)->multitoken()->notifier([](const auto& v) {
            if (v.size() != 2) throw std::invalid_argument("--vs takes two bot names: --vs A B");
            if (v[0] == v[1]) throw std::invalid_argument("--vs needs two different bots");
        }),
        "print the head-to-head of bot A against bot B (Elo, nElo, LOS, pairs)")(
        "pairs", po::bool_switch(&pairs),
        "print the head-to-head of every pair of bots that played each other, in the "
        "standings' order")(
        "active", po::bool_switch(&active),
        "leave out the bots that play no more (retired, earlier versions) and their games");
    if (auto code = parse_db_args("standings",
                                  "usage: arena standings DB [--tournament NAME] "
                                  "[--anchor BOT=ELO ...] [--vs A B | --pairs] [--active]\n\n"
                                  "Prints the standings of a stored tournament: Elo with 95 % "
                                  "intervals, W/D/L,\nscores, faults, the first-mover "
                                  "advantage and a crosstable; with two bots,\nalso their "
                                  "head-to-head (Elo, nElo, LOS, pentanomial). The ratings have "
                                  "mean 0,\nor sit on the scale the anchors set.\n\n",
                                  args, opts, false, a, out, err))
        return *code;
    if (pairs && !vs.empty()) {
        err << "arena standings: --pairs and --vs cannot be combined (--pairs prints every "
               "pair)\n(arena standings --help for usage)\n";
        return kExitUsage;
    }
    if (active && !vs.empty()) {
        err << "arena standings: --active and --vs cannot be combined (--vs compares the two "
               "bots it names)\n(arena standings --help for usage)\n";
        return kExitUsage;
    }
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        const auto t = pick_tournament(store, a.tournament, "standings", a.db, err);
        if (!t) return kExitUsage;
        const auto settings = tournament::stored_settings(t->spec.config_text);
        if (!vs.empty()) {
            // The head-to-head needs no ratings, but a mistyped --anchor is still one.
            if (anchors && !standings_anchors(store, *t, anchors, settings, a.db, err))
                return kExitUsage;
            for (const auto& bot : vs)
                if (!check_bot(store, *t, bot, "standings", a.db, err)) return kExitUsage;
            report::report_head_to_head(store, *t, vs[0], vs[1], out);
            return kExitOk;
        }
        const auto scale = standings_anchors(store, *t, anchors, settings, a.db, err);
        if (!scale) return kExitUsage;
        if (active) {
            for (const auto& b : store.bots(t->id)) {
                const bool anchored = std::any_of(scale->begin(), scale->end(),
                                                  [&](const auto& x) { return x.name == b.name; });
                if (!b.retired || !anchored) continue;
                err << "arena standings: --active leaves out '" << record::escape_controls(b.name)
                    << "', which plays no more, but the ratings are anchored on it (give other "
                       "anchors with --anchor BOT=ELO)\n";
                return kExitUsage;
            }
        }
        if (pairs) {
            report::report_pairs(store, *t, out, *scale, active);
            return kExitOk;
        }
        report::report_standings(store, *t, out, *scale, settings.scoring, active);
        return kExitOk;
    } catch (const std::exception& e) {
        err << "arena standings: " << e.what() << "\n";
        return kExitFailure;
    }
}

int games_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    std::string termination;
    auto opts = tournament_option();
    // clang-format off
    opts.add_options()
        ("bot", po::value<std::string>(), "only this bot's games")
        ("termination", po::value<std::string>(&termination)->notifier(check_termination),
         "only the games that ended so: normal, timeout, crash, illegal, protocol or startup");
    // clang-format on
    if (auto code = parse_db_args(
            "games",
            "usage: arena games DB [--tournament NAME] [--bot NAME] [--termination KIND]\n\n"
            "Lists the stored games: id (for arena show and arena log), schedule index,\n"
            "players, result, ending, plies, seconds and what happened.\n\n",
            args, opts, false, a, out, err))
        return *code;
    std::optional<std::string> ending;
    if (!termination.empty()) ending = termination;
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        const auto t = pick_tournament(store, a.tournament, "games", a.db, err);
        if (!t) return kExitUsage;
        if (a.bot && !check_bot(store, *t, *a.bot, "games", a.db, err)) return kExitUsage;
        out << std::setw(7) << "id" << std::setw(7) << "index"
            << "  " << std::left << std::setw(16) << "first" << std::setw(16) << "second"
            << std::setw(9) << "result" << std::setw(10) << "ending" << std::right << std::setw(6)
            << "plies" << std::setw(10) << "seconds"
            << "  detail\n";
        for (const auto& g : store.games(t->id, a.bot, ending)) {
            out << std::setw(7) << g.id << std::setw(7) << g.slot.index + 1 << "  " << std::left
                << std::setw(16) << record::escape_controls(g.first) << std::setw(16)
                << record::escape_controls(g.second) << std::setw(9) << g.result << std::setw(10)
                << g.termination << std::right << std::setw(6) << g.plies << std::setw(10)
                << std::fixed << std::setprecision(2) << static_cast<double>(g.duration_us) / 1e6
                << "  " << record::escape_controls(g.detail) << "\n";
        }
        return kExitOk;
    } catch (const std::exception& e) {
        err << "arena games: " << e.what() << "\n";
        return kExitFailure;
    }
}

int show_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help");
    if (auto code =
            parse_db_args("show",
                          "usage: arena show DB GAME\n\n"
                          "Replays a stored game as text boards. GAME is the game's id, as\n"
                          "arena games lists it.\n\n",
                          args, opts, true, a, out, err))
        return *code;
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        const auto g = store.load_game(a.game_id);
        if (!g) {
            err << "arena show: no game " << a.game_id << " in " << a.db << "\n";
            return kExitUsage;
        }
        const auto& s = g->summary;
        out << "game " << s.id << ": " << s.first << " (first) vs " << s.second << ", " << g->game
            << " " << g->params << "\n";
        games::Params params;
        for (const auto& word : protocol::split_words(g->params)) {
            const auto eq = word.find('=');
            if (eq != std::string_view::npos)
                params.emplace_back(std::string(word.substr(0, eq)),
                                    std::string(word.substr(eq + 1)));
        }
        const auto game = games::make_game(g->game, params);
        auto state = game->new_initial_state();
        out << state->render();
        for (const auto& m : g->moves) {
            const auto move = state->parse_move(m.move);
            if (!move || !state->is_legal(*move)) {
                out << "(stored move " << m.ply << " '" << m.move << "' does not replay)\n";
                break;
            }
            state->apply(*move);
            out << "\n" << m.ply << ". " << (m.side == 1 ? s.first : s.second) << ": " << m.move;
            if (m.by_arena) {
                out << "  (played by the arena)";
            } else {
                out << "  " << std::fixed << std::setprecision(1)
                    << static_cast<double>(m.time_us) / 1000.0 << " ms";
            }
            out << "\n";
            for (const auto& info : m.info)
                out << "   info " << record::escape_controls(info) << "\n";
            out << state->render();
        }
        out << "\nresult " << s.result << " (" << s.termination
            << (s.detail.empty() ? "" : ": " + record::escape_controls(s.detail)) << ")\n";
        // Games stored before peak memory was recorded have none.
        if (g->peak_memory[0] || g->peak_memory[1]) {
            // What the memory limit counts (docs/database.md): a cgroup's
            // charge, or the sum of resident sets without one.
            out << "peak memory (as the memory limit counts it):";
            for (int side = 1; side <= 2; ++side) {
                out << (side == 1 ? " " : ", ") << (side == 1 ? s.first : s.second) << " ";
                if (const auto& bytes = g->peak_memory[side - 1]) {
                    out << std::fixed << std::setprecision(1)
                        << static_cast<double>(*bytes) / (1024.0 * 1024.0) << " MiB";
                } else {
                    out << "not known";
                }
            }
            out << "\n";
        }
        // For a fault, the end of what the bot at fault wrote on stderr (of
        // both bots when neither could start).
        if (s.termination != "normal") {
            bool any = false;
            for (int side = 1; side <= 2; ++side) {
                const bool lost = (side == 1 && s.result == "0-1") ||
                                  (side == 2 && s.result == "1-0") || s.result == "1/2-1/2";
                const std::string tail = record::stderr_tail(g->stderr_logs[side - 1]);
                if (!lost || tail.empty()) continue;
                out << (side == 1 ? s.first : s.second) << "'s stderr: " << tail << "\n";
                any = true;
            }
            if (any) out << "(all of it: arena log " << a.db << " " << s.id << ")\n";
        }
        return kExitOk;
    } catch (const std::exception& e) {
        err << "arena show: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace arena::cli
