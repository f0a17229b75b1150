#pragma once
// Games from a CSV text, for `arena rate`, and the text from its file or
// standard input: the one reader of the rating module, kept apart from the
// statistics, which do no I/O.

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "arena/rating/game_result.hpp"

namespace arena::rating {

// Reads `white,black,result` lines; white moves first; result is `1-0`,
// `0-1` or `1/2-1/2`. The first non-blank line may be the header
// `white,black,result`; blank lines are skipped; spaces around fields and a
// trailing '\r' are ignored. Names may not contain commas (no quoting).
// New names are appended to `names` in order of appearance; names already
// there keep their index. Throws std::runtime_error("line N: ...") on the
// first bad line.
[[nodiscard]] std::vector<GameResult> read_games_csv(std::istream& in,
                                                     std::vector<std::string>& names);

// Games in either form `arena rate` reads, told apart by the first line that
// is not blank: `arena export -f csv` (RFC 4180, csv_records.hpp; a header
// naming the columns first, second and result, which are read, and others,
// which are not), or white,black,result lines (read_games_csv). A UTF-8
// byte order mark at the start is skipped. Names as for read_games_csv.
// Throws std::runtime_error("line N: ...") on the first bad line, also for a
// header without those three columns.
[[nodiscard]] std::vector<GameResult> read_rated_games(std::string_view text,
                                                       std::vector<std::string>& names);

// How standard input is named in messages.
inline constexpr std::string_view kStdinName = "<stdin>";

// The text of the games file `path`, whole; "-" reads `standard_input`.
// Throws std::runtime_error("PATH: cannot read (REASON)"), the reason when
// one is known (a directory, a missing file), or "<stdin>: cannot read".
[[nodiscard]] std::string read_games_text(const std::string& path, std::istream& standard_input);

}  // namespace arena::rating
