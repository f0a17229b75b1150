// Commands that read a results database: `standings`, `games`, `show`.

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/db_args.hpp"
#include "arena/report/anchors.hpp"
#include "arena/report/game_text.hpp"
#include "arena/report/text_standings.hpp"
#include "arena/store/lookup.hpp"
#include "arena/store/results_store.hpp"

namespace arena::cli {

namespace po = boost::program_options;

namespace {

po::options_description tournament_option() {
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help")(
        "tournament,t", po::value<std::string>(),
        "tournament name (needed when the database holds several)");
    return opts;
}

}  // namespace

int standings_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    auto opts = tournament_option();
    report::StandingsRequest r;
    opts.add_options()(
        "anchor",
        po::value<std::vector<std::string>>()->composing()->notifier(
            [&](const std::vector<std::string>& v) { r.anchors = report::parse_anchors(v); }),
        "BOT=ELO: hold BOT at rating ELO, the other ratings fitted around it (repeatable; "
        "BOT alone means BOT=0); default: the anchors of the tournament's config, else "
        "mean 0")(
        "vs", po::value<std::vector<std::string>>(&r.vs)->multitoken()->notifier([](const auto& v) {
            if (v.size() != 2) throw std::invalid_argument("--vs takes two bot names: --vs A B");
            if (v[0] == v[1]) throw std::invalid_argument("--vs needs two different bots");
        }),
        "print the head-to-head of bot A against bot B (Elo, nElo, LOS, pairs)")(
        "pairs", po::bool_switch(&r.pairs),
        "print the head-to-head of every pair of bots that played each other, in the "
        "standings' order")(
        "active", po::bool_switch(&r.active),
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
    if (r.pairs && !r.vs.empty()) {
        err << "arena standings: --pairs and --vs cannot be combined (--pairs prints every "
               "pair)\n(arena standings --help for usage)\n";
        return kExitUsage;
    }
    if (r.active && !r.vs.empty()) {
        err << "arena standings: --active and --vs cannot be combined (--vs compares the two "
               "bots it names)\n(arena standings --help for usage)\n";
        return kExitUsage;
    }
    return with_database(a, "standings", err, [&](store::ResultsStore& store) {
        const auto t = pick_tournament(store, a, "standings", err);
        if (!t) return kExitUsage;
        if (const auto problem = report::print_standings_request(store, *t, r, a.db, out);
            !problem.empty()) {
            err << "arena standings: " << problem << "\n";
            return kExitUsage;
        }
        return kExitOk;
    });
}

int games_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    DbArgs a;
    std::string termination;
    auto opts = tournament_option();
    const auto check_termination = [](const std::string& kind) {
        if (const auto problem = store::unknown_termination(kind); !problem.empty())
            throw std::invalid_argument("--termination: " + problem);
    };
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
    return with_database(a, "games", err, [&](store::ResultsStore& store) {
        const auto t = pick_tournament(store, a, "games", err);
        if (!t) return kExitUsage;
        if (const auto no = a.bot ? store::missing_bot(store, *t, *a.bot, a.db) : ""; !no.empty()) {
            err << "arena games: " << no << "\n";
            return kExitUsage;
        }
        report::print_game_list(out, store.games(t->id, a.bot, ending));
        return kExitOk;
    });
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
    return with_database(a, "show", err, [&](store::ResultsStore& store) {
        const auto g = stored_game(store, a, "show", err);
        if (!g) return kExitUsage;
        report::print_game_replay(out, *g, a.db);
        return kExitOk;
    });
}

}  // namespace arena::cli
