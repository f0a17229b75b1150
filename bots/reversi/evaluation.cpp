#include "bots/reversi/evaluation.hpp"

#include <array>

namespace arena::bots::reversi {
namespace {

// The cells the corner strategy looks at around one corner, and the two edge
// lines that start at it (corner first).
struct CornerZone {
    Bitboard corner = 0;
    Bitboard c_squares = 0;  // next to the corner on its edges
    Bitboard x_square = 0;   // diagonally next to the corner
    Bitboard a_squares = 0;  // two cells from the corner on its edges
    Bitboard b_squares = 0;  // a knight's move from the corner
    std::array<int, 8> column_line{};
    std::array<int, 8> row_line{};
};

constexpr int cell(int row, int col) {
    return row * 8 + col;
}

constexpr CornerZone make_zone(int row, int col, int dy, int dx) {
    CornerZone z;
    z.corner = bit(cell(row, col));
    z.c_squares = bit(cell(row, col + dx)) | bit(cell(row + dy, col));
    z.x_square = bit(cell(row + dy, col + dx));
    z.a_squares = bit(cell(row, col + 2 * dx)) | bit(cell(row + 2 * dy, col));
    z.b_squares = bit(cell(row + dy, col + 2 * dx)) | bit(cell(row + 2 * dy, col + dx));
    for (int i = 0; i < 8; ++i) {
        z.column_line[i] = cell(row + i * dy, col);
        z.row_line[i] = cell(row, col + i * dx);
    }
    return z;
}

constexpr std::array<CornerZone, 4> kZones{make_zone(0, 0, 1, 1), make_zone(0, 7, 1, -1),
                                           make_zone(7, 0, -1, 1), make_zone(7, 7, -1, -1)};

constexpr Bitboard kInner36 = 0x007e7e7e7e7e7e00ULL;

// Mover's discs minus opponent's discs in `mask`.
[[nodiscard]] int diff_in(const Position& pos, Bitboard mask) {
    return popcount(pos.own & mask) - popcount(pos.opp & mask);
}

[[nodiscard]] int run_length(Bitboard colour, const std::array<int, 8>& line) {
    int n = 0;
    while (n < 8 && (colour & bit(line[n])) != 0)
        ++n;
    return n;
}

}  // namespace

int evaluate(const Position& pos, Bitboard own_moves, Bitboard opp_moves, const EvalWeights& w) {
    const Bitboard occupied = pos.own | pos.opp;
    int corner = 0;
    int steady = 0;
    for (const CornerZone& z : kZones) {
        if ((occupied & z.corner) == 0) {
            corner += -3 * diff_in(pos, z.c_squares) - 6 * diff_in(pos, z.x_square) +
                      4 * diff_in(pos, z.a_squares) + 2 * diff_in(pos, z.b_squares);
        } else {
            const bool mine = (pos.own & z.corner) != 0;
            const Bitboard colour = mine ? pos.own : pos.opp;
            const int sign = mine ? 1 : -1;
            corner += 15 * sign;
            steady += sign * (run_length(colour, z.column_line) + run_length(colour, z.row_line));
        }
    }
    const int mobility = popcount(own_moves) - popcount(opp_moves);
    const Bitboard frontier_cells = neighbours(~occupied) & kInner36;
    const int frontier = popcount(pos.opp & frontier_cells) - popcount(pos.own & frontier_cells);
    return w.corner * corner + w.steady * steady + w.mobility * mobility + w.frontier * frontier;
}

}  // namespace arena::bots::reversi
