#include "arena/cli/config_args.hpp"

#include <ostream>
#include <stdexcept>

#include "arena/cli/commands.hpp"

namespace arena::cli {

namespace po = boost::program_options;

std::optional<int> parse_config_args(std::string_view command, std::string_view usage,
                                     const std::vector<std::string>& args,
                                     const po::options_description& opts, std::string& config_path,
                                     std::ostream& out, std::ostream& err,
                                     const std::function<void(const po::variables_map&)>& check) {
    po::options_description all;
    all.add(opts).add_options()("config", po::value<std::string>(&config_path));
    po::positional_options_description positional;
    positional.add("config", 1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
        if (vm.count("help")) {
            out << usage << opts;
            return kExitOk;
        }
        if (!vm.count("config")) throw std::invalid_argument("missing CONFIG");
        po::notify(vm);
        if (config_path.empty()) throw std::invalid_argument("missing CONFIG");
        if (check) check(vm);
    } catch (const std::exception& e) {
        err << "arena " << command << ": " << usage_problem(e, opts) << "\n(arena " << command
            << " --help for usage)\n";
        return kExitUsage;
    }
    return std::nullopt;
}

std::optional<tournament::Config> load_config_or_say_why(const std::string& path,
                                                         std::ostream& err) {
    try {
        return tournament::load_config(path);
    } catch (const tournament::ConfigError& e) {
        err << e.what() << "\n";
        return std::nullopt;
    }
}

}  // namespace arena::cli
