#pragma once
// Bit sets for the Connect-4 bots: a plain 64-bit word for boards whose cells
// and sentinel row fit in one word ((rows + 1) * cols <= 64, the standard
// 7 x 6 board among them), and Wide<N>, N words, for everything up to
// 16 x 16 (17 * 16 = 272 bits). Every search is a template over the bit-set
// type, so the small boards keep the single-word speed.
//
// The free functions below (any, popcount, bit, test, lowest_index, ...)
// have one overload per type; the searches use nothing else.

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

namespace arena::c4 {

template <int N>
struct Wide {
    static constexpr int kWords = N;
    std::array<std::uint64_t, N> w{};

    [[gnu::always_inline]] friend constexpr Wide operator&(Wide a, const Wide& b) {
        for (int i = 0; i < N; ++i)
            a.w[i] &= b.w[i];
        return a;
    }
    [[gnu::always_inline]] friend constexpr Wide operator|(Wide a, const Wide& b) {
        for (int i = 0; i < N; ++i)
            a.w[i] |= b.w[i];
        return a;
    }
    [[gnu::always_inline]] friend constexpr Wide operator^(Wide a, const Wide& b) {
        for (int i = 0; i < N; ++i)
            a.w[i] ^= b.w[i];
        return a;
    }
    [[gnu::always_inline]] friend constexpr Wide operator~(Wide a) {
        for (int i = 0; i < N; ++i)
            a.w[i] = ~a.w[i];
        return a;
    }
    [[gnu::always_inline]] constexpr Wide& operator&=(const Wide& b) { return *this = *this & b; }
    [[gnu::always_inline]] constexpr Wide& operator|=(const Wide& b) { return *this = *this | b; }
    [[gnu::always_inline]] constexpr Wide& operator^=(const Wide& b) { return *this = *this ^ b; }
    friend constexpr bool operator==(const Wide&, const Wide&) = default;

    // Shifts towards higher bit indices; bits pushed past the top are lost.
    [[gnu::always_inline]] friend constexpr Wide operator<<(const Wide& a, int s) {
        Wide r;
        const int q = s >> 6;
        const int b = s & 63;
        if (b == 0) {
            for (int i = N - 1; i >= q; --i)
                r.w[i] = a.w[i - q];
        } else {
            for (int i = N - 1; i > q; --i)
                r.w[i] = (a.w[i - q] << b) | (a.w[i - q - 1] >> (64 - b));
            if (q < N) r.w[q] = a.w[0] << b;
        }
        return r;
    }
    [[gnu::always_inline]] friend constexpr Wide operator>>(const Wide& a, int s) {
        Wide r;
        const int q = s >> 6;
        const int b = s & 63;
        if (b == 0) {
            for (int i = 0; i + q < N; ++i)
                r.w[i] = a.w[i + q];
        } else {
            for (int i = 0; i + q + 1 < N; ++i)
                r.w[i] = (a.w[i + q] >> b) | (a.w[i + q + 1] << (64 - b));
            if (q < N) r.w[N - 1 - q] = a.w[N - 1] >> b;
        }
        return r;
    }
};

using Wide3 = Wide<3>;  // up to 192 bits: every tsinghua board (13 * 12 = 156)
using Wide5 = Wide<5>;  // up to 320 bits: 16 x 16 with its sentinel row

template <class B>
inline constexpr int kBits = 64 * B::kWords;
template <>
inline constexpr int kBits<std::uint64_t> = 64;

[[nodiscard]] constexpr bool any(std::uint64_t b) {
    return b != 0;
}
[[nodiscard]] constexpr int popcount(std::uint64_t b) {
    return std::popcount(b);
}
template <class B>
[[nodiscard]] constexpr B bit(int i) {
    if constexpr (std::is_same_v<B, std::uint64_t>) {
        return std::uint64_t{1} << i;
    } else {
        B r;
        r.w[i >> 6] = std::uint64_t{1} << (i & 63);
        return r;
    }
}
[[nodiscard]] constexpr bool test(std::uint64_t b, int i) {
    return ((b >> i) & 1U) != 0;
}
// Index of the lowest set bit; b must not be empty.
[[nodiscard]] constexpr int lowest_index(std::uint64_t b) {
    return std::countr_zero(b);
}
// More than one bit set.
[[nodiscard]] constexpr bool several(std::uint64_t b) {
    return (b & (b - 1)) != 0;
}

template <int N>
[[nodiscard]] constexpr bool any(const Wide<N>& b) {
    std::uint64_t r = 0;
    for (int i = 0; i < N; ++i)
        r |= b.w[i];
    return r != 0;
}
template <int N>
[[nodiscard]] constexpr int popcount(const Wide<N>& b) {
    int r = 0;
    for (int i = 0; i < N; ++i)
        r += std::popcount(b.w[i]);
    return r;
}
template <int N>
[[nodiscard]] constexpr bool test(const Wide<N>& b, int i) {
    return ((b.w[i >> 6] >> (i & 63)) & 1U) != 0;
}
template <int N>
[[nodiscard]] constexpr int lowest_index(const Wide<N>& b) {
    for (int i = 0; i < N; ++i)
        if (b.w[i] != 0) return 64 * i + std::countr_zero(b.w[i]);
    return kBits<Wide<N>>;
}
template <int N>
[[nodiscard]] constexpr bool several(const Wide<N>& b) {
    return popcount(b) > 1;
}

// Calls f(index) for every set bit, lowest first.
template <class F>
constexpr void for_each_bit(std::uint64_t b, F&& f) {
    while (b != 0) {
        f(std::countr_zero(b));
        b &= b - 1;
    }
}
template <int N, class F>
constexpr void for_each_bit(const Wide<N>& b, F&& f) {
    for (int i = 0; i < N; ++i) {
        std::uint64_t x = b.w[i];
        while (x != 0) {
            f(64 * i + std::countr_zero(x));
            x &= x - 1;
        }
    }
}

}  // namespace arena::c4
