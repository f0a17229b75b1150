// `arena rate GAMES.csv`: the Elo fit on games from any source: the arena's
// own CSV export or white,black,result lines, from a file or standard input.

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/rating/elo.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/anchors.hpp"

namespace arena::cli {
namespace {

constexpr std::string_view kStdinName = "<stdin>";

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

[[noreturn]] void fail(std::int64_t line, const std::string& problem) {
    throw std::runtime_error("line " + std::to_string(line) + ": " + problem);
}

struct FirstLine {
    std::int64_t number = 0;  // 0: every line is blank
    std::vector<std::string> fields;
};

// The first line that is not blank, split at every comma, its fields trimmed
// and unquoted: enough to tell a header from a game.
FirstLine first_line(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    for (std::int64_t number = 1; std::getline(in, line); ++number) {
        if (trim(line).empty()) continue;
        FirstLine first{number, {}};
        std::istringstream words(line);
        for (std::string field; std::getline(words, field, ',');) {
            std::string_view f = trim(field);
            if (f.size() >= 2 && f.front() == '"' && f.back() == '"') f = f.substr(1, f.size() - 2);
            first.fields.emplace_back(f);
        }
        if (line.back() == ',') first.fields.emplace_back();
        return first;
    }
    return {};
}

bool is_arena_header(const std::vector<std::string>& fields) {
    for (const char* column : {"first", "second", "result"})
        if (std::find(fields.begin(), fields.end(), column) == fields.end()) return false;
    return true;
}

bool is_result(std::string_view text) {
    return text == "1-0" || text == "0-1" || text == "1/2-1/2";
}

struct Record {
    std::int64_t line = 0;  // where it starts
    std::vector<std::string> fields;
};

// RFC 4180 records, as `arena export -f csv` writes them: fields separated
// by commas; a field in double quotes may hold commas, line breaks and
// doubled double quotes. Lines end in LF or CRLF; blank lines are skipped.
std::vector<Record> csv_records(const std::string& text) {
    std::vector<Record> records;
    std::int64_t line = 1;
    std::size_t i = 0;
    while (i < text.size()) {
        Record record{line, {}};
        std::string field;
        bool blank = true;
        for (;;) {
            if (i < text.size() && text[i] == '"' && field.empty()) {
                blank = false;
                const std::int64_t opened = line;
                for (++i;; ++i) {
                    if (i == text.size()) fail(opened, "a quoted field is not closed");
                    if (text[i] == '"') {
                        if (i + 1 < text.size() && text[i + 1] == '"') {
                            field += '"';
                            ++i;
                            continue;
                        }
                        ++i;
                        break;
                    }
                    if (text[i] == '\n') ++line;
                    field += text[i];
                }
                const bool ends =
                    i == text.size() || text[i] == ',' || text[i] == '\n' ||
                    (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] == '\n'));
                if (!ends) fail(line, "text after the closing quote of a field");
            }
            while (i < text.size() && text[i] != ',' && text[i] != '\n') {
                if (text[i] == '"') fail(line, "a double quote inside an unquoted field");
                if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r') blank = false;
                field += text[i++];
            }
            if (i < text.size() && text[i] == ',') {
                blank = false;
                record.fields.push_back(std::move(field));
                field.clear();
                ++i;
                continue;
            }
            // The end of the line (or of the text): a CR before LF is not data.
            if (!field.empty() && field.back() == '\r') field.pop_back();
            record.fields.push_back(std::move(field));
            if (i < text.size()) {
                ++i;
                ++line;
            }
            break;
        }
        if (!blank) records.push_back(std::move(record));
    }
    return records;
}

// Games from `arena export -f csv` (or any CSV whose header names the
// columns first, second and result); new names are appended to `names`.
std::vector<rating::GameResult> read_export_csv(const std::string& text,
                                                std::vector<std::string>& names) {
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
    std::vector<rating::GameResult> games;
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

// Games in either form rate reads; the first line tells which.
std::vector<rating::GameResult> read_games(const std::string& text,
                                           std::vector<std::string>& names) {
    const auto first = first_line(text);
    if (is_arena_header(first.fields)) return read_export_csv(text, names);
    if (first.fields.size() > 3 && std::none_of(first.fields.begin(), first.fields.end(),
                                                [](const auto& f) { return is_result(f); })) {
        fail(first.number,
             "a header without the columns first, second and result (rate reads arena "
             "export -f csv, or white,black,result lines)");
    }
    std::istringstream in(text);
    return rating::read_games_csv(in, names);
}

}  // namespace

