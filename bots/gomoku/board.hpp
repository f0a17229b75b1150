#pragma once
// The board shared by the Gomoku reference bots: a padded array with
// incremental line patterns, threat sets and a shape evaluation.
//
// Squares. A square (Sq) indexes a padded array: every board row is followed
// by kPad wall cells, and kPad wall rows lie below and above the board (plus
// one spare), so a step of up to kPad cells in any of the four directions
// from a board cell stays inside the array and meets a wall before it could
// wrap round to another board cell.
//
// Patterns. For every empty cell, colour and direction the board keeps what
// that colour would make in that direction by playing there (a five, an open
// four, a four, an open three, ...). It is looked up in a table indexed by
// the ten cells around the cell in that direction (five each side, base 3:
// empty, own, blocked), built once per rule. The window is five wide on each
// side because under exact5 a five only wins when the cells just beyond it
// are not the same colour. Every stone updates the keys of the cells within
// five steps along its four lines, and the patterns of the empty ones: the
// only things a move can change. make() logs the patterns it changes, and
// unmake() puts those back without looking any pattern up again.
//
// Shapes. The evaluation of the seed programs counts shapes (fives, open
// fours, fours, open threes, threes, twos) line by line. Here a line's shape
// for a colour is read from the best pattern of its empty cells along that
// line (a line whose empty cell would make an open four holds an open three,
// one with two five-points an open four, ...), so a move re-evaluates only
// the four lines through it, and the totals are kept incrementally.
//
// Cells. A cell's threat flags and its combination (its two best patterns,
// for gomoku-pro's evaluation) come from one table indexed by its four
// patterns; the board counts the empty cells of each combination per colour.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace arena::bots::gomoku {

inline constexpr int kMaxSize = 26;
inline constexpr int kMinSize = 5;
inline constexpr int kPad = 5;
inline constexpr int kMaxStride = kMaxSize + kPad;
inline constexpr int kMaxSquares = (kMaxSize + 2 * kPad + 1) * kMaxStride;
inline constexpr int kMaxLines = 2 * kMaxSize - 1;
inline constexpr int kMaxMoves = kMaxSize * kMaxSize;
inline constexpr int kWindowKeys = 59049;  // 3^10

using Sq = int;
inline constexpr Sq kNoSq = -1;

enum class Rule : std::uint8_t { kFreestyle, kExact5 };

// Cell contents. Players are 1 (moves first) and 2, as in the arena.
inline constexpr std::uint8_t kEmpty = 0;
inline constexpr std::uint8_t kWall = 3;

[[nodiscard]] constexpr int other(int color) {
    return 3 - color;
}

// What a colour makes in one direction by playing a cell, weakest first.
// F = "flexible" (open), B = "blocked" (closed on one side or cramped).
// F5 five; F4 two or more five-points (open four, or two fours in one line);
// B4 one five-point; F3 a move to an F4 exists (open three); B3 a move to a
// B4; F2/B2 a move to F3/B3; F1/B1 likewise; Dead: no five is possible.
enum Pattern : std::uint8_t { kDead, kB1, kF1, kB2, kF2, kB3, kF3, kB4, kF4, kF5, kPatterns };

// Threat flags of an empty cell for one colour, over its four directions.
inline constexpr std::uint8_t kFlagFive = 1;   // playing here makes five
inline constexpr std::uint8_t kFlagFlex4 = 2;  // an open four or a double four: wins next move
inline constexpr std::uint8_t kFlagFour = 4;   // a four (one five-point) or better
inline constexpr std::uint8_t kFlagThree = 8;  // an open three
inline constexpr std::uint8_t kFlag43 = 16;    // a four and an open three in another line
inline constexpr std::uint8_t kFlag33 = 32;    // open threes in two lines

// The shape of one line for one colour, read from the best patterns of its
// empty cells (shape_of_counts()): an open four is a line with two
// five-points, a four one, an open three a cell making an open four, ...
enum Shape : std::uint8_t {
    kNoShape,
    kShapeOne,
    kShapeTwo,
    kShapeOpenTwo,
    kShapeThree,
    kShapeOpenThree,
    kShapeFour,
    kShapeOpenFour,
    kShapes
};

