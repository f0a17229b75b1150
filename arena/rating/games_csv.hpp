#pragma once
// Games from a CSV text, for `arena rate`: the one reader of the rating
// module, kept apart from the statistics, which do no I/O.

#include <iosfwd>
#include <string>
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

}  // namespace arena::rating
