#include "arena/rating/games_csv.hpp"

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace arena::rating {
namespace {

std::string_view trim(std::string_view s) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

}  // namespace

std::vector<GameResult> read_games_csv(std::istream& in, std::vector<std::string>& names) {
    std::unordered_map<std::string, int> index;
    for (std::size_t i = 0; i < names.size(); ++i)
        index.emplace(names[i], static_cast<int>(i));
    const auto player = [&](std::string_view name) {
        const auto [it, added] = index.emplace(std::string(name), static_cast<int>(names.size()));
        if (added) names.emplace_back(name);
        return it->second;
    };
    std::vector<GameResult> games;
    std::string line;
    std::int64_t number = 0;
    bool seen_content = false;
    while (std::getline(in, line)) {
        ++number;
        const auto fail = [&](const std::string& problem) {
            throw std::runtime_error("line " + std::to_string(number) + ": " + problem);
        };
        const std::string_view text = trim(line);
        if (text.empty()) continue;
        std::vector<std::string_view> fields;
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = text.find(',', start);
            fields.push_back(trim(text.substr(start, comma - start)));
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        if (fields.size() != 3) {
            fail("expected 3 comma-separated fields (white,black,result), got " +
                 std::to_string(fields.size()));
        }
        const bool first_content = !seen_content;
        seen_content = true;
        if (first_content && fields[0] == "white" && fields[1] == "black" &&
            fields[2] == "result") {
            continue;
        }
        if (fields[0].empty() || fields[1].empty()) fail("empty player name");
        if (fields[0] == fields[1]) fail("'" + std::string(fields[0]) + "' cannot play itself");
        double score = 0.0;
        if (fields[2] == "1-0") {
            score = 1.0;
        } else if (fields[2] == "0-1") {
            score = 0.0;
        } else if (fields[2] == "1/2-1/2") {
            score = 0.5;
        } else {
            fail("unknown result '" + std::string(fields[2]) + "' (expected 1-0, 0-1 or 1/2-1/2)");
        }
        const int white = player(fields[0]);
        const int black = player(fields[1]);
        games.push_back({white, black, score});
    }
    if (in.bad()) throw std::runtime_error("error reading the games");
    return games;
}

}  // namespace arena::rating