// The value of each shape (the seed program's table by default, "own score
// minus opponent score"; two open threes are about one open four).
// gomoku-alphabeta's --four, --open-three, ... set them (for `arena tune`).
struct ShapeWeights {
    int open_four = 300000;
    int four = 2600;
    int open_three = 3000;
    int three = 500;
    int open_two = 100;
    int two = 20;
    int one = 2;
    friend bool operator==(const ShapeWeights&, const ShapeWeights&) = default;
};

// Potential values of one cell's pattern in one direction, and of the
// double threats.
inline constexpr std::array<int, kPatterns> kPotential = {0, 1, 2, 5, 15, 20, 60, 70, 300, 800};
inline constexpr int kPotential43 = 300;
inline constexpr int kPotential33 = 150;

// A cell's two best patterns over its four directions, a >= b, as one index.
[[nodiscard]] constexpr int combo(int a, int b) {
    return a * (a + 1) / 2 + b;
}
inline constexpr int kCombos = kPatterns * (kPatterns + 1) / 2;

// The pattern table of a rule: index = window key (see Board::key()).
[[nodiscard]] const std::array<std::uint8_t, kWindowKeys>& pattern_table(Rule rule);

// A set of squares (one bit per padded square).
class SqSet {
  public:
    static constexpr int kWords = (kMaxSquares + 63) / 64;
    void set(Sq s) { w_[s >> 6] |= std::uint64_t{1} << (s & 63); }
    void reset(Sq s) { w_[s >> 6] &= ~(std::uint64_t{1} << (s & 63)); }
    [[nodiscard]] bool test(Sq s) const { return (w_[s >> 6] >> (s & 63)) & 1U; }
    void clear() { w_.fill(0); }
    [[nodiscard]] Sq first() const {
        for (int i = 0; i < kWords; ++i)
            if (w_[i]) return i * 64 + std::countr_zero(w_[i]);
        return kNoSq;
    }
    // Calls f(sq) for every member, in increasing order.
    template <class F>
    void for_each(F&& f) const {
        for (int i = 0; i < kWords; ++i) {
            for (std::uint64_t b = w_[i]; b; b &= b - 1)
                f(i * 64 + std::countr_zero(b));
        }
    }

  private:
    std::array<std::uint64_t, kWords> w_{};
};

class Board {
  public:
    // Four directions: east, north, north-east, north-west.
    static constexpr int kDirs = 4;

    void reset(int size, Rule rule);

    // Plays a stone of the side to move (precondition: s is empty) / takes back
    // the last stone. A null move only passes the turn (threat searches use it
    // to ask "what if the opponent moved twice").
    void make(Sq s);
    void unmake();
    void make_null();
    void unmake_null();
    // Setup: a stone of `color` without history; call set_to_move afterwards.
    // It updates everything, whatever the tracking.
    void put(Sq s, int color);

    // Besides the stones, the patterns and the threat flags and sets, make()
    // and unmake() keep two groups of figures current, and each group can be
    // switched off to save their cost: the line shapes and potentials
    // (shape_score(), potential()), which only the hand-set evaluations read,
    // and the cells' combinations and neighbourhoods (combo_counts(),
    // near1(), near2(), candidates()), which the threat searches do not read.
    // A group switched off keeps the values it had, and taking back the moves
    // made meanwhile brings them back to the position: so a group switched
    // off while moves are made and all taken back again is exact once more
    // (the threat solver's lean mode, threats.hpp).
    struct Tracking {
        bool shapes = true;
        bool cells = true;
    };
    void set_tracking(Tracking tracking) { tracking_ = tracking; }
    [[nodiscard]] Tracking tracking() const { return tracking_; }
    void set_to_move(int color) { to_move_ = color; }

