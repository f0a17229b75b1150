#include "bots/reversi/alphabeta.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <iostream>
#include <string>
#include <utility>

#include "arena/games/reversi.hpp"
#include "bots/reversi/budget.hpp"
#include "bots/reversi/evaluation.hpp"

namespace arena::bots::reversi {
namespace {

constexpr std::uint64_t kCheckMask = 1023;  // look at the clock every 1024 nodes
constexpr std::uint64_t kEndgameSalt = 0x5bd1e9955bd1e995ULL;
constexpr int kMaxMoves = 40;  // no reversi position has more legal moves (the record is 33)

// Few empties: no table, no sorting, just the empty cells in order.
constexpr int kShallowEmpties = 6;
// Table probes in the solver from this many empties up.
constexpr int kTableEmpties = 8;

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

[[nodiscard]] int final_score(const Position& pos) {
    const int d = pos.disc_diff();
    return d > 0 ? kWinScore + d : d < 0 ? -kWinScore + d : 0;
}

// Moves of a node with their children, best-looking first on demand.
struct MoveList {
    std::array<int, kMaxMoves> sq{};
    std::array<int, kMaxMoves> key{};
    std::array<Position, kMaxMoves> child{};
    int size = 0;

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

// Fills `list` with the moves of `pos`; with `mobility` the key prefers moves
// that leave the opponent few replies, as the endgame's fastest-first does.
void generate(const Position& pos, Bitboard moves, int tt_move, bool mobility, MoveList& list) {
    list.size = 0;
    for (; moves != 0; moves &= moves - 1) {
        const int sq = lsb(moves);
        const Position child = pos.play(sq);
        int key = kPriority[sq];
        if (mobility) key -= 4 * popcount(child.moves());
        if (sq == tt_move) key = 1 << 20;
        list.sq[list.size] = sq;
        list.key[list.size] = key;
        list.child[list.size] = child;
        ++list.size;
    }
}

// The final difference when the last empty cell is `sq`.
[[nodiscard]] int solve_last(const Position& pos, int sq) {
    const int d = pos.disc_diff();
    if (const Bitboard f = flips(pos.own, pos.opp, sq); f != 0) return d + 2 * popcount(f) + 1;
    if (const Bitboard f = flips(pos.opp, pos.own, sq); f != 0) return d - 2 * popcount(f) - 1;
    return d;
}

}  // namespace

Searcher::Searcher(int tt_bits)
    : table_(std::size_t{1} << tt_bits), mask_((std::uint64_t{1} << tt_bits) - 1) {}

void Searcher::new_search() {
    // Entries of older searches never match; on wrap-around, really clear them
    // so that a search never depends on what the process searched before.
    if (++generation_ == 0) {
        std::fill(table_.begin(), table_.end(), Entry{});
        generation_ = 1;
    }
}

bool Searcher::out_of_time() {
    if ((++nodes_ & kCheckMask) == 0 && clock_->past_hard()) stopped_ = true;
    return stopped_;
}

Searcher::Entry* Searcher::probe(std::uint64_t key) {
    Entry& e = table_[key & mask_];
    return e.key == key && e.generation == generation_ ? &e : nullptr;
}

void Searcher::store(std::uint64_t key, int depth, int score, int alpha0, int beta, int move) {
    Entry& e = table_[key & mask_];
    // Keep a deeper result of the same search for another position.
    if (e.generation == generation_ && e.key != key && e.depth > depth) return;
    e.key = key;
    e.score = static_cast<std::int16_t>(score);
    e.depth = static_cast<std::int8_t>(depth);
    e.bound = score <= alpha0 ? kUpper : score >= beta ? kLower : kExact;
    e.move = static_cast<std::int8_t>(move);
    e.generation = generation_;
}

int Searcher::negamax(const Position& pos, int depth, int alpha, int beta) {
    if (out_of_time()) return 0;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        const Bitboard replies = legal_moves(pos.opp, pos.own);
        if (replies == 0) return final_score(pos);
        if (depth == 0) return evaluate(pos, 0, replies);
        return -negamax(pos.pass(), depth, -beta, -alpha);  // a pass uses no depth (seed)
    }
    if (depth == 0) return evaluate(pos, moves, legal_moves(pos.opp, pos.own));

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
    generate(pos, moves, tt_move, depth >= 2, list);
    const int alpha0 = alpha;
    int best = -kInfinity;
    int best_move = -1;
    for (int i = 0; i < list.size; ++i) {
        list.pick(i);
        const Position& child = list.child[i];
        int v;
        if (i == 0) {
            v = -negamax(child, depth - 1, -beta, -alpha);
        } else {
            v = -negamax(child, depth - 1, -alpha - 1, -alpha);
            if (v > alpha && v < beta) v = -negamax(child, depth - 1, -beta, -alpha);
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

int Searcher::solve_shallow(const Position& pos, int alpha, int beta, int empties) {
    if (out_of_time()) return 0;
    const Bitboard empty = pos.empty();
    if (empties == 1) return solve_last(pos, lsb(empty));
    int best = -kInfinity;
    for (Bitboard rest = empty; rest != 0; rest &= rest - 1) {
        const int sq = lsb(rest);
        const Bitboard f = flips(pos.own, pos.opp, sq);
        if (f == 0) continue;
        const Position child{pos.opp ^ f, pos.own | f | bit(sq)};
        const int v = -solve_shallow(child, -beta, -alpha, empties - 1);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) return best;
            }
        }
    }
    if (best != -kInfinity) return best;
    // No move: pass, or the game is over.
    if (legal_moves(pos.opp, pos.own) == 0) return pos.disc_diff();
    return -solve_shallow(pos.pass(), -beta, -alpha, empties);
}

int Searcher::solve_node(const Position& pos, int alpha, int beta) {
    const int empties = pos.empties();
    if (empties <= kShallowEmpties) return solve_shallow(pos, alpha, beta, empties);
    if (out_of_time()) return 0;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        if (legal_moves(pos.opp, pos.own) == 0) return pos.disc_diff();
        return -solve_node(pos.pass(), -beta, -alpha);
    }

