#include "bots/reversi/pro_search.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <iostream>
#include <string>
#include <utility>

#include "arena/games/reversi.hpp"

namespace arena::bots::reversi::pro {
namespace {

constexpr std::uint64_t kCheckMask = 1023;  // look at the clock every 1024 nodes
constexpr std::uint64_t kEndSalt = 0x6a09e667f3bcc909ULL;
constexpr int kMaxMoves = 40;  // no reversi position has more legal moves (the record is 33)

// The solver: no move lists at or below kParityEmpties, the table from
// kTableEmpties up, the stability cut-off from kStabilityEmpties up.
constexpr int kParityEmpties = 6;
constexpr int kTableEmpties = 10;
constexpr int kStabilityEmpties = 8;

enum Bound : std::uint8_t { kUpper = 1, kLower = 2, kExact = 3 };

// Static priority of a cell, for move ordering only: corners first, then the
// A- and B-squares of the edges, X- and C-squares last.
constexpr std::array<int, 64> kPriority{
    20, -3, 11, 8,  8,  11, -3, 20,  //
    -3, -7, -4, 1,  1,  -4, -7, -3,  //
    11, -4, 2,  2,  2,  2,  -4, 11,  //
    8,  1,  2,  -3, -3, 2,  1,  8,   //
    8,  1,  2,  -3, -3, 2,  1,  8,   //
    11, -4, 2,  2,  2,  2,  -4, 11,  //
    -3, -7, -4, 1,  1,  -4, -7, -3,  //
    20, -3, 11, 8,  8,  11, -3, 20,
};

// The 4x4 quadrant of each cell.
constexpr std::array<Bitboard, 4> kQuadrants{0x000000000f0f0f0fULL, 0x00000000f0f0f0f0ULL,
                                             0x0f0f0f0f00000000ULL, 0xf0f0f0f000000000ULL};

[[nodiscard]] constexpr Bitboard quadrant_of(int sq) {
    return kQuadrants[static_cast<std::size_t>((sq >= 32 ? 2 : 0) + ((sq & 7) >= 4 ? 1 : 0))];
}

// The quadrants holding an odd number of empty cells.
[[nodiscard]] Bitboard odd_quadrants(Bitboard empty) {
    Bitboard odd = 0;
    for (const Bitboard q : kQuadrants)
        if ((popcount(empty & q) & 1) != 0) odd |= q;
    return odd;
}

[[nodiscard]] int final_score(const Position& pos) {
    const int d = pos.disc_diff();
    return d > 0 ? kWin + 100 * d : d < 0 ? -kWin + 100 * d : 0;
}

// The final difference when the last empty cell is `sq`.
[[nodiscard]] int solve_last(const Position& pos, int sq) {
    const int d = pos.disc_diff();
    if (const Bitboard f = flips(pos.own, pos.opp, sq); f != 0) return d + 2 * popcount(f) + 1;
    if (const Bitboard f = flips(pos.opp, pos.own, sq); f != 0) return d - 2 * popcount(f) - 1;
    return d;
}

// Moves of a node with their children, best-looking first on demand.
struct MoveList {
    std::array<int, kMaxMoves> sq{};
    std::array<int, kMaxMoves> key{};
    std::array<Position, kMaxMoves> child{};
    int size = 0;

