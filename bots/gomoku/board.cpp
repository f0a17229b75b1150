#include "bots/gomoku/board.hpp"

#include <algorithm>
#include <functional>
#include <memory>

namespace arena::bots::gomoku {
namespace {

constexpr std::array<int, 10> kPow3 = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683};

// Digit of the window key for the cell `k` steps away (k in -5..-1, 1..5).
[[nodiscard]] constexpr int digit_of(int k) {
    return k < 0 ? k + 5 : k + 4;
}

// Builds the table of one rule. A window is 11 cells, offsets -5..5, the
// centre (index 5) holding the stone being judged; 0 empty, 1 own, 2 blocked.
class TableBuilder {
  public:
    explicit TableBuilder(Rule rule) : rule_(rule) { memo_.fill(kUnknown); }

    std::array<std::uint8_t, kWindowKeys> build() {
        for (int key = 0; key < kWindowKeys; ++key)
            level(key);
        return memo_;
    }

  private:
    static constexpr std::uint8_t kUnknown = 255;
    using Window = std::array<int, 11>;

    static Window decode(int key) {
        Window w{};
        for (int i = 0; i < 11; ++i) {
            if (i == 5) {
                w[i] = 1;
                continue;
            }
            w[i] = key % 3;
            key /= 3;
        }
        return w;
    }

    // The run of own stones through the centre makes a (winning) five.
    [[nodiscard]] bool five_at(const Window& w) const {
        int run = 1;
        for (int i = 4; i >= 0 && w[i] == 1; --i)
            ++run;
        for (int i = 6; i <= 10 && w[i] == 1; ++i)
            ++run;
        return rule_ == Rule::kFreestyle ? run >= 5 : run == 5;
    }

    std::uint8_t level(int key) {
        if (memo_[key] != kUnknown) return memo_[key];
        Window w = decode(key);
        std::uint8_t result = kDead;
        if (five_at(w)) {
            result = kF5;
        } else {
            int five_points = 0;
            for (int i = 1; i <= 9; ++i) {
                if (i == 5 || w[i] != 0) continue;
                w[i] = 1;
                five_points += five_at(w) ? 1 : 0;
                w[i] = 0;
            }
            if (five_points >= 2) {
                result = kF4;
            } else if (five_points == 1) {
                result = kB4;
            } else {
                // One more own stone anywhere in reach: the best it leads to,
                // one step down (an F4 one move away is an F3, ...).
                for (int i = 1; i <= 9; ++i) {
                    if (i == 5 || w[i] != 0) continue;
                    const int sub = level(key + kPow3[i < 5 ? i : i - 1]);
                    const int down = sub == kDead ? kDead : sub >= kB2 ? sub - 2 : kB1;
                    if (down > result) result = static_cast<std::uint8_t>(down);
                }
            }
        }
        memo_[key] = result;
        return result;
    }

    Rule rule_;
    std::array<std::uint8_t, kWindowKeys> memo_;
};

[[nodiscard]] int combo_potential(std::uint8_t flags) {
    return (flags & kFlag43 ? kPotential43 : 0) + (flags & kFlag33 ? kPotential33 : 0);
}

[[nodiscard]] std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct Zobrist {
    std::array<std::array<std::uint64_t, kMaxSquares>, 2> stone{};
    std::uint64_t side = 0;
    Zobrist() {
        std::uint64_t x = 0x5eed0f60c0ULL;
        for (auto& per_color : stone)
            for (auto& k : per_color)
                k = splitmix(x);
        side = splitmix(x);
    }
};

const Zobrist& zobrist() {
    static const Zobrist z;
    return z;
}

// What a cell's four patterns make of it, for one colour: its threat flags
// and its combination (combo()), indexed by the patterns in base 10.
std::uint8_t flags_of(const std::array<int, Board::kDirs>& patterns) {
    int fives = 0, flex4 = 0, four = 0, three = 0;
    for (const int p : patterns) {
        fives += p == kF5;
        flex4 += p == kF4;
        four += p == kB4;
        three += p == kF3;
    }
    std::uint8_t f = 0;
    if (fives) f |= kFlagFive;
    if (flex4 || four >= 2) f |= kFlagFlex4;
    if (flex4 || four) f |= kFlagFour;
    if (three) f |= kFlagThree;
    if (four && three) f |= kFlag43;
    if (three >= 2) f |= kFlag33;
    return f;
}

}  // namespace

