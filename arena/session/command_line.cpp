#include "arena/session/command_line.hpp"

#include <boost/program_options/parsers.hpp>
#include <boost/tokenizer.hpp>
#include <stdexcept>

namespace arena::session {

std::vector<std::string> split_command(std::string_view command) {
    // split_unix quietly accepts an unbalanced quote; count them first.
    char open = 0;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == '\\' && open != '\'') {
            ++i;
        } else if (open == 0 && (c == '\'' || c == '"')) {
            open = c;
        } else if (c == open) {
            open = 0;
        }
    }
    if (open != 0)
        throw std::invalid_argument("unbalanced " + std::string(1, open) + " in command '" +
                                    std::string(command) + "'");
    std::vector<std::string> words;
    try {
        words = boost::program_options::split_unix(std::string(command));
    } catch (const boost::escaped_list_error& e) {
        // A backslash before anything but a quote, a blank or a backslash.
        throw std::invalid_argument(std::string(e.what()) + " in command '" + std::string(command) +
                                    "'");
    }
    if (words.empty()) throw std::invalid_argument("empty command");
    return words;
}

}  // namespace arena::session
