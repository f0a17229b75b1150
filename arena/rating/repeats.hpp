#pragma once
// Repeats are not evidence (docs/ratings.md). Deterministic bots given the
// same opening play the same game again, move for move; a colour-swapped
// pair that repeats an earlier pair of the same two bots says nothing new,
// and counting it would narrow every interval and push a sequential test
// towards a decision the games do not support. So every count of a meeting
// (the Elo fit, the head-to-head, the SPRT) takes such a pair once, sets the
// copies aside, and says how many it set aside.
//
// Two pairs are the same when the game in which each bot moved first went
// the same way in both: the same board, opening, moves and ending (equal
// moves hash, record/moves_hash.hpp). Only games that ended normally are
// compared: a time loss or a crash depends on the machine as much as on the
// moves, and a bot that fails every game must still be judged. The caller
// gives a hash only for such games.
//
// Pure: the games come as plain values.

#include <cstdint>
#include <optional>
#include <set>
#include <utility>

namespace arena::rating {

// After this many pairs in a row that all repeat earlier ones, a test stops:
// its bots play the same games whatever the openings, and more games would
// be copies.
inline constexpr std::int64_t kRepeatsInARowToStop = 20;

// A finished game as a test counts it: what the first mover scored (1, 1/2
// or 0), and for a game that ended normally the hash of its moves.
struct ScoredGame {
    double first_score = 0.5;
    std::optional<std::int64_t> moves_hash;
};

// The complete pairs of one meeting of two bots, given in schedule order:
// tells which of them repeat an earlier one.
class RepeatFilter {
  public:
    // `count_repeats`: every pair counts (bots known to be non-deterministic).
    explicit RepeatFilter(bool count_repeats = false) : count_repeats_(count_repeats) {}

    // A complete pair, by the hashes of its two games: the game in which the
    // first bot of the meeting moved first, and the one in which the other
    // did. Returns whether it counts: false when it repeats a pair given
    // before. A pair with a game without a hash always counts.
    bool counts(std::optional<std::int64_t> first_moved_first,
                std::optional<std::int64_t> other_moved_first);
    bool counts(const ScoredGame& first_moved_first, const ScoredGame& other_moved_first) {
        return counts(first_moved_first.moves_hash, other_moved_first.moves_hash);
    }

    [[nodiscard]] std::int64_t repeated() const { return repeated_; }
    // Repeats since the last pair that counted.
    [[nodiscard]] std::int64_t in_a_row() const { return in_a_row_; }

  private:
    bool count_repeats_;
    std::set<std::pair<std::int64_t, std::int64_t>> seen_;
    std::int64_t repeated_ = 0;
    std::int64_t in_a_row_ = 0;
};

}  // namespace arena::rating
