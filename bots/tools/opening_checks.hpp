#pragma once
// The balance criteria of the shipped opening suites (docs/openings.md),
// judged by the reference bots' own engines. The suite generator
// (arena-openings) keeps the lines that pass; tests/openings_test.cpp checks
// samples of the shipped files with the same functions.
//
// Every function takes an opening as its moves in protocol notation and
// returns nullopt when the moves are not a legal, unfinished line.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace arena::openings {

// ---- Connect-4, 7 x 6 -------------------------------------------------------
// Scores are c4-solver's (Pons'): a win is 22 minus the winner's stones, a
// draw 0, from the side to move.
struct C4Verdict {
    bool immediate_win = false;  // the side to move can connect four at once
    bool within = false;         // |exact score| <= threshold (not judged after an immediate win)
};

class C4Judge {
  public:
    // The exact solver's table: 2^log2_entries entries of 16 bytes, kept
    // between calls (it only speeds up related positions).
    explicit C4Judge(int log2_entries = 22);
    ~C4Judge();
    C4Judge(const C4Judge&) = delete;
    C4Judge& operator=(const C4Judge&) = delete;

    // Two null-window searches of the exact solver: score <= threshold and
    // score >= -threshold.
    [[nodiscard]] std::optional<C4Verdict> judge(const std::vector<std::string>& moves,
                                                 int threshold);
    // The exact score (a full solve; slower than judge).
    [[nodiscard]] std::optional<int> score(const std::vector<std::string>& moves);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// ---- Gomoku, 15 x 15 --------------------------------------------------------
struct GomokuCriteria {
    int vcf_depth = 24;  // own moves in a VCF, as gomoku-vcf's default
    std::uint64_t vcf_nodes =
        2'000'000;  // budget of each VCF search; exhausted = not proven absent
    // gomoku-vcf --depth. Its evaluation favours the side to move at the
    // leaves, so scores of odd and even depths differ by about an open three:
    // the verdict has both of the last two.
    int search_depth = 8;
};

struct GomokuVerdict {
    bool vcf_to_move = false;  // the side to move has a VCF
    bool vcf_other = false;    // the other side would have one were it to move
    bool undecided = false;    // a VCF search ran out of nodes
    int score = 0;             // gomoku-vcf's search score at search_depth, side to move's view
    int score_before = 0;      // ... of the iteration before (= score when there was none)
};

// rule: "freestyle" or "exact5".
[[nodiscard]] std::optional<GomokuVerdict> judge_gomoku(const std::string& rule,
                                                        const std::vector<std::string>& moves,
                                                        const GomokuCriteria& criteria = {});

// ---- Reversi, 8 x 8 ---------------------------------------------------------
// reversi-alphabeta's negamax value (its evaluation units, side to move's
// view) at a fixed depth; nullopt also when the side to move must pass.
[[nodiscard]] std::optional<int> reversi_value(const std::vector<std::string>& moves, int depth);

}  // namespace arena::openings
