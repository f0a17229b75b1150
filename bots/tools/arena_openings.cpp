// arena-openings: makes the balanced opening suites of configs/openings/
// (docs/openings.md). It draws candidate lines from a seed, drops duplicates
// (the same position reached by another move order, or its mirror image),
// and keeps those that pass the suite's criterion (opening_checks.hpp).
//
//   arena-openings connect4 [--seed N] [--candidates N] [--threshold T] [--shard K/N]
//   arena-openings gomoku --rule freestyle|exact5 [--seed N] [--candidates N] [--threshold T]
//                         [--depth D] ...   (gomoku-vcf's depth, default 8: D-1 and D judged)
//   arena-openings reversi [--seed N] [--candidates N] [--threshold T] [--depth D] ...
//
// Each kept line is printed as "<candidate index><TAB><moves>", so that
// shards (--shard K/N judges the candidates whose index is K modulo N) can be
// run in parallel and merged by index: the result does not depend on the
// number of shards. --from I skips the candidates before index I, so that a
// run can be extended to more candidates without judging the first ones
// again. scripts/make-openings drives it.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arena/games/reversi.hpp"
#include "bots/tools/opening_checks.hpp"

namespace {

using arena::openings::C4Judge;

struct Options {
    std::string game;
    std::string rule = "freestyle";
    std::uint64_t seed = 1;
    int candidates = 1000;
    int threshold = -1;  // per game default below
    int depth = -1;      // search depth; per game default below
    int shard = 0;
    int shards = 1;
    int from = 0;          // judge only candidates from this index on (to extend a run)
    bool verbose = false;  // every judged candidate on stderr
};

// splitmix64: the same stream on every platform.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : x_(seed) {}
    std::uint64_t next() {
        x_ += 0x9e3779b97f4a7c15ULL;
        std::uint64_t z = x_;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

  private:
    std::uint64_t x_;
};

std::string join(const std::vector<std::string>& moves) {
    std::string s;
    for (const auto& m : moves)
        s += (s.empty() ? "" : " ") + m;
    return s;
}

// The smallest of the images of a square grid (cells row-major, values 0/1/2)
// under the symmetries given: 8 (the square's) or 2 (left-right mirror only).
std::string canonical(const std::vector<char>& cells, int rows, int cols, bool all_eight) {
    std::string best;
    const int count = all_eight ? 8 : 2;
    for (int t = 0; t < count; ++t) {
        std::string image(cells.size(), '0');
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                int rr = r, cc = c;
                if (all_eight) {
                    if (t & 1) cc = cols - 1 - cc;
                    if (t & 2) rr = rows - 1 - rr;
                    if (t & 4) std::swap(rr, cc);
                } else if (t == 1) {
                    cc = cols - 1 - cc;
                }
                image[static_cast<std::size_t>(rr * cols + cc)] =
                    cells[static_cast<std::size_t>(r * cols + c)];
            }
        if (best.empty() || image < best) best = image;
    }
    return best;
}

// "<index> TAB <moves> TAB <what was measured>".
void emit(int index, const std::vector<std::string>& moves, const std::string& note) {
    std::cout << index << '\t' << join(moves) << '\t' << note << '\n' << std::flush;
}

// Connect-4: lines of 4..8 uniformly random plies that neither end the game
// nor leave the side to move a win at once; kept when |exact score| <=
// threshold. Candidates come in groups of kGroup sharing a random 4-ply
// prefix, judged by one shard in a row, so that the solver's table, kept
// between positions, serves the whole group.
int connect4(const Options& o) {
    constexpr int kGroup = 8;
    const int threshold = o.threshold < 0 ? 2 : o.threshold;
    C4Judge judge(24);
    Rng rng(o.seed);
    std::set<std::string> seen;
    int index = 0;
    std::vector<std::string> prefix;
    int group = -1;
    for (int drawn = 0; index < o.candidates && drawn < o.candidates * 1000; ++drawn) {
        if (drawn % kGroup == 0) {
            ++group;
            prefix.clear();
            for (int p = 0; p < 4; ++p)
                prefix.push_back(std::to_string(1 + rng.below(7)));
        }
        const int plies = 4 + rng.below(5);
        std::vector<std::string> moves = prefix;
        while (static_cast<int>(moves.size()) < plies)
            moves.push_back(std::to_string(1 + rng.below(7)));
        std::array<int, 7> height{};
        std::vector<char> cells(42, 0);
        bool fits = true;
        for (std::size_t p = 0; p < moves.size() && fits; ++p) {
            const auto col = static_cast<std::size_t>(moves[p][0] - '1');
            fits = height[col] < 6;
            if (fits)
                cells[static_cast<std::size_t>(height[col]++ * 7) + col] =
                    static_cast<char>(1 + p % 2);
        }
        if (!fits) continue;
        // Cheap tests first: legal, no win on the board, none at once.
        const auto quick = judge.judge(moves, 21);  // no search: any score is within 21
        if (!quick || quick->immediate_win) continue;
        if (!seen.insert(canonical(cells, 6, 7, false)).second) continue;
        const int i = index++;
        if (group % o.shards != o.shard || i < o.from) continue;
        const auto t0 = std::chrono::steady_clock::now();
        const auto v = judge.judge(moves, threshold);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
        if (v && v->within) emit(i, moves, "within " + std::to_string(threshold));
        if (o.verbose) std::cerr << i << " " << join(moves) << " " << ms << " ms\n";
    }
    return 0;
}

