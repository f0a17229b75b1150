#include "arena/rating/games_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "arena/rating/csv_records.hpp"

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

[[noreturn]] void fail(std::int64_t line, const std::string& problem) {
    throw std::runtime_error("line " + std::to_string(line) + ": " + problem);
}

bool is_arena_header(const std::vector<std::string>& fields) {
    for (const char* column : {"first", "second", "result"})
        if (std::find(fields.begin(), fields.end(), column) == fields.end()) return false;
    return true;
}

bool is_result(std::string_view text) {
    return text == "1-0" || text == "0-1" || text == "1/2-1/2";
}

// Games from `arena export -f csv` (or any CSV whose header names the
// columns first, second and result); new names are appended to `names`.
std::vector<GameResult> read_export_csv(std::string_view text, std::vector<std::string>& names) {
    const auto records = csv_records(text);
    const auto& header = records.front().fields;
    const auto column = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (std::find(it + 1, header.end(), name) != header.end())
            fail(records.front().line, "the header names the column '" + name + "' twice");
        return static_cast<std::size_t>(it - header.begin());
    };
    const std::size_t first = column("first"), second = column("second"), result = column("result");
    std::unordered_map<std::string, int> index;
    for (std::size_t i = 0; i < names.size(); ++i)
        index.emplace(names[i], static_cast<int>(i));
    const auto player = [&](const std::string& name) {
        const auto [it, added] = index.emplace(name, static_cast<int>(names.size()));
        if (added) names.push_back(name);
        return it->second;
    };
    std::vector<GameResult> games;
    for (std::size_t r = 1; r < records.size(); ++r) {
        const auto& [line, fields] = records[r];
        if (fields.size() != header.size()) {
            fail(line, "expected " + std::to_string(header.size()) +
                           " comma-separated fields as in the header, got " +
                           std::to_string(fields.size()));
        }
        if (fields[first].empty() || fields[second].empty()) fail(line, "empty player name");
        if (fields[first] == fields[second])
            fail(line, "'" + fields[first] + "' cannot play itself");
        if (!is_result(fields[result])) {
            fail(line, "unknown result '" + fields[result] + "' (expected 1-0, 0-1 or 1/2-1/2)");
        }
        const double score = fields[result] == "1-0" ? 1.0 : fields[result] == "0-1" ? 0.0 : 0.5;
        games.push_back({player(fields[first]), player(fields[second]), score});
    }
    return games;
}

}  // namespace

std::vector<GameResult> read_rated_games(std::string_view text, std::vector<std::string>& names) {
    // Spreadsheets may start a UTF-8 file with a byte order mark.
    if (text.starts_with("\xef\xbb\xbf")) text.remove_prefix(3);
    const auto first = first_csv_line(text);
    if (is_arena_header(first.fields)) return read_export_csv(text, names);
    if (first.fields.size() > 3 && std::none_of(first.fields.begin(), first.fields.end(),
                                                [](const auto& f) { return is_result(f); })) {
        fail(first.line,
             "a header without the columns first, second and result (rate reads arena "
             "export -f csv, or white,black,result lines)");
    }
    std::istringstream in{std::string(text)};
    return read_games_csv(in, names);
}

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

std::string read_games_text(const std::string& path, std::istream& standard_input) {
    std::string text;
    if (path == "-") {
        text.assign(std::istreambuf_iterator<char>(standard_input), {});
        if (standard_input.bad())
            throw std::runtime_error(std::string(kStdinName) + ": cannot read");
        return text;
    }
    // An ifstream opens a directory and then reads nothing: ask first.
    std::error_code ec;
    errno = std::filesystem::is_directory(path, ec) ? EISDIR : 0;
    std::ifstream in;
    if (errno == 0) in.open(path, std::ios::binary);
    if (in.is_open()) text.assign(std::istreambuf_iterator<char>(in), {});
    if (!in.is_open() || in.bad()) {
        const int error = errno;
        throw std::runtime_error(
            path + ": cannot read" +
            (error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string()));
    }
    return text;
}

}  // namespace arena::rating
