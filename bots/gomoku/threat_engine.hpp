#pragma once
// What gomoku-vcf and gomoku-pro share: the threat-space search at the root
// (our VCF and VCT, the defences against the opponent's), the opponent's VCF
// inside the search, the ordering of a cell by what it makes and takes, and
// one iteration of principal variation search over the root moves.

#include <cstdint>
#include <functional>
#include <optional>

#include "bots/gomoku/engine.hpp"
#include "bots/gomoku/threats.hpp"

namespace arena::bots::gomoku {

// The limits of the threat searches, and the shares of the usable time (1 =
// the hard limit, counted from `go`) by which each root search must be done.
struct ThreatLimits {
    int vcf_depth = 24;        // own moves in a VCF
    int vct_depth = 6;         // own moves in a VCT; 0 disables VCT
    int inner_vcf_depth = 10;  // VCF tried at each VCT node
    std::uint64_t root_vcf_nodes = 1'000'000;
    std::uint64_t root_vct_nodes = 1'000'000;
    std::uint64_t defence_vcf_nodes = 5'000;  // per candidate, when defending against a VCF
    std::uint64_t defence_vct_nodes = 3'000;  // per candidate, when defending against a VCT
    std::uint64_t threat_nodes = 200;         // the opponent's VCF inside the search; 0: none
    int defence_width = 20;                   // root moves tried against a VCF or VCT threat
    double own_vcf = 0.05;
    double defend_vcf = 0.1;
    double own_vct = 0.18;
    double defend_vct = 0.3;
    int table_bits = 16;  // the solver's table: 2^table_bits entries
};

// The limits of an engine's options (VcfOptions, ProOptions: the fields of
// the same names), with the time shares of its own VCT and of the defence
// against the opponent's.
template <class Options>
[[nodiscard]] ThreatLimits threat_limits(const Options& o, double own_vct, double defend_vct) {
    return {.vcf_depth = o.vcf_depth,
            .vct_depth = o.vct_depth,
            .inner_vcf_depth = o.inner_vcf_depth,
            .root_vcf_nodes = o.root_vcf_nodes,
            .root_vct_nodes = o.root_vct_nodes,
            .defence_vcf_nodes = o.defence_vcf_nodes,
            .defence_vct_nodes = o.defence_vct_nodes,
            .threat_nodes = o.threat_nodes,
            .defence_width = o.defence_width,
            .own_vct = own_vct,
            .defend_vct = defend_vct};
}

// Scores of a transposition table entry: mate scores relative to the node
// stored, not to the root.
[[nodiscard]] inline int to_tt(int score, int ply) {
    if (score >= kMateBound) return score + ply;
    if (score <= -kMateBound) return score - ply;
    return score;
}
[[nodiscard]] inline int from_tt(int score, int ply) {
    if (score >= kMateBound) return score - ply;
    if (score <= -kMateBound) return score + ply;
    return score;
}

// How search_root ranks, for the next iteration, the root moves that did not
// raise alpha, below the moves that did (those rank by their value): either
// by their place in the iteration, the last first (gomoku-vcf, as its ladder
// runs measured it: this reverses their order every iteration, and can rank
// them above a proven loss, see root_rank()), or by the nodes their search
// took, the most first (gomoku-pro: the moves hardest to refute, which an
// iteration cut short after a fail low should try first).
enum class FailLowOrder { kLastFirst, kByNodes };

// The score by which search_root ranks the root move searched at `place` in
// an iteration (sorted high to low): `value` when it `raised` alpha (or was
// searched first), else by `order`, from its place or from the `nodes` its
// search took.
[[nodiscard]] int root_rank(FailLowOrder order, bool raised, int value, int place,
                            std::uint64_t nodes);

// Puts `tt_move` (when it is an empty cell of `board`) first in `moves`, the
// others keeping their order; a move not in the list is added, unless the
// list is `forced` (a defence). True when `tt_move` is now first.
bool put_first(const Board& board, MoveList& moves, Sq tt_move, bool forced);

class ThreatEngine : public GomokuEngine {
  public:
    // Counts the threat-search nodes in nodes().
    [[nodiscard]] Sq think(const SearchClock& clock, const InfoSink& info) final;

