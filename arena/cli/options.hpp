#pragma once
// The one way every command parses its command line (Boost.Program_options):
// --help prints the usage and the options; any problem is one line, the
// same in every command, "arena CMD: <problem>" and "(arena CMD --help for
// usage)", with a did-you-mean for an unknown option.

#include <boost/program_options.hpp>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arena::cli {

struct CommandLine {
    std::string_view command;  // "match": problems begin "arena match: "
    std::string_view usage;    // printed by --help before the options
    const boost::program_options::options_description& options;  // listed by --help
    // The positional arguments' own options (not listed), and their order.
    boost::program_options::options_description arguments{};
    boost::program_options::positional_options_description positional{};
    // The line for a problem; by default usage_problem() of `options`.
    std::function<std::string(const std::exception&)> explain{};
};

// Parses `args` (the words after the command's name). Returns the exit
// status when the command is done: 0 after --help, kExitUsage after saying
// what is wrong on `err`. `check` validates what was parsed (it runs after
// the options' notifiers) and throws a std::exception naming a problem.
[[nodiscard]] std::optional<int> parse_command_line(
    const CommandLine& line, const std::vector<std::string>& args, std::ostream& out,
    std::ostream& err,
    const std::function<void(const boost::program_options::variables_map&)>& check = {});

// The first line of a command-line error: what Boost.Program_options
// reports, except that an unknown option names the closest of the command's
// options `opts` ("unknown option '--gmae' (did you mean '--game'?)").
[[nodiscard]] std::string usage_problem(const std::exception& e,
                                        const boost::program_options::options_description& opts);

// The board options of `arena match` and `arena play`: --rows, --cols,
// --connect, --blocked, --variant (described by `variant_help`), --size and
// --rule.
void add_board_options(boost::program_options::options_description& opts, const char* variant_help);

// The board options given, as a game's parameters, in the order a stored
// config lists them.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> board_params(
    const boost::program_options::variables_map& vm);

}  // namespace arena::cli