const std::array<Board::CellInfo, Board::kCellKeys>& Board::cell_table() {
    static const auto table = [] {
        std::array<CellInfo, kCellKeys> t{};
        for (int key = 0; key < kCellKeys; ++key) {
            std::array<int, kDirs> p{};
            for (int d = kDirs - 1, rest = key; d >= 0; --d, rest /= kPatterns)
                p[d] = rest % kPatterns;
            std::array<int, kDirs> sorted = p;
            std::sort(sorted.begin(), sorted.end(), std::greater<>());
            t[key] = {flags_of(p), static_cast<std::uint8_t>(combo(sorted[0], sorted[1]))};
        }
        return t;
    }();
    return table;
}

const std::array<std::uint8_t, kWindowKeys>& pattern_table(Rule rule) {
    static const auto freestyle = TableBuilder(Rule::kFreestyle).build();
    static const auto exact5 = TableBuilder(Rule::kExact5).build();
    return rule == Rule::kFreestyle ? freestyle : exact5;
}

Shape shape_of_counts(const std::array<std::uint8_t, kPatterns>& c) {
    if (c[kF5] >= 2) return kShapeOpenFour;
    if (c[kF5]) return kShapeFour;
    if (c[kF4]) return kShapeOpenThree;
    if (c[kB4]) return kShapeThree;
    if (c[kF3]) return kShapeOpenTwo;
    if (c[kB3]) return kShapeTwo;
    if (c[kF2]) return kShapeOne;
    return kNoShape;
}

void Board::reset(int size, Rule rule) {
    table_ = &pattern_table(rule);
    size_ = size;
    rule_ = rule;
    stride_ = size + kPad;
    offset_ = {1, stride_, stride_ + 1, stride_ - 1};
    to_move_ = 1;
    stones_ = 0;
    hash_ = 0;
    history_len_ = 0;
    changes_.clear();
    changes_.reserve(std::size_t{64} * size * size);
    cell_.fill(kWall);
    near1_.fill(0);
    near2_.fill(0);
    for (int ci = 0; ci < 2; ++ci) {
        five_set_[ci].clear();
        flex4_set_[ci].clear();
        four_set_[ci].clear();
        three_set_[ci].clear();
        flags_[ci].fill(0);
        for (auto& per_dir : line_count_[ci])
            for (auto& counts : per_dir)
                counts.fill(0);
        for (auto& per_dir : line_shape_[ci])
            per_dir.fill(kNoShape);
    }
    cand_set_.clear();
    five_count_ = {0, 0};
    flex4_count_ = {0, 0};
    four_count_ = {0, 0};
    count43_ = {0, 0};
    count33_ = {0, 0};
    for (auto& counts : shape_count_)
        counts.fill(0);
    potential_ = {0, 0};
    for (auto& counts : combo_count_)
        counts.fill(0);
    for (int r = 0; r < size; ++r)
        for (int c = 0; c < size; ++c)
            cell_[sq(c, r)] = kEmpty;
    for (int r = 0; r < size; ++r) {
        for (int c = 0; c < size; ++c) {
            const Sq s = sq(c, r);
            line_of_[0][s] = static_cast<std::uint8_t>(r);
            line_of_[1][s] = static_cast<std::uint8_t>(c);
            line_of_[2][s] = static_cast<std::uint8_t>(c - r + size - 1);
            line_of_[3][s] = static_cast<std::uint8_t>(c + r);
            for (int ci = 0; ci < 2; ++ci) {
                for (int d = 0; d < kDirs; ++d) {
                    key_[ci][d][s] = static_cast<std::uint16_t>(key_from_scratch(ci, d, s));
                    pat_[ci][d][s] = (*table_)[key_[ci][d][s]];
                    ++line_count_[ci][d][line_of_[d][s]][pat_[ci][d][s]];
                    potential_[ci] += kPotential[pat_[ci][d][s]];
                }
                const CellInfo& info = (*cells_)[cell_key(ci, s)];
                combo_[ci][s] = info.combo;
                ++combo_count_[ci][info.combo];
                set_flags(ci, s, info.flags);
            }
        }
    }
    for (int ci = 0; ci < 2; ++ci) {
        for (int d = 0; d < kDirs; ++d) {
            for (int line = 0; line < 2 * size - 1; ++line) {
                line_shape_[ci][d][line] = shape_of_counts(line_count_[ci][d][line]);
                ++shape_count_[ci][line_shape_[ci][d][line]];
            }
        }
    }
}

