#include "bots/gomoku/threat_engine.hpp"

#include <algorithm>
#include <array>

namespace arena::bots::gomoku {
namespace {

// What a cell takes from the opponent, by the opponent's pattern there.
constexpr std::array<int, kPatterns> kDefend = {0, 1, 2, 3, 8, 10, 30, 40, 600, 10000};

}  // namespace

int root_rank(FailLowOrder order, bool raised, int value, int place, std::uint64_t nodes) {
    if (raised) return value;
    // gomoku-vcf's ranks start at -kInfinity, and so from a few places on
    // are above the value of a proven loss (it then stops deepening anyway);
    // gomoku-pro's are below every value.
    if (order == FailLowOrder::kLastFirst) return -kInfinity + place;
    constexpr auto kCap = static_cast<std::uint64_t>(kInfinity - 1);
    return -2 * kInfinity + static_cast<int>(std::min(nodes, kCap));
}

bool put_first(const Board& board, MoveList& moves, Sq tt_move, bool forced) {
    if (tt_move == kNoSq || !board.is_empty(tt_move)) return false;
    int at = 0;
    while (at < moves.size && moves.sq[at] != tt_move)
        ++at;
    if (at == moves.size) {
        if (forced) return false;  // not a defence: cannot be right
        if (moves.size < kMaxMoves) ++moves.size;
        at = moves.size - 1;
    }
    for (int i = at; i > 0; --i) {
        moves.sq[i] = moves.sq[i - 1];
        moves.score[i] = moves.score[i - 1];
    }
    moves.sq[0] = static_cast<std::int16_t>(tt_move);
    return true;
}

ThreatEngine::ThreatEngine(const ThreatLimits& limits)
    : limits_(limits), solver_(board_, limits.table_bits) {}

Sq ThreatEngine::think(const SearchClock& clock, const InfoSink& info) {
    solver_base_ = solver_.nodes();
    const Sq s = think_inner(clock, info);
    nodes_ += solver_.nodes() - solver_base_;
    return s;
}

std::optional<int> ThreatEngine::decided_score(int ply) const {
    const int me = board_.to_move();
    const int op = other(me);
    if (board_.five_count(me) > 0) return kWinScore - ply - 1;
    if (board_.five_count(op) >= 2) return -(kWinScore - ply - 2);
    if (board_.full()) return 0;
    // An open four (or double four) to make and no four against us: won.
    if (board_.five_count(op) == 0 && board_.flex4_count(me) > 0) return kWinScore - ply - 3;
    return std::nullopt;
}

bool ThreatEngine::tt_probe(const TTEntry& e, std::uint64_t key, int depth, int alpha, int beta,
                            int ply, Sq& tt_move, int& value) {
    if (e.key != key) return false;
    tt_move = e.move;
    if (e.depth < depth) return false;
    const int bound = e.bound & 3;
    value = from_tt(e.score, ply);
    return ((bound & kBoundLower) && value >= beta) || ((bound & kBoundUpper) && value <= alpha) ||
           bound == kBoundExact;
}

bool ThreatEngine::open_three_defences(MoveList& moves) {
    const int me = board_.to_move();
    const int op = other(me);
    moves.size = 0;
    if (board_.flex4_count(op) == 0) return false;
    defences(board_, op, moves);
    board_.fours(me).for_each([&](Sq s) {
        if (!moves.contains(s)) moves.add(s);
    });
    return moves.size > 0;
}

int ThreatEngine::order_score(int me, Sq s) const {
    const int op = other(me);
    int value = attack_value(board_, me, s);
    for (int d = 0; d < Board::kDirs; ++d)
        value += kDefend[board_.pattern(op, d, s)];
    const std::uint8_t f = board_.flags(op, s);
    if (f & kFlag43) value += 1500;
    if (f & kFlag33) value += 800;
    return value;
}

Sq ThreatEngine::report(const SearchClock& clock, const InfoSink& info, int depth, int score,
                        Sq s) const {
    info(info_line(board_, depth, score, nodes_ + solver_.nodes() - solver_base_, s,
                   clock.elapsed().count()));
    return s;
}

Sq ThreatEngine::decided_move(const SearchClock& clock, const InfoSink& info, bool open_four) {
    const int me = board_.to_move();
    const int op = other(me);
    if (board_.stones() == 0) return report(clock, info, 0, 0, board_.centre());
    if (board_.five_count(me) > 0)
        return report(clock, info, 1, kWinScore - 1, board_.fives(me).first());
    if (board_.five_count(op) > 0) return report(clock, info, 1, 0, board_.fives(op).first());
    if (open_four && board_.flex4_count(me) > 0)
        return report(clock, info, 1, kWinScore - 3, board_.flex4s(me).first());

    // Our forced win by fours.
    solver_.set_limits(limits_.root_vcf_nodes, deadline(limits_.own_vcf));
    if (const Sq s = solver_.vcf(limits_.vcf_depth); s != kNoSq) {
        info("string vcf");
        return report(clock, info, 1, kWinScore - 3, s);
    }
    return kNoSq;
}

Sq ThreatEngine::vct_move(MoveList& root, const SearchClock& clock, const InfoSink& info,
                          bool defend) {
    // Our forced win by fours and threes.
    solver_.set_limits(limits_.root_vct_nodes, deadline(limits_.own_vct));
    if (const Sq s = solver_.vct(limits_.vct_depth, limits_.inner_vcf_depth); s != kNoSq) {
        info("string vct");
        return report(clock, info, 1, kWinScore - 5, s);
    }
    // The opponent's, were it to move: keep the moves that stop it.
    if (defend) {
        defend_vct(root, info);
        if (root.size == 1) return report(clock, info, 1, 0, root.sq[0]);
    }
    return kNoSq;
}

bool ThreatEngine::opponent_vcf_moves(MoveList& moves) {
    const int me = board_.to_move();
    SqSet cells;
    board_.make_null();
    solver_.set_limits(limits_.threat_nodes, deadline(1.0));
    const bool threat = solver_.vcf_cells(limits_.vcf_depth, cells);
    board_.unmake_null();
    if (!threat) return false;
    board_.fours(me).for_each([&](Sq s) { cells.set(s); });
    moves.size = 0;
    cells.for_each([&](Sq s) {
        if (board_.is_empty(s)) moves.add(s, order_score(me, s));
    });
    return true;
}

void ThreatEngine::keep_defences(MoveList& root, const MoveList& candidates, int width,
                                 SearchClock::Clock::time_point limit, const Refuted& refuted) {
    MoveList confirmed, unknown;
    for (int i = 0; i < candidates.size && i < width; ++i) {
        const Sq s = candidates.sq[i];
        if (SearchClock::Clock::now() >= limit) {
            unknown.add(s, candidates.score[i]);
            continue;
        }
        board_.make(s);
        const bool refutes = refuted();
        board_.unmake();
        if (solver_.aborted())
            unknown.add(s, candidates.score[i]);
        else if (!refutes)
            confirmed.add(s, candidates.score[i]);
    }
    // Proven defences if there are any, else the unproven ones; when every
    // candidate loses, all of them (the opponent may still go wrong).
    root = confirmed.size > 0 ? confirmed : unknown.size > 0 ? unknown : candidates;
}

void ThreatEngine::keep_vcf_defences(MoveList& root, const MoveList& candidates) {
    keep_defences(root, candidates, limits_.defence_width, deadline(limits_.defend_vct), [&] {
        solver_.set_limits(limits_.defence_vcf_nodes, deadline(1.0));
        return solver_.vcf(limits_.vcf_depth) != kNoSq;
    });
}

void ThreatEngine::defend_vct(MoveList& root, const InfoSink& info) {
    const auto limit = deadline(limits_.defend_vct);
    board_.make_null();
    solver_.set_limits(limits_.root_vct_nodes, limit);
    const Sq threat = solver_.vct(limits_.vct_depth, limits_.inner_vcf_depth);
    const int threat_depth = solver_.last_depth();
    board_.unmake_null();
    vct_threat_ = threat != kNoSq;
    if (threat == kNoSq) return;
    info("string opponent threatens a vct starting " + square_name(board_, threat));
    // The most promising root moves (root is in order), the threat's first
    // cell among them.
    MoveList candidates;
    if (root.contains(threat)) candidates.add(threat, 0);
    for (int i = 0; i < root.size; ++i)
        if (root.sq[i] != threat) candidates.add(root.sq[i], root.score[i]);
    keep_defences(root, candidates, limits_.defence_width, limit, [&] {
        solver_.set_limits(limits_.defence_vct_nodes, limit);
        return solver_.vct(threat_depth + 1, limits_.inner_vcf_depth) != kNoSq;
    });
}

void ThreatEngine::search_root(MoveList& root, int depth, Sq& best, int& best_value) {
    int alpha = -kInfinity;
    const int beta = kInfinity;
    Sq iter_best = kNoSq;
    for (int i = 0; i < root.size; ++i) {
        const std::uint64_t before = nodes_ + solver_.nodes();
        board_.make(root.sq[i]);
        int value;
        if (i == 0) {
            value = -search(depth - 1, -beta, -alpha, 1);
        } else {
            value = -search(depth - 1, -alpha - 1, -alpha, 1);
            if (value > alpha && !aborted_) value = -search(depth - 1, -beta, -alpha, 1);
        }
        board_.unmake();
        if (aborted_) break;
        root.score[i] = root_rank(fail_low_order_, value > alpha || i == 0, value, i,
                                  nodes_ + solver_.nodes() - before);
        if (value > alpha) {
            alpha = value;
            iter_best = root.sq[i];
        }
    }
    if (iter_best != kNoSq) {
        best = iter_best;
        best_value = alpha;
    }
}

Sq ThreatEngine::deepen(MoveList& root, const SearchClock& clock, const InfoSink& info,
                        int max_depth, int min_depth, bool report_started, int& completed,
                        int* value) {
    Sq best = root.sq[0];
    int best_value = 0;
    int started = 0;
    completed = 0;
    max_depth = search_limits_.max_depth(max_depth);
    for (int depth = 1; depth <= max_depth; ++depth) {
        // A few plies whatever the threat searches took; then only while
        // before the soft limit (none under search limits).
        if (depth > min_depth && !search_limits_.any() && clock.past_soft()) break;
        started = depth;
        search_root(root, depth, best, best_value);
        if (aborted_) break;
        completed = depth;
        root.sort();
        report(clock, info, depth, best_value, best);
        if (best_value >= kMateBound || best_value <= -kMateBound) break;
    }
    if (aborted_) report(clock, info, report_started ? started : completed, best_value, best);
    if (value != nullptr) *value = best_value;
    return best;
}

}  // namespace arena::bots::gomoku