// Gomoku: 3..5 stones, alternately black and white, on distinct cells at
// most two steps (king moves) from the centre h8 of 15 x 15.
int gomoku(const Options& o) {
    const int threshold = o.threshold < 0 ? 400 : o.threshold;
    arena::openings::GomokuCriteria criteria;
    if (o.depth > 0) criteria.search_depth = o.depth;
    Rng rng(o.seed);
    std::set<std::string> seen;
    int index = 0;
    for (int drawn = 0; index < o.candidates && drawn < o.candidates * 1000; ++drawn) {
        const int stones = 3 + rng.below(3);
        std::vector<char> cells(25, 0);
        std::vector<std::string> moves;
        while (static_cast<int>(moves.size()) < stones) {
            const int cell = rng.below(25);
            if (cells[static_cast<std::size_t>(cell)] != 0) continue;
            cells[static_cast<std::size_t>(cell)] = static_cast<char>(1 + moves.size() % 2);
            const int col = 7 + cell % 5 - 2, row = 7 + cell / 5 - 2;
            moves.push_back(std::string(1, static_cast<char>('a' + col)) + std::to_string(row + 1));
        }
        if (!seen.insert(canonical(cells, 5, 5, true)).second) continue;
        const int i = index++;
        if (i % o.shards != o.shard || i < o.from) continue;
        const auto v = arena::openings::judge_gomoku(o.rule, moves, criteria);
        if (v && !v->vcf_to_move && !v->vcf_other && !v->undecided &&
            std::abs(v->score) <= threshold && std::abs(v->score_before) <= threshold) {
            emit(i, moves,
                 "score " + std::to_string(v->score_before) + " " + std::to_string(v->score));
        }
        if (o.verbose && v) {
            std::cerr << i << " " << join(moves) << " score " << v->score_before << " " << v->score
                      << " vcf " << v->vcf_to_move << v->vcf_other << v->undecided << "\n";
        }
    }
    return 0;
}

// Reversi: 8 uniformly random legal moves from the start position.
int reversi(const Options& o) {
    const int threshold = o.threshold < 0 ? 16 : o.threshold;
    Rng rng(o.seed);
    std::set<std::string> seen;
    int index = 0;
    for (int drawn = 0; index < o.candidates && drawn < o.candidates * 1000; ++drawn) {
        arena::games::ReversiState state;
        std::vector<std::string> moves;
        for (int p = 0; p < 8; ++p) {
            const auto legal = state.legal_moves();
            const auto m =
                legal[static_cast<std::size_t>(rng.below(static_cast<int>(legal.size())))];
            moves.push_back(state.format_move(m));
            state.apply(m);
            if (state.is_over()) break;
        }
        if (state.is_over() || state.current_player() != 1) continue;  // a pass happened
        std::vector<char> cells(64, 0);
        for (int sq = 0; sq < 64; ++sq) {
            const std::uint64_t b = std::uint64_t{1} << sq;
            cells[static_cast<std::size_t>(sq)] = (state.discs(1) & b)   ? 1
                                                  : (state.discs(2) & b) ? 2
                                                                         : 0;
        }
        if (!seen.insert(canonical(cells, 8, 8, true)).second) continue;
        const int i = index++;
        if (i % o.shards != o.shard || i < o.from) continue;
        const auto v = arena::openings::reversi_value(moves, o.depth < 0 ? 10 : o.depth);
        if (v && std::abs(*v) <= threshold) emit(i, moves, "value " + std::to_string(*v));
        if (o.verbose && v) std::cerr << i << " " << join(moves) << " value " << *v << "\n";
    }
    return 0;
}

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "arena-openings: " << problem << "\n"
              << "usage: arena-openings connect4|gomoku|reversi [--rule freestyle|exact5] "
                 "[--seed N] [--candidates N] [--threshold T] [--depth D] [--shard K/N] [--from I] "
                 "[--verbose]\n";
    std::exit(2);
}

int number(const std::string& flag, const std::string& text) {
    try {
        std::size_t used = 0;
        const long v = std::stol(text, &used);
        if (used == text.size() && v >= 0 && v <= 100'000'000) return static_cast<int>(v);
    } catch (const std::exception&) {
    }
    usage("bad value '" + text + "' for " + flag);
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) usage("which game?");
    Options o;
    o.game = args[0];
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& flag = args[i];
        if (flag == "--verbose") {
            o.verbose = true;
            continue;
        }
        if (i + 1 >= args.size()) usage("missing value after " + flag);
        const std::string& value = args[++i];
        if (flag == "--rule") {
            if (value != "freestyle" && value != "exact5") usage("unknown rule '" + value + "'");
            o.rule = value;
        } else if (flag == "--seed") {
            o.seed = static_cast<std::uint64_t>(number(flag, value));
        } else if (flag == "--candidates") {
            o.candidates = number(flag, value);
        } else if (flag == "--threshold") {
            o.threshold = number(flag, value);
        } else if (flag == "--from") {
            o.from = number(flag, value);
        } else if (flag == "--depth") {
            o.depth = number(flag, value);
        } else if (flag == "--shard") {
            const auto slash = value.find('/');
            if (slash == std::string::npos) usage("--shard takes K/N");
            o.shard = number(flag, value.substr(0, slash));
            o.shards = number(flag, value.substr(slash + 1));
            if (o.shards < 1 || o.shard >= o.shards) usage("bad --shard " + value);
        } else {
            usage("unknown flag " + flag);
        }
    }
    if (o.game == "connect4") return connect4(o);
    if (o.game == "gomoku") return gomoku(o);
    if (o.game == "reversi") return reversi(o);
    usage("unknown game '" + o.game + "'");
}
