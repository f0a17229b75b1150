#include "arena/rating/csv_records.hpp"

#include <sstream>
#include <stdexcept>

namespace arena::rating {
namespace {

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

[[noreturn]] void fail(std::int64_t line, const std::string& problem) {
    throw std::runtime_error("line " + std::to_string(line) + ": " + problem);
}

// Reads the quoted field that starts at text[i] (its opening quote) into
// `field`, counting the line breaks it holds in `line`; `i` ends after the
// closing quote.
void read_quoted(std::string_view text, std::size_t& i, std::int64_t& line, std::string& field) {
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
    const bool ends = i == text.size() || text[i] == ',' || text[i] == '\n' ||
                      (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] == '\n'));
    if (!ends) fail(line, "text after the closing quote of a field");
}

}  // namespace

std::vector<CsvRecord> csv_records(std::string_view text) {
    std::vector<CsvRecord> records;
    std::int64_t line = 1;
    std::size_t i = 0;
    while (i < text.size()) {
        CsvRecord record{line, {}};
        std::string field;
        bool blank = true;
        for (;;) {
            if (i < text.size() && text[i] == '"' && field.empty()) {
                blank = false;
                read_quoted(text, i, line, field);
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

CsvRecord first_csv_line(std::string_view text) {
    std::istringstream in{std::string(text)};
    std::string line;
    for (std::int64_t number = 1; std::getline(in, line); ++number) {
        if (trim(line).empty()) continue;
        CsvRecord first{number, {}};
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

}  // namespace arena::rating
