#pragma once
// reversi-pro: a Reversi engine on the bitboards of board.hpp.
//
// Midgame: principal variation search with iterative deepening, a
// transposition table kept between the moves of a game (entries of older
// searches stay usable; newer ones replace them first; those of earlier
// games are ignored), moves ordered by the
// table move, then by corners, the opponent's mobility after the move
// (fewest first) and a static square priority; the leaves are scored by the
// phase-weighted evaluation of pro_eval.hpp.
//
// Endgame: an exact solver of the final disc difference. It first proves
// win, draw or loss with a null window around 0, then, two empties later
// than the proof, narrows to the exact count. It orders moves fastest-first (fewest replies,
// corners first) and by parity (cells in a quadrant with an odd number of empties first), stops a
// node early when the other side's stable discs already decide it, keeps the table down to 10
// empties and solves the last few cells without move lists.
//
// Time: SearchClock on with_pro_reserve(). The midgame deepens until the
// soft limit; a solve runs when few enough cells are empty for the budget
// and is abandoned at the hard limit, the midgame's (or the win/loss
// proof's) move standing.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "arena/games/game.hpp"
#include "bots/common/bot_loop.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/reversi/board.hpp"
#include "bots/reversi/pro_eval.hpp"
#include "bots/reversi/search_base.hpp"

namespace arena::bots::reversi::pro {

// Scores of the midgame search: evaluations stay within +-kEvalLimit; a
// finished game scores kWin plus 100 times the disc difference.
inline constexpr int kWin = 10000;
inline constexpr int kInf = search::kInf;

struct Report {
    int move = -1;       // best move (a cell), -1 when none
    int depth = 0;       // plies of the last completed iteration (empties when solved)
    int score = 0;       // hundredths of a disc, or the disc difference when solved
    bool exact = false;  // the exact final disc difference
    bool wld = false;    // only win (+1), draw (0) or loss (-1) proved
    std::uint64_t nodes = 0;
};

class Searcher : public search::SearchBase {
  public:
    // 2^tt_bits table entries of 16 bytes.
    explicit Searcher(const Weights& weights, int tt_bits = 21);

    // Iterative deepening to `max_depth` (0: no limit) until the soft limit;
    // then, with at most `solve_empties` empty cells, the solve until the
    // hard limit. Precondition: the side to move has a legal move.
    // With `presolve`, its soft limit ends the midgame part before a solve.
    // The solve proves win, draw or loss, then counts the exact difference
    // with at most `exact_empties` empty cells.
    Report search(const Position& pos, const SearchClock& clock, int max_depth, int solve_empties,
                  const std::function<void(const Report&)>& on_report = {},
                  const SearchClock* presolve = nullptr, int exact_empties = 64);

    // Negamax value at a fixed depth (no clock).
    [[nodiscard]] int value(const Position& pos, int depth);
    // The exact final disc difference with perfect play, within [alpha, beta]
    // (fail-soft outside it); nullopt when the clock's hard limit passed.
    [[nodiscard]] std::optional<int> solve(const Position& pos, int alpha, int beta,
                                           const SearchClock& clock);
    // The best move and exact score by the solver (no clock); -1 when the
    // side to move has no move.
    [[nodiscard]] Report solve_root(const Position& pos);

    // Forgets every stored position (writes the whole table).
    void clear();
    // Forgets the positions of earlier games without touching the table:
    // entries carry the game they were stored in. A full clear would run
    // between `game` and the first `go`, on the first move's clock.
    void new_game();

  private:
    using RootMove = search::RootMove;

    int pvs(const Position& pos, int depth, int alpha, int beta);
    int end_search(const Position& pos, int alpha, int beta, int empties);
    std::optional<Report> end_root(const Position& pos, std::vector<RootMove>& moves, int alpha,
                                   int beta);

    const search::Entry* probe(std::uint64_t key) const;
    void store(std::uint64_t key, int depth, int score, int alpha0, int beta, int move);

    const Weights& weights_;
    std::uint16_t game_ = 1;
};

struct ProOptions {
    int depth = 0;             // fixed maximum midgame depth; 0: as deep as the clock allows
    int solve_empties = -1;    // solve at or below this many empties; -1: by the time budget
    std::optional<int> level;  // weaker: depth = level, solve at level + 4 empties
};

// The limit given to SearchClock: the announced one less a reserve for a
// loaded machine. budget.hpp's 30 ms was not enough for reversi-pro: at
// 100 ms a move and load 4 on 2 cores, answers that stopped searching at
// 67 ms arrived after 110 ms 3 times in 20 games (the arena runs the bots
// at nice 5, behind the other work), and at 1 s and load 6 one answer that
// stopped at 729 ms arrived after 947 ms. Here: 40 ms plus 20 % of the
// limit, at most 60 % of it (100 ms: 40 left; 1 s: 760).
[[nodiscard]] protocol::Go with_pro_reserve(protocol::Go go);

// Empties the solver is tried on with `usable_ms` (after the reserve) a
// move. The win/loss proof of 20 empties took 0.01 to 1.2 s at load 4 on
// 2 cores, of 18 empties at most 0.34 s; the exact count 2 to 6 times more.
[[nodiscard]] int solve_empties_for(std::int64_t usable_ms);

class ProEngine final : public Engine {
  public:
    explicit ProEngine(const ProOptions& options);

    void new_game(const games::Game& game, int player) override;
    [[nodiscard]] games::Move choose(const games::State& state, const protocol::Go& go,
                                     const InfoSink& info) override;

  private:
    ProOptions options_;
    Searcher searcher_;
};

// The --bench positions: prints `nodes` and `nps`.
int pro_bench();

}  // namespace arena::bots::reversi::pro
