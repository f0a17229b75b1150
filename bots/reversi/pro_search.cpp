#include "bots/reversi/pro_search.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <iostream>
#include <string>
#include <utility>

#include "arena/games/reversi.hpp"
#include "bots/reversi/search_output.hpp"

namespace arena::bots::reversi::pro {
namespace {

using search::kPriority;
using search::MoveList;

constexpr std::uint64_t kEndSalt = 0x6a09e667f3bcc909ULL;

// The solver: no move lists at or below kParityEmpties, the table from
// kTableEmpties up, the stability cut-off from kStabilityEmpties up.
constexpr int kParityEmpties = 6;
constexpr int kTableEmpties = 10;
constexpr int kStabilityEmpties = 8;

[[nodiscard]] int final_score(const Position& pos) {
    const int d = pos.disc_diff();
    return d > 0 ? kWin + 100 * d : d < 0 ? -kWin + 100 * d : 0;
}

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

Searcher::Searcher(const Weights& weights, int tt_bits) : SearchBase(tt_bits), weights_(weights) {}

void Searcher::clear() {
    clear_table();
    generation_ = 0;
    game_ = 1;
}

void Searcher::new_game() {
    if (++game_ == 0) clear();  // after 65535 games, really clear once
}

const search::Entry* Searcher::probe(std::uint64_t key) const {
    const search::Entry& e = slot(key);
    return e.key == key && e.bound != 0 && e.game == game_ ? &e : nullptr;
}

void Searcher::store(std::uint64_t key, int depth, int score, int alpha0, int beta, int move) {
    search::Entry& e = slot(key);
    // Keep a deeper result of the same search for another position.
    if (e.game == game_ && e.generation == generation_ && e.key != key && e.depth > depth) return;
    write(e, key, depth, score, alpha0, beta, move, game_);
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
    if (const search::Entry* e = probe(key)) {
        tt_move = e->move;
        if (e->depth >= depth && search::decides(*e, alpha, beta)) return e->score;
    }

    MoveList list;
    generate_mid(pos, moves, tt_move, depth, list);
    const auto best = search_moves(list, alpha, beta, [&](const Position& child, int a, int b) {
        return -pvs(child, depth - 1, -b, -a);
    });
    if (!best) return 0;
    store(key, depth, best->score, alpha, beta, best->move);
    return best->score;
}

int Searcher::end_search(const Position& pos, int alpha, int beta, int empties) {
    if (empties <= kParityEmpties)
        return solve_few<true>(pos, alpha, beta, empties, search::odd_quadrants(pos.empty()));
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
        if (const search::Entry* e = probe(key)) {
            tt_move = e->move;
            if (search::decides(*e, alpha, beta)) return e->score;
            search::narrow(*e, alpha, beta);
        }
    }

    MoveList list;
    generate_end(pos, moves, tt_move, search::odd_quadrants(pos.empty()), list);
    const auto best = search_moves(list, alpha, beta, [&](const Position& child, int a, int b) {
        return -end_search(child, -b, -a, empties - 1);
    });
    if (!best) return 0;
    if (empties >= kTableEmpties) store(key, 64, best->score, alpha, beta, best->move);
    return best->score;
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
    MoveList list;
    generate_end(pos, pos.moves(), -1, search::odd_quadrants(pos.empty()), list);
    std::vector<RootMove> root = search::root_moves(list);
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
        root = search::root_moves(list);
    }
    Report best = deepen(pos, root, last_depth, soft, on_report,
                         [&](const Position& child, int depth, int a, int b) {
                             return -pvs(child, depth - 1, -b, -a);
                         });
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
    // `go depth=` replaces the midgame depth and turns the solver off (a
    // depth past the empty cells is exact anyway); nodes= stops any search,
    // the solve included, after that many nodes.
    const SearchLimits limits = SearchLimits::of(go);
    if (limits.depth > 0) {
        depth = limits.depth;
        solve = 0;
    }
    searcher_.set_limits(limits);
    // The midgame part before a solve: a tenth of the time, more when the
    // solve may not finish and its move may have to stand.
    const SearchClock presolve(budget, pos.empties() >= solve - 1 ? 0.3 : 0.1);
    const auto t0 = SearchClock::Clock::now();
    const auto report = [&](const Report& r) {
        info(info_line(r.depth, r.score,
                       r.exact ? "exact"
                       : r.wld ? "wld"
                               : "",
                       r.nodes, t0, r.move));
    };
    // The exact count only where it usually finishes in time: the arena
    // scores wins, draws and losses, which the proof already settles.
    return searcher_.search(pos, clock, depth, solve, report, &presolve, solve - 2).move;
}

int pro_bench() {
    // Positions from seeded random games (those of reversi-alphabeta's
    // bench): an opening, two midgames and a late midgame searched to a fixed
    // depth, then two endgames of 16 and 18 empties solved exactly.
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
    print_bench_totals(nodes, t0);
    return 0;
}

}  // namespace arena::bots::reversi::pro
