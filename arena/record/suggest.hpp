#pragma once
// "Did you mean ...?" for a word that is not one of the known words: a
// misspelt config key, command, option or name.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace arena::record {

// Optimal string alignment distance: insertions, deletions, substitutions,
// and a swap of two neighbours counts as one edit (the most common typo after
// a missing or doubled letter).
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The known word closest to `word` when one is close enough (at most two
// edits away, or a prefix of it either way), else "". The first of equally
// close words wins.
[[nodiscard]] std::string_view closest_word(std::string_view word,
                                            const std::vector<std::string_view>& known);

// " (did you mean 'x'?)" for the closest known word, else "".
[[nodiscard]] std::string suggestion(std::string_view word,
                                     const std::vector<std::string_view>& known);

}  // namespace arena::record
