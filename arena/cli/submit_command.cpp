// `arena submit URL FILE`: uploads a bot to a league server (what it does
// and says is arena/league/submit_command.hpp's).

#include "arena/league/submit_command.hpp"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"

namespace arena::cli {

namespace po = boost::program_options;

int submit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    league::SubmitRequest request;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("token-file", po::value<std::string>(), "read the token from this file")
        ("token", po::value<std::string>(), "the token itself (ps shows it to others)")
        ("wait", po::bool_switch(&request.wait), "wait for the check's verdict")
        ("wait-s", po::value<int>(&request.wait_s), "how long --wait waits, in seconds (default 300); implies --wait")
        ("name", po::value<std::string>(), "the name sent with the upload (default: FILE's name)");
    // clang-format on
    CommandLine line{"submit", league::submit_usage(), opts};
    line.arguments.add_options()("url", po::value<std::string>(&request.url))(
        "file", po::value<std::string>(&request.file));
    line.positional.add("url", 1).add("file", 1);
    if (const auto done =
            parse_command_line(line, args, out, err, [&](const po::variables_map& vm) {
                if (!vm.count("url")) throw std::invalid_argument("missing URL");
                if (!vm.count("file")) throw std::invalid_argument("missing FILE");
                if (vm.count("token") && vm.count("token-file"))
                    throw std::invalid_argument("--token and --token-file: give one");
                if (vm.count("wait-s") && request.wait_s <= 0)
                    throw std::invalid_argument("--wait-s must be at least 1");
                if (vm.count("wait-s")) request.wait = true;
                if (vm.count("token")) request.token = vm["token"].as<std::string>();
                if (vm.count("token-file")) request.token_file = vm["token-file"].as<std::string>();
                if (vm.count("name")) request.name = vm["name"].as<std::string>();
            }))
        return *done;
    // A token on the command line is in every process listing; one in the
    // environment is seen only by its user (and root).
    if (const char* token = std::getenv("ARENA_LEAGUE_TOKEN")) request.env_token = token;

    using Outcome = league::SubmitOutcome;
    const Outcome outcome = league::submit(request, out, err);
    return outcome == Outcome::kDone     ? kExitOk
           : outcome == Outcome::kFailed ? kExitFailure
                                         : kExitUsage;
}

}  // namespace arena::cli