    [[nodiscard]] int size() const { return size_; }
    [[nodiscard]] Rule rule() const { return rule_; }
    [[nodiscard]] int stride() const { return stride_; }
    [[nodiscard]] int dir_offset(int d) const { return offset_[d]; }
    [[nodiscard]] int to_move() const { return to_move_; }
    [[nodiscard]] int stones() const { return stones_; }
    [[nodiscard]] bool full() const { return stones_ == size_ * size_; }
    [[nodiscard]] std::uint64_t hash() const { return hash_; }
    [[nodiscard]] int ply() const { return history_len_; }
    [[nodiscard]] Sq last_move() const { return history_len_ ? history_[history_len_ - 1] : kNoSq; }

    [[nodiscard]] Sq sq(int col, int row) const { return (row + kPad) * stride_ + col + kPad; }
    [[nodiscard]] int col(Sq s) const { return s % stride_ - kPad; }
    [[nodiscard]] int row(Sq s) const { return s / stride_ - kPad; }
    [[nodiscard]] Sq centre() const { return sq(size_ / 2, size_ / 2); }
    // The arena's move number (row * size + col) and back.
    [[nodiscard]] int to_index(Sq s) const { return row(s) * size_ + col(s); }
    [[nodiscard]] Sq from_index(int index) const { return sq(index % size_, index / size_); }

    [[nodiscard]] std::uint8_t at(Sq s) const { return cell_[s]; }
    [[nodiscard]] bool is_empty(Sq s) const { return cell_[s] == kEmpty; }
    [[nodiscard]] Pattern pattern(int color, int dir, Sq s) const {
        return static_cast<Pattern>(pat_[color - 1][dir][s]);
    }
    [[nodiscard]] std::uint8_t flags(int color, Sq s) const { return flags_[color - 1][s]; }
    // Stones within one / two steps (king moves) of s.
    [[nodiscard]] int near1(Sq s) const { return near1_[s]; }
    [[nodiscard]] int near2(Sq s) const { return near2_[s]; }

    // Empty cells where `color` makes five / wins next move / makes a four /
    // makes an open three; and empty cells within two steps of a stone.
    [[nodiscard]] const SqSet& fives(int color) const { return five_set_[color - 1]; }
    [[nodiscard]] const SqSet& flex4s(int color) const { return flex4_set_[color - 1]; }
    [[nodiscard]] const SqSet& fours(int color) const { return four_set_[color - 1]; }
    [[nodiscard]] const SqSet& threes(int color) const { return three_set_[color - 1]; }
    [[nodiscard]] const SqSet& candidates() const { return cand_set_; }
    [[nodiscard]] int five_count(int color) const { return five_count_[color - 1]; }
    [[nodiscard]] int flex4_count(int color) const { return flex4_count_[color - 1]; }
    [[nodiscard]] int four_count(int color) const { return four_count_[color - 1]; }
    // Empty cells where `color` makes a four and an open three / two open threes.
    [[nodiscard]] int count43(int color) const { return count43_[color - 1]; }
    [[nodiscard]] int count33(int color) const { return count33_[color - 1]; }

    // Sum of the values of `color`'s line shapes.
    [[nodiscard]] int shape_score(int color, const ShapeWeights& w = {}) const {
        const std::array<int, kShapes>& n = shape_count_[color - 1];
        return n[kShapeOpenFour] * w.open_four + n[kShapeFour] * w.four +
               n[kShapeOpenThree] * w.open_three + n[kShapeThree] * w.three +
               n[kShapeOpenTwo] * w.open_two + n[kShapeTwo] * w.two + n[kShapeOne] * w.one;
    }
    // How many lines of `color` have each shape (kNoShape: the rest).
    [[nodiscard]] const std::array<int, kShapes>& shape_counts(int color) const {
        return shape_count_[color - 1];
    }
    // Sum over the empty cells of what `color` would make there
    // (kPotential of each direction's pattern, plus kPotential43/33).
    [[nodiscard]] int potential(int color) const { return potential_[color - 1]; }
    // How many empty cells hold each combination of `color`'s two best
    // patterns over the four directions: index combo(best, second best).
    [[nodiscard]] const std::array<int, kCombos>& combo_counts(int color) const {
        return combo_count_[color - 1];
    }
    // Does `color` playing s win at once (five, exactly five under exact5)?
    [[nodiscard]] bool wins(int color, Sq s) const { return flags_[color - 1][s] & kFlagFive; }

