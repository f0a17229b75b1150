#pragma once
// What the Gomoku engines share: loading the arena's position into a
// Board, the protocol glue, move lists and score constants.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "bots/common/bot_loop.hpp"
#include "bots/common/search_clock.hpp"
#include "bots/common/search_limits.hpp"
#include "bots/gomoku/board.hpp"

namespace arena::bots::gomoku {

// Search scores: a win in n plies scores kWinScore - n; anything beyond
// kMateBound is a proven result.
inline constexpr int kWinScore = 10'000'000;
inline constexpr int kMateBound = kWinScore - 10'000;
inline constexpr int kInfinity = kWinScore + 1;

// Squares with ordering scores, on the stack.
struct MoveList {
    std::array<std::int16_t, kMaxMoves> sq;
    std::array<int, kMaxMoves> score;
    int size = 0;

    void add(Sq s, int value = 0) {
        sq[size] = static_cast<std::int16_t>(s);
        score[size++] = value;
    }
    [[nodiscard]] bool contains(Sq s) const {
        return std::find(sq.begin(), sq.begin() + size, s) != sq.begin() + size;
    }
    // Stable sort by decreasing score (ties keep their order: deterministic).
    void sort();
    // Keeps the first n.
    void truncate(int n) { size = std::min(size, n); }
};

// The board of an arena Gomoku state, side to move included. Throws
// games::GameError when the state is not a Gomoku state.
void load_state(Board& board, const games::State& state);

// "h8" for a square of `board`.
[[nodiscard]] std::string square_name(const Board& board, Sq s);

// Empty cells within one (radius 1) or two steps of a stone; every empty
// cell when there are none (an empty board gives the centre).
void near_moves(const Board& board, int radius, MoveList& out);

// `color` threatens an open four on two different lines: one defending move
// cannot stop both (the seed's "double three").
[[nodiscard]] bool two_open_threes(const Board& board, int color);

class GomokuEngine : public Engine {
  public:
    GomokuEngine();
    void new_game(const games::Game& game, int player) override;
    [[nodiscard]] games::Move choose(const games::State& state, const protocol::Go& go,
                                     const InfoSink& info) override;

    // Chooses a move for board() (loaded, not over, side to move = us).
    [[nodiscard]] virtual Sq think(const SearchClock& clock, const InfoSink& info) = 0;

    // Searches board() as it stands (set it up first), with no time limit:
    // for benchmarks and tests at a fixed depth.
    [[nodiscard]] Sq think_untimed(const InfoSink& info);

    [[nodiscard]] Board& board() { return board_; }
    // Nodes of the last think(), threat-search nodes included.
    [[nodiscard]] std::uint64_t nodes() const { return nodes_; }

  protected:
    // What is kept back of `go move_ms` (> 0) before SearchClock splits the
    // rest: for the wait for a core on a busy machine, on either side of the
    // pipe. By default 35 ms plus a tenth, at most half.
    [[nodiscard]] virtual std::int64_t reserve_ms(std::int64_t move_ms) const;
    // When `fraction` of the usable time of this move (as SearchClock counts
    // it: the hard limit is 1) has passed since `go`; never under
    // think_untimed().
    [[nodiscard]] SearchClock::Clock::time_point deadline(double fraction) const;

    Board board_;
    // Share of the usable time after which no new iteration starts. An
    // iteration cut at the hard limit still counts once its first move (the
    // previous best) is searched, so starting late is not wasted.
    double soft_fraction_ = 0.7;
    protocol::Go go_;  // the `go` being answered, less the reserve
    SearchClock::Clock::time_point start_{};
    bool timed_ = true;
    std::uint64_t nodes_ = 0;
    // The `go`'s depth= and nodes= (none under think_untimed()): the
    // iterations stop at the depth and the alpha-beta search at the node
    // count, and no soft limit applies. The threat searches of gomoku-vcf and
    // gomoku-pro keep their node budgets and time shares.
    SearchLimits search_limits_;
};

// Plays `moves` ("h8 i9 ...") on a fresh board; false when one is not legal.
[[nodiscard]] bool setup_board(Board& board, int size, Rule rule, const std::string& moves);

// The --bench of the Gomoku bots: searches a fixed set of positions with
// `engine` (configured at a fixed depth) and prints "nodes <n>" and "nps <n>".
int run_bench(GomokuEngine& engine);

// "depth <d> score <s> nodes <n> [nps <n>] time <ms> pv <move>", for `info`.
[[nodiscard]] std::string info_line(const Board& board, int depth, int score, std::uint64_t nodes,
                                    Sq best, std::int64_t ms);

}  // namespace arena::bots::gomoku