int Board::key_from_scratch(int ci, int dir, Sq s) const {
    int key = 0;
    for (int k = -5; k <= 5; ++k) {
        if (k == 0) continue;
        const std::uint8_t v = cell_[s + k * offset_[dir]];
        const int digit = v == kEmpty ? 0 : v == ci + 1 ? 1 : 2;
        key += digit * kPow3[digit_of(k)];
    }
    return key;
}

[[gnu::always_inline]] inline void Board::set_flags(int ci, Sq q, std::uint8_t nf) {
    const std::uint8_t of = flags_[ci][q];
    if (of == nf) return;
    flags_[ci][q] = nf;
    if (tracking_.shapes) potential_[ci] += combo_potential(nf) - combo_potential(of);
    count43_[ci] += ((nf & kFlag43) ? 1 : 0) - ((of & kFlag43) ? 1 : 0);
    count33_[ci] += ((nf & kFlag33) ? 1 : 0) - ((of & kFlag33) ? 1 : 0);
    const std::uint8_t changed = of ^ nf;
    if (changed & kFlagFive) {
        if (nf & kFlagFive) {
            five_set_[ci].set(q);
            ++five_count_[ci];
        } else {
            five_set_[ci].reset(q);
            --five_count_[ci];
        }
    }
    if (changed & kFlagFlex4) {
        if (nf & kFlagFlex4) {
            flex4_set_[ci].set(q);
            ++flex4_count_[ci];
        } else {
            flex4_set_[ci].reset(q);
            --flex4_count_[ci];
        }
    }
    if (changed & kFlagFour) {
        if (nf & kFlagFour) {
            four_set_[ci].set(q);
            ++four_count_[ci];
        } else {
            four_set_[ci].reset(q);
            --four_count_[ci];
        }
    }
    if (changed & kFlagThree) {
        if (nf & kFlagThree)
            three_set_[ci].set(q);
        else
            three_set_[ci].reset(q);
    }
}

[[gnu::always_inline]] inline void Board::set_pattern(int ci, int dir, Sq q, std::uint8_t np) {
    const std::uint8_t op = pat_[ci][dir][q];
    pat_[ci][dir][q] = np;
    if (tracking_.shapes) {
        auto& counts = line_count_[ci][dir][line_of_[dir][q]];
        --counts[op];
        ++counts[np];
        potential_[ci] += kPotential[np] - kPotential[op];
    }
    const CellInfo& info = (*cells_)[cell_key(ci, q)];
    if (tracking_.cells && info.combo != combo_[ci][q]) {
        --combo_count_[ci][combo_[ci][q]];
        ++combo_count_[ci][info.combo];
        combo_[ci][q] = info.combo;
    }
    set_flags(ci, q, info.flags);
}

[[gnu::always_inline]] inline void Board::update_cell(Sq q, int dir, bool logged) {
    for (int ci = 0; ci < 2; ++ci) {
        const std::uint8_t np = (*table_)[key_[ci][dir][q]];
        const std::uint8_t op = pat_[ci][dir][q];
        if (np == op) continue;
        if (logged)
            changes_.push_back(
                {static_cast<std::int16_t>(q), static_cast<std::uint8_t>(ci * kDirs + dir), op});
        set_pattern(ci, dir, q, np);
    }
}

