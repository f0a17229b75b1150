#pragma once
// reversi-alphabeta: the seed 002 program (OrangeX5) rebuilt on bitboards.
//
// Seed: negamax alpha-beta to depth 4-6 chosen by the mover's number of legal
// moves (< 5: 6, < 10: 5, else 4), a cache of searched positions, and the
// corner / X- and C-square / edge-stable / frontier / mobility evaluation
// (evaluation.hpp). A side with no move passes without using depth; the game
// ends when neither side can move.
//
// Here: principal variation search with iterative deepening under the clock,
// a transposition table (the seed's cache, keyed by a hash of the two
// bitboards, with bounds and a best move for ordering), moves ordered by the
// table move, then by few replies for the opponent and a static square
// priority, and an exact endgame solver (disc difference, fastest-first
// ordering, last move counted directly) when few cells are empty. If the
// solve cannot finish within the hard limit, the midgame search's move
// stands. The seed's mobility rule sets the depth of the weaker levels.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "arena/games/game.hpp"
#include "bots/common/bot_loop.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/reversi/board.hpp"
#include "bots/reversi/evaluation.hpp"
#include "bots/reversi/search_base.hpp"

namespace arena::bots::reversi {

// Game-over scores: kWinScore plus the disc difference, beyond any evaluation.
inline constexpr int kWinScore = 20000;
inline constexpr int kInfinity = search::kInf;

// The seed program's depth for a position with `mobility` legal moves.
[[nodiscard]] constexpr int seed_depth(int mobility) {
    return mobility < 5 ? 6 : mobility < 10 ? 5 : 4;
}

struct SearchReport {
    int move = -1;       // best move found (a cell), -1 when none
    int depth = 0;       // plies of the last completed iteration (empties when exact)
    int score = 0;       // evaluation units, or the final disc difference when exact
    bool exact = false;  // from the endgame solver
    std::uint64_t nodes = 0;
};

class Searcher : public search::SearchBase {
  public:
    // The transposition table has 2^tt_bits entries of 16 bytes; the
    // evaluation uses `weights`.
    explicit Searcher(int tt_bits = 20, const EvalWeights& weights = {});

    // Iterative deepening from depth 1 to `max_depth` (or until the soft
    // limit), then, when the position has at most `endgame_empties` empty
    // cells, an exact solve until the hard limit. `on_report` is called after
    // each completed iteration and after the solve. Precondition: the side to
    // move has a legal move.
    SearchReport search(const Position& pos, const SearchClock& clock, int max_depth,
                        int endgame_empties,
                        const std::function<void(const SearchReport&)>& on_report = {});

    // The exact final disc difference (side to move's view) with perfect play
    // and the best move (-1 when the side to move must pass or the game is
    // over); nullopt when the hard limit passed first.
    [[nodiscard]] std::optional<SearchReport> solve(const Position& pos, const SearchClock& clock);

    // Negamax value of `pos` at a fixed depth (tests).
    [[nodiscard]] int value(const Position& pos, int depth);

    // Forgets every stored position (the table is reused by generation).
    void new_search();

  private:
    using RootMove = search::RootMove;

    int negamax(const Position& pos, int depth, int alpha, int beta);
    int solve_node(const Position& pos, int alpha, int beta);
    std::optional<SearchReport> solve_root(const Position& pos);

    const search::Entry* probe(std::uint64_t key);
    void store(std::uint64_t key, int depth, int score, int alpha0, int beta, int move);

    EvalWeights weights_;
};

struct AlphaBetaOptions {
    int depth = 0;             // fixed maximum depth; 0: as deep as the clock allows
    int endgame_empties = 14;  // exact solve at or below this many empty cells; 0: never
    std::optional<int> level;  // weaker: depth = seed_depth(mobility) + level - 4, min 1
    EvalWeights weights;       // of the evaluation (--corner, --steady, ...)
};

class AlphaBetaEngine final : public Engine {
  public:
    explicit AlphaBetaEngine(const AlphaBetaOptions& options)
        : options_(options), searcher_(20, options.weights) {}

    void new_game(const games::Game& game, int player) override;
    [[nodiscard]] games::Move choose(const games::State& state, const protocol::Go& go,
                                     const InfoSink& info) override;

  private:
    AlphaBetaOptions options_;
    Searcher searcher_;
};

// The --bench positions and depth, with the evaluation's `weights`: prints
// `nodes` and `nps`.
int alphabeta_bench(const EvalWeights& weights = {});

}  // namespace arena::bots::reversi
