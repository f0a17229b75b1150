#pragma once
// The command-line helper shared by the commands that take a tournament
// config (`run`, `grade`, `slurm`): parsing `CONFIG` plus options, with the
// same error lines everywhere. The config is loaded by tournament::load_config.

#include <boost/program_options.hpp>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena::cli {

// Parses `CONFIG` (into `config_path`) plus `opts`; `check`, when given, may
// throw std::invalid_argument for a bad combination of options. Returns the
// exit code when parsing ends the command (--help, or an error printed as
// "arena COMMAND: problem"), nullopt to go on.
[[nodiscard]] std::optional<int> parse_config_args(
    std::string_view command, std::string_view usage, const std::vector<std::string>& args,
    const boost::program_options::options_description& opts, std::string& config_path,
    std::ostream& out, std::ostream& err,
    const std::function<void(const boost::program_options::variables_map&)>& check = {});

}  // namespace arena::cli
