#include "arena/rating/pentanomial.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "arena/rating/repeats.hpp"

namespace arena::rating {
namespace {

// 0, 1 or 2 for a loss, draw or win; throws for any other score.
int half_points(double score) {
    if (score == 0.0) return 0;
    if (score == 0.5) return 1;
    if (score == 1.0) return 2;
    throw std::invalid_argument("a game score must be 0, 1/2 or 1, got " + std::to_string(score));
}

void add(Trinomial& t, int half) {
    if (half == 2) {
        ++t.wins;
    } else if (half == 1) {
        ++t.draws;
    } else {
        ++t.losses;
    }
}

}  // namespace

std::int64_t Pentanomial::pairs() const {
    std::int64_t n = 0;
    for (const auto b : bins)
        n += b;
    return n;
}

double Pentanomial::points() const {
    double p = 0.0;
    for (std::size_t i = 0; i < bins.size(); ++i)
        p += 0.5 * static_cast<double>(i) * static_cast<double>(bins[i]);
    return p;
}

HeadToHeadCounts count_head_to_head(const std::vector<PairedGame>& games, bool count_repeats) {
    HeadToHeadCounts counts;
    std::vector<PairedGame> sorted = games;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const PairedGame& a, const PairedGame& b) { return a.pair < b.pair; });
    RepeatFilter repeats(count_repeats);
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t end = i;
        while (end < sorted.size() && sorted[end].pair == sorted[i].pair)
            ++end;
        const bool complete = end - i == 2 && sorted[i].a_first != sorted[i + 1].a_first;
        if (complete) {
            const PairedGame& a_first = sorted[i].a_first ? sorted[i] : sorted[i + 1];
            const PairedGame& b_first = sorted[i].a_first ? sorted[i + 1] : sorted[i];
            const int first = half_points(sorted[i].score);
            const int second = half_points(sorted[i + 1].score);
            if (repeats.counts(a_first.moves_hash, b_first.moves_hash)) {
                ++counts.pairs.bins[static_cast<std::size_t>(first + second)];
                for (const int half : {first, second}) {
                    add(counts.paired_games, half);
                    add(counts.games, half);
                }
            }
        } else {
            ++counts.incomplete_pairs;
            counts.unpaired_games += static_cast<std::int64_t>(end - i);
            for (std::size_t k = i; k < end; ++k)
                add(counts.games, half_points(sorted[k].score));
        }
        i = end;
    }
    counts.repeated_pairs = repeats.repeated();
    return counts;
}

}  // namespace arena::rating
