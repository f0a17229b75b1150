#include "arena/record/params_text.hpp"

namespace arena::record {

std::string params_text(const games::Params& params) {
    std::string text;
    for (const auto& [key, value] : params) {
        if (!text.empty()) text += ' ';
        text += key;
        text += '=';
        text += value;
    }
    return text;
}

games::Params parse_params(std::string_view text) {
    games::Params params;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = std::min(text.find(' ', pos), text.size());
        const auto word = text.substr(pos, end - pos);
        const auto eq = word.find('=');
        if (eq != std::string_view::npos)
            params.emplace_back(std::string(word.substr(0, eq)), std::string(word.substr(eq + 1)));
        pos = end + 1;
    }
    return params;
}

}  // namespace arena::record
