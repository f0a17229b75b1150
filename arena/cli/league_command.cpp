// `arena league user add|list|disable|reset CONFIG [NAME]`: the users of a
// league (arena/league/user_command.hpp holds what each does and says), and
// `arena league grades CONFIG`, its grades as CSV.

#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/league/accounts.hpp"
#include "arena/league/grades.hpp"
#include "arena/league/user_command.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/suggest.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

bool is_help(const std::string& word) {
    return word == "--help" || word == "-h";
}

// "arena league: unknown command 'x' (did you mean 'y'?)" for a word that is
// not one of `known`.
int unknown_word(const std::string& command, const std::string& word,
                 const std::vector<std::string_view>& known, std::ostream& err) {
    err << "arena " << command << ": unknown command '" << record::escape_controls(word) << "'"
        << record::suggestion(word, known) << "\n(arena league --help for usage)\n";
    return kExitUsage;
}

int user_command(league::UserAction action, const std::string& word,
                 const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const std::string command = "league user " + word;
    league::UserRequest request{action, "", false};
    std::string config_path;
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help");
    if (action == league::UserAction::kAdd) {
        opts.add_options()("organiser", po::bool_switch(&request.organiser),
                           "an organiser, not a participant");
    }
    CommandLine line{command, league::user_usage(action), opts};
    line.arguments.add_options()("config", po::value<std::string>(&config_path));
    line.positional.add("config", 1);
    if (league::takes_name(action)) {
        line.arguments.add_options()("name", po::value<std::string>(&request.name));
        line.positional.add("name", 1);
    }
    if (const auto done =
            parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
                if (!vm.count("config")) throw std::invalid_argument("missing CONFIG");
                if (league::takes_name(action) && !vm.count("name"))
                    throw std::invalid_argument("missing NAME");
            }))
        return *done;

    const auto config = tournament::load_config(config_path, err);
    if (!config) return kExitUsage;
    if (const auto problem = league::league_config_problem(*config); !problem.empty()) {
        err << "arena " << command << ": " << problem << "\n";
        return kExitUsage;
    }
    try {
        out << league::run_user_request(*config, request);
    } catch (const league::AccountError& e) {
        err << "arena " << command << ": " << config_path << ": " << e.what() << "\n";
        using Kind = league::AccountError::Kind;
        return e.kind() == Kind::kBadName || e.kind() == Kind::kUnknownUser ? kExitUsage
                                                                            : kExitFailure;
    } catch (const std::exception& e) {  // the database (store::StoreError), libsodium
        err << "arena " << command << ": " << e.what() << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

// `arena league grades CONFIG`: the CSV of /league/grades.csv.
int grades_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string config_path;
    po::options_description opts("options");
    opts.add_options()("help,h", "show this help");
    CommandLine line{"league grades", league::grades_usage(), opts};
    line.arguments.add_options()("config", po::value<std::string>(&config_path));
    line.positional.add("config", 1);
    if (const auto done =
            parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
                if (!vm.count("config")) throw std::invalid_argument("missing CONFIG");
            }))
        return *done;
    const auto config = tournament::load_config(config_path, err);
    if (!config) return kExitUsage;
    try {
        serve::ServedDatabase database(0, config->database);
        out << league::grades_csv(*config, database);
    } catch (const std::exception& e) {
        err << "arena league grades: " << record::escape_controls(e.what()) << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace

int league_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty() || (args[0] == "user" && args.size() == 1)) {
        err << league::league_usage();
        return kExitUsage;
    }
    if (is_help(args[0]) || (args[0] == "user" && is_help(args[1]))) {
        out << league::league_usage();
        return kExitOk;
    }
    if (args[0] == "grades") return grades_command({args.begin() + 1, args.end()}, out, err);
    if (args[0] != "user") return unknown_word("league", args[0], {"user", "grades"}, err);
    const auto action = league::user_action(args[1]);
    if (!action) return unknown_word("league user", args[1], league::user_action_words(), err);
    return user_command(*action, args[1], {args.begin() + 2, args.end()}, out, err);
}

}  // namespace arena::cli