void Board::remove_cell(Sq s) {
    for (int ci = 0; ci < 2; ++ci) {
        if (tracking_.shapes) {
            for (int d = 0; d < kDirs; ++d) {
                --line_count_[ci][d][line_of_[d][s]][pat_[ci][d][s]];
                potential_[ci] -= kPotential[pat_[ci][d][s]];
            }
        }
        if (tracking_.cells) --combo_count_[ci][combo_[ci][s]];
        set_flags(ci, s, 0);
    }
}

void Board::add_cell(Sq s) {
    for (int ci = 0; ci < 2; ++ci) {
        if (tracking_.shapes) {
            for (int d = 0; d < kDirs; ++d) {
                ++line_count_[ci][d][line_of_[d][s]][pat_[ci][d][s]];
                potential_[ci] += kPotential[pat_[ci][d][s]];
            }
        }
        // Its patterns, and so its combination, were frozen while it was
        // occupied.
        if (tracking_.cells) ++combo_count_[ci][combo_[ci][s]];
        set_flags(ci, s, (*cells_)[cell_key(ci, s)].flags);
    }
}

void Board::refresh_line(int dir, Sq s) {
    const int line = line_of_[dir][s];
    for (int ci = 0; ci < 2; ++ci) {
        const Shape shape = shape_of_counts(line_count_[ci][dir][line]);
        Shape& old = line_shape_[ci][dir][line];
        if (shape == old) continue;
        --shape_count_[ci][old];
        ++shape_count_[ci][shape];
        old = shape;
    }
}

void Board::touch_near(Sq s, int delta) {
    for (int dr = -2; dr <= 2; ++dr) {
        for (int dc = -2; dc <= 2; ++dc) {
            if (dr == 0 && dc == 0) continue;
            const Sq q = s + dr * stride_ + dc;
            if (cell_[q] == kWall) continue;
            near2_[q] = static_cast<std::uint8_t>(near2_[q] + delta);
            if (dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1)
                near1_[q] = static_cast<std::uint8_t>(near1_[q] + delta);
            if (cell_[q] == kEmpty) {
                if (near2_[q])
                    cand_set_.set(q);
                else
                    cand_set_.reset(q);
            }
        }
    }
}

void Board::place(Sq s, int color, bool logged) {
    remove_cell(s);
    if (tracking_.cells) cand_set_.reset(s);
    cell_[s] = static_cast<std::uint8_t>(color);
    hash_ ^= zobrist().stone[color - 1][s];
    ++stones_;
    // Own digit 1 and the opponent's 2, seen from each colour's keys.
    const int add_black = color == 1 ? 1 : 2;
    const int add_white = color == 2 ? 1 : 2;
    for (int d = 0; d < kDirs; ++d) {
        const int off = offset_[d];
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int k = 1; k <= 5; ++k) {
                const Sq q = s + sign * k * off;
                if (cell_[q] == kWall) break;
                const int p = kPow3[digit_of(-sign * k)];
                key_[0][d][q] = static_cast<std::uint16_t>(key_[0][d][q] + add_black * p);
                key_[1][d][q] = static_cast<std::uint16_t>(key_[1][d][q] + add_white * p);
                if (cell_[q] == kEmpty) update_cell(q, d, logged);
            }
        }
        if (tracking_.shapes) refresh_line(d, s);
    }
    if (tracking_.cells) touch_near(s, +1);
}

