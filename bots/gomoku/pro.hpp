#pragma once
// gomoku-pro: the strongest Gomoku reference bot, built like the classical
// engines of the Gomocup on the shared board (board.hpp: pattern tables for
// the four lines through every cell, updated on make/unmake) and threat-space
// search (threats.hpp).
//
// At the root, in order: complete a five; block the opponent's five-point;
// play our VCF; play a win that the table holds for this position (proven by
// an earlier move's search); if the opponent would have a VCF were it to move
// (a null move), keep only the moves after which it has none; play our VCT;
// keep only the moves that stop the opponent's VCT; then iterative deepening
// of a principal variation search until the soft limit (optionally keeping a
// share of the time to check the chosen move against the opponent's VCT).
// Each iteration tries the last one's best moves first, then the others by
// the nodes their refutation took, most first: when the best move fails low
// in an iteration cut short, the alternatives hardest to refute get the time.
//
// The search keeps a transposition table (Zobrist keys, kept from move to
// move within a game, depth-preferred with ageing), two killer moves per ply
// and a history table per colour. Moves come from the threat patterns: the
// one cell that blocks a five; against an open three only its defences and
// our fours; against a VCF of the opponent (a short search after a null
// move) the cells of its winning line and our fours, and the other cells
// only once all of those lose (a move off the line can still break the VCF:
// one that turns a block it forces into a four of ours); otherwise the cells
// near the stones, ranked by what they make for us and take from the
// opponent, the best few kept (fewer deeper in the tree), and the table's
// move; when all of those lose, the rest too, so that a loss is proven over
// every move. Quiet moves late in the list are searched one or two plies
// shallower first (late move reductions) and searched again at full depth
// when they beat alpha.
//
// At the horizon the side to move looks for a short VCF, then the evaluation
// (pro_eval.hpp): fitted on game outcomes, it weighs what each side could
// make on every empty cell (its two best patterns) and the double threats
// (a four-three, two open threes) that decide games.
//
// The root threat searches, the opponent's VCF inside the search and the
// root iterations are shared with gomoku-vcf (threat_engine.hpp).

#include <array>
#include <cstdint>
#include <vector>

#include "bots/gomoku/threat_engine.hpp"

namespace arena::bots::gomoku {

struct ProOptions {
    int max_depth = 64;                        // iterations of iterative deepening
    int width = 16;                            // quiet moves searched near the root
    int min_width = 12;                        // ... and deep in the tree
    int vcf_depth = 24;                        // own moves in a VCF
    int vct_depth = 8;                         // own moves in a VCT; 0 disables VCT
    std::uint64_t root_vcf_nodes = 2'000'000;  // budgets of the root threat searches
    std::uint64_t root_vct_nodes = 2'000'000;
    std::uint64_t defence_vcf_nodes = 5'000;  // per candidate, when defending against a VCF
    std::uint64_t defence_vct_nodes = 3'000;  // per candidate, when defending against a VCT
    std::uint64_t leaf_vcf_nodes = 100;       // VCF at the horizon; 0 disables it
    std::uint64_t threat_nodes = 200;         // the opponent's VCF inside the search; 0 disables it
    int inner_vcf_depth = 10;                 // VCF tried at each VCT node
    int defence_width = 24;                   // root moves tried against a VCF or VCT threat
    bool reductions = true;                   // late move reductions
    int extend_width = 4;              // a defence among at most this many moves costs no depth
    std::uint64_t node_vct_nodes = 0;  // VCT of the side to move inside the search; 0: none
    int node_vct_depth = 3;            // ... at nodes with at least this depth left
    int node_vct_plies = 5;            // ... own moves in it
    int q_plies = 0;                   // quiescence plies against open threes at the horizon
    bool vct_after_vcf = true;  // against a VCF threat, also keep only the moves that stop a VCT
    std::uint64_t leaf_vct_nodes = 0;      // VCT at the horizon; 0 disables it
    int leaf_vct_depth = 3;                // own moves in that VCT
    int tt_bits = 20;                      // transposition table: 2^tt_bits entries
    int solver_bits = 20;                  // the threat solver's table: 2^solver_bits entries
    bool learned = true;                   // the fitted evaluation, or else the hand-set one
    int null_reduction = 0;                // null-move pruning with this reduction; 0: none
    int late_moves = 0;                    // quiet moves kept at depth 1 (2 more a ply); 0: all
    bool log_reductions = false;           // reductions growing with depth and move number
    double verify_share = 0.0;             // share of the time kept to check the move against a VCT
    std::uint64_t verify_nodes = 400'000;  // node budget of each check
    int defence_percent = 130;  // weight of the opponent's patterns for the second player
};

class ProEngine final : public ThreatEngine {
  public:
    explicit ProEngine(ProOptions options);
    void new_game(const games::Game& game, int player) override;
    // Remembers the longest wait for a core seen in each move's search (see
    // reserve_ms()).
    [[nodiscard]] games::Move choose(const games::State& state, const protocol::Go& go,
                                     const InfoSink& info) override;

