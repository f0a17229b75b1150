#include "bots/reversi/pro_eval.hpp"

#include <algorithm>
#include <cmath>

namespace arena::bots::reversi::pro {
namespace {

constexpr Bitboard kColA = 0x0101010101010101ULL;
constexpr Bitboard kColH = 0x8080808080808080ULL;
constexpr Bitboard kRow1 = 0x00000000000000ffULL;
constexpr Bitboard kRow8 = 0xff00000000000000ULL;
constexpr Bitboard kBorder = kColA | kColH | kRow1 | kRow8;
constexpr Bitboard kEdgesNoCorners = kBorder & ~kCorners;

// The cells of each diagonal: kDiag9 runs towards row + 1, col + 1 (a1-h8),
// kDiag7 towards row + 1, col - 1 (h1-a8). Only diagonals of 3 or more cells.
struct Diagonals {
    std::array<Bitboard, 11> down_right{};
    std::array<Bitboard, 11> down_left{};
};

constexpr Diagonals make_diagonals() {
    Diagonals d;
    for (int k = -5; k <= 5; ++k) {  // col - row = k, and col + row = 7 + k
        Bitboard a = 0, b = 0;
        for (int row = 0; row < 8; ++row) {
            const int col = row + k;
            if (col >= 0 && col < 8) a |= bit(row * 8 + col);
            const int col2 = 7 + k - row;
            if (col2 >= 0 && col2 < 8) b |= bit(row * 8 + col2);
        }
        d.down_right[k + 5] = a;
        d.down_left[k + 5] = b;
    }
    return d;
}

constexpr Diagonals kDiagonals = make_diagonals();

// X- and C-squares that count (their corner is empty), for one corner.
struct CornerCells {
    int corner;
    int x;
    Bitboard c;
};
constexpr std::array<CornerCells, 4> kCornerCells{{
    {0, 9, bit(1) | bit(8)},
    {7, 14, bit(6) | bit(15)},
    {56, 49, bit(48) | bit(57)},
    {63, 54, bit(55) | bit(62)},
}};

[[nodiscard]] int diff(const Position& pos, Bitboard mask) {
    return popcount(pos.own & mask) - popcount(pos.opp & mask);
}

}  // namespace

Bitboard stable_discs(Bitboard own, Bitboard opp) {
    const Bitboard occupied = own | opp;
    if ((own & kBorder) == 0) return 0;  // stability always grows from an edge
    // Cells whose line along each axis holds no empty cell.
    Bitboard full_h = 0, full_v = 0, full_9 = 0, full_7 = 0;
    for (int i = 0; i < 8; ++i) {
        const Bitboard row = kRow1 << (8 * i);
        if ((occupied & row) == row) full_h |= row;
        const Bitboard col = kColA << i;
        if ((occupied & col) == col) full_v |= col;
    }
    for (std::size_t i = 0; i < kDiagonals.down_right.size(); ++i) {
        const Bitboard a = kDiagonals.down_right[i];
        if ((occupied & a) == a) full_9 |= a;
        const Bitboard b = kDiagonals.down_left[i];
        if ((occupied & b) == b) full_7 |= b;
    }
    // Diagonals of one or two cells hold only border cells, which the
    // border masks below cover.

    Bitboard stable = own & ((full_h & full_v & full_9 & full_7) | kCorners);
    for (;;) {
        const Bitboard h =
            full_h | kColA | kColH | ((stable << 1) & ~kColA) | ((stable >> 1) & ~kColH);
        const Bitboard v = full_v | kRow1 | kRow8 | (stable << 8) | (stable >> 8);
        const Bitboard d9 = full_9 | kBorder | ((stable << 9) & ~kColA) | ((stable >> 9) & ~kColH);
        const Bitboard d7 = full_7 | kBorder | ((stable << 7) & ~kColH) | ((stable >> 7) & ~kColA);
        const Bitboard next = stable | (own & h & v & d9 & d7);
        if (next == stable) return stable;
        stable = next;
    }
}

FeatureVector features(const Position& pos, Bitboard own_moves, Bitboard opp_moves) {
    FeatureVector f{};
    const Bitboard occupied = pos.own | pos.opp;
    const Bitboard empty = ~occupied;
    const Bitboard next_to_empty = neighbours(empty);
    f[kBias] = 1;
    f[kMobility] = popcount(own_moves) - popcount(opp_moves);
    f[kPotential] = popcount(empty & neighbours(pos.opp)) - popcount(empty & neighbours(pos.own));
    f[kFrontier] = popcount(pos.opp & next_to_empty) - popcount(pos.own & next_to_empty);
    f[kCornerDiscs] = diff(pos, kCorners);
    Bitboard x = 0, c = 0;
    for (const CornerCells& cc : kCornerCells) {
        if ((empty & bit(cc.corner)) != 0) {
            x |= bit(cc.x);
            c |= cc.c;
        }
    }
    f[kXSquares] = diff(pos, x);
    f[kCSquares] = diff(pos, c);
    f[kStable] =
        popcount(stable_discs(pos.own, pos.opp)) - popcount(stable_discs(pos.opp, pos.own));
    f[kEdges] = diff(pos, kEdgesNoCorners);
    f[kDiscs] = pos.disc_diff();
    f[kCornerMoves] = popcount(own_moves & kCorners) - popcount(opp_moves & kCorners);
    return f;
}

Weights hand_weights() {
    Weights w{};
    for (auto& phase : w) {
        phase[kBias] = 0;
        phase[kMobility] = 60;
        phase[kPotential] = 20;
        phase[kFrontier] = 25;
        phase[kCornerDiscs] = 500;
        phase[kXSquares] = -200;
        phase[kCSquares] = -60;
        phase[kStable] = 80;
        phase[kEdges] = 20;
        phase[kDiscs] = 0;
        phase[kCornerMoves] = 150;
    }
    return w;
}

int evaluate(const Weights& w, const Position& pos, Bitboard own_moves, Bitboard opp_moves) {
    const FeatureVector f = features(pos, own_moves, opp_moves);
    const auto& phase = w[static_cast<std::size_t>(pos.empties() > 60 ? 60 : pos.empties())];
    float s = 0;
    for (int k = 0; k < kFeatureCount; ++k)
        s += phase[k] * static_cast<float>(f[k]);
    const int v = static_cast<int>(std::lround(s));
    return std::clamp(v, -kEvalLimit, kEvalLimit);
}

}  // namespace arena::bots::reversi::pro
