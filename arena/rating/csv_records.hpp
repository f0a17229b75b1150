#pragma once
// RFC 4180 records, as `arena export -f csv` writes them: the splitting of a
// CSV text into records and fields, for games_csv. Text in, text out: no I/O.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace arena::rating {

struct CsvRecord {
    std::int64_t line = 0;  // the line it starts on, from 1
    std::vector<std::string> fields;
};

// Fields are separated by commas; a field in double quotes may hold commas,
// line breaks and doubled double quotes. Lines end in LF or CRLF; blank
// lines are skipped. Throws std::runtime_error("line N: ...") for a quoted
// field that is not closed, text after a closing quote, or a double quote
// inside an unquoted field.
[[nodiscard]] std::vector<CsvRecord> csv_records(std::string_view text);

// The first line of `text` that is not blank, split at every comma, its
// fields trimmed and unquoted: enough to tell a header from a game. `line`
// is 0 (and there are no fields) when every line is blank.
[[nodiscard]] CsvRecord first_csv_line(std::string_view text);

}  // namespace arena::rating