    // Static evaluation for the side to move.
    [[nodiscard]] int evaluate() const;
    // Forgets the transposition table, killers and history.
    void clear();
    // Depth of the last completed iteration of the last think().
    [[nodiscard]] int depth_reached() const { return depth_reached_; }

  private:
    static constexpr int kMaxPly = 128;

    // Instead of GomokuEngine's fixed reserve, one that follows the machine:
    // 25 ms plus a twentieth of `move_ms`, and twice the longest wait for a
    // core seen in the last moves' searches (up to a quarter of `move_ms`);
    // at most half. Until a search has measured the waits, they are assumed
    // to be 15 ms: the first move of a process is the one a busy machine
    // catches unprepared.
    [[nodiscard]] std::int64_t reserve_ms(std::int64_t move_ms) const override;

    [[nodiscard]] Sq think_inner(const SearchClock& clock, const InfoSink& info) override;
    int search(int depth, int alpha, int beta, int ply) override;
    int leaf(int ply);
    // Fills `moves` in search order; returns true when they are forced (a
    // defence: nothing else need be tried, and none may be pruned). Without
    // `searched`, the list is cut to the moves worth searching; with it, the
    // list is whole and `searched` says how many of them are worth it.
    bool generate(MoveList& moves, Sq tt_move, int ply, int depth, int* searched = nullptr);
    bool threat_moves(MoveList& moves, int depth);
    [[nodiscard]] bool quiet(int me, Sq s) const;
    [[nodiscard]] bool poll();
    void store(std::uint64_t key, int depth, int score, int bound, Sq move, int ply);
    void reward(int me, Sq s, int depth, int ply);
    bool defend_vcf(MoveList& root, const InfoSink& info);
    // The move of a win proven by an earlier search and kept in the table,
    // reported; kNoSq when there is none.
    [[nodiscard]] Sq proven_win(const SearchClock& clock, const InfoSink& info);
    // The first of `best` and then the other root moves (in order) after
    // which the opponent has no VCT that the solver finds in time; `best`
    // when each of them loses.
    [[nodiscard]] Sq verified(const MoveList& root, Sq best, const InfoSink& info);

    ProOptions options_;
    std::vector<TTEntry> tt_;
    std::array<std::array<std::int16_t, 2>, kMaxPly + 1> killers_{};
    std::array<std::vector<int>, 2> history_;
    std::array<bool, kMaxPly + 2> after_null_{};
    std::uint8_t age_ = 0;
    int depth_reached_ = 0;
    int defender_ = -1;  // the side whose opponent's patterns weigh defence_percent
    // Scheduling lag: the hard limit of this move, the last look at the
    // clock, the longest gap between two looks in this move, and the lag
    // remembered from the last moves (see poll() and choose()).
    SearchClock::Clock::time_point hard_{};
    SearchClock::Clock::time_point last_poll_{};
    SearchClock::Clock::duration max_gap_{};
    std::int64_t lag_ms_ = 15;
};

}  // namespace arena::bots::gomoku
