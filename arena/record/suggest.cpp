#include "arena/record/suggest.hpp"

#include <algorithm>

namespace arena::record {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t n = a.size();
    const std::size_t m = b.size();
    std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
    for (std::size_t i = 0; i <= n; ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= m; ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= n; ++i) {
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[n][m];
}

std::string_view closest_word(std::string_view word, const std::vector<std::string_view>& known) {
    constexpr std::size_t kMaxDistance = 2;
    std::string_view best;
    std::size_t best_distance = kMaxDistance + 1;
    for (const std::string_view k : known) {
        std::size_t distance = edit_distance(word, k);
        // A prefix either way ("conc", "games_per_pair_count") is as good as
        // a near miss.
        const bool prefix = !word.empty() && (k.starts_with(word) || word.starts_with(k));
        if (prefix) distance = std::min(distance, kMaxDistance);
        if (distance < best_distance) {
            best = k;
            best_distance = distance;
        }
    }
    return best;
}

std::string suggestion(std::string_view word, const std::vector<std::string_view>& known) {
    const std::string_view best = closest_word(word, known);
    return best.empty() ? std::string() : " (did you mean '" + std::string(best) + "'?)";
}

}  // namespace arena::record