    void add(int s, int k, const Position& c) {
        sq[size] = s;
        key[size] = k;
        child[size] = c;
        ++size;
    }
    // Swaps the best remaining move into place i.
    void pick(int i) {
        int best = i;
        for (int j = i + 1; j < size; ++j)
            if (key[j] > key[best]) best = j;
        std::swap(sq[i], sq[best]);
        std::swap(key[i], key[best]);
        std::swap(child[i], child[best]);
    }
};

// The number of replies after a move, corners counted twice.
[[nodiscard]] int reply_weight(const Position& child) {
    const Bitboard replies = child.moves();
    return popcount(replies) + popcount(replies & kCorners);
}

void generate_mid(const Position& pos, Bitboard moves, int tt_move, int depth, MoveList& list) {
    list.size = 0;
    for (; moves != 0; moves &= moves - 1) {
        const int sq = lsb(moves);
        const Position child = pos.play(sq);
        int key = kPriority[static_cast<std::size_t>(sq)];
        if (depth >= 2) key -= 12 * reply_weight(child);
        if (sq == tt_move) key = 1 << 20;
        list.add(sq, key, child);
    }
}

void generate_end(const Position& pos, Bitboard moves, int tt_move, Bitboard parity,
                  MoveList& list) {
    list.size = 0;
    for (; moves != 0; moves &= moves - 1) {
        const int sq = lsb(moves);
        const Position child = pos.play(sq);
        int key = -16 * reply_weight(child);
        if ((bit(sq) & kCorners) != 0) key += 12;
        if ((bit(sq) & parity) != 0) key += 6;
        if (sq == tt_move) key = 1 << 20;
        list.add(sq, key, child);
    }
}

}  // namespace

protocol::Go with_pro_reserve(protocol::Go go) {
    if (go.move_ms > 0)
        go.move_ms -= std::min<std::int64_t>(go.move_ms * 6 / 10, 40 + go.move_ms / 5);
    return go;
}

Searcher::Searcher(const Weights& weights, int tt_bits)
    : weights_(weights),
      table_(std::size_t{1} << tt_bits),
      mask_((std::uint64_t{1} << tt_bits) - 1) {}

void Searcher::clear() {
    std::fill(table_.begin(), table_.end(), Entry{});
    generation_ = 0;
    game_ = 1;
}

void Searcher::new_game() {
    if (++game_ == 0) clear();  // after 65535 games, really clear once
}

bool Searcher::out_of_time() {
    if ((++nodes_ & kCheckMask) == 0 && clock_->past_hard()) stopped_ = true;
    return stopped_;
}

const Searcher::Entry* Searcher::probe(std::uint64_t key) const {
    const Entry& e = table_[key & mask_];
    return e.key == key && e.bound != 0 && e.game == game_ ? &e : nullptr;
}

void Searcher::store(std::uint64_t key, int depth, int score, int alpha0, int beta, int move) {
    Entry& e = table_[key & mask_];
    // Keep a deeper result of the same search for another position.
    if (e.game == game_ && e.generation == generation_ && e.key != key && e.depth > depth) return;
    e.key = key;
    e.score = static_cast<std::int16_t>(score);
    e.depth = static_cast<std::int8_t>(depth);
    e.bound = score <= alpha0 ? kUpper : score >= beta ? kLower : kExact;
    e.move = static_cast<std::int8_t>(move);
    e.generation = generation_;
    e.game = game_;
}

int Searcher::pvs(const Position& pos, int depth, int alpha, int beta) {
    if (out_of_time()) return 0;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        if (legal_moves(pos.opp, pos.own) == 0) return final_score(pos);
        return -pvs(pos.pass(), depth, -beta, -alpha);  // a pass uses no depth
    }
    if (depth <= 0) return evaluate(weights_, pos, moves, legal_moves(pos.opp, pos.own));

    const std::uint64_t key = hash_of(pos);
    int tt_move = -1;
    if (const Entry* e = probe(key)) {
        tt_move = e->move;
        if (e->depth >= depth) {
            const int s = e->score;
            if (e->bound == kExact || (e->bound == kLower && s >= beta) ||
                (e->bound == kUpper && s <= alpha))
                return s;
        }
    }

    MoveList list;
    generate_mid(pos, moves, tt_move, depth, list);
    const int alpha0 = alpha;
    int best = -kInf;
    int best_move = -1;
    for (int i = 0; i < list.size; ++i) {
        list.pick(i);
        const Position& child = list.child[i];
        int v;
        if (i == 0) {
            v = -pvs(child, depth - 1, -beta, -alpha);
        } else {
            v = -pvs(child, depth - 1, -alpha - 1, -alpha);
            if (v > alpha && v < beta && !stopped_) v = -pvs(child, depth - 1, -beta, -alpha);
        }
        if (stopped_) return 0;
        if (v > best) {
            best = v;
            best_move = list.sq[i];
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    store(key, depth, best, alpha0, beta, best_move);
    return best;
}

int Searcher::end_parity(const Position& pos, int alpha, int beta, int empties, Bitboard parity) {
    if (out_of_time()) return 0;
    const Bitboard empty = pos.empty();
    if (empties == 1) return solve_last(pos, lsb(empty));
    int best = -kInf;
    const std::array<Bitboard, 2> groups{empty & parity, empty & ~parity};
    for (const Bitboard group : groups) {
        for (Bitboard rest = group; rest != 0; rest &= rest - 1) {
            const int sq = lsb(rest);
            const Bitboard f = flips(pos.own, pos.opp, sq);
            if (f == 0) continue;
            const Position child{pos.opp ^ f, pos.own | f | bit(sq)};
            const int v = -end_parity(child, -beta, -alpha, empties - 1, parity ^ quadrant_of(sq));
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) return best;
                }
            }
        }
    }
    if (best != -kInf) return best;
    // No move: pass, or the game is over.
    if (legal_moves(pos.opp, pos.own) == 0) return pos.disc_diff();
    return -end_parity(pos.pass(), -beta, -alpha, empties, parity);
}