void Board::lift(Sq s, std::size_t mark) {
    const int color = cell_[s];
    cell_[s] = kEmpty;
    hash_ ^= zobrist().stone[color - 1][s];
    --stones_;
    const int add_black = color == 1 ? 1 : 2;
    const int add_white = color == 2 ? 1 : 2;
    for (int d = 0; d < kDirs; ++d) {
        const int off = offset_[d];
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int k = 1; k <= 5; ++k) {
                const Sq q = s + sign * k * off;
                if (cell_[q] == kWall) break;
                const int p = kPow3[digit_of(-sign * k)];
                key_[0][d][q] = static_cast<std::uint16_t>(key_[0][d][q] - add_black * p);
                key_[1][d][q] = static_cast<std::uint16_t>(key_[1][d][q] - add_white * p);
            }
        }
    }
    // The patterns the stone changed, back as they were (newest first): the
    // others read the same from the keys before and after it.
    while (changes_.size() > mark) {
        const Change c = changes_.back();
        changes_.pop_back();
        set_pattern(c.line / kDirs, c.line % kDirs, c.sq, c.pattern);
    }
    // The patterns of s were frozen while it was occupied; the moves made
    // since have all been taken back, so they are current again.
    add_cell(s);
    if (tracking_.shapes) {
        for (int d = 0; d < kDirs; ++d)
            refresh_line(d, s);
    }
    if (tracking_.cells) {
        touch_near(s, -1);
        if (near2_[s]) cand_set_.set(s);
    }
}

void Board::put(Sq s, int color) {
    const Tracking saved = tracking_;
    tracking_ = {};
    place(s, color, false);
    tracking_ = saved;
}

void Board::make(Sq s) {
    marks_[history_len_] = changes_.size();
    history_[history_len_++] = s;
    place(s, to_move_, true);
    to_move_ = other(to_move_);
    hash_ ^= zobrist().side;
}

void Board::unmake() {
    const Sq s = history_[--history_len_];
    lift(s, marks_[history_len_]);
    to_move_ = other(to_move_);
    hash_ ^= zobrist().side;
}

void Board::make_null() {
    to_move_ = other(to_move_);
    hash_ ^= zobrist().side;
}

void Board::unmake_null() {
    make_null();
}

bool Board::consistent() const {
    auto fresh = std::make_unique<Board>();
    fresh->reset(size_, rule_);
    for (int r = 0; r < size_; ++r)
        for (int c = 0; c < size_; ++c)
            if (cell_[sq(c, r)] != kEmpty) fresh->put(sq(c, r), cell_[sq(c, r)]);
    const bool shapes = tracking_.shapes;
    const bool cells = tracking_.cells;
    if ((shapes && (fresh->shape_count_ != shape_count_ || fresh->potential_ != potential_)) ||
        (cells && fresh->combo_count_ != combo_count_) || fresh->five_count_ != five_count_ ||
        fresh->flex4_count_ != flex4_count_ || fresh->four_count_ != four_count_ ||
        fresh->count43_ != count43_ || fresh->count33_ != count33_ || fresh->stones_ != stones_) {
        return false;
    }
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) {
            const Sq s = sq(c, r);
            if (cells && (fresh->near1_[s] != near1_[s] || fresh->near2_[s] != near2_[s] ||
                          fresh->cand_set_.test(s) != cand_set_.test(s))) {
                return false;
            }
            for (int ci = 0; ci < 2; ++ci) {
                for (int d = 0; d < kDirs; ++d) {
                    if (fresh->key_[ci][d][s] != key_[ci][d][s]) return false;
                    if (cell_[s] == kEmpty && fresh->pat_[ci][d][s] != pat_[ci][d][s]) return false;
                    if (cells && cell_[s] == kEmpty && fresh->combo_[ci][s] != combo_[ci][s])
                        return false;
                }
                if (fresh->flags_[ci][s] != flags_[ci][s]) return false;
                if (fresh->five_set_[ci].test(s) != five_set_[ci].test(s) ||
                    fresh->flex4_set_[ci].test(s) != flex4_set_[ci].test(s) ||
                    fresh->four_set_[ci].test(s) != four_set_[ci].test(s) ||
                    fresh->three_set_[ci].test(s) != three_set_[ci].test(s)) {
                    return false;
                }
            }
        }
    }
    return true;
}

}  // namespace arena::bots::gomoku
