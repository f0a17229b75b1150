// usage_problem() (commands.hpp): a command-line error with a did-you-mean
// for an unknown option.

#include <boost/program_options.hpp>
#include <string_view>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/record/suggest.hpp"

namespace arena::cli {

namespace po = boost::program_options;

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

}  // namespace arena::cli
