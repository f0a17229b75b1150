#include "bots/gomoku/threats.hpp"

#include <algorithm>

namespace arena::bots::gomoku {
namespace {

// Switches the board's optional tracking off for one search (lean mode).
class LeanScope {
  public:
    LeanScope(Board& board, bool lean) : board_(board), saved_(board.tracking()) {
        if (lean) board_.set_tracking({.shapes = false, .cells = false});
    }
    ~LeanScope() { board_.set_tracking(saved_); }
    LeanScope(const LeanScope&) = delete;
    LeanScope& operator=(const LeanScope&) = delete;

  private:
    Board& board_;
    Board::Tracking saved_;
};

constexpr std::array<int, kPatterns> kAttack = {0, 1, 2, 4, 10, 12, 40, 50, 800, 20000};
constexpr std::uint64_t kVcfSalt = 0x1f3a5c7e9b2d4f61ULL;
constexpr std::uint64_t kVctSalt = 0x7c2e9a4b6d1f3851ULL;

}  // namespace

int attack_value(const Board& board, int color, Sq s) {
    int value = 0;
    for (int d = 0; d < Board::kDirs; ++d)
        value += kAttack[board.pattern(color, d, s)];
    const std::uint8_t f = board.flags(color, s);
    if (f & kFlag43) value += 2000;
    if (f & kFlag33) value += 1000;
    return value;
}

void defences(Board& board, int attacker, MoveList& out) {
    out.size = 0;
    SqSet pool;
    board.flex4s(attacker).for_each([&](Sq f) {
        pool.set(f);
        for (int d = 0; d < Board::kDirs; ++d) {
            if (board.pattern(attacker, d, f) < kB4) continue;
            const int off = board.dir_offset(d);
            for (int sign = -1; sign <= 1; sign += 2) {
                for (int k = 1; k <= 5; ++k) {
                    const Sq q = f + sign * k * off;
                    if (board.at(q) == kWall) break;
                    if (board.is_empty(q)) pool.set(q);
                }
            }
        }
    });
    pool.for_each([&](Sq q) {
        board.make(q);
        const bool stops = board.flex4_count(attacker) == 0 && board.five_count(attacker) == 0;
        board.unmake();
        if (stops) out.add(q);
    });
}

ThreatSolver::ThreatSolver(Board& board, int table_bits)
    : board_(board), table_(std::size_t{1} << std::clamp(table_bits, 8, 26)) {}

void ThreatSolver::set_limits(std::uint64_t node_limit, Clock::time_point deadline) {
    node_limit_ = nodes_ + node_limit;
    deadline_ = deadline;
    aborted_ = false;
}

void ThreatSolver::clear() {
    std::fill(table_.begin(), table_.end(), Entry{});
}

bool ThreatSolver::stop() {
    if (aborted_) return true;
    ++nodes_;
    if (nodes_ >= node_limit_) {
        aborted_ = true;
    } else if ((nodes_ & 127) == 0 && deadline_ != Clock::time_point::max()) {
        aborted_ = Clock::now() >= deadline_;
    }
    return aborted_;
}

void ThreatSolver::store(std::uint64_t key, int depth, bool win, Sq move) {
    if (aborted_) return;
    Entry& e = entry(key);
    if (e.key != key) e = Entry{.key = key};
    if (win) {
        if (depth < e.win_depth) {
            e.win_depth = static_cast<std::int8_t>(depth);
            e.move = static_cast<std::int16_t>(move);
        }
    } else if (depth > e.fail_depth) {
        e.fail_depth = static_cast<std::int8_t>(depth);
    }
}

Sq ThreatSolver::vcf(int depth) {
    const LeanScope lean(board_, lean_);
    Sq first = kNoSq;
    return vcf_attack(std::min(depth, 100), &first) ? first : kNoSq;
}

bool ThreatSolver::vcf_cells(int depth, SqSet& cells) {
    const LeanScope lean(board_, lean_);
    if (vcf(depth) == kNoSq) return false;
    // Replay the win: each step is a cache hit.
    const int attacker = board_.to_move();
    int made = 0;
    while (made < 2 * kMaxMoves) {
        if (board_.five_count(attacker) > 0) {
            board_.fives(attacker).for_each([&](Sq s) { cells.set(s); });
            break;
        }
        const Sq s = vcf(depth);
        if (s == kNoSq) break;
        cells.set(s);
        board_.make(s);
        ++made;
        if (board_.five_count(attacker) >= 2) {
            board_.fives(attacker).for_each([&](Sq f) { cells.set(f); });
            break;
        }
        if (board_.five_count(attacker) == 0) break;
        const Sq block = board_.fives(attacker).first();
        cells.set(block);
        board_.make(block);
        ++made;
    }
    while (made-- > 0)
        board_.unmake();
    return true;
}

Sq ThreatSolver::vct(int depth, int vcf_depth) {
    const LeanScope lean(board_, lean_);
    vcf_depth_ = std::min(vcf_depth, 100);
    // Iterative deepening: short wins are found at once, and a deep search
    // would otherwise get lost in long useless lines first.
    for (int d = 1; d <= std::min(depth, 100); ++d) {
        Sq first = kNoSq;
        if (vct_attack(d, &first)) {
            last_depth_ = d;
            return first;
        }
        if (aborted_) break;
    }
    return kNoSq;
}

bool ThreatSolver::vcf_attack(int depth, Sq* first) {
    if (stop()) return false;
    const int me = board_.to_move();
    const int op = other(me);
    if (board_.five_count(me) > 0) {
        *first = board_.fives(me).first();
        return true;
    }
    if (board_.five_count(op) >= 2) return false;
    if (board_.five_count(op) == 1) {
        // The block is forced; it must be a four to keep the initiative.
        const Sq x = board_.fives(op).first();
        if (depth <= 0 || !(board_.flags(me, x) & kFlagFour)) return false;
        board_.make(x);
        const bool win = vcf_defend(depth - 1);
        board_.unmake();
        if (win) *first = x;
        return win;
    }
    if (board_.flex4_count(me) > 0) {
        *first = board_.flex4s(me).first();
        return true;
    }
    if (depth <= 0) return false;
    const std::uint64_t key = board_.hash() ^ kVcfSalt;
    if (const Entry& e = entry(key); e.key == key) {
        if (e.win_depth <= depth) {
            *first = e.move;
            return true;
        }
        if (e.fail_depth >= depth) return false;
    }
    MoveList moves;
    board_.fours(me).for_each([&](Sq s) { moves.add(s, attack_value(board_, me, s)); });
    moves.sort();
    for (int i = 0; i < moves.size; ++i) {
        board_.make(moves.sq[i]);
        const bool win = vcf_defend(depth - 1);
        board_.unmake();
        if (win) {
            *first = moves.sq[i];
            store(key, depth, true, *first);
            return true;
        }
        if (aborted_) return false;
    }
    store(key, depth, false, kNoSq);
    return false;
}

bool ThreatSolver::vcf_defend(int depth) {
    if (stop()) return false;
    const int me = board_.to_move();  // the defender
    const int att = other(me);
    if (board_.five_count(me) > 0) return false;
    const int threats = board_.five_count(att);
    if (threats >= 2) return true;
    if (threats == 0) return false;
    board_.make(board_.fives(att).first());
    Sq unused = kNoSq;
    const bool win = vcf_attack(depth, &unused);
    board_.unmake();
    return win;
}

bool ThreatSolver::vct_attack(int depth, Sq* first) {
    if (stop()) return false;
    const int me = board_.to_move();
    const int op = other(me);
    if (board_.five_count(me) > 0) {
        *first = board_.fives(me).first();
        return true;
    }
    if (board_.five_count(op) >= 2) return false;
    if (board_.five_count(op) == 1) {
        if (depth <= 0) return false;
        const Sq x = board_.fives(op).first();
        board_.make(x);
        const bool win = vct_defend(depth - 1);
        board_.unmake();
        if (win) *first = x;
        return win;
    }
    if (board_.flex4_count(me) > 0) {
        *first = board_.flex4s(me).first();
        return true;
    }
    if (depth <= 0) return false;
    const std::uint64_t key = board_.hash() ^ kVctSalt;
    if (const Entry& e = entry(key); e.key == key) {
        if (e.win_depth <= depth) {
            *first = e.move;
            return true;
        }
        if (e.fail_depth >= depth) return false;
    }
    // Fours alone first: cheaper, and often deeper.
    if (vcf_depth_ > 0) {
        Sq s = kNoSq;
        if (vcf_attack(vcf_depth_, &s)) {
            *first = s;
            store(key, depth, true, s);
            return true;
        }
        if (aborted_) return false;
    }
    MoveList moves;
    board_.fours(me).for_each([&](Sq s) { moves.add(s, attack_value(board_, me, s) + 100000); });
    board_.threes(me).for_each([&](Sq s) {
        if (!(board_.flags(me, s) & kFlagFour)) moves.add(s, attack_value(board_, me, s));
    });
    moves.sort();
    for (int i = 0; i < moves.size; ++i) {
        board_.make(moves.sq[i]);
        const bool win = vct_defend(depth - 1);
        board_.unmake();
        if (win) {
            *first = moves.sq[i];
            store(key, depth, true, *first);
            return true;
        }
        if (aborted_) return false;
    }
    store(key, depth, false, kNoSq);
    return false;
}

bool ThreatSolver::vct_defend(int depth) {
    if (stop()) return false;
    const int me = board_.to_move();  // the defender
    const int att = other(me);
    if (board_.five_count(me) > 0) return false;
    const int threats = board_.five_count(att);
    if (threats >= 2) return true;
    Sq unused = kNoSq;
    if (threats == 1) {
        board_.make(board_.fives(att).first());
        const bool win = vct_attack(depth, &unused);
        board_.unmake();
        return win;
    }
    if (board_.flex4_count(att) == 0) return false;  // no threat: the defender is free
    MoveList moves;
    defences(board_, att, moves);
    board_.fours(me).for_each([&](Sq s) {
        if (!moves.contains(s)) moves.add(s);
    });
    for (int i = 0; i < moves.size; ++i) {
        board_.make(moves.sq[i]);
        const bool win = vct_attack(depth, &unused);
        board_.unmake();
        if (!win) return false;
    }
    return true;
}

}  // namespace arena::bots::gomoku
