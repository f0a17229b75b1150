#include "arena/cli/options.hpp"

#include <ostream>
#include <string_view>

#include "arena/cli/commands.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/suggest.hpp"

namespace arena::cli {

namespace po = boost::program_options;

std::optional<int> parse_command_line(const CommandLine& line, const std::vector<std::string>& args,
                                      std::ostream& out, std::ostream& err,
                                      const std::function<void(const po::variables_map&)>& check) {
    po::options_description all;
    all.add(line.options).add(line.arguments);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(all).positional(line.positional).run(), vm);
        if (vm.count("help")) {
            out << line.usage << line.options;
            return kExitOk;
        }
        po::notify(vm);
        if (check) check(vm);
    } catch (const std::exception& e) {
        const std::string problem = line.explain ? line.explain(e) : usage_problem(e, line.options);
        // A problem may quote what was typed, a bot's name or command among it.
        err << "arena " << line.command << ": " << record::escape_controls(problem) << "\n(arena "
            << line.command << " --help for usage)\n";
        return kExitUsage;
    }
    return std::nullopt;
}

std::string usage_problem(const std::exception& e, const po::options_description& opts) {
    const auto* unknown = dynamic_cast<const po::unknown_option*>(&e);
    if (unknown == nullptr) return e.what();
    // As typed ("--gmae", "-x"), without a "=value".
    std::string typed = unknown->get_option_name();
    if (typed.starts_with("--")) typed = typed.substr(0, typed.find('='));
    std::vector<std::string> names;
    for (const auto& option : opts.options()) {
        const auto [long_names, count] = option->long_names();
        for (std::size_t i = 0; i < count; ++i)
            names.push_back("--" + long_names[i]);
    }
    std::vector<std::string_view> known(names.begin(), names.end());
    // "-game" means "--game" as often as it means "-g ame".
    std::string word = typed;
    if (word.size() > 2 && word[0] == '-' && word[1] != '-') word.insert(0, "-");
    return "unknown option '" + typed + "'" + record::suggestion(word, known);
}

void add_board_options(po::options_description& opts, const char* variant_help) {
    // clang-format off
    opts.add_options()
        ("rows", po::value<int>(), "connect4: rows (4..16, default 6)")
        ("cols", po::value<int>(), "connect4: columns (4..16, default 7)")
        ("connect", po::value<int>(), "connect4: stones in a row to win (default 4)")
        ("blocked", po::value<std::string>(), "connect4: blocked cells, e.g. 4:1,2:3 (col:row, 1-based)")
        ("variant", po::value<std::string>(), variant_help)
        ("size", po::value<int>(), "gomoku: board size (default 15)")
        ("rule", po::value<std::string>(), "gomoku: freestyle (default) or exact5");
    // clang-format on
}

std::vector<std::pair<std::string, std::string>> board_params(const po::variables_map& vm) {
    std::vector<std::pair<std::string, std::string>> params;
    for (const char* key : {"variant", "rows", "cols", "connect", "blocked", "size", "rule"}) {
        if (!vm.count(key)) continue;
        const int* number = boost::any_cast<int>(&vm[key].value());
        params.emplace_back(key, number ? std::to_string(*number) : vm[key].as<std::string>());
    }
    return params;
}

}  // namespace arena::cli
