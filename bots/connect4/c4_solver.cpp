// c4-solver: exact play where it can be proven in time (see solver.hpp).
//
//   c4-solver [--depth N] [--no-book] [--level N] [--bench]
//   c4-solver --solve [--weak] [--no-reset] [--hash-log2 N] < positions
//   c4-solver --make-book PLIES [--hash-log2 N] > bots/connect4/book_7x6.hpp

#include <iostream>

#include "bots/common/bot_main.hpp"
#include "bots/connect4/solver.hpp"

namespace {
constexpr int kBenchDepth = 9;
}

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using namespace arena;
    c4::SolverOptions options;
    int hash_log2 = 0;
    int book_plies = -1;
    bool solve = false, weak = false, keep = false, no_book = false;
    bots::BotProgram program;
    program.info = {.name = "c4-solver", .author = "arena reference bots", .version = "1"};
    program.summary =
        "Connect-4 solver: negamax with alpha-beta, transposition table, null-window search; "
        "perfect play when proven in time, heuristic iterative deepening otherwise.";
    // clang-format off
    program.flags.add_options()
        ("depth", po::value<int>(&options.depth)->default_value(0), "fixed depth of the heuristic search, no proofs (0: by the clock)")
        ("no-book", po::bool_switch(&no_book), "do not use the 7x6 opening book")
        ("hash-log2", po::value<int>(&hash_log2)->default_value(0), "exact table size: 2^N entries of 16 bytes (default 21; --solve 22, --make-book 24)")
        ("solve", po::bool_switch(&solve), "read '<moves> [score]' lines (7x6) on stdin, print the exact score of each")
        ("weak", po::bool_switch(&weak), "--solve: only win (1), draw (0) or loss (-1)")
        ("no-reset", po::bool_switch(&keep), "--solve: keep the table between positions")
        ("make-book", po::value<int>(&book_plies), "write the 7x6 opening book up to PLIES to stdout");
    // clang-format on
    auto make = [&](const bots::CommonFlags& common, int depth) {
        c4::SolverOptions o = options;
        o.book = !no_book;
        if (depth > 0) o.depth = depth;
        if (common.level && o.depth == 0) o.depth = 2 * *common.level;
        if (hash_log2 > 0) o.log2_exact = std::clamp(hash_log2, 10, 30);
        return c4::make_solver_engine(o);
    };
    // The tool modes (--solve, --make-book) share the command line but do not
    // speak the protocol: they run here, where bot_main would start the loop.
    program.make_engine = [&](const bots::CommonFlags& common) -> std::unique_ptr<bots::Engine> {
        const auto log2 = [&](int fallback) {
            return std::clamp(hash_log2 > 0 ? hash_log2 : fallback, 10, 30);
        };
        const auto finish = [](int code) {
            std::cout.flush();
            std::exit(code);
        };
        if (solve) finish(c4::solve_lines(std::cin, std::cout, log2(22), weak, !keep));
        if (book_plies >= 0) finish(c4::make_book(std::cout, book_plies, log2(24)));
        return make(common, 0);
    };
    program.bench = [&](const bots::CommonFlags& common) {
        return c4::run_bench(*make(common, options.depth > 0 ? options.depth : kBenchDepth));
    };
    std::ios::sync_with_stdio(false);
    return bots::bot_main(argc, argv, program);
}
