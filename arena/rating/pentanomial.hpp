#pragma once
// Counts of a head-to-head between two bots, A and B, from A's side: the
// trinomial count of games (wins, draws, losses) and the pentanomial count
// of colour-swapped game pairs (the same opening and board played twice,
// each bot moving first once). A pair scores 0, 1/2, 1, 3/2 or 2 for A; the
// five bins are LL, LD, DD+WL, WD and WW. Pairs of which only one game was
// played (or more than two games share a pair index) are incomplete: they
// are left out of the pentanomial count and counted separately.
//
// Pure statistics: the games come as plain structs; reading them from a
// results database is the caller's business (see docs/ratings.md).

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace arena::rating {

// Games counted by result, from A's side.
struct Trinomial {
    std::int64_t wins = 0, draws = 0, losses = 0;

    [[nodiscard]] std::int64_t games() const { return wins + draws + losses; }
    [[nodiscard]] double points() const {
        return static_cast<double>(wins) + 0.5 * static_cast<double>(draws);
    }
};

// Colour-swapped pairs counted by A's pair score (index = 2 x score).
struct Pentanomial {
    // ll, ld, dd_wl, wd, ww: pairs that scored 0, 1/2, 1, 3/2, 2 for A.
    std::array<std::int64_t, 5> bins{};

    [[nodiscard]] std::int64_t pairs() const;
    // Sum of the pair scores: games() / 2 games per pair, so points out of
    // 2 x pairs().
    [[nodiscard]] double points() const;
};

// Both counts of one head-to-head, as built from its games.
struct HeadToHeadCounts {
    Trinomial games;  // every game, complete pairs or not
    Pentanomial pairs;
    // Games of complete pairs, by result (their wins + draws + losses is
    // 2 x pairs.pairs()); the pentanomial statistics use only these.
    Trinomial paired_games;
    std::int64_t incomplete_pairs = 0;  // pair indices without exactly two games
    std::int64_t unpaired_games = 0;    // the games of those pairs
    // Complete pairs that repeat an earlier pair move for move
    // (repeats.hpp): set aside, their games in none of the counts above.
    std::int64_t repeated_pairs = 0;
};

// One game of the head-to-head: the colour-swapped pair it belongs to (any
// identifier shared by the two games of a pair, e.g. a stored pair index),
// whether A moved first, and A's score (1, 1/2 or 0).
struct PairedGame {
    std::int64_t pair = 0;
    bool a_first = true;
    double score = 0.0;
    // The game's moves hash when it ended normally, for finding repeats.
    std::optional<std::int64_t> moves_hash;
};

// Counts the games. A pair is complete when it holds exactly two games, one
// with A first and one with B first. Complete pairs are taken in the order
// of their identifiers; one that repeats an earlier one is set aside
// (repeats.hpp) unless `count_repeats`. Throws std::invalid_argument for a
// score other than 0, 1/2 or 1.
[[nodiscard]] HeadToHeadCounts count_head_to_head(const std::vector<PairedGame>& games,
                                                  bool count_repeats = false);

}  // namespace arena::rating
