#include "arena/cli/db_args.hpp"

#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/store/lookup.hpp"

namespace arena::cli {

namespace po = boost::program_options;

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
            if (wants_game_id && negative) return store::bad_game_id(typed);
        }
        return usage_problem(e, opts);
    };
    const auto done = parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
        if (parsed.db.empty()) throw std::invalid_argument("missing DB");
        if (wants_game_id) {
            if (!vm.count("game")) throw std::invalid_argument("missing GAME");
            const auto id = store::parse_game_id(game);
            if (!id) throw std::invalid_argument(store::bad_game_id(game));
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

int with_database(const DbArgs& a, const std::string& command, std::ostream& err,
                  const std::function<int(store::ResultsStore&)>& body) {
    try {
        store::ResultsStore store(a.db, store::Access::kReadOnly);
        return body(store);
    } catch (const std::exception& e) {
        err << "arena " << command << ": " << e.what() << "\n";
        return kExitFailure;
    }
}

std::optional<store::TournamentRow> pick_tournament(store::ResultsStore& store, const DbArgs& a,
                                                    const std::string& command, std::ostream& err,
                                                    bool escape_names) {
    auto picked = store::pick_tournament(store, a.tournament, a.db, escape_names);
    if (!picked.row) err << "arena " << command << ": " << picked.problem << "\n";
    return std::move(picked.row);
}

std::optional<store::StoredGame> stored_game(store::ResultsStore& store, const DbArgs& a,
                                             const std::string& command, std::ostream& err) {
    auto game = store.load_game(a.game_id);
    if (!game) err << "arena " << command << ": no game " << a.game_id << " in " << a.db << "\n";
    return game;
}

}  // namespace arena::cli
