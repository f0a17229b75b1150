#pragma once
// Threat-space search: forced wins by continuous fours (VCF) and by fours and
// open threes (VCT), for the side to move (the attacker).
//
// VCF. The attacker only plays fours; the defender's reply is forced (the one
// five-point). The attacker wins when it has a five-point, or a move that
// makes two (an open four or a double four) while the defender has none.
// When the defender's block makes a four, the attacker must block it in turn,
// and goes on only if that block is itself a four.
//
// VCT adds open threes. After an attacker three the defender may play any
// four (the attacker must answer it) or any cell after which the attacker has
// no move to an open four left; every other reply loses to that open four.
// The defences are found by trying each cell on the threatening lines (five
// cells either side of each open-four point: no other cell can change those
// patterns), so a proven win is a real win, under either rule: the patterns
// already know that an overline does not win under exact5.
//
// Both searches are bounded by a depth (attacker moves), a node budget and a
// clock; an interrupted search proves nothing. Results are cached by
// position hash for one root search (clear()).

#include <cstdint>
#include <vector>

#include "bots/common/search_clock.hpp"
#include "bots/gomoku/board.hpp"
#include "bots/gomoku/engine.hpp"

namespace arena::bots::gomoku {

// Ordering values of one cell for `color`: how much playing there makes.
[[nodiscard]] int attack_value(const Board& board, int color, Sq s);

// Cells where the side to move, defending against `attacker`'s open-four
// points, leaves the attacker with none (not counting four moves).
void defences(Board& board, int attacker, MoveList& out);

class ThreatSolver {
  public:
    // A table of 2^table_bits entries of 16 bytes caches proven results.
    explicit ThreatSolver(Board& board, int table_bits = 16);

    using Clock = SearchClock::Clock;
    // Stop after `node_limit` more nodes or at `deadline`.
    void set_limits(std::uint64_t node_limit,
                    Clock::time_point deadline = Clock::time_point::max());
    void clear();

    // The first move of a forced win of the side to move within `depth` of
    // its moves, or kNoSq.
    [[nodiscard]] Sq vcf(int depth);
    // VCT by iterative deepening up to `depth`; `vcf_depth` bounds the VCF
    // tried at each of its nodes.
    [[nodiscard]] Sq vct(int depth, int vcf_depth);
    // When the side to move has a VCF: true, and adds to `cells` the cells of
    // one winning line (its fours, the forced blocks, the final five-points).
    bool vcf_cells(int depth, SqSet& cells);

    // Lean mode: while a search runs, the board keeps neither its shapes nor
    // its cells' combinations and neighbourhoods (Board::Tracking), which the
    // searches do not read; each search takes back every move it makes, so
    // they are exact again when it returns. Off by default.
    void set_lean(bool lean) { lean_ = lean; }

    [[nodiscard]] bool aborted() const { return aborted_; }
    // Depth (own moves) of the last VCT found.
    [[nodiscard]] int last_depth() const { return last_depth_; }
    [[nodiscard]] std::uint64_t nodes() const { return nodes_; }

  private:
    struct Entry {
        std::uint64_t key = 0;
        std::int8_t fail_depth = -1;  // proven no win up to this depth
        std::int8_t win_depth = 127;  // proven win from this depth on
        std::int16_t move = kNoSq;    // the winning move (attack nodes)
    };

    bool vcf_attack(int depth, Sq* first);
    bool vcf_defend(int depth);
    bool vct_attack(int depth, Sq* first);
    bool vct_defend(int depth);
    [[nodiscard]] bool stop();
    Entry& entry(std::uint64_t key) { return table_[key & (table_.size() - 1)]; }
    void store(std::uint64_t key, int depth, bool win, Sq move);

    Board& board_;
    std::vector<Entry> table_;
    std::uint64_t nodes_ = 0;
    std::uint64_t node_limit_ = 0;
    Clock::time_point deadline_ = Clock::time_point::max();
    bool aborted_ = false;
    bool lean_ = false;
    int vcf_depth_ = 0;
    int last_depth_ = 0;
};

}  // namespace arena::bots::gomoku