    const std::uint64_t key = hash_of(pos) ^ kEndgameSalt;
    int tt_move = -1;
    if (empties >= kTableEmpties) {
        if (const Entry* e = probe(key)) {
            tt_move = e->move;
            const int s = e->score;
            if (e->bound == kExact || (e->bound == kLower && s >= beta) ||
                (e->bound == kUpper && s <= alpha))
                return s;
            // Narrow the window by the stored bound.
            if (e->bound == kLower) alpha = std::max(alpha, s);
            if (e->bound == kUpper) beta = std::min(beta, s);
        }
    }

    MoveList list;
    generate(pos, moves, tt_move, true, list);
    const int alpha0 = alpha;
    int best = -kInfinity;
    int best_move = -1;
    for (int i = 0; i < list.size; ++i) {
        list.pick(i);
        const Position& child = list.child[i];
        int v;
        if (i == 0) {
            v = -solve_node(child, -beta, -alpha);
        } else {
            v = -solve_node(child, -alpha - 1, -alpha);
            if (v > alpha && v < beta) v = -solve_node(child, -beta, -alpha);
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

std::optional<SearchReport> Searcher::search_root(const Position& pos, std::vector<RootMove>& moves,
                                                  int depth) {
    int alpha = -kInfinity;
    const int beta = kInfinity;
    SearchReport report;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Position child = pos.play(moves[i].sq);
        int v;
        if (i == 0) {
            v = -negamax(child, depth - 1, -beta, -alpha);
        } else {
            v = -negamax(child, depth - 1, -alpha - 1, -alpha);
            if (v > alpha && !stopped_) v = -negamax(child, depth - 1, -beta, -alpha);
        }
        if (stopped_) break;
        moves[i].score = i == 0 || v > alpha ? v : -kInfinity;
        if (v > alpha) {
            alpha = v;
            report.move = moves[i].sq;
            report.score = v;
        }
    }
    if (report.move < 0) return std::nullopt;  // not even the first move finished
    // Best first for the next iteration; the others keep their order.
    std::stable_sort(moves.begin(), moves.end(),
                     [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
    report.depth = depth;
    report.nodes = nodes_;
    return report;
}

std::optional<SearchReport> Searcher::solve_root(const Position& pos) {
    const Bitboard moves = pos.moves();
    SearchReport report;
    report.exact = true;
    report.depth = pos.empties();
    if (moves == 0) {
        const int v = legal_moves(pos.opp, pos.own) == 0
                          ? pos.disc_diff()
                          : -solve_node(pos.pass(), -kInfinity, kInfinity);
        if (stopped_) return std::nullopt;
        report.score = v;
        report.nodes = nodes_;
        return report;
    }
    MoveList list;
    generate(pos, moves, -1, true, list);
    int alpha = -kInfinity;
    for (int i = 0; i < list.size; ++i) {
        list.pick(i);
        int v;
        if (i == 0) {
            v = -solve_node(list.child[i], -kInfinity, -alpha);
        } else {
            v = -solve_node(list.child[i], -alpha - 1, -alpha);
            if (v > alpha && !stopped_) v = -solve_node(list.child[i], -kInfinity, -alpha);
        }
        if (stopped_) return std::nullopt;
        if (v > alpha) {
            alpha = v;
            report.move = list.sq[i];
        }
    }
    report.score = alpha;
    report.nodes = nodes_;
    return report;
}

std::optional<SearchReport> Searcher::solve(const Position& pos, const SearchClock& clock) {
    clock_ = &clock;
    stopped_ = false;
    return solve_root(pos);
}

int Searcher::value(const Position& pos, int depth) {
    const SearchClock clock = SearchClock::unlimited();
    clock_ = &clock;
    stopped_ = false;
    new_search();
    return negamax(pos, depth, -kInfinity, kInfinity);
}

SearchReport Searcher::search(const Position& pos, const SearchClock& clock, int max_depth,
                              int endgame_empties,
                              const std::function<void(const SearchReport&)>& on_report) {
    clock_ = &clock;
    stopped_ = false;
    nodes_ = 0;
    new_search();

    const int empties = pos.empties();
    const bool endgame = empties <= endgame_empties;
    // Depth beyond the empty cells adds nothing: every leaf is a final position.
    int last_depth = std::min(max_depth > 0 ? max_depth : 64, empties);
    // Before a solve, a short midgame search only provides the fallback move.
    if (endgame) last_depth = std::min(last_depth, 6);

    std::vector<RootMove> root;
    {
        MoveList list;
        generate(pos, pos.moves(), -1, true, list);
        for (int i = 0; i < list.size; ++i) {
            list.pick(i);
            root.push_back({list.sq[i], 0});
        }
    }
    SearchReport best;
    best.move = root.front().sq;
    for (int depth = 1; depth <= last_depth; ++depth) {
        if (depth > 1 && clock.past_soft()) break;
        const auto report = search_root(pos, root, depth);
        if (report) {
            best = *report;
            if (!stopped_ && on_report) on_report(best);
        }
        if (stopped_) break;
    }
    if (endgame && !stopped_ && !(last_depth == empties && best.depth == empties)) {
        if (const auto exact = solve_root(pos); exact && exact->move >= 0) {
            best = *exact;
            if (on_report) on_report(best);
        }
    }
    best.nodes = nodes_;
    return best;
}

void AlphaBetaEngine::new_game(const games::Game& game, int /*player*/) {
    if (game.name() != "reversi") throw games::GameError("reversi-alphabeta plays reversi only");
}

games::Move AlphaBetaEngine::choose(const games::State& state, const protocol::Go& go,
                                    const InfoSink& info) {
    const auto& reversi = dynamic_cast<const games::ReversiState&>(state);
    const Position pos = position_of(reversi);
    if (pos.moves() == 0) return games::kPass;  // the arena never asks then
    const SearchClock clock(with_reserve(go));
    int depth = options_.depth;
    int endgame = options_.endgame_empties;
    if (options_.level) {
        const int seed = seed_depth(popcount(pos.moves())) + *options_.level - 4;
        depth = std::max(1, depth > 0 ? std::min(depth, seed) : seed);
        endgame = 0;  // a depth beyond the empty cells is exact anyway
    }
    const auto t0 = SearchClock::Clock::now();
    const auto report = [&](const SearchReport& r) {
        const auto us =
            std::chrono::duration_cast<std::chrono::microseconds>(SearchClock::Clock::now() - t0)
                .count();
        const auto nps = r.nodes * 1000000 / static_cast<std::uint64_t>(std::max<long>(us, 1));
        info("depth " + std::to_string(r.depth) + " score " + std::to_string(r.score) +
             (r.exact ? " exact" : "") + " nodes " + std::to_string(r.nodes) + " nps " +
             std::to_string(nps) + " pv " + square_name(r.move));
    };
    const SearchReport r = searcher_.search(pos, clock, depth, endgame, report);
    return r.move;
}

int alphabeta_bench() {
    // Positions from seeded random games: an opening, two midgames, a late
    // midgame, each searched to a fixed depth, and a 16-empty endgame solved
    // exactly.
    struct BenchCase {
        std::uint64_t seed;
        int plies;
        int depth;  // 0: exact solve
    };
    static constexpr std::array<BenchCase, 5> kCases{{
        {1, 8, 9},
        {2, 20, 8},
        {3, 28, 8},
        {4, 38, 8},
        {5, 44, 0},
    }};
    Searcher searcher;
    std::uint64_t nodes = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (const BenchCase& c : kCases) {
        const games::ReversiState state = random_position(c.seed, c.plies);
        const Position pos = position_of(state);
        const SearchClock clock = SearchClock::unlimited();
        SearchReport r;
        if (c.depth == 0) {
            searcher.new_search();
            const std::uint64_t before = searcher.nodes();
            r = *searcher.solve(pos, clock);
            r.nodes = searcher.nodes() - before;
        } else {
            r = searcher.search(pos, clock, c.depth, 0);
        }
        nodes += r.nodes;
        std::cout << "position " << state.ply() << " plies: depth " << r.depth << " score "
                  << r.score << (r.exact ? " exact" : "") << " nodes " << r.nodes << " move "
                  << square_name(r.move) << "\n";
    }
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    std::cout << "nodes " << nodes << "\nnps "
              << nodes * 1000000 / static_cast<std::uint64_t>(std::max<long>(us, 1)) << "\n";
    return 0;
}

}  // namespace arena::bots::reversi