    // For tests: the stored state agrees with a recomputation from scratch
    // (but for the groups whose tracking is switched off).
    [[nodiscard]] bool consistent() const;

  private:
    // place() logs the patterns it changes when `logged` (make()); lift()
    // restores those logged since `mark`.
    void place(Sq s, int color, bool logged);
    void lift(Sq s, std::size_t mark);
    void update_cell(Sq q, int dir, bool logged);
    void set_pattern(int ci, int dir, Sq q, std::uint8_t pattern);
    void set_flags(int ci, Sq q, std::uint8_t flags);
    void add_cell(Sq s);
    void remove_cell(Sq s);
    void refresh_line(int dir, Sq s);
    void touch_near(Sq s, int delta);
    [[nodiscard]] int key_from_scratch(int ci, int dir, Sq s) const;
    [[nodiscard]] int line_value(int ci, int dir, int line) const;
    // A cell's threat flags and combination for one colour, from its four
    // patterns (key: the patterns as base-10 digits).
    struct CellInfo {
        std::uint8_t flags;
        std::uint8_t combo;
    };
    static constexpr int kCellKeys = kPatterns * kPatterns * kPatterns * kPatterns;
    [[nodiscard]] static const std::array<CellInfo, kCellKeys>& cell_table();
    [[nodiscard]] int cell_key(int ci, Sq s) const {
        return ((pat_[ci][0][s] * kPatterns + pat_[ci][1][s]) * kPatterns + pat_[ci][2][s]) *
                   kPatterns +
               pat_[ci][3][s];
    }

    const std::array<std::uint8_t, kWindowKeys>* table_ = nullptr;
    const std::array<CellInfo, kCellKeys>* cells_ = &cell_table();
    int size_ = 0;
    Rule rule_ = Rule::kFreestyle;
    int stride_ = 0;
    std::array<int, kDirs> offset_{};
    int to_move_ = 1;
    int stones_ = 0;
    std::uint64_t hash_ = 0;
    Tracking tracking_;

    std::array<std::uint8_t, kMaxSquares> cell_{};
    std::array<std::array<std::array<std::uint16_t, kMaxSquares>, kDirs>, 2> key_{};
    std::array<std::array<std::array<std::uint8_t, kMaxSquares>, kDirs>, 2> pat_{};
    std::array<std::array<std::uint8_t, kMaxSquares>, 2> flags_{};
    std::array<std::array<std::uint8_t, kMaxSquares>, kDirs> line_of_{};
    std::array<std::uint8_t, kMaxSquares> near1_{}, near2_{};

    std::array<SqSet, 2> five_set_, flex4_set_, four_set_, three_set_;
    SqSet cand_set_;
    std::array<int, 2> five_count_{}, flex4_count_{}, four_count_{}, count43_{}, count33_{};

    // Per colour, direction and line: how many empty cells hold each pattern,
    // and the line's shape; per colour, how many lines have each shape.
    std::array<std::array<std::array<std::array<std::uint8_t, kPatterns>, kMaxLines>, kDirs>, 2>
        line_count_{};
    std::array<std::array<std::array<Shape, kMaxLines>, kDirs>, 2> line_shape_{};
    std::array<std::array<int, kShapes>, 2> shape_count_{};
    std::array<int, 2> potential_{};
    std::array<std::array<int, kCombos>, 2> combo_count_{};
    std::array<std::array<std::uint8_t, kMaxSquares>, 2> combo_{};  // of each empty cell

    std::array<Sq, kMaxMoves + 1> history_{};
    int history_len_ = 0;
    // The patterns each move changed, as they were before it: line is
    // colour * kDirs + direction. marks_[i]: the log's size before move i.
    struct Change {
        std::int16_t sq;
        std::uint8_t line;
        std::uint8_t pattern;
    };
    std::vector<Change> changes_;
    std::array<std::size_t, kMaxMoves + 1> marks_{};
};

// The shape of a line from its pattern counts.
[[nodiscard]] Shape shape_of_counts(const std::array<std::uint8_t, kPatterns>& counts);

}  // namespace arena::bots::gomoku