int rate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    namespace po = boost::program_options;
    std::string path;
    std::vector<rating::Anchor> anchors;
    bool csv = false, no_advantage = false;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("csv", po::bool_switch(&csv), "print name,elo,error rows")
        ("anchor", po::value<std::vector<std::string>>()->composing()->notifier(
             [&](const std::vector<std::string>& v) { anchors = report::parse_anchors(v); }),
         "NAME=ELO: hold player NAME at rating ELO, the others fitted around it (repeatable; NAME alone means NAME=0); default: mean 0")
        ("no-advantage", po::bool_switch(&no_advantage), "do not fit a first-mover advantage");
    // clang-format on
    CommandLine line{"rate",
                     "usage: arena rate GAMES.csv [--csv] [--anchor NAME=ELO ...]\n\n"
                     "Fits Elo ratings (maximum likelihood, with a first-mover advantage) to\n"
                     "the games in GAMES.csv ('-' reads standard input), given either as\n"
                     "  arena export DB -f csv: a header row naming the columns, of which rate\n"
                     "    reads first, second and result; or\n"
                     "  'white,black,result' lines: white moved first.\n"
                     "A result is 1-0, 0-1 or 1/2-1/2, from the first mover's side.\n\n",
                     opts};
    line.arguments.add_options()("games", po::value<std::string>(&path));
    line.positional.add("games", 1);
    if (const auto done = parse_command_line(line, args, out, err, [&](const po::variables_map&) {
            if (path.empty()) throw std::invalid_argument("missing GAMES.csv");
        }))
        return *done;

    const bool from_stdin = path == "-";
    const std::string label = from_stdin ? std::string(kStdinName) : path;
    std::string text;
    if (from_stdin) {
        text.assign(std::istreambuf_iterator<char>(std::cin), {});
        if (std::cin.bad()) {
            err << "arena rate: " << label << ": cannot read\n";
            return kExitUsage;
        }
    } else {
        // An ifstream opens a directory and then reads nothing: ask first.
        std::error_code ec;
        errno = std::filesystem::is_directory(path, ec) ? EISDIR : 0;
        std::ifstream in;
        if (errno == 0) in.open(path, std::ios::binary);
        if (in.is_open()) text.assign(std::istreambuf_iterator<char>(in), {});
        if (!in.is_open() || in.bad()) {
            const int error = errno;
            err << "arena rate: " << path << ": cannot read"
                << (error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string())
                << "\n";
            return kExitUsage;
        }
    }
    // Spreadsheets may start a UTF-8 file with a byte order mark.
    if (text.starts_with("\xef\xbb\xbf")) text.erase(0, 3);
    std::vector<std::string> names;
    std::vector<rating::GameResult> games;
    rating::EloFit fit;
    try {
        games = read_games(text, names);
        if (games.empty()) throw std::invalid_argument("no games");
        for (const auto& anchor : anchors) {
            if (std::find(names.begin(), names.end(), anchor.name) == names.end())
                throw std::invalid_argument("no player '" + anchor.name + "' to anchor on");
        }
        rating::FitOptions options;
        options.anchors = anchors;
        if (no_advantage) options.fixed_advantage = 0.0;
        fit = rating::fit_elo(names, games, options);
    } catch (const std::exception& e) {
        // The problem may quote the input: a name, a result.
        err << "arena rate: " << label << ": " << record::escape_controls(e.what()) << "\n";
        return kExitUsage;
    }
    for (auto& name : names)
        name = record::escape_controls(name);
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](auto a, auto b) { return fit.ratings[a] > fit.ratings[b]; });
    out << std::fixed << std::setprecision(1);
    if (csv) {
        out << "name,elo,error\n";
        for (auto i : order)
            out << names[i] << "," << fit.ratings[i] << "," << fit.errors[i] << "\n";
        return kExitOk;
    }
    const auto summary = rating::summarize_games(names, games);
    std::size_t width = 6;
    for (const auto& n : names)
        width = std::max(width, n.size());
    out << std::left << std::setw(static_cast<int>(width)) << "player" << std::right << std::setw(9)
        << "elo" << std::setw(8) << "±95%" << std::setw(8) << "games" << std::setw(8) << "score"
        << "\n";
    for (auto i : order) {
        out << std::left << std::setw(static_cast<int>(width)) << names[i] << std::right
            << std::setw(9) << fit.ratings[i] << std::setw(7) << fit.errors[i] << std::setw(8)
            << summary[i].total.games << std::setw(7) << 100.0 * summary[i].total.score() << "%\n";
    }
    out << "first-mover advantage: " << fit.advantage << " ± " << fit.advantage_error << " Elo ("
        << games.size() << " games)\n";
    return kExitOk;
}

}  // namespace arena::cli
