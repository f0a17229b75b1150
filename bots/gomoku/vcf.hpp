#pragma once
// gomoku-vcf: the strongest level. Alpha-beta (principal variation search
// with a transposition table, iterative deepening) over pattern-ordered
// candidates, with threat-space search for forced wins by continuous fours
// (VCF) and by fours and threes (VCT), used to win and to defend.
//
// At the root, in order: complete a five; block the opponent's five-point;
// play our VCF if there is one; if the opponent would have a VCF were it to
// move (a null move), keep only the moves after which it has none; play our
// VCT if there is one; keep only the moves that stop the opponent's VCT the
// same way; then search. Each part has its share of the move's time.
//
// Inside the search a single opposing five-point is blocked without using
// depth; an opposing open three limits the moves to our fours and the cells
// that stop it (threats.hpp, defences); an opposing VCF (a short search after
// a null move) limits them to the cells of its winning line and our fours;
// and at the horizon the side to move looks for a short VCF before the
// evaluation: the potential of both colours (board.hpp) plus a quarter of the
// shapes the other bots count, with a bonus for a four-three of the side to
// move and a malus for two open threes of the opponent.
//
// The root threat searches, the opponent's VCF inside the search and the
// root iterations are those of gomoku-pro too (threat_engine.hpp), with this
// bot's own limits.

#include <cstdint>
#include <vector>

#include "bots/gomoku/threat_engine.hpp"

namespace arena::bots::gomoku {

struct VcfOptions {
    int max_depth = 64;                        // alpha-beta iterations
    int width = 16;                            // moves searched per node (beyond forced ones)
    int vcf_depth = 24;                        // own moves in a VCF
    int vct_depth = 6;                         // own moves in a VCT; 0 disables VCT
    std::uint64_t root_vcf_nodes = 1'000'000;  // budgets of the root threat searches
    std::uint64_t root_vct_nodes = 1'000'000;
    std::uint64_t defence_vcf_nodes = 5'000;  // per candidate, when defending against a VCF
    std::uint64_t leaf_vcf_nodes = 60;        // VCF at the horizon; 0 disables it
    std::uint64_t threat_nodes = 200;         // the opponent's VCF inside the search; 0 disables it
    int inner_vcf_depth = 10;                 // VCF tried at each VCT node
    int defence_width = 20;                   // root moves tried against a VCF or VCT threat
    std::uint64_t defence_vct_nodes = 3'000;  // per candidate, when defending against a VCT
};

class VcfEngine final : public ThreatEngine {
  public:
    explicit VcfEngine(VcfOptions options);

    // Static evaluation for the side to move.
    [[nodiscard]] int evaluate() const;

  private:
    [[nodiscard]] Sq think_inner(const SearchClock& clock, const InfoSink& info) override;
    int search(int depth, int alpha, int beta, int ply) override;
    int leaf(int ply);
    void generate(MoveList& moves, Sq tt_move, bool root);
    // When the opponent would have a VCF if we passed (a short search), the
    // cells of its winning line and our fours; false otherwise.
    bool threat_moves(MoveList& moves, int depth);
    [[nodiscard]] bool poll();
    // Root moves after which the opponent has no VCF; false when it has none
    // to begin with.
    bool defend_vcf(MoveList& root, const InfoSink& info);

    VcfOptions options_;
    std::vector<TTEntry> tt_;
    std::uint64_t salt_ = 0;
    std::uint64_t generation_ = 0;
};

}  // namespace arena::bots::gomoku
