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
#include "bots/reversi/search_output.hpp"

namespace arena::bots::reversi {
namespace {

using search::kPriority;
using search::MoveList;

// Every evaluation, whatever the weights, stays below the game-over scores
// (at least kWinScore - 64 in absolute value).
static_assert(kEvalBound < kWinScore - 64);

constexpr std::uint64_t kEndgameSalt = 0x5bd1e9955bd1e995ULL;

// Few empties: no table, no sorting, just the empty cells in order.
constexpr int kShallowEmpties = 6;
// Table probes in the solver from this many empties up.
constexpr int kTableEmpties = 8;

[[nodiscard]] int final_score(const Position& pos) {
    const int d = pos.disc_diff();
    return d > 0 ? kWinScore + d : d < 0 ? -kWinScore + d : 0;
}

// Fills `list` with the moves of `pos`; with `mobility` the key prefers moves
// that leave the opponent few replies, as the endgame's fastest-first does.
void generate(const Position& pos, Bitboard moves, int tt_move, bool mobility, MoveList& list) {
    list.size = 0;
    for (; moves != 0; moves &= moves - 1) {
        const int sq = lsb(moves);
        const Position child = pos.play(sq);
        int key = kPriority[static_cast<std::size_t>(sq)];
        if (mobility) key -= 4 * popcount(child.moves());
        if (sq == tt_move) key = 1 << 20;
        list.add(sq, key, child);
    }
}

}  // namespace

Searcher::Searcher(int tt_bits, const EvalWeights& weights)
    : SearchBase(tt_bits), weights_(weights) {}

void Searcher::new_search() {
    // Entries of older searches never match; on wrap-around, really clear them
    // so that a search never depends on what the process searched before.
    if (++generation_ == 0) {
        clear_table();
        generation_ = 1;
    }
}

const search::Entry* Searcher::probe(std::uint64_t key) {
    const search::Entry& e = slot(key);
    return e.key == key && e.generation == generation_ ? &e : nullptr;
}

void Searcher::store(std::uint64_t key, int depth, int score, int alpha0, int beta, int move) {
    search::Entry& e = slot(key);
    // Keep a deeper result of the same search for another position.
    if (e.generation == generation_ && e.key != key && e.depth > depth) return;
    write(e, key, depth, score, alpha0, beta, move, 0);
}

int Searcher::negamax(const Position& pos, int depth, int alpha, int beta) {
    if (out_of_time()) return 0;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        const Bitboard replies = legal_moves(pos.opp, pos.own);
        if (replies == 0) return final_score(pos);
        if (depth == 0) return evaluate(pos, 0, replies, weights_);
        return -negamax(pos.pass(), depth, -beta, -alpha);  // a pass uses no depth (seed)
    }
    if (depth == 0) return evaluate(pos, moves, legal_moves(pos.opp, pos.own), weights_);

    const std::uint64_t key = hash_of(pos);
    int tt_move = -1;
    if (const search::Entry* e = probe(key)) {
        tt_move = e->move;
        if (e->depth >= depth && search::decides(*e, alpha, beta)) return e->score;
    }

    MoveList list;
    generate(pos, moves, tt_move, depth >= 2, list);
    const auto best = search_moves(list, alpha, beta, [&](const Position& child, int a, int b) {
        return -negamax(child, depth - 1, -b, -a);
    });
    if (!best) return 0;
    store(key, depth, best->score, alpha, beta, best->move);
    return best->score;
}

int Searcher::solve_node(const Position& pos, int alpha, int beta) {
    const int empties = pos.empties();
    if (empties <= kShallowEmpties) return solve_few<false>(pos, alpha, beta, empties, 0);
    if (out_of_time()) return 0;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        if (legal_moves(pos.opp, pos.own) == 0) return pos.disc_diff();
        return -solve_node(pos.pass(), -beta, -alpha);
    }

    const std::uint64_t key = hash_of(pos) ^ kEndgameSalt;
    int tt_move = -1;
    if (empties >= kTableEmpties) {
        if (const search::Entry* e = probe(key)) {
            tt_move = e->move;
            if (search::decides(*e, alpha, beta)) return e->score;
            search::narrow(*e, alpha, beta);
        }
    }

    MoveList list;
    generate(pos, moves, tt_move, true, list);
    const auto best = search_moves(list, alpha, beta, [&](const Position& child, int a, int b) {
        return -solve_node(child, -b, -a);
    });
    if (!best) return 0;
    if (empties >= kTableEmpties) store(key, 64, best->score, alpha, beta, best->move);
    return best->score;
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
    const auto best = search_moves(
        list, -kInfinity, kInfinity,
        [&](const Position& child, int a, int b) { return -solve_node(child, -b, -a); });
    if (!best) return std::nullopt;
    report.move = best->move;
    report.score = best->score;
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
        root = search::root_moves(list);
    }
    SearchReport best = deepen(pos, root, last_depth, clock, on_report,
                               [&](const Position& child, int depth, int a, int b) {
                                   return -negamax(child, depth - 1, -b, -a);
                               });
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
    // `go depth=` replaces the depth, as a level does (no solver); nodes=
    // stops any search, the solve included, after that many nodes.
    const SearchLimits limits = SearchLimits::of(go);
    if (limits.depth > 0) {
        depth = limits.depth;
        endgame = 0;
    }
    searcher_.set_limits(limits);
    const auto t0 = SearchClock::Clock::now();
    const auto report = [&](const SearchReport& r) {
        info(info_line(r.depth, r.score, r.exact ? "exact" : "", r.nodes, t0, r.move));
    };
    const SearchReport r = searcher_.search(pos, clock, depth, endgame, report);
    return r.move;
}

int alphabeta_bench(const EvalWeights& weights) {
    // Positions from seeded random games: an opening, two midgames, a late
    // midgame, each searched to a fixed depth, and a 16-empty endgame solved
    // exactly.
    static constexpr std::array<BenchCase, 5> kCases{{
        {1, 8, 9},
        {2, 20, 8},
        {3, 28, 8},
        {4, 38, 8},
        {5, 44, 0},
    }};
    Searcher searcher(20, weights);
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
    print_bench_totals(nodes, t0);
    return 0;
}

}  // namespace arena::bots::reversi