  protected:
    // A transposition table entry: the bound in the low 2 bits of `bound`,
    // and above them the age of the search that stored it, for an engine that
    // keeps its table from move to move.
    struct TTEntry {
        std::uint64_t key = 0;
        std::int32_t score = 0;
        std::int16_t move = kNoSq;
        std::int8_t depth = 0;
        std::uint8_t bound = 0;
    };
    static constexpr std::uint8_t kBoundUpper = 1, kBoundLower = 2,
                                  kBoundExact = kBoundUpper | kBoundLower;

    explicit ThreatEngine(const ThreatLimits& limits);

    [[nodiscard]] virtual Sq think_inner(const SearchClock& clock, const InfoSink& info) = 0;
    virtual int search(int depth, int alpha, int beta, int ply) = 0;

    // The score of a position that the fives and open fours decide: our
    // five, two fives of the opponent, a full board, an open four of ours
    // with no five of the opponent to block. Empty otherwise.
    [[nodiscard]] std::optional<int> decided_score(int ply) const;
    // The entry `e` when it is the one of `key`: its move in `tt_move`, and
    // true when its bound and depth give this node's score (in `value`).
    [[nodiscard]] static bool tt_probe(const TTEntry& e, std::uint64_t key, int depth, int alpha,
                                       int beta, int ply, Sq& tt_move, int& value);
    // Against an open three (or a four-four point) of the opponent, the only
    // moves that can avoid a loss: the cells that stop it and our fours.
    // False, `moves` empty, when there are none.
    bool open_three_defences(MoveList& moves);
    // Ordering value of `s` for `me`: what it makes, and what it takes from
    // the opponent.
    [[nodiscard]] int order_score(int me, Sq s) const;
    // Sends an info line for a best move `s`; returns `s`.
    Sq report(const SearchClock& clock, const InfoSink& info, int depth, int score, Sq s) const;
    // The move decided before any search, reported: the centre of an empty
    // board, our five, the block of the opponent's five, our open four (when
    // `open_four`), the first move of our VCF. kNoSq when there is none.
    [[nodiscard]] Sq decided_move(const SearchClock& clock, const InfoSink& info, bool open_four);
    // Our VCT (its first move, reported), or the root moves that stop the
    // opponent's (when `defend`); kNoSq unless a move is decided.
    [[nodiscard]] Sq vct_move(MoveList& root, const SearchClock& clock, const InfoSink& info,
                              bool defend);
    // Would the opponent win by fours if we did nothing (a search of at most
    // threat_nodes)? Then `moves` = the empty cells of its winning line and
    // our fours, unsorted; false otherwise.
    bool opponent_vcf_moves(MoveList& moves);
    // root = the first `width` candidates that `refuted` (called with each
    // played) does not refute, proven ones first.
    using Refuted = std::function<bool()>;
    void keep_defences(MoveList& root, const MoveList& candidates, int width,
                       SearchClock::Clock::time_point limit, const Refuted& refuted);
    // Keeps the moves of `candidates` after which the opponent has no VCF.
    void keep_vcf_defences(MoveList& root, const MoveList& candidates);
    // Keeps the root moves after which the opponent has no VCT (when it has
    // one, were it to move).
    void defend_vct(MoveList& root, const InfoSink& info);
    // One iteration of principal variation search over `root` at `depth`:
    // the root scores are set (root_rank(), by fail_low_order_), and `best`
    // and `best_value` once a move is searched fully (an iteration cut short
    // still counts once its first move, the previous best, is searched).
    void search_root(MoveList& root, int depth, Sq& best, int& best_value);
    // Iterative deepening of search_root over `root` (in order) up to
    // `max_depth`, until a proven result; past the soft limit no iteration
    // deeper than `min_depth` starts. Returns the best move; `completed` is
    // the last iteration completed. The last info line of a search cut short
    // names the iteration cut short when `report_started`, else `completed`.
    // `value`, when given, receives the best move's score.
    [[nodiscard]] Sq deepen(MoveList& root, const SearchClock& clock, const InfoSink& info,
                            int max_depth, int min_depth, bool report_started, int& completed,
                            int* value = nullptr);

    ThreatLimits limits_;
    ThreatSolver solver_;
    FailLowOrder fail_low_order_ = FailLowOrder::kLastFirst;
    // Whether the last defend_vct() found a VCT of the opponent.
    bool vct_threat_ = false;
    std::uint64_t solver_base_ = 0;
    const SearchClock* clock_ = nullptr;
    bool aborted_ = false;
};

}  // namespace arena::bots::gomoku
