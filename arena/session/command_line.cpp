#include "arena/session/command_line.hpp"

#include <stdexcept>

namespace arena::session {

// The word-splitting of a POSIX shell, without expansions: blanks separate
// words; a backslash outside quotes takes the next character literally;
// single quotes keep everything up to the next single quote; double quotes
// keep everything up to the next unescaped double quote, where a backslash
// escapes only \, ", $, ` and a newline.
std::vector<std::string> split_command(std::string_view command) {
    const auto fail = [&](const std::string& what) {
        throw std::invalid_argument(what + " in command '" + std::string(command) + "'");
    };
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;  // a word has begun (possibly empty, as in '')
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\\') {
            if (++i == command.size()) fail("cannot end with escape");
            word += command[i];
        } else if (c == '\'') {
            const auto close = command.find('\'', i + 1);
            if (close == std::string_view::npos) fail("unbalanced '");
            word.append(command.substr(i + 1, close - i - 1));
            i = close;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i >= command.size()) fail("unbalanced \"");
                const char d = command[i];
                if (d == '"') break;
                if (d == '\\' && i + 1 < command.size() &&
                    std::string_view("\\\"$`\n").find(command[i + 1]) != std::string_view::npos) {
                    word += command[++i];
                } else {
                    word += d;
                }
            }
        } else {
            word += c;
        }
    }
    if (in_word) words.push_back(std::move(word));
    if (words.empty()) throw std::invalid_argument("empty command");
    return words;
}

}  // namespace arena::session

namespace arena::session {

// A word that needs no quoting is written as it is; any other goes in single
// quotes, and a single quote in it as '\'' (close, escaped quote, reopen).
std::string join_command(const std::vector<std::string>& words) {
    std::string line;
    for (const auto& w : words) {
        if (!line.empty()) line += ' ';
        if (!w.empty() && w.find_first_of(" \t\n\\'\"") == std::string::npos) {
            line += w;
            continue;
        }
        line += '\'';
        for (const char c : w) {
            if (c == '\'') {
                line += "'\\''";
            } else {
                line += c;
            }
        }
        line += '\'';
    }
    return line;
}

}  // namespace arena::session
