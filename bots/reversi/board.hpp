#pragma once
// Reversi bitboards shared by the reversi bots.
//
// Same layout as arena/games/reversi.hpp: bit (row * 8 + col), row 0 at the
// top, col 0 (file a) at the left, so "col + 1" is a shift left by 1 and
// "row + 1" a shift left by 8. A position is two bitboards seen from the side
// to move: `own` (the mover's discs) and `opp`. Playing a move is copy-make:
//     f = flips(own, opp, sq);  next = {opp ^ f, own | f | bit(sq)}
// and the sides swap, so a pass is just {opp, own}.

#include <bit>
#include <cstdint>
#include <string>

#include "arena/games/reversi.hpp"

namespace arena::bots::reversi {

using Bitboard = std::uint64_t;

inline constexpr int kCells = 64;
inline constexpr Bitboard kAll = ~Bitboard{0};
// Columns b..g: a horizontal or diagonal run of flipped discs never includes
// column a or h, so masking them away also stops runs wrapping round a side.
inline constexpr Bitboard kInnerCols = 0x7e7e7e7e7e7e7e7eULL;
inline constexpr Bitboard kCorners = 0x8100000000000081ULL;

[[nodiscard]] constexpr Bitboard bit(int sq) {
    return Bitboard{1} << sq;
}
[[nodiscard]] constexpr int popcount(Bitboard b) {
    return std::popcount(b);
}
[[nodiscard]] constexpr int lsb(Bitboard b) {
    return std::countr_zero(b);
}

template <int kShift>
[[nodiscard]] constexpr Bitboard shift(Bitboard b) {
    if constexpr (kShift > 0) {
        return b << kShift;
    } else {
        return b >> -kShift;
    }
}

namespace detail {

// Empty-or-not cells reached from `own` over runs of `mask` in both senses of
// one axis (kDir and -kDir): a parallel prefix fill that covers runs of up to
// six opponent discs in three doubling steps.
template <int kDir>
[[nodiscard]] constexpr Bitboard moves_axis(Bitboard own, Bitboard mask) {
    Bitboard fl = mask & (own << kDir);
    Bitboard fr = mask & (own >> kDir);
    fl |= mask & (fl << kDir);
    fr |= mask & (fr >> kDir);
    const Bitboard ml = mask & (mask << kDir);
    const Bitboard mr = ml >> kDir;
    fl |= ml & (fl << (2 * kDir));
    fr |= mr & (fr >> (2 * kDir));
    fl |= ml & (fl << (2 * kDir));
    fr |= mr & (fr >> (2 * kDir));
    return (fl << kDir) | (fr >> kDir);
}

// The run of `mask` discs starting next to `placed` in direction kShift,
// kept only when a disc of `own` closes it.
template <int kShift>
[[nodiscard]] constexpr Bitboard flips_dir(Bitboard placed, Bitboard own, Bitboard mask) {
    Bitboard run = shift<kShift>(placed) & mask;
    run |= shift<kShift>(run) & mask;
    run |= shift<kShift>(run) & mask;
    run |= shift<kShift>(run) & mask;
    run |= shift<kShift>(run) & mask;
    run |= shift<kShift>(run) & mask;
    return (shift<kShift>(run) & own) != 0 ? run : 0;
}

}  // namespace detail

// Cells where the side owning `own` may play.
[[nodiscard]] constexpr Bitboard legal_moves(Bitboard own, Bitboard opp) {
    const Bitboard inner = opp & kInnerCols;
    return (detail::moves_axis<1>(own, inner) | detail::moves_axis<8>(own, opp) |
            detail::moves_axis<7>(own, inner) | detail::moves_axis<9>(own, inner)) &
           ~(own | opp);
}

// The opponent discs flipped by a disc of `own` placed on `sq` (0: not a move).
[[nodiscard]] constexpr Bitboard flips(Bitboard own, Bitboard opp, int sq) {
    const Bitboard placed = bit(sq);
    const Bitboard inner = opp & kInnerCols;
    return detail::flips_dir<1>(placed, own, inner) | detail::flips_dir<-1>(placed, own, inner) |
           detail::flips_dir<8>(placed, own, opp) | detail::flips_dir<-8>(placed, own, opp) |
           detail::flips_dir<7>(placed, own, inner) | detail::flips_dir<-7>(placed, own, inner) |
           detail::flips_dir<9>(placed, own, inner) | detail::flips_dir<-9>(placed, own, inner);
}

// Cells next (in the eight directions) to a cell of `b`.
[[nodiscard]] constexpr Bitboard neighbours(Bitboard b) {
    const Bitboard h = ((b << 1) & ~0x0101010101010101ULL) | ((b >> 1) & ~0x8080808080808080ULL);
    const Bitboard row = b | h;
    return h | (row << 8) | (row >> 8);
}

// A position seen from the side to move.
struct Position {
    Bitboard own = 0;
    Bitboard opp = 0;

    [[nodiscard]] constexpr Bitboard empty() const { return ~(own | opp); }
    [[nodiscard]] constexpr int empties() const { return popcount(empty()); }
    [[nodiscard]] constexpr Bitboard moves() const { return legal_moves(own, opp); }
    // Precondition: `sq` is a legal move.
    [[nodiscard]] constexpr Position play(int sq) const {
        const Bitboard f = flips(own, opp, sq);
        return {opp ^ f, own | f | bit(sq)};
    }
    [[nodiscard]] constexpr Position pass() const { return {opp, own}; }
    // Final disc difference for the side to move (empty cells count for nobody).
    [[nodiscard]] constexpr int disc_diff() const { return popcount(own) - popcount(opp); }
    constexpr bool operator==(const Position&) const = default;
};

[[nodiscard]] inline Position position_of(const games::ReversiState& state) {
    const int me = state.current_player();
    return {state.discs(me), state.discs(3 - me)};
}

// A 64-bit hash of a position (for transposition tables).
[[nodiscard]] constexpr std::uint64_t hash_of(const Position& pos) {
    std::uint64_t z =
        pos.own * 0x9e3779b97f4a7c15ULL ^ std::rotl(pos.opp, 29) * 0xc2b2ae3d27d4eb4fULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// The position after `plies` uniformly random moves (passes included) from
// the start, drawn with splitmix64 and plain modulo so that it is the same on
// every platform: the --bench positions. Stops early if the game ends.
[[nodiscard]] inline games::ReversiState random_position(std::uint64_t seed, int plies) {
    games::ReversiState state;
    std::uint64_t x = seed;
    for (int i = 0; i < plies; ++i) {
        const auto moves = state.legal_moves();
        if (moves.empty()) break;
        x += 0x9e3779b97f4a7c15ULL;
        std::uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        state.apply(moves[z % moves.size()]);
    }
    return state;
}

// Square names for info lines and tests ("a1" = bit 0, "h8" = bit 63).
[[nodiscard]] inline std::string square_name(int sq) {
    return {static_cast<char>('a' + sq % 8), static_cast<char>('1' + sq / 8)};
}

}  // namespace arena::bots::reversi
