#include "arena/cli/config_args.hpp"

#include <ostream>
#include <stdexcept>

#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"

namespace arena::cli {

namespace po = boost::program_options;

std::optional<int> parse_config_args(std::string_view command, std::string_view usage,
                                     const std::vector<std::string>& args,
                                     const po::options_description& opts, std::string& config_path,
                                     std::ostream& out, std::ostream& err,
                                     const std::function<void(const po::variables_map&)>& check) {
    CommandLine line{command, usage, opts};
    line.arguments.add_options()("config", po::value<std::string>(&config_path));
    line.positional.add("config", 1);
    return parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
        if (!vm.count("config") || config_path.empty())
            throw std::invalid_argument("missing CONFIG");
        if (check) check(vm);
    });
}

}  // namespace arena::cli