int Searcher::end_search(const Position& pos, int alpha, int beta, int empties) {
    if (empties <= kParityEmpties)
        return end_parity(pos, alpha, beta, empties, odd_quadrants(pos.empty()));
    if (out_of_time()) return 0;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        if (legal_moves(pos.opp, pos.own) == 0) return pos.disc_diff();
        return -end_search(pos.pass(), -beta, -alpha, empties);
    }
    // The other side's stable discs bound what the mover can reach.
    if (empties >= kStabilityEmpties && alpha >= 64 - 2 * popcount(pos.opp)) {
        const int upper = 64 - 2 * popcount(stable_discs(pos.opp, pos.own));
        if (upper <= alpha) return upper;
        beta = std::min(beta, upper);
    }

    const std::uint64_t key = hash_of(pos) ^ kEndSalt;
    int tt_move = -1;
    if (empties >= kTableEmpties) {
        if (const Entry* e = probe(key)) {
            tt_move = e->move;
            const int s = e->score;
            if (e->bound == kExact || (e->bound == kLower && s >= beta) ||
                (e->bound == kUpper && s <= alpha))
                return s;
            if (e->bound == kLower) alpha = std::max(alpha, s);
            if (e->bound == kUpper) beta = std::min(beta, s);
        }
    }

    MoveList list;
    generate_end(pos, moves, tt_move, odd_quadrants(pos.empty()), list);
    const int alpha0 = alpha;
    int best = -kInf;
    int best_move = -1;
    for (int i = 0; i < list.size; ++i) {
        list.pick(i);
        const Position& child = list.child[i];
        int v;
        if (i == 0) {
            v = -end_search(child, -beta, -alpha, empties - 1);
        } else {
            v = -end_search(child, -alpha - 1, -alpha, empties - 1);
            if (v > alpha && v < beta && !stopped_)
                v = -end_search(child, -beta, -alpha, empties - 1);
        }
        if (stopped_) return 0;
        if (v > best) {
            best = v;
            best_move = list.sq[i];
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    if (empties >= kTableEmpties) store(key, 64, best, alpha0, beta, best_move);
    return best;
}

std::optional<Report> Searcher::mid_root(const Position& pos, std::vector<RootMove>& moves,
                                         int depth) {
    int alpha = -kInf;
    const int beta = kInf;
    Report report;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Position child = pos.play(moves[i].sq);
        int v;
        if (i == 0) {
            v = -pvs(child, depth - 1, -beta, -alpha);
        } else {
            v = -pvs(child, depth - 1, -alpha - 1, -alpha);
            if (v > alpha && !stopped_) v = -pvs(child, depth - 1, -beta, -alpha);
        }
        if (stopped_) break;
        moves[i].score = i == 0 || v > alpha ? v : -kInf;
        if (v > alpha) {
            alpha = v;
            report.move = moves[i].sq;
            report.score = v;
        }
    }
    if (report.move < 0) return std::nullopt;  // not even the first move finished
    // Best first for the next iteration; a move that finished better than the
    // old best comes first even when the iteration was cut short.
    std::stable_sort(moves.begin(), moves.end(),
                     [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
    report.depth = depth;
    report.nodes = nodes_;
    return report;
}

std::optional<Report> Searcher::end_root(const Position& pos, std::vector<RootMove>& moves,
                                         int alpha, int beta) {
    Report report;
    report.exact = true;
    report.depth = pos.empties();
    int best = -kInf;
    std::size_t best_index = 0;
    const int empties = pos.empties() - 1;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Position child = pos.play(moves[i].sq);
        int v;
        if (i == 0) {
            v = -end_search(child, -beta, -alpha, empties);
        } else {
            v = -end_search(child, -alpha - 1, -alpha, empties);
            if (v > alpha && v < beta && !stopped_) v = -end_search(child, -beta, -alpha, empties);
        }
        if (stopped_) return std::nullopt;
        if (v > best) {
            best = v;
            best_index = i;
            report.move = moves[i].sq;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    // The best move first for the next solve; the others keep their order
    // (their scores are only bounds).
    std::rotate(moves.begin(), moves.begin() + static_cast<std::ptrdiff_t>(best_index),
                moves.begin() + static_cast<std::ptrdiff_t>(best_index) + 1);
    report.score = best;
    report.nodes = nodes_;
    return report;
}

std::optional<int> Searcher::solve(const Position& pos, int alpha, int beta,
                                   const SearchClock& clock) {
    clock_ = &clock;
    stopped_ = false;
    const int v = end_search(pos, alpha, beta, pos.empties());
    if (stopped_) return std::nullopt;
    return v;
}

Report Searcher::solve_root(const Position& pos) {
    const SearchClock clock = SearchClock::unlimited();
    clock_ = &clock;
    stopped_ = false;
    nodes_ = 0;
    std::vector<RootMove> root;
    MoveList list;
    generate_end(pos, pos.moves(), -1, odd_quadrants(pos.empty()), list);
    for (int i = 0; i < list.size; ++i) {
        list.pick(i);
        root.push_back({list.sq[i], 0});
    }
    if (root.empty()) {
        Report r;
        r.exact = true;
        r.depth = pos.empties();
        r.score = *solve(pos, -kInf, kInf, clock);
        r.nodes = nodes_;
        return r;
    }
    return *end_root(pos, root, -kInf, kInf);
}

int Searcher::value(const Position& pos, int depth) {
    const SearchClock clock = SearchClock::unlimited();
    clock_ = &clock;
    stopped_ = false;
    return pvs(pos, depth, -kInf, kInf);
}

Report Searcher::search(const Position& pos, const SearchClock& clock, int max_depth,
                        int solve_empties, const std::function<void(const Report&)>& on_report,
                        const SearchClock* presolve, int exact_empties) {
    clock_ = &clock;
    stopped_ = false;
    nodes_ = 0;
    ++generation_;

    const int empties = pos.empties();
    const bool solving = empties <= solve_empties;
    // Depth beyond the empty cells adds nothing: every leaf is a final position.
    int last_depth = std::min(max_depth > 0 ? max_depth : 64, empties);
    // Before a solve, a short midgame search only orders the moves and
    // provides the fallback.
    if (solving) last_depth = std::min(last_depth, 10);
    const SearchClock& soft = solving && presolve != nullptr ? *presolve : clock;

    std::vector<RootMove> root;
    {
        MoveList list;
        generate_mid(pos, pos.moves(), -1, 2, list);
        for (int i = 0; i < list.size; ++i) {
            list.pick(i);
            root.push_back({list.sq[i], 0});
        }
    }
    Report best;
    best.move = root.front().sq;
    for (int depth = 1; depth <= last_depth; ++depth) {
        if (depth > 1 && soft.past_soft()) break;
        if (const auto r = mid_root(pos, root, depth)) {
            best = *r;
            if (!stopped_ && on_report) on_report(best);
        }
        if (stopped_) break;
    }
    if (solving && !stopped_) {
        // Win, draw or loss first, then (with at most `exact_empties`) the
        // exact count on the proved side of 0. A proved loss keeps the
        // midgame's move unless the count is in.
        if (const auto wld = end_root(pos, root, -1, 1)) {
            Report proof = *wld;
            proof.exact = false;
            proof.wld = true;
            proof.score = wld->score > 0 ? 1 : wld->score < 0 ? -1 : 0;
            if (proof.score >= 0) best = proof;
            if (on_report) on_report(proof);
            if (proof.score != 0 && empties <= exact_empties) {
                const auto exact =
                    proof.score > 0 ? end_root(pos, root, 0, 65) : end_root(pos, root, -65, 0);
                if (exact) {
                    best = *exact;
                    if (on_report) on_report(best);
                }
            } else {
                best.exact = true;
                best.wld = false;
            }
        }
    }
    best.nodes = nodes_;
    return best;
}

int solve_empties_for(std::int64_t usable_ms) {
    return usable_ms >= 600   ? 20
           : usable_ms >= 300 ? 19
           : usable_ms >= 110 ? 17
           : usable_ms >= 35  ? 16
                              : 14;
}

ProEngine::ProEngine(const ProOptions& options) : options_(options), searcher_(tuned_weights()) {}

void ProEngine::new_game(const games::Game& game, int /*player*/) {
    if (game.name() != "reversi") throw games::GameError("reversi-pro plays reversi only");
    searcher_.new_game();  // each game's moves never depend on earlier games
}

games::Move ProEngine::choose(const games::State& state, const protocol::Go& go,
                              const InfoSink& info) {
    const auto& reversi = dynamic_cast<const games::ReversiState&>(state);
    const Position pos = position_of(reversi);
    if (pos.moves() == 0) return games::kPass;  // the arena never asks then
    const protocol::Go budget = with_pro_reserve(go);
    const SearchClock clock(budget);
    std::int64_t ms = budget.move_ms;
    if (budget.clock_ms)
        ms = std::min<std::int64_t>(ms > 0 ? ms : *budget.clock_ms, *budget.clock_ms / 20 + 1);
    int depth = options_.depth;
    int solve = options_.solve_empties >= 0 ? options_.solve_empties : solve_empties_for(ms);
    if (options_.level) {
        depth = depth > 0 ? std::min(depth, *options_.level) : *options_.level;
        solve = std::min(solve, *options_.level + 4);
    }
    // The midgame part before a solve: a tenth of the time, more when the
    // solve may not finish and its move may have to stand.
    const SearchClock presolve(budget, pos.empties() >= solve - 1 ? 0.3 : 0.1);
    const auto t0 = SearchClock::Clock::now();
    const auto report = [&](const Report& r) {
        const auto us =
            std::chrono::duration_cast<std::chrono::microseconds>(SearchClock::Clock::now() - t0)
                .count();
        const auto nps = r.nodes * 1000000 / static_cast<std::uint64_t>(std::max<long>(us, 1));
        info("depth " + std::to_string(r.depth) + " score " + std::to_string(r.score) +
             (r.exact ? " exact"
              : r.wld ? " wld"
                      : "") +
             " nodes " + std::to_string(r.nodes) + " nps " + std::to_string(nps) + " pv " +
             square_name(r.move));
    };
    // The exact count only where it usually finishes in time: the arena
    // scores wins, draws and losses, which the proof already settles.
    return searcher_.search(pos, clock, depth, solve, report, &presolve, solve - 2).move;
}

int pro_bench() {
    // Positions from seeded random games (those of reversi-alphabeta's
    // bench): an opening, two midgames and a late midgame searched to a fixed
    // depth, then two endgames of 16 and 18 empties solved exactly.
    struct BenchCase {
        std::uint64_t seed;
        int plies;
        int depth;  // 0: exact solve
    };
    static constexpr std::array<BenchCase, 6> kCases{{
        {1, 8, 10},
        {2, 20, 10},
        {3, 28, 10},
        {4, 38, 10},
        {5, 44, 0},
        {6, 42, 0},
    }};
    Searcher searcher(tuned_weights());
    std::uint64_t nodes = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (const BenchCase& c : kCases) {
        const games::ReversiState state = random_position(c.seed, c.plies);
        const Position pos = position_of(state);
        const SearchClock clock = SearchClock::unlimited();
        searcher.clear();
        const Report r =
            c.depth == 0 ? searcher.solve_root(pos) : searcher.search(pos, clock, c.depth, 0);
        nodes += r.nodes;
        std::cout << "position " << state.ply() << " plies, " << pos.empties() << " empties: depth "
                  << r.depth << " score " << r.score << (r.exact ? " exact" : "") << " nodes "
                  << r.nodes << " move " << square_name(r.move) << "\n";
    }
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    std::cout << "nodes " << nodes << "\nnps "
              << nodes * 1000000 / static_cast<std::uint64_t>(std::max<long>(us, 1)) << "\n";
    return 0;
}

}  // namespace arena::bots::reversi::pro
